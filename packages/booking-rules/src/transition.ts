import { isActive } from './is-active.js';
import { accept, assertTimeRange, refuse } from './outcome.js';
import { rescheduleAllowed } from './reschedule-allowed.js';
import type { BookingState, Outcome, Trigger } from './types.js';

/**
 * The booking's next state after `trigger` at time `now`, or a refusal (the state is then
 * unchanged). Never mutates `state`; an ok outcome always carries a fresh object. Events that
 * change nothing (a repeated gateway callback, a second HOLD_EXPIRED) are ok and idempotent.
 * Throws a RangeError when a RESCHEDULE's new `end` is not after its new `start`.
 *
 * @example transition(unpaidCardBooking, { type: 'PAYMENT_SUCCEEDED' }, now)
 * // { ok: true, state: { ...unpaidCardBooking, status: 'ACCEPTED', paymentStatus: 'PAID' } }
 * @example transition(booking, { type: 'CANCEL', confirm: false }, now)
 * // { ok: false, code: 'CONFIRM_REQUIRED', message: '...' }
 */
export function transition(state: BookingState, trigger: Trigger, now: Date): Outcome {
  switch (trigger.type) {
    case 'PAYMENT_SUCCEEDED':
      return paymentSucceeded(state);
    case 'PAYMENT_FAILED':
      // The person may retry with a new link; a failure never downgrades a payment already made.
      return accept(state);
    case 'HOLD_EXPIRED':
      // Only an unpaid card hold lapses; a paid, cash or closed booking ignores the worker.
      if (isActive(state) && state.paymentMethod === 'CARD' && state.paymentStatus === 'PENDING') {
        return accept(state, { status: 'EXPIRED', paymentStatus: 'VOID' });
      }
      return accept(state);
    case 'ACCEPT':
      if (state.status === 'PENDING' || state.status === 'ACCEPTED')
        return accept(state, { status: 'ACCEPTED' });
      return refuse('NOT_ACTIVE', `This booking is ${state.status.toLowerCase()}, so it cannot be accepted.`);
    case 'RESCHEDULE':
      return reschedule(state, trigger.start, trigger.end, now);
    case 'CANCEL':
      return cancel(state, trigger.confirm, now);
    case 'COMPLETE':
      if (isActive(state) && now.getTime() >= state.end.getTime()) return accept(state, { status: 'DONE' });
      return accept(state);
    case 'REFUND_DONE':
      if (state.paymentStatus === 'REFUND_REQUESTED') return accept(state, { paymentStatus: 'REFUNDED' });
      return refuse(
        'NOT_ACTIVE',
        'No refund is waiting on this booking, so there is nothing to mark as refunded.',
      );
  }
}

function paymentSucceeded(state: BookingState): Outcome {
  if (state.paymentMethod === 'CASH') {
    return refuse(
      'NOTHING_TO_PAY',
      'This is a cash booking: it is paid to the crew on the day, not by card.',
    );
  }
  switch (state.paymentStatus) {
    case 'PAID':
    case 'REFUND_REQUESTED':
    case 'REFUNDED':
      // The gateway may call back more than once: the first report counted.
      return accept(state);
    case 'PENDING':
      if (isActive(state)) return accept(state, { status: 'ACCEPTED', paymentStatus: 'PAID' });
      // Delivered before the payment came in: the money is for work done, so it is kept.
      if (state.status === 'DONE') return accept(state, { paymentStatus: 'PAID' });
      return lateRefund(state);
    case 'VOID':
      return lateRefund(state);
    case 'CASH_DUE':
      return refuse('NOTHING_TO_PAY', 'This booking is to be paid in cash, not by card.');
  }
}

/** Money arrived for a booking that no longer holds a time: the operator refunds it. */
function lateRefund(state: BookingState): Outcome {
  return accept(state, { paymentStatus: 'REFUND_REQUESTED' });
}

function reschedule(state: BookingState, start: Date, end: Date, now: Date): Outcome {
  assertTimeRange(start, end, 'RESCHEDULE');
  const allowed = rescheduleAllowed(state, now);
  if (!allowed.ok) return allowed;
  if (start.getTime() <= now.getTime()) {
    return refuse('TOO_LATE', 'The new time has already passed; choose a time in the future.');
  }
  // Spec: the business must accept the new time; price and payment are unchanged.
  return accept(state, { status: 'PENDING', start, end });
}

function cancel(state: BookingState, confirm: boolean, now: Date): Outcome {
  if (confirm !== true) {
    return refuse(
      'CONFIRM_REQUIRED',
      'Cancelling needs the person to agree: show them what will be cancelled and, once they agree, send confirm: true.',
    );
  }
  if (!isActive(state)) {
    return refuse(
      'NOT_ACTIVE',
      `This booking is already ${state.status.toLowerCase()}, so it cannot be cancelled.`,
    );
  }
  // Spec cancel window: before the booking starts; at the start itself it is too late.
  if (now.getTime() >= state.start.getTime()) {
    return refuse(
      'TOO_LATE',
      'The booking has already started, so it cannot be cancelled here; please phone the operator.',
    );
  }
  switch (state.paymentStatus) {
    case 'PAID':
      return accept(state, { status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' });
    case 'PENDING':
    case 'CASH_DUE':
      return accept(state, { status: 'CANCELLED', paymentStatus: 'VOID' });
    default:
      return accept(state, { status: 'CANCELLED' });
  }
}
