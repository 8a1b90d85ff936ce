import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOOKING_STATUSES } from './constants.js';
import { isActive } from './is-active.js';
import { rescheduleAllowed } from './reschedule-allowed.js';
import { rescheduleDeadline } from './reschedule-deadline.js';
import { aBooking, at, HOUR, START } from './test-utils.js';

describe('rescheduleDeadline', () => {
  it('is 12 hours before the start of an active booking', () => {
    expect(rescheduleDeadline(aBooking())).toEqual(at(START, -12 * HOUR));
    expect(rescheduleDeadline(aBooking({ status: 'ACCEPTED', paymentStatus: 'PAID' }))).toEqual(
      at(START, -12 * HOUR),
    );
  });

  it.each(['CANCELLED', 'EXPIRED', 'DONE'] as const)('is null for a %s booking', (status) => {
    expect(rescheduleDeadline(aBooking({ status }))).toBeNull();
  });

  it('is where rescheduleAllowed starts refusing, for any status and moment', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BOOKING_STATUSES),
        fc.integer({ min: -60 * 24 * HOUR, max: 60 * 24 * HOUR }),
        (status, offset) => {
          const state = aBooking({ status });
          const now = at(START, offset);
          const deadline = rescheduleDeadline(state);
          expect(deadline === null).toBe(!isActive(state));
          expect(rescheduleAllowed(state, now).ok).toBe(deadline !== null && now < deadline);
        },
      ),
    );
  });
});
