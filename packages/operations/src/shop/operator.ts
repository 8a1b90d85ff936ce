import { orderTransition } from '@nogpets/booking-rules';
import {
  appendAudit,
  expireOrderPayments,
  findOrder,
  listExpiredOrderIds,
  listOrdersToPack,
  listStrandedVisitOrderIds,
  lockOrderPayments,
  markOrderPaymentsRefundDue,
  markOrderPaymentsRefunded,
  type OrderRow,
  type Queryable,
  returnDiscountUse,
  returnStock,
  setShopOpen,
  transaction,
  updateOrder,
} from '@nogpets/store';
import { type Deps, ServiceError } from '../core/index.js';
import { type EventSource, operatorSource, orderFacts, recordEvent, systemSource } from '../events/index.js';
import { findShop, type Order, toOrder } from './shop-model.js';

/**
 * An unpaid card order closes this long after its pay link stopped (24 hours after it was made):
 * a payment begun at the gateway just before then has time to be confirmed.
 */
export const ORDER_PAYMENT_GRACE_MS = 15 * 60_000;

/** The worker's job that closes orders: the source of the events it writes. */
const JOB = 'expire-unpaid-orders';

/** The operator's shop moves need only the database and the clock. */
type ShopDeps = Pick<Deps, 'sql' | 'clock'>;

/** Who made an operator move: a person of the console (their id) or the CLI (a name). */
export interface OperatorActor {
  userId: string | null;
  name: string;
}

async function operatorShop(q: Queryable) {
  const shop = await findShop(q);
  if (!shop)
    throw new ServiceError(
      'NOT_FOUND',
      'There is no shop: the demo data (or the operator) has not set one up.',
    );
  return shop;
}

/** Whether there is a shop and it is open, for the console and `pnpm cli shop status`. */
export async function shopStatus(
  deps: ShopDeps,
): Promise<{ exists: boolean; open: boolean; changedAt: Date | null }> {
  const shop = await findShop(deps.sql);
  return {
    exists: shop !== null,
    open: shop?.settings.open ?? false,
    changedAt: shop?.settings.changedAt ?? null,
  };
}

/**
 * Opens or closes the shop (the CLI's `shop open|close` and the console's button). Closed, every
 * shop operation answers SHOP_OFF; orders already made go on (they are paid, packed and shipped).
 */
export async function setShopOpenAs(
  deps: ShopDeps,
  open: boolean,
  by: OperatorActor,
): Promise<{ open: boolean; changed: boolean }> {
  const now = deps.clock.now();
  return transaction(deps.sql, async (q) => {
    const { business, settings } = await operatorShop(q);
    if (settings.open === open) return { open, changed: false };
    await setShopOpen(q, business.id, open, by.userId, now);
    await appendAudit(
      q,
      {
        userId: by.userId,
        clientId: null,
        clientName: by.name,
        action: open ? 'shop.open' : 'shop.close',
        target: business.id,
        details: {},
      },
      now,
    );
    return { open, changed: true };
  });
}

/** Orders paid (or cash add-ons accepted) and not yet shipped, oldest first: what the operator packs. */
export async function ordersToPack(deps: ShopDeps, limit = 200): Promise<Order[]> {
  const shop = await findShop(deps.sql);
  if (!shop) return [];
  const rows = await listOrdersToPack(deps.sql, shop.business.id, limit);
  return rows.map((r) => toOrder(r, shop.delivery));
}

type OrderMove = 'PACK' | 'SHIP' | 'DELIVER' | 'CANCEL' | 'REFUNDED';

const STAMP: Partial<Record<OrderMove, 'packedAt' | 'shippedAt' | 'deliveredAt' | 'closedAt'>> = {
  PACK: 'packedAt',
  SHIP: 'shippedAt',
  DELIVER: 'deliveredAt',
  CANCEL: 'closedAt',
};

