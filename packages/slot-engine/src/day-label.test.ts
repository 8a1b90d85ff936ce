import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayLabel } from './day-label.js';

describe('dayLabel', () => {
  it('names today and tomorrow, including across a year end', () => {
    expect(dayLabel('2026-11-23', '2026-11-23')).toBe('Today');
    expect(dayLabel('2026-11-24', '2026-11-23')).toBe('Tomorrow');
    expect(dayLabel('2027-01-01', '2026-12-31')).toBe('Tomorrow');
  });

  it('names other days of this year by weekday and date, without the year', () => {
    expect(dayLabel('2026-11-25', '2026-11-23')).toBe('Wednesday 25 November');
    expect(dayLabel('2026-12-31', '2026-11-23')).toBe('Thursday 31 December');
  });

  it('adds the year to a day in another year', () => {
    expect(dayLabel('2027-01-02', '2026-12-30')).toBe('Saturday 2 January 2027');
    expect(dayLabel('2025-12-30', '2026-01-01')).toBe('Tuesday 30 December 2025');
  });

  it('holds the year exactly when the years differ, and never a comma', () => {
    const day = fc
      .integer({ min: 0, max: 3650 })
      .map((n) => new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, day, (date, today) => {
        const label = dayLabel(date, today);
        expect(label).not.toContain(',');
        if (label === 'Today' || label === 'Tomorrow') return;
        expect(label.endsWith(` ${date.slice(0, 4)}`)).toBe(date.slice(0, 4) !== today.slice(0, 4));
      }),
    );
  });
});
