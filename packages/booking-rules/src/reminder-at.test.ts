import { Temporal } from '@js-temporal/polyfill';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REMINDER_LOCAL_HOUR } from './constants.js';
import { reminderAt } from './reminder-at.js';
import { HOUR } from './test-utils.js';

const EARLY_BOOKING = new Date('2025-01-01T00:00:00Z');
const localOf = (d: Date, timeZone: string) =>
  Temporal.Instant.fromEpochMilliseconds(d.getTime()).toZonedDateTimeISO(timeZone);

describe('reminderAt', () => {
  it('is 18:00 local time the day before the start', () => {
    expect(
      reminderAt({
        start: new Date('2026-12-10T07:00:00Z'),
        timeZone: 'Africa/Johannesburg',
        bookedAt: EARLY_BOOKING,
      }),
    ).toEqual(new Date('2026-12-09T16:00:00Z'));
    // A booking just after local midnight is reminded the evening before, not at midnight.
    expect(
      reminderAt({
        start: new Date('2026-12-09T22:30:00Z'),
        timeZone: 'Africa/Johannesburg',
        bookedAt: EARLY_BOOKING,
      }),
    ).toEqual(new Date('2026-12-09T16:00:00Z'));
  });

  it('follows the zone across a DST change (Lisbon, the clocks go back on 25 October 2026)', () => {
    // Monday 26 October, 09:00 WET; the evening before is Sunday 25 October 18:00 WET = 18:00 UTC.
    expect(
      reminderAt({
        start: new Date('2026-10-26T09:00:00Z'),
        timeZone: 'Europe/Lisbon',
        bookedAt: EARLY_BOOKING,
      }),
    ).toEqual(new Date('2026-10-25T18:00:00Z'));
    // Saturday 24 October is still summer time: 18:00 WEST = 17:00 UTC.
    expect(
      reminderAt({
        start: new Date('2026-10-25T09:00:00Z'),
        timeZone: 'Europe/Lisbon',
        bookedAt: EARLY_BOOKING,
      }),
    ).toEqual(new Date('2026-10-24T17:00:00Z'));
  });

  it('is null for a booking made less than 6 hours before its reminder time', () => {
    const start = new Date('2026-12-10T07:00:00Z');
    const timeZone = 'Africa/Johannesburg';
    expect(reminderAt({ start, timeZone, bookedAt: new Date('2026-12-09T10:00:00Z') })).toEqual(
      new Date('2026-12-09T16:00:00Z'),
    );
    expect(reminderAt({ start, timeZone, bookedAt: new Date('2026-12-09T10:00:01Z') })).toBeNull();
    expect(reminderAt({ start, timeZone, bookedAt: new Date('2026-12-09T20:00:00Z') })).toBeNull();
  });

  it('refuses an invalid date or zone', () => {
    expect(() =>
      reminderAt({ start: new Date(Number.NaN), timeZone: 'UTC', bookedAt: EARLY_BOOKING }),
    ).toThrow(RangeError);
    expect(() =>
      reminderAt({ start: new Date(), timeZone: 'Mars/Olympus', bookedAt: EARLY_BOOKING }),
    ).toThrow(RangeError);
  });

  it('is always before the start, on the local day before, at 18:00 local where that hour exists (seed 30)', () => {
    const zones = [
      'Africa/Johannesburg',
      'Europe/Lisbon',
      'America/New_York',
      'Australia/Lord_Howe',
      'Pacific/Apia',
    ];
    console.log('reminderAt property seed: 30');
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2028, 11, 31) }),
        (timeZone, ms) => {
          const start = new Date(ms);
          const at = reminderAt({ start, timeZone, bookedAt: EARLY_BOOKING })!;
          expect(at.getTime()).toBeLessThan(start.getTime());
          // Within 6 to 31 hours before (18:00 the day before a start between 00:00 and 24:00, ±1 h of DST).
          expect(start.getTime() - at.getTime()).toBeGreaterThanOrEqual(5 * HOUR);
          expect(start.getTime() - at.getTime()).toBeLessThanOrEqual(31 * HOUR);
          const local = localOf(at, timeZone);
          const startDay = localOf(start, timeZone).toPlainDate();
          expect(local.toPlainDate().equals(startDay.subtract({ days: 1 }))).toBe(true);
          // 18:00, or later by a spring-forward gap.
          expect(local.hour).toBeGreaterThanOrEqual(REMINDER_LOCAL_HOUR);
        },
      ),
      { seed: 30, numRuns: 2000 },
    );
  });
});
