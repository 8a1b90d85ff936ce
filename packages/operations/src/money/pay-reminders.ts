/**
 * Telling a person that an unpaid link is about to lapse: an unpaid card booking's hold (its time
 * is freed when it ends) and a card order's pay link. Written as events (`booking.payment_due`,
 * `order.payment_due`) from which mails are made; the pay link itself is never in the event (a
 * webhook or a business must not see it).
 */
import { payReminderAt } from '@nogpets/booking-rules';
import { claimPayReminder, findBooking, findOrder, listPaymentsToRemind, transaction } from '@nogpets/store';
import { recordBookingEvents } from '../bookings/index.js';
import type { Deps } from '../core/index.js';
import { orderFacts, recordEvents, systemSource } from '../events/index.js';

/**
 * Unpaid card bookings and orders whose pay reminder is due (booking-rules `payReminderAt`: 6 hours
 * before the deadline) get their event, once per deadline (a fresh link with a later one is told
 * again). Safe with two workers: the reminder row is the claim, in the event's transaction.
 * Answers the ids told.
 */
export async function remindUnpaid(deps: Deps): Promise<{ bookings: string[]; orders: string[] }> {
  const now = deps.clock.now();
  const source = systemSource('remind-payments', now);
  const due = await listPaymentsToRemind(deps.sql, now, 6);
  const isDue = (c: { payUntil: Date; openedAt: Date }) => {
    const at = payReminderAt(c);
    return at !== null && at <= now;
  };
  const told = { bookings: [] as string[], orders: [] as string[] };
  for (const c of due.bookings.filter(isDue)) {
    await transaction(deps.sql, async (q) => {
      const row = await findBooking(q, c.id, { forUpdate: true });
      // Paid, lapsed or given a new link since it was listed: nothing to tell for this deadline.
      if (row?.paymentStatus !== 'PENDING' || row.holdUntil?.getTime() !== c.payUntil.getTime()) return;
      if (!(await claimPayReminder(q, c.id, c.payUntil, now))) return;
      await recordBookingEvents(q, source, 'booking.payment_due', [c.id], {
        payUntil: c.payUntil.toISOString(),
      });
      told.bookings.push(c.id);
    });
  }
  for (const c of due.orders.filter(isDue)) {
    await transaction(deps.sql, async (q) => {
      const row = await findOrder(q, c.id, { forUpdate: true });
      if (row?.status !== 'PENDING_PAYMENT' || row.expiresAt?.getTime() !== c.payUntil.getTime()) return;
      if (!(await claimPayReminder(q, c.id, c.payUntil, now))) return;
      await recordEvents(
        q,
        source,
        (await orderFacts(q, [c.id])).map((o) => ({
          type: 'order.payment_due' as const,
          businessId: o.businessId,
          personId: o.personId,
          subjectId: o.facts.orderId,
          data: { order: o.facts, payUntil: c.payUntil.toISOString() },
        })),
      );
      told.orders.push(c.id);
    });
  }
  return told;
}
