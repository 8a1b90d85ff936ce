import { orderTransition, type Trigger, transition } from '@nogpets/booking-rules';
import {
  appendAudit,
  type BookingRow,
  closeLead,
  findBooking,
  findOperator,
  findOrderOfPayment,
  findPayment,
  type LeadRow,
  listBookingsByPaymentStatus,
  listLeads,
  listPaymentsByStatus,
  type PaymentRow,
  type Queryable,
  setPaymentStatus,
  transaction,
  updateBooking,
  updateOrder,
} from '@nogpets/store';
import { type Deps, ServiceError } from '../core/index.js';
import { operatorSource } from '../events/index.js';
import { type Booking, refusalCode, stateOf, toBooking } from './booking-model.js';
import { recordBookingEvents } from './events.js';

/** The operator's moves need only the database and the clock. */
type OperatorDeps = Pick<Deps, 'sql' | 'clock'>;

/**
 * One move made by the operator (the CLI now, the operator console later) on a booking: the
 * booking-rules transition under a row lock, audited with who did it. Refusals change nothing.
 */
async function operatorMove(
  deps: OperatorDeps,
  bookingId: string,
  trigger: Trigger,
  action: string,
  by: string,
  note?: string,
): Promise<Booking> {
  const now = deps.clock.now();
  return transaction(deps.sql, async (q) => {
    const row = await findBooking(q, bookingId, { forUpdate: true });
    if (!row) throw new ServiceError('NOT_FOUND', `No booking ${bookingId}.`, { bookingId });
    const next = await applyTransition(q, row, trigger, now);
    await appendAudit(
      q,
      {
        userId: null,
        clientId: null,
        clientName: by,
        action,
        target: row.id,
        details: {
          ...(note ? { note } : {}),
          from: [row.status, row.paymentStatus],
          to: [next.status, next.paymentStatus],
        },
      },
      now,
    );
    // Accepting for the business confirms the booking (once: an accepted one stays as it was).
    if (trigger.type === 'ACCEPT' && row.status !== next.status)
      await recordBookingEvents(q, operatorSource(null, action, now), 'booking.accepted', [row.id], {
        message: null,
      });
    return toBooking(next);
  });
}

/**
 * A booking-rules move on a booking row locked in `q`, written (status and payment status), or its
 * refusal as the service's error with nothing changed. The one rule the operator's CLI and the
 * business's Run operations (accept_booking) share. Answers the booking as it now is.
 */
export async function applyTransition(
  q: Queryable,
  row: BookingRow,
  trigger: Trigger,
  now: Date,
): Promise<BookingRow> {
  const next = transition(stateOf(row), trigger, now);
  if (!next.ok)
    throw new ServiceError(refusalCode(next), next.message, {
      bookingId: row.id,
      status: row.status,
      paymentStatus: row.paymentStatus,
    });
  await updateBooking(q, row.id, { status: next.state.status, paymentStatus: next.state.paymentStatus }, now);
  return { ...row, status: next.state.status, paymentStatus: next.state.paymentStatus };
}

/** The business accepts a PENDING booking (a new one, or one moved to a new time). */
export function acceptBooking(deps: OperatorDeps, bookingId: string, by: string): Promise<Booking> {
  return operatorMove(deps, bookingId, { type: 'ACCEPT' }, 'booking.accept', by);
}

/** The operator has refunded a cancelled paid booking at the gateway: REFUND_REQUESTED becomes REFUNDED. */
export function markRefunded(
  deps: OperatorDeps,
  bookingId: string,
  by: string,
  note?: string,
): Promise<Booking> {
  return operatorMove(deps, bookingId, { type: 'REFUND_DONE' }, 'booking.refunded', by, note);
}

/** Bookings whose refund the operator still owes, oldest first. */
export async function refundsDue(deps: OperatorDeps): Promise<Booking[]> {
  return (await listBookingsByPaymentStatus(deps.sql, 'REFUND_REQUESTED')).map(toBooking);
}

/** Payments to give back: an older pay link paid after the bookings were paid through a newer one. */
export async function paymentsToRefund(deps: OperatorDeps): Promise<PaymentRow[]> {
  return listPaymentsByStatus(deps.sql, 'REFUND_DUE');
}

/** The operator returned a double payment at the gateway: REFUND_DUE becomes REFUNDED. */
export async function markPaymentRefunded(
  deps: OperatorDeps,
  paymentId: string,
  by: string,
  note?: string,
): Promise<PaymentRow> {
  const now = deps.clock.now();
  return transaction(deps.sql, async (q) => {
    const payment = await findPayment(q, paymentId, { forUpdate: true });
    if (!payment) throw new ServiceError('NOT_FOUND', `No payment ${paymentId}.`, { paymentId });
    if (payment.status !== 'REFUND_DUE') {
      throw new ServiceError(
        'NOT_ACTIVE',
        `Payment ${paymentId} is ${payment.status.toLowerCase()}: no refund is waiting on it.`,
        { paymentId, status: payment.status },
      );
    }
    await setPaymentStatus(q, payment.id, 'REFUNDED', now);
    // A shop order's money (a cancelled paid order, a payment that came after it closed) is back.
    const order = await findOrderOfPayment(q, payment.id, { forUpdate: true });
    if (order?.paymentStatus === 'REFUND_REQUESTED') {
      const next = orderTransition(order, { type: 'REFUNDED' }, now);
      if (next.ok) await updateOrder(q, order.id, { paymentStatus: next.state.paymentStatus }, now);
    }
    await appendAudit(
      q,
      {
        userId: null,
        clientId: null,
        clientName: by,
        action: 'payment.refunded',
        target: payment.id,
        details: { ...(note ? { note } : {}), amountCents: payment.amountCents },
      },
      now,
    );
    return { ...payment, status: 'REFUNDED' };
  });
}

/** Leads the operator has not closed yet, newest first: places and times people asked for and did not get. */
export async function leadsToFollowUp(deps: OperatorDeps, limit = 100): Promise<LeadRow[]> {
  const operator = await findOperator(deps.sql);
  return operator ? listLeads(deps.sql, operator.id, limit, { open: true }) : [];
}

/** The operator followed a lead up: it is closed with their note, and audited. */
export async function closeLeadWithNote(
  deps: OperatorDeps,
  leadId: string,
  by: string,
  note?: string,
): Promise<LeadRow> {
  const now = deps.clock.now();
  return transaction(deps.sql, async (q) => {
    const lead = await closeLead(q, leadId, note?.trim() || null, now);
    if (!lead) throw new ServiceError('NOT_FOUND', `No lead ${leadId}.`, { leadId });
    await appendAudit(
      q,
      {
        userId: null,
        clientId: null,
        clientName: by,
        action: 'lead.closed',
        target: lead.id,
        details: note ? { note } : {},
      },
      now,
    );
    return lead;
  });
}
