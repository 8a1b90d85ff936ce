// The shop: the operator's products and their stock, discount codes, orders and their
// lines, and an order's pay link (a payment with no bookings that names its order; migration 0032).
import { newId } from './ids.js';
import type { Queryable, Sql, TransactionSql } from './sql.js';

export interface ShopSettingsRow {
  businessId: string;
  open: boolean;
  /** DeliveryOptions JSON (pricing-tiers' shape: courier, local, visit). */
  delivery: unknown;
  changedAt: Date | null;
  changedBy: string | null;
}

const SETTINGS_COLUMNS = `business_id as "businessId", open, delivery, changed_at as "changedAt", changed_by as "changedBy"`;

export async function findShopSettings(sql: Queryable, businessId: string): Promise<ShopSettingsRow | null> {
  const [row] = await sql<ShopSettingsRow[]>`
    select ${sql.unsafe(SETTINGS_COLUMNS)} from shop_settings where business_id = ${businessId}`;
  return row ?? null;
}

/** Opens or closes; returns the row, or null when the business has no shop. */
export async function setShopOpen(
  sql: Queryable,
  businessId: string,
  open: boolean,
  by: string | null,
  now: Date,
): Promise<ShopSettingsRow | null> {
  const [row] = await sql<ShopSettingsRow[]>`
    update shop_settings set open = ${open}, changed_at = ${now}, changed_by = ${by}
    where business_id = ${businessId}
    returning ${sql.unsafe(SETTINGS_COLUMNS)}`;
  return row ?? null;
}

export interface VariantRow {
  id: string;
  productId: string;
  label: string;
  priceCents: number;
  stock: number;
}

export interface ProductRow {
  id: string;
  businessId: string;
  name: string;
  blurb: string;
  category: string;
  petTypes: string[];
  tags: string[];
  /** By sort_order. */
  variants: VariantRow[];
}

/**
 * What a product search looks in, as stored in products.search_text: name, blurb and tags in lower case.
 * @example productSearchText({ name: 'Chew rope', blurb: 'Knotted cotton.', tags: ['tug'] }) // 'chew rope knotted cotton. tug'
 */
export function productSearchText(p: { name: string; blurb: string; tags: string[] }): string {
  return [p.name, p.blurb, ...p.tags].join(' ').toLowerCase();
}

// A product with its variants in one row: the variants as JSON (numbers stay numbers).
const PRODUCT_COLUMNS = `p.id, p.business_id as "businessId", p.name, p.blurb, p.category, p.pet_types as "petTypes", p.tags,
  (select coalesce(json_agg(json_build_object('id', v.id, 'productId', v.product_id, 'label', v.label,
      'priceCents', v.price_cents, 'stock', v.stock) order by v.sort_order, v.id), '[]')
    from product_variants v where v.product_id = p.id) as variants`;

/** Escapes LIKE's wildcards so a query's `%` and `_` are only themselves. */
const likeText = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/** How close a query must be to some words of a product to find it (pg_trgm word similarity). */
const WORD_SIMILARITY = 0.3;

/**
 * Active products (with variants), filtered; with q ranked by pg_trgm word similarity of q to
 * name/blurb/tags (typo-tolerant: threshold 0.3, plus plain substring match), best first;
 * without q in sort_order.
 * @example await searchProducts(sql, 'nogpets', { petType: 'DOG', q: 'shampo' })
 */
export async function searchProducts(
  sql: Queryable,
  businessId: string,
  filter: { category?: string | undefined; petType?: string | undefined; q?: string | undefined },
): Promise<ProductRow[]> {
  const q = filter.q?.trim().toLowerCase() || null;
  return sql<ProductRow[]>`
    select ${sql.unsafe(PRODUCT_COLUMNS)} from products p
    where p.business_id = ${businessId} and p.active
      ${filter.category ? sql`and p.category = ${filter.category}` : sql``}
      ${filter.petType ? sql`and ${filter.petType} = any(p.pet_types)` : sql``}
      ${q ? sql`and (p.search_text like ${`%${likeText(q)}%`} or word_similarity(${q}, p.search_text) >= ${WORD_SIMILARITY})` : sql``}
    order by ${q ? sql`word_similarity(${q}, p.search_text) desc,` : sql``} p.sort_order, p.id`;
}

