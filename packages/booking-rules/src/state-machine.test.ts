// Properties of the whole state machine: transition, initialState, canPay and payLink together.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canPay } from './can-pay.js';
import { BOOKING_STATUSES, PAY_LINK_HOURS, PAYMENT_STATUSES } from './constants.js';
import { initialState } from './initial-state.js';
import { isActive } from './is-active.js';
import { payLink } from './pay-link.js';
import { aBooking, at, HOUR, START } from './test-utils.js';
import { transition } from './transition.js';
import type {
  BookingState,
  BookingStatus,
  Outcome,
  PaymentMethod,
  PaymentStatus,
  RefusalCode,
  Trigger,
} from './types.js';

// `satisfies` makes these exactly the unions: a code added to or dropped from the type fails typecheck.
const REFUSAL_CODES = {
  CONFIRM_REQUIRED: true,
  TOO_LATE: true,
  NOTHING_TO_PAY: true,
  NOT_ACTIVE: true,
} satisfies Record<RefusalCode, true>;
const STATUS_UNION = {
  PENDING: true,
  ACCEPTED: true,
  CANCELLED: true,
  EXPIRED: true,
  DONE: true,
} satisfies Record<BookingStatus, true>;
const PAYMENT_UNION = {
  PENDING: true,
  PAID: true,
  CASH_DUE: true,
  REFUND_REQUESTED: true,
  REFUNDED: true,
  VOID: true,
} satisfies Record<PaymentStatus, true>;
/** Every trigger type once (a Record, so a new trigger type fails typecheck until it is listed). */
const TRIGGER_TYPES = Object.keys({
  PAYMENT_SUCCEEDED: true,
  PAYMENT_FAILED: true,
  HOLD_EXPIRED: true,
  ACCEPT: true,
  RESCHEDULE: true,
  CANCEL: true,
  COMPLETE: true,
  REFUND_DONE: true,
} satisfies Record<Trigger['type'], true>) as Trigger['type'][];
const CLOSED: readonly BookingStatus[] = ['CANCELLED', 'EXPIRED', 'DONE'];
const METHODS: readonly PaymentMethod[] = ['CARD', 'CASH'];

/**
 * What the money may become from each payment status: money taken is never forgotten (PAID only
 * goes on to a refund), and a refund, once asked, only completes.
 */
const NEXT_PAYMENT: Record<PaymentStatus, readonly PaymentStatus[]> = {
  PENDING: ['PENDING', 'PAID', 'VOID', 'REFUND_REQUESTED'],
  PAID: ['PAID', 'REFUND_REQUESTED'],
  CASH_DUE: ['CASH_DUE', 'VOID'],
  REFUND_REQUESTED: ['REFUND_REQUESTED', 'REFUNDED'],
  REFUNDED: ['REFUNDED'],
  VOID: ['VOID', 'REFUND_REQUESTED'],
};

/** A trigger with its times relative to the booking's current start, so the windows' edges come up often. */
type Step = {
  kind: Trigger['type'];
  /** `now` minus the booking's current start. */
  nowOffset: number;
  /** RESCHEDULE: new start minus `now`; new length. */
  moveBy: number;
  length: number;
  confirm: boolean;
};

const edges = [-12 * HOUR - 1, -12 * HOUR, -12 * HOUR + 1, -1, 0, 1, HOUR, HOUR - 1];
const stepArb: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom(...TRIGGER_TYPES),
  nowOffset: fc.oneof(fc.integer({ min: -96 * HOUR, max: 48 * HOUR }), fc.constantFrom(...edges)),
  moveBy: fc.oneof(fc.integer({ min: -2 * HOUR, max: 14 * 24 * HOUR }), fc.constantFrom(-1, 0, 1)),
  length: fc.integer({ min: 1, max: 4 * HOUR }),
  confirm: fc.boolean(),
});

function toTrigger(step: Step, now: Date): Trigger {
  switch (step.kind) {
    case 'RESCHEDULE': {
      const start = at(now, step.moveBy);
      return { type: 'RESCHEDULE', start, end: at(start, step.length) };
    }
    case 'CANCEL':
      return { type: 'CANCEL', confirm: step.confirm };
    default:
      return { type: step.kind };
  }
}

