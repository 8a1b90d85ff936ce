import { orderTransition, transition } from '@nogpets/booking-rules';
import type { BookingRow, PaymentRow } from '@nogpets/store';
import {
  appendAudit,
  findBookings,
  findInvoiceOfPayment,
  findOrderOfPayment,
  findPayment,
  finishPaymentNotice,
  insertRefundDue,
  lockGatewayRef,
  markInvoicePaid,
  type Queryable,
  recordNotification,
  refundNoticeExists,
  setPaymentStatus,
  transaction,
  updateBooking,
  updateOrder,
} from '@nogpets/store';
import { recordBookingEvents, stateOf } from '../bookings/index.js';
import { cutText, type Deps, toStorableText } from '../core/index.js';
import { type EventSource, orderFacts, recordEvents, systemSource } from '../events/index.js';
import type { VerifiedNotification } from './gateway.js';

export type SettleOutcome =
  | 'APPLIED'
  | 'DUPLICATE'
  | 'REJECTED'
  | 'UNKNOWN_PAYMENT'
  | 'AMOUNT_MISMATCH'
  | 'NOT_PAID'
  | 'REFUND_DUE';

/**
 * What the operator must do about a notification: nothing (`DONE`), look it up at the gateway
 * (`PROBLEM`: signed, claims a payment, refused before the gateway confirmed it), or return the
 * money (`REFUND_DUE`: confirmed money no booking takes).
 */
export type NoticeState = 'DONE' | 'PROBLEM' | 'REFUND_DUE';

export interface Settlement {
  outcome: SettleOutcome;
  reason?: string;
  bookingIds?: string[];
  notice: NoticeState;
}

/**
 * A gateway's notification, verified and applied once: the gateway vouches for it (signature,
 * source, confirmation), the amount must be the payment's to the cent, and one gateway reference
 * is applied at most once. Money the bookings do not take — a second charge on a paid link, an
 * unknown payment, a different amount — becomes a refund owed, never a silent "duplicate".
 * With `noticeId` (the notification as kept on receipt) the decision is written on it, in the
 * same transaction as its effect.
 */
export async function settleNotification(
  deps: Deps,
  rawBody: string,
  from: { ip: string },
  noticeId?: string,
): Promise<Settlement> {
  const gateway = deps.payments.gateway;
  const now = deps.clock.now();
  // Ids from a notification anyone may post are kept as text we can store (NUL, lone surrogates
  // replaced), so a hostile body is recorded and refused rather than failing its own record.
  const verified = storableIds(await gateway.verify(rawBody, from));
  const record = (
    outcome: string,
    v: { paymentId?: string | undefined; gatewayRef?: string | undefined },
    q: Queryable = deps.sql,
  ) =>
    recordNotification(
      q,
      {
        gateway: gateway.name,
        gatewayRef: v.gatewayRef ?? null,
        paymentId: v.paymentId ?? null,
        outcome,
        body: rawBody.slice(0, 10_000),
      },
      now,
    );
  const finish = async (q: Queryable, s: Settlement, amountCents: number | undefined) => {
    if (!noticeId) return;
    const amount = amountCents !== undefined && Number.isFinite(amountCents) ? amountCents : null;
    const outcome = (s.reason ? `${s.outcome}: ${s.reason}` : s.outcome).slice(0, 500);
    await finishPaymentNotice(
      q,
      noticeId,
      {
        state: s.notice,
        outcome,
        paymentId: verified.paymentId ?? null,
        gatewayRef: verified.gatewayRef ?? null,
        amountCents: amount,
      },
      now,
    );
  };
  if (!verified.ok) {
    // Anyone may post here: only a notification signed with our secret that claims money is the operator's business.
    const s: Settlement = {
      outcome: 'REJECTED',
      reason: verified.reason,
      notice: verified.signed && verified.claimed === 'COMPLETE' ? 'PROBLEM' : 'DONE',
    };
    await record(`REJECTED: ${verified.reason}`, verified);
    await finish(deps.sql, s, verified.amountCents);
    return s;
  }
  return transaction(deps.sql, async (q) => {
    const s = await apply(deps, q, verified, record);
    await finish(q, s, verified.amountCents);
    return s;
  });
}

/** The events of a payment settled come from the gateway's notification, not from a person's call. */
const settled = (now: Date): EventSource => systemSource('payment-notification', now);

type RecordNotification = (
  outcome: string,
  v: { paymentId?: string | undefined; gatewayRef?: string | undefined },
  q?: Queryable,
) => Promise<boolean>;

function storableIds<V extends VerifiedNotification>(v: V): V {
  const clean = (id: string | undefined) => (id === undefined ? undefined : cutText(toStorableText(id), 200));
  return { ...v, paymentId: clean(v.paymentId), gatewayRef: clean(v.gatewayRef) } as V;
}

