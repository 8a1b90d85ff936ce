import {
  CoatSchema,
  insufficientScope,
  LineIdSchema,
  type OperationContext,
  PetTypeSchema,
  type Scope,
  ServiceError,
  ServiceIdsSchema,
  WeightKgSchema,
} from '../core/index.js';
import { PricingError, quote as priceQuote, type Quote } from '@nogpets/pricing-tiers';
import type { AddressRow, LineRow, Offer, ServiceRow } from '@nogpets/store';
import { z } from 'zod';
import {
  assessCoverage,
  bookableOffer,
  BusinessIdShape,
  recordPlaceLead,
  type WhereInput,
  WhereShape,
} from '../places/index.js';
import { findSavedPetsAndAddress } from '@nogpets/store';

const ServiceIds = ServiceIdsSchema.meta({
  description: 'One PRIMARY service of the category plus any EXTRAs, ids from list_services.',
});

const PetByValue = z
  .object({
    name: z.string().trim().min(1).max(60),
    type: PetTypeSchema,
    weightKg: WeightKgSchema.meta({
      description: 'An estimate is fine (0.01 to 150, two decimals at most).',
    }),
    coat: CoatSchema,
    serviceIds: ServiceIds,
  })
  .strict()
  .meta({
    id: 'PetByValue',
    description: 'A pet described in the request (no sign-in needed), with the services it is to have.',
    example: { name: 'Rex', type: 'DOG', weightKg: 12.5, coat: 'SHORT', serviceIds: ['groom-dog-bath'] },
  });

const SavedPet = z
  .object({
    petId: z.string().min(1).max(128).meta({ description: 'A saved pet (needs a credential).' }),
    serviceIds: ServiceIds,
  })
  .strict()
  .meta({
    id: 'SavedPetRef',
    description: 'A saved pet (list_pets, add_pet) by its id, with the services it is to have.',
  });

export const QuoteRequestShape = {
  ...BusinessIdShape,
  category: LineIdSchema,
  ...WhereShape,
  addressId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .meta({ description: 'A saved address (needs a credential).' }),
  pets: z
    .array(z.union([PetByValue, SavedPet]))
    .min(1)
    .max(10),
};

export const QuoteSchema = z
  .object({
    category: LineIdSchema,
    durationMin: z.int(),
    pets: z.array(
      z.object({
        name: z.string(),
        items: z.array(
          z.object({
            serviceId: z.string(),
            name: z.string(),
            kind: z.enum(['PRIMARY', 'EXTRA']),
            priceCents: z.int(),
            durationMin: z.int(),
          }),
        ),
      }),
    ),
    subtotalCents: z.int(),
    cardFeeCents: z.int(),
    cardTotalCents: z.int(),
    cashTotalCents: z.int(),
    acceptsCash: z.boolean(),
    summary: z.string().meta({ description: 'A sentence to show the person.' }),
    groupSize: z
      .int()
      .optional()
      .meta({ description: 'Group walks: places the booking takes (one per dog).' }),
  })
  .meta({
    id: 'Quote',
    description:
      'The price and duration of a request, per pet and service, in cents of rand; `summary` is the sentence to show.',
    example: {
      category: 'grooming',
      durationMin: 60,
      pets: [
        {
          name: 'Rex',
          items: [
            {
              serviceId: 'groom-dog-bath',
              name: 'Dog bath, blow-dry & brush-out',
              kind: 'PRIMARY',
              priceCents: 38000,
              durationMin: 60,
            },
          ],
        },
      ],
      subtotalCents: 38000,
      cardFeeCents: 1000,
      cardTotalCents: 39000,
      cashTotalCents: 38000,
      acceptsCash: true,
      summary:
        'Mobile grooming for Rex (Dog bath, blow-dry & brush-out, R380): about 1 h, R380 cash or R390 by card.',
    },
  });

export interface QuoteRequest extends WhereInput {
  /** The business asked for; the operator's own when left out. */
  businessId?: string | undefined;
  category: 'grooming' | 'walking' | 'sitting';
  pets: (
    | { petId: string; serviceIds: string[] }
    | {
        name: string;
        type: 'DOG' | 'CAT';
        weightKg: number;
        coat: 'SHORT' | 'MEDIUM' | 'LONG';
        serviceIds: string[];
      }
  )[];
}

type PetByValueInput = Extract<QuoteRequest['pets'][number], { name: string }>;

/** What a request naming saved pets or an address (`petId`, `addressId`) may be answered besides. */
export const SAVED_REF_ERRORS = [
  {
    status: 401,
    description:
      'Saved pets (`petId`) or addresses (`addressId`) need a credential; a credential that is sent must be valid.',
  },
  {
    status: 403,
    description: 'The credential lacks `pets` (for `petId`) or `addresses` (for `addressId`).',
  },
  {
    status: 404,
    description:
      "A `petId` or `addressId` that is not one of the person's, or a `businessId` of no business.",
  },
];

