import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateOfEpochDay, epochDay } from './local-time.js';
import { rangeFromToday } from './range-from-today.js';

const TODAY = '2026-11-23';

describe('rangeFromToday', () => {
  it('keeps a range from today on as asked, with to defaulting to six days after from', () => {
    expect(rangeFromToday({ from: '2026-11-25', to: '2026-11-27' }, TODAY)).toEqual({
      from: '2026-11-25',
      to: '2026-11-27',
    });
    expect(rangeFromToday({ from: '2026-11-25' }, TODAY)).toEqual({ from: '2026-11-25', to: '2026-12-01' });
    expect(rangeFromToday({}, TODAY)).toEqual({});
    expect(rangeFromToday({ to: '2026-11-30' }, TODAY)).toEqual({ to: '2026-11-30' });
  });

  it('starts a range begun in the past today, keeping its end', () => {
    expect(rangeFromToday({ from: '2026-11-20', to: '2026-11-25' }, TODAY)).toEqual({
      from: TODAY,
      to: '2026-11-25',
    });
    // from alone: its own six days, of which today on are left.
    expect(rangeFromToday({ from: '2026-11-18' }, TODAY)).toEqual({ from: TODAY, to: '2026-11-24' });
  });

  it('refuses a range wholly in the past, naming the field that was sent', () => {
    expect(() => rangeFromToday({ from: '2026-11-16', to: '2026-11-22' }, TODAY)).toThrow(
      expect.objectContaining({ code: 'RANGE_IN_PAST', details: { field: 'to', today: TODAY } }),
    );
    expect(() => rangeFromToday({ from: '2026-11-01' }, TODAY)).toThrow(
      expect.objectContaining({ code: 'RANGE_IN_PAST', details: { field: 'from', today: TODAY } }),
    );
    expect(() => rangeFromToday({ to: '2026-11-22' }, TODAY)).toThrow(
      expect.objectContaining({ details: { field: 'to', today: TODAY } }),
    );
  });

  it('refuses dates that are not dates', () => {
    expect(() => rangeFromToday({ from: '2026-02-30' }, TODAY)).toThrow(
      expect.objectContaining({ code: 'BAD_DATE' }),
    );
  });

  it('never answers a day before today, never moves the end, and refuses only what ends before today', () => {
    const day = fc.integer({ min: epochDay('2026-01-01'), max: epochDay('2027-12-31') }).map(dateOfEpochDay);
    fc.assert(
      fc.property(day, day, day, (from, to, today) => {
        let answer: { from?: string; to?: string };
        try {
          answer = rangeFromToday({ from, to }, today);
        } catch {
          expect(to < today).toBe(true);
          return;
        }
        expect(to >= today).toBe(true);
        expect(answer.to).toBe(to);
        expect(answer.from! >= today).toBe(true);
        expect(answer.from).toBe(from < today ? today : from);
      }),
    );
  });
});