/** The moves a person is told of (packing and a refund done are the operator's own bookkeeping). */
const TOLD = { SHIP: 'order.shipped', DELIVER: 'order.delivered', CANCEL: 'order.cancelled' } as const;

/**
 * The event of an order's move, with the order as it now stands: a cancellation says by whom and
 * the money owed back (the total of a paid order; null when nothing was paid).
 */
async function recordOrderMove(
  q: Queryable,
  source: EventSource,
  orderId: string,
  type: (typeof TOLD)[keyof typeof TOLD],
  by: 'operator' | 'system',
): Promise<void> {
  const [order] = await orderFacts(q, [orderId]);
  const { facts, personId, businessId } = order!;
  const base = { businessId, personId, subjectId: orderId };
  if (type === 'order.cancelled')
    await recordEvent(q, source, {
      ...base,
      type,
      data: {
        order: facts,
        by,
        refund: facts.paymentStatus === 'REFUND_REQUESTED' ? facts.total : null,
      },
    });
  else await recordEvent(q, source, { ...base, type, data: { order: facts } });
}

/**
 * One move of the operator on an order (pack, ship with an optional tracking reference, deliver,
 * cancel, refund done): the booking-rules order transition under the order's row lock, audited.
 * A cancelled order's stock returns. A refusal changes nothing.
 */
export async function moveOrder(
  deps: ShopDeps,
  orderId: string,
  move: OrderMove,
  by: OperatorActor,
  extra: { tracking?: string | undefined; note?: string | undefined } = {},
): Promise<Order> {
  const now = deps.clock.now();
  return transaction(deps.sql, async (q) => {
    await lockOrderPayments(q, orderId);
    const row = await findOrder(q, orderId, { forUpdate: true });
    if (!row) throw new ServiceError('NOT_FOUND', `No order ${orderId}.`, { orderId });
    const next = orderTransition(row, { type: move }, now);
    if (!next.ok)
      throw new ServiceError('NOT_ACTIVE', next.message, {
        orderId,
        status: row.status,
        paymentStatus: row.paymentStatus,
      });
    const stamp = STAMP[move];
    const patch: Parameters<typeof updateOrder>[2] = {
      status: next.state.status,
      paymentStatus: next.state.paymentStatus,
      ...(stamp ? { [stamp]: now } : {}),
      ...(move === 'SHIP' && extra.tracking ? { tracking: extra.tracking } : {}),
    };
    await updateOrder(q, row.id, patch, now);
    if (move === 'CANCEL') await releaseOrder(q, row, now);
    // Money owed back is on the operator's refund list until it is marked returned.
    if (next.state.paymentStatus === 'REFUND_REQUESTED') await markOrderPaymentsRefundDue(q, row.id);
    if (move === 'REFUNDED') await markOrderPaymentsRefunded(q, row.id);
    await appendAudit(
      q,
      {
        userId: by.userId,
        clientId: null,
        clientName: by.name,
        action: `order.${move.toLowerCase()}`,
        target: row.id,
        details: {
          from: [row.status, row.paymentStatus],
          to: [next.state.status, next.state.paymentStatus],
          ...(extra.tracking ? { tracking: extra.tracking } : {}),
          ...(extra.note ? { note: extra.note } : {}),
        },
      },
      now,
    );
    const told = move in TOLD ? TOLD[move as keyof typeof TOLD] : null;
    if (told) await recordOrderMove(q, operatorSource(by.userId, 'moveOrder', now), row.id, told, 'operator');
    const after = await findOrder(q, row.id);
    return toOrder(after!, null);
  });
}

/** What an order held goes back: its stock, its discount code's use, its open pay link. */
async function releaseOrder(q: Queryable, row: OrderRow, now: Date): Promise<void> {
  await returnStock(
    q,
    row.lines.map((l) => ({ variantId: l.variantId, qty: l.qty })),
  );
  if (row.discountCode) await returnDiscountUse(q, row.businessId, row.discountCode);
  await expireOrderPayments(q, row.id, now);
}

