import { newId } from './ids.js';
import type { Queryable, Sql } from './sql.js';

/** Bookings of one group walk at the same times share their walker; they carry this key. */
export function shareKey(groupKey: string, start: Date, end: Date): string {
  return `${groupKey}@${Math.floor(start.getTime() / 1000)}/${Math.floor(end.getTime() / 1000)}`;
}

export interface BookingRow {
  id: string;
  businessId: string;
  userId: string | null;
  resourceId: string;
  lineId: string;
  status: 'PENDING' | 'ACCEPTED' | 'CANCELLED' | 'EXPIRED' | 'DONE';
  paymentMethod: 'CARD' | 'CASH';
  paymentStatus: 'PENDING' | 'PAID' | 'CASH_DUE' | 'REFUND_REQUESTED' | 'REFUNDED' | 'VOID';
  start: Date;
  end: Date;
  groupKey: string | null;
  groupSize: number;
  totalCents: number;
  details: Record<string, unknown>;
  clientName: string | null;
  clientId: string | null;
  addressId: string | null;
  seriesId: string | null;
  notes: string;
  holdUntil: Date | null;
  createdAt: Date;
}

const COLUMNS = `id, business_id as "businessId", user_id as "userId", resource_id as "resourceId", line_id as "lineId", status,
  payment_method as "paymentMethod", payment_status as "paymentStatus", starts_at as "start", ends_at as "end",
  group_key as "groupKey", group_size as "groupSize", total_cents as "totalCents", details, client_name as "clientName",
  client_id as "clientId", address_id as "addressId", series_id as "seriesId", notes, hold_until as "holdUntil", created_at as "createdAt"`;

export type NewBooking = Omit<BookingRow, 'id' | 'createdAt'> & { id?: string };

/** PostgreSQL's exclusion_violation: the resource is already booked at that time. */
export function isSlotConflict(err: unknown): boolean {
  return (err as { code?: string })?.code === '23P01';
}

/**
 * Inserts a booking. The database refuses a double booking of the resource (exclusion
 * constraint); that surfaces as an error for which `isSlotConflict` is true.
 */
export async function insertBooking(sql: Queryable, b: NewBooking, now: Date): Promise<BookingRow> {
  const id = b.id ?? newId('bkg');
  const [row] = await sql<BookingRow[]>`
    insert into bookings (id, business_id, user_id, resource_id, line_id, status, payment_method, payment_status, starts_at, ends_at,
      group_key, share_key, group_size, total_cents, details, client_name, client_id, address_id, series_id, notes, hold_until, created_at, updated_at)
    values (${id}, ${b.businessId}, ${b.userId}, ${b.resourceId}, ${b.lineId}, ${b.status}, ${b.paymentMethod}, ${b.paymentStatus}, ${b.start}, ${b.end},
      ${b.groupKey}, ${b.groupKey ? shareKey(b.groupKey, b.start, b.end) : null}, ${b.groupSize}, ${b.totalCents}, ${sql.json(b.details as never)},
      ${b.clientName}, ${b.clientId}, ${b.addressId}, ${b.seriesId}, ${b.notes}, ${b.holdUntil}, ${now}, ${now})
    returning ${sql.unsafe(COLUMNS)}`;
  return row!;
}

/**
 * Serialises writers of one resource's calendar for the rest of the transaction. Concurrent
 * inserts that conflict under an exclusion constraint can deadlock one another; queued on this
 * lock they do not, and the constraint still decides who gets the time.
 */
