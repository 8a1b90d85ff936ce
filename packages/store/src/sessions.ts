// Sessions: browser sign-in sessions and the user each belongs to.
import { newId } from './ids.js';
import type { Queryable as Sql } from './sql.js';
import type { UserRow } from './users.js';

export async function insertSession(
  sql: Sql,
  userId: string,
  tokenHash: string,
  expiresAt: Date,
): Promise<void> {
  await sql`insert into sessions (id, token_hash, user_id, expires_at) values (${newId('ses')}, ${tokenHash}, ${userId}, ${expiresAt})`;
}

export async function findSessionUser(sql: Sql, tokenHash: string, now: Date): Promise<UserRow | null> {
  const [row] = await sql<UserRow[]>`
    select u.id, u.email, u.name, u.phone from sessions s join users u on u.id = s.user_id
    where s.token_hash = ${tokenHash} and s.expires_at > ${now}`;
  return row ?? null;
}

export async function deleteSession(sql: Sql, tokenHash: string): Promise<void> {
  await sql`delete from sessions where token_hash = ${tokenHash}`;
}
