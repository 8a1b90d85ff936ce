import { RESCHEDULE_CUTOFF_HOURS } from './constants.js';
import { refuse } from './outcome.js';
import { rescheduleDeadline } from './reschedule-deadline.js';
import type { BookingState, Refusal } from './types.js';

/**
 * Whether the person may still move the booking themselves: it is active and its current start is
 * more than 12 hours away (12 hours exactly is too late; they must phone the operator).
 *
 * @example rescheduleAllowed(booking, new Date(booking.start.getTime() - 13 * 3_600_000)) // { ok: true }
 */
export function rescheduleAllowed(state: BookingState, now: Date): { ok: true } | Refusal {
  const deadline = rescheduleDeadline(state);
  if (deadline === null) {
    return refuse(
      'NOT_ACTIVE',
      `This booking is ${state.status.toLowerCase()}, so it can no longer be moved.`,
    );
  }
  // Spec: "allowed until 12 hours before start"; measured from the booking's current start.
  if (now.getTime() >= deadline.getTime()) {
    return refuse(
      'TOO_LATE',
      `The booking starts in ${RESCHEDULE_CUTOFF_HOURS} hours or less, so it can no longer be moved here; please phone the operator to change it.`,
    );
  }
  return { ok: true };
}