export async function lockResource(sql: Queryable, businessId: string, resourceId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`booking/${businessId}/${resourceId}`}, 0))`;
}

/** PostgreSQL's deadlock_detected or serialization failure: the other writer won. */
export function isWriteConflict(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === '40P01' || code === '40001';
}

/** Serialises bookings into one group walk, so its capacity holds under concurrency. */
export async function lockGroupWalk(sql: Queryable, businessId: string, resourceId: string, key: string): Promise<number> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${businessId}/${resourceId}/${key}`}, 0))`;
  const [row] = await sql<{ taken: number }[]>`
    select coalesce(sum(group_size), 0)::int as taken from bookings
    where business_id = ${businessId} and resource_id = ${resourceId} and share_key = ${key} and status in ('PENDING', 'ACCEPTED')`;
  return row!.taken;
}

export async function findBooking(sql: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<BookingRow | null> {
  const [row] = await sql<BookingRow[]>`select ${sql.unsafe(COLUMNS)} from bookings where id = ${id} ${options.forUpdate ? sql`for update` : sql``}`;
  return row ?? null;
}

export async function findBookings(sql: Queryable, ids: string[], options: { forUpdate?: boolean } = {}): Promise<BookingRow[]> {
  if (!ids.length) return [];
  return sql<BookingRow[]>`select ${sql.unsafe(COLUMNS)} from bookings where id = any(${ids}) order by starts_at, id ${options.forUpdate ? sql`for update` : sql``}`;
}

/** A person's upcoming bookings (pending or accepted, not yet ended), soonest first. */
export async function listUpcomingBookings(sql: Queryable, userId: string, now: Date, limit: number): Promise<BookingRow[]> {
  return sql<BookingRow[]>`
    select ${sql.unsafe(COLUMNS)} from bookings
    where user_id = ${userId} and status in ('PENDING', 'ACCEPTED') and ends_at > ${now}
    order by starts_at, id limit ${limit}`;
}

/** Bookings in one payment state (REFUND_REQUESTED: refunds the operator owes), oldest change first. */
export async function listBookingsByPaymentStatus(sql: Queryable, paymentStatus: BookingRow['paymentStatus'], limit = 500): Promise<BookingRow[]> {
  return sql<BookingRow[]>`
    select ${sql.unsafe(COLUMNS)} from bookings where payment_status = ${paymentStatus} order by updated_at, id limit ${limit}`;
}

/** Later live bookings of a series (after `after`). */
export async function listSeriesBookings(sql: Queryable, seriesId: string, after: Date): Promise<BookingRow[]> {
  return sql<BookingRow[]>`
    select ${sql.unsafe(COLUMNS)} from bookings
    where series_id = ${seriesId} and starts_at > ${after} and status in ('PENDING', 'ACCEPTED')
    order by starts_at for update`;
}

export async function updateBooking(
  sql: Queryable,
  id: string,
  change: Partial<Pick<BookingRow, 'status' | 'paymentStatus' | 'start' | 'end' | 'resourceId' | 'holdUntil'>>,
  now: Date,
): Promise<void> {
  const set: Record<string, unknown> = { updated_at: now };
  if (change.status) set.status = change.status;
  if (change.paymentStatus) set.payment_status = change.paymentStatus;
  if (change.start) set.starts_at = change.start;
  if (change.end) set.ends_at = change.end;
  if (change.resourceId) set.resource_id = change.resourceId;
  if (change.holdUntil !== undefined) set.hold_until = change.holdUntil;
  await sql`update bookings set ${sql(set as never, Object.keys(set) as never)} where id = ${id}`;
  if (change.start || change.end) {
    // Keep a group walk's share key in step with its times.
    await sql`update bookings set share_key = case when group_key is null then null
      else group_key || '@' || (extract(epoch from starts_at)::bigint)::text || '/' || (extract(epoch from ends_at)::bigint)::text end
      where id = ${id}`;
  }
}

/** Unpaid card bookings made without a pay link (a series' later weeks) hold their time until they start. */
export async function holdUntilStart(sql: Queryable, bookingIds: string[]): Promise<void> {
  await sql`update bookings set hold_until = starts_at where id = any(${bookingIds}) and payment_status = 'PENDING'`;
}

/** Unpaid card bookings whose hold has lapsed. */
export async function listLapsedHolds(sql: Queryable, now: Date, limit = 500): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select id from bookings where status in ('PENDING', 'ACCEPTED') and payment_method = 'CARD' and payment_status = 'PENDING'
      and hold_until is not null and hold_until <= ${now}
    order by hold_until limit ${limit}`;
  return rows.map((r) => r.id);
}

/**
 * Live bookings whose end has passed, earliest first: the worker marks them DONE. An unpaid card
 * booking is left to the hold rule (it expires; it was never confirmed).
 */
