import { describe, expect, it } from 'vitest';
import { initialState } from './initial-state.js';
import { at, HOUR, START } from './test-utils.js';

const end = at(START, HOUR);

describe('initialState', () => {
  it('starts a card booking PENDING and unpaid, with confirm or without', () => {
    for (const confirm of [true, false]) {
      expect(initialState({ paymentMethod: 'CARD', confirm, start: START, end })).toEqual({
        ok: true,
        state: { status: 'PENDING', paymentStatus: 'PENDING', paymentMethod: 'CARD', start: START, end },
      });
    }
  });

  it('starts a confirmed cash booking PENDING with the cash due on the day', () => {
    expect(initialState({ paymentMethod: 'CASH', confirm: true, start: START, end })).toEqual({
      ok: true,
      state: { status: 'PENDING', paymentStatus: 'CASH_DUE', paymentMethod: 'CASH', start: START, end },
    });
  });

  it('refuses a cash booking without confirm: the person must see the summary and agree first', () => {
    const outcome = initialState({ paymentMethod: 'CASH', confirm: false, start: START, end });
    expect(outcome).toMatchObject({ ok: false, code: 'CONFIRM_REQUIRED' });
    expect(outcome.ok ? '' : outcome.message).toMatch(/summary.*agree.*confirm: true/);
  });

  it('treats anything but true as no confirmation (an untyped caller sending "true")', () => {
    const confirm = 'true' as unknown as boolean;
    expect(initialState({ paymentMethod: 'CASH', confirm, start: START, end })).toMatchObject({
      code: 'CONFIRM_REQUIRED',
    });
  });

  it.each([
    ['ends when it starts', START],
    ['ends before it starts', at(START, -1)],
    ['has an invalid end', new Date(Number.NaN)],
  ])('throws a RangeError for a booking that %s', (_, badEnd) => {
    expect(() => initialState({ paymentMethod: 'CARD', confirm: true, start: START, end: badEnd })).toThrow(
      RangeError,
    );
  });

  it('accepts a booking 1 ms long', () => {
    expect(initialState({ paymentMethod: 'CARD', confirm: false, start: START, end: at(START, 1) }).ok).toBe(
      true,
    );
  });

  it('returns its own Date objects, so changing the input later changes nothing', () => {
    const start = new Date(START);
    const outcome = initialState({ paymentMethod: 'CARD', confirm: false, start, end });
    start.setTime(0);
    expect(outcome.ok && outcome.state.start).toEqual(START);
  });
});
