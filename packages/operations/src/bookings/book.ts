import { initialState, parseRepeat, payLinkExpiresAt, seriesHorizon } from '@nogpets/booking-rules';
import { formatMoney } from '@nogpets/pricing-tiers';
import { DAY_KEYS, type SittingPlan } from '@nogpets/slot-engine';
import { insertSeries, transaction } from '@nogpets/store';
import { z } from 'zod';
import {
  confirmStep,
  defineOperation,
  documentRules,
  LineIdSchema,
  localDate,
  momentText,
  oneGroupOf,
  ServiceError,
  ServiceIdsSchema,
  whenText,
} from '../core/index.js';
import { sourceOf } from '../events/index.js';
import { BUSINESS_ERRORS, BusinessIdSchema } from '../places/index.js';
import { type BookingDetails, BookingStatusSchema, PaymentStatusSchema, refused } from './booking-model.js';
import { makePayLink, type Placement, placeBookings, placeOneBooking } from './place.js';
import { priceRequest } from '../catalogue/index.js';
import {
  checkDateBounds,
  checkSlot,
  endOf,
  groupOf,
  planSittingFor,
  sittingUnavailable,
  StaySchema,
  VisitsSchema,
} from '../schedule/index.js';
import {
  fullyBookedLead,
  fullyBookedMessage,
  type Skipped,
  SkippedSchema,
  seriesPlacements,
} from './series.js';

const RepeatSchema = z
  .object({ freq: z.literal('WEEKLY'), days: z.array(z.enum(DAY_KEYS)).min(1).max(7) })
  .strict()
  .meta({
    id: 'Repeat',
    description:
      'Walks only: repeat every week on these days, at the same local time. Later weeks are kept booked 4 weeks ahead.',
  });

/**
 * The rules of the refinement below as JSON Schema, for the OpenAPI document (validation and its
 * messages stay the refinement's): a slot, a stay or visits, exactly one; repeats for walks only.
 */
const BOOK_RULES = {
  ...oneGroupOf([
    { fields: ['start', 'resourceId'] },
    { fields: ['stay'], properties: { category: { const: 'sitting' } } },
    { fields: ['visits'], properties: { category: { const: 'sitting' } } },
  ]),
  dependentSchemas: { repeat: { properties: { category: { const: 'walking' } } } },
};

export const BookRequestSchema = z
  .object({
    businessId: BusinessIdSchema.optional(),
    category: LineIdSchema,
    addressId: z.string().min(1).max(128).meta({ description: 'A saved address (add_address).' }),
    pets: z
      .array(
        z
          .object({
            petId: z.string().min(1).max(128),
            serviceIds: ServiceIdsSchema,
          })
          .strict(),
      )
      .min(1)
      .max(10)
      .meta({ description: 'Saved pets (add_pet), each with one PRIMARY service plus any EXTRAs.' }),
    start: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: 'From a slot of find_times, unchanged.' }),
    resourceId: z.string().min(1).max(128).optional().meta({ description: 'From the same slot, unchanged.' }),
    paymentMethod: z.enum(['CARD', 'CASH']),
    confirm: z.boolean().optional().meta({
      description: 'Required true for CASH, sent only after the person has seen the summary and agreed.',
    }),
    notes: z.string().max(500).optional().meta({ description: 'For the crew.' }),
    repeat: RepeatSchema.optional(),
    stay: StaySchema.optional(),
    visits: VisitsSchema.optional(),
  })
  .strict()
  .superRefine((v, c) => {
    const plan = v.stay ?? v.visits;
    if (plan && v.category !== 'sitting')
      c.addIssue({ code: 'custom', path: [v.stay ? 'stay' : 'visits'], message: 'Only for sitting.' });
    if (v.stay && v.visits)
      c.addIssue({ code: 'custom', path: ['visits'], message: 'Give stay or visits, not both.' });
    if (plan && (v.start || v.resourceId))
      c.addIssue({
        code: 'custom',
        path: ['start'],
        message: 'With stay or visits, leave out start and resourceId: the server plans the sitter.',
      });
    if (!plan && !v.start)
      c.addIssue({
        code: 'custom',
        path: ['start'],
        message: 'Required: the start of a slot from find_times.',
      });
    if (!plan && !v.resourceId)
      c.addIssue({
        code: 'custom',
        path: ['resourceId'],
        message: 'Required: the resourceId of the same slot.',
      });
    if (v.repeat && v.category !== 'walking')
      c.addIssue({ code: 'custom', path: ['repeat'], message: 'Weekly repeats are for walks only.' });
    if (v.repeat && new Set(v.repeat.days).size !== v.repeat.days.length)
      c.addIssue({ code: 'custom', path: ['repeat', 'days'], message: 'Each day once.' });
    v.pets.forEach((p, i) => {
      if (v.pets.findIndex((q) => q.petId === p.petId) !== i)
        c.addIssue({
          code: 'custom',
          path: ['pets', i, 'petId'],
          message: 'Each pet once: put all its services in one entry.',
        });
    });
  })
  .meta({
    override: documentRules(BOOK_RULES),
    example: {
      category: 'grooming',
      addressId: 'adr_pdxkaawzxz8mvn62737p',
      pets: [{ petId: 'pet_2mphcqg0nb2518jt8bsf', serviceIds: ['groom-dog-bath'] }],
      start: '2026-12-02T06:00:00.000Z',
      resourceId: 'van-2',
      paymentMethod: 'CARD',
      notes: 'Gate code 4321; Rex is shy of the dryer.',
    },
  });

