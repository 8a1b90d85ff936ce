// OpenID Connect: upstream sign-ins waiting for their answer, and the upstream identities linked to users.
import type { Queryable as Sql } from './sql.js';
import { findOrCreateUser, type UserRow } from './users.js';

export interface OidcLoginRow {
  codeVerifier: string;
  nonce: string;
  next: string;
}

export async function insertOidcLogin(
  sql: Sql,
  stateHash: string,
  login: OidcLoginRow,
  expiresAt: Date,
): Promise<void> {
  await sql`insert into oidc_logins (state_hash, code_verifier, nonce, next, expires_at)
    values (${stateHash}, ${login.codeVerifier}, ${login.nonce}, ${login.next}, ${expiresAt})`;
}

/** Takes a waiting login (once: it is deleted), if it has not expired. */
export async function takeOidcLogin(sql: Sql, stateHash: string, now: Date): Promise<OidcLoginRow | null> {
  const [row] = await sql<(OidcLoginRow & { expiresAt: Date })[]>`
    delete from oidc_logins where state_hash = ${stateHash}
    returning code_verifier as "codeVerifier", nonce, next, expires_at as "expiresAt"`;
  if (!row || row.expiresAt <= now) return null;
  return { codeVerifier: row.codeVerifier, nonce: row.nonce, next: row.next };
}

/**
 * The account an upstream identity signs in to: the one already linked to (issuer, subject), else
 * the account with that verified email (created if absent), which is then linked. Several
 * statements: run it in the caller's transaction.
 */
export async function linkUpstreamIdentity(
  sql: Sql,
  identity: { issuer: string; subject: string; email: string; name: string },
  now: Date,
): Promise<{ user: UserRow; linked: boolean }> {
  const [known] = await sql<{ userId: string }[]>`
    update user_identities set last_used_at = ${now}
    where issuer = ${identity.issuer} and subject = ${identity.subject} returning user_id as "userId"`;
  if (known) {
    const [user] = await sql<UserRow[]>`select id, email, name, phone from users where id = ${known.userId}`;
    if (user) return { user, linked: false };
  }
  const user = await findOrCreateUser(sql, identity.email, identity.name);
  await sql`insert into user_identities (issuer, subject, user_id, email, created_at, last_used_at)
    values (${identity.issuer}, ${identity.subject}, ${user.id}, ${identity.email}, ${now}, ${now})
    on conflict (issuer, subject) do update set user_id = excluded.user_id, email = excluded.email, last_used_at = excluded.last_used_at`;
  return { user, linked: true };
}
