import type { Offer } from '@nogpets/store';
import { z } from 'zod';
import { defineOperation, LineIdSchema, PetTypeSchema, READ_ONLY } from '../core/index.js';
import { TierShape } from './service-model.js';
import { bookableOffer, BUSINESS_ERRORS, BusinessIdShape } from '../places/index.js';
import { priceRange } from '@nogpets/pricing-tiers';

const TierSchema = z.object(TierShape).meta({
  id: 'Tier',
  description: 'The first matching tier wins; if none matches, the service price and duration apply.',
});

const ServiceSchema = z
  .object({
    id: z.string().meta({ description: 'Used in `serviceIds`.' }),
    name: z.string(),
    kind: z.enum(['PRIMARY', 'EXTRA']),
    blurb: z.string(),
    petTypes: z.array(PetTypeSchema),
    priceCents: z.int().meta({ description: 'Fallback price in cents when no tier matches.' }),
    durationMin: z.int().meta({ description: 'Fallback duration in minutes.' }),
    fromCents: z.int(),
    toCents: z.int(),
    groupSize: z.int().meta({ description: 'Above 1 for group walks: dogs per walker.' }),
    tiers: z.array(TierSchema),
  })
  .meta({
    id: 'Service',
    description:
      'A service of a line: each pet takes one PRIMARY service plus any EXTRAs of the same line. Prices in cents of rand.',
  });

const LineSchema = z
  .object({
    id: LineIdSchema,
    label: z.string(),
    blurb: z.string(),
    durationMode: z.enum(['SUM', 'MAX']).meta({
      description:
        'SUM: pets are done one after another (grooming). MAX: pets are served together (walks, sitting).',
    }),
    repeats: z.boolean().meta({ description: 'Whether the line can be booked as a weekly repeat.' }),
    services: z.array(ServiceSchema),
  })
  .meta({ id: 'Line', description: 'A line of services (grooming, walking or sitting) and what it offers.' });

export const CatalogueSchema = z
  .object({
    businessId: z
      .string()
      .meta({ description: 'The business whose menu this is (pass it on to book with it).' }),
    businessName: z.string(),
    currency: z.string().meta({ example: 'ZAR' }),
    serviceFeeCents: z.int().meta({ description: 'Card fee per booking, in cents.' }),
    acceptsCash: z.boolean(),
    areas: z.array(z.string()).meta({ description: 'Suburbs covered by at least one line.' }),
    lines: z.array(LineSchema),
  })
  .meta({
    id: 'Catalogue',
    description:
      'What a business offers (NogPets in Stellenbosch unless a partner was asked for), with prices in cents of rand, ' +
      'and the suburbs it covers.',
  });

type Catalogue = z.input<typeof CatalogueSchema>;

// The catalogue is a pure function of the offer; the offer cache hands out one object while fresh.
const catalogues = new WeakMap<Offer, Catalogue>();

function catalogueOf(offer: Offer): Catalogue {
  const known = catalogues.get(offer);
  if (known) return known;
  const covered = new Set(offer.lines.flatMap((l) => l.areaIds));
  const catalogue: Catalogue = {
    businessId: offer.business.id,
    businessName: offer.business.name,
    currency: offer.business.currency,
    serviceFeeCents: offer.business.serviceFeeCents,
    acceptsCash: offer.business.acceptsCash,
    areas: offer.areas.filter((a) => covered.has(a.id)).map((a) => a.name),
    lines: offer.lines.map((l) => ({
      id: l.id,
      label: l.label,
      blurb: l.blurb,
      durationMode: l.durationMode,
      repeats: l.repeats,
      services: l.services.map((s) => ({
        id: s.id,
        name: s.name,
        kind: s.kind,
        blurb: s.blurb,
        petTypes: s.petTypes,
        priceCents: s.priceCents,
        durationMin: s.durationMin,
        ...priceRange(s),
        groupSize: s.groupSize,
        tiers: s.tiers,
      })),
    })),
  };
  catalogues.set(offer, catalogue);
  return catalogue;
}

export const listServices = defineOperation({
  operationId: 'listServices',
  toolName: 'list_services',
  title: 'List services and prices',
  tag: 'Services',
  mcp: 'person',
  method: 'GET',
  path: '/v1/services',
  inputIn: 'query',
  auth: 'public',
  description:
    'The catalogue of NogPets in Stellenbosch: grooming, dog walking and pet sitting, with prices in ZAR cents ' +
    '(38000 = R380), durations, price tiers by pet type, coat and weight, and the suburbs covered. Use it when the ' +
    'person asks what is offered or what something costs. Show prices as rand ranges (fromCents to toCents); for an ' +
    "exact price for their pets call get_quote. For a partner business give its `businessId` (from the directory's " +
    '`bookWith`), and pass the same `businessId` to check_coverage, get_quote, find_times and book. No sign-in needed.',
  input: z.object(BusinessIdShape).strict(),
  output: CatalogueSchema,
  successStatus: 200,
  errors: [
    { status: 400, description: 'A `businessId` that is not an id.' },
    BUSINESS_ERRORS.notFound,
    { status: 409, description: `${BUSINESS_ERRORS.conflict}.` },
    { status: 429, description: 'Too many requests.' },
  ],
  annotations: READ_ONLY,
  async handler(ctx, input) {
    return catalogueOf(await bookableOffer(ctx.deps, input.businessId));
  },
});
