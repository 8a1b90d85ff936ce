import { HOUR_MS } from './constants.js';
import type {
  OrderOutcome,
  OrderPaymentStatus,
  OrderRefusalCode,
  OrderState,
  OrderStatus,
  OrderTrigger,
} from './types.js';

/** Every order status, in the order an order moves through them, then the two early ends. */
export const ORDER_STATUSES: readonly OrderStatus[] = Object.freeze([
  'PENDING_PAYMENT',
  'CONFIRMED',
  'PACKED',
  'SHIPPED',
  'DELIVERED',
  'CANCELLED',
  'EXPIRED',
] as const);

/** Every order payment status. */
export const ORDER_PAYMENT_STATUSES: readonly OrderPaymentStatus[] = Object.freeze([
  'PENDING',
  'PAID',
  'CASH_DUE',
  'REFUND_REQUESTED',
  'REFUNDED',
  'NONE',
] as const);

/** How long an unpaid card order waits for its payment: 24 hours. */
export const ORDER_HOURS = 24;

/**
 * When an unpaid card order made at `now` expires (its stock and discount use then return): 24
 * hours later, as a new `Date`.
 *
 * @example orderExpiresAt(new Date('2026-05-01T08:00Z')) // 2026-05-02T08:00Z
 */
export function orderExpiresAt(now: Date): Date {
  return new Date(now.getTime() + ORDER_HOURS * HOUR_MS);
}

/**
 * How many unpaid card orders (PENDING_PAYMENT) one person may have open at once: each holds its
 * stock for 24 hours, so a third waits until one is paid or closes.
 */
export const MAX_UNPAID_ORDERS = 2;

/**
 * Whether a person with `openUnpaid` unpaid card orders may open another one.
 *
 * @example mayOpenUnpaidOrder(1) // true
 * @example mayOpenUnpaidOrder(2) // false: pay one, or wait for it to close
 */
export function mayOpenUnpaidOrder(openUnpaid: number): boolean {
  return openUnpaid < MAX_UNPAID_ORDERS;
}

/**
 * Whether a fresh pay link may be made for an order, and until when: an unpaid card order's link
 * lasts until the order itself closes (`expiresAt`, 24 hours after it was made; a new link never
 * holds the stock longer). `NOTHING_TO_PAY` for an order that is paid, cash, closed, or whose
 * time to pay has passed, with a message saying what to do.
 *
 * @example orderPayLink({ status: 'PENDING_PAYMENT', paymentStatus: 'PENDING', paymentMethod: 'CARD', expiresAt }, now)
 * // { ok: true, expiresAt }
 */
export function orderPayLink(
  state: OrderState & { expiresAt: Date | null },
  now: Date,
): { ok: true; expiresAt: Date } | { ok: false; code: 'NOTHING_TO_PAY'; message: string } {
  const nothing = (message: string) => ({ ok: false as const, code: 'NOTHING_TO_PAY' as const, message });
  if (state.status === 'PENDING_PAYMENT' && state.paymentMethod === 'CARD') {
    if (state.expiresAt && state.expiresAt.getTime() > now.getTime())
      return { ok: true, expiresAt: new Date(state.expiresAt.getTime()) };
    return nothing(
      'This order was not paid within 24 hours and is closing: its items go back on the shelf. Buy again if the person still wants them.',
    );
  }
  if (state.paymentMethod === 'CASH')
    return nothing(
      'This order is paid in cash to the crew at the visit, so there is no payment link. Tell the person to have the cash ready.',
    );
  switch (state.paymentStatus) {
    case 'PAID':
      return nothing(
        'This order is already paid, so there is nothing to pay; tell the person it is paid (get_order shows its status).',
      );
    case 'REFUND_REQUESTED':
      return nothing(
        'This order was cancelled after it was paid and its refund is under way (5 to 7 working days); there is nothing to pay.',
      );
    case 'REFUNDED':
      return nothing('This order was paid and has been refunded; there is nothing to pay.');
  }
  return nothing(
    `This order ${IN_WORDS[state.status]}, so there is nothing to pay; buy again if the person still wants the items.`,
  );
}

function accept(state: OrderState, changes: Partial<OrderState> = {}): OrderOutcome {
  return {
    ok: true,
    state: {
      status: changes.status ?? state.status,
      paymentStatus: changes.paymentStatus ?? state.paymentStatus,
      paymentMethod: state.paymentMethod,
    },
  };
}

function refuse(code: OrderRefusalCode, message: string): OrderOutcome {
  return { ok: false, code, message };
}

