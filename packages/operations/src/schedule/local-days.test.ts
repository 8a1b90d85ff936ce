// Every window of local dates the operations read (a day plan, a business's booking list, earnings,
// a payout's cut-off, a weekly series' horizon) is slot-engine's day: the same instants the open times are offered in.
import { SERIES_WEEKS_AHEAD, seriesHorizon } from '@nogpets/booking-rules';
import { localDateText, localDayStart } from '@nogpets/slot-engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../core/index.js';
import { earningsWindow, payoutCutOff } from '../money/index.js';
import { bookingListWindow, dayPlanWindow } from '../bookings/index.js';

const SEED = 2804;
/** Zones named in the issue, and zones whose clocks skip or repeat midnight (or move by 30 minutes). */
const NAMED = [
  'America/Santiago',
  'Pacific/Chatham',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Europe/Lisbon',
  'America/Havana',
  'America/Asuncion',
  'Asia/Beirut',
  'Africa/Cairo',
  'America/Scoresbysund',
  'Africa/Johannesburg',
  'Pacific/Apia',
];
const ZONES = [...new Set([...NAMED, ...Intl.supportedValuesOf('timeZone')])];

const date = fc
  .integer({ min: 0, max: 40 * 366 })
  .map((n) => new Date(Date.UTC(2000, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));

/** Each path's window of the local dates `from` to `to` (a payout's only end: its cut-off). */
function windows(from: string, to: string, timeZone: string) {
  return {
    dayPlan: dayPlanWindow(from, timeZone),
    bookingList: bookingListWindow(from, to, timeZone),
    earnings: earningsWindow(from, to, timeZone),
    payoutCutOff: payoutCutOff(to, timeZone),
  };
}

/** Every path agrees with slot-engine, and slot-engine's day is the date as the zone's clock shows it. */
function check(from: string, days: number, timeZone: string) {
  const to = addDays(from, days);
  const start = localDayStart(from, timeZone);
  const end = localDayStart(addDays(to, 1), timeZone);
  const w = windows(from, to, timeZone);
  expect(w.dayPlan.from.getTime()).toBe(start);
  expect(w.dayPlan.to.getTime()).toBe(localDayStart(addDays(from, 1), timeZone));
  expect(w.bookingList.from.getTime()).toBe(start);
  expect(w.bookingList.to.getTime()).toBe(end);
  expect(w.earnings.from.getTime()).toBe(start);
  expect(w.earnings.to.getTime()).toBe(end);
  expect(w.payoutCutOff.getTime()).toBe(end);
  // A weekly series is kept booked through the local date SERIES_WEEKS_AHEAD weeks after today.
  const horizon = localDayStart(addDays(from, 7 * SERIES_WEEKS_AHEAD + 1), timeZone);
  expect(seriesHorizon(new Date(start), timeZone).getTime()).toBe(horizon);
  expect(seriesHorizon(new Date(end - 1), timeZone).getTime()).toBe(
    localDayStart(addDays(to, 7 * SERIES_WEEKS_AHEAD + 1), timeZone),
  );
  // Read back through the zone's own clock: the first instant of `from`, the first after `to`.
  expect(localDateText(start, timeZone)).toBe(from);
  expect(localDateText(start - 1, timeZone)).toBe(addDays(from, -1));
  expect(localDateText(end - 1, timeZone)).toBe(to);
  expect(localDateText(end, timeZone)).toBe(addDays(to, 1));
}

describe('local days: every path is slot-engine’s day', () => {
  it(`agrees over any zone and any date (fast-check seed ${SEED})`, () => {
    console.log(`local-days property: fast-check seed ${SEED}`);
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), date, fc.integer({ min: 0, max: 40 }), (timeZone, from, days) =>
        check(from, days, timeZone),
      ),
      { numRuns: 1000, seed: SEED },
    );
  }, 60_000);

  it('agrees on every date of 2026 in zones whose clocks change at midnight or by half hours', () => {
    for (const timeZone of NAMED)
      for (let d = '2026-01-01'; d < '2027-01-01'; d = addDays(d, 1)) check(d, 0, timeZone);
  }, 60_000);

  it('starts 2026-09-06 in Santiago at 01:00 (04:00Z), when its clocks skip midnight', () => {
    const w = windows('2026-09-06', '2026-09-06', 'America/Santiago');
    expect(w.dayPlan.from.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(w.bookingList.from.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(w.earnings.from.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    // The day before ends there too, and a payout through it takes nothing from the 6th.
    expect(payoutCutOff('2026-09-05', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });
});
