import { transition } from '@nogpets/booking-rules';
import { appendAudit, findBookings, findPayment, type Queryable, recordNotification, setPaymentStatus, updateBooking } from '@nogpets/store';
import type { BookingRow } from '@nogpets/store';
import type { Deps } from '../context.js';
import { stateOf } from '../booking/booking-model.js';

export type SettleOutcome = 'APPLIED' | 'DUPLICATE' | 'REJECTED' | 'UNKNOWN_PAYMENT' | 'AMOUNT_MISMATCH' | 'NOT_PAID';

/**
 * A gateway's notification, verified and applied once: the gateway vouches for it (signature,
 * source, confirmation), the amount must be the payment's to the cent, and one gateway reference
 * is applied at most once. Anything else is recorded and changes nothing.
 */
export async function settleNotification(deps: Deps, rawBody: string, from: { ip: string }): Promise<{ outcome: SettleOutcome; reason?: string; bookingIds?: string[] }> {
  const gateway = deps.payments.gateway;
  const now = deps.clock.now();
  const verified = await gateway.verify(rawBody, from);
  const record = (outcome: string, v: { paymentId?: string | undefined; gatewayRef?: string | undefined }, q: Queryable = deps.sql) =>
    recordNotification(q, { gateway: gateway.name, gatewayRef: v.gatewayRef ?? null, paymentId: v.paymentId ?? null, outcome, body: rawBody.slice(0, 10_000) }, now);
  if (!verified.ok) {
    await record(`REJECTED: ${verified.reason}`, verified);
    return { outcome: 'REJECTED', reason: verified.reason };
  }
  return deps.sql.begin(async (tx) => {
    const q = tx as unknown as Queryable;
    const payment = await findPayment(q, verified.paymentId, { forUpdate: true });
    if (!payment || payment.gateway !== gateway.name) {
      await record('UNKNOWN_PAYMENT', verified, q);
      return { outcome: 'UNKNOWN_PAYMENT' as const };
    }
    if (verified.amountCents !== payment.amountCents) {
      await record(`AMOUNT_MISMATCH: ${verified.amountCents} for ${payment.amountCents}`, verified, q);
      return { outcome: 'AMOUNT_MISMATCH' as const, reason: `expected ${payment.amountCents} cents, got ${verified.amountCents}` };
    }
    if (verified.outcome !== 'COMPLETE') {
      await record(`NOT_PAID: ${verified.outcome}`, verified, q);
      if (verified.outcome === 'FAILED' && payment.status === 'OPEN') await setPaymentStatus(q, payment.id, 'FAILED', now, verified.gatewayRef);
      return { outcome: 'NOT_PAID' as const, reason: verified.outcome };
    }
    // One application per gateway reference (a replay finds it taken), and one per payment.
    const settled = payment.status === 'PAID' || payment.status === 'REFUND_DUE' || payment.status === 'REFUNDED';
    if (settled || !(await record('APPLIED', verified, q))) {
      if (settled) await record('DUPLICATE', verified, q);
      return { outcome: 'DUPLICATE' as const };
    }
    const bookings: BookingRow[] = await findBookings(q, payment.bookingIds, { forUpdate: true });
    // An older link paid after a newer one was: these bookings are paid already, so this money
    // goes back. The payment waits for the operator (`refund list`); the bookings are untouched.
    const paidBefore = bookings.filter((b) => b.paymentMethod === 'CARD' && ['PAID', 'REFUND_REQUESTED', 'REFUNDED'].includes(b.paymentStatus));
    if (paidBefore.length) {
      await setPaymentStatus(q, payment.id, 'REFUND_DUE', now, verified.gatewayRef);
      await appendAudit(
        q,
        { userId: payment.userId, clientId: null, clientName: `${gateway.name} gateway`, action: 'payment.refund_due', target: payment.id, details: { gatewayRef: verified.gatewayRef, alreadyPaid: paidBefore.map((b) => b.id) } },
        now,
      );
      return { outcome: 'APPLIED' as const, bookingIds: [] };
    }
    await setPaymentStatus(q, payment.id, 'PAID', now, verified.gatewayRef);
    for (const b of bookings) {
      const next = transition(stateOf(b), { type: 'PAYMENT_SUCCEEDED' }, now);
      if (!next.ok) continue;
      await updateBooking(q, b.id, { status: next.state.status, paymentStatus: next.state.paymentStatus, holdUntil: null }, now);
      await appendAudit(
        q,
        { userId: b.userId, clientId: null, clientName: `${gateway.name} gateway`, action: 'booking.paid', target: b.id, details: { paymentId: payment.id, gatewayRef: verified.gatewayRef, paymentStatus: next.state.paymentStatus } },
        now,
      );
    }
    return { outcome: 'APPLIED' as const, bookingIds: payment.bookingIds };
  });
}
