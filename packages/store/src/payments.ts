// Payments: pay links, their states and refunds due, and the gateway notifications recorded against them.
import { newId } from './ids.js';
import type { Queryable } from './sql.js';

export interface PaymentRow {
  id: string;
  businessId: string;
  userId: string | null;
  bookingIds: string[];
  amountCents: number;
  currency: string;
  gateway: string;
  status: 'OPEN' | 'PAID' | 'FAILED' | 'EXPIRED' | 'SUPERSEDED' | 'REFUND_DUE' | 'REFUNDED';
  expiresAt: Date;
  gatewayRef: string | null;
  paidAt: Date | null;
}

const PAYMENT_COLUMNS = `id, business_id as "businessId", user_id as "userId", booking_ids as "bookingIds", amount_cents as "amountCents",
  currency, gateway, status, expires_at as "expiresAt", gateway_ref as "gatewayRef", paid_at as "paidAt"`;

type NewPayment = Omit<PaymentRow, 'id' | 'status' | 'gatewayRef' | 'paidAt'> & { linkTokenHash: string };

/** A new pay link as `insertBookingWithLink` writes it beside its booking (status OPEN). */
export type NewPayLink = Omit<NewPayment, 'businessId' | 'userId' | 'bookingIds'> & { id: string };

/** The insert of one open payment (a pay link), returning its row: a statement alone, or a step of a larger one. */
export function paymentInsert(sql: Queryable, p: NewPayment & { id: string }, now: Date) {
  return sql`
    insert into payments (id, business_id, user_id, booking_ids, amount_cents, currency, gateway, link_token_hash, expires_at, created_at)
    values (${p.id}, ${p.businessId}, ${p.userId}, ${p.bookingIds}, ${p.amountCents}, ${p.currency}, ${p.gateway}, ${p.linkTokenHash}, ${p.expiresAt}, ${now})
    returning ${sql.unsafe(PAYMENT_COLUMNS)}`;
}

export async function insertPayment(sql: Queryable, p: NewPayment, now: Date): Promise<PaymentRow> {
  // A new link replaces the open ones of the same bookings. The two statements are sent together
  // (one round trip in a transaction); the update leaves the new row alone in whichever order they run.
  const id = newId('pay');
  const [, [row]] = await Promise.all([
    sql`update payments set status = 'SUPERSEDED' where status in ('OPEN', 'FAILED') and booking_ids && ${p.bookingIds} and id <> ${id}`,
    sql<PaymentRow[]>`${paymentInsert(sql, { ...p, id }, now)}`,
  ]);
  return row!;
}

