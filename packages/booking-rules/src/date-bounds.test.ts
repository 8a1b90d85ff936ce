import { describe, expect, it } from 'vitest';
import { DATE_BOUNDS, dateBounds, outsideDateBounds } from './date-bounds.js';

describe('dateBounds', () => {
  it('takes bookings from today to two years ahead, records from five years back', () => {
    expect(DATE_BOUNDS.booking).toEqual({ yearsBack: 0, yearsAhead: 2 });
    expect(dateBounds('booking', '2026-03-11')).toEqual({ from: '2026-03-11', to: '2028-03-11' });
    expect(dateBounds('records', '2026-03-11')).toEqual({ from: '2021-03-11', to: '2028-03-11' });
  });

  it('counts a 29 February two years on as 28 February', () => {
    expect(dateBounds('booking', '2028-02-29')).toEqual({ from: '2028-02-29', to: '2030-02-28' });
    expect(dateBounds('records', '2028-02-29').from).toBe('2023-02-28');
  });

  it.each([
    ['2026-03-10', 'booking', false],
    ['2026-03-11', 'booking', true],
    ['2028-03-11', 'booking', true],
    ['2028-03-12', 'booking', false],
    ['9999-12-31', 'booking', false],
    ['0001-01-01', 'booking', false],
    ['10000-01-01', 'booking', false],
    ['2021-03-11', 'records', true],
    ['2021-03-10', 'records', false],
    ['2028-03-11', 'records', true],
    ['2028-03-12', 'records', false],
  ] as const)('%s is %s-bounds: %s', (date, kind, inside) => {
    const out = outsideDateBounds(date, kind, '2026-03-11');
    expect(out === null).toBe(inside);
    if (out) expect(out).toEqual(dateBounds(kind, '2026-03-11'));
  });
});
