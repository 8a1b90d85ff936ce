import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_UNPAID_ORDERS,
  mayOpenUnpaidOrder,
  ORDER_HOURS,
  ORDER_PAYMENT_STATUSES,
  ORDER_STATUSES,
  orderExpiresAt,
  orderPayLink,
  orderTransition,
} from './order-state.js';
import type {
  OrderPaymentStatus,
  OrderRefusalCode,
  OrderState,
  OrderStatus,
  OrderTrigger,
  PaymentMethod,
} from './types.js';

const NOW = new Date('2026-05-01T08:00:00.000Z');
const TRIGGERS: OrderTrigger['type'][] = ['PAID', 'EXPIRE', 'PACK', 'SHIP', 'DELIVER', 'CANCEL', 'REFUNDED'];

type Given = [OrderStatus, OrderPaymentStatus, PaymentMethod];
const state = ([status, paymentStatus, paymentMethod]: Given): OrderState => ({
  status,
  paymentStatus,
  paymentMethod,
});

/** Every move the rules allow: from, trigger, to. Anything else is refused. */
const MOVES: [Given, OrderTrigger['type'], [OrderStatus, OrderPaymentStatus]][] = [
  [['PENDING_PAYMENT', 'PENDING', 'CARD'], 'PAID', ['CONFIRMED', 'PAID']],
  [['PENDING_PAYMENT', 'PENDING', 'CARD'], 'EXPIRE', ['EXPIRED', 'NONE']],
  [['PENDING_PAYMENT', 'PENDING', 'CARD'], 'CANCEL', ['CANCELLED', 'NONE']],
  [['CONFIRMED', 'PAID', 'CARD'], 'PACK', ['PACKED', 'PAID']],
  [['CONFIRMED', 'CASH_DUE', 'CASH'], 'PACK', ['PACKED', 'CASH_DUE']],
  [['CONFIRMED', 'PAID', 'CARD'], 'SHIP', ['SHIPPED', 'PAID']],
  [['CONFIRMED', 'CASH_DUE', 'CASH'], 'SHIP', ['SHIPPED', 'CASH_DUE']],
  [['PACKED', 'PAID', 'CARD'], 'SHIP', ['SHIPPED', 'PAID']],
  [['PACKED', 'CASH_DUE', 'CASH'], 'SHIP', ['SHIPPED', 'CASH_DUE']],
  [['SHIPPED', 'PAID', 'CARD'], 'DELIVER', ['DELIVERED', 'PAID']],
  [['SHIPPED', 'CASH_DUE', 'CASH'], 'DELIVER', ['DELIVERED', 'CASH_DUE']],
  [['CONFIRMED', 'PAID', 'CARD'], 'CANCEL', ['CANCELLED', 'REFUND_REQUESTED']],
  [['PACKED', 'PAID', 'CARD'], 'CANCEL', ['CANCELLED', 'REFUND_REQUESTED']],
  [['CONFIRMED', 'CASH_DUE', 'CASH'], 'CANCEL', ['CANCELLED', 'NONE']],
  [['PACKED', 'CASH_DUE', 'CASH'], 'CANCEL', ['CANCELLED', 'NONE']],
  [['CANCELLED', 'REFUND_REQUESTED', 'CARD'], 'REFUNDED', ['CANCELLED', 'REFUNDED']],
];

/** The states a new card order (PENDING_PAYMENT) or cash order (CONFIRMED, CASH_DUE) can reach. */
const REACHABLE: Given[] = [
  ['PENDING_PAYMENT', 'PENDING', 'CARD'],
  ['CONFIRMED', 'PAID', 'CARD'],
  ['PACKED', 'PAID', 'CARD'],
  ['SHIPPED', 'PAID', 'CARD'],
  ['DELIVERED', 'PAID', 'CARD'],
  ['EXPIRED', 'NONE', 'CARD'],
  ['CANCELLED', 'NONE', 'CARD'],
  ['CANCELLED', 'REFUND_REQUESTED', 'CARD'],
  ['CANCELLED', 'REFUNDED', 'CARD'],
  ['CONFIRMED', 'CASH_DUE', 'CASH'],
  ['PACKED', 'CASH_DUE', 'CASH'],
  ['SHIPPED', 'CASH_DUE', 'CASH'],
  ['DELIVERED', 'CASH_DUE', 'CASH'],
  ['CANCELLED', 'NONE', 'CASH'],
];

