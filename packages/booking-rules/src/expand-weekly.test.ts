import { Temporal } from '@js-temporal/polyfill';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WEEKDAYS } from './constants.js';
import { expandWeekly } from './expand-weekly.js';
import { seriesHorizon } from './series-horizon.js';
import { HOUR } from './test-utils.js';
import type { Weekday } from './types.js';

const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

/** The series as ISO strings, easier to read in a failing test. */
function expand(start: string, timeZone: string, days: Weekday[], until: string): string[] {
  return expandWeekly({
    start: new Date(start),
    timeZone,
    repeat: { freq: 'WEEKLY', days },
    until: new Date(until),
  }).map((d) => d.toISOString());
}

function local(date: Date, timeZone: string): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(date.getTime()).toZonedDateTimeISO(timeZone);
}

describe('expandWeekly', () => {
  describe('keeps the local wall time across DST changes', () => {
    it.each([
      [
        'London, clocks forward on 29 March: 09:00 GMT then 09:00 BST',
        'Europe/London',
        '2026-03-23T09:00:00.000Z',
        ['mon'],
        '2026-04-07T00:00:00.000Z',
        ['2026-03-23T09:00:00.000Z', '2026-03-30T08:00:00.000Z', '2026-04-06T08:00:00.000Z'],
      ],
      [
        'London, clocks back on 25 October: 09:00 BST then 09:00 GMT',
        'Europe/London',
        '2026-10-19T08:00:00.000Z',
        ['mon'],
        '2026-11-03T00:00:00.000Z',
        ['2026-10-19T08:00:00.000Z', '2026-10-26T09:00:00.000Z', '2026-11-02T09:00:00.000Z'],
      ],
      [
        'New York, clocks forward on 8 March: 07:30 EST then 07:30 EDT',
        'America/New_York',
        '2026-03-05T12:30:00.000Z', // Thursday 07:30 EST
        ['tue', 'thu'],
        '2026-03-13T00:00:00.000Z',
        ['2026-03-05T12:30:00.000Z', '2026-03-10T11:30:00.000Z', '2026-03-12T11:30:00.000Z'],
      ],
      [
        'New York, clocks back on 1 November: 18:00 EDT then 18:00 EST',
        'America/New_York',
        '2026-10-31T22:00:00.000Z', // Saturday 18:00 EDT
        ['sat'],
        '2026-11-15T00:00:00.000Z',
        ['2026-10-31T22:00:00.000Z', '2026-11-07T23:00:00.000Z', '2026-11-14T23:00:00.000Z'],
      ],
      [
        'Johannesburg (no DST): the same UTC time while Europe and America change clocks',
        'Africa/Johannesburg',
        '2026-03-02T08:00:00.000Z', // Monday 10:00 SAST
        ['mon'],
        '2026-04-01T00:00:00.000Z',
        [
          '2026-03-02T08:00:00.000Z',
          '2026-03-09T08:00:00.000Z',
          '2026-03-16T08:00:00.000Z',
          '2026-03-23T08:00:00.000Z',
          '2026-03-30T08:00:00.000Z',
        ],
      ],
    ] as const)('%s', (_, timeZone, start, days, until, expected) => {
      expect(expand(start, timeZone, [...days], until)).toEqual(expected);
    });

    it.each([
      // 01:30 does not exist on 29 March in London (01:00 GMT jumps to 02:00 BST): 02:30 BST instead.
      [
        'Europe/London',
        '2026-03-22T01:30:00.000Z',
        '2026-04-06T00:00:00.000Z',
        ['2026-03-22T01:30:00.000Z', '2026-03-29T01:30:00.000Z', '2026-04-05T00:30:00.000Z'],
      ],
      // 02:30 does not exist on 8 March in New York (02:00 EST jumps to 03:00 EDT): 03:30 EDT instead.
      [
        'America/New_York',
        '2026-03-01T07:30:00.000Z',
        '2026-03-16T00:00:00.000Z',
        ['2026-03-01T07:30:00.000Z', '2026-03-08T07:30:00.000Z', '2026-03-15T06:30:00.000Z'],
      ],
    ])(
      'moves a wall time that does not exist on the spring-forward day forward by the gap (%s)',
      (timeZone, start, until, expected) => {
        const series = expand(start, timeZone, ['sun'], until);
        expect(series).toEqual(expected);
        const shifted = local(new Date(expected[1]!), timeZone);
        const wall = local(new Date(start), timeZone);
        expect(shifted.hour).toBe(wall.hour + 1);
        expect(shifted.minute).toBe(wall.minute);
      },
    );

    it.each([
      // 01:30 happens twice on 25 October in London: first in BST (00:30Z), then in GMT (01:30Z).
      [
        'Europe/London',
        '2026-10-18T00:30:00.000Z',
        '2026-11-02T00:00:00.000Z',
        ['2026-10-18T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-11-01T01:30:00.000Z'],
      ],
      // 01:30 happens twice on 1 November in New York: first in EDT (05:30Z), then in EST (06:30Z).
      [
        'America/New_York',
        '2026-10-25T05:30:00.000Z',
        '2026-11-09T00:00:00.000Z',
        ['2026-10-25T05:30:00.000Z', '2026-11-01T05:30:00.000Z', '2026-11-08T06:30:00.000Z'],
      ],
    ])(
      'takes the earlier instant of a wall time repeated on the fall-back day, once (%s)',
      (timeZone, start, until, expected) => {
        expect(expand(start, timeZone, ['sun'], until)).toEqual(expected);
      },
    );

    it('never gives the same instant twice when a whole local date is skipped (Samoa, 30 December 2011)', () => {
      // Apia jumped from Thursday 29 December 2011 (UTC-10) straight to Saturday 31 December (UTC+14):
      // Friday 10:00 did not exist, so it moves forward by the gap onto Saturday 10:00.
      const series = expand(
        '2011-12-22T20:00:00.000Z',
        'Pacific/Apia',
        ['fri', 'sat'],
        '2012-01-08T00:00:00.000Z',
      );
      expect(series).toEqual([
        '2011-12-22T20:00:00.000Z', // Thursday 10:00 (UTC-10)
        '2011-12-23T20:00:00.000Z', // Friday
        '2011-12-24T20:00:00.000Z', // Saturday
        '2011-12-30T20:00:00.000Z', // Saturday 31 December 10:00 (UTC+14), once
        '2012-01-05T20:00:00.000Z', // Friday 6 January
        '2012-01-06T20:00:00.000Z', // Saturday 7 January
      ]);
    });
  });

  describe('days', () => {
    const start = '2026-05-04T08:00:00.000Z'; // Monday 10:00 in Johannesburg
    const until = '2026-05-18T08:00:00.000Z';
    const monThu = [
      '2026-05-04T08:00:00.000Z',
      '2026-05-07T08:00:00.000Z',
      '2026-05-11T08:00:00.000Z',
      '2026-05-14T08:00:00.000Z',
    ];

    it('gives every listed weekday in date order, whatever order the days are listed in', () => {
      expect(expand(start, 'Africa/Johannesburg', ['mon', 'thu'], until)).toEqual(monThu);
      expect(expand(start, 'Africa/Johannesburg', ['thu', 'mon'], until)).toEqual(monThu);
    });

    it('gives a day listed twice once', () => {
      expect(expand(start, 'Africa/Johannesburg', ['thu', 'mon', 'thu'], until)).toEqual(monThu);
    });

    it('starts with the first booking even when its weekday is not listed', () => {
      expect(expand(start, 'Africa/Johannesburg', ['wed'], until)).toEqual([
        start,
        '2026-05-06T08:00:00.000Z',
        '2026-05-13T08:00:00.000Z',
      ]);
    });

    it('gives every day with all seven listed', () => {
      const series = expand(start, 'Africa/Johannesburg', [...WEEKDAYS], until);
      expect(series).toHaveLength(14);
      expect(series.map((s) => local(new Date(s), 'Africa/Johannesburg').dayOfWeek)).toEqual([
        1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7,
      ]);
    });

    it('gives only the first booking when no day is listed', () => {
      expect(expand(start, 'Africa/Johannesburg', [], until)).toEqual([start]);
    });

    it('reads the weekday in the time zone, not in UTC', () => {
      // Monday 23:30 in New York is already Tuesday in UTC: a Monday series stays on Mondays there.
      const series = expand(
        '2026-05-05T03:30:00.000Z',
        'America/New_York',
        ['mon'],
        '2026-05-20T00:00:00.000Z',
      );
      expect(series).toEqual([
        '2026-05-05T03:30:00.000Z',
        '2026-05-12T03:30:00.000Z',
        '2026-05-19T03:30:00.000Z',
      ]);
    });
  });

  describe('until', () => {
    const start = '2026-05-04T08:00:00.000Z';

    it('leaves out a booking that starts exactly at until, and keeps one that starts 1 ms before', () => {
      expect(expand(start, 'Africa/Johannesburg', ['mon'], '2026-05-11T08:00:00.000Z')).toEqual([start]);
      expect(expand(start, 'Africa/Johannesburg', ['mon'], '2026-05-11T08:00:00.001Z')).toEqual([
        start,
        '2026-05-11T08:00:00.000Z',
      ]);
    });

    it.each([
      ['equal to the start', start],
      ['before the start', '2026-05-01T00:00:00.000Z'],
    ])('is empty when until is %s', (_, until) => {
      expect(expand(start, 'Africa/Johannesburg', ['mon'], until)).toEqual([]);
    });

    it("with seriesHorizon books the date 4 weeks on, the horizon's own day", () => {
      const now = new Date('2026-05-04T06:00:00.000Z');
      const series = expandWeekly({
        start: new Date(start),
        timeZone: 'Africa/Johannesburg',
        repeat: { freq: 'WEEKLY', days: ['mon'] },
        until: seriesHorizon(now, 'Africa/Johannesburg'),
      });
      expect(series.map((d) => d.toISOString())).toEqual([
        start,
        '2026-05-11T08:00:00.000Z',
        '2026-05-18T08:00:00.000Z',
        '2026-05-25T08:00:00.000Z',
        '2026-06-01T08:00:00.000Z',
      ]);
    });
  });

  describe('input', () => {
    const repeat = { freq: 'WEEKLY', days: ['mon'] } as const;

    it.each([
      ['an invalid start', new Date(Number.NaN), new Date('2026-06-01T00:00:00Z')],
      ['an invalid until', new Date('2026-05-04T08:00:00Z'), new Date(Number.NaN)],
    ])('throws a RangeError for %s', (_, start, until) => {
      expect(() =>
        expandWeekly({
          start,
          until,
          timeZone: 'Africa/Johannesburg',
          repeat: { ...repeat, days: [...repeat.days] },
        }),
      ).toThrow(RangeError);
    });

    it.each([
      ['an unknown time zone', 'Mars/Olympus_Mons', '2026-06-01T00:00:00Z'],
      ['an unknown time zone, even when the range is empty', 'Mars/Olympus_Mons', '2026-05-01T00:00:00Z'],
    ])('throws a RangeError for %s', (_, timeZone, until) => {
      expect(() =>
        expandWeekly({
          start: new Date('2026-05-04T08:00:00Z'),
          until: new Date(until),
          timeZone,
          repeat: { ...repeat, days: [...repeat.days] },
        }),
      ).toThrow(RangeError);
    });

    it('leaves its input alone and returns its own Date objects', () => {
      const input = {
        start: new Date('2026-05-04T08:00:00Z'),
        until: new Date('2026-06-01T00:00:00Z'),
        timeZone: 'Africa/Johannesburg',
        repeat: { freq: 'WEEKLY' as const, days: ['thu', 'mon'] as Weekday[] },
      };
      const before = structuredClone(input);
      const series = expandWeekly(input);
      expect(input).toEqual(before);
      expect(series[0]).toEqual(input.start);
      expect(series[0]).not.toBe(input.start);
    });
  });

  describe('properties', () => {
    const transitions = [
      { timeZone: 'Europe/London', at: ['2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z'] },
      { timeZone: 'America/New_York', at: ['2026-03-08T07:00:00Z', '2026-11-01T06:00:00Z'] },
      { timeZone: 'Africa/Johannesburg', at: ['2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z'] },
    ];
    const daysArb = fc
      .subarray([...WEEKDAYS])
      .chain((days) => fc.shuffledSubarray(days, { minLength: days.length }));

    it.each(transitions)(
      'gives a sorted series of listed weekdays at one wall time in $timeZone',
      ({ timeZone, at }) => {
        fc.assert(
          fc.property(
            fc.constantFrom(...at),
            // Up to 3 weeks before a transition, any minute of the day: the series crosses it.
            fc.integer({ min: -21 * 24 * 60, max: 2 * 24 * 60 }),
            fc.integer({ min: 0, max: 8 * WEEK }),
            daysArb,
            (transition, offsetMin, spanMs, days) => {
              const start = new Date(Date.parse(transition) + offsetMin * 60_000);
              const until = new Date(start.getTime() + spanMs);
              const series = expandWeekly({ start, timeZone, repeat: { freq: 'WEEKLY', days }, until });
              if (spanMs === 0) {
                expect(series).toEqual([]);
                return;
              }
              expect(series[0]).toEqual(start);
              const wall = local(start, timeZone).toPlainTime();
              const listed = new Set(days.map((d) => WEEKDAYS.indexOf(d) + 1));
              let previous = local(start, timeZone).toPlainDate();
              for (const [i, instant] of series.entries()) {
                expect(instant.getTime()).toBeLessThan(until.getTime());
                if (i === 0) continue;
                // Strictly later than the one before, so sorted and without duplicates.
                expect(instant.getTime()).toBeGreaterThan(series[i - 1]!.getTime());
                // The wall time of the first booking on the next listed weekday: none is skipped.
                let date = previous.add({ days: 1 });
                while (!listed.has(date.dayOfWeek)) date = date.add({ days: 1 });
                const expected = date.toZonedDateTime({ timeZone, plainTime: wall });
                expect(instant.getTime()).toBe(expected.epochMilliseconds);
                // Either exactly the wall time, or it did not exist that day (a spring-forward gap).
                const actual = local(instant, timeZone);
                if (!actual.toPlainTime().equals(wall)) {
                  // (PlainDate#toZonedDateTime always uses 'compatible'; ZonedDateTime.from can reject.)
                  const { year, month, day } = date;
                  const { hour, minute, second, millisecond } = wall;
                  const exact = { year, month, day, hour, minute, second, millisecond, timeZone };
                  expect(() => Temporal.ZonedDateTime.from(exact, { disambiguation: 'reject' })).toThrow(
                    RangeError,
                  );
                }
                previous = date;
              }
              // Nothing left out at the end: the next listed weekday is at or past until.
              if (listed.size > 0) {
                let next = previous.add({ days: 1 });
                while (!listed.has(next.dayOfWeek)) next = next.add({ days: 1 });
                expect(
                  next.toZonedDateTime({ timeZone, plainTime: wall }).epochMilliseconds,
                ).toBeGreaterThanOrEqual(until.getTime());
              } else {
                expect(series).toHaveLength(1);
              }
            },
          ),
          { numRuns: 150 },
        );
        // Each run walks up to 8 weeks through the Temporal polyfill: seconds on a slow two-core machine.
      },
      60_000,
    );
  });
});