/** Active products of this business among `ids` (unknown ids are simply absent). */
export async function findProducts(sql: Queryable, businessId: string, ids: string[]): Promise<ProductRow[]> {
  if (ids.length === 0) return [];
  return sql<ProductRow[]>`
    select ${sql.unsafe(PRODUCT_COLUMNS)} from products p
    where p.business_id = ${businessId} and p.active and p.id = any(${ids}::text[])
    order by p.sort_order, p.id`;
}

export interface DiscountCodeRow {
  businessId: string;
  code: string;
  kind: 'PERCENT' | 'FIXED';
  percent: number | null;
  amountCents: number | null;
  minSpendCents: number;
  startsAt: Date | null;
  endsAt: Date | null;
  maxUses: number | null;
  used: number;
  description: string;
}

export async function findDiscountCode(
  sql: Queryable,
  businessId: string,
  code: string,
): Promise<DiscountCodeRow | null> {
  const [row] = await sql<DiscountCodeRow[]>`
    select business_id as "businessId", code, kind, percent, amount_cents as "amountCents", min_spend_cents as "minSpendCents",
      starts_at as "startsAt", ends_at as "endsAt", max_uses as "maxUses", used, description
    from discount_codes where business_id = ${businessId} and code = ${code.trim().toUpperCase()}`;
  return row ?? null;
}

/** One use taken if any is left (used < max_uses or no max); false otherwise. */
export async function takeDiscountUse(sql: Queryable, businessId: string, code: string): Promise<boolean> {
  // The condition is checked again on the locked row, so two buyers cannot both take the last use.
  const rows = await sql`
    update discount_codes set used = used + 1
    where business_id = ${businessId} and code = ${code.trim().toUpperCase()} and (max_uses is null or used < max_uses)
    returning code`;
  return rows.length === 1;
}

export async function returnDiscountUse(sql: Queryable, businessId: string, code: string): Promise<void> {
  await sql`
    update discount_codes set used = used - 1
    where business_id = ${businessId} and code = ${code.trim().toUpperCase()} and used > 0`;
}

/** The lines by variant, quantities of one variant added up, in variant id order (the order rows are locked in). */
function byVariant(lines: { variantId: string; qty: number }[]): { variantId: string; qty: number }[] {
  const qty = new Map<string, number>();
  for (const l of lines) qty.set(l.variantId, (qty.get(l.variantId) ?? 0) + l.qty);
  return [...qty.keys()].sort().map((variantId) => ({ variantId, qty: qty.get(variantId)! }));
}

class StockShort extends Error {
  constructor(readonly variantIds: string[]) {
    super('Not enough stock');
  }
}

/**
 * Takes stock for every line or none: variants updated in id order (no deadlocks between two
 * buyers), `stock = stock - qty where stock >= qty`; answers the variant ids that fell short
 * (empty = all taken). Call inside a transaction and roll back when not empty.
 * @example const short = await takeStock(tx, [{ variantId: 'chew-rope-l', qty: 2 }]);
 */
export async function takeStock(
  sql: Queryable,
  lines: { variantId: string; qty: number }[],
): Promise<string[]> {
  const wanted = byVariant(lines);
  if (wanted.length === 0) return [];
  // In a savepoint (or a transaction of its own on a pool), so what was taken before a shortfall is
  // given back at once, whatever the caller does next.
  const work = async (q: Queryable) => {
    const short: string[] = [];
    for (const w of wanted) {
      // A buyer waiting on the row's lock sees the stock the other left, and is refused when it is too little.
      const rows = await q`
        update product_variants set stock = stock - ${w.qty} where id = ${w.variantId} and stock >= ${w.qty} returning id`;
      if (rows.length === 0) short.push(w.variantId);
    }
    if (short.length > 0) throw new StockShort(short);
  };
  try {
    const tx = sql as Partial<Pick<TransactionSql, 'savepoint'>>;
    if (typeof tx.savepoint === 'function') await tx.savepoint((q) => work(q));
    else await (sql as Sql).begin((q) => work(q));
    return [];
  } catch (err) {
    if (err instanceof StockShort) return err.variantIds;
    throw err;
  }
}

/** Stock given back (an order cancelled or expired), in variant id order as `takeStock` takes it. */
export async function returnStock(
  sql: Queryable,
  lines: { variantId: string; qty: number }[],
): Promise<void> {
  for (const w of byVariant(lines)) {
    await sql`update product_variants set stock = stock + ${w.qty} where id = ${w.variantId}`;
  }
}

