import { canPay } from './can-pay.js';
import { holdUntil } from './hold-until.js';
import { payLinkExpiresAt } from './pay-link-expires-at.js';
import { refuse } from './outcome.js';
import type { BookingState, Refusal } from './types.js';

/**
 * A fresh pay link's expiry (now + 48 hours) and how long it holds the booking's time
 * (`holdUntil`: the expiry, but never past the start). `NOTHING_TO_PAY` for a paid, cash or closed
 * booking, with a message saying which, and for an unpaid card booking whose start has come: its
 * hold lapsed at the start (the worker expires it), so there is nothing left to hold or pay for.
 *
 * @example payLink(unpaidCardBooking, now) // { ok: true, expiresAt: now + 48 h, holdUntil: min(expiresAt, start) }
 */
export function payLink(
  state: BookingState,
  now: Date,
): { ok: true; expiresAt: Date; holdUntil: Date } | Refusal {
  if (canPay(state)) {
    if (now.getTime() >= state.start.getTime()) {
      return refuse(
        'NOTHING_TO_PAY',
        'This booking has started without being paid, so its hold has lapsed; book again for a new time.',
      );
    }
    const expiresAt = payLinkExpiresAt(now);
    return { ok: true, expiresAt, holdUntil: holdUntil(expiresAt, state.start) };
  }
  return refuse('NOTHING_TO_PAY', nothingToPayMessage(state));
}

function nothingToPayMessage(state: BookingState): string {
  switch (state.paymentStatus) {
    case 'PAID':
      return 'This booking is already paid, so there is nothing to pay; tell the person it is paid (get_booking shows the payment).';
    case 'REFUND_REQUESTED':
      return 'This booking was paid and its refund is under way (5 to 7 working days); there is nothing to pay. Tell the person the money is on its way back.';
    case 'REFUNDED':
      return 'This booking was paid and has been refunded; there is nothing to pay. Book again for a new time if the person still wants one.';
  }
  if (state.paymentMethod === 'CASH') {
    return 'This is a cash booking: it is paid to the crew on the day, so there is no payment link. Tell the person to have the cash ready.';
  }
  return `This booking is ${state.status.toLowerCase()}, so there is nothing to pay; book again for a new time.`;
}
