import { Temporal } from '@js-temporal/polyfill';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERIES_WEEKS_AHEAD } from './constants.js';
import { seriesHorizon } from './series-horizon.js';

const DAY = 86_400_000;
const iso = (now: string, timeZone: string) => seriesHorizon(new Date(now), timeZone).toISOString();

describe('seriesHorizon', () => {
  it('keeps a series booked 4 weeks ahead', () => {
    expect(SERIES_WEEKS_AHEAD).toBe(4);
  });

  it('ends when the day after the date 4 weeks on begins, so that whole date is booked', () => {
    // Monday 4 May, 12:00 SAST: Monday 1 June is booked; the horizon is 2 June 00:00 SAST.
    expect(iso('2026-05-04T10:00:00Z', 'Africa/Johannesburg')).toBe('2026-06-01T22:00:00.000Z');
  });

  it('counts from the local date, not the UTC one', () => {
    // 00:30 SAST on 4 May is still 3 May in UTC; 23:59 SAST on 3 May is 3 May in both.
    expect(iso('2026-05-03T22:30:00Z', 'Africa/Johannesburg')).toBe('2026-06-01T22:00:00.000Z');
    expect(iso('2026-05-03T21:59:59.999Z', 'Africa/Johannesburg')).toBe('2026-05-31T22:00:00.000Z');
  });

  it.each([
    // 10 March + 4 weeks = 7 April; 8 April 00:00 BST (UTC+1).
    ['Europe/London', 'across the spring-forward change', '2026-03-10T12:00:00Z', '2026-04-07T23:00:00.000Z'],
    // 20 October + 4 weeks = 17 November; 18 November 00:00 EST (UTC-5).
    ['America/New_York', 'across the fall-back change', '2026-10-20T12:00:00Z', '2026-11-18T05:00:00.000Z'],
    // 28 February + 4 weeks = 28 March; 29 March 00:00 GMT, an hour before the clocks go forward.
    ['Europe/London', 'on the change day itself', '2026-02-28T12:00:00Z', '2026-03-29T00:00:00.000Z'],
    // Chile moves from 00:00 straight to 01:00 on Sunday 6 September: that day begins at 01:00 (UTC-3).
    // 1 March + 4 weeks = 29 March, a 23-hour day; 30 March 00:00 BST, not 24 hours after 29 March began.
    [
      'Europe/London',
      'when the date 4 weeks on is 23 hours long',
      '2026-03-01T12:00:00Z',
      '2026-03-29T23:00:00.000Z',
    ],
    // 4 October + 4 weeks = 1 November, a 25-hour day; 2 November 00:00 EST.
    [
      'America/New_York',
      'when the date 4 weeks on is 25 hours long',
      '2026-10-04T12:00:00Z',
      '2026-11-02T05:00:00.000Z',
    ],
    ['America/Santiago', 'on a day that begins at 01:00', '2026-08-08T16:00:00Z', '2026-09-06T04:00:00.000Z'],
  ])('uses the start of the local day in %s, %s', (timeZone, _, now, horizon) => {
    expect(iso(now, timeZone)).toBe(horizon);
  });

  it.each([
    ['an unknown time zone', new Date('2026-05-04T10:00:00Z'), 'Mars/Olympus_Mons'],
    ['an invalid now', new Date(Number.NaN), 'Africa/Johannesburg'],
  ])('throws a RangeError for %s', (_, now, timeZone) => {
    expect(() => seriesHorizon(now, timeZone)).toThrow(RangeError);
  });

  it('is the first instant of the local date 29 days after today, in any of these zones', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          'Africa/Johannesburg',
          'Europe/London',
          'America/New_York',
          'America/Santiago',
          'Australia/Lord_Howe',
        ),
        fc.oneof(
          fc.integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2028-01-01T00:00:00Z') }),
          // Around 28 days before a change in one of the zones: the last date booked is 23 or 25 hours long.
          fc
            .tuple(
              fc.constantFrom(
                '2026-03-29',
                '2026-10-25',
                '2026-03-08',
                '2026-11-01',
                '2026-04-05',
                '2026-09-06',
                '2026-10-04',
              ),
              fc.integer({ min: -2 * DAY, max: 2 * DAY }),
            )
            .map(([change, offset]) => Date.parse(`${change}T12:00:00Z`) - 28 * DAY + offset),
        ),
        (timeZone, ms) => {
          const now = new Date(ms);
          const horizon = seriesHorizon(now, timeZone).getTime();
          const dateAt = (t: number) =>
            Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(timeZone).toPlainDate();
          const today = dateAt(ms);
          expect(dateAt(horizon).equals(today.add({ days: 29 }))).toBe(true);
          expect(dateAt(horizon - 1).equals(today.add({ days: 28 }))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);
});
