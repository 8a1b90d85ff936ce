// Builders with defaults for the tests. Not exported from the package.
import type { BookingState } from './types.js';

export const HOUR = 3_600_000;
export const MINUTE = 60_000;

/** Monday 4 May 2026, 10:00 in Johannesburg (08:00 UTC). */
export const START = new Date('2026-05-04T08:00:00.000Z');

/** `ms` milliseconds after `date`, as a new Date. */
export function at(date: Date, ms: number): Date {
  return new Date(date.getTime() + ms);
}

/** An unpaid card booking, 10:00 to 11:00 on Monday 4 May 2026 (Johannesburg), waiting for payment. */
export function aBooking(overrides: Partial<BookingState> = {}): BookingState {
  return {
    status: 'PENDING',
    paymentStatus: 'PENDING',
    paymentMethod: 'CARD',
    start: new Date(START),
    end: at(START, HOUR),
    ...overrides,
  };
}

/** A day before the booking starts: every window is open. */
export const EARLY = at(START, -24 * HOUR);
