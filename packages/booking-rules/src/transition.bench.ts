import { bench, describe } from 'vitest';
import { WEEKDAYS } from './constants.js';
import { expandWeekly } from './expand-weekly.js';
import { initialState } from './initial-state.js';
import { aBooking, at, HOUR, START } from './test-utils.js';
import { transition } from './transition.js';
import type { BookingState, Trigger } from './types.js';

// A day's work for a busy business: 1,000 bookings, each through its usual life (paid, accepted,
// moved once, done) plus the noise a real gateway and worker add (repeated callbacks, a late lapse).
const bookings = Array.from({ length: 1_000 }, (_, i) =>
  aBooking({ start: at(START, i * HOUR), end: at(START, i * HOUR + HOUR) }),
);
function life(booking: BookingState): [Trigger, Date][] {
  const early = at(booking.start, -48 * HOUR);
  const moved = at(booking.start, 24 * HOUR);
  const movedEnd = at(moved, HOUR);
  return [
    [{ type: 'PAYMENT_SUCCEEDED' }, early],
    [{ type: 'PAYMENT_SUCCEEDED' }, early],
    [{ type: 'ACCEPT' }, early],
    [{ type: 'RESCHEDULE', start: moved, end: movedEnd }, early],
    [{ type: 'ACCEPT' }, early],
    [{ type: 'HOLD_EXPIRED' }, moved],
    [{ type: 'CANCEL', confirm: false }, early],
    [{ type: 'COMPLETE' }, movedEnd],
  ];
}
const lives = bookings.map((booking) => [booking, life(booking)] as const);

describe('transition', () => {
  bench('1,000 bookings × 8 triggers (8,000 transitions)', () => {
    for (const [booking, steps] of lives) {
      let state = booking;
      for (const [trigger, now] of steps) {
        const outcome = transition(state, trigger, now);
        if (outcome.ok) state = outcome.state;
      }
      if (state.status !== 'DONE') throw new Error(`expected DONE, got ${state.status}`);
    }
  });

  bench('1,000 new bookings (initialState)', () => {
    for (const booking of bookings) {
      initialState({ paymentMethod: 'CASH', confirm: true, start: booking.start, end: booking.end });
    }
  });
});

describe('expandWeekly over a year', () => {
  type Input = Parameters<typeof expandWeekly>[0];
  const start = new Date('2026-01-05T07:00:00Z'); // Monday 07:00 in London (GMT)
  const until = new Date('2027-01-04T00:00:00Z'); // 52 weeks on: every date of the year is walked
  const london: Input = {
    start,
    until,
    timeZone: 'Europe/London',
    repeat: { freq: 'WEEKLY', days: ['mon', 'wed', 'fri'] },
  };
  const everyDay: Input = {
    start,
    until,
    timeZone: 'Africa/Johannesburg',
    repeat: { freq: 'WEEKLY', days: [...WEEKDAYS] },
  };
  // The workload the names below promise.
  for (const [input, count] of [
    [london, 156],
    [everyDay, 364],
  ] as const) {
    const n = expandWeekly(input).length;
    if (n !== count) throw new Error(`expected ${count} starts in ${input.timeZone}, got ${n}`);
  }

  bench('Europe/London, mon/wed/fri: 156 starts across two DST changes', () => {
    expandWeekly(london);
  });

  bench('Africa/Johannesburg, every day: 364 starts', () => {
    expandWeekly(everyDay);
  });
});
