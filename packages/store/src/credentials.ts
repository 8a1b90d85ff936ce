// Credentials: API keys and OAuth access and refresh tokens, found, touched and revoked by hash or id.
import { newId } from './ids.js';
import type { Queryable as Sql } from './sql.js';

export interface CredentialRow {
  id: string;
  userId: string;
  kind: 'API_KEY' | 'ACCESS' | 'REFRESH';
  scopes: string[];
  clientId: string | null;
  clientName: string | null;
  familyId: string | null;
  name: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

export async function insertCredential(
  sql: Sql,
  c: {
    userId: string;
    kind: CredentialRow['kind'];
    tokenHash: string;
    scopes: string[];
    clientId?: string | null;
    familyId?: string | null;
    name?: string;
    expiresAt?: Date | null;
    resource?: string | null;
  },
): Promise<string> {
  const id = newId(c.kind === 'API_KEY' ? 'key' : 'tok');
  await sql`
    insert into credentials (id, user_id, kind, token_hash, scopes, client_id, family_id, name, expires_at, resource)
    values (${id}, ${c.userId}, ${c.kind}, ${c.tokenHash}, ${c.scopes}, ${c.clientId ?? null}, ${c.familyId ?? null}, ${c.name ?? ''}, ${c.expiresAt ?? null}, ${c.resource ?? null})`;
  return id;
}

const CREDENTIAL_COLUMNS = (sql: Sql) => sql`
  c.id, c.user_id as "userId", c.kind, c.scopes, c.client_id as "clientId", oc.name as "clientName", c.family_id as "familyId",
  c.name, c.expires_at as "expiresAt", c.revoked_at as "revokedAt", c.last_used_at as "lastUsedAt", c.created_at as "createdAt"`;

export async function findCredentialByHash(sql: Sql, tokenHash: string): Promise<CredentialRow | null> {
  const [row] = await sql<CredentialRow[]>`
    select ${CREDENTIAL_COLUMNS(sql)} from credentials c left join oauth_clients oc on oc.id = c.client_id
    where c.token_hash = ${tokenHash}`;
  return row ?? null;
}

export async function listCredentials(
  sql: Sql,
  userId: string,
  kind: CredentialRow['kind'],
): Promise<CredentialRow[]> {
  return sql<CredentialRow[]>`
    select ${CREDENTIAL_COLUMNS(sql)} from credentials c left join oauth_clients oc on oc.id = c.client_id
    where c.user_id = ${userId} and c.kind = ${kind} order by c.created_at desc`;
}

/**
 * Marks use, at most once a minute per credential: a credential read less than a minute after its
 * last use costs no query at all, and two instances touching it at once write it once.
 */
export async function touchCredential(
  sql: Sql,
  credential: { id: string; lastUsedAt: Date | null },
  now: Date,
): Promise<void> {
  const since = new Date(now.getTime() - 60_000);
  if (credential.lastUsedAt && credential.lastUsedAt >= since) return;
  await sql`update credentials set last_used_at = ${now}
            where id = ${credential.id} and (last_used_at is null or last_used_at < ${since})`;
}

export async function revokeCredential(sql: Sql, userId: string, id: string, now: Date): Promise<boolean> {
  const rows =
    await sql`update credentials set revoked_at = ${now} where id = ${id} and user_id = ${userId} and revoked_at is null`;
  return rows.count > 0;
}

export async function findCredentialFull(
  sql: Sql,
  tokenHash: string,
): Promise<(CredentialRow & { resource: string | null }) | null> {
  const [row] = await sql<(CredentialRow & { resource: string | null })[]>`
    select ${CREDENTIAL_COLUMNS(sql)}, c.resource from credentials c left join oauth_clients oc on oc.id = c.client_id
    where c.token_hash = ${tokenHash}`;
  return row ?? null;
}

/** Revokes a live credential by its hash; false when it was not live (unknown or already revoked). */
export async function revokeCredentialByHash(sql: Sql, tokenHash: string, now: Date): Promise<boolean> {
  const rows =
    await sql`update credentials set revoked_at = ${now} where token_hash = ${tokenHash} and revoked_at is null`;
  return rows.count > 0;
}
