// Bookings: booking rows, resource and group-walk locks, and the queries over bookings (upcoming, series, holds, finished).
import { type AuditEntry, auditInsert } from './audit.js';
import { newId } from './ids.js';
import { type NewPayLink, paymentInsert } from './payments.js';
import type { Queryable } from './sql.js';

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

export type NewBooking = Omit<BookingRow, 'id' | 'createdAt'> & {
  id?: string;
  /** The person's saved pets it names (their address is `addressId`): held while it is written. */
  savedPetIds?: string[];
  /**
   * The business's client it is for; left out, the database links the account's client (migration
   * 0023). A client without an account (a walk-in booked by the business) is named here.
   */
  businessClientId?: string | null;
};

/** A saved pet or address the booking names was removed while it was being made (bookings_hold_saved). */
export function isSavedRowGone(err: unknown): boolean {
  return (err as { code?: string })?.code === 'NPGON';
}

/** PostgreSQL's exclusion_violation: the resource is already booked at that time. */
export function isSlotConflict(err: unknown): boolean {
  return (err as { code?: string })?.code === '23P01';
}

/** The insert of one booking, returning its row: a statement alone, or a step of a larger one. */
function bookingInsert(sql: Queryable, id: string, b: NewBooking, now: Date) {
  return sql`
    insert into bookings (id, business_id, user_id, resource_id, line_id, status, payment_method, payment_status, starts_at, ends_at,
      group_key, share_key, group_size, total_cents, details, client_name, client_id, address_id, series_id, notes, hold_until, business_client_id, created_at, updated_at)
    values (
      -- Holds the saved pets and address it names, or fails NPGON when one was removed.
      case when bookings_hold_saved(${b.userId}, ${b.savedPetIds ?? []}::text[], ${b.addressId}) then ${id}::text end,
      ${b.businessId}, ${b.userId}, ${b.resourceId}, ${b.lineId}, ${b.status}, ${b.paymentMethod}, ${b.paymentStatus}, ${b.start}, ${b.end},
      ${b.groupKey}, ${b.groupKey ? shareKey(b.groupKey, b.start, b.end) : null}, ${b.groupSize}, ${b.totalCents}, ${sql.json(b.details as never)},
      ${b.clientName}, ${b.clientId}, ${b.addressId}, ${b.seriesId}, ${b.notes}, ${b.holdUntil}, ${b.businessClientId ?? null}, ${now}, ${now})
    returning ${sql.unsafe(COLUMNS)}`;
}

/**
 * Inserts a booking. The database refuses a double booking of the resource (exclusion
 * constraint); that surfaces as an error for which `isSlotConflict` is true.
 */
export async function insertBooking(sql: Queryable, b: NewBooking, now: Date): Promise<BookingRow> {
  const [row] = await sql<BookingRow[]>`${bookingInsert(sql, b.id ?? newId('bkg'), b, now)}`;
  return row!;
}

/**
 * One booking, its audit record and, for a card booking, its pay link (made for this booking
 * alone, so it has no earlier link to replace), written by one statement: all of them or none (a
 * statement is atomic without a transaction), in one round trip. A double booking is refused by
 * the exclusion constraint as in `insertBooking`.
 */
export async function insertBookingWithLink(
  sql: Queryable,
  b: NewBooking & { id: string },
  audit: AuditEntry,
  link: NewPayLink | null,
  now: Date,
): Promise<BookingRow> {
  const payment = link
    ? sql`, p as (${paymentInsert(sql, { ...link, businessId: b.businessId, userId: b.userId, bookingIds: [b.id] }, now)})`
    : sql``;
  const [row] = await sql<BookingRow[]>`
    with b as (${bookingInsert(sql, b.id, b, now)}), a as (${auditInsert(sql, audit, now)})${payment}
    select * from b`;
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
export async function lockGroupWalk(
  sql: Queryable,
  businessId: string,
  resourceId: string,
  key: string,
): Promise<number> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${businessId}/${resourceId}/${key}`}, 0))`;
  const [row] = await sql<{ taken: number }[]>`
    select coalesce(sum(group_size), 0)::int as taken from bookings
    where business_id = ${businessId} and resource_id = ${resourceId} and share_key = ${key} and status in ('PENDING', 'ACCEPTED')`;
  return row!.taken;
}

