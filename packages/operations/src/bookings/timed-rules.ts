import {
  parseRepeat,
  reminderAt,
  rescheduleDeadline,
  seriesHorizon,
  type Trigger,
  transition,
} from '@nogpets/booking-rules';
import {
  appendAudit,
  type BookingRow,
  claimBookingReminder,
  findBooking,
  firstSeriesBooking,
  holdUntilStart,
  listBookingsToRemind,
  listFinishedBookings,
  listLapsedHolds,
  listOpenSeries,
  lockSeries,
  type Queryable,
  setSeriesBookedUntil,
  transaction,
  updateBooking,
} from '@nogpets/store';
import { type Deps, localDate, type OperationContext, type Scope, SCOPE_NAMES } from '../core/index.js';
import { systemSource } from '../events/index.js';
import { recordBookingEvents } from './events.js';
import { stateOf } from './booking-model.js';
import { placeBookings } from './place.js';
import { priceRequest } from '../catalogue/index.js';
import { fullyBookedLead, seriesPlacements } from './series.js';

/**
 * One timed rule applied by the worker to each booking it lists: under the booking's row lock, the
 * booking-rules move, written and audited only when it changes the status. Safe to run twice at
 * once: the second run finds the booking moved (or no longer eligible) and does nothing.
 */
async function workerMove(
  deps: Deps,
  ids: string[],
  rule: {
    trigger: Trigger;
    action: string;
    eligible(row: BookingRow, now: Date): boolean;
    details(row: BookingRow): Record<string, unknown>;
    /** The event the move writes, if people are told of it (a lapsed hold), and the job it names. */
    event?: { type: 'booking.expired'; job: string };
  },
): Promise<string[]> {
  const now = deps.clock.now();
  const moved: string[] = [];
  for (const id of ids) {
    await transaction(deps.sql, async (q) => {
      const row = await findBooking(q, id, { forUpdate: true });
      if (!row || !rule.eligible(row, now)) return;
      const next = transition(stateOf(row), rule.trigger, now);
      if (!next.ok || next.state.status === row.status) return;
      await updateBooking(
        q,
        id,
        { status: next.state.status, paymentStatus: next.state.paymentStatus, holdUntil: null },
        now,
      );
      await appendAudit(
        q,
        {
          userId: row.userId,
          clientId: null,
          clientName: 'worker',
          action: rule.action,
          target: id,
          details: rule.details(row),
        },
        now,
      );
      if (rule.event)
        await recordBookingEvents(q, systemSource(rule.event.job, now), rule.event.type, [id], {});
      moved.push(id);
    });
  }
  return moved;
}

/** Unpaid card bookings whose hold lapsed become EXPIRED and free their time. */
export async function expireHolds(deps: Deps): Promise<string[]> {
  return workerMove(deps, await listLapsedHolds(deps.sql, deps.clock.now()), {
    trigger: { type: 'HOLD_EXPIRED' },
    action: 'booking.expire',
    eligible: (row, now) => row.holdUntil !== null && row.holdUntil <= now,
    details: (row) => ({ holdUntil: row.holdUntil?.toISOString() }),
    event: { type: 'booking.expired', job: 'expire-unpaid-holds' },
  });
}

/**
 * Live bookings whose time is over become DONE (the booking-rules COMPLETE move): they leave the
 * person's upcoming list and can no longer be moved or cancelled. Unpaid card bookings are the
 * hold rule's (they expire instead).
 */
export async function completeBookings(deps: Deps): Promise<string[]> {
  return workerMove(deps, await listFinishedBookings(deps.sql, deps.clock.now()), {
    trigger: { type: 'COMPLETE' },
    action: 'booking.done',
    eligible: (row) => !(row.paymentMethod === 'CARD' && row.paymentStatus === 'PENDING'),
    details: (row) => ({ end: row.end.toISOString() }),
  });
}

/**
 * Confirmed bookings whose reminder is due (booking-rules `reminderAt`: 18:00 local the evening
 * before) get a `booking.reminder_due` event, once per booking and start: a booking moved to
 * another day is reminded again. A reminder missed while no worker ran is still written until the
 * booking starts. Safe with two workers: the reminder row is the claim, in the event's transaction.
 */
export async function remindBookings(deps: Deps): Promise<string[]> {
  const now = deps.clock.now();
  // The latest a reminder can be due: 18:00 the day before a start at 23:59, with an hour of DST.
  const candidates = await listBookingsToRemind(deps.sql, now, 31);
  const reminded: string[] = [];
  for (const c of candidates) {
    const at = reminderAt({ start: c.start, timeZone: c.timeZone, bookedAt: c.createdAt });
    if (!at || at > now) continue;
    await transaction(deps.sql, async (q) => {
      const row = await findBooking(q, c.id, { forUpdate: true });
      // Moved or cancelled since it was listed: its new start is the next pass's.
      if (row?.status !== 'ACCEPTED' || row.start.getTime() !== c.start.getTime()) return;
      if (!(await claimBookingReminder(q, c.id, c.start, now))) return;
      const changeUntil = rescheduleDeadline(stateOf(row));
      await recordBookingEvents(q, systemSource('remind-bookings', now), 'booking.reminder_due', [c.id], {
        changeUntil: changeUntil && changeUntil > now ? changeUntil.toISOString() : null,
      });
      reminded.push(c.id);
    });
  }
  return reminded;
}

