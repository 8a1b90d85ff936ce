// Sign-up drafts: what an assistant sends without a login (prepareBusinessSignup), kept 30 days.
import { newId } from './ids.js';
import type { Sql as Pool, Queryable as Sql } from './sql.js';

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
 * DRAFT, and the account the draft made when nothing else came of it: never signed in (no verified
 * email, no password) and no row anywhere that refers to it (a session, key, sign-in elsewhere,
 * pet, address, booking, payment, other application or live draft, operator grant, business
 * membership, ...). The tables are read from the database's foreign keys to users, so a table
 * added later holds its accounts too. A submitted application, and its account, stay. One
 * transaction: a failure midway leaves every draft to the next run. How many of each went.
 */
export async function purgeExpiredDrafts(
  sql: Pool,
  now: Date,
): Promise<{ drafts: number; applications: number; accounts: number }> {
  return sql.begin(async (tx) => {
    const q = tx as unknown as Sql;
    const gone = await q<{ applicationId: string | null; userId: string | null; userCreated: boolean }[]>`
      delete from signup_drafts where id in (
        select id from signup_drafts where expires_at <= ${now} order by expires_at limit 1000 for update skip locked)
      returning application_id as "applicationId", user_id as "userId", user_created as "userCreated"`;
    const applicationIds = gone.map((g) => g.applicationId).filter((id): id is string => id !== null);
    const applications = applicationIds.length
      ? (await q`delete from business_applications where id in ${q(applicationIds)} and status = 'DRAFT'`)
          .count
      : 0;
    const made = [...new Set(gone.filter((g) => g.userCreated && g.userId).map((g) => g.userId!))];
    // Every column that refers to an account (names quoted by PostgreSQL itself).
    const refs = made.length
      ? await q<{ tableName: string; columnName: string }[]>`
          select c.conrelid::regclass::text as "tableName", quote_ident(a.attname) as "columnName"
          from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
          where c.contype = 'f' and c.confrelid = 'users'::regclass and cardinality(c.conkey) = 1
          order by 1, 2`
      : [];
    const holds = refs
      .map((r) => `and not exists (select 1 from ${r.tableName} x where x.${r.columnName} = u.id)`)
      .join(' ');
    const accounts = made.length
      ? (
          await q`
            delete from users u where u.id in ${q(made)}
              and not u.email_verified and u.password_hash is null ${q.unsafe(holds)}`
        ).count
      : 0;
    return { drafts: gone.length, applications, accounts };
  }) as Promise<{ drafts: number; applications: number; accounts: number }>;
}
