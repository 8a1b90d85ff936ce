import { describe, expect, it } from 'vitest';
import { aBooking, at, EARLY, HOUR, START } from './test-utils.js';
import { transition } from './transition.js';
import type {
  BookingState,
  BookingStatus,
  PaymentMethod,
  PaymentStatus,
  RefusalCode,
  Trigger,
} from './types.js';

type Given = [BookingStatus, PaymentStatus, PaymentMethod];
const given = ([status, paymentStatus, paymentMethod]: Given): BookingState =>
  aBooking({ status, paymentStatus, paymentMethod });

/** Runs `trigger` and expects the given status and payment status, everything else unchanged. */
function expectMove(
  from: BookingState,
  trigger: Trigger,
  now: Date,
  to: [BookingStatus, PaymentStatus],
): void {
  const before = structuredClone(from);
  const outcome = transition(from, trigger, now);
  expect(outcome).toEqual({ ok: true, state: { ...before, status: to[0], paymentStatus: to[1] } });
  expect(from).toEqual(before);
  // A fresh object every time, even when nothing changed.
  if (outcome.ok) {
    expect(outcome.state).not.toBe(from);
    expect(outcome.state.start).not.toBe(from.start);
  }
}

function expectRefusal(from: BookingState, trigger: Trigger, now: Date, code: RefusalCode): string {
  const before = structuredClone(from);
  const outcome = transition(from, trigger, now);
  expect(outcome).toMatchObject({ ok: false, code });
  expect(from).toEqual(before);
  return outcome.ok ? '' : outcome.message;
}

describe('transition: PAYMENT_SUCCEEDED', () => {
  const paid: Trigger = { type: 'PAYMENT_SUCCEEDED' };

  it.each<[string, Given, [BookingStatus, PaymentStatus]]>([
    ['confirms an unpaid card booking', ['PENDING', 'PENDING', 'CARD'], ['ACCEPTED', 'PAID']],
    [
      'marks paid a card booking the business accepted first',
      ['ACCEPTED', 'PENDING', 'CARD'],
      ['ACCEPTED', 'PAID'],
    ],
    [
      'asks a refund for a late payment on an expired hold',
      ['EXPIRED', 'VOID', 'CARD'],
      ['EXPIRED', 'REFUND_REQUESTED'],
    ],
    [
      'asks a refund for a payment on a cancelled booking',
      ['CANCELLED', 'VOID', 'CARD'],
      ['CANCELLED', 'REFUND_REQUESTED'],
    ],
    [
      'asks a refund on an expired booking still marked PENDING',
      ['EXPIRED', 'PENDING', 'CARD'],
      ['EXPIRED', 'REFUND_REQUESTED'],
    ],
    [
      'asks a refund on a cancelled booking still marked PENDING',
      ['CANCELLED', 'PENDING', 'CARD'],
      ['CANCELLED', 'REFUND_REQUESTED'],
    ],
    [
      'keeps a payment for a booking already done (the work was delivered)',
      ['DONE', 'PENDING', 'CARD'],
      ['DONE', 'PAID'],
    ],
    [
      'ignores a repeated report of a payment already made',
      ['ACCEPTED', 'PAID', 'CARD'],
      ['ACCEPTED', 'PAID'],
    ],
    [
      'ignores a report once a refund is asked',
      ['CANCELLED', 'REFUND_REQUESTED', 'CARD'],
      ['CANCELLED', 'REFUND_REQUESTED'],
    ],
    ['ignores a report once refunded', ['CANCELLED', 'REFUNDED', 'CARD'], ['CANCELLED', 'REFUNDED']],
    ['ignores a repeated report on a booking done and paid', ['DONE', 'PAID', 'CARD'], ['DONE', 'PAID']],
  ])('%s', (_, from, to) => {
    expectMove(given(from), paid, EARLY, to);
  });

  it.each<Given>([
    ['PENDING', 'CASH_DUE', 'CASH'],
    ['ACCEPTED', 'CASH_DUE', 'CASH'],
    ['CANCELLED', 'VOID', 'CASH'],
  ])('refuses a card payment on a cash booking (%s, %s)', (...from) => {
    expectRefusal(given(from), paid, EARLY, 'NOTHING_TO_PAY');
  });

  it('is idempotent: a second report changes nothing', () => {
    const once = transition(aBooking(), paid, EARLY);
    const twice = once.ok && transition(once.state, paid, EARLY);
    expect(twice).toEqual(once);
  });
});

describe('transition: PAYMENT_FAILED', () => {
  it.each<Given>([
    ['PENDING', 'PENDING', 'CARD'],
    ['ACCEPTED', 'PENDING', 'CARD'],
    ['ACCEPTED', 'PAID', 'CARD'],
    ['CANCELLED', 'REFUND_REQUESTED', 'CARD'],
    ['EXPIRED', 'VOID', 'CARD'],
    ['PENDING', 'CASH_DUE', 'CASH'],
  ])('leaves %s / %s (%s) unchanged: unpaid stays unpaid, PAID is never downgraded', (...from) => {
    expectMove(given(from), { type: 'PAYMENT_FAILED' }, EARLY, [from[0], from[1]]);
  });
});

