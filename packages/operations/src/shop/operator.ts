import { orderTransition } from '@nogpets/booking-rules';
import type { DeliveryOptions } from '@nogpets/pricing-tiers';
import {
  appendAudit,
  expireOrderPayments,
  findOperator,
  findOrder,
  findShopSettings,
  listExpiredOrderIds,
  listOrdersToPack,
  type OrderRow,
  type Queryable,
  returnDiscountUse,
  returnStock,
  setShopOpen,
  updateOrder,
} from '@nogpets/store';
import type { Deps } from '../context.js';
import { ServiceError } from '../errors.js';
import { type Order, toOrder } from './shop-model.js';

/** The operator's shop moves need only the database and the clock. */
type ShopDeps = Pick<Deps, 'sql' | 'clock'>;

/** Who made an operator move: a person of the console (their id) or the CLI (a name). */
export interface OperatorActor {
  userId: string | null;
  name: string;
}

async function operatorShop(q: Queryable) {
  const business = await findOperator(q);
  const settings = business ? await findShopSettings(q, business.id) : null;
  if (!business || !settings)
    throw new ServiceError(
      'NOT_FOUND',
      'There is no shop: the demo data (or the operator) has not set one up.',
    );
  return { business, settings };
}

/** Whether the shop is open, for the console and `pnpm cli shop status`. */
export async function shopStatus(deps: ShopDeps): Promise<{ open: boolean; changedAt: Date | null }> {
  const { settings } = await operatorShop(deps.sql);
  return { open: settings.open, changedAt: settings.changedAt };
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
  return deps.sql.begin(async (tx) => {
    const q = tx as unknown as Queryable;
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
  const { business, settings } = await operatorShop(deps.sql);
  const rows = await listOrdersToPack(deps.sql, business.id, limit);
  return rows.map((r) => toOrder(r, settings.delivery as DeliveryOptions));
}

type OrderMove = 'PACK' | 'SHIP' | 'DELIVER' | 'CANCEL' | 'REFUNDED';

const STAMP: Partial<Record<OrderMove, 'packedAt' | 'shippedAt' | 'deliveredAt' | 'closedAt'>> = {
  PACK: 'packedAt',
  SHIP: 'shippedAt',
  DELIVER: 'deliveredAt',
  CANCEL: 'closedAt',
};

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
  return deps.sql.begin(async (tx) => {
    const q = tx as unknown as Queryable;
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
 * Card orders unpaid 24 hours after they were made close (the worker's `expire-unpaid-orders`):
 * their stock and discount use return and their pay link stops. Each order in its own
 * transaction under its row lock, re-checked there, so two workers (or a payment arriving at the
 * same moment) never close one twice or close a paid one. Answers the ids closed.
 */
export async function expireOrders(deps: ShopDeps, limit = 500): Promise<string[]> {
  const now = deps.clock.now();
  const closed: string[] = [];
  for (const id of await listExpiredOrderIds(deps.sql, now, limit)) {
    const done = await deps.sql.begin(async (tx) => {
      const q = tx as unknown as Queryable;
      const row = await findOrder(q, id, { forUpdate: true });
      if (!row || row.status !== 'PENDING_PAYMENT' || !row.expiresAt || row.expiresAt > now) return false;
      const next = orderTransition(row, { type: 'EXPIRE' }, now);
      if (!next.ok) return false;
      await updateOrder(
        q,
        row.id,
        { status: next.state.status, paymentStatus: next.state.paymentStatus, closedAt: now },
        now,
      );
      await releaseOrder(q, row, now);
      await appendAudit(
        q,
        {
          userId: null,
          clientId: null,
          clientName: 'worker',
          action: 'order.expire',
          target: row.id,
          details: { expiresAt: row.expiresAt.toISOString() },
        },
        now,
      );
      return true;
    });
    if (done) closed.push(id);
  }
  return closed;
}
