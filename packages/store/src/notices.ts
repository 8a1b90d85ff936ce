// What mails to people are made from besides the event (migration 0043): who a booking's or an
// order's person is, a business's staff, its notification settings, and the kinds of optional mail
// a person turned off.
import type { Queryable } from './sql.js';

/** A business as its notices name it. */
export interface NoticeBusinessRow {
  id: string;
  name: string;
  timeZone: string;
  currency: string;
  country: string;
}

export async function noticeBusinesses(q: Queryable, ids: string[]): Promise<NoticeBusinessRow[]> {
  if (!ids.length) return [];
  return q<NoticeBusinessRow[]>`select id, name, timezone as "timeZone", currency, country
    from businesses where id = any(${ids})`;
}

/** A member of a business's staff who can be mailed (their account's address). */
export interface NoticeStaffRow {
  businessId: string;
  userId: string;
  email: string;
  name: string;
  role: 'owner' | 'manager' | 'crew';
  resourceIds: string[];
}

export async function noticeStaff(q: Queryable, businessIds: string[]): Promise<NoticeStaffRow[]> {
  if (!businessIds.length) return [];
  return q<NoticeStaffRow[]>`select m.business_id as "businessId", m.user_id as "userId", u.email, u.name,
      m.role, m.resource_ids as "resourceIds"
    from business_members m join users u on u.id = m.user_id
    where m.business_id = any(${businessIds}) order by m.business_id, m.created_at, m.user_id`;
}

/** Whom a booking or an order concerns: its account, else the business's client's own address. */
export interface NoticePersonRow {
  subjectId: string;
  email: string | null;
  name: string;
  userId: string | null;
}

/** The person of each booking: its account's address, else its client's (which may have none). */
export async function bookingPeople(q: Queryable, bookingIds: string[]): Promise<NoticePersonRow[]> {
  if (!bookingIds.length) return [];
  return q<NoticePersonRow[]>`select b.id as "subjectId", b.user_id as "userId",
      case when b.user_id is not null then u.email else nullif(c.email, '') end as email,
      coalesce(nullif(u.name, ''), nullif(c.name, ''), '') as name
    from bookings b
    left join users u on u.id = b.user_id
    left join business_clients c on c.business_id = b.business_id and c.id = b.business_client_id
    where b.id = any(${bookingIds})`;
}

/** The person of each order: its account's address (orders without an account mail no one). */
export async function orderPeople(q: Queryable, orderIds: string[]): Promise<NoticePersonRow[]> {
  if (!orderIds.length) return [];
  return q<NoticePersonRow[]>`select o.id as "subjectId", o.user_id as "userId", u.email,
      coalesce(nullif(u.name, ''), '') as name
    from orders o left join users u on u.id = o.user_id where o.id = any(${orderIds})`;
}

/** The kinds each business turned off or on (kinds absent are on). */
export async function businessNoticeSettings(
  q: Queryable,
  businessIds: string[],
): Promise<{ businessId: string; kind: string; enabled: boolean }[]> {
  if (!businessIds.length) return [];
  return q<{ businessId: string; kind: string; enabled: boolean }[]>`
    select business_id as "businessId", kind, enabled from business_notice_settings
    where business_id = any(${businessIds})`;
}

export async function setBusinessNoticeSettings(
  q: Queryable,
  businessId: string,
  settings: { kind: string; enabled: boolean }[],
  now: Date,
): Promise<void> {
  for (const s of settings)
    await q`insert into business_notice_settings (business_id, kind, enabled, updated_at)
      values (${businessId}, ${s.kind}, ${s.enabled}, ${now})
      on conflict (business_id, kind) do update set enabled = excluded.enabled, updated_at = excluded.updated_at`;
}

/** The (address, kind) pairs among `emails` that are turned off; addresses compared lowercased. */
export async function noticeOptOuts(
  q: Queryable,
  emails: string[],
): Promise<{ email: string; kind: string }[]> {
  if (!emails.length) return [];
  return q<{ email: string; kind: string }[]>`select email, kind from notice_opt_outs
    where email = any(${emails.map((e) => e.toLowerCase())})`;
}

/** Turns a kind of optional mail off (or back on) for an address. */
export async function setNoticeOptOut(
  q: Queryable,
  email: string,
  kind: string,
  off: boolean,
  via: 'link' | 'account',
  now: Date,
): Promise<void> {
  const key = email.toLowerCase();
  if (off)
    await q`insert into notice_opt_outs (email, kind, at, via) values (${key}, ${kind}, ${now}, ${via})
      on conflict (email, kind) do nothing`;
  else await q`delete from notice_opt_outs where email = ${key} and kind = ${kind}`;
}

export async function insertUnsubscribeLinks(
  q: Queryable,
  links: { tokenHash: string; email: string; kind: string }[],
  now: Date,
): Promise<void> {
  if (!links.length) return;
  const rows = links.map((l) => ({
    token_hash: l.tokenHash,
    email: l.email.toLowerCase(),
    kind: l.kind,
    created_at: now,
  }));
  await q`insert into notice_unsubscribe_links ${q(rows as never)}`;
}

export async function findUnsubscribeLink(
  q: Queryable,
  tokenHash: string,
): Promise<{ email: string; kind: string } | null> {
  const [row] = await q<{ email: string; kind: string }[]>`
    select email, kind from notice_unsubscribe_links where token_hash = ${tokenHash}`;
  return row ?? null;
}

/** The address of an account (the /account page's choices are kept by address, as links are). */
export async function accountEmail(q: Queryable, userId: string): Promise<string | null> {
  const [row] = await q<{ email: string }[]>`select email from users where id = ${userId}`;
  return row?.email ?? null;
}

/** The businesses a person is on the staff of (their business notices are shown on /account). */
export async function isOnAnyStaff(q: Queryable, userId: string): Promise<boolean> {
  const [row] = await q<
    { n: number }[]
  >`select count(*)::int as n from business_members where user_id = ${userId}`;
  return (row?.n ?? 0) > 0;
}

/** Accounts by id, for events that name their person but no booking or order (an applicant, a payment's payer). */
export async function noticeAccounts(
  q: Queryable,
  userIds: string[],
): Promise<{ userId: string; email: string; name: string }[]> {
  if (!userIds.length) return [];
  return q<{ userId: string; email: string; name: string }[]>`
    select id as "userId", email, coalesce(name, '') as name from users where id = any(${userIds})`;
}

/** Unsubscribe links older than `before` (the worker's purge: a mail that old is long read). */
export async function purgeUnsubscribeLinks(q: Queryable, before: Date): Promise<number> {
  return (await q`delete from notice_unsubscribe_links where created_at < ${before}`).count;
}