export type OrderStatus =
  | 'PENDING_PAYMENT'
  | 'CONFIRMED'
  | 'PACKED'
  | 'SHIPPED'
  | 'DELIVERED'
  | 'CANCELLED'
  | 'EXPIRED';
export type OrderPaymentStatus = 'PENDING' | 'PAID' | 'CASH_DUE' | 'REFUND_REQUESTED' | 'REFUNDED' | 'NONE';

export interface ShipTo {
  line1: string;
  suburb?: string;
  city: string;
  province?: string;
  postalCode: string;
  notes?: string;
}

export interface OrderLineRow {
  lineNo: number;
  productId: string;
  variantId: string;
  name: string;
  variantLabel: string;
  qty: number;
  unitCents: number;
  lineCents: number;
}

export interface OrderRow {
  id: string;
  businessId: string;
  userId: string | null;
  status: OrderStatus;
  paymentMethod: 'CARD' | 'CASH';
  paymentStatus: OrderPaymentStatus;
  shippingMethod: 'courier' | 'local' | 'visit';
  shipTo: ShipTo | null;
  bookingId: string | null;
  discountCode: string | null;
  subtotalCents: number;
  discountCents: number;
  deliveryFeeCents: number;
  totalCents: number;
  currency: string;
  expiresAt: Date | null;
  tracking: string | null;
  clientName: string | null;
  createdAt: Date;
  paidAt: Date | null;
  packedAt: Date | null;
  shippedAt: Date | null;
  deliveredAt: Date | null;
  closedAt: Date | null;
  lines: OrderLineRow[];
}

export type NewOrder = Omit<
  OrderRow,
  'id' | 'createdAt' | 'paidAt' | 'packedAt' | 'shippedAt' | 'deliveredAt' | 'closedAt' | 'tracking' | 'lines'
>;

// An order with its lines in one row (the lines as JSON, by line number).
const ORDER_COLUMNS = `o.id, o.business_id as "businessId", o.user_id as "userId", o.status, o.payment_method as "paymentMethod",
  o.payment_status as "paymentStatus", o.shipping_method as "shippingMethod", o.ship_to as "shipTo", o.booking_id as "bookingId",
  o.discount_code as "discountCode", o.subtotal_cents as "subtotalCents", o.discount_cents as "discountCents",
  o.delivery_fee_cents as "deliveryFeeCents", o.total_cents as "totalCents", o.currency, o.expires_at as "expiresAt",
  o.tracking, o.client_name as "clientName", o.created_at as "createdAt", o.paid_at as "paidAt", o.packed_at as "packedAt",
  o.shipped_at as "shippedAt", o.delivered_at as "deliveredAt", o.closed_at as "closedAt",
  (select coalesce(json_agg(json_build_object('lineNo', l.line_no, 'productId', l.product_id, 'variantId', l.variant_id,
      'name', l.name, 'variantLabel', l.variant_label, 'qty', l.qty, 'unitCents', l.unit_cents, 'lineCents', l.line_cents)
      order by l.line_no), '[]')
    from order_lines l where l.order_id = o.id) as lines`;

/**
 * An order and its lines (numbered from 1 in the order given), in one statement; id `ord_…`.
 * @example const order = await insertOrder(tx, { ...newOrder, status: 'PENDING_PAYMENT' }, priced, now);
 */
