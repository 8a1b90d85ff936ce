// OAuth: clients, authorization requests and codes, token families, and the connections (assistants) a person has.
import { newId } from './ids.js';
import type { Queryable as Sql } from './sql.js';

export interface ConnectionRow {
  clientId: string;
  clientName: string;
  scopes: string[];
  connectedAt: Date;
  lastUsedAt: Date | null;
}

/** Assistants with live tokens for a person: one row per client. */
export async function listConnections(sql: Sql, userId: string, now: Date): Promise<ConnectionRow[]> {
  return sql<ConnectionRow[]>`
    select c.client_id as "clientId", oc.name as "clientName",
           array_agg(distinct s.scope order by s.scope) as scopes,
           min(c.created_at) as "connectedAt", max(c.last_used_at) as "lastUsedAt"
    from credentials c join oauth_clients oc on oc.id = c.client_id
    cross join lateral unnest(c.scopes) as s(scope)
    where c.user_id = ${userId} and c.kind in ('ACCESS', 'REFRESH') and c.revoked_at is null
      and (c.expires_at is null or c.expires_at > ${now})
    group by c.client_id, oc.name order by min(c.created_at)`;
}

/** Removes a connection: every token of that assistant for that person stops working at once. */
export async function revokeConnection(
  sql: Sql,
  userId: string,
  clientId: string,
  now: Date,
): Promise<number> {
  const rows = await sql`update credentials set revoked_at = ${now}
                         where user_id = ${userId} and client_id = ${clientId} and revoked_at is null`;
  return rows.count;
}

export interface OAuthClientRow {
  id: string;
  name: string;
  redirectUris: string[];
  metadata: Record<string, unknown>;
  /** REGISTERED (RFC 7591) or METADATA_DOCUMENT (the id is the URL of its metadata). */
  kind?: 'REGISTERED' | 'METADATA_DOCUMENT';
  /** When a metadata document's cached copy must be fetched again. */
  staleAt?: Date | null;
}

export async function findOAuthClient(sql: Sql, id: string): Promise<OAuthClientRow | null> {
  const [row] = await sql<OAuthClientRow[]>`
    select id, name, redirect_uris as "redirectUris", metadata, kind, stale_at as "staleAt" from oauth_clients where id = ${id}`;
  return row ?? null;
}

/** Stores (or refreshes) the cached copy of a client's metadata document. */
export async function saveClientMetadataDocument(
  sql: Sql,
  c: OAuthClientRow & { staleAt: Date },
): Promise<void> {
  await sql`
    insert into oauth_clients (id, name, redirect_uris, metadata, kind, stale_at)
    values (${c.id}, ${c.name}, ${c.redirectUris}, ${sql.json(c.metadata as never)}, 'METADATA_DOCUMENT', ${c.staleAt})
    on conflict (id) do update set name = excluded.name, redirect_uris = excluded.redirect_uris,
      metadata = excluded.metadata, stale_at = excluded.stale_at
    where oauth_clients.kind = 'METADATA_DOCUMENT'`;
}

export async function insertOAuthClient(sql: Sql, c: OAuthClientRow): Promise<void> {
  await sql`insert into oauth_clients (id, name, redirect_uris, metadata) values (${c.id}, ${c.name}, ${c.redirectUris}, ${sql.json(c.metadata as never)})`;
}

export interface OAuthRequestRow {
  id: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  codeChallenge: string;
  resource: string | null;
  expiresAt: Date;
}

export async function insertOAuthRequest(sql: Sql, r: Omit<OAuthRequestRow, 'id'>): Promise<string> {
  const id = newId('areq');
  await sql`insert into oauth_requests (id, client_id, redirect_uri, scopes, state, code_challenge, resource, expires_at)
            values (${id}, ${r.clientId}, ${r.redirectUri}, ${r.scopes}, ${r.state}, ${r.codeChallenge}, ${r.resource}, ${r.expiresAt})`;
  return id;
}

export async function findOAuthRequest(sql: Sql, id: string, now: Date): Promise<OAuthRequestRow | null> {
  const [row] = await sql<OAuthRequestRow[]>`
    select id, client_id as "clientId", redirect_uri as "redirectUri", scopes, state, code_challenge as "codeChallenge", resource, expires_at as "expiresAt"
    from oauth_requests where id = ${id} and expires_at > ${now}`;
  return row ?? null;
}

export async function deleteOAuthRequest(sql: Sql, id: string): Promise<boolean> {
  return (await sql`delete from oauth_requests where id = ${id}`).count > 0;
}

export interface OAuthCodeRow {
  clientId: string;
  userId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string;
  resource: string | null;
  familyId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export async function insertOAuthCode(
  sql: Sql,
  codeHash: string,
  c: Omit<OAuthCodeRow, 'usedAt'>,
): Promise<void> {
  await sql`insert into oauth_codes (code_hash, client_id, user_id, redirect_uri, scopes, code_challenge, resource, family_id, expires_at)
            values (${codeHash}, ${c.clientId}, ${c.userId}, ${c.redirectUri}, ${c.scopes}, ${c.codeChallenge}, ${c.resource}, ${c.familyId}, ${c.expiresAt})`;
}

const CODE_COLUMNS = (
  sql: Sql,
) => sql`client_id as "clientId", user_id as "userId", redirect_uri as "redirectUri", scopes,
  code_challenge as "codeChallenge", resource, family_id as "familyId", expires_at as "expiresAt", used_at as "usedAt"`;

export async function findOAuthCode(sql: Sql, codeHash: string): Promise<OAuthCodeRow | null> {
  const [row] = await sql<
    OAuthCodeRow[]
  >`select ${CODE_COLUMNS(sql)} from oauth_codes where code_hash = ${codeHash}`;
  return row ?? null;
}

/** Marks a code used; null when it was already used (a replay) or never existed. Atomic. */
export async function useOAuthCode(sql: Sql, codeHash: string, now: Date): Promise<OAuthCodeRow | null> {
  const [row] = await sql<OAuthCodeRow[]>`
    update oauth_codes set used_at = ${now} where code_hash = ${codeHash} and used_at is null
    returning ${CODE_COLUMNS(sql)}`;
  return row ?? null;
}

/** Revokes every token of a family (a connection's chain of refresh tokens and their access tokens). */
export async function revokeFamily(sql: Sql, familyId: string, now: Date): Promise<number> {
  return (
    await sql`update credentials set revoked_at = ${now} where family_id = ${familyId} and revoked_at is null`
  ).count;
}