describe('transition: HOLD_EXPIRED', () => {
  const lapse: Trigger = { type: 'HOLD_EXPIRED' };

  it.each<[Given, [BookingStatus, PaymentStatus]]>([
    [
      ['PENDING', 'PENDING', 'CARD'],
      ['EXPIRED', 'VOID'],
    ],
    [
      ['ACCEPTED', 'PENDING', 'CARD'],
      ['EXPIRED', 'VOID'],
    ],
  ])('expires an unpaid card hold (%j)', (from, to) => {
    expectMove(given(from), lapse, START, to);
  });

  it.each<Given>([
    ['ACCEPTED', 'PAID', 'CARD'],
    ['PENDING', 'CASH_DUE', 'CASH'],
    ['ACCEPTED', 'CASH_DUE', 'CASH'],
    ['EXPIRED', 'VOID', 'CARD'],
    ['CANCELLED', 'VOID', 'CARD'],
    ['CANCELLED', 'REFUND_REQUESTED', 'CARD'],
    ['DONE', 'PAID', 'CARD'],
  ])('leaves %s / %s (%s) alone: only an unpaid card hold lapses', (...from) => {
    expectMove(given(from), lapse, START, [from[0], from[1]]);
  });

  it('is idempotent: the worker may run twice', () => {
    const once = transition(aBooking(), lapse, START);
    expect(once.ok && transition(once.state, lapse, START)).toEqual(once);
  });
});

describe('transition: ACCEPT', () => {
  const accept: Trigger = { type: 'ACCEPT' };

  it.each<Given>([
    ['PENDING', 'PENDING', 'CARD'],
    ['PENDING', 'PAID', 'CARD'],
    ['PENDING', 'CASH_DUE', 'CASH'],
  ])('accepts a PENDING booking, payment unchanged (%s / %s)', (...from) => {
    expectMove(given(from), accept, EARLY, ['ACCEPTED', from[1]]);
  });

  it('leaves an ACCEPTED booking as it is', () => {
    expectMove(aBooking({ status: 'ACCEPTED', paymentStatus: 'PAID' }), accept, EARLY, ['ACCEPTED', 'PAID']);
  });

  it.each<Given>([
    ['CANCELLED', 'VOID', 'CARD'],
    ['EXPIRED', 'VOID', 'CARD'],
    ['DONE', 'PAID', 'CARD'],
  ])('refuses to accept a %s booking', (...from) => {
    expect(expectRefusal(given(from), accept, EARLY, 'NOT_ACTIVE')).toMatch(from[0].toLowerCase());
  });
});

describe('transition: RESCHEDULE', () => {
  const newStart = at(START, 72 * HOUR);
  const move: Trigger = { type: 'RESCHEDULE', start: newStart, end: at(newStart, HOUR) };

  it('moves an accepted, paid booking more than 12 h ahead: PENDING again, the business must accept', () => {
    const from = aBooking({ status: 'ACCEPTED', paymentStatus: 'PAID' });
    expect(transition(from, move, EARLY)).toEqual({
      ok: true,
      state: { ...from, status: 'PENDING', start: newStart, end: at(newStart, HOUR) },
    });
  });

  it.each<Given>([
    ['PENDING', 'PENDING', 'CARD'],
    ['PENDING', 'CASH_DUE', 'CASH'],
    ['ACCEPTED', 'CASH_DUE', 'CASH'],
  ])('keeps the payment as it was (%s / %s)', (...from) => {
    const outcome = transition(given(from), move, EARLY);
    expect(outcome).toMatchObject({ ok: true, state: { status: 'PENDING', paymentStatus: from[1] } });
  });

  it('allows it 12 h + 1 ms before the current start', () => {
    expect(transition(aBooking(), move, at(START, -12 * HOUR - 1)).ok).toBe(true);
  });

  it.each([
    ['exactly 12 h before the start', -12 * HOUR],
    ['11 h 59 min before', -12 * HOUR + 60_000],
    ['at the start', 0],
    ['after the start', 2 * HOUR],
  ])('is TOO_LATE %s: the person must phone the operator', (_, offset) => {
    const message = expectRefusal(aBooking(), move, at(START, offset), 'TOO_LATE');
    expect(message).toMatch(/phone the operator/);
  });

  it('measures the window from the current start, not the new one', () => {
    const now = at(START, -6 * HOUR);
    const farAhead = at(START, 30 * 24 * HOUR);
    expectRefusal(
      aBooking(),
      { type: 'RESCHEDULE', start: farAhead, end: at(farAhead, HOUR) },
      now,
      'TOO_LATE',
    );
  });

  it.each([
    ['the new start is now', 0],
    ['the new start has passed', -HOUR],
  ])('is TOO_LATE when %s', (_, offset) => {
    const now = EARLY;
    const to = at(now, offset);
    expectRefusal(aBooking(), { type: 'RESCHEDULE', start: to, end: at(to, HOUR) }, now, 'TOO_LATE');
  });

  it('accepts a new start 1 ms in the future', () => {
    const to = at(EARLY, 1);
    expect(transition(aBooking(), { type: 'RESCHEDULE', start: to, end: at(to, HOUR) }, EARLY).ok).toBe(true);
  });

  it.each<Given>([
    ['CANCELLED', 'REFUND_REQUESTED', 'CARD'],
    ['EXPIRED', 'VOID', 'CARD'],
    ['DONE', 'CASH_DUE', 'CASH'],
  ])('refuses to move a %s booking', (...from) => {
    expectRefusal(given(from), move, EARLY, 'NOT_ACTIVE');
  });

  it('throws a RangeError when the new end is not after the new start', () => {
    expect(() =>
      transition(aBooking(), { type: 'RESCHEDULE', start: newStart, end: newStart }, EARLY),
    ).toThrow(RangeError);
  });
});

