// Users: accounts, their passwords and email claims, and what a person owns (counted).
import { newId } from './ids.js';
import type { Queryable as Sql } from './sql.js';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  phone: string;
}

export async function findUserById(sql: Sql, id: string): Promise<UserRow | null> {
  const [row] = await sql<UserRow[]>`select id, email, name, phone from users where id = ${id}`;
  return row ?? null;
}

export async function findUserByEmail(
  sql: Sql,
  email: string,
): Promise<(UserRow & { passwordHash: string | null }) | null> {
  const [row] = await sql<(UserRow & { passwordHash: string | null })[]>`
    select id, email, name, phone, password_hash as "passwordHash" from users where lower(email) = lower(${email})`;
  return row ?? null;
}

/** The person with this email, created (without a password) when absent. */
export async function findOrCreateUser(sql: Sql, email: string, name = ''): Promise<UserRow> {
  const [row] = await sql<UserRow[]>`
    insert into users (id, email, name) values (${newId('usr')}, ${email}, ${name})
    on conflict (lower(email)) do update set email = users.email
    returning id, email, name, phone`;
  return row!;
}

export async function countOwned(sql: Sql, userId: string): Promise<{ pets: number; addresses: number }> {
  const [row] = await sql<{ pets: number; addresses: number }[]>`
    select (select count(*)::int from pets where user_id = ${userId}) as pets,
           (select count(*)::int from addresses where user_id = ${userId}) as addresses`;
  return row!;
}

export async function setPassword(
  sql: Sql,
  userId: string,
  passwordHash: string,
  name?: string,
): Promise<void> {
  await sql`update users set password_hash = ${passwordHash}, name = coalesce(${name ?? null}, name) where id = ${userId}`;
}

/**
 * The account of an email its owner has just proven (a followed sign-in link): made with `name` if
 * absent (an existing account's name is never touched), and marked verified. A password, when
 * given, is set: whoever proved the email chose it (a reset, or a first password).
 */
export async function claimAccountByEmail(
  sql: Sql,
  email: string,
  fill: { name: string; passwordHash: string | null },
): Promise<{ user: UserRow; created: boolean }> {
  const [made] = await sql<UserRow[]>`
    insert into users (id, email, name, password_hash, email_verified)
    values (${newId('usr')}, ${email}, ${fill.name}, ${fill.passwordHash}, true)
    on conflict (lower(email)) do nothing
    returning id, email, name, phone`;
  if (made) return { user: made, created: true };
  const [user] = await sql<UserRow[]>`
    update users set email_verified = true, password_hash = coalesce(${fill.passwordHash}, password_hash)
    where lower(email) = lower(${email})
    returning id, email, name, phone`;
  if (!user) throw new Error('the account vanished while it was claimed');
  return { user, created: false };
}