export type BookRequest = z.output<typeof BookRequestSchema>;

export const BookResultSchema = z
  .object({
    bookingId: z.string(),
    bookingIds: z.array(z.string()),
    status: BookingStatusSchema,
    paymentMethod: z.enum(['CARD', 'CASH']),
    paymentStatus: PaymentStatusSchema,
    totalCents: z.int(),
    total: z.string(),
    start: z.iso.datetime(),
    when: z.string(),
    skipped: z
      .array(SkippedSchema)
      .meta({ description: 'Weeks of a repeat that could not be booked, with why.' }),
    payUrl: z.url().optional().meta({
      description:
        'Card only: the person opens it to pay. Valid 48 hours; the time is held until then, or until it starts if sooner.',
    }),
    seriesId: z.string().optional(),
    leadId: z
      .string()
      .optional()
      .meta({ description: 'Set when a fully booked week was noted for the operator (rule 8).' }),
    message: z
      .string()
      .optional()
      .meta({ description: 'With leadId: pass it on to the person word for word.' }),
    next: z.string(),
  })
  .meta({
    id: 'BookResult',
    description:
      'What was booked: the booking (or, for a repeat or visits, every booking) made, its status, total and when; ' +
      '`payUrl` for the person to pay a card booking.',
    example: {
      bookingId: 'bkg_ftp8sjc07qhmzr6hv5kv',
      bookingIds: ['bkg_ftp8sjc07qhmzr6hv5kv'],
      status: 'PENDING',
      paymentMethod: 'CASH',
      paymentStatus: 'CASH_DUE',
      totalCents: 38000,
      total: 'R380',
      start: '2026-11-25T06:00:00.000Z',
      when: 'Wed, 25 Nov 2026, 08:00 to 09:00',
      skipped: [],
      next: 'Booked; R380 is paid in cash to the crew on the day. The business confirms the booking.',
    },
  });

/** The bookings a sitting plan makes: one for a stay (its whole span), one per visit. */
function sittingPlacements(
  plan: SittingPlan,
  perUnitCents: number,
  feeCents: number,
  nights: number,
): Placement[] {
  if (plan.mode === 'STAY') {
    const first = plan.plan[0]!;
    const last = plan.plan.at(-1)!;
    return [
      {
        start: new Date(first.start),
        end: new Date(last.end),
        resourceId: first.resourceId,
        totalCents: perUnitCents * nights + feeCents,
      },
    ];
  }
  // Visits are one booking for the person: the card fee is paid once, with the first visit.
  return plan.plan.map((p, i) => ({
    start: new Date(p.start),
    end: new Date(p.end),
    resourceId: p.resourceId,
    totalCents: perUnitCents + (i === 0 ? feeCents : 0),
    cardFeeCents: i === 0 ? feeCents : 0,
  }));
}

/** How long an unpaid card booking keeps its time: the link's 48 hours, or until it starts if sooner. */
function heldText(heldUntil: Date | null, linkExpiresAt: Date | undefined, tz: string): string {
  if (!heldUntil) return 'The time is held until it starts.';
  return linkExpiresAt && heldUntil.getTime() < linkExpiresAt.getTime()
    ? `The time is held until it starts (${momentText(heldUntil, tz)}): the person must pay before then.`
    : `The time is held for 48 hours, until ${momentText(heldUntil, tz)}, while the link works.`;
}

