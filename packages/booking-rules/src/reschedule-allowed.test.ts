import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOOKING_STATUSES, RESCHEDULE_CUTOFF_HOURS } from './constants.js';
import { rescheduleAllowed } from './reschedule-allowed.js';
import { aBooking, at, HOUR, MINUTE, START } from './test-utils.js';
import type { BookingStatus } from './types.js';

describe('rescheduleAllowed', () => {
  // Spec: allowed "more than 12 hours before start"; "less than 12 hours" is TOO_LATE. At exactly
  // 12 hours the booking is no longer more than 12 hours away, so it is TOO_LATE too.
  it('keeps the cutoff at 12 hours', () => {
    expect(RESCHEDULE_CUTOFF_HOURS).toBe(12);
  });

  it.each([
    ['12 h + 1 ms before the start', -12 * HOUR - 1],
    ['13 h before the start', -13 * HOUR],
    ['a month before the start', -30 * 24 * HOUR],
  ])('allows it %s', (_, offset) => {
    expect(
      rescheduleAllowed(aBooking({ status: 'ACCEPTED', paymentStatus: 'PAID' }), at(START, offset)),
    ).toEqual({
      ok: true,
    });
  });

  it.each([
    ['exactly 12 h before the start', -12 * HOUR],
    ['12 h - 1 ms before the start', -12 * HOUR + 1],
    ['11 h 59 min before the start', -12 * HOUR + MINUTE],
    ['1 ms before the start', -1],
    ['at the start', 0],
    ['after the end', 2 * HOUR],
  ])('is TOO_LATE %s: the person must phone the operator', (_, offset) => {
    const outcome = rescheduleAllowed(aBooking(), at(START, offset));
    expect(outcome).toMatchObject({ ok: false, code: 'TOO_LATE' });
    expect(outcome.ok ? '' : outcome.message).toMatch(/12 hours or less.*phone the operator/);
  });

  it.each<BookingStatus>(['PENDING', 'ACCEPTED'])('allows an active %s booking', (status) => {
    expect(rescheduleAllowed(aBooking({ status }), at(START, -24 * HOUR)).ok).toBe(true);
  });

  it.each<BookingStatus>(['CANCELLED', 'EXPIRED', 'DONE'])(
    'refuses a %s booking as NOT_ACTIVE, even weeks ahead',
    (status) => {
      const outcome = rescheduleAllowed(
        aBooking({ status, paymentStatus: 'VOID' }),
        at(START, -30 * 24 * HOUR),
      );
      expect(outcome).toMatchObject({ ok: false, code: 'NOT_ACTIVE' });
      expect(outcome.ok ? '' : outcome.message).toContain(status.toLowerCase());
    },
  );

  it('measures from the booking start in real elapsed time, not from its end', () => {
    const long = aBooking({ end: at(START, 48 * HOUR) });
    expect(rescheduleAllowed(long, at(START, -12 * HOUR)).ok).toBe(false);
    expect(rescheduleAllowed(long, at(START, -12 * HOUR - 1)).ok).toBe(true);
  });

  it('is ok exactly when the booking is active and starts more than 12 hours from now', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BOOKING_STATUSES),
        fc.oneof(
          fc.integer({ min: -48 * HOUR, max: 48 * HOUR }),
          fc.constantFrom(-12 * HOUR, -12 * HOUR - 1, -12 * HOUR + 1),
        ),
        (status, offset) => {
          const booking = aBooking({ status });
          const before = structuredClone(booking);
          const outcome = rescheduleAllowed(booking, at(START, offset));
          expect(booking).toEqual(before);
          const active = status === 'PENDING' || status === 'ACCEPTED';
          expect(outcome.ok).toBe(active && -offset > 12 * HOUR);
          if (!outcome.ok) expect(outcome.code).toBe(active ? 'TOO_LATE' : 'NOT_ACTIVE');
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);
});