const IN_WORDS: Record<OrderStatus, string> = {
  PENDING_PAYMENT: 'is still waiting for its payment',
  CONFIRMED: 'is confirmed but not yet packed',
  PACKED: 'is packed but not yet shipped',
  SHIPPED: 'is already on its way',
  DELIVERED: 'has already been delivered',
  CANCELLED: 'was cancelled',
  EXPIRED: 'expired unpaid',
};

function notOpen(state: OrderState, what: string): OrderOutcome {
  return refuse('ORDER_NOT_OPEN', `This order ${IN_WORDS[state.status]}, so it cannot be ${what}.`);
}

/**
 * The order's next state after `trigger`, or a refusal (the state is then unchanged). Never
 * mutates `state`; an ok outcome always carries a fresh object. `now` is taken for symmetry with
 * `transition`: no order move depends on the clock (the caller's worker sends EXPIRE once
 * `orderExpiresAt` has passed). Refusal codes: see {@link OrderRefusalCode}.
 *
 * | Trigger | From | Next status / payment |
 * |---|---|---|
 * | PAID | PENDING_PAYMENT | CONFIRMED / PAID |
 * | EXPIRE | PENDING_PAYMENT | EXPIRED / NONE |
 * | PACK | CONFIRMED | PACKED / unchanged |
 * | SHIP | CONFIRMED or PACKED | SHIPPED / unchanged |
 * | DELIVER | SHIPPED | DELIVERED / unchanged |
 * | CANCEL | PENDING_PAYMENT | CANCELLED / NONE |
 * | CANCEL | CONFIRMED or PACKED | CANCELLED / REFUND_REQUESTED if PAID, NONE if CASH_DUE |
 * | REFUNDED | payment REFUND_REQUESTED | unchanged / REFUNDED |
 *
 * @example orderTransition({ status: 'PENDING_PAYMENT', paymentStatus: 'PENDING', paymentMethod: 'CARD' }, { type: 'PAID' }, now)
 * // { ok: true, state: { status: 'CONFIRMED', paymentStatus: 'PAID', paymentMethod: 'CARD' } }
 * @example orderTransition(shipped, { type: 'CANCEL' }, now)
 * // { ok: false, code: 'ORDER_NOT_OPEN', message: 'This order is already on its way, so it cannot be cancelled.' }
 */
export function orderTransition(state: OrderState, trigger: OrderTrigger, _now: Date): OrderOutcome {
  switch (trigger.type) {
    case 'PAID':
      if (state.status === 'PENDING_PAYMENT')
        return accept(state, { status: 'CONFIRMED', paymentStatus: 'PAID' });
      // The gateway may call back more than once: the first report counted.
      if (['PAID', 'REFUND_REQUESTED', 'REFUNDED'].includes(state.paymentStatus)) {
        return refuse('ALREADY_PAID', 'This order has already been paid.');
      }
      // Money for an order that expired or was cancelled unpaid: the caller refunds it.
      return notOpen(state, 'paid');
    case 'EXPIRE':
      if (state.status === 'PENDING_PAYMENT')
        return accept(state, { status: 'EXPIRED', paymentStatus: 'NONE' });
      return notOpen(state, 'expired');
    case 'PACK':
      if (state.status === 'CONFIRMED') return accept(state, { status: 'PACKED' });
      return notOpen(state, 'packed');
    case 'SHIP':
      // A small order may go straight from the shelf to the courier, unpacked as a separate step.
      if (state.status === 'CONFIRMED' || state.status === 'PACKED')
        return accept(state, { status: 'SHIPPED' });
      return notOpen(state, 'shipped');
    case 'DELIVER':
      if (state.status === 'SHIPPED') return accept(state, { status: 'DELIVERED' });
      return notOpen(state, 'marked delivered');
    case 'CANCEL':
      return cancel(state);
    case 'REFUNDED':
      if (state.paymentStatus === 'REFUND_REQUESTED') return accept(state, { paymentStatus: 'REFUNDED' });
      return refuse(
        'NO_REFUND_DUE',
        'No refund is waiting on this order, so there is nothing to mark as refunded.',
      );
  }
}

function cancel(state: OrderState): OrderOutcome {
  if (state.status === 'PENDING_PAYMENT')
    return accept(state, { status: 'CANCELLED', paymentStatus: 'NONE' });
  if (state.status !== 'CONFIRMED' && state.status !== 'PACKED') return notOpen(state, 'cancelled');
  switch (state.paymentStatus) {
    case 'PAID':
      // Money taken is never forgotten: the operator refunds it.
      return accept(state, { status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' });
    case 'CASH_DUE':
    case 'PENDING':
      return accept(state, { status: 'CANCELLED', paymentStatus: 'NONE' });
    default:
      return accept(state, { status: 'CANCELLED' });
  }
}