export async function listFinishedBookings(sql: Queryable, now: Date, limit = 500): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select id from bookings where status in ('PENDING', 'ACCEPTED') and ends_at <= ${now}
      and not (payment_method = 'CARD' and payment_status = 'PENDING')
    order by ends_at limit ${limit}`;
  return rows.map((r) => r.id);
}

// Series ------------------------------------------------------------------------------------

export interface SeriesRow {
  id: string;
  userId: string;
  businessId: string;
  template: Record<string, unknown>;
  bookedUntil: Date;
  cancelledAt: Date | null;
}

export async function insertSeries(sql: Queryable, s: Omit<SeriesRow, 'id' | 'cancelledAt'>): Promise<string> {
  const id = newId('ser');
  await sql`insert into booking_series (id, user_id, business_id, template, booked_until)
    values (${id}, ${s.userId}, ${s.businessId}, ${sql.json(s.template as never)}, ${s.bookedUntil})`;
  return id;
}

export async function listOpenSeries(sql: Queryable, before: Date): Promise<SeriesRow[]> {
  return sql<SeriesRow[]>`
    select id, user_id as "userId", business_id as "businessId", template, booked_until as "bookedUntil", cancelled_at as "cancelledAt"
    from booking_series where cancelled_at is null and booked_until < ${before} order by id`;
}

export async function lockSeries(sql: Queryable, id: string): Promise<SeriesRow | null> {
  const [row] = await sql<SeriesRow[]>`
    select id, user_id as "userId", business_id as "businessId", template, booked_until as "bookedUntil", cancelled_at as "cancelledAt"
    from booking_series where id = ${id} for update`;
  return row ?? null;
}

export async function setSeriesBookedUntil(sql: Queryable, id: string, until: Date): Promise<void> {
  await sql`update booking_series set booked_until = greatest(booked_until, ${until}) where id = ${id}`;
}

export async function cancelSeries(sql: Queryable, id: string, now: Date): Promise<void> {
  await sql`update booking_series set cancelled_at = coalesce(cancelled_at, ${now}) where id = ${id}`;
}

// Payments ----------------------------------------------------------------------------------

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

export async function insertPayment(
  sql: Queryable,
  p: Omit<PaymentRow, 'id' | 'status' | 'gatewayRef' | 'paidAt'> & { linkTokenHash: string },
  now: Date,
): Promise<PaymentRow> {
  // A new link replaces the open ones of the same bookings.
  await sql`update payments set status = 'SUPERSEDED' where status in ('OPEN', 'FAILED') and booking_ids && ${p.bookingIds}`;
  const [row] = await sql<PaymentRow[]>`
    insert into payments (id, business_id, user_id, booking_ids, amount_cents, currency, gateway, link_token_hash, expires_at, created_at)
    values (${newId('pay')}, ${p.businessId}, ${p.userId}, ${p.bookingIds}, ${p.amountCents}, ${p.currency}, ${p.gateway}, ${p.linkTokenHash}, ${p.expiresAt}, ${now})
    returning ${sql.unsafe(PAYMENT_COLUMNS)}`;
  return row!;
}

export async function findPayment(sql: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<PaymentRow | null> {
  const [row] = await sql<PaymentRow[]>`select ${sql.unsafe(PAYMENT_COLUMNS)} from payments where id = ${id} ${options.forUpdate ? sql`for update` : sql``}`;
  return row ?? null;
}

/** Payments in one status, oldest first (the operator's refunds of double payments). */
export async function listPaymentsByStatus(sql: Queryable, status: PaymentRow['status'], limit = 500): Promise<PaymentRow[]> {
  return sql<PaymentRow[]>`select ${sql.unsafe(PAYMENT_COLUMNS)} from payments where status = ${status} order by paid_at nulls last, id limit ${limit}`;
}

/** Open pay links that include any of these bookings stop working (a booking among them closed). */
export async function supersedePayments(sql: Queryable, bookingIds: string[]): Promise<number> {
  const rows = await sql`update payments set status = 'SUPERSEDED' where status in ('OPEN', 'FAILED') and booking_ids && ${bookingIds} returning id`;
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
    const [sum] = await sql<{ cents: number }[]>`select coalesce(sum(total_cents), 0)::int as cents from bookings where id = any(${rest})`;
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

/**
 * The part of a confirmed payment that is owed back: the share of bookings another payment had
 * already paid. A payment row of its own (REFUND_DUE, no link, the same gateway reference), so
 * `refund list` shows exactly that amount and those bookings and `refund done pay_…` closes it.
 */
export async function insertRefundDue(sql: Queryable, r: { of: PaymentRow; bookingIds: string[]; amountCents: number; gatewayRef: string }, now: Date): Promise<PaymentRow> {
  const id = newId('pay');
  const [row] = await sql<PaymentRow[]>`
    insert into payments (id, business_id, user_id, booking_ids, amount_cents, currency, gateway, status, link_token_hash, expires_at, gateway_ref, paid_at, part_of, created_at)
    values (${id}, ${r.of.businessId}, ${r.of.userId}, ${r.bookingIds}, ${r.amountCents}, ${r.of.currency}, ${r.of.gateway}, 'REFUND_DUE',
      null, ${now}, ${r.gatewayRef}, ${now}, ${r.of.id}, ${now})
    returning ${sql.unsafe(PAYMENT_COLUMNS)}`;
  return row!;
}

export async function findPaymentByLink(sql: Queryable, linkTokenHash: string): Promise<PaymentRow | null> {
  const [row] = await sql<PaymentRow[]>`select ${sql.unsafe(PAYMENT_COLUMNS)} from payments where link_token_hash = ${linkTokenHash}`;
  return row ?? null;
}

export async function setPaymentStatus(sql: Queryable, id: string, status: PaymentRow['status'], now: Date, gatewayRef?: string): Promise<void> {
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

// Idempotency -------------------------------------------------------------------------------

/**
 * Holds (user, key) for the rest of the transaction; false when another transaction holds it (the
 * first request with the key is still running). The lock ends with the transaction, so a request
 * whose process died frees its key as soon as PostgreSQL sees the connection close.
 */
export async function lockIdempotencyKey(tx: Queryable, userId: string, key: string): Promise<boolean> {
  const [row] = await tx<{ locked: boolean }[]>`
    select pg_try_advisory_xact_lock(${IDEMPOTENCY_LOCK_CLASS}, hashtext(${userId} || ':' || ${key})) as locked`;
  return row?.locked === true;
}

/** The advisory-lock class of Idempotency-Keys (two-key locks never meet the one-key locks of resources). */
const IDEMPOTENCY_LOCK_CLASS = 7_041_101;

export interface IdempotentAnswer {
  operation: string;
  requestHash: string;
  status: number;
  response: unknown;
}

/** The answer kept for (user, key), if its request finished. */
export async function findIdempotentAnswer(tx: Queryable, userId: string, key: string): Promise<IdempotentAnswer | null> {
  const [row] = await tx<{ operation: string; requestHash: string; status: number | null; response: unknown }[]>`
    select operation, request_hash as "requestHash", status, response from idempotency_keys where user_id = ${userId} and key = ${key}`;
  if (!row) return null;
  if (row.status === null) {
    // A claim left by the release before answers were kept with their change: nothing answered it.
    await tx`delete from idempotency_keys where user_id = ${userId} and key = ${key} and status is null`;
    return null;
  }
  return { operation: row.operation, requestHash: row.requestHash, status: row.status, response: row.response };
}

/** Keeps the answer to (user, key); in the transaction of the change it answers. */
export async function saveIdempotentAnswer(
  tx: Queryable,
  a: { userId: string; key: string; operation: string; requestHash: string; status: number; response: unknown; at: Date },
): Promise<void> {
  await tx`insert into idempotency_keys (user_id, key, operation, request_hash, status, response, created_at)
    values (${a.userId}, ${a.key}, ${a.operation}, ${a.requestHash}, ${a.status}, ${tx.json(a.response as never)}, ${a.at})`;
}

export async function purgeIdempotencyKeys(sql: Sql, before: Date): Promise<number> {
  const rows = await sql`delete from idempotency_keys where created_at < ${before} returning 1`;
  return rows.length;
}

/** A service-wide setting, made by `make` the first time it is asked for (the same for every instance). */
export async function settingOrCreate(sql: Queryable, key: string, make: () => string): Promise<string> {
  await sql`insert into settings (key, value) values (${key}, ${make()}) on conflict do nothing`;
  const [row] = await sql<{ value: string }[]>`select value from settings where key = ${key}`;
  return row!.value;
}