export async function insertOrder(
  sql: Queryable,
  order: NewOrder,
  lines: Omit<OrderLineRow, 'lineNo'>[],
  now: Date,
): Promise<OrderRow> {
  const id = newId('ord');
  await sql`
    with o as (
      insert into orders (id, business_id, user_id, status, payment_method, payment_status, shipping_method, ship_to, booking_id,
        discount_code, subtotal_cents, discount_cents, delivery_fee_cents, total_cents, currency, expires_at, client_name, created_at)
      values (${id}, ${order.businessId}, ${order.userId}, ${order.status}, ${order.paymentMethod}, ${order.paymentStatus},
        ${order.shippingMethod}, ${order.shipTo ? sql.json(order.shipTo as never) : null}, ${order.bookingId}, ${order.discountCode},
        ${order.subtotalCents}, ${order.discountCents}, ${order.deliveryFeeCents}, ${order.totalCents}, ${order.currency},
        ${order.expiresAt}, ${order.clientName}, ${now})
      returning id
    ), l as (
      insert into order_lines (order_id, line_no, product_id, variant_id, name, variant_label, qty, unit_cents, line_cents)
      select o.id, x.n, x.product_id, x.variant_id, x.name, x.variant_label, x.qty, x.unit_cents, x.line_cents
      from o, unnest(${lines.map((l) => l.productId)}::text[], ${lines.map((l) => l.variantId)}::text[],
        ${lines.map((l) => l.name)}::text[], ${lines.map((l) => l.variantLabel)}::text[],
        ${lines.map((l) => l.qty)}::int[], ${lines.map((l) => l.unitCents)}::int[], ${lines.map((l) => l.lineCents)}::int[])
        with ordinality as x(product_id, variant_id, name, variant_label, qty, unit_cents, line_cents, n)
      returning line_no
    )
    select count(*) from l`;
  return {
    id,
    businessId: order.businessId,
    userId: order.userId,
    status: order.status,
    paymentMethod: order.paymentMethod,
    paymentStatus: order.paymentStatus,
    shippingMethod: order.shippingMethod,
    shipTo: order.shipTo,
    bookingId: order.bookingId,
    discountCode: order.discountCode,
    subtotalCents: order.subtotalCents,
    discountCents: order.discountCents,
    deliveryFeeCents: order.deliveryFeeCents,
    totalCents: order.totalCents,
    currency: order.currency,
    expiresAt: order.expiresAt,
    tracking: null,
    clientName: order.clientName,
    createdAt: now,
    paidAt: null,
    packedAt: null,
    shippedAt: null,
    deliveredAt: null,
    closedAt: null,
    lines: lines.map((l, i) => ({
      lineNo: i + 1,
      productId: l.productId,
      variantId: l.variantId,
      name: l.name,
      variantLabel: l.variantLabel,
      qty: l.qty,
      unitCents: l.unitCents,
      lineCents: l.lineCents,
    })),
  };
}

/** An OPEN payment for the order (no bookings), one statement; id `pay_…`. */
export async function insertOrderPayment(
  sql: Queryable,
  p: {
    orderId: string;
    businessId: string;
    userId: string | null;
    amountCents: number;
    currency: string;
    gateway: string;
    linkTokenHash: string;
    expiresAt: Date;
  },
  now: Date,
): Promise<{ paymentId: string }> {
  const paymentId = newId('pay');
  await sql`
    insert into payments (id, business_id, user_id, booking_ids, amount_cents, currency, gateway, link_token_hash, expires_at, order_id, created_at)
    values (${paymentId}, ${p.businessId}, ${p.userId}, '{}', ${p.amountCents}, ${p.currency}, ${p.gateway}, ${p.linkTokenHash},
      ${p.expiresAt}, ${p.orderId}, ${now})`;
  return { paymentId };
}