export const book = defineOperation({
  operationId: 'book',
  confirmKind: 'booking',
  toolName: 'book',
  title: 'Book',
  tag: 'Booking',
  mcp: 'person',
  method: 'POST',
  path: '/v1/bookings',
  inputIn: 'body',
  auth: { scope: 'bookings:write' },
  description:
    'Books grooming, a walk or pet sitting for saved pets at a saved address. Pass `start` and `resourceId` from a slot of ' +
    'find_times unchanged; for sitting over several days pass `stay` or `visits` instead. The server re-checks coverage, ' +
    'price and the slot. CARD: answers `payUrl` for the person to open and pay (status PENDING, paymentStatus PENDING; ' +
    'the time is held 48 hours or until it starts; confirmed once paid). CASH: first show the person the summary; only ' +
    'after they agree send `confirm: true` (without it: 409 CONFIRM_REQUIRED carrying the summary). Walks may `repeat` ' +
    'weekly: `bookingIds` lists the weeks booked and `skipped` the weeks that could not be, with why. A slot taken ' +
    'meanwhile answers 409 SLOT_TAKEN: call find_times again. For a partner business pass the same `businessId` as to ' +
    "find_times (from the directory's `bookWith`). Send an Idempotency-Key header so a retry books once.",
  input: BookRequestSchema,
  output: BookResultSchema,
  successStatus: 201,
  events: ['booking.created'],
  errors: [
    { status: 400, description: 'Invalid input, or `start`/`resourceId` not an open slot of find_times.' },
    { status: 401, description: 'No or an invalid credential.' },
    { status: 403, description: 'The credential lacks bookings:write.' },
    {
      status: 404,
      description: "A saved pet or address that is not the person's, or a `businessId` of no business.",
    },
    {
      status: 409,
      description:
        '`CONFIRM_REQUIRED` (cash without confirm: show `details.summary`), `SLOT_TAKEN`, `NO_COVERAGE`, `NO_AVAILABILITY` ' +
        '(no sitter for a stay or visits), `REQUEST_IN_PROGRESS` (the same Idempotency-Key is still being handled), or ' +
        `${BUSINESS_ERRORS.conflict}.`,
    },
    { status: 422, description: '`IDEMPOTENCY_KEY_REUSED`: the key was used with another body.' },
    { status: 429, description: 'Too many requests.' },
  ],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(ctx, input) {
    const priced = await priceRequest(
      ctx,
      {
        businessId: input.businessId,
        category: input.category,
        addressId: input.addressId,
        pets: input.pets,
      },
      'book',
      { implied: true },
    );
    const { offer, quote } = priced;
    const tz = offer.business.timezone;
    const currency = offer.business.currency;
    const now = ctx.deps.clock.now();
    checkDateBounds('booking', localDate(now, tz), tz, {
      start: input.start === undefined ? undefined : new Date(input.start),
      'stay.startDate': input.stay?.startDate,
      'visits.startDate': input.visits?.startDate,
    });
    if (input.paymentMethod === 'CASH' && !quote.acceptsCash) {
      throw new ServiceError('BAD_REQUEST', 'Cash is not accepted for this booking; use CARD.', {
        fields: [{ field: 'paymentMethod', message: 'Cash not accepted.' }],
      });
    }
    const card = input.paymentMethod === 'CARD';
    const unitCents = quote.subtotalCents;
    const feeCents = card ? quote.cardFeeCents : 0;

    // Where the bookings go.
    let placements: Placement[];
    let skipped: Skipped[] = [];
    let mode: BookingDetails['mode'];
    if (input.stay || input.visits) {
      const sitting = await planSittingFor(ctx, priced, input);
      if (!sitting.ok) {
        // The true reason (too soon, booked, closed) and the next stays or visits that can be booked.
        const { reason, message, alternatives } = await sittingUnavailable(ctx, priced, input, sitting);
        throw new ServiceError('NO_AVAILABILITY', message, {
          reason,
          message,
          unplanned: sitting.unplanned,
          alternatives,
        });
      }
      mode = sitting.mode;
      placements = sittingPlacements(sitting, unitCents, feeCents, input.stay?.nights ?? 1);
    } else {
      const start = new Date(input.start!);
      await checkSlot(ctx, priced, start, input.resourceId!);
      placements = [
        {
          start,
          end: endOf(priced, start),
          resourceId: input.resourceId!,
          totalCents: unitCents + feeCents,
        },
      ];
      if (input.repeat) {
        const repeat = parseRepeat(input.repeat);
        if (!repeat.ok)
          throw new ServiceError('BAD_REQUEST', repeat.message, {
            fields: [{ field: 'repeat', message: repeat.message }],
          });
        const later = await seriesPlacements(
          ctx,
          priced,
          placements[0]!,
          repeat.repeat,
          start,
          seriesHorizon(now, tz),
          unitCents + feeCents,
        );
        placements.push(...later.placements);
        skipped = later.skipped;
      }
    }

    const totalCents = placements.reduce((sum, p) => sum + p.totalCents, 0);
    const first = placements[0]!;
    const last = placements[placements.length - 1]!;
    const more = placements.length - 1;
    const sitting = input.stay !== undefined || input.visits !== undefined;
    const rule = (confirm: boolean) =>
      initialState({ paymentMethod: input.paymentMethod, confirm, start: first.start, end: first.end });
    // Whether the rules ask the person first (a cash booking does); then the booking as agreed.
    const ask = rule(false);
    if (!ask.ok && ask.code === 'CONFIRM_REQUIRED')
      confirmStep(
        ctx,
        input.confirm,
        {
          kind: 'booking',
          // A partner's booking names the business: the person agrees to whom they book with.
          what: `Book ${priced.line.label.toLowerCase()}${offer.business.isOperator ? '' : ` with ${offer.business.name}`}`,
          pets: quote.pets.map((p) => p.name),
          place: priced.address?.label || priced.address?.line1 || 'the saved address',
          // A stay or visits are told from the first start to the last end; weekly walks by the first.
          when: {
            start: first.start,
            end: sitting ? last.end : first.end,
            timeZone: tz,
            ...(more > 0 && !sitting ? { more: `and ${more} later week${more === 1 ? '' : 's'}` } : {}),
          },
          amount: { cents: totalCents, currency },
          money: card ? 'by card through a pay link' : 'in cash to the crew on the day',
        },
        {
          message: ask.message,
          details: {
            totalCents,
            total: formatMoney(totalCents, currency),
            paymentMethod: input.paymentMethod,
          },
        },
      );
    const state = rule(true);
    if (!state.ok) refused(state);

    const details: BookingDetails = {
      category: input.category,
      quote,
      pets: input.pets.map((p, i) => ({
        petId: p.petId,
        name: quote.pets[i]?.name ?? '',
        serviceIds: p.serviceIds,
      })),
      address: priced.address
        ? [priced.address.line1, priced.address.suburb, priced.address.city].filter(Boolean).join(', ')
        : '',
      currency,
      timeZone: tz,
      ...(mode ? { mode } : {}),
    };
    const linkExpiresAt = card ? payLinkExpiresAt(now) : undefined;
    const placeOptions = {
      priced,
      details,
      paymentMethod: input.paymentMethod,
      paymentStatus: state.state.paymentStatus as 'PENDING' | 'CASH_DUE',
      addressId: input.addressId,
      seriesId: null as string | null,
      notes: input.notes ?? '',
      heldForLink: linkExpiresAt,
      created: { source: sourceOf(ctx, 'person'), by: 'client' as const },
    };
    // One booking (no series, no group walk to fill under a lock) is one statement with its audit
    // record and pay link; several go in one transaction.
    const result =
      placements.length === 1 && !input.repeat && !groupOf(priced)
        ? await placeOneBooking(ctx, first, placeOptions, card ? { currency } : null).then((one) => ({
            rows: [one.row],
            link: one.link,
            seriesId: null,
          }))
        : await transaction(ctx.deps.sql, async (q) => {
            const seriesId = input.repeat
              ? await insertSeries(q, {
                  userId: ctx.auth!.userId,
                  businessId: offer.business.id,
                  template: {
                    category: input.category,
                    addressId: input.addressId,
                    pets: input.pets,
                    resourceId: first.resourceId,
                    start: first.start.toISOString(),
                    repeat: input.repeat,
                    paymentMethod: input.paymentMethod,
                    notes: input.notes ?? '',
                  },
                  // Booked through the horizon, or through the first walk when that is further off.
                  bookedUntil: new Date(Math.max(seriesHorizon(now, tz).getTime(), first.start.getTime())),
                })
              : null;
            const placed = await placeBookings(ctx, q, placements, { ...placeOptions, seriesId }, false);
            const link = card
              ? await makePayLink(ctx, q, placed.rows, currency, { placedForLink: linkExpiresAt })
              : null;
            return { rows: placed.rows, link, seriesId };
          });
    const leadId = await fullyBookedLead(ctx, priced, skipped);
    const head = result.rows[0]!;
    return {
      bookingId: head.id,
      bookingIds: result.rows.map((r) => r.id),
      status: head.status,
      paymentMethod: head.paymentMethod,
      paymentStatus: head.paymentStatus,
      totalCents,
      total: formatMoney(totalCents, currency),
      start: head.start.toISOString(),
      when:
        result.rows.length === 1
          ? whenText(head.start, head.end, tz)
          : `${whenText(head.start, head.end, tz)} and ${result.rows.length - 1} more`,
      skipped,
      ...(result.link ? { payUrl: result.link.payUrl } : {}),
      ...(result.seriesId ? { seriesId: result.seriesId } : {}),
      ...(leadId ? { leadId, message: fullyBookedMessage(skipped) } : {}),
      next: card
        ? `Give the person the payUrl to pay ${formatMoney(totalCents, currency)} by card. ${heldText(head.holdUntil, linkExpiresAt, tz)} It is confirmed once paid.`
        : `Booked; ${formatMoney(totalCents, currency)} is paid in cash to the crew on the day. The business confirms the booking.`,
    };
  },
});
