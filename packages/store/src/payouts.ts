// The money of a business: card money settled through the operator's gateway, the
// payouts the operator makes of it (migration 0031), cash bookings done, and what clients owe.
import { UNPAID_CARD, UNPAID_CASH } from './clients.js';
import { newId } from './ids.js';
import type { Queryable } from './sql.js';

/**
 * A payment the gateway settled for the business (status PAID) and what the business keeps of it:
 * its amount less the part owed back because some of its bookings had been paid before (a row of
 * its own, REFUND_DUE then REFUNDED, with the same gateway reference, `part_of` it).
 */
export interface SettledPaymentRow {
  paymentId: string;
  paidAt: Date;
  amountCents: number;
  /** The part of `amountCents` owed back (paid twice); the business keeps the rest. */
  returnedCents: number;
  /** The bookings this payment paid (its bookings less those paid twice); none for an invoice. */
  bookingIds: string[];
  invoiceId: string | null;
  /** The payout this payment is in, if any. */
  payoutId: string | null;
}

/** The part of a PAID payment `p` owed back as paid twice: rows split from it under its gateway reference. */
const RETURNED = `payments x where x.part_of = p.id and x.status in ('REFUND_DUE', 'REFUNDED') and x.gateway_ref is not distinct from p.gateway_ref`;

/**
 * The settled payments of a business paid in [from, before) (either end open when left out), or
 * with `notInPayout` only those in no payout yet; oldest first.
 */
export async function listSettledPayments(
  sql: Queryable,
  businessId: string,
  range: { from?: Date; before?: Date; notInPayout?: boolean },
): Promise<SettledPaymentRow[]> {
  return sql<SettledPaymentRow[]>`
    select p.id as "paymentId", p.paid_at as "paidAt", p.amount_cents as "amountCents", p.invoice_id as "invoiceId",
      coalesce((select sum(x.amount_cents) from ${sql.unsafe(RETURNED)}), 0)::int as "returnedCents",
      coalesce(array(select t.bid from unnest(p.booking_ids) as t(bid)
        where not exists (select 1 from ${sql.unsafe(RETURNED)} and t.bid = any(x.booking_ids))), '{}') as "bookingIds",
      i.payout_id as "payoutId"
    from payments p
    left join payout_items i on i.kind = 'CARD' and i.payment_id = p.id
    where p.business_id = ${businessId} and p.status = 'PAID' and p.paid_at is not null
      ${range.from ? sql`and p.paid_at >= ${range.from}` : sql``}
      ${range.before ? sql`and p.paid_at < ${range.before}` : sql``}
      ${range.notInPayout ? sql`and i.payout_id is null` : sql``}
    order by p.paid_at, p.id`;
}

/** A card booking whose money went back to the client (REFUND_REQUESTED or REFUNDED) and the payment that had paid it. */
export interface RefundedBookingRow {
  bookingId: string;
  paymentId: string;
  /** The payout the paying payment is in, if any. */
  paymentPayoutId: string | null;
}

/** Refunded card bookings of a business that are in no payout yet, with the settled payment that had paid each. */
export async function listRefundsNotPaidOut(
  sql: Queryable,
  businessId: string,
): Promise<RefundedBookingRow[]> {
  return sql<RefundedBookingRow[]>`
    select b.id as "bookingId", p.id as "paymentId", ci.payout_id as "paymentPayoutId"
    from bookings b
    join payments p on p.business_id = b.business_id and p.status = 'PAID' and b.id = any(p.booking_ids)
      and not exists (select 1 from ${sql.unsafe(RETURNED)} and b.id = any(x.booking_ids))
    left join payout_items ci on ci.kind = 'CARD' and ci.payment_id = p.id
    where b.business_id = ${businessId} and b.payment_method = 'CARD'
      and b.payment_status in ('REFUND_REQUESTED', 'REFUNDED')
      and not exists (select 1 from payout_items r where r.kind = 'REFUND' and r.booking_id = b.id)
    order by p.paid_at, b.id`;
}