/**
 * Card orders unpaid 24 hours after they were made close (the worker's `expire-unpaid-orders`), a
 * short grace after their pay link stopped: their stock and discount use return and their pay link
 * expires. Each order in its own transaction under its payments' and its own row lock, re-checked
 * there, so two workers (or a payment arriving at the same moment) never close one twice or close
 * a paid one; one that fails is tried again on the next run without holding up the rest.
 * Answers the ids closed.
 */
export async function expireOrders(deps: ShopDeps, limit = 500): Promise<string[]> {
  const cutoff = new Date(deps.clock.now().getTime() - ORDER_PAYMENT_GRACE_MS);
  return closeEach(deps, await listExpiredOrderIds(deps.sql, cutoff, limit), {
    trigger: 'EXPIRE',
    action: 'order.expire',
    eligible: (row) => row.status === 'PENDING_PAYMENT' && row.expiresAt !== null && row.expiresAt <= cutoff,
  });
}

/**
 * `visit` orders whose booking is gone (cancelled, or expired unpaid) are cancelled (the worker's
 * `expire-unpaid-orders` too): their stock and discount use return, an unpaid link stops, money
 * paid is owed back on the operator's refund list, and a cash add-on owes nothing.
 */
export async function releaseStrandedVisitOrders(deps: ShopDeps, limit = 500): Promise<string[]> {
  return closeEach(deps, await listStrandedVisitOrderIds(deps.sql, limit), {
    trigger: 'CANCEL',
    action: 'order.cancel',
    eligible: (row) =>
      row.shippingMethod === 'visit' && ['PENDING_PAYMENT', 'CONFIRMED', 'PACKED'].includes(row.status),
    note: 'its booking was cancelled or lapsed',
  });
}

async function closeEach(
  deps: ShopDeps,
  ids: string[],
  rule: { trigger: 'EXPIRE' | 'CANCEL'; action: string; eligible: (row: OrderRow) => boolean; note?: string },
): Promise<string[]> {
  const now = deps.clock.now();
  const closed: string[] = [];
  const failed: unknown[] = [];
  for (const id of ids) {
    try {
      const done = await transaction(deps.sql, async (q) => {
        await lockOrderPayments(q, id);
        const row = await findOrder(q, id, { forUpdate: true });
        if (!row || !rule.eligible(row)) return false;
        const next = orderTransition(row, { type: rule.trigger }, now);
        if (!next.ok) return false;
        await updateOrder(
          q,
          row.id,
          { status: next.state.status, paymentStatus: next.state.paymentStatus, closedAt: now },
          now,
        );
        await releaseOrder(q, row, now);
        if (next.state.paymentStatus === 'REFUND_REQUESTED') await markOrderPaymentsRefundDue(q, row.id);
        await appendAudit(
          q,
          {
            userId: null,
            clientId: null,
            clientName: 'worker',
            action: rule.action,
            target: row.id,
            details: {
              from: [row.status, row.paymentStatus],
              to: [next.state.status, next.state.paymentStatus],
              ...(row.expiresAt ? { expiresAt: row.expiresAt.toISOString() } : {}),
              ...(rule.note ? { note: rule.note } : {}),
            },
          },
          now,
        );
        // A closing unpaid order has no event of its own (EXPIRED is no cancellation); a visit
        // order whose booking went is cancelled by the system.
        if (rule.trigger === 'CANCEL')
          await recordOrderMove(q, systemSource(JOB, now), row.id, 'order.cancelled', 'system');
        return true;
      });
      if (done) closed.push(id);
    } catch (err) {
      // One order that fails (a database away for a moment) does not hold up the others; the
      // job still fails afterwards, so it is seen and run again.
      failed.push(err);
    }
  }
  if (failed.length) throw new AggregateError(failed, `${failed.length} of ${ids.length} orders not closed`);
  return closed;
}
