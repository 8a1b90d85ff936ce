// The journeys' own checks (./assistant.ts), on refusals and money moves written out by hand: a
// check that lets a bad answer through would let the journeys pass on a broken service.
import { describe, expect, it } from 'vitest';
import {
  type MoneyMove,
  missingNextStep,
  type Refusal,
  saysWhatToDo,
  unaskedMoneyMoves,
} from './assistant.js';

const TOOLS = ['book', 'get_booking', 'find_times', 'pay_booking', 'add_address'];

const refusal = (code: string, message: string, details: unknown = {}): Refusal => ({
  tool: 'pay_booking',
  args: {},
  via: 'tool',
  error: { code, message, details },
});

describe('saysWhatToDo', () => {
  it('takes an instruction, what the person must do, or a tool to call', () => {
    for (const text of [
      'This booking is already paid, so there is nothing to pay; tell the person it is paid (get_booking shows the payment).',
      'This booking is cancelled, so there is nothing to pay; book again for a new time.',
      'Too late to move it here: the person must phone the operator.',
      'Ask the person for the suburb or postal code.',
      'That time was just taken. Call find_times again.',
      'The card fee changed, so ask the person again.',
    ])
      expect(saysWhatToDo(text, TOOLS), text).toBe(true);
  });

  it('does not take a verb that is only mentioned, nor a one-word tool name used as a word', () => {
    for (const text of [
      'This booking is already paid.',
      'Cannot book: the booking is cancelled.',
      'An invalid set of pets.',
      'The pets to book are not yours.',
      'The person can not pay it here.',
      '',
      undefined,
    ])
      expect(saysWhatToDo(text, TOOLS), String(text)).toBe(false);
  });
});

describe('missingNextStep', () => {
  it('passes a refusal that says what to do, and names what one that does not lacks', () => {
    expect(
      missingNextStep(refusal('NOTHING_TO_PAY', 'Already paid; tell the person it is paid.'), TOOLS),
    ).toEqual([]);
    expect(
      missingNextStep(refusal('NOTHING_TO_PAY', 'Cannot pay: this booking is paid.'), TOOLS),
    ).toHaveLength(1);
    expect(
      missingNextStep(refusal('NOTHING_TO_PAY', 'Paid.', { next: 'Tell the person it is paid.' }), TOOLS),
    ).toEqual([]);
  });

  it('asks UNKNOWN_PLACE to say to ask the person, as the spec has it', () => {
    expect(
      missingNextStep(refusal('UNKNOWN_PLACE', 'We do not know that suburb; use another one.'), TOOLS),
    ).toHaveLength(1);
    expect(
      missingNextStep(
        refusal('UNKNOWN_PLACE', 'We do not know that suburb; ask the person for its postal code.'),
      ),
    ).toEqual([]);
  });

  it('holds TOO_LATE, CONFIRM_REQUIRED and NO_COVERAGE to what the spec says they carry', () => {
    expect(missingNextStep(refusal('TOO_LATE', 'Too late; book again.'))).toHaveLength(1);
    expect(
      missingNextStep(refusal('CONFIRM_REQUIRED', 'Show the summary.', { summary: 'R380 cash' })),
    ).toHaveLength(1);
    expect(
      missingNextStep(
        refusal('CONFIRM_REQUIRED', 'Show the summary; once they agree send confirm: true.', {
          summary: 'R380',
        }),
      ),
    ).toEqual([]);
    expect(
      missingNextStep(refusal('NO_COVERAGE', 'Not here.', { message: 'Not here.', leadId: 'lead_1' })),
    ).toEqual([expect.stringContaining('details.next')]);
  });
});

describe('unaskedMoneyMoves', () => {
  const move = (m: Partial<MoneyMove>): MoneyMove => ({
    tool: 'book',
    confirmed: false,
    payUrl: null,
    refused: false,
    readOnly: false,
    before: 'a',
    after: 'b',
    ...m,
  });

  it('lets money move after confirm: true or with a payUrl in the answer of a change', () => {
    expect(
      unaskedMoneyMoves([move({ confirmed: true }), move({ payUrl: 'http://x.example/pay/npl_1' })]),
    ).toEqual([]);
  });

  it('names a move with no say-so, one after a refusal, and one by a read-only tool', () => {
    expect(
      unaskedMoneyMoves([
        move({ tool: 'cancel_booking' }),
        move({ tool: 'book', confirmed: true, refused: true }),
        move({ tool: 'get_booking', readOnly: true, payUrl: 'http://x.example/pay/npl_1' }),
      ]),
    ).toEqual([
      'cancel_booking: money moved after neither confirm: true nor a payUrl',
      'book: money moved after a refused call',
      'get_booking: money moved after a read-only tool',
    ]);
  });
});
