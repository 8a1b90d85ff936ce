import { holdUntil, payLink, rescheduleAllowed, transition } from '@nogpets/booking-rules';
import { formatMoney } from '@nogpets/pricing-tiers';
import type { DayResult, Stay } from '@nogpets/slot-engine';
import {
  type BookingRow,
  cancelSeries,
  isSlotConflict,
  isWriteConflict,
  listSeriesBookings,
  listUpcomingBookings,
  lockGroupWalk,
  lockOpenPayLinks,
  lockResource,
  openLinkExpiry,
  type Queryable,
  shareKey,
  supersedePayments,
  transaction,
  updateBooking,
} from '@nogpets/store';
import { z } from 'zod';
import {
  addDays,
  auditChange,
  type ConfirmParts,
  confirmStep,
  DAY_MS,
  defineOperation,
  localDate,
  localTime,
  type OperationContext,
  READ_ONLY,
  ServiceError,
  whenText,
} from '../core/index.js';
import { bookingParts, cancelMoney } from './confirm-parts.js';
import { sourceOf } from '../events/index.js';
import {
  askedRange,
  checkDateBounds,
  checkSearchDates,
  checkSlot,
  DATE,
  DaySchema,
  flagIfOutsideWorkingTime,
  freeResourceAt,
  groupOf,
  openDays,
  planSitting,
  sittingContext,
  sittingDays,
  SlotSchema,
} from '../schedule/index.js';
import {
  type BookingDetails,
  BookingIdShape,
  BookingSchema,
  BookingStatusSchema,
  ownBooking,
  PaymentStatusSchema,
  refused,
  stateOf,
  toBooking,
  withMessages,
} from './booking-model.js';
import { recordBookingEvents, recordCancellations } from './events.js';
import { makePayLink } from './place.js';
import type { PricedRequest } from '../catalogue/index.js';

const notFound = { status: 404, description: 'No such booking of the person.' };
const auth401 = { status: 401, description: 'No or an invalid credential.' };
const tooMany = { status: 429, description: 'Too many requests.' };

/**
 * Enough of a priced request to find times for a booking again: the offer of the booking's own
 * business (the operator's or a partner's), its line and the stored quote.
 */
async function pricedFor(ctx: OperationContext, row: BookingRow): Promise<PricedRequest> {
  const offer = await ctx.deps.offers.business(row.businessId);
  const line = offer.lines.find((l) => l.id === row.lineId);
  if (!line) {
    throw new ServiceError(
      'NOT_ACTIVE',
      'This service is no longer offered, so the booking cannot be moved here; please phone the operator.',
      { bookingId: row.id, lineId: row.lineId },
    );
  }
  return { offer, line, quote: (row.details as unknown as BookingDetails).quote };
}

