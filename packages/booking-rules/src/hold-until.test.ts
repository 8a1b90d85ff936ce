import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdUntil } from './hold-until.js';
import { at, HOUR, START } from './test-utils.js';

describe('holdUntil', () => {
  it('ends the hold when the pay link expires, if that comes before the start', () => {
    const expiresAt = at(START, -HOUR);
    expect(holdUntil(expiresAt, START)).toEqual(expiresAt);
  });

  it('ends the hold at the start, if the link would outlast it', () => {
    expect(holdUntil(at(START, 24 * HOUR), START)).toEqual(START);
  });

  it('ends it at that instant when both are the same', () => {
    expect(holdUntil(new Date(START), START)).toEqual(START);
  });

  it('follows the example of its documentation', () => {
    expect(holdUntil(new Date('2026-05-03T08:00Z'), new Date('2026-05-02T09:00Z'))).toEqual(
      new Date('2026-05-02T09:00Z'),
    );
  });

  it('returns a new Date and leaves both arguments alone', () => {
    const expiresAt = at(START, HOUR);
    const start = new Date(START);
    const result = holdUntil(expiresAt, start);
    expect(result).not.toBe(start);
    expect(result).not.toBe(expiresAt);
    result.setTime(0);
    expect([expiresAt, start]).toEqual([at(START, HOUR), START]);
  });

  it('is never after either of them, and is one of them', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: -1e12, max: 1e12 }), (a, b) => {
        const expiresAt = at(START, a);
        const start = at(START, b);
        const end = holdUntil(expiresAt, start).getTime();
        expect(end).toBeLessThanOrEqual(expiresAt.getTime());
        expect(end).toBeLessThanOrEqual(start.getTime());
        expect([expiresAt.getTime(), start.getTime()]).toContain(end);
      }),
      { numRuns: 200 },
    );
  }, 60_000);
});
