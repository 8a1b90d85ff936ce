// Sign-up drafts: what an assistant sends without a login (prepareBusinessSignup), kept 30 days.
import { newId } from './ids.js';
import type { Queryable as Sql } from './sql.js';

export interface DraftRow {
  id: string;
  applicationId: string | null;
  userId: string | null;
  userCreated: boolean;
  email: string | null;
  caller: string;
  /** The draft as sent, while it has no application (no email was given). */
  data: Record<string, unknown> | null;
  createdAt: Date;
  expiresAt: Date;
}

const COLUMNS = `id, application_id as "applicationId", user_id as "userId", user_created as "userCreated", email,
  caller, data, created_at as "createdAt", expires_at as "expiresAt"`;

/** A draft's application as it is first written: its details and its services, in one row. */
export interface DraftApplication {
  name: string;
  details: Record<string, unknown>;
  country: string | null;
  currency: string | null;
  timezone: string | null;
  services: unknown[];
}

/**
 * Holds the draft quota of these keys (a caller, an email) until the transaction ends, so two
 * drafts sent at once cannot both pass the count. Keys are taken in one order: no deadlock.
 */
export async function lockDraftQuota(sql: Sql, keys: string[]): Promise<void> {
  for (const key of [...new Set(keys)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`signup-draft:${key}`}, 0))`;
  }
}

/** Drafts made since `since` by a caller or for an email: how many, and the oldest's time. */
export async function countDraftsSince(
  sql: Sql,
  by: { caller: string } | { email: string },
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await sql<{ count: number; oldest: Date | null }[]>`
    select count(*)::int as count, min(created_at) as oldest from signup_drafts
    where ${'caller' in by ? sql`caller = ${by.caller}` : sql`email = ${by.email}`} and created_at > ${since}`;
  return row!;
}

/** A DRAFT business application for a draft, with its services, owned by `userId`; its id. */
export async function insertDraftApplication(
  sql: Sql,
  userId: string,
  a: DraftApplication,
  now: Date,
): Promise<string> {
  const id = newId('app');
  await sql`
    insert into business_applications (id, user_id, name, details, country, currency, timezone, services, created_at, updated_at)
    values (${id}, ${userId}, ${a.name}, ${sql.json(a.details as never)}, ${a.country}, ${a.currency}, ${a.timezone},
            ${sql.json(a.services as never)}, ${now}, ${now})`;
  return id;
}

export async function insertDraft(
  sql: Sql,
  d: Omit<DraftRow, 'id' | 'createdAt'>,
  now: Date,
): Promise<DraftRow> {
  const [row] = await sql<DraftRow[]>`
    insert into signup_drafts (id, application_id, user_id, user_created, email, caller, data, created_at, expires_at)
    values (${newId('drf')}, ${d.applicationId}, ${d.userId}, ${d.userCreated}, ${d.email}, ${d.caller},
            ${d.data === null ? null : sql.json(d.data as never)}, ${now}, ${d.expiresAt})
    returning ${sql.unsafe(COLUMNS)}`;
  return row!;
}

/** A draft that has not expired, or null. */
export async function findDraft(
  sql: Sql,
  id: string,
  now: Date,
  options: { forUpdate?: boolean } = {},
): Promise<DraftRow | null> {
  const [row] = await sql<DraftRow[]>`
    select ${sql.unsafe(COLUMNS)} from signup_drafts where id = ${id} and expires_at > ${now}
    ${options.forUpdate ? sql`for update` : sql``}`;
  return row ?? null;
}

/** Gives a draft without an owner its application and owner (it keeps nothing as sent any more). */
export async function claimDraft(sql: Sql, id: string, userId: string, applicationId: string): Promise<void> {
  await sql`
    update signup_drafts set user_id = ${userId}, application_id = ${applicationId}, data = null
    where id = ${id} and user_id is null`;
}

/**
 * Removes the drafts that expired before `now`: each with its application while that is still a
 * DRAFT, and the account the draft made when nothing else came of it (never signed in: no verified
 * email, no password, no session, key or sign-in elsewhere; nothing owned; no other application or
 * live draft). A submitted application, and its account, stay. How many of each went.
 */
export async function purgeExpiredDrafts(
  sql: Sql,
  now: Date,
): Promise<{ drafts: number; applications: number; accounts: number }> {
  const gone = await sql<{ applicationId: string | null; userId: string | null; userCreated: boolean }[]>`
    delete from signup_drafts where id in (
      select id from signup_drafts where expires_at <= ${now} order by expires_at limit 1000 for update skip locked)
    returning application_id as "applicationId", user_id as "userId", user_created as "userCreated"`;
  const applicationIds = gone.map((g) => g.applicationId).filter((id): id is string => id !== null);
  const applications = applicationIds.length
    ? (await sql`delete from business_applications where id in ${sql(applicationIds)} and status = 'DRAFT'`)
        .count
    : 0;
  const made = [...new Set(gone.filter((g) => g.userCreated && g.userId).map((g) => g.userId!))];
  const accounts = made.length
    ? (
        await sql`
          delete from users u where u.id in ${sql(made)}
            and not u.email_verified and u.password_hash is null
            and not exists (select 1 from signup_drafts d where d.user_id = u.id)
            and not exists (select 1 from business_applications a where a.user_id = u.id)
            and not exists (select 1 from sessions s where s.user_id = u.id)
            and not exists (select 1 from credentials c where c.user_id = u.id)
            and not exists (select 1 from user_identities i where i.user_id = u.id)
            and not exists (select 1 from oauth_codes o where o.user_id = u.id)
            and not exists (select 1 from pets p where p.user_id = u.id)
            and not exists (select 1 from addresses ad where ad.user_id = u.id)
            and not exists (select 1 from bookings b where b.user_id = u.id)
            and not exists (select 1 from booking_series bs where bs.user_id = u.id)
            and not exists (select 1 from payments pm where pm.user_id = u.id)`
      ).count
    : 0;
  return { drafts: gone.length, applications, accounts };
}