/** A stay booking as the stay it was planned as (arrival date, nights, arrival and leaving times); undefined for any other booking, visits included. */
function stayOf(row: BookingRow, timeZone: string): Required<Stay> | undefined {
  if ((row.details as unknown as BookingDetails).mode !== 'STAY') return undefined;
  const startDate = localDate(row.start, timeZone);
  const nights = Math.round(
    (Date.parse(`${localDate(row.end, timeZone)}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / DAY_MS,
  );
  return {
    startDate,
    nights,
    arriveAt: localTime(row.start, timeZone),
    leaveAt: localTime(row.end, timeZone),
  };
}

/**
 * The arrivals a stay could move to on the given days: per day, each sitter free for the whole stay
 * arriving that evening (its nights, arrival and leaving times kept; the booking itself not counted),
 * with when the stay would end.
 */
async function stayStarts(
  ctx: OperationContext,
  priced: PricedRequest,
  row: BookingRow,
  stay: Stay,
  days: DayResult[],
) {
  const tz = priced.offer.business.timezone;
  const context = await sittingContext(ctx, priced, days[0]!.date, days.length + stay.nights, [row.id]);
  return days.map(({ why: _why, ...day }) => ({
    ...day,
    slots: context.resources.flatMap((sitter) => {
      const plan = planSitting(context, priced, { stay: { ...stay, startDate: day.date } }, [sitter.id]);
      if (!plan.ok) return [];
      const first = plan.plan[0]!;
      const end = plan.plan.at(-1)!.end;
      return [
        {
          start: first.start,
          time: first.time,
          resourceId: sitter.id,
          end,
          when: whenText(new Date(first.start), new Date(end), tz),
        },
      ];
    }),
  }));
}

/**
 * Where a stay moved to arrive at `start` goes: the whole stay re-planned on the new dates (same
 * nights, arrival and leaving times) as book plans it, on `resourceId` when given, else on its own
 * sitter when free for every night, else on the first sitter free for every night.
 */
async function movedStay(
  ctx: OperationContext,
  priced: PricedRequest,
  row: BookingRow,
  stay: Required<Stay>,
  start: Date,
  resourceId: string | undefined,
): Promise<{ resourceId: string; end: Date }> {
  const tz = priced.offer.business.timezone;
  const moved = { ...stay, startDate: localDate(start, tz) };
  const span = `${moved.nights} night${moved.nights === 1 ? '' : 's'} from ${moved.startDate} (arriving ${moved.arriveAt}) to ${addDays(moved.startDate, moved.nights)} (leaving ${moved.leaveAt})`;
  const notOpen = (why: string) =>
    new ServiceError(
      'BAD_REQUEST',
      `That is not an open start for this stay: ${why} Pass a start from find_reschedule_times unchanged.`,
      {
        fields: [{ field: 'start', message: 'Not an open start for this stay.' }],
      },
    );
  if (localTime(start, tz) !== stay.arriveAt || start.getTime() % 60_000 !== 0)
    throw notOpen(`the sitter arrives at ${stay.arriveAt} on the first evening.`);
  const context = await sittingContext(ctx, priced, moved.startDate, sittingDays({ stay: moved }), [row.id]);
  if (resourceId && !context.resources.some((r) => r.id === resourceId))
    throw notOpen(`${resourceId} is not a sitter.`);
  let plan = planSitting(context, priced, { stay: moved }, [resourceId ?? row.resourceId]);
  if (!plan.ok && !resourceId) plan = planSitting(context, priced, { stay: moved });
  if (plan.ok && Date.parse(plan.plan[0]!.start) === start.getTime())
    return { resourceId: plan.plan[0]!.resourceId, end: new Date(plan.plan.at(-1)!.end) };
  if (plan.ok) throw notOpen(`the sitter arrives at ${stay.arriveAt} on the first evening.`);
  if (plan.unplanned.some((u) => u.reason === 'PAST')) throw notOpen('it is in the past or too soon.');
  if (resourceId && planSitting(context, priced, { stay: moved }).ok) {
    throw new ServiceError(
      'SLOT_TAKEN',
      `${resourceId} is not free for every night of the stay (${span}); another sitter is. Call find_reschedule_times again and pass one of its slots, or leave out resourceId.`,
      {
        start: start.toISOString(),
        resourceId,
      },
    );
  }
  const message = `No sitter is free for every night of the stay (${span}); the booking is unchanged. Call find_reschedule_times and offer the person other dates.`;
  throw new ServiceError('NO_AVAILABILITY', message, {
    reason: 'FULLY_BOOKED',
    message,
    unplanned: plan.unplanned,
    alternatives: [],
  });
}

export const listBookings = defineOperation({
  operationId: 'listBookings',
  toolName: 'list_bookings',
  title: 'List bookings',
  tag: 'Booking',
  mcp: 'person',
  method: 'GET',
  path: '/v1/bookings',
  inputIn: 'query',
  auth: { scope: 'bookings:read' },
  description:
    "The person's upcoming bookings (pending or accepted), soonest first, each with what, when (`when`, Johannesburg " +
    'time), where, status, payment status, `total` and `canPay`. Use it when the person asks what they have booked, or ' +
    'to find the booking they mean before get_booking, find_reschedule_times, reschedule_booking, cancel_booking or ' +
    "pay_booking (a booking's `id` is their `bookingId`). Show each as what, when, where and the total, with the status " +
    'in words (PENDING: waiting for payment or for the business to accept; ACCEPTED: confirmed); when `canPay` is true, ' +
    'say it still waits for payment and offer pay_booking. Past and cancelled bookings are not listed. `limit` 1 to 50, ' +
    'default 20.',
  input: z.object({ limit: z.int().min(1).max(50).default(20) }).strict(),
  output: z
    .object({ bookings: z.array(BookingSchema) })
    .meta({ id: 'BookingList', description: "The person's upcoming bookings, soonest first." }),
  successStatus: 200,
  errors: [
    { status: 400, description: 'A limit outside 1..50.' },
    auth401,
    { status: 403, description: 'The credential lacks bookings:read.' },
    tooMany,
  ],
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const rows = await listUpcomingBookings(
      ctx.deps.sql,
      ctx.auth!.userId,
      ctx.deps.clock.now(),
      input.limit,
    );
    return { bookings: await withMessages(ctx.deps.sql, rows.map(toBooking)) };
  },
});

export const getBooking = defineOperation({
  operationId: 'getBooking',
  toolName: 'get_booking',
  title: 'Get a booking',
  tag: 'Booking',
  mcp: 'person',
  method: 'GET',
  path: '/v1/bookings/:bookingId',
  inputIn: 'query',
  auth: { scope: 'bookings:read' },
  description:
    'One booking of the person by `bookingId` (from list_bookings or book): status, payment status, `total` (the card ' +
    'fee included), what, when, where, the notes for the crew, and `canPay`. Use it when the person asks about one ' +
    'booking, or to check it before moving, cancelling or paying it. Show what, when, where and the total, with the ' +
    'status in words (PENDING: waiting for payment or for the business to accept; ACCEPTED: confirmed; CASH_DUE: cash ' +
    'to the crew on the day). When `canPay` is true the card booking still waits for payment: offer pay_booking for a ' +
    'fresh link. `fromBusiness` says what the business told the person (it accepted, declined, moved or cancelled ' +
    "it, with its reason): tell them. Another person's booking answers 404.",
  input: z.object(BookingIdShape).strict(),
  output: BookingSchema,
  successStatus: 200,
  errors: [auth401, { status: 403, description: 'The credential lacks bookings:read.' }, notFound, tooMany],
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const [booking] = await withMessages(ctx.deps.sql, [
      toBooking(await ownBooking(ctx, ctx.deps.sql, input.bookingId)),
    ]);
    return booking!;
  },
});

export const rescheduleTimes = defineOperation({
  operationId: 'rescheduleTimes',
  toolName: 'find_reschedule_times',
  title: 'Find times to move a booking to',
  tag: 'Booking',
  mcp: 'person',
  method: 'POST',
  path: '/v1/bookings/:bookingId/times',
  inputIn: 'body',
  auth: { scope: 'bookings:read' },
  description:
    'Open times a booking could move to (its own current time does not block them): optional `from`/`to` (local dates; ' +
    'default the next 7 days). A stay (`mode` STAY) moves whole: each slot is an arrival with a sitter free for every night, ' +
    '`end` and `when` say when it would end; `durationMin` is one night (arrival to leaving) and `stay` gives its nights. ' +
    'Moving is allowed until 12 hours before the start; later answers 409 TOO_LATE (the person must phone the operator).',
  input: z
    .object({ ...BookingIdShape, from: DATE.optional(), to: DATE.optional() })
    .strict()
    .superRefine((v, c) => {
      if (v.from && v.to && v.to < v.from)
        c.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from.' });
    }),
  output: z
    .object({
      bookingId: z.string(),
      durationMin: z
        .int()
        .meta({ description: 'The length of the booking; for a stay, of one night (arrival to leaving).' }),
      days: z.array(
        DaySchema.extend({
          slots: z.array(
            SlotSchema.extend({
              end: z
                .string()
                .optional()
                .meta({ description: 'A stay: when it would end (the last morning).' }),
              when: z
                .string()
                .optional()
                .meta({ description: 'A stay: its whole span in words, to tell the person.' }),
            }).meta({
              id: 'RescheduleSlot',
              description:
                'A time the booking could move to: pass `start` and `resourceId` to reschedule_booking unchanged.',
            }),
          ),
        }).meta({
          id: 'RescheduleDay',
          description: 'One local day and the times the booking could move to.',
        }),
      ),
      mode: z
        .enum(['STAY'])
        .optional()
        .meta({ description: 'Set for a stay: it moves whole, one sitter for every night.' }),
      stay: z
        .object({ nights: z.int(), arriveAt: z.string(), leaveAt: z.string() })
        .optional()
        .meta({ description: 'A stay: its nights and local arrival and leaving times, kept when it moves.' }),
    })
    .meta({
      id: 'RescheduleTimes',
      description: 'Open times to move a booking to; its own current time does not block them.',
    }),
  successStatus: 200,
  errors: [
    { status: 400, description: 'Invalid dates or a range over 31 days.' },
    auth401,
    { status: 403, description: 'The credential lacks bookings:read.' },
    notFound,
    {
      status: 409,
      description:
        '`TOO_LATE` (12 hours or less before the start) or `NOT_ACTIVE` (cancelled, expired or done).',
    },
    tooMany,
  ],
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const row = await ownBooking(ctx, ctx.deps.sql, input.bookingId);
    const now = ctx.deps.clock.now();
    const allowed = rescheduleAllowed(stateOf(row), now);
    if (!allowed.ok) refused(allowed, { bookingId: row.id });
    const priced = await pricedFor(ctx, row);
    const tz = priced.offer.business.timezone;
    checkSearchDates(localDate(now, tz), tz, input);
    const asked = askedRange(input, localDate(now, tz));
    const from = asked.from ?? localDate(now, tz);
    // Spec: default the next 7 days (today and six more), from `from` when only that is given.
    const to = asked.to ?? addDays(from, 6);
    if (to < from)
      throw new ServiceError('BAD_REQUEST', '`to` must not be before `from`.', {
        fields: [{ field: 'to', message: 'Must not be before from.' }],
      });
    const days = await openDays(ctx, priced, from, to, [row.id]);
    const stay = stayOf(row, tz);
    if (stay) {
      // A stay moves whole: what one night lasts, wall clock (17:30 to 07:30 is 840 minutes).
      const durationMin =
        24 * 60 +
        (Date.parse(`1970-01-01T${stay.leaveAt}Z`) - Date.parse(`1970-01-01T${stay.arriveAt}Z`)) / 60_000;
      const { startDate: _s, ...kept } = stay;
      return {
        bookingId: row.id,
        durationMin,
        days: await stayStarts(ctx, priced, row, stay, days),
        mode: 'STAY' as const,
        stay: kept,
      };
    }
    const durationMin = Math.round((row.end.getTime() - row.start.getTime()) / 60_000);
    return { bookingId: row.id, durationMin, days: days.map(({ why: _why, ...d }) => d) };
  },
});

export const rescheduleBooking = defineOperation({
  operationId: 'rescheduleBooking',
  toolName: 'reschedule_booking',
  title: 'Move a booking',
  tag: 'Booking',
  mcp: 'person',
  method: 'POST',
  path: '/v1/bookings/:bookingId/reschedule',
  inputIn: 'body',
  auth: { scope: 'bookings:write' },
  description:
    'Moves a booking to a slot from find_reschedule_times (`start` and `resourceId` unchanged). Allowed until 12 hours ' +
    'before the current start; the booking becomes PENDING until the business accepts the new time; price and payment ' +
    'are unchanged. A stay moves whole (same nights, one sitter free for every night); if none is: 409 NO_AVAILABILITY. ' +
    'Later: 409 TOO_LATE, the person must phone the operator.',
  input: z
    .object({
      ...BookingIdShape,
      start: z.iso
        .datetime({ offset: true })
        .meta({ description: 'The start of a slot from find_reschedule_times, unchanged.' }),
      resourceId: z.string().min(1).max(128).optional().meta({
        description:
          "The same slot's resourceId. Left out: the booking's own resource if free then, else any free one.",
      }),
    })
    .strict(),
  output: z
    .object({
      bookingId: z.string(),
      start: z.iso.datetime(),
      when: z.string(),
      resourceId: z.string(),
      status: BookingStatusSchema,
      paymentStatus: PaymentStatusSchema,
    })
    .meta({
      id: 'RescheduleResult',
      description:
        'The booking at its new time: PENDING until the business accepts it; price and payment unchanged.',
    }),
  successStatus: 200,
  errors: [
    { status: 400, description: 'Invalid input, or not an open slot.' },
    auth401,
    { status: 403, description: 'The credential lacks bookings:write.' },
    notFound,
    {
      status: 409,
      description:
        '`TOO_LATE`, `SLOT_TAKEN`, `NOT_ACTIVE` or `NO_AVAILABILITY` (no sitter free for every night of a moved stay).',
    },
    tooMany,
  ],
  events: ['booking.moved'],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    const start = new Date(input.start);
    const before = await ownBooking(ctx, ctx.deps.sql, input.bookingId);
    const allowed = rescheduleAllowed(stateOf(before), now);
    if (!allowed.ok) refused(allowed, { bookingId: before.id });
    const slot = await moveTarget(ctx, before, start, input.resourceId);
    const row = await transaction(ctx.deps.sql, async (q) => {
      const current = await ownBooking(ctx, q, input.bookingId, true);
      const next = transition(stateOf(current), { type: 'RESCHEDULE', start, end: slot.end }, now);
      if (!next.ok) refused(next, { bookingId: current.id });
      const moved = await writeMove(q, current, slot, next.state.status, now, 'find_reschedule_times');
      await auditChange(ctx, q, 'booking.reschedule', current.id, {
        from: current.start.toISOString(),
        to: start.toISOString(),
        resourceId: slot.resourceId,
      });
      await recordBookingEvents(q, sourceOf(ctx, 'person'), 'booking.moved', [current.id], {
        from: movedFrom(current),
        by: 'client',
        message: null,
      });
      return moved;
    }).catch(slotTakenOnConflict(input.start, 'find_reschedule_times'));
    const tz = (row.details as unknown as BookingDetails).timeZone ?? slot.priced.offer.business.timezone;
    return {
      bookingId: row.id,
      start: row.start.toISOString(),
      when: whenText(row.start, row.end, tz),
      resourceId: row.resourceId,
      status: row.status,
      paymentStatus: row.paymentStatus,
    };
  },
});

/** Where a booking moved to start at `start` goes, checked against the schedule now: its priced request, resource and end. */
export interface MoveTarget {
  priced: PricedRequest;
  start: Date;
  end: Date;
  resourceId: string;
}

/**
 * Where a booking moved to `start` goes: a stay re-planned whole on the new dates (every night
 * checked), anything else on `resourceId`, else its own resource when free then, else any free
 * one, the slot checked as book checks it (SLOT_TAKEN, or 400 when it is not an open time), with
 * the slot engine's notice unless `minNoticeMin` says otherwise (the business may waive it). The
 * person's reschedule_booking and the business's move_booking both ask it.
 */
export async function moveTarget(
  ctx: OperationContext,
  before: BookingRow,
  start: Date,
  resourceId: string | undefined,
  minNoticeMin?: number,
): Promise<MoveTarget> {
  const priced = await pricedFor(ctx, before);
  const tz = priced.offer.business.timezone;
  checkDateBounds('booking', localDate(ctx.deps.clock.now(), tz), tz, { start });
  const stay = stayOf(before, tz);
  if (stay) return { priced, start, ...(await movedStay(ctx, priced, before, stay, start, resourceId)) };
  const on =
    resourceId ??
    (await freeResourceAt(ctx, priced, start, before.resourceId, [before.id])) ??
    before.resourceId;
  await checkSlot(ctx, priced, start, on, [before.id], minNoticeMin);
  return {
    priced,
    start,
    resourceId: on,
    end: new Date(start.getTime() + (before.end.getTime() - before.start.getTime())),
  };
}

/**
 * Writes a locked booking's move to `target` with `status`, under the resource's lock: a group walk
 * takes a place in the walk at the new time within its capacity (else SLOT_TAKEN); an unpaid card
 * booking stays held until its link expires, never past its new start (one without a live link
 * until it starts). The database's exclusion constraint still decides a race: see
 * `slotTakenOnConflict`. Answers the booking as moved.
 */
export async function writeMove(
  q: Queryable,
  current: BookingRow,
  target: MoveTarget,
  status: BookingRow['status'],
  now: Date,
  /** The tool that finds times again, named when the time was just taken. */
  findTool: string,
): Promise<BookingRow> {
  const { start, end, resourceId } = target;
  await lockResource(q, current.businessId, resourceId);
  const group = groupOf(target.priced);
  if (group && current.groupKey) {
    const already = await lockGroupWalk(
      q,
      current.businessId,
      resourceId,
      shareKey(current.groupKey, start, end),
    );
    if (already + current.groupSize > group.capacity)
      throw new ServiceError('SLOT_TAKEN', `That group walk just filled up. Call ${findTool} again.`, {
        start: start.toISOString(),
      });
  }
  const link = current.holdUntil ? await openLinkExpiry(q, current.id) : null;
  const hold = current.holdUntil ? holdUntil(link ?? start, start) : null;
  await updateBooking(q, current.id, { status, start, end, resourceId, holdUntil: hold }, now);
  // Read against the working time as it is under the lock: hours or time off changed since the
  // target was checked flag the moved booking, as the change would have.
  await flagIfOutsideWorkingTime(
    q,
    target.priced.offer.business,
    [{ id: current.id, start, end, resourceId }],
    now,
  );
  return { ...current, status, start, end, resourceId, holdUntil: hold };
}

/** Where a booking was before it moved, as `booking.moved` tells it. */
export function movedFrom(row: Pick<BookingRow, 'start' | 'end' | 'resourceId'>) {
  return { start: row.start.toISOString(), end: row.end.toISOString(), resourceId: row.resourceId };
}

/** A move that lost a race for its time (the exclusion constraint, or a deadlock) as 409 SLOT_TAKEN, naming the tool that finds times again. */
export function slotTakenOnConflict(start: string, findTool: string) {
  return (err: unknown): never => {
    if (isSlotConflict(err) || isWriteConflict(err))
      throw new ServiceError('SLOT_TAKEN', `That time was just taken. Call ${findTool} again.`, { start });
    throw err;
  };
}

export const cancelBooking = defineOperation({
  operationId: 'cancelBooking',
  confirmKind: 'booking',
  toolName: 'cancel_booking',
  title: 'Cancel a booking',
  tag: 'Booking',
  mcp: 'person',
  method: 'POST',
  path: '/v1/bookings/:bookingId/cancel',
  inputIn: 'body',
  auth: { scope: 'bookings:write' },
  description:
    'Cancels a booking before it starts. First tell the person what will be cancelled; send `confirm: true` only after they ' +
    'agree (otherwise 409 CONFIRM_REQUIRED with the summary). `series: true` also cancels the later weeks of a weekly repeat. ' +
    'A paid booking becomes REFUND_REQUESTED: the operator refunds in 5 to 7 working days.',
  input: z
    .object({
      ...BookingIdShape,
      // Left out or false is the spec's "confirm other than true": 409 CONFIRM_REQUIRED with the
      // summary to show, not a 400 about a missing field.
      confirm: z.boolean().optional().meta({
        description:
          'true only after the person agreed to the summary; left out or false: 409 CONFIRM_REQUIRED.',
      }),
      series: z.boolean().default(false),
    })
    .strict()
    .meta({ example: { bookingId: 'bkg_ftp8sjc07qhmzr6hv5kv', confirm: true, series: false } }),
  output: z
    .object({
      cancelled: z.array(z.string()),
      refundRequested: z
        .array(z.string())
        .meta({ description: 'Paid bookings among them: refunded in 5 to 7 working days.' }),
      message: z.string(),
    })
    .meta({
      id: 'CancelResult',
      description: 'The bookings cancelled; paid ones among them are refunded in 5 to 7 working days.',
    }),
  successStatus: 200,
  errors: [
    { status: 400, description: 'Invalid input.' },
    auth401,
    { status: 403, description: 'The credential lacks bookings:write.' },
    notFound,
    {
      status: 409,
      description:
        '`CONFIRM_REQUIRED` (show `details.summary`), `TOO_LATE` (it has started) or `NOT_ACTIVE`.',
    },
    tooMany,
  ],
  events: ['booking.cancelled', 'booking.refund_due'],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(ctx, input) {
    return transaction(ctx.deps.sql, async (q) => {
      const row = await ownBooking(ctx, q, input.bookingId, true);
      const { cancelled, refundRequested } = await cancelWithRefunds(ctx, q, row, {
        series: input.series,
        confirm: input.confirm === true,
        action: 'booking.cancel',
        summary: (rows) => {
          const biz = { timezone: 'Africa/Johannesburg', currency: 'ZAR', name: 'the business’s own place' };
          const parts = bookingParts(rows, biz);
          return {
            kind: 'booking',
            what: `Cancel ${rows.length === 1 ? 'the booking' : `${rows.length} bookings`}`,
            ...parts,
            money: cancelMoney(rows, parts.amount.currency),
          };
        },
      });
      await recordCancellations(q, sourceOf(ctx, 'person'), cancelled, {
        type: 'booking.cancelled',
        by: 'client',
        message: null,
      });
      const message = `Cancelled ${cancelled.length === 1 ? 'the booking' : `${cancelled.length} bookings`}.${refundRequested.length ? ' The payment is refunded to the card in 5 to 7 working days.' : ''}`;
      return { cancelled, refundRequested, message };
    });
  },
});

/**
 * Cancels a locked booking by the refund rules (booking-rules' CANCEL: paid becomes
 * REFUND_REQUESTED, unpaid and cash VOID), and with `series` the later weeks of its weekly repeat
 * (those that can no longer be cancelled are left as they are) and the repeat itself; each
 * audited as `action`. Links asking for money for a cancelled booking stop working. Whether it can
 * be cancelled at all is answered before the confirmation: without `confirm`, 409
 * CONFIRM_REQUIRED with `details.summary` (`summary` of the bookings it would cancel) and nothing
 * changed. The person's cancel_booking and the business's cancel and decline share it.
 */
export async function cancelWithRefunds(
  ctx: OperationContext,
  q: Queryable,
  row: BookingRow,
  options: {
    series: boolean;
    confirm: boolean;
    action: string;
    summary: (rows: BookingRow[]) => ConfirmParts<'booking'>;
    /** Recorded with each booking's audit entry. */
    details?: Record<string, unknown>;
  },
): Promise<{ rows: BookingRow[]; cancelled: string[]; refundRequested: string[] }> {
  const now = ctx.deps.clock.now();
  const later = options.series && row.seriesId ? await listSeriesBookings(q, row.seriesId, row.start) : [];
  const rows = [row, ...later.filter((b) => b.id !== row.id)];
  const summary = options.summary(rows);
  const cancelled: string[] = [];
  const refundRequested: string[] = [];
  // Whether it can be cancelled at all comes before asking for confirmation.
  const possible = transition(stateOf(row), { type: 'CANCEL', confirm: true }, now);
  if (!possible.ok) refused(possible, { bookingId: row.id });
  // The rules ask the person first (booking-rules' CANCEL without confirm), before anything is written.
  const ask = transition(stateOf(row), { type: 'CANCEL', confirm: false }, now);
  if (!ask.ok && ask.code === 'CONFIRM_REQUIRED')
    confirmStep(ctx, options.confirm, summary, { message: ask.message, details: { bookingId: row.id } });
  for (const b of rows) {
    const next = transition(stateOf(b), { type: 'CANCEL', confirm: true }, now);
    if (!next.ok) {
      // The booking asked for must be cancellable; later weeks that are not are left as they are.
      if (b.id === row.id) refused(next, { bookingId: b.id });
      continue;
    }
    await updateBooking(
      q,
      b.id,
      { status: next.state.status, paymentStatus: next.state.paymentStatus, holdUntil: null },
      now,
    );
    await auditChange(ctx, q, options.action, b.id, {
      ...options.details,
      paymentStatus: next.state.paymentStatus,
    });
    cancelled.push(b.id);
    if (next.state.paymentStatus === 'REFUND_REQUESTED') refundRequested.push(b.id);
  }
  if (options.series && row.seriesId) await cancelSeries(q, row.seriesId, now);
  // A link for several bookings would now ask for money for a cancelled one: it stops working,
  // and the bookings still unpaid get their own link from pay_booking.
  if (cancelled.length) await supersedePayments(q, cancelled);
  return { rows, cancelled, refundRequested };
}

/**
 * The booking a fresh pay link may be made for: its open links locked first, then the booking
 * (`load`, which locks it and answers 404 for a booking not the caller's), in the order a
 * notification settling one locks them; 409 NOTHING_TO_PAY when paid, cash or no longer active.
 * pay_booking's rule, also the business's send_payment_link's.
 */
export async function payableBooking(
  ctx: OperationContext,
  q: Queryable,
  bookingId: string,
  load: (bookingId: string) => Promise<BookingRow>,
): Promise<BookingRow> {
  await lockOpenPayLinks(q, [bookingId]);
  const row = await load(bookingId);
  const ok = payLink(stateOf(row), ctx.deps.clock.now());
  if (!ok.ok) refused(ok, { bookingId: row.id, paymentStatus: row.paymentStatus });
  return row;
}

/**
 * A fresh 48-hour pay link for one booking from `payableBooking`, audited (`booking.paylink`);
 * `others` says when a link shared with other bookings still works for them.
 */
export async function freshPayLink(
  ctx: OperationContext,
  q: Queryable,
  row: BookingRow,
): Promise<{ link: Awaited<ReturnType<typeof makePayLink>>; currency: string; others: string }> {
  const currency = (row.details as unknown as BookingDetails).currency ?? 'ZAR';
  const link = await makePayLink(ctx, q, [row], currency);
  await auditChange(ctx, q, 'booking.paylink', row.id, {
    paymentId: link.paymentId,
    ...(link.narrowed.length ? { narrowed: link.narrowed } : {}),
  });
  const others = link.narrowed.length
    ? ` The link the person already has for the other ${link.narrowed.reduce((n, l) => n + l.bookingIds.length, 0) === 1 ? 'booking' : 'bookings'} still works for them and no longer includes this one.`
    : '';
  return { link, currency, others };
}

export const payBooking = defineOperation({
  operationId: 'payBooking',
  toolName: 'pay_booking',
  title: 'Get a pay link',
  tag: 'Booking',
  mcp: 'person',
  method: 'POST',
  path: '/v1/bookings/:bookingId/pay',
  inputIn: 'body',
  auth: { scope: 'bookings:write' },
  description:
    'A fresh pay link (valid 48 hours) for an unpaid card booking alone; the person opens `payUrl` to pay. Earlier links ' +
    'of this booking alone stop working; a link it shares with other bookings (a weekly series) keeps working for the ' +
    'others and no longer asks for this one. Paid or cash bookings answer 409 NOTHING_TO_PAY.',
  input: z.object(BookingIdShape).strict(),
  output: z
    .object({
      bookingId: z.string(),
      totalCents: z.int(),
      total: z.string(),
      payUrl: z.url(),
      expiresAt: z.iso.datetime(),
      next: z.string(),
    })
    .meta({
      id: 'PayLink',
      description: 'A fresh link for the person to open and pay an unpaid card booking; valid 48 hours.',
    }),
  successStatus: 200,
  errors: [
    auth401,
    { status: 403, description: 'The credential lacks bookings:write.' },
    notFound,
    { status: 409, description: '`NOTHING_TO_PAY`: paid, cash, or no longer active.' },
    tooMany,
  ],
  events: [],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(ctx, input) {
    return transaction(ctx.deps.sql, async (q) => {
      const row = await payableBooking(ctx, q, input.bookingId, (id) => ownBooking(ctx, q, id, true));
      const { link, currency, others } = await freshPayLink(ctx, q, row);
      return {
        bookingId: row.id,
        totalCents: row.totalCents,
        total: formatMoney(row.totalCents, currency),
        payUrl: link.payUrl,
        expiresAt: link.expiresAt.toISOString(),
        next: `Give the person the payUrl to pay ${formatMoney(row.totalCents, currency)} by card; it works for 48 hours.${others}`,
      };
    });
  },
});