export async function findBooking(
  sql: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<BookingRow | null> {
  const [row] = await sql<
    BookingRow[]
  >`select ${sql.unsafe(COLUMNS)} from bookings where id = ${id} ${options.forUpdate ? sql`for update` : sql``}`;
  return row ?? null;
}

export async function findBookings(
  sql: Queryable,
  ids: string[],
  options: { forUpdate?: boolean } = {},
): Promise<BookingRow[]> {
  if (!ids.length) return [];
  return sql<
    BookingRow[]
  >`select ${sql.unsafe(COLUMNS)} from bookings where id = any(${ids}) order by starts_at, id ${options.forUpdate ? sql`for update` : sql``}`;
}

/** A live booking at `now`: pending or accepted, not yet ended (it holds its time and what it names). */
export function liveAt(sql: Queryable, now: Date) {
  return sql`status in ('PENDING', 'ACCEPTED') and ends_at > ${now}`;
}

/** A person's upcoming bookings (pending or accepted, not yet ended), soonest first. */
export async function listUpcomingBookings(
  sql: Queryable,
  userId: string,
  now: Date,
  limit: number,
): Promise<BookingRow[]> {
  return sql<BookingRow[]>`
    select ${sql.unsafe(COLUMNS)} from bookings
    where user_id = ${userId} and ${liveAt(sql, now)}
    order by starts_at, id limit ${limit}`;
}

/**
 * A person's other bookings: ended, cancelled or lapsed, the latest start first (what
 * listUpcomingBookings leaves out).
 */
export async function listEarlierBookings(
  sql: Queryable,
  userId: string,
  now: Date,
  limit: number,
): Promise<BookingRow[]> {
  return sql<BookingRow[]>`
    select ${sql.unsafe(COLUMNS)} from bookings
    where user_id = ${userId} and not (${liveAt(sql, now)})
    order by starts_at desc, id desc limit ${limit}`;
}

/** Bookings in one payment state (REFUND_REQUESTED: refunds the operator owes), oldest change first. */
export async function listBookingsByPaymentStatus(
  sql: Queryable,
  paymentStatus: BookingRow['paymentStatus'],
  limit = 500,
): Promise<BookingRow[]> {
  return sql<BookingRow[]>`
    select ${sql.unsafe(COLUMNS)} from bookings where payment_status = ${paymentStatus} order by updated_at, id limit ${limit}`;
}

/** Later live bookings of a series (after `after`). */
export async function listSeriesBookings(
  sql: Queryable,
  seriesId: string,
  after: Date,
): Promise<BookingRow[]> {
  return sql<BookingRow[]>`
    select ${sql.unsafe(COLUMNS)} from bookings
    where series_id = ${seriesId} and starts_at > ${after} and status in ('PENDING', 'ACCEPTED')
    order by starts_at for update`;
}

export async function updateBooking(
  sql: Queryable,
  id: string,
  change: Partial<
    Pick<BookingRow, 'status' | 'paymentStatus' | 'start' | 'end' | 'resourceId' | 'holdUntil'>
  >,
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

/** Holds a booking's time at least until `until` (a hold is never shortened). */
export async function extendHold(sql: Queryable, bookingId: string, until: Date, now: Date): Promise<void> {
  await sql`update bookings set hold_until = greatest(hold_until, ${until}), updated_at = ${now} where id = ${bookingId}`;
}

/** The first booking (by start) of a weekly series, if any. */
export async function firstSeriesBooking(sql: Queryable, seriesId: string): Promise<BookingRow | null> {
  const [row] = await sql<
    { id: string }[]
  >`select id from bookings where series_id = ${seriesId} order by starts_at limit 1`;
  return row ? findBooking(sql, row.id) : null;
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

/** A confirmed booking that may be due its reminder: when it starts, in which zone, when it was made. */
export interface BookingToRemind {
  id: string;
  start: Date;
  timeZone: string;
  createdAt: Date;
}

/**
 * Confirmed bookings starting after `now` and within `withinHours`, not yet reminded for their
 * current start, soonest first (the reminder rule decides which are due now).
 */
export async function listBookingsToRemind(
  sql: Queryable,
  now: Date,
  withinHours: number,
  limit = 500,
): Promise<BookingToRemind[]> {
  return sql<BookingToRemind[]>`
    select b.id, b.starts_at as "start", z.timezone as "timeZone", b.created_at as "createdAt"
    from bookings b join businesses z on z.id = b.business_id
    where b.status = 'ACCEPTED' and b.starts_at > ${now}
      and b.starts_at <= ${new Date(now.getTime() + withinHours * 3_600_000)}
      and not exists (select 1 from booking_reminders r where r.booking_id = b.id and r.starts_at = b.starts_at)
    order by b.starts_at limit ${limit}`;
}

/** Claims the reminder of a booking at this start: false when it was already written. */
export async function claimBookingReminder(
  sql: Queryable,
  bookingId: string,
  startsAt: Date,
  now: Date,
): Promise<boolean> {
  const rows = await sql`insert into booking_reminders (booking_id, starts_at, reminded_at)
    values (${bookingId}, ${startsAt}, ${now}) on conflict do nothing returning booking_id`;
  return rows.length === 1;
}

/** An unpaid card booking or order whose pay deadline is near: when it lapses and when it was made. */
export interface PaymentToRemind {
  id: string;
  payUntil: Date;
  openedAt: Date;
}

/**
 * Unpaid card bookings (still holding their time) and unpaid card orders whose deadline is after
 * `now` and within `withinHours`, not yet told for that deadline, soonest first.
 */
export async function listPaymentsToRemind(
  sql: Queryable,
  now: Date,
  withinHours: number,
  limit = 500,
): Promise<{ bookings: PaymentToRemind[]; orders: PaymentToRemind[] }> {
  const until = new Date(now.getTime() + withinHours * 3_600_000);
  const bookings = await sql<PaymentToRemind[]>`
    select b.id, b.hold_until as "payUntil", b.created_at as "openedAt" from bookings b
    where b.status = 'PENDING' and b.payment_method = 'CARD' and b.payment_status = 'PENDING'
      and b.hold_until > ${now} and b.hold_until <= ${until}
      and not exists (select 1 from pay_reminders r where r.subject_id = b.id and r.pay_until = b.hold_until)
    order by b.hold_until limit ${limit}`;
  const orders = await sql<PaymentToRemind[]>`
    select o.id, o.expires_at as "payUntil", o.created_at as "openedAt" from orders o
    where o.status = 'PENDING_PAYMENT' and o.expires_at > ${now} and o.expires_at <= ${until}
      and not exists (select 1 from pay_reminders r where r.subject_id = o.id and r.pay_until = o.expires_at)
    order by o.expires_at limit ${limit}`;
  return { bookings, orders };
}

/** Claims the pay reminder of a booking or order for this deadline: false when it was already written. */
export async function claimPayReminder(
  sql: Queryable,
  subjectId: string,
  payUntil: Date,
  now: Date,
): Promise<boolean> {
  const rows = await sql`insert into pay_reminders (subject_id, pay_until, reminded_at)
    values (${subjectId}, ${payUntil}, ${now}) on conflict do nothing returning subject_id`;
  return rows.length === 1;
}