function expectRefusal(from: OrderState, type: OrderTrigger['type'], code: OrderRefusalCode): string {
  const before = structuredClone(from);
  const outcome = orderTransition(from, { type }, NOW);
  expect(outcome).toMatchObject({ ok: false, code });
  expect(from).toEqual(before);
  return outcome.ok ? '' : outcome.message;
}

describe('orderTransition', () => {
  it.each(MOVES)('%j on %s becomes %j', (given, type, [status, paymentStatus]) => {
    const from = state(given);
    const before = structuredClone(from);
    const outcome = orderTransition(from, { type }, NOW);
    expect(outcome).toEqual({ ok: true, state: { status, paymentStatus, paymentMethod: given[2] } });
    expect(from).toEqual(before);
    if (outcome.ok) expect(outcome.state).not.toBe(from);
  });

  it('refuses to cancel an order already on its way, saying why', () => {
    expect(expectRefusal(state(['SHIPPED', 'PAID', 'CARD']), 'CANCEL', 'ORDER_NOT_OPEN')).toBe(
      'This order is already on its way, so it cannot be cancelled.',
    );
  });

  it('refuses to pack an order before it is paid', () => {
    expect(expectRefusal(state(['PENDING_PAYMENT', 'PENDING', 'CARD']), 'PACK', 'ORDER_NOT_OPEN')).toBe(
      'This order is still waiting for its payment, so it cannot be packed.',
    );
  });

  it('answers ALREADY_PAID to a repeated payment callback, and ORDER_NOT_OPEN to money after it expired', () => {
    expectRefusal(state(['CONFIRMED', 'PAID', 'CARD']), 'PAID', 'ALREADY_PAID');
    expectRefusal(state(['CANCELLED', 'REFUNDED', 'CARD']), 'PAID', 'ALREADY_PAID');
    expectRefusal(state(['EXPIRED', 'NONE', 'CARD']), 'PAID', 'ORDER_NOT_OPEN');
    expectRefusal(state(['CONFIRMED', 'CASH_DUE', 'CASH']), 'PAID', 'ORDER_NOT_OPEN');
  });

  it('does not expire an order once paid (the worker may race the payment)', () => {
    expectRefusal(state(['CONFIRMED', 'PAID', 'CARD']), 'EXPIRE', 'ORDER_NOT_OPEN');
  });

  it('marks a refund done only when one is waiting', () => {
    expect(expectRefusal(state(['CANCELLED', 'NONE', 'CASH']), 'REFUNDED', 'NO_REFUND_DUE')).toMatch(
      /nothing to mark as refunded/,
    );
    expectRefusal(state(['CANCELLED', 'REFUNDED', 'CARD']), 'REFUNDED', 'NO_REFUND_DUE');
  });

  it('refuses every other move from every state an order can be in, leaving the state as it was', () => {
    const allowed = new Set(MOVES.map(([g, t]) => JSON.stringify([...g, t])));
    for (const given of REACHABLE) {
      for (const type of TRIGGERS) {
        const from = state(given);
        const outcome = orderTransition(from, { type }, NOW);
        expect([given, type, outcome.ok]).toEqual([
          given,
          type,
          allowed.has(JSON.stringify([...given, type])),
        ]);
        expect(from).toEqual(state(given));
      }
    }
  });

  it('reaches exactly these states from a new card order and a new cash order', () => {
    const key = (s: OrderState) => `${s.paymentMethod} ${s.status}/${s.paymentStatus}`;
    const seen = new Map<string, OrderState>();
    const queue: OrderState[] = [
      state(['PENDING_PAYMENT', 'PENDING', 'CARD']),
      state(['CONFIRMED', 'CASH_DUE', 'CASH']),
    ];
    while (queue.length > 0) {
      const s = queue.shift()!;
      if (seen.has(key(s))) continue;
      seen.set(key(s), s);
      for (const type of TRIGGERS) {
        const outcome = orderTransition(s, { type }, NOW);
        if (!outcome.ok) continue;
        // Closed orders never change status again; only their money may still move.
        if (['DELIVERED', 'CANCELLED', 'EXPIRED'].includes(s.status))
          expect(outcome.state.status).toBe(s.status);
        // Money taken is never forgotten: PAID only goes on to REFUND_REQUESTED, then REFUNDED.
        if (s.paymentStatus === 'PAID')
          expect(['PAID', 'REFUND_REQUESTED']).toContain(outcome.state.paymentStatus);
        if (s.paymentStatus === 'REFUND_REQUESTED') expect(outcome.state.paymentStatus).toBe('REFUNDED');
        queue.push(outcome.state);
      }
    }
    expect([...seen.keys()].sort()).toEqual(REACHABLE.map((g) => key(state(g))).sort());
  });
});