async function apply(
  deps: Deps,
  q: Queryable,
  verified: Extract<VerifiedNotification, { ok: true }>,
  record: RecordNotification,
): Promise<Settlement> {
  const gateway = deps.payments.gateway;
  const now = deps.clock.now();
  await lockGatewayRef(q, gateway.name, verified.gatewayRef);
  const paid = verified.outcome === 'COMPLETE';
  // Confirmed money that no payment of ours takes as it is: owed back, once per gateway reference.
  const owedBack = async (
    outcome: 'UNKNOWN_PAYMENT' | 'AMOUNT_MISMATCH',
    reason: string,
  ): Promise<Settlement> => {
    await record(`${outcome}: ${reason}`, verified, q);
    if (!paid) return { outcome, reason, notice: 'DONE' };
    if (await refundNoticeExists(q, gateway.name, verified.gatewayRef))
      return { outcome: 'DUPLICATE', reason: `${outcome} already owed back`, notice: 'DONE' };
    return { outcome, reason, notice: 'REFUND_DUE' };
  };
  const payment = await findPayment(q, verified.paymentId, { forUpdate: true });
  if (!payment || payment.gateway !== gateway.name)
    return owedBack('UNKNOWN_PAYMENT', `no ${gateway.name} payment ${verified.paymentId}`);
  if (verified.amountCents !== payment.amountCents)
    return owedBack('AMOUNT_MISMATCH', `${verified.amountCents} for ${payment.amountCents}`);
  if (!paid) {
    await record(`NOT_PAID: ${verified.outcome}`, verified, q);
    if (verified.outcome === 'FAILED' && payment.status === 'OPEN')
      await setPaymentStatus(q, payment.id, 'FAILED', now, verified.gatewayRef);
    return { outcome: 'NOT_PAID', reason: verified.outcome, notice: 'DONE' };
  }
  // One application per gateway reference: a replay finds it taken.
  if (!(await record('APPLIED', verified, q))) {
    await record('DUPLICATE', verified, q);
    return { outcome: 'DUPLICATE', notice: 'DONE' };
  }
  const audit = (action: string, target: string, userId: string | null, details: Record<string, unknown>) =>
    appendAudit(
      q,
      { userId, clientId: null, clientName: `${gateway.name} gateway`, action, target, details },
      now,
    );
  // A second real payment on the same link (two tabs, "Try again" while the first notification
  // was late): a new gateway reference for a payment already settled. That money goes back.
  if (payment.status === 'PAID' || payment.status === 'REFUND_DUE' || payment.status === 'REFUNDED') {
    await audit('payment.charged_again', payment.id, payment.userId, {
      gatewayRef: verified.gatewayRef,
      firstGatewayRef: payment.gatewayRef,
      amountCents: verified.amountCents,
    });
    return {
      outcome: 'REFUND_DUE',
      reason: `charged again for ${payment.id} (first ${payment.gatewayRef ?? 'reference unknown'})`,
      notice: 'REFUND_DUE',
    };
  }
  // A business's invoice link (no bookings): the invoice is paid, once (the payment, locked above, was open).
  const invoice = await findInvoiceOfPayment(q, payment.id, { forUpdate: true });
  if (invoice) {
    await setPaymentStatus(q, payment.id, 'PAID', now, verified.gatewayRef);
    await markInvoicePaid(q, invoice.id, now);
    await audit('invoice.paid', invoice.id, null, {
      paymentId: payment.id,
      gatewayRef: verified.gatewayRef,
      amountCents: payment.amountCents,
    });
    return { outcome: 'APPLIED', bookingIds: [], notice: 'DONE' };
  }
  // A shop order's link: the order is confirmed, once, while it still waits for payment. Money for
  // an order that closed meanwhile (unpaid after 24 hours, its stock returned) is owed back.
  const order = await findOrderOfPayment(q, payment.id, { forUpdate: true });
  if (order) {
    const next = orderTransition(order, { type: 'PAID' }, now);
    if (!next.ok) {
      await setPaymentStatus(q, payment.id, 'REFUND_DUE', now, verified.gatewayRef);
      // The person was charged for an order that had closed: it says the money is coming back.
      if (order.paymentStatus === 'NONE')
        await updateOrder(q, order.id, { paymentStatus: 'REFUND_REQUESTED' }, now);
      await audit('payment.refund_due', payment.id, payment.userId, {
        gatewayRef: verified.gatewayRef,
        orderId: order.id,
        orderStatus: order.status,
      });
      await recordPaymentRefundDue(q, settled(now), payment, 'order_closed', order.id);
      return {
        outcome: 'REFUND_DUE',
        reason: `order ${order.id} is ${order.status}`,
        bookingIds: [],
        notice: 'DONE',
      };
    }
    await setPaymentStatus(q, payment.id, 'PAID', now, verified.gatewayRef);
    await updateOrder(
      q,
      order.id,
      { status: next.state.status, paymentStatus: next.state.paymentStatus, paidAt: now, expiresAt: null },
      now,
    );
    await audit('order.paid', order.id, order.userId, {
      paymentId: payment.id,
      gatewayRef: verified.gatewayRef,
      amountCents: payment.amountCents,
    });
    await recordEvents(
      q,
      settled(now),
      (await orderFacts(q, [order.id])).map((o) => ({
        type: 'order.paid' as const,
        businessId: o.businessId,
        personId: o.personId,
        subjectId: o.facts.orderId,
        data: { order: o.facts },
      })),
    );
    return { outcome: 'APPLIED', bookingIds: [], notice: 'DONE' };
  }
  const bookings: BookingRow[] = await findBookings(q, payment.bookingIds, { forUpdate: true });
  // Bookings another payment had paid already (an older link paid after a newer one, a series'
  // link paid after one week was paid through its own): their share of this money goes back.
  const paidBefore = bookings.filter(
    (b) => b.paymentMethod === 'CARD' && ['PAID', 'REFUND_REQUESTED', 'REFUNDED'].includes(b.paymentStatus),
  );
  const moves = bookings
    .filter((b) => !paidBefore.includes(b))
    .map((b) => ({ b, next: transition(stateOf(b), { type: 'PAYMENT_SUCCEEDED' }, now) }));
  // A booking that cannot take it (not a card booking any more) leaves the whole amount owed back.
  const refused = moves.filter((m) => !m.next.ok).map((m) => m.b.id);
  if (refused.length || moves.length === 0) {
    // Owed back whole; the payment waits for the operator (`refund list`), the bookings are untouched.
    await setPaymentStatus(q, payment.id, 'REFUND_DUE', now, verified.gatewayRef);
    await audit('payment.refund_due', payment.id, payment.userId, {
      gatewayRef: verified.gatewayRef,
      alreadyPaid: paidBefore.map((b) => b.id),
      refused,
    });
    await recordPaymentRefundDue(
      q,
      settled(now),
      payment,
      paidBefore.length ? 'paid_twice' : 'not_payable',
      null,
    );
    return {
      outcome: 'REFUND_DUE',
      reason: paidBefore.length ? 'paid twice' : 'no booking takes it',
      bookingIds: [],
      notice: 'DONE',
    };
  }
  await setPaymentStatus(q, payment.id, 'PAID', now, verified.gatewayRef);
  for (const { b, next } of moves) {
    if (!next.ok) continue;
    await updateBooking(
      q,
      b.id,
      { status: next.state.status, paymentStatus: next.state.paymentStatus, holdUntil: null },
      now,
    );
    await audit('booking.paid', b.id, b.userId, {
      paymentId: payment.id,
      gatewayRef: verified.gatewayRef,
      paymentStatus: next.state.paymentStatus,
    });
  }
  // Paid: confirmed. Paid after it lapsed or was cancelled: the money is owed back.
  const paidNow = moves.filter((m) => m.next.ok && m.next.state.paymentStatus === 'PAID').map((m) => m.b.id);
  const owedNow = moves
    .filter((m) => m.next.ok && m.next.state.paymentStatus === 'REFUND_REQUESTED')
    .map((m) => m.b.id);
  await recordBookingEvents(q, settled(now), 'booking.paid', paidNow, (f) => ({ paid: { ...f.total } }));
  await recordBookingEvents(q, settled(now), 'booking.refund_due', owedNow, (f) => ({
    refund: { ...f.total },
  }));
  const taken = moves.map((m) => m.b.id);
  if (!paidBefore.length) return { outcome: 'APPLIED', bookingIds: taken, notice: 'DONE' };
  // The rest paid, the share of the bookings paid twice is owed back: a REFUND_DUE payment of its
  // own for exactly that amount and those bookings (`refund list`, `refund done pay_…`).
  const twice = paidBefore.map((b) => b.id);
  const owed = await insertRefundDue(
    q,
    {
      of: payment,
      bookingIds: twice,
      amountCents: paidBefore.reduce((sum, b) => sum + b.totalCents, 0),
      gatewayRef: verified.gatewayRef,
    },
    now,
  );
  // Each booking paid twice: its share is owed back to the person.
  await recordBookingEvents(q, settled(now), 'booking.refund_due', twice, (f) => ({
    refund: { ...f.total },
  }));
  await audit('payment.refund_due', owed.id, payment.userId, {
    gatewayRef: verified.gatewayRef,
    partOf: payment.id,
    alreadyPaid: twice,
    amountCents: owed.amountCents,
  });
  await audit('payment.paid_twice_in_part', payment.id, payment.userId, {
    gatewayRef: verified.gatewayRef,
    alreadyPaid: twice,
    refundDue: owed.id,
    amountCents: owed.amountCents,
  });
  return {
    outcome: 'APPLIED',
    reason: `${twice.join(', ')} paid before: ${owed.amountCents} owed back as ${owed.id}`,
    bookingIds: taken,
    notice: 'DONE',
  };
}

/** A whole payment owed back, told to the person it came from (and the business it was for). */
function recordPaymentRefundDue(
  q: Queryable,
  source: EventSource,
  payment: PaymentRow,
  reason: 'order_closed' | 'paid_twice' | 'not_payable',
  orderId: string | null,
): Promise<void> {
  return recordEvents(q, source, [
    {
      type: 'payment.refund_due',
      businessId: payment.businessId,
      personId: payment.userId,
      subjectId: payment.id,
      data: {
        paymentId: payment.id,
        refund: { amount: payment.amountCents, currency: payment.currency },
        reason,
        orderId,
        bookingIds: payment.bookingIds,
      },
    },
  ]);
}
