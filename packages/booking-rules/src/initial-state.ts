import { accept, assertTimeRange, refuse } from './outcome.js';
import type { Outcome, PaymentMethod } from './types.js';

/**
 * The state of a new booking. CARD: PENDING and unpaid (the time is held until paid). CASH needs
 * `confirm: true`, sent only after the person saw the summary and agreed; it is then CASH_DUE.
 * Throws a RangeError when `end` is not after `start`.
 *
 * @example initialState({ paymentMethod: 'CASH', confirm: true, start, end })
 * // { ok: true, state: { status: 'PENDING', paymentStatus: 'CASH_DUE', paymentMethod: 'CASH', start, end } }
 */
export function initialState(input: {
  paymentMethod: PaymentMethod;
  confirm: boolean;
  start: Date;
  end: Date;
}): Outcome {
  const { paymentMethod, confirm, start, end } = input;
  assertTimeRange(start, end, 'initialState');
  const base = { status: 'PENDING' as const, paymentMethod, start, end };
  if (paymentMethod === 'CARD') return accept({ ...base, paymentStatus: 'PENDING' });
  // Spec rule 2: a cash booking requires confirm: true, sent only after the person agreed.
  if (confirm !== true) {
    return refuse(
      'CONFIRM_REQUIRED',
      'A cash booking needs the person to agree: show them the summary and, once they agree, send confirm: true.',
    );
  }
  return accept({ ...base, paymentStatus: 'CASH_DUE' });
}
