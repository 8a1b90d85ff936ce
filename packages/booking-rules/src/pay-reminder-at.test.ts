import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payReminderAt } from './pay-reminder-at.js';
import { HOUR } from './test-utils.js';

describe('payReminderAt', () => {
  it('is 6 hours before a 48-hour booking link or a 24-hour order link lapses', () => {
    const openedAt = new Date('2026-12-01T10:00:00Z');
    expect(payReminderAt({ payUntil: new Date('2026-12-03T10:00:00Z'), openedAt })).toEqual(
      new Date('2026-12-03T04:00:00Z'),
    );
    expect(payReminderAt({ payUntil: new Date('2026-12-02T10:00:00Z'), openedAt })).toEqual(
      new Date('2026-12-02T04:00:00Z'),
    );
  });

  it('is null for a link opened less than 6 hours before its reminder (a hold ending at a start 11 hours away)', () => {
    const openedAt = new Date('2026-12-01T10:00:00Z');
    expect(payReminderAt({ payUntil: new Date('2026-12-01T22:00:00Z'), openedAt })).toEqual(
      new Date('2026-12-01T16:00:00Z'),
    );
    expect(payReminderAt({ payUntil: new Date('2026-12-01T21:59:59Z'), openedAt })).toBeNull();
  });

  it('refuses invalid dates', () => {
    expect(() => payReminderAt({ payUntil: new Date(Number.NaN), openedAt: new Date() })).toThrow(RangeError);
  });

  it('is exactly 6 hours before the lapse, or null exactly when opened after 12 hours before it (seed 31)', () => {
    console.log('payReminderAt property seed: 31');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 96 * HOUR }),
        fc.integer({ min: 0, max: 96 * HOUR }),
        (open, until) => {
          const base = Date.UTC(2026, 11, 1);
          const at = payReminderAt({ payUntil: new Date(base + until), openedAt: new Date(base + open) });
          if (open > until - 12 * HOUR) expect(at).toBeNull();
          else expect(at!.getTime()).toBe(base + until - 6 * HOUR);
        },
      ),
      { seed: 31, numRuns: 2000 },
    );
  });
});