export async function findOrder(
  sql: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<OrderRow | null> {
  const [row] = await sql<OrderRow[]>`
    select ${sql.unsafe(ORDER_COLUMNS)} from orders o where o.id = ${id}
    ${options.forUpdate ? sql`for update of o` : sql``}`;
  return row ?? null;
}

/** The order a payment is the pay link of, or null for a booking's or an invoice's payment. */
export async function findOrderOfPayment(
  sql: Queryable,
  paymentId: string,
  options: { forUpdate?: boolean } = {},
): Promise<OrderRow | null> {
  const [row] = await sql<OrderRow[]>`
    select ${sql.unsafe(ORDER_COLUMNS)} from orders o
    where o.id = (select order_id from payments where id = ${paymentId})
    ${options.forUpdate ? sql`for update of o` : sql``}`;
  return row ?? null;
}

/** The person's orders, newest first, keyset after (createdAt, id). */
export async function listUserOrders(
  sql: Queryable,
  userId: string,
  page: { limit: number; after?: { createdAt: Date; id: string } | undefined },
): Promise<OrderRow[]> {
  return sql<OrderRow[]>`
    select ${sql.unsafe(ORDER_COLUMNS)} from orders o
    where o.user_id = ${userId}
      ${page.after ? sql`and (o.created_at, o.id) < (${page.after.createdAt}::timestamptz, ${page.after.id})` : sql``}
    order by o.created_at desc, o.id desc
    limit ${page.limit}`;
}

export async function updateOrder(
  sql: Queryable,
  id: string,
  patch: Partial<
    Pick<
      OrderRow,
      | 'status'
      | 'paymentStatus'
      | 'expiresAt'
      | 'tracking'
      | 'paidAt'
      | 'packedAt'
      | 'shippedAt'
      | 'deliveredAt'
      | 'closedAt'
    >
  >,
  _now: Date,
): Promise<void> {
  const columns = {
    status: 'status',
    paymentStatus: 'payment_status',
    expiresAt: 'expires_at',
    tracking: 'tracking',
    paidAt: 'paid_at',
    packedAt: 'packed_at',
    shippedAt: 'shipped_at',
    deliveredAt: 'delivered_at',
    closedAt: 'closed_at',
  } as const;
  const set: Record<string, unknown> = {};
  // A key given as undefined is left alone; null clears the column (expiresAt once paid).
  for (const [key, column] of Object.entries(columns)) {
    const value = patch[key as keyof typeof columns];
    if (value !== undefined) set[column] = value;
  }
  if (Object.keys(set).length === 0) return;
  await sql`update orders set ${sql(set as never, Object.keys(set) as never)} where id = ${id}`;
}

/** The open payments (OPEN or FAILED) of an order set to EXPIRED. */
export async function expireOrderPayments(sql: Queryable, orderId: string, _now: Date): Promise<void> {
  await sql`update payments set status = 'EXPIRED' where order_id = ${orderId} and status in ('OPEN', 'FAILED')`;
}

/** CONFIRMED and PACKED orders of a business, oldest first (what the operator packs and ships). */
export async function listOrdersToPack(
  sql: Queryable,
  businessId: string,
  limit: number,
): Promise<OrderRow[]> {
  return sql<OrderRow[]>`
    select ${sql.unsafe(ORDER_COLUMNS)} from orders o
    where o.business_id = ${businessId} and o.status in ('CONFIRMED', 'PACKED')
    order by o.created_at, o.id
    limit ${limit}`;
}

/** Ids of PENDING_PAYMENT orders whose expires_at <= now, oldest first. */
export async function listExpiredOrderIds(sql: Queryable, now: Date, limit: number): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select id from orders where status = 'PENDING_PAYMENT' and expires_at <= ${now}
    order by expires_at, id
    limit ${limit}`;
  return rows.map((r) => r.id);
}

/**
 * Locks an order's payments, before the order itself: the order in which a gateway's notification
 * takes them (payment, then order), so the worker or the operator closing the order at the same
 * moment waits for it rather than deadlocking with it.
 */
export async function lockOrderPayments(sql: Queryable, orderId: string): Promise<void> {
  await sql`select id from payments where order_id = ${orderId} order by id for update`;
}

/** A cancelled paid order's money is owed back: its settled payment joins the operator's refund list. */
export async function markOrderPaymentsRefundDue(sql: Queryable, orderId: string): Promise<void> {
  await sql`update payments set status = 'REFUND_DUE' where order_id = ${orderId} and status = 'PAID'`;
}

/** The operator returned an order's money at the gateway: its payments owed back are REFUNDED. */
export async function markOrderPaymentsRefunded(sql: Queryable, orderId: string): Promise<void> {
  await sql`update payments set status = 'REFUNDED' where order_id = ${orderId} and status = 'REFUND_DUE'`;
}

/**
 * Ids of `visit` orders not yet handed over whose booking is gone (cancelled, expired unpaid, or
 * deleted): they have nothing to ride with.
 */
export async function listStrandedVisitOrderIds(sql: Queryable, limit: number): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select o.id from orders o left join bookings b on b.id = o.booking_id
    where o.shipping_method = 'visit' and o.status in ('PENDING_PAYMENT', 'CONFIRMED', 'PACKED')
      and (b.id is null or b.status in ('CANCELLED', 'EXPIRED'))
    order by o.created_at, o.id
    limit ${limit}`;
  return rows.map((r) => r.id);
}

/**
 * Takes the person's unpaid-orders lock for the rest of the transaction: two purchases by one
 * person wait for each other here, so the count of unpaid orders each then reads
 * (`listUnpaidOrders`) includes the other's, and two at once cannot go past the limit together.
 */
export async function lockUnpaidOrdersOf(sql: Queryable, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`unpaid-orders/${userId}`}, 0))`;
}

/**
 * The person's unpaid card orders whose pay link still works (PENDING_PAYMENT, expires_at after
 * `now`), oldest first.
 */
export async function listUnpaidOrders(sql: Queryable, userId: string, now: Date): Promise<OrderRow[]> {
  return sql<OrderRow[]>`
    select ${sql.unsafe(ORDER_COLUMNS)} from orders o
    where o.user_id = ${userId} and o.status = 'PENDING_PAYMENT' and o.expires_at > ${now}
    order by o.created_at, o.id`;
}
