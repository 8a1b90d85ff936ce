/**
 * Booking for a business's clients: findBusinessTimes / find_business_times,
 * bookForClient / book_for_client and rebookBooking / rebook_booking. The business's own resources,
 * the same slot engine, prices, holds, pay links and placement as the pet owner's find_times and
 * book (packages/operations/src/booking): only who the booking is for, and the notice the business
 * may waive, differ.
 */
import { initialState, payLinkExpiresAt } from '@nogpets/booking-rules';
import { formatMoney } from '@nogpets/pricing-tiers';
import { type DayResult, DEFAULT_MIN_NOTICE_MIN, findSlots } from '@nogpets/slot-engine';
import {
  type AddressRow,
  type BookingRow,
  type ClientRow,
  findBooking,
  findClients,
  findJobs,
  findSavedPetsAndAddress,
  insertClient,
  listResources,
  type Queryable,
} from '@nogpets/store';
import { z } from 'zod';
import {
  auditChange,
  CoatSchema,
  confirmStep,
  defineOperation,
  localDate,
  offersThrough,
  type OperationContext,
  PetTypeSchema,
  READ_ONLY,
  ServiceError,
  ServiceIdsSchema,
  transactionAsPool,
  WeightKgSchema,
} from '../core/index.js';
import type { BookingDetails } from './booking-model.js';
import { refused } from './booking-model.js';
import {
  askedRange,
  checkDateBounds,
  checkSearchDates,
  checkSlot,
  DATE,
  endOf,
  engineError,
  groupOf,
  HHMM,
  nothingOpen,
  slotInputFor,
  TimesAnswerSchema,
} from '../schedule/index.js';
import { makePayLink, type PlaceOptions, placeBookings, placeOneBooking } from './place.js';
import { type PricedRequest, priceRequest } from '../catalogue/index.js';
import { sourceOf } from '../events/index.js';
import { bookableOffer, BUSINESS_ERRORS } from '../places/index.js';
import {
  type InBusiness,
  inBusiness,
  RUN_ACCESS_ERRORS,
  type RunAccess,
  RunBusinessIdShape,
} from '../staff/index.js';
import { JobSchema, toJobs } from './jobs.js';

/** The notice a business booking asks when the business waives the public one: none, but never in the past. */
const WAIVED_NOTICE_MIN = 0;

const ServiceIds = ServiceIdsSchema.meta({
  description: "One PRIMARY service plus any EXTRAs, ids of the business's services (one line).",
});

const SavedPetRef = z
  .object({
    petId: z
      .string()
      .min(1)
      .max(128)
      .meta({ description: "A saved pet of the client's account (get_client)." }),
    serviceIds: ServiceIds,
  })
  .strict();

const ClientPetByValue = z
  .object({
    name: z.string().trim().min(1).max(60),
    type: PetTypeSchema,
    weightKg: WeightKgSchema,
    coat: CoatSchema,
    notes: z.string().trim().max(500).optional().meta({ description: 'For the crew (temperament, health).' }),
    serviceIds: ServiceIds,
  })
  .strict();

const PetsSchema = z
  .array(z.union([SavedPetRef, ClientPetByValue]))
  .min(1)
  .max(10)
  .meta({
    description:
      'Each pet with its services: a saved pet of a client with an account (`petId`), or a pet described (`name`, `type`, `weightKg`, `coat`, `notes`).',
  });

const IgnoreNotice = z
  .boolean()
  .optional()
  .meta({
    description:
      'true: waive the two hours of notice the public booking tools keep before a start (a walk-in now, a phone call for ' +
      'this afternoon); times still start from now on, in working hours, clear of other jobs and travel buffers.',
  });

type PetInput = z.output<typeof PetsSchema>[number];

/** The business's context for the booking core: everything it reads and writes goes through `tx`. */
function inTx(ctx: OperationContext, tx: Queryable): OperationContext {
  const sql = transactionAsPool(tx);
  return { ...ctx, deps: { ...ctx.deps, sql, offers: offersThrough(ctx.deps.offers, sql) } };
}