/** Any combination of the three fields, reachable or not: the rules must stay sane on a bad row too. */
const anyStateArb: fc.Arbitrary<BookingState> = fc
  .record({
    status: fc.constantFrom(...BOOKING_STATUSES),
    paymentStatus: fc.constantFrom(...PAYMENT_STATUSES),
    paymentMethod: fc.constantFrom(...METHODS),
    startOffset: fc.integer({ min: -30 * 24 * HOUR, max: 30 * 24 * HOUR }),
    length: fc.integer({ min: 1, max: 8 * HOUR }),
  })
  .map(({ startOffset, length, ...rest }) =>
    aBooking({ ...rest, start: at(START, startOffset), end: at(START, startOffset + length) }),
  );

/** A booking as `book` makes it: card, or cash with or without the person's confirmation. */
const bookArb = fc.record({
  paymentMethod: fc.constantFrom(...METHODS),
  confirm: fc.boolean(),
  startOffset: fc.integer({ min: 0, max: 30 * 24 * HOUR }),
  length: fc.integer({ min: 1, max: 8 * HOUR }),
});

type Run = { from: BookingState; trigger: Trigger; now: Date; outcome: Outcome };

/**
 * Runs the steps one after another (a refusal leaves the state as it was), checking on every step
 * that nothing handed in was changed and the outcome is well formed. Returns every step taken.
 */
function walk(state: BookingState, steps: Step[]): Run[] {
  const runs: Run[] = [];
  let current = state;
  for (const step of steps) {
    const now = at(current.start, step.nowOffset);
    const trigger = toTrigger(step, now);
    const [stateBefore, triggerBefore, nowBefore] = structuredClone([current, trigger, now]);
    const outcome = transition(current, trigger, now);
    expect([current, trigger, now]).toEqual([stateBefore, triggerBefore, nowBefore]);
    expectWellFormed(outcome, current, trigger);
    runs.push({ from: current, trigger, now, outcome });
    if (outcome.ok) current = outcome.state;
  }
  return runs;
}

function expectWellFormed(outcome: Outcome, from: BookingState, trigger: Trigger): void {
  expect(outcome).toBeTypeOf('object');
  if (!outcome.ok) {
    expect(Object.keys(outcome).sort()).toEqual(['code', 'message', 'ok']);
    expect(Object.keys(REFUSAL_CODES)).toContain(outcome.code);
    expect(outcome.message).toMatch(/\w.*\.$/);
    return;
  }
  const next = outcome.state;
  expect(Object.keys(next).sort()).toEqual(['end', 'paymentMethod', 'paymentStatus', 'start', 'status']);
  expect(BOOKING_STATUSES).toContain(next.status);
  expect(PAYMENT_STATUSES).toContain(next.paymentStatus);
  expect(next.paymentMethod).toBe(from.paymentMethod);
  expect(next.end.getTime()).toBeGreaterThan(next.start.getTime());
  // A fresh object, sharing no Date with the input or the trigger.
  expect(next).not.toBe(from);
  for (const date of [from.start, from.end, ...('start' in trigger ? [trigger.start, trigger.end] : [])]) {
    expect(next.start).not.toBe(date);
    expect(next.end).not.toBe(date);
  }
}

/** What must hold between a state and the next one, whatever the trigger. */
function expectAllowedMove({ from, trigger, outcome }: Run): void {
  if (!outcome.ok) return;
  const next = outcome.state;
  if (CLOSED.includes(from.status)) expect(next.status).toBe(from.status);
  expect(NEXT_PAYMENT[from.paymentStatus]).toContain(next.paymentStatus);
  if (from.paymentMethod === 'CASH' && from.paymentStatus !== 'PAID')
    expect(next.paymentStatus).not.toBe('PAID');
  if (trigger.type === 'RESCHEDULE') {
    expect([next.start, next.end]).toEqual([trigger.start, trigger.end]);
  } else {
    expect([next.start, next.end]).toEqual([from.start, from.end]);
  }
}

