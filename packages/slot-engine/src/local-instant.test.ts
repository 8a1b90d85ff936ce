import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SlotEngineError } from './errors.js';
import { findSlots } from './find-slots.js';
import { localDayStart, localInstant, workingIntervals } from './local-instant.js';
import { localDateText } from './local-time.js';

const LISBON = 'Europe/Lisbon';
const week = {
  sat: [{ start: '09:00', end: '17:00' }],
  sun: [{ start: '00:30', end: '03:00' }],
  mon: [{ start: '09:00', end: '17:00' }],
};

describe('localInstant and workingIntervals', () => {
  it('map Lisbon hours either side of the October change (2026-10-25) to their own offsets', () => {
    // Saturday: summer time (UTC+1); Monday: winter time (UTC+0).
    expect(workingIntervals(week, '2026-10-24', LISBON)).toEqual([
      { start: Date.parse('2026-10-24T08:00:00Z'), end: Date.parse('2026-10-24T16:00:00Z') },
    ]);
    expect(workingIntervals(week, '2026-10-26', LISBON)).toEqual([
      { start: Date.parse('2026-10-26T09:00:00Z'), end: Date.parse('2026-10-26T17:00:00Z') },
    ]);
    // The change day: 00:30 is summer time, 03:00 winter time; the hour 01:00-02:00 shows twice.
    expect(workingIntervals(week, '2026-10-25', LISBON)).toEqual([
      { start: Date.parse('2026-10-24T23:30:00Z'), end: Date.parse('2026-10-25T03:00:00Z') },
    ]);
    expect(localInstant('2026-10-25', '01:30', LISBON)).toBe(Date.parse('2026-10-25T00:30:00Z'));
    expect(workingIntervals(week, '2026-10-27', LISBON)).toEqual([]);
  });

  it('agree with the slots findSlots offers on the days either side', () => {
    const { days } = findSlots({
      resources: [{ id: 'van', kind: 'VAN', week, slotStepMin: 60 }],
      durationMin: 60,
      timeZone: LISBON,
      now: '2026-10-01T00:00:00Z',
      from: '2026-10-24',
      to: '2026-10-26',
    });
    // (On the change day itself findSlots counts local minutes, so it is left out here.)
    for (const day of days.filter((d) => d.date !== '2026-10-25')) {
      const [range] = workingIntervals(week, day.date, LISBON);
      expect(Date.parse(day.slots[0]!.start)).toBe(range!.start);
      expect(Date.parse(day.slots.at(-1)!.start) + 3_600_000).toBe(range!.end);
    }
  });

  it('has no instant for a time the clocks skip, and finds the next one for a range starting there', () => {
    // Lisbon springs forward on 2026-03-29 at 01:00 (to 02:00).
    expect(localInstant('2026-03-29', '01:30', LISBON)).toBeNull();
    expect(workingIntervals({ sun: [{ start: '01:30', end: '04:00' }] }, '2026-03-29', LISBON)).toEqual([
      { start: Date.parse('2026-03-29T01:00:00Z'), end: Date.parse('2026-03-29T03:00:00Z') },
    ]);
    expect(() => localInstant('2026-02-30', '09:00', LISBON)).toThrow(/date/);
  });
});