/**
 * A booking tool of the business: who may use it (inBusiness), then whether its booking tools work at
 * all (a business outside South Africa answers 409 NOT_AVAILABLE_IN_COUNTRY, as the public ones),
 * then `body` in the same transaction.
 */
function inBookingBusiness<T>(
  ctx: OperationContext,
  businessId: string | undefined,
  need: 'read' | 'change',
  body: (run: InBusiness) => Promise<T>,
): Promise<T> {
  return inBusiness(ctx, businessId, need, async (run) => {
    await bookableOffer(inTx(ctx, run.q).deps, run.access.business.id);
    return body(run);
  });
}

/** A client of this business by id, or 404 (another business's client is not shown to exist). */
async function clientOf(q: Queryable, access: RunAccess, clientId: string): Promise<ClientRow> {
  const [client] = await findClients(q, access.business.id, [clientId]);
  if (!client)
    throw new ServiceError('NOT_FOUND', `No client ${clientId} at ${access.business.name}.`, { clientId });
  return client;
}

/** The category (line) of the services asked for: the line of the first one; unknown ids are a 400. */
async function lineOf(ctx: OperationContext, access: RunAccess, pets: PetInput[]) {
  // The business's offer, as the booking tools read it: outside South Africa, 409 NOT_AVAILABLE_IN_COUNTRY.
  const offer = await bookableOffer(ctx.deps, access.business.id);
  const lineOfService = new Map(offer.lines.flatMap((l) => l.services.map((s) => [s.id, l.id] as const)));
  for (const [i, p] of pets.entries())
    for (const [j, id] of p.serviceIds.entries())
      if (!lineOfService.has(id))
        throw new ServiceError('BAD_REQUEST', `${access.business.name} has no service ${id}.`, {
          fields: [{ field: `pets.${i}.serviceIds.${j}`, message: 'Not a service of the business.' }],
        });
  return lineOfService.get(pets[0]!.serviceIds[0]!) as 'grooming' | 'walking' | 'sitting';
}

interface Resolved {
  priced: PricedRequest;
  /** The pets as the booking keeps them: saved ones by id, described ones with their facts. */
  detailPets: BookingDetails['pets'];
}

/**
 * Prices the pets (saved ones of the client's account read fresh, described ones as given) with
 * the business's services: pricing-tiers through the booking core's priceRequest. No coverage
 * check: the business decides where it goes.
 */
async function priceForClient(
  ctx: OperationContext,
  access: RunAccess,
  client: ClientRow | null,
  pets: PetInput[],
): Promise<Resolved> {
  const category = await lineOf(ctx, access, pets);
  const refs = pets.flatMap((p) => ('petId' in p ? [p.petId] : []));
  if (refs.length && !client?.userId)
    throw new ServiceError(
      'BAD_REQUEST',
      client
        ? `${client.name} has no account, so no saved pets: describe each pet (name, type, weightKg, coat).`
        : 'Saved pets (petId) belong to a client with an account: give client.clientId, or describe the pets.',
      { fields: [{ field: 'pets', message: 'Describe the pets.' }] },
    );
  const saved = refs.length
    ? await findSavedPetsAndAddress(ctx.deps.sql, client!.userId!, refs, null)
    : { pets: [], address: null };
  const byId = new Map(saved.pets.map((p) => [p.id, p]));
  const described = pets.map((p) => {
    if (!('petId' in p)) return p;
    const pet = byId.get(p.petId);
    if (!pet)
      throw new ServiceError('NOT_FOUND', `${client!.name} has no saved pet ${p.petId}.`, { petId: p.petId });
    return {
      name: pet.name,
      type: pet.type,
      weightKg: pet.weightKg,
      coat: pet.coat,
      serviceIds: p.serviceIds,
    };
  });
  const priced = await priceRequest(
    ctx,
    {
      businessId: access.business.id,
      category,
      pets: described.map(({ name, type, weightKg, coat, serviceIds }) => ({
        name,
        type,
        weightKg,
        coat,
        serviceIds,
      })),
    },
    'findBusinessTimes',
  );
  const detailPets = pets.map((p, i) =>
    'petId' in p
      ? { petId: p.petId, name: described[i]!.name, serviceIds: p.serviceIds }
      : // A pet by value carries its facts for the crew (the day plan reads them).
        ({
          name: p.name,
          type: p.type,
          weightKg: p.weightKg,
          coat: p.coat,
          notes: p.notes ?? null,
          serviceIds: p.serviceIds,
        } as unknown as BookingDetails['pets'][number]),
  );
  return { priced, detailPets };
}