describe('orderExpiresAt', () => {
  it('is 24 hours after the order is made', () => {
    expect(ORDER_HOURS).toBe(24);
    expect(orderExpiresAt(NOW).toISOString()).toBe('2026-05-02T08:00:00.000Z');
  });

  it('is always exactly ORDER_HOURS later, as a new Date', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        (now) => {
          const before = now.getTime();
          const expires = orderExpiresAt(now);
          expect(expires.getTime() - before).toBe(ORDER_HOURS * 3_600_000);
          expect(now.getTime()).toBe(before);
        },
      ),
    );
  });
});

describe('ORDER_STATUSES and ORDER_PAYMENT_STATUSES', () => {
  it('list each status once and cannot be changed', () => {
    expect(new Set(ORDER_STATUSES).size).toBe(7);
    expect(new Set(ORDER_PAYMENT_STATUSES).size).toBe(6);
    expect(Object.isFrozen(ORDER_STATUSES) && Object.isFrozen(ORDER_PAYMENT_STATUSES)).toBe(true);
  });
});

describe('unpaid orders per person and fresh pay links', () => {
  it('lets a person hold at most MAX_UNPAID_ORDERS (2) unpaid orders at once', () => {
    expect(MAX_UNPAID_ORDERS).toBe(2);
    expect([0, 1, 2, 3, 9].map(mayOpenUnpaidOrder)).toEqual([true, true, false, false, false]);
  });

  const expiresAt = new Date(NOW.getTime() + 5 * 3600_000);
  it("gives an unpaid card order's link until the order closes, never longer", () => {
    const ok = orderPayLink({ ...state(['PENDING_PAYMENT', 'PENDING', 'CARD']), expiresAt }, NOW);
    expect(ok).toEqual({ ok: true, expiresAt });
    if (ok.ok) expect(ok.expiresAt).not.toBe(expiresAt);
  });

  it('refuses NOTHING_TO_PAY with what to do for every other order', () => {
    const cases: [Given, Date | null, RegExp][] = [
      [['PENDING_PAYMENT', 'PENDING', 'CARD'], NOW, /not paid within 24 hours.*Buy again/],
      [['PENDING_PAYMENT', 'PENDING', 'CARD'], null, /not paid within 24 hours/],
      [['CONFIRMED', 'PAID', 'CARD'], null, /already paid.*tell the person/],
      [['PACKED', 'PAID', 'CARD'], null, /already paid/],
      [['CONFIRMED', 'CASH_DUE', 'CASH'], null, /cash.*have the cash ready/],
      [['CANCELLED', 'REFUND_REQUESTED', 'CARD'], null, /refund is under way/],
      [['CANCELLED', 'REFUNDED', 'CARD'], null, /has been refunded/],
      [['EXPIRED', 'NONE', 'CARD'], null, /expired unpaid.*buy again/],
      [['CANCELLED', 'NONE', 'CARD'], null, /was cancelled.*buy again/],
    ];
    for (const [given, at, message] of cases) {
      const answer = orderPayLink({ ...state(given), expiresAt: at }, NOW);
      expect(answer.ok, given.join(' ')).toBe(false);
      if (!answer.ok) {
        expect(answer.code).toBe('NOTHING_TO_PAY');
        expect(answer.message).toMatch(message);
      }
    }
  });
});
