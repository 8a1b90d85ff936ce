import { describe, expect, it } from 'vitest';
import { CONFIRM_KINDS, confirmSummary } from './confirm.js';
import { operations } from '../registry.js';

describe('confirm steps', () => {
  it('every operation taking `confirm` declares its kind of confirm step, and only those', () => {
    for (const op of operations) {
      const takesConfirm = 'confirm' in op.input.shape;
      expect({ op: op.operationId, kind: takesConfirm ? typeof op.confirmKind : op.confirmKind }).toEqual({
        op: op.operationId,
        kind: takesConfirm ? 'string' : undefined,
      });
      if (op.confirmKind) expect(Object.keys(CONFIRM_KINDS)).toContain(op.confirmKind);
    }
  });

  it('writes the local day and time, place, pets, amount and money into one sentence', () => {
    const { summary, parts } = confirmSummary({
      kind: 'booking',
      what: 'Book dog walking',
      pets: ['Rex', 'Bella'],
      place: 'Home',
      // 05:00 UTC is 07:00 in Johannesburg.
      when: {
        start: new Date('2026-11-30T05:00:00Z'),
        end: new Date('2026-11-30T06:00:00Z'),
        timeZone: 'Africa/Johannesburg',
      },
      amount: { cents: 13000, currency: 'ZAR' },
      money: 'in cash to the crew on the day',
    });
    expect(summary).toBe(
      'Book dog walking for Rex and Bella at Home, Mon, 30 Nov 2026, 07:00 to 08:00. R130 in cash to the crew on the day.',
    );
    expect(parts.when).toMatchObject({ date: '2026-11-30', time: '07:00', endTime: '08:00' });
    expect(parts.amount).toEqual({ cents: 13000, currency: 'ZAR', text: 'R130' });
  });

  it('states a part that does not apply as null, and leaves it out of the sentence', () => {
    const { summary, parts } = confirmSummary({
      kind: 'invoice',
      what: 'Make a card pay link for "Extra brushing"',
      when: null,
      place: null,
      pets: null,
      amount: { cents: 18000, currency: 'ZAR' },
      money: 'paid by card through the link',
    });
    expect(summary).toBe('Make a card pay link for "Extra brushing". R180 paid by card through the link.');
    expect(parts).toMatchObject({ when: null, place: null, pets: null });
  });
});
