import { HOUR_MS, RESCHEDULE_CUTOFF_HOURS } from './constants.js';
import { isActive } from './is-active.js';
import type { BookingState } from './types.js';

/**
 * The last moment the person may move the booking themselves (12 hours before its start; from then
 * on they must phone the operator), or null when it is not active and can no longer be moved.
 * `rescheduleAllowed` refuses from this moment on.
 *
 * @example rescheduleDeadline({ ...booking, start: new Date('2026-12-01T08:00:00Z') }) // 2026-11-30T20:00:00Z
 */
export function rescheduleDeadline(state: BookingState): Date | null {
  if (!isActive(state)) return null;
  return new Date(state.start.getTime() - RESCHEDULE_CUTOFF_HOURS * HOUR_MS);
}
