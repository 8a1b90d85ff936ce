import { describe, expect, it } from 'vitest';
import { CONFIRM_KINDS, type ConfirmParts, confirmStep, confirmSummary, staffParts } from './confirm.js';
import type { OperationContext } from './context.js';
import { ServiceError, type ThrownCode } from './errors.js';
import { operations } from '../registry.js';

/** A call of no page mode (the API, MCP clients that cannot show a page): `confirm: true` is the agreement. */
const ctx = {} as OperationContext;

const INVOICE: ConfirmParts<'invoice'> = {
  kind: 'invoice',
  what: 'Make a card pay link for "Extra brushing"',
  when: null,
  place: null,
  pets: null,
  amount: { cents: 18000, currency: 'ZAR' },
  money: 'paid by card through the link',
};

/** What `run` threw, or null. */
function thrown(run: () => void): unknown {
  try {
    run();
    return null;
  } catch (err) {
    return err;
  }
}

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

  it('confirmStep returns when the person agreed, and changes nothing of the parts', () => {
    expect(confirmStep(ctx, true, INVOICE)).toBeUndefined();
    expect(confirmStep(ctx, true, staffParts('Remove Ann from the staff.'))).toBeUndefined();
  });

  it('confirmStep answers 409 CONFIRM_REQUIRED with the summary, its parts and the step details, confirm false or left out', () => {
    for (const confirm of [false, undefined]) {
      const err = thrown(() =>
        confirmStep(ctx, confirm, INVOICE, { details: { bookingId: 'bk_1', totalCents: 18000 } }),
      );
      expect(err).toBeInstanceOf(ServiceError);
      const e = err as ServiceError;
      expect(e.status).toBe(409);
      // The body as sent, byte for byte: the step's details first, then summary, parts and message.
      expect(JSON.stringify(e.toBody())).toBe(
        JSON.stringify({
          error: {
            code: 'CONFIRM_REQUIRED',
            message:
              'This needs the person to agree: show them the summary and, once they agree, send the same request with confirm: true.',
            details: {
              bookingId: 'bk_1',
              totalCents: 18000,
              summary: 'Make a card pay link for "Extra brushing". R180 paid by card through the link.',
              parts: {
                kind: 'invoice',
                what: 'Make a card pay link for "Extra brushing"',
                when: null,
                place: null,
                pets: null,
                amount: { cents: 18000, currency: 'ZAR', text: 'R180' },
                money: 'paid by card through the link',
              },
              message:
                'Show the person this summary; send the same request with confirm: true once they agree.',
            },
          },
        }),
      );
    }
    const own = thrown(() =>
      confirmStep(ctx, undefined, INVOICE, { message: 'Agree first.' }),
    ) as ServiceError;
    expect(own.message).toBe('Agree first.');
  });

  it('a staff change is its sentence alone: no day, place, pets or money', () => {
    const e = thrown(() => confirmStep(ctx, false, staffParts('Remove Ann from the staff.'))) as ServiceError;
    expect(e.details.summary).toBe('Remove Ann from the staff.');
    expect(e.details.parts).toEqual({
      kind: 'staff',
      what: 'Remove Ann from the staff',
      when: null,
      place: null,
      pets: null,
      amount: null,
      money: null,
    });
  });

  it('CONFIRM_REQUIRED is not a code any other module can throw (pnpm typecheck holds this file)', () => {
    // @ts-expect-error The bare code is no ThrownCode: only confirmStep answers it (with the summary).
    const bare: ThrownCode = 'CONFIRM_REQUIRED';
    // @ts-expect-error ServiceError does not take it either.
    const made = new ServiceError('CONFIRM_REQUIRED', 'Agree first.');
    expect([bare, made.code]).toEqual(['CONFIRM_REQUIRED', 'CONFIRM_REQUIRED']);
  });
});