/** Ids of the cash bookings of a business that are DONE and began in [from, before). */
export async function listDoneCashBookingIds(
  sql: Queryable,
  businessId: string,
  from: Date,
  before: Date,
): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select id from bookings where business_id = ${businessId} and payment_method = 'CASH' and status = 'DONE'
      and starts_at >= ${from} and starts_at < ${before}
    order by starts_at, id`;
  return rows.map((r) => r.id);
}

export interface PayoutRow {
  id: string;
  businessId: string;
  currency: string;
  /** Local dates, YYYY-MM-DD. */
  throughDate: string;
  firstPaidDate: string | null;
  lastPaidDate: string | null;
  cardCents: number;
  feeCents: number;
  refundCents: number;
  amountCents: number;
  status: 'CREATED' | 'PAID';
  note: string | null;
  createdAt: Date;
  createdBy: string;
  paidAt: Date | null;
  paidBy: string | null;
  payments: number;
  refunds: number;
}

export interface NewPayoutItem {
  kind: 'CARD' | 'REFUND';
  paymentId: string;
  bookingId: string | null;
  amountCents: number;
  feeCents: number;
}

const PAYOUT_COLUMNS = `o.id, o.business_id as "businessId", o.currency, o.through_date::text as "throughDate",
  o.first_paid_date::text as "firstPaidDate", o.last_paid_date::text as "lastPaidDate", o.card_cents as "cardCents",
  o.fee_cents as "feeCents", o.refund_cents as "refundCents", o.amount_cents as "amountCents", o.status, o.note,
  o.created_at as "createdAt", o.created_by as "createdBy", o.paid_at as "paidAt", o.paid_by as "paidBy",
  (select count(*) from payout_items i where i.payout_id = o.id and i.kind = 'CARD')::int as payments,
  (select count(*) from payout_items i where i.payout_id = o.id and i.kind = 'REFUND')::int as refunds`;

/**
 * Serialises the payouts of one business for the rest of the transaction, so two `payout create`
 * at once compute from the same state one after the other (the unique indexes hold anyway).
 */
export async function lockPayoutsOf(sql: Queryable, businessId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`payouts:${businessId}`}))`;
}

/** A payout with its items; the totals are the items' (the table checks amount = card - fees - refunds). */
export async function insertPayout(
  sql: Queryable,
  p: {
    businessId: string;
    currency: string;
    throughDate: string;
    firstPaidDate: string | null;
    lastPaidDate: string | null;
    createdBy: string;
  },
  items: NewPayoutItem[],
  now: Date,
): Promise<PayoutRow> {
  const id = newId('pout');
  const card = items.filter((i) => i.kind === 'CARD');
  const cardCents = card.reduce((s, i) => s + i.amountCents, 0);
  const feeCents = card.reduce((s, i) => s + i.feeCents, 0);
  const refundCents = items.filter((i) => i.kind === 'REFUND').reduce((s, i) => s + i.amountCents, 0);
  await sql`
    insert into payouts (id, business_id, currency, through_date, first_paid_date, last_paid_date, card_cents, fee_cents,
      refund_cents, amount_cents, created_at, created_by)
    values (${id}, ${p.businessId}, ${p.currency}, ${p.throughDate}, ${p.firstPaidDate}, ${p.lastPaidDate}, ${cardCents},
      ${feeCents}, ${refundCents}, ${cardCents - feeCents - refundCents}, ${now}, ${p.createdBy})`;
  for (const i of items) {
    await sql`
      insert into payout_items (payout_id, business_id, kind, payment_id, booking_id, amount_cents, fee_cents)
      values (${id}, ${p.businessId}, ${i.kind}, ${i.paymentId}, ${i.bookingId}, ${i.amountCents}, ${i.feeCents})`;
  }
  return (await findPayout(sql, id))!;
}