export async function findPayment(
  sql: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<PaymentRow | null> {
  const [row] = await sql<
    PaymentRow[]
  >`select ${sql.unsafe(PAYMENT_COLUMNS)} from payments where id = ${id} ${options.forUpdate ? sql`for update` : sql``}`;
  return row ?? null;
}

/** Payments in one status, oldest first (the operator's refunds of double payments). */
export async function listPaymentsByStatus(
  sql: Queryable,
  status: PaymentRow['status'],
  limit = 500,
): Promise<PaymentRow[]> {
  return sql<
    PaymentRow[]
  >`select ${sql.unsafe(PAYMENT_COLUMNS)} from payments where status = ${status} order by paid_at nulls last, id limit ${limit}`;
}

/** Open pay links that include any of these bookings stop working (a booking among them closed). */
export async function supersedePayments(sql: Queryable, bookingIds: string[]): Promise<number> {
  const rows =
    await sql`update payments set status = 'SUPERSEDED' where status in ('OPEN', 'FAILED') and booking_ids && ${bookingIds} returning id`;
  return rows.length;
}

/**
 * Locks the open pay links (OPEN, FAILED) that include any of these bookings. A change to a
 * booking's links takes this before the booking's row, in the order a notification settling a
 * link takes its locks (the payment, then its bookings), so the two never deadlock.
 */
export async function lockOpenPayLinks(sql: Queryable, bookingIds: string[]): Promise<void> {
  await sql`select id from payments where status in ('OPEN', 'FAILED') and booking_ids && ${bookingIds} order by id for update`;
}

/**
 * Takes these bookings off the open links they share with other bookings (a weekly series' one
 * link) before they get a link of their own: each such link is replaced, under the same token and
 * expiry, by a payment for the other bookings only, so the link the person has keeps working for
 * them and no longer asks for these. The replaced row keeps its bookings and amount (SUPERSEDED):
 * a checkout begun on it before (the gateway echoes that payment) is still settled for what it
 * was. Links that cover nothing but these bookings are left to `insertPayment` to supersede.
 */
export async function narrowPayLinks(
  sql: Queryable,
  bookingIds: string[],
  now: Date,
): Promise<{ replaced: string; by: string; bookingIds: string[]; amountCents: number }[]> {
  const shared = await sql<(PaymentRow & { linkTokenHash: string })[]>`
    select ${sql.unsafe(PAYMENT_COLUMNS)}, link_token_hash as "linkTokenHash" from payments
    where status in ('OPEN', 'FAILED') and booking_ids && ${bookingIds} and not (booking_ids <@ ${bookingIds}) and expires_at > ${now}
    order by id for update`;
  const narrowed: { replaced: string; by: string; bookingIds: string[]; amountCents: number }[] = [];
  for (const p of shared) {
    const rest = p.bookingIds.filter((id) => !bookingIds.includes(id));
    const [sum] = await sql<
      { cents: number }[]
    >`select coalesce(sum(total_cents), 0)::int as cents from bookings where id = any(${rest})`;
    const amountCents = sum!.cents;
    const id = newId('pay');
    // The token moves to the row that replaces this one (it keeps working for the other bookings).
    await sql`update payments set status = 'SUPERSEDED', link_token_hash = null where id = ${p.id}`;
    if (amountCents <= 0) continue;
    await sql`
      insert into payments (id, business_id, user_id, booking_ids, amount_cents, currency, gateway, link_token_hash, expires_at, part_of, created_at)
      values (${id}, ${p.businessId}, ${p.userId}, ${rest}, ${amountCents}, ${p.currency}, ${p.gateway}, ${p.linkTokenHash}, ${p.expiresAt}, ${p.id}, ${now})`;
    narrowed.push({ replaced: p.id, by: id, bookingIds: rest, amountCents });
  }
  return narrowed;
}

/** When the newest open pay link of a booking expires, if it has one. */
export async function openLinkExpiry(sql: Queryable, bookingId: string): Promise<Date | null> {
  const [row] = await sql<{ expiresAt: Date }[]>`
    select expires_at as "expiresAt" from payments
    where ${bookingId} = any(booking_ids) and status in ('OPEN', 'FAILED')
    order by created_at desc limit 1`;
  return row?.expiresAt ?? null;
}

/**
 * The part of a confirmed payment that is owed back: the share of bookings another payment had
 * already paid. A payment row of its own (REFUND_DUE, no link, the same gateway reference), so
 * `refund list` shows exactly that amount and those bookings and `refund done pay_…` closes it.
 */
export async function insertRefundDue(
  sql: Queryable,
  r: { of: PaymentRow; bookingIds: string[]; amountCents: number; gatewayRef: string },
  now: Date,
): Promise<PaymentRow> {
  const id = newId('pay');
  const [row] = await sql<PaymentRow[]>`
    insert into payments (id, business_id, user_id, booking_ids, amount_cents, currency, gateway, status, link_token_hash, expires_at, gateway_ref, paid_at, part_of, created_at)
    values (${id}, ${r.of.businessId}, ${r.of.userId}, ${r.bookingIds}, ${r.amountCents}, ${r.of.currency}, ${r.of.gateway}, 'REFUND_DUE',
      null, ${now}, ${r.gatewayRef}, ${now}, ${r.of.id}, ${now})
    returning ${sql.unsafe(PAYMENT_COLUMNS)}`;
  return row!;
}

export async function findPaymentByLink(sql: Queryable, linkTokenHash: string): Promise<PaymentRow | null> {
  const [row] = await sql<
    PaymentRow[]
  >`select ${sql.unsafe(PAYMENT_COLUMNS)} from payments where link_token_hash = ${linkTokenHash}`;
  return row ?? null;
}

export async function setPaymentStatus(
  sql: Queryable,
  id: string,
  status: PaymentRow['status'],
  now: Date,
  gatewayRef?: string,
): Promise<void> {
  await sql`update payments set status = ${status}, gateway_ref = coalesce(${gatewayRef ?? null}, gateway_ref),
    paid_at = case when ${status} in ('PAID', 'REFUND_DUE') and paid_at is null then ${now}::timestamptz else paid_at end where id = ${id}`;
}

/** Records a notification; false when one with the same gateway reference was already applied. */
export async function recordNotification(
  sql: Queryable,
  n: { gateway: string; gatewayRef: string | null; paymentId: string | null; outcome: string; body: string },
  now: Date,
): Promise<boolean> {
  const rows = await sql`
    insert into payment_notifications (id, gateway, gateway_ref, payment_id, outcome, body, received_at)
    values (${newId('ntf')}, ${n.gateway}, ${n.gatewayRef}, ${n.paymentId}, ${n.outcome}, ${n.body}, ${now})
    on conflict do nothing returning id`;
  return rows.length === 1;
}
