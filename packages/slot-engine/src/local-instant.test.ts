import { describe, expect, it } from 'vitest';
import { findSlots } from './find-slots.js';
import { localInstant, workingIntervals } from './local-instant.js';

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