interface SeriesTemplate {
  category: 'walking';
  addressId: string;
  pets: { petId: string; serviceIds: string[] }[];
  resourceId: string;
  start: string;
  repeat: unknown;
  paymentMethod: 'CARD' | 'CASH';
  notes: string;
}

/**
 * Keeps weekly series booked ahead: each open series gets the weeks up to the horizon (4 weeks
 * from now) that it does not have yet, priced and checked as a new booking; weeks that cannot be
 * booked are skipped (a fully booked one is a lead). Safe with two workers: the series row is
 * locked and `booked_until` only moves forward.
 */
export async function extendSeries(deps: Deps, log?: (entry: object) => void): Promise<number> {
  const now = deps.clock.now();
  const offer = await deps.offers.operator();
  const horizon = seriesHorizon(now, offer.business.timezone);
  let booked = 0;
  for (const open of await listOpenSeries(deps.sql, horizon)) {
    // On postgres.js's own transaction: its weeks go in a savepoint (tx.savepoint below).
    await deps.sql.begin(async (tx) => {
      const q: Queryable = tx;
      const series = await lockSeries(q, open.id);
      if (!series || series.cancelledAt || series.bookedUntil >= horizon) return;
      const t = series.template as unknown as SeriesTemplate;
      const repeat = parseRepeat(t.repeat);
      if (!repeat.ok) return;
      // The person's own rights, as when they booked.
      const ctx: OperationContext = {
        deps: { ...deps, sql: tx as never },
        requestId: `series-${series.id}`,
        clientName: 'worker',
        auth: {
          userId: series.userId,
          credentialId: 'worker',
          kind: 'API_KEY',
          scopes: SCOPE_NAMES as Scope[],
          clientId: null,
          clientName: null,
        },
        log: { info() {}, warn() {}, error() {} },
      };
      try {
        // One savepoint for the series' weeks and their events: a failure part way leaves none of
        // them (the series still moves on below), never weeks without their booking.created.
        await tx.savepoint(async () => {
          const priced = await priceRequest(
            ctx,
            // The series' own business (a partner's walks are priced and placed with the partner).
            { businessId: series.businessId, category: t.category, addressId: t.addressId, pets: t.pets },
            'book',
            { implied: true },
          );
          const card = t.paymentMethod === 'CARD';
          const total = priced.quote.subtotalCents + (card ? priced.quote.cardFeeCents : 0);
          // Only weeks after what is booked, and never the first walk again.
          const after = new Date(Math.max(series.bookedUntil.getTime(), Date.parse(t.start)));
          const { placements, skipped } = await seriesPlacements(
            ctx,
            priced,
            { start: new Date(t.start), resourceId: t.resourceId },
            repeat.repeat,
            after,
            horizon,
            total,
          );
          const prior = await firstSeriesBooking(q, series.id);
          // The first week's pets and address, with this week's own quote: a week not yet made is a
          // new booking at the price of the day (update_prices says so), and its quote says what it costs.
          const details = { ...(prior?.details ?? {}), quote: priced.quote };
          const placed = await placeBookings(
            ctx,
            q,
            placements,
            {
              priced,
              details: details as never,
              paymentMethod: t.paymentMethod,
              paymentStatus: card ? 'PENDING' : 'CASH_DUE',
              addressId: t.addressId,
              seriesId: series.id,
              notes: t.notes,
              // The person's own weeks, booked by the worker for them.
              created: { source: systemSource('keep-series-booked', now), by: 'client' },
            },
            true,
          );
          // Nobody is there to hand a link to: each new card week waits for payment until its start
          // (canPay; pay_booking makes its link), then lapses like any unpaid hold.
          if (card && placed.rows.length)
            await holdUntilStart(
              q,
              placed.rows.map((r) => r.id),
            );
          booked += placed.rows.length;
          const fully = [
            ...skipped,
            ...placed.taken.map((p) => ({
              date: localDate(p.start, priced.offer.business.timezone),
              reason: 'FULLY_BOOKED',
              message: 'fully booked',
            })),
          ];
          await fullyBookedLead({ ...ctx, deps }, priced, fully);
        });
      } catch (err) {
        // A series whose address or pets are gone, or no longer covered, is left for the operator.
        log?.({ seriesId: series.id, err: (err as Error).message });
      }
      await setSeriesBookedUntil(q, series.id, horizon);
    });
  }
  return booked;
}