function expectPayAgreement(state: BookingState, now: Date): void {
  const waiting = isActive(state) && state.paymentMethod === 'CARD' && state.paymentStatus === 'PENDING';
  expect(canPay(state)).toBe(waiting);
  const link = payLink(state, now);
  // A link needs the payment to be awaited and the start still ahead (the hold lapses at the start).
  expect(link.ok).toBe(waiting && now.getTime() < state.start.getTime());
  if (link.ok) {
    expect(link.expiresAt.getTime()).toBe(now.getTime() + PAY_LINK_HOURS * HOUR);
    expect(link.holdUntil.getTime()).toBe(Math.min(link.expiresAt.getTime(), state.start.getTime()));
  } else {
    expect(link.code).toBe('NOTHING_TO_PAY');
  }
}

const TIMEOUT = 60_000;

describe('the booking state machine (properties)', () => {
  it('has the status and payment lists of the types, each value once', () => {
    expect([...BOOKING_STATUSES].sort()).toEqual(Object.keys(STATUS_UNION).sort());
    expect([...PAYMENT_STATUSES].sort()).toEqual(Object.keys(PAYMENT_UNION).sort());
  });

  it(
    'from a new booking, every sequence of triggers stays in the listed states and leaves its inputs alone',
    () => {
      fc.assert(
        fc.property(bookArb, fc.array(stepArb, { maxLength: 16 }), (book, steps) => {
          const { paymentMethod, confirm } = book;
          const start = at(START, book.startOffset);
          const end = at(START, book.startOffset + book.length);
          const input = { paymentMethod, confirm, start, end };
          const before = structuredClone(input);
          const first = initialState(input);
          expect(input).toEqual(before);
          // Checked like a move from the booking it describes: same method, own Dates.
          const described: BookingState = {
            status: 'PENDING',
            paymentStatus: 'PENDING',
            paymentMethod,
            start,
            end,
          };
          expectWellFormed(first, described, { type: 'ACCEPT' });
          if (first.ok)
            expect(first.state).toEqual({
              ...described,
              paymentStatus: paymentMethod === 'CARD' ? 'PENDING' : 'CASH_DUE',
            });
          if (!first.ok) {
            expect([first.code, book.paymentMethod, book.confirm]).toEqual([
              'CONFIRM_REQUIRED',
              'CASH',
              false,
            ]);
            return;
          }
          for (const run of walk(first.state, steps)) {
            expectAllowedMove(run);
            const state = run.outcome.ok ? run.outcome.state : run.from;
            // A booking is paid by card or in cash, never both: cash never becomes PAID or refunded.
            if (state.paymentMethod === 'CASH') expect(['CASH_DUE', 'VOID']).toContain(state.paymentStatus);
            else expect(state.paymentStatus).not.toBe('CASH_DUE');
            expectPayAgreement(state, run.now);
          }
        }),
        { numRuns: 400 },
      );
    },
    TIMEOUT,
  );

  it(
    'from any state, even one no trigger leads to, every sequence stays in the listed states',
    () => {
      fc.assert(
        fc.property(anyStateArb, fc.array(stepArb, { maxLength: 8 }), (state, steps) => {
          for (const run of walk(state, steps)) {
            expectAllowedMove(run);
            expectPayAgreement(run.outcome.ok ? run.outcome.state : run.from, run.now);
          }
        }),
        { numRuns: 400 },
      );
    },
    TIMEOUT,
  );

  it(
    'keeps a closed booking closed, with the same status, whatever comes next',
    () => {
      const closedArb = anyStateArb.filter((s) => CLOSED.includes(s.status));
      fc.assert(
        fc.property(closedArb, fc.array(stepArb, { minLength: 1, maxLength: 10 }), (state, steps) => {
          for (const { outcome } of walk(state, steps)) {
            if (outcome.ok) expect(outcome.state.status).toBe(state.status);
          }
        }),
        { numRuns: 300 },
      );
    },
    TIMEOUT,
  );

  it(
    'never makes a cash booking PAID',
    () => {
      const cashArb = anyStateArb
        .filter((s) => s.paymentStatus !== 'PAID')
        .map((s) => ({ ...s, paymentMethod: 'CASH' as const }));
      fc.assert(
        fc.property(cashArb, fc.array(stepArb, { minLength: 1, maxLength: 10 }), (state, steps) => {
          for (const { outcome } of walk(state, steps)) {
            if (outcome.ok) expect(outcome.state.paymentStatus).not.toBe('PAID');
          }
        }),
        { numRuns: 300 },
      );
    },
    TIMEOUT,
  );

  it(
    'lets a payment or a lapsed hold change the status exactly when canPay is true',
    () => {
      fc.assert(
        fc.property(anyStateArb, stepArb, (state, step) => {
          const now = at(state.start, step.nowOffset);
          const paid = transition(state, { type: 'PAYMENT_SUCCEEDED' }, now);
          const lapsed = transition(state, { type: 'HOLD_EXPIRED' }, now);
          if (canPay(state)) {
            expect(paid).toMatchObject({ ok: true, state: { status: 'ACCEPTED', paymentStatus: 'PAID' } });
            expect(lapsed).toMatchObject({ ok: true, state: { status: 'EXPIRED', paymentStatus: 'VOID' } });
            // Once paid or lapsed, there is nothing left to pay.
            expect(paid.ok && canPay(paid.state)).toBe(false);
            expect(lapsed.ok && canPay(lapsed.state)).toBe(false);
          } else {
            if (paid.ok) expect(paid.state.status).toBe(state.status);
            expect(lapsed).toEqual({ ok: true, state });
          }
        }),
        { numRuns: 400 },
      );
    },
    TIMEOUT,
  );

  it(
    'is idempotent for the events that may arrive twice, and refuses a second cancel or refund',
    () => {
      fc.assert(
        fc.property(anyStateArb, stepArb, (state, step) => {
          const now = at(state.start, step.nowOffset);
          const trigger = toTrigger(step, now);
          const once = transition(state, trigger, now);
          if (!once.ok || trigger.type === 'RESCHEDULE') return;
          const twice = transition(once.state, trigger, now);
          if (trigger.type === 'CANCEL' || trigger.type === 'REFUND_DONE') {
            expect(twice).toMatchObject({ ok: false, code: 'NOT_ACTIVE' });
          } else {
            expect(twice).toEqual(once);
          }
        }),
        { numRuns: 400 },
      );
    },
    TIMEOUT,
  );

  it('reaches exactly these states from a new booking, and no other', () => {
    // Breadth-first over every trigger at times around the windows, from both kinds of new booking.
    const key = (s: BookingState) => `${s.paymentMethod} ${s.status} ${s.paymentStatus}`;
    const begin = aBooking({ start: at(START, 7 * 24 * HOUR), end: at(START, 7 * 24 * HOUR + HOUR) });
    const news = (['CARD', 'CASH'] as const).map((paymentMethod) => {
      const outcome = initialState({ paymentMethod, confirm: true, start: begin.start, end: begin.end });
      if (!outcome.ok) throw new Error(outcome.message);
      return outcome.state;
    });
    const seen = new Map(news.map((s) => [key(s), s]));
    const queue = [...news];
    const nowOffsets = [-48 * HOUR, -12 * HOUR, -HOUR, 0, 2 * HOUR];
    for (let state = queue.shift(); state; state = queue.shift()) {
      for (const kind of TRIGGER_TYPES) {
        for (const nowOffset of nowOffsets) {
          for (const confirm of [true, false]) {
            const now = at(state.start, nowOffset);
            const outcome = transition(
              state,
              toTrigger({ kind, nowOffset, moveBy: 72 * HOUR, length: HOUR, confirm }, now),
              now,
            );
            if (outcome.ok && !seen.has(key(outcome.state))) {
              seen.set(key(outcome.state), outcome.state);
              queue.push(outcome.state);
            }
          }
        }
      }
    }
    expect([...seen.keys()].sort()).toEqual(
      [
        'CARD PENDING PENDING',
        'CARD ACCEPTED PENDING',
        'CARD PENDING PAID',
        'CARD ACCEPTED PAID',
        'CARD DONE PENDING',
        'CARD DONE PAID',
        'CARD EXPIRED VOID',
        'CARD EXPIRED REFUND_REQUESTED',
        'CARD EXPIRED REFUNDED',
        'CARD CANCELLED VOID',
        'CARD CANCELLED REFUND_REQUESTED',
        'CARD CANCELLED REFUNDED',
        'CASH PENDING CASH_DUE',
        'CASH ACCEPTED CASH_DUE',
        'CASH DONE CASH_DUE',
        'CASH CANCELLED VOID',
      ].sort(),
    );
  });
});