export async function findPayout(
  sql: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<PayoutRow | null> {
  const [row] = await sql<PayoutRow[]>`
    select ${sql.unsafe(PAYOUT_COLUMNS)} from payouts o where o.id = ${id}
    ${options.forUpdate ? sql`for update of o` : sql``}`;
  return row ?? null;
}

/** A CREATED payout becomes PAID with the operator's reference; the row as it now is (null if none was CREATED). */
export async function markPayoutPaid(
  sql: Queryable,
  id: string,
  note: string,
  by: string,
  now: Date,
): Promise<PayoutRow | null> {
  const rows = await sql`
    update payouts set status = 'PAID', note = ${note}, paid_at = ${now}, paid_by = ${by}
    where id = ${id} and status = 'CREATED' returning id`;
  return rows.length ? findPayout(sql, id) : null;
}

/** A business's payouts, newest first, after the (createdAt, id) of a previous page's last. */
export async function listPayouts(
  sql: Queryable,
  businessId: string,
  page: { limit: number; after?: { createdAt: Date; id: string } },
): Promise<PayoutRow[]> {
  return sql<PayoutRow[]>`
    select ${sql.unsafe(PAYOUT_COLUMNS)} from payouts o where o.business_id = ${businessId}
      ${page.after ? sql`and (o.created_at, o.id) < (${page.after.createdAt}, ${page.after.id})` : sql``}
    order by o.created_at desc, o.id desc limit ${page.limit}`;
}

/** Everything paid out to a business so far (PAID payouts) and what is made but not yet paid (CREATED). */
export async function payoutTotals(
  sql: Queryable,
  businessId: string,
): Promise<{ paidCents: number; createdCents: number; paid: number; created: number }> {
  const [row] = await sql<{ paidCents: number; createdCents: number; paid: number; created: number }[]>`
    select coalesce(sum(amount_cents) filter (where status = 'PAID'), 0)::float8 as "paidCents",
      coalesce(sum(amount_cents) filter (where status = 'CREATED'), 0)::float8 as "createdCents",
      count(*) filter (where status = 'PAID')::int as paid, count(*) filter (where status = 'CREATED')::int as created
    from payouts where business_id = ${businessId}`;
  return row!;
}

/** One thing a client owes a business: cash due for a job done, a card pay link not paid, an open invoice. */
export interface UnpaidItemRow {
  clientId: string | null;
  kind: 'CASH_DUE' | 'CARD_LINK' | 'INVOICE';
  bookingId: string | null;
  invoiceId: string | null;
  amountCents: number;
  /** When it was due: the booking's start (cash on the day, card before it), or the invoice's due date (else its making). */
  dueAt: Date;
  /** An invoice's own due date (a local date), when it has one. */
  dueDate: string | null;
  lineId: string | null;
  description: string | null;
}

/**
 * What the clients of a business owe (the balance rule, `UNPAID_CASH` and `UNPAID_CARD`): cash due
 * of bookings whose time is over, card bookings waiting for payment, and open invoices; oldest first.
 */
export async function listUnpaidItems(
  sql: Queryable,
  businessId: string,
  now: Date,
  limit = 5000,
): Promise<UnpaidItemRow[]> {
  return sql<UnpaidItemRow[]>`
    select * from (
      select b.business_client_id as "clientId", 'CASH_DUE' as kind, b.id as "bookingId", null as "invoiceId",
        b.total_cents as "amountCents", b.starts_at as "dueAt", null as "dueDate", b.line_id as "lineId", null as description
      from bookings b
      where b.business_id = ${businessId} and ${sql.unsafe(UNPAID_CASH)} and b.ends_at <= ${now}
      union all
      select b.business_client_id, 'CARD_LINK', b.id, null, b.total_cents, b.starts_at, null, b.line_id, null
      from bookings b
      where b.business_id = ${businessId} and ${sql.unsafe(UNPAID_CARD)}
      union all
      select i.client_id, 'INVOICE', null, i.id, i.amount_cents, i.created_at, i.due_date::text, null, i.description
      from invoices i
      where i.business_id = ${businessId} and i.status = 'OPEN'
    ) u
    order by "dueAt", coalesce("bookingId", "invoiceId")
    limit ${limit}`;
}

/** A business's service lines and their labels, in its order. */
export async function listLineLabels(
  sql: Queryable,
  businessId: string,
): Promise<{ id: string; label: string }[]> {
  return sql<{ id: string; label: string }[]>`
    select id, label from service_lines where business_id = ${businessId} order by sort, id`;
}
