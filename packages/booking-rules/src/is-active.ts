import type { BookingState } from './types.js';

/**
 * Whether the booking still holds its time: status PENDING or ACCEPTED.
 *
 * @example isActive({ ...booking, status: 'ACCEPTED' }) // true
 */
export function isActive(state: BookingState): boolean {
  return state.status === 'PENDING' || state.status === 'ACCEPTED';
}
