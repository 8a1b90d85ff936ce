// Calendar feeds (migration 0041): a person's private feed addresses, found by the SHA-256 of their
// secret, and the bookings a feed shows.
import { newId } from './ids.js';
import type { Queryable } from './sql.js';

export type CalendarFeedScope = 'mine' | 'my_jobs' | 'business';

export interface CalendarFeedRow {
  id: string;
  userId: string;
  scope: CalendarFeedScope;
  businessId: string | null;
  createdAt: Date;
  rotatedAt: Date | null;
  lastReadAt: Date | null;
}

const FEED_COLUMNS = `id, user_id as "userId", scope, business_id as "businessId", created_at as "createdAt",
  rotated_at as "rotatedAt", last_read_at as "lastReadAt"`;

/** The person's feed of this scope (at this business), if made. */
export async function findCalendarFeed(
  sql: Queryable,
  userId: string,
  scope: CalendarFeedScope,
  businessId: string | null,
  options: { forUpdate?: boolean } = {},
): Promise<CalendarFeedRow | null> {
  const [row] = await sql<CalendarFeedRow[]>`
    select ${sql.unsafe(FEED_COLUMNS)} from calendar_feeds
    where user_id = ${userId} and scope = ${scope} and coalesce(business_id, '') = ${businessId ?? ''}
    ${options.forUpdate ? sql`for update` : sql``}`;
  return row ?? null;
}

/** Every feed the person has made. */
export async function listCalendarFeeds(sql: Queryable, userId: string): Promise<CalendarFeedRow[]> {
  return sql<CalendarFeedRow[]>`
    select ${sql.unsafe(FEED_COLUMNS)} from calendar_feeds where user_id = ${userId} order by created_at, id`;
}

/** Makes the feed unless one of this scope is there already (then null: a call at the same time made it). */
export async function insertCalendarFeed(
  sql: Queryable,
  feed: { userId: string; scope: CalendarFeedScope; businessId: string | null; tokenHash: string },
  now: Date,
): Promise<CalendarFeedRow | null> {
  const [row] = await sql<CalendarFeedRow[]>`
    insert into calendar_feeds (id, user_id, scope, business_id, token_hash, created_at)
    values (${newId('calf')}, ${feed.userId}, ${feed.scope}, ${feed.businessId}, ${feed.tokenHash}, ${now})
    on conflict do nothing
    returning ${sql.unsafe(FEED_COLUMNS)}`;
  return row ?? null;
}

/** A new secret for the feed: the old one's hash is overwritten, so it finds nothing any more. */
export async function rotateCalendarFeedToken(
  sql: Queryable,
  id: string,
  tokenHash: string,
  now: Date,
): Promise<CalendarFeedRow> {
  const [row] = await sql<CalendarFeedRow[]>`
    update calendar_feeds set token_hash = ${tokenHash}, rotated_at = ${now} where id = ${id}
    returning ${sql.unsafe(FEED_COLUMNS)}`;
  return row!;
}

/** The feed whose secret hashes to this, if any. */
export async function findCalendarFeedByHash(
  sql: Queryable,
  tokenHash: string,
): Promise<CalendarFeedRow | null> {
  const [row] = await sql<CalendarFeedRow[]>`
    select ${sql.unsafe(FEED_COLUMNS)} from calendar_feeds where token_hash = ${tokenHash}`;
  return row ?? null;
}

/** Marks a read by a calendar, at most once a minute (calendars poll; a read should cost no write). */
export async function touchCalendarFeed(
  sql: Queryable,
  feed: { id: string; lastReadAt: Date | null },
  now: Date,
): Promise<void> {
  const since = new Date(now.getTime() - 60_000);
  if (feed.lastReadAt && feed.lastReadAt >= since) return;
  await sql`update calendar_feeds set last_read_at = ${now}
    where id = ${feed.id} and (last_read_at is null or last_read_at < ${since})`;
}

/** A booking as a calendar feed shows it. */
export interface FeedBookingRow {
  id: string;
  businessId: string;
  businessName: string;
  resourceId: string;
  resourceName: string;
  lineId: string;
  status: 'PENDING' | 'ACCEPTED' | 'CANCELLED' | 'EXPIRED' | 'DONE';
  paymentMethod: 'CARD' | 'CASH';
  paymentStatus: 'PENDING' | 'PAID' | 'CASH_DUE' | 'REFUND_REQUESTED' | 'REFUNDED' | 'VOID';
  start: Date;
  end: Date;
  totalCents: number;
  details: Record<string, unknown>;
  notes: string;
  clientName: string | null;
  clientPhone: string | null;
  /** The saved address the booking names, if any (else the text in its details). */
  address: { line1: string; suburb: string | null; postalCode: string | null; city: string | null } | null;
  createdAt: Date;
  updatedAt: Date;
  /** How many times it changed as a calendar sees it (moved, accepted, paid, declined, cancelled, lapsed). */
  changes: number;
}

export interface FeedWindow {
  /** Bookings starting in [from, to). */
  from: Date;
  to: Date;
  /** Cancelled and lapsed ones only if changed since then (so subscribed calendars drop them). */
  cancelledSince: Date;
  /** At most this many, the nearest to `now`. */
  limit: number;
  now: Date;
}

/** Whose bookings: a person's own, or a business's (of some resources only, or all: null). */
export type FeedBookingsOf = { userId: string } | { businessId: string; resourceIds: string[] | null };

/** The bookings a feed shows, in start order. */
export async function listFeedBookings(
  sql: Queryable,
  of: FeedBookingsOf,
  w: FeedWindow,
): Promise<FeedBookingRow[]> {
  const whose =
    'userId' in of
      ? sql`b.user_id = ${of.userId}`
      : sql`b.business_id = ${of.businessId} ${of.resourceIds ? sql`and b.resource_id = any(${of.resourceIds}::text[])` : sql``}`;
  return sql<FeedBookingRow[]>`
    select * from (
      select b.id, b.business_id as "businessId", biz.name as "businessName", b.resource_id as "resourceId",
        r.name as "resourceName", b.line_id as "lineId", b.status, b.payment_method as "paymentMethod",
        b.payment_status as "paymentStatus", b.starts_at as "start", b.ends_at as "end",
        b.total_cents as "totalCents", b.details, b.notes, c.name as "clientName", c.phone as "clientPhone",
        case when a.id is null then null else json_build_object('line1', a.line1, 'suburb', a.suburb,
          'postalCode', a.postal_code, 'city', a.city) end as address,
        b.created_at as "createdAt", b.updated_at as "updatedAt",
        (select count(*)::int from domain_events e where e.subject_id = b.id and e.subject_kind = 'booking'
           and e.type in ('booking.moved', 'booking.accepted', 'booking.paid', 'booking.declined',
                          'booking.cancelled', 'booking.expired')) as changes
      from bookings b
      join businesses biz on biz.id = b.business_id
      join resources r on r.business_id = b.business_id and r.id = b.resource_id
      left join business_clients c on c.business_id = b.business_id and c.id = b.business_client_id
      left join addresses a on a.id = b.address_id
      where ${whose} and b.starts_at >= ${w.from} and b.starts_at < ${w.to}
        and (b.status in ('PENDING', 'ACCEPTED', 'DONE') or b.updated_at >= ${w.cancelledSince})
      order by abs(extract(epoch from b.starts_at - ${w.now}::timestamptz)), b.id
      limit ${w.limit}
    ) f order by "start", id`;
}