/** Saved pets and addresses (`petId`, `addressId`) read from the person's account: they need a credential. */
async function savedData(ctx: OperationContext, input: QuoteRequest, implied: boolean) {
  const refs = input.pets.filter((p): p is { petId: string; serviceIds: string[] } => 'petId' in p);
  // Booking with saved pets and addresses is part of what bookings:write allows.
  const needs: Scope[] = implied
    ? []
    : [
        ...(refs.length ? (['pets'] as const) : []),
        ...(input.addressId !== undefined ? (['addresses'] as const) : []),
      ];
  if (needs.length && !ctx.auth) {
    throw new ServiceError(
      'UNAUTHORIZED',
      "Saved pets and addresses need the person's permission: call with their credential, or describe the pets and the place instead.",
      { scope: needs.join(' ') },
    );
  }
  if ((refs.length || input.addressId !== undefined) && !ctx.auth)
    throw new ServiceError('UNAUTHORIZED', 'Saved pets and addresses need a credential.');
  const missing = needs.filter((s) => !ctx.auth!.scopes.includes(s));
  if (missing.length) {
    throw insufficientScope(ctx.auth!, missing);
  }
  // The saved pets and address named, read in one round trip.
  const saved =
    refs.length || input.addressId !== undefined
      ? await findSavedPetsAndAddress(
          ctx.deps.sql,
          ctx.auth!.userId,
          refs.map((p) => p.petId),
          input.addressId ?? null,
        )
      : { pets: [], address: null };
  const savedPets = new Map(saved.pets.map((p) => [p.id, p]));
  const pets: PetByValueInput[] = input.pets.map((p) => {
    if (!('petId' in p)) return p;
    const pet = savedPets.get(p.petId);
    if (!pet) throw new ServiceError('NOT_FOUND', `No saved pet ${p.petId}.`, { petId: p.petId });
    return {
      name: pet.name,
      type: pet.type,
      weightKg: pet.weightKg,
      coat: pet.coat,
      serviceIds: p.serviceIds,
    };
  });
  let where: { address?: string; lat?: number; lng?: number; postalCode?: string } = {
    address: input.address,
    lat: input.lat,
    lng: input.lng,
    postalCode: input.postalCode,
  };
  let address: AddressRow | undefined;
  if (input.addressId !== undefined) {
    address = saved.address ?? undefined;
    if (!address)
      throw new ServiceError('NOT_FOUND', `No saved address ${input.addressId}.`, {
        addressId: input.addressId,
      });
    where =
      address.lat !== null && address.lng !== null && address.suburb !== null
        ? { lat: address.lat, lng: address.lng }
        : {
            address: [address.line1, address.suburb, address.postalCode, address.city]
              .filter(Boolean)
              .join(', '),
          };
  }
  return { pets, where, address };
}

export interface PricedRequest {
  offer: Offer;
  line: LineRow & { services: ServiceRow[] };
  quote: Quote;
  /** The saved address used, when the request named one. */
  address?: AddressRow | undefined;
}

/**
 * What quote and open times share: the saved-data check, the place (as coverage resolves it; a place
 * not served is a 409 NO_COVERAGE with a lead), and the price (pricing-tiers; its refusals are 400s).
 */
export async function priceRequest(
  ctx: OperationContext,
  input: QuoteRequest,
  operation: string,
  options: { implied?: boolean } = {},
): Promise<PricedRequest> {
  // The business first: one that cannot be booked here says so whatever else the request holds.
  const offer = await bookableOffer(ctx.deps, input.businessId);
  const { pets, where, address } = await savedData(ctx, input, options.implied ?? false);
  const line = offer.lines.find((l) => l.id === input.category);
  if (!line)
    throw new ServiceError(
      'BAD_REQUEST',
      `${input.category} is not offered${offer.business.isOperator ? '' : ` by ${offer.business.name}`}.`,
      {
        fields: [{ field: 'category', message: 'Not offered.' }],
      },
    );

  if (where.address !== undefined || where.lat !== undefined || where.postalCode !== undefined) {
    const { answer } = await assessCoverage(ctx, offer, where, operation);
    if (answer.error === 'UNKNOWN_PLACE') {
      throw new ServiceError('UNKNOWN_PLACE', answer.message ?? 'We could not tell where that is.', {
        message: answer.message,
        next: answer.next,
      });
    }
    if (!answer.covered) {
      throw new ServiceError('NO_COVERAGE', answer.message ?? 'We do not serve that place.', {
        message: answer.message,
        leadId: answer.leadId,
        next: answer.next,
        place: answer.place,
        nearest: answer.nearest,
      });
    }
    if (!answer.lines.find((l) => l.id === line.id)?.covered) {
      const place = answer.place?.suburb ?? answer.place?.postalCode ?? 'that place';
      const others = answer.lines.filter((l) => l.covered).map((l) => l.label.toLowerCase());
      const message = `${line.label} does not reach ${place}${others.length ? `; ${others.join(' and ')} does` : ''}. We've noted your request.`;
      const leadId = await recordPlaceLead(
        ctx,
        {
          businessId: offer.business.id,
          operation,
          reason: 'LINE_NOT_COVERED',
          query: {
            ...Object.fromEntries(Object.entries(where).filter(([, v]) => v !== undefined)),
            category: line.id,
          },
          place: answer.place,
          clientName: ctx.clientName,
        },
        offer.business,
        line.id,
      );
      throw new ServiceError('NO_COVERAGE', message, {
        message,
        leadId,
        next: 'Pass the message on to the person word for word; offer the services that do reach them.',
        place: answer.place,
      });
    }
  }

  try {
    const quote = priceQuote({
      line: { id: line.id, label: line.label, durationMode: line.durationMode },
      services: offer.lines.flatMap((l) => l.services),
      pets,
      serviceFeeCents: offer.business.serviceFeeCents,
      acceptsCash: offer.business.acceptsCash,
      currency: offer.business.currency,
    });
    return { offer, line, quote, address };
  } catch (err) {
    if (err instanceof PricingError) {
      throw new ServiceError('BAD_REQUEST', err.message, { reason: err.code, ...err.details });
    }
    throw err;
  }
}