/** A resource of the business that does the line's work, or 404 / 400. */
async function resourceFor(q: Queryable, access: RunAccess, priced: PricedRequest, resourceId: string) {
  const resource = (await listResources(q, access.business.id)).find((r) => r.id === resourceId);
  if (!resource)
    throw new ServiceError('NOT_FOUND', `No resource ${resourceId} at ${access.business.name}.`, {
      resourceId,
    });
  const kind = { grooming: 'VAN', walking: 'WALKER', sitting: 'SITTER' }[priced.line.id];
  if (resource.kind !== kind)
    throw new ServiceError(
      'BAD_REQUEST',
      `${resource.name} does not do ${priced.line.label.toLowerCase()}.`,
      {
        fields: [{ field: 'resourceId', message: `Not a ${kind}.` }],
      },
    );
  return resource;
}

// ---------------------------------------------------------------------------------------------
// findBusinessTimes

export const findBusinessTimes = defineOperation({
  operationId: 'findBusinessTimes',
  toolName: 'find_business_times',
  title: 'Find open times for a client',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/times',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    "Open times on the business's own vans, walkers and sitters for any of its services: the pets (a client's saved " +
    'pets with `clientId`, or described) with their `serviceIds`, `from`/`to` (local dates; default today and the next ' +
    '6 days; at most 31), an optional daily window and `resourceId`. The same slots and answer as find_times (`days`, ' +
    '`durationMin`, `quote`); pass a slot’s `start` and `resourceId` to book_for_client unchanged. The public tools keep ' +
    'two hours of notice; `ignoreNotice: true` waives it (send the same to book_for_client). Nothing open: 409 ' +
    'NO_AVAILABILITY with the next open times. Owners and managers; a business outside South Africa answers 409 ' +
    'NOT_AVAILABLE_IN_COUNTRY.',
  input: z
    .object({
      ...RunBusinessIdShape,
      clientId: z
        .string()
        .min(1)
        .max(128)
        .optional()
        .meta({ description: 'Whose saved pets `petId` names.' }),
      pets: PetsSchema,
      from: DATE.optional(),
      to: DATE.optional(),
      windowStart: HHMM.optional(),
      windowEnd: HHMM.optional(),
      resourceId: z
        .string()
        .min(1)
        .max(128)
        .optional()
        .meta({ description: 'Only this van, walker or sitter.' }),
      ignoreNotice: IgnoreNotice,
    })
    .strict()
    .superRefine((v, c) => {
      if (v.windowStart && v.windowEnd && v.windowStart >= v.windowEnd)
        c.addIssue({ code: 'custom', path: ['windowEnd'], message: 'Must be after windowStart.' });
    })
    .meta({
      example: {
        pets: [{ name: 'Rex', type: 'DOG', weightKg: 12.5, coat: 'SHORT', serviceIds: ['bp-groom-bath'] }],
        ignoreNotice: true,
      },
    }),
  output: TimesAnswerSchema.extend({
    businessId: z.string(),
    minNoticeMin: z
      .int()
      .meta({ description: 'The notice kept before the first time (0 with ignoreNotice).' }),
  }).meta({ id: 'BusinessTimes', description: "Open times on the business's own resources." }),
  successStatus: 200,
  errors: [
    ...RUN_ACCESS_ERRORS,
    {
      status: 409,
      description: `\`NO_AVAILABILITY\` (\`details.reason\`, \`details.message\`, \`details.alternatives\`) or ${BUSINESS_ERRORS.conflict}.`,
    },
  ],
  annotations: READ_ONLY,
  async handler(ctx, input) {
    return inBookingBusiness(ctx, input.businessId, 'read', async ({ q, access }) => {
      const c = inTx(ctx, q);
      const client = input.clientId ? await clientOf(q, access, input.clientId) : null;
      const { priced } = await priceForClient(c, access, client, input.pets);
      if (input.resourceId) await resourceFor(q, access, priced, input.resourceId);
      const tz = access.business.timezone;
      const today = localDate(ctx.deps.clock.now(), tz);
      checkSearchDates(today, tz, input);
      const slotInput = await slotInputFor(c, priced, { ...input, ...askedRange(input, today) });
      const minNoticeMin = input.ignoreNotice ? WAIVED_NOTICE_MIN : undefined;
      const engineInput = {
        ...slotInput,
        ...(minNoticeMin !== undefined ? { minNoticeMin } : {}),
        ...(input.resourceId
          ? { resources: slotInput.resources.filter((r) => r.id === input.resourceId) }
          : {}),
      };
      let days: DayResult[];
      try {
        days = findSlots(engineInput).days;
      } catch (err) {
        return engineError(err);
      }
      const quote = { ...priced.quote, category: priced.line.id };
      const noticeMin = minNoticeMin ?? DEFAULT_MIN_NOTICE_MIN;
      if (days.some((d) => d.slots.length > 0))
        return {
          businessId: access.business.id,
          minNoticeMin: noticeMin,
          durationMin: quote.durationMin,
          quote,
          days: days.map(({ why: _why, ...d }) => d),
        };
      // Nothing open: why, and the next open times, as find_times says it (without a lead).
      const { reason, alternatives, ...said } = nothingOpen(priced.line.label, days, engineInput);
      const message = alternatives.length
        ? said.message
        : `${said.message} Nothing is open in the next 14 days either.`;
      throw new ServiceError('NO_AVAILABILITY', message, { reason, message, alternatives });
    });
  },
});

// ---------------------------------------------------------------------------------------------
// Placing a booking for a client (bookForClient and rebookBooking)

const AddressByValue = z
  .object({
    line1: z.string().trim().min(1).max(200),
    suburb: z.string().trim().max(100).optional(),
    city: z.string().trim().max(100).optional(),
    postalCode: z.string().trim().max(20).optional(),
    accessNotes: z.string().trim().max(500).optional().meta({ description: 'Gate codes, keys, parking.' }),
  })
  .strict();

const AddressSchema = z
  .union([
    z
      .object({
        addressId: z
          .string()
          .min(1)
          .max(128)
          .meta({ description: "A saved address of the client's account." }),
      })
      .strict(),
    AddressByValue,
  ])
  .meta({
    description:
      'Where the job is: a saved address of a client with an account (`addressId`), or an address as told (`line1`, ' +
      '`suburb`, `city`, `postalCode`, `accessNotes`). Required for walks and sitting; leave it out for grooming at ' +
      "the business's own place (a salon table).",
  });

type AddressInput = z.output<typeof AddressSchema>;

/** Where the booking goes: a saved address of the client (its id held by the booking), or one as told. */
async function placeOf(
  ctx: OperationContext,
  client: Pick<ClientRow, 'name' | 'userId'>,
  priced: PricedRequest,
  address: AddressInput | undefined,
): Promise<{ addressId: string | null; text: string; accessNotes: string | null }> {
  if (!address) {
    if (priced.line.id !== 'grooming')
      throw new ServiceError('BAD_REQUEST', `${priced.line.label} needs the client's address.`, {
        fields: [{ field: 'address', message: 'Required for walks and sitting.' }],
      });
    return { addressId: null, text: '', accessNotes: null };
  }
  if ('addressId' in address) {
    const saved: AddressRow | null = client.userId
      ? (await findSavedPetsAndAddress(ctx.deps.sql, client.userId, [], address.addressId)).address
      : null;
    if (!saved)
      throw new ServiceError('NOT_FOUND', `${client.name} has no saved address ${address.addressId}.`, {
        addressId: address.addressId,
      });
    return {
      addressId: saved.id,
      text: [saved.line1, saved.suburb, saved.city].filter(Boolean).join(', '),
      accessNotes: saved.notes,
    };
  }
  return {
    addressId: null,
    text: [address.line1, address.suburb, address.postalCode, address.city].filter(Boolean).join(', '),
    accessNotes: address.accessNotes ?? null,
  };
}

interface Placing {
  access: RunAccess;
  /** The client, or one to create (a new client without an account) once confirmed. */
  client: ClientRow | { new: { name: string; phone: string | null; email: string | null } };
  pets: PetInput[];
  start: Date;
  resourceId: string;
  address: AddressInput | undefined;
  /** A saved address already resolved (a rebooking of a booking that names one). */
  place?: { addressId: string | null; text: string; accessNotes: string | null };
  paymentMethod: 'CARD' | 'CASH';
  notes: string;
  ignoreNotice: boolean;
  confirm: boolean;
  /** What the summary begins with ("Book", "Book again"). */
  verb: string;
  rebookOf?: string;
}

export const ClientBookingSchema = z
  .object({
    businessId: z.string(),
    clientId: z.string(),
    newClient: z.boolean().meta({ description: 'True when this booking made the client (no account).' }),
    booking: JobSchema,
    payUrl: z.url().optional().meta({
      description:
        'CARD: the link for the client to pay; valid 48 hours, the time held until then or its start.',
    }),
    payLinkExpiresAt: z.iso.datetime().optional(),
    rebookOf: z
      .string()
      .optional()
      .meta({ description: 'rebook_booking: the booking it repeats (unchanged).' }),
    next: z.string(),
  })
  .meta({
    id: 'ClientBooking',
    description:
      'A booking the business made for its client, as its bookings list shows it, and the pay link.',
  });

/**
 * Prices, checks the slot, asks for confirmation, then creates the client if new and places the
 * booking through the booking core (placeOneBooking, or placeBookings for a group walk: the
 * exclusion constraint, holds and pay link as book), in the caller's transaction.
 */
async function placeForClient(ctx: OperationContext, q: Queryable, p: Placing) {
  const { access } = p;
  const biz = access.business;
  const c = inTx(ctx, q);
  const existing = 'new' in p.client ? null : p.client;
  const { priced, detailPets } = await priceForClient(c, access, existing, p.pets);
  const resource = await resourceFor(q, access, priced, p.resourceId);
  const place =
    p.place ?? (await placeOf(c, existing ?? { name: 'A new client', userId: null }, priced, p.address));
  const { quote } = priced;
  const currency = biz.currency;
  const tz = biz.timezone;
  const now = ctx.deps.clock.now();
  checkDateBounds('booking', localDate(now, tz), tz, { start: p.start });
  if (p.paymentMethod === 'CASH' && !quote.acceptsCash)
    throw new ServiceError('BAD_REQUEST', 'Cash is not accepted for this booking; use CARD.', {
      fields: [{ field: 'paymentMethod', message: 'Cash not accepted.' }],
    });
  const card = p.paymentMethod === 'CARD';
  await checkSlot(c, priced, p.start, p.resourceId, [], p.ignoreNotice ? WAIVED_NOTICE_MIN : undefined);
  const end = endOf(priced, p.start);
  const totalCents = quote.subtotalCents + (card ? quote.cardFeeCents : 0);
  const total = formatMoney(totalCents, currency);
  const clientName = existing ? existing.name : (p.client as { new: { name: string } }).new.name;
  confirmStep(
    ctx,
    p.confirm,
    {
      kind: 'booking',
      what: `${p.verb} ${priced.line.label.toLowerCase()} (${clientName}${existing ? '' : ', a new client'})`,
      pets: quote.pets.map((x) => x.name),
      place: place.text || biz.name,
      when: { start: p.start, end, timeZone: tz },
      amount: { cents: totalCents, currency },
      money: card ? 'by card (a pay link for the client, valid 48 hours)' : 'in cash on the day',
      after: `With ${resource.name}.`,
    },
    {
      message:
        'Booking for a client needs the person to agree: show them the summary and, once they agree, send the same request with confirm: true.',
      details: { totalCents, total, paymentMethod: p.paymentMethod },
    },
  );
  const state = initialState({ paymentMethod: p.paymentMethod, confirm: true, start: p.start, end });
  if (!state.ok) refused(state);

  let client: ClientRow;
  if (existing) client = existing;
  else {
    const n = (p.client as { new: { name: string; phone: string | null; email: string | null } }).new;
    client = await insertClient(q, { businessId: biz.id, name: n.name, phone: n.phone, email: n.email }, now);
    await auditChange(ctx, q, 'client.create', client.id, { businessId: biz.id, name: client.name });
  }

  const details = {
    category: priced.line.id,
    quote: { ...quote, category: priced.line.id },
    pets: detailPets,
    address: place.text,
    ...(place.addressId ? {} : { accessNotes: place.accessNotes }),
    currency,
    timeZone: tz,
  } as unknown as BookingDetails;
  const linkExpiresAt = card ? payLinkExpiresAt(now) : undefined;
  const options: PlaceOptions = {
    priced,
    details,
    paymentMethod: p.paymentMethod,
    paymentStatus: state.state.paymentStatus as 'PENDING' | 'CASH_DUE',
    addressId: place.addressId,
    seriesId: null,
    notes: p.notes,
    heldForLink: linkExpiresAt,
    forClient: { userId: client.userId, businessClientId: client.id },
    created: { source: sourceOf(ctx, 'staff'), by: 'business' },
  };
  const placement = { start: p.start, end, resourceId: p.resourceId, totalCents };
  // As book: one booking is one statement with its audit record and pay link; a group walk is
  // filled under its lock.
  const placed = !groupOf(priced)
    ? await placeOneBooking(c, placement, options, card ? { currency } : null)
    : await placeBookings(c, q, [placement], options, false).then(async (r) => ({
        row: r.rows[0]!,
        link: card ? await makePayLink(c, q, r.rows, currency, { placedForLink: linkExpiresAt }) : null,
      }));
  const row: BookingRow = placed.row;
  await auditChange(ctx, q, p.rebookOf ? 'booking.rebook' : 'booking.book_for_client', row.id, {
    businessId: biz.id,
    clientId: client.id,
    paymentMethod: p.paymentMethod,
    ...(p.rebookOf ? { rebookOf: p.rebookOf } : {}),
  });
  const [job] = await toJobs(q, biz.id, biz, await jobRowsOf(q, biz.id, row));
  return {
    businessId: biz.id,
    clientId: client.id,
    newClient: !existing,
    booking: job!,
    ...(placed.link
      ? { payUrl: placed.link.payUrl, payLinkExpiresAt: placed.link.expiresAt.toISOString() }
      : {}),
    ...(p.rebookOf ? { rebookOf: p.rebookOf } : {}),
    next: card
      ? `Send ${clientName} the payUrl to pay ${total} by card (send_payment_link makes a fresh one later). The time is held until the link expires or the job starts, whichever is first; it is confirmed once paid.`
      : `Booked; ${total} is paid in cash on the day. Accept it with accept_booking when you are ready.`,
  };
}

/** The job row of one booking of the business (as its bookings list reads it). */
function jobRowsOf(q: Queryable, businessId: string, row: BookingRow) {
  return findJobs(q, businessId, [row.id]);
}

const PLACE_ERRORS = [
  ...RUN_ACCESS_ERRORS.filter((e) => e.status !== 404),
  {
    status: 404,
    description:
      'No business of that id that the person is on the staff of, or a client, booking, saved pet, address or resource that is not the business’s.',
  },
  {
    status: 409,
    description:
      '`CONFIRM_REQUIRED` (show `details.summary`, then send the same request with `confirm: true`), `SLOT_TAKEN` ' +
      `(call find_business_times again), or ${BUSINESS_ERRORS.conflict}.`,
  },
];

const CHANGE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

// ---------------------------------------------------------------------------------------------
// bookForClient

const ClientSchema = z
  .union([
    z.object({ clientId: z.string().min(1).max(128) }).strict(),
    z
      .object({
        name: z.string().trim().min(1).max(120),
        phone: z.string().trim().min(3).max(40).optional(),
        email: z.email().max(254).optional(),
      })
      .strict(),
  ])
  .meta({
    description:
      'An existing client (`clientId`, from list_clients), or a new one without an account: `name` and a `phone` or ' +
      '`email`.',
  });

export const bookForClient = defineOperation({
  operationId: 'bookForClient',
  confirmKind: 'booking',
  toolName: 'book_for_client',
  title: 'Book for a client',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/bookings',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Books a phone or walk-in client: an existing client (`clientId`) or a new one (`name` and a `phone` or `email`; ' +
    'they get no account), their pets (saved `petId`s of a client with an account, or described) with `serviceIds`, a ' +
    "slot of find_business_times (`start`, `resourceId` unchanged, and the same `ignoreNotice`), the address (the client's " +
    'saved `addressId` or one as told; none for grooming at your own place), and CASH (paid on the day) or CARD (answers ' +
    '`payUrl`, valid 48 hours, for the client). First send it without `confirm`: 409 CONFIRM_REQUIRED carries the ' +
    'summary; after the person agrees send the same with `confirm: true` (201). Prices, holds and pay links are those ' +
    'of book. A slot taken meanwhile: 409 SLOT_TAKEN. Owners and managers; outside South Africa 409 NOT_AVAILABLE_IN_COUNTRY.',
  input: z
    .object({
      ...RunBusinessIdShape,
      client: ClientSchema,
      pets: PetsSchema,
      start: z.iso
        .datetime({ offset: true })
        .meta({ description: 'From a slot of find_business_times, unchanged.' }),
      resourceId: z.string().min(1).max(128).meta({ description: 'From the same slot, unchanged.' }),
      address: AddressSchema.optional(),
      paymentMethod: z.enum(['CARD', 'CASH']),
      notes: z.string().max(500).optional().meta({ description: 'For the crew.' }),
      ignoreNotice: IgnoreNotice,
      confirm: z.boolean().optional().meta({
        description:
          'true only after the person agreed to the summary; left out or false: 409 CONFIRM_REQUIRED.',
      }),
    })
    .strict()
    .superRefine((v, c) => {
      if ('name' in v.client && !v.client.phone && !v.client.email)
        c.addIssue({
          code: 'custom',
          path: ['client', 'phone'],
          message: 'A new client needs a phone or an email.',
        });
    })
    .meta({
      example: {
        client: { name: 'Thandi Mokoena', phone: '+27 82 555 0101' },
        pets: [{ name: 'Rex', type: 'DOG', weightKg: 12.5, coat: 'SHORT', serviceIds: ['bp-groom-bath'] }],
        start: '2026-03-12T08:00:00.000Z',
        resourceId: 'bp-van-2',
        address: {
          line1: '12 Dorp Street',
          suburb: 'Die Boord',
          city: 'Stellenbosch',
          accessNotes: 'Gate 4321',
        },
        paymentMethod: 'CASH',
        confirm: true,
      },
    }),
  output: ClientBookingSchema,
  successStatus: 201,
  events: ['booking.created'],
  errors: PLACE_ERRORS,
  annotations: CHANGE,
  async handler(ctx, input) {
    return inBookingBusiness(ctx, input.businessId, 'change', async ({ q, access }) => {
      const client =
        'clientId' in input.client
          ? await clientOf(q, access, input.client.clientId)
          : {
              new: {
                name: input.client.name,
                phone: input.client.phone ?? null,
                email: input.client.email?.toLowerCase() ?? null,
              },
            };
      return placeForClient(ctx, q, {
        access,
        client,
        pets: input.pets,
        start: new Date(input.start),
        resourceId: input.resourceId,
        address: input.address,
        paymentMethod: input.paymentMethod,
        notes: input.notes ?? '',
        ignoreNotice: input.ignoreNotice === true,
        confirm: input.confirm === true,
        verb: 'Book',
      });
    });
  },
});

// ---------------------------------------------------------------------------------------------
// rebookBooking

/** What a booking's details say of a pet: a saved one by id, or one described. */
interface StoredPet {
  petId?: string;
  name?: string;
  type?: 'DOG' | 'CAT';
  weightKg?: number;
  coat?: 'SHORT' | 'MEDIUM' | 'LONG';
  notes?: string | null;
  serviceIds?: string[];
}

export const rebookBooking = defineOperation({
  operationId: 'rebookBooking',
  confirmKind: 'booking',
  toolName: 'rebook_booking',
  title: 'Book again for a client',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/bookings/:bookingId/rebook',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    "A new booking for the same client, pets, services and address as one of the business's bookings (any status: a " +
    'done groom booked again for next month), at a slot of find_business_times (`start`; `resourceId` defaults to the ' +
    'old booking’s). Priced at today’s prices; the payment method defaults to the old one (CARD: a new pay link). The ' +
    'old booking is unchanged. Confirm step, errors and rules as book_for_client.',
  input: z
    .object({
      ...RunBusinessIdShape,
      bookingId: z
        .string()
        .min(1)
        .max(128)
        .meta({ description: 'From list_business_bookings or get_day_plan.' }),
      start: z.iso
        .datetime({ offset: true })
        .meta({ description: 'From a slot of find_business_times, unchanged.' }),
      resourceId: z.string().min(1).max(128).optional().meta({ description: 'Default: the old booking’s.' }),
      paymentMethod: z.enum(['CARD', 'CASH']).optional().meta({ description: 'Default: the old booking’s.' }),
      notes: z.string().max(500).optional().meta({ description: 'Default: the old booking’s notes.' }),
      ignoreNotice: IgnoreNotice,
      confirm: z.boolean().optional().meta({
        description:
          'true only after the person agreed to the summary; left out or false: 409 CONFIRM_REQUIRED.',
      }),
    })
    .strict()
    .meta({
      example: {
        bookingId: 'demo-bp-van-1-2026-03-04-0830',
        start: '2026-03-18T06:30:00.000Z',
        confirm: true,
      },
    }),
  output: ClientBookingSchema,
  successStatus: 201,
  events: ['booking.created'],
  errors: PLACE_ERRORS,
  annotations: CHANGE,
  async handler(ctx, input) {
    return inBookingBusiness(ctx, input.businessId, 'change', async ({ q, access }) => {
      const row = await findBooking(q, input.bookingId);
      const notFound = new ServiceError(
        'NOT_FOUND',
        `No booking ${input.bookingId} at ${access.business.name}.`,
        {
          bookingId: input.bookingId,
        },
      );
      if (!row || row.businessId !== access.business.id) throw notFound;
      const [job] = await jobRowsOf(q, access.business.id, row);
      if (!job?.clientId)
        throw new ServiceError(
          'BAD_REQUEST',
          `Booking ${row.id} has no client on record to book again; use book_for_client.`,
          { bookingId: row.id },
        );
      const client = await clientOf(q, access, job.clientId);
      const details = row.details as { pets?: StoredPet[]; address?: string; accessNotes?: string | null };
      const stored = details.pets ?? [];
      const pets: PetInput[] = stored.flatMap((p): PetInput[] => {
        const serviceIds = p.serviceIds ?? [];
        if (p.petId && client.userId) return [{ petId: p.petId, serviceIds }];
        // A described pet is booked again as described; one whose facts are not on record is not guessed.
        if (!p.name || !p.type || p.weightKg === undefined || !p.coat) return [];
        return [
          {
            name: p.name,
            type: p.type,
            weightKg: p.weightKg,
            coat: p.coat,
            ...(p.notes ? { notes: p.notes } : {}),
            serviceIds,
          },
        ];
      });
      if (!pets.length || pets.length !== stored.length || pets.some((p) => !p.serviceIds.length))
        throw new ServiceError(
          'BAD_REQUEST',
          `Booking ${row.id} does not say its pets and services; use book_for_client.`,
          {
            bookingId: row.id,
          },
        );
      // The same place: the saved address it names (if the client still has it), or the one it was told.
      const place = row.addressId
        ? undefined
        : { addressId: null, text: details.address ?? '', accessNotes: details.accessNotes ?? null };
      return placeForClient(ctx, q, {
        access,
        client,
        pets,
        start: new Date(input.start),
        resourceId: input.resourceId ?? row.resourceId,
        address: row.addressId ? { addressId: row.addressId } : undefined,
        ...(place ? { place } : {}),
        paymentMethod: input.paymentMethod ?? row.paymentMethod,
        notes: input.notes ?? row.notes,
        ignoreNotice: input.ignoreNotice === true,
        confirm: input.confirm === true,
        verb: 'Book again',
        rebookOf: row.id,
      });
    });
  },
});