describe('transition: CANCEL', () => {
  const cancel: Trigger = { type: 'CANCEL', confirm: true };

  it.each<[Given, PaymentStatus]>([
    [['ACCEPTED', 'PAID', 'CARD'], 'REFUND_REQUESTED'],
    [['PENDING', 'PAID', 'CARD'], 'REFUND_REQUESTED'],
    [['PENDING', 'PENDING', 'CARD'], 'VOID'],
    [['ACCEPTED', 'PENDING', 'CARD'], 'VOID'],
    [['PENDING', 'CASH_DUE', 'CASH'], 'VOID'],
    [['ACCEPTED', 'CASH_DUE', 'CASH'], 'VOID'],
  ])('cancels %j with the payment %s', (from, payment) => {
    expectMove(given(from), cancel, EARLY, ['CANCELLED', payment]);
  });

  it('allows it 1 ms before the start', () => {
    expect(transition(aBooking(), cancel, at(START, -1)).ok).toBe(true);
  });

  it.each([
    ['exactly at the start', 0],
    ['after the start', HOUR / 2],
    ['after the end', 2 * HOUR],
  ])('is TOO_LATE %s', (_, offset) => {
    expectRefusal(
      aBooking({ status: 'ACCEPTED', paymentStatus: 'PAID' }),
      cancel,
      at(START, offset),
      'TOO_LATE',
    );
  });

  it.each([false, undefined, 'true', 1])('needs confirm to be exactly true, not %j', (confirm) => {
    const trigger = { type: 'CANCEL', confirm } as unknown as Trigger;
    expectRefusal(aBooking(), trigger, EARLY, 'CONFIRM_REQUIRED');
  });

  it('asks for confirmation first, even on a closed booking', () => {
    expectRefusal(
      aBooking({ status: 'CANCELLED', paymentStatus: 'VOID' }),
      { type: 'CANCEL', confirm: false },
      EARLY,
      'CONFIRM_REQUIRED',
    );
  });

  it.each<Given>([
    ['CANCELLED', 'VOID', 'CARD'],
    ['EXPIRED', 'VOID', 'CARD'],
    ['DONE', 'PAID', 'CARD'],
  ])('refuses to cancel a %s booking', (...from) => {
    expectRefusal(given(from), cancel, EARLY, 'NOT_ACTIVE');
  });
});

describe('transition: COMPLETE', () => {
  const complete: Trigger = { type: 'COMPLETE' };
  const end = at(START, HOUR);

  it.each<Given>([
    ['ACCEPTED', 'PAID', 'CARD'],
    ['PENDING', 'CASH_DUE', 'CASH'],
    ['ACCEPTED', 'PENDING', 'CARD'],
  ])('marks an active booking DONE at its end, payment unchanged (%s / %s)', (...from) => {
    expectMove(given(from), complete, end, ['DONE', from[1]]);
  });

  it('leaves it unchanged 1 ms before the end', () => {
    expectMove(aBooking({ status: 'ACCEPTED', paymentStatus: 'PAID' }), complete, at(end, -1), [
      'ACCEPTED',
      'PAID',
    ]);
  });

  it.each<Given>([
    ['CANCELLED', 'REFUND_REQUESTED', 'CARD'],
    ['EXPIRED', 'VOID', 'CARD'],
    ['DONE', 'PAID', 'CARD'],
  ])('leaves a %s booking unchanged after its end', (...from) => {
    expectMove(given(from), complete, at(end, 24 * HOUR), [from[0], from[1]]);
  });
});

describe('transition: REFUND_DONE', () => {
  it('marks a requested refund REFUNDED', () => {
    expectMove(
      aBooking({ status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' }),
      { type: 'REFUND_DONE' },
      EARLY,
      ['CANCELLED', 'REFUNDED'],
    );
  });

  it.each<Given>([
    ['ACCEPTED', 'PAID', 'CARD'],
    ['CANCELLED', 'REFUNDED', 'CARD'],
    ['CANCELLED', 'VOID', 'CASH'],
  ])('refuses when no refund is waiting (%s / %s)', (...from) => {
    const message = expectRefusal(given(from), { type: 'REFUND_DONE' }, EARLY, 'NOT_ACTIVE');
    expect(message).toMatch(/no refund is waiting/i);
  });
});
