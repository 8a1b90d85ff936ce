import { isActive } from './is-active.js';
import type { BookingState } from './types.js';

/**
 * The spec's `canPay`: an active card booking still waiting for payment.
 *
 * @example canPay({ status: 'PENDING', paymentStatus: 'PENDING', paymentMethod: 'CARD', start, end }) // true
 */
export function canPay(state: BookingState): boolean {
  return isActive(state) && state.paymentMethod === 'CARD' && state.paymentStatus === 'PENDING';
}