describe('localInstant and workingIntervals: any zone, any date', () => {
  const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  const ALL_DAY = Object.fromEntries(DAYS.map((d) => [d, [{ start: '00:00', end: '24:00' }]]));
  const ZONES = [
    'Europe/Lisbon',
    'America/New_York',
    'America/Santiago',
    'Africa/Johannesburg',
    'Asia/Tokyo',
  ];
  const hhmm = (m: number) =>
    `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  const day = fc
    .integer({ min: 0, max: 2 * 366 })
    .map((n) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));
  const range = fc
    .tuple(fc.integer({ min: 0, max: 47 }), fc.integer({ min: 1, max: 48 }))
    .filter(([a, b]) => a < b)
    .map(([a, b]) => ({ start: hhmm(a * 30), end: b === 48 ? '24:00' : hhmm(b * 30) }));

  it('gives intervals in order that findSlots keeps its slots inside, on days without a change', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), day, range, (timeZone, date, r) => {
        const week = Object.fromEntries(DAYS.map((d) => [d, [r]]));
        const intervals = workingIntervals(week, date, timeZone);
        for (const iv of intervals) expect(iv.start).toBeLessThan(iv.end);
        // The range's own ends, where the clock shows them.
        const start = localInstant(date, r.start, timeZone);
        if (start !== null) expect(intervals[0]?.start).toBe(start);
        const [slotsDay] = findSlots({
          resources: [{ id: 'r', kind: 'WALKER', week, slotStepMin: 30 }],
          durationMin: 30,
          timeZone,
          now: '2025-01-01T00:00:00Z',
          from: date,
          to: date,
        }).days;
        // A day without a change: 24 hours from a midnight the clock shows.
        const [whole] = workingIntervals(ALL_DAY, date, timeZone);
        const midnight = localInstant(date, '00:00', timeZone);
        if (midnight !== null && whole!.end - whole!.start === 86_400_000) {
          for (const s of slotsDay!.slots) {
            const at = Date.parse(s.start);
            expect(intervals.some((iv) => iv.start <= at && at + 30 * 60_000 <= iv.end)).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('makes a whole day of 00:00-24:00: its first instant to the next day’s, 23 to 25 hours long', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), day, (timeZone, date) => {
        const [d] = workingIntervals(ALL_DAY, date, timeZone);
        const hours = (d!.end - d!.start) / 3_600_000;
        expect([23, 24, 25]).toContain(hours);
        expect(localDateText(d!.start, timeZone)).toBe(date);
        expect(localDateText(d!.end - 1, timeZone)).toBe(date);
        expect(localDateText(d!.end, timeZone)).not.toBe(date);
      }),
      { numRuns: 300 },
    );
    // Santiago skips its midnight on 2026-09-06: the day starts at 01:00 (UTC-3).
    expect(workingIntervals(ALL_DAY, '2026-09-06', 'America/Santiago')).toEqual([
      { start: Date.parse('2026-09-06T04:00:00Z'), end: Date.parse('2026-09-07T03:00:00Z') },
    ]);
  });

  it('starts a local day where its whole day of 00:00-24:00 starts, and ends it where the next one starts', () => {
    const zones = [...ZONES, 'Pacific/Chatham', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/Havana'];
    const seed = 2028;
    console.log(`localDayStart property: seed ${seed}`);
    fc.assert(
      fc.property(fc.constantFrom(...zones), day, (timeZone, date) => {
        const [d] = workingIntervals(ALL_DAY, date, timeZone);
        expect(localDayStart(date, timeZone)).toBe(d!.start);
        const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
        expect(localDayStart(next, timeZone)).toBe(d!.end);
      }),
      { numRuns: 400, seed },
    );
    expect(localDayStart('2026-09-06', 'America/Santiago')).toBe(Date.parse('2026-09-06T04:00:00Z'));
    expect(localDayStart('2026-09-05', 'America/Santiago')).toBe(Date.parse('2026-09-05T04:00:00Z'));
    expect(() => localDayStart('2026-02-30', LISBON)).toThrow(SlotEngineError);
    expect(() => localDayStart('2026-10-24', 'Mars/Olympus')).toThrow(SlotEngineError);
  });

  it('refuses a zone it does not know as the engine does, with a SlotEngineError', () => {
    expect(() => localInstant('2026-10-24', '09:00', 'Mars/Olympus')).toThrow(SlotEngineError);
    expect(() => workingIntervals({}, '2026-10-24', 'Mars/Olympus')).toThrow(SlotEngineError);
    expect(() => localInstant('2026-10-24', '24:01', LISBON)).toThrow(SlotEngineError);
  });
});
