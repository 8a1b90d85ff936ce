import { newId } from './ids.js';
import type { Queryable as Sql, Sql as Pool } from './sql.js';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  phone: string;
}

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

export async function findUserById(sql: Sql, id: string): Promise<UserRow | null> {
  const [row] = await sql<UserRow[]>`select id, email, name, phone from users where id = ${id}`;
  return row ?? null;
}

export async function findUserByEmail(sql: Sql, email: string): Promise<(UserRow & { passwordHash: string | null }) | null> {
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

export async function listCredentials(sql: Sql, userId: string, kind: CredentialRow['kind']): Promise<CredentialRow[]> {
  return sql<CredentialRow[]>`
    select ${CREDENTIAL_COLUMNS(sql)} from credentials c left join oauth_clients oc on oc.id = c.client_id
    where c.user_id = ${userId} and c.kind = ${kind} order by c.created_at desc`;
}

/** Marks use, at most once a minute per credential (no write on every request). */
export async function touchCredential(sql: Sql, id: string, now: Date): Promise<void> {
  await sql`update credentials set last_used_at = ${now}
            where id = ${id} and (last_used_at is null or last_used_at < ${new Date(now.getTime() - 60_000)})`;
}

export async function revokeCredential(sql: Sql, userId: string, id: string, now: Date): Promise<boolean> {
  const rows = await sql`update credentials set revoked_at = ${now} where id = ${id} and user_id = ${userId} and revoked_at is null`;
  return rows.count > 0;
}

export interface PetRow {
  id: string;
  name: string;
  type: 'DOG' | 'CAT';
  breed: string | null;
  weightKg: number;
  coat: 'SHORT' | 'MEDIUM' | 'LONG';
  birthYear: number | null;
  notes: string | null;
}

export async function listPets(sql: Sql, userId: string): Promise<PetRow[]> {
  return sql<PetRow[]>`
    select id, name, type, breed, weight_kg as "weightKg", coat, birth_year as "birthYear", notes
    from pets where user_id = ${userId} order by created_at, id`;
}

export async function insertPet(sql: Sql, userId: string, pet: Omit<PetRow, 'id'>, clientName: string | null): Promise<PetRow> {
  const id = newId('pet');
  await sql`
    insert into pets (id, user_id, name, type, breed, weight_kg, coat, birth_year, notes, client_name)
    values (${id}, ${userId}, ${pet.name}, ${pet.type}, ${pet.breed}, ${pet.weightKg}, ${pet.coat}, ${pet.birthYear}, ${pet.notes}, ${clientName})`;
  return { id, ...pet };
}

export interface AddressRow {
  id: string;
  label: string;
  line1: string;
  suburb: string | null;
  postalCode: string | null;
  city: string | null;
  country: string | null;
  lat: number | null;
  lng: number | null;
  notes: string | null;
}

export async function listAddresses(sql: Sql, userId: string): Promise<AddressRow[]> {
  return sql<AddressRow[]>`
    select id, label, line1, suburb, postal_code as "postalCode", city, country, lat, lng, notes
    from addresses where user_id = ${userId} order by created_at, id`;
}

export async function insertAddress(sql: Sql, userId: string, a: Omit<AddressRow, 'id'>, clientName: string | null): Promise<AddressRow> {
  const id = newId('adr');
  await sql`
    insert into addresses (id, user_id, label, line1, suburb, postal_code, city, country, lat, lng, notes, client_name)
    values (${id}, ${userId}, ${a.label}, ${a.line1}, ${a.suburb}, ${a.postalCode}, ${a.city}, ${a.country}, ${a.lat}, ${a.lng}, ${a.notes}, ${clientName})`;
  return { id, ...a };
}

export async function countOwned(sql: Sql, userId: string): Promise<{ pets: number; addresses: number }> {
  const [row] = await sql<{ pets: number; addresses: number }[]>`
    select (select count(*)::int from pets where user_id = ${userId}) as pets,
           (select count(*)::int from addresses where user_id = ${userId}) as addresses`;
  return row!;
}

export interface AuditEntry {
  userId: string | null;
  clientId: string | null;
  clientName: string | null;
  action: string;
  target: string | null;
  details?: Record<string, unknown>;
}

/** Every change lands here: who, through which client, what, when. The table refuses edits. */
export async function appendAudit(sql: Sql, entry: AuditEntry, at: Date): Promise<void> {
  await sql`
    insert into audit_log (at, user_id, client_id, client_name, action, target, details)
    values (${at}, ${entry.userId}, ${entry.clientId}, ${entry.clientName}, ${entry.action}, ${entry.target}, ${sql.json((entry.details ?? {}) as never)})`;
}

export async function setPassword(sql: Sql, userId: string, passwordHash: string, name?: string): Promise<void> {
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

export async function insertSession(sql: Sql, userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
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
export async function revokeConnection(sql: Sql, userId: string, clientId: string, now: Date): Promise<number> {
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
export async function saveClientMetadataDocument(sql: Sql, c: OAuthClientRow & { staleAt: Date }): Promise<void> {
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

export async function insertOAuthCode(sql: Sql, codeHash: string, c: Omit<OAuthCodeRow, 'usedAt'>): Promise<void> {
  await sql`insert into oauth_codes (code_hash, client_id, user_id, redirect_uri, scopes, code_challenge, resource, family_id, expires_at)
            values (${codeHash}, ${c.clientId}, ${c.userId}, ${c.redirectUri}, ${c.scopes}, ${c.codeChallenge}, ${c.resource}, ${c.familyId}, ${c.expiresAt})`;
}

const CODE_COLUMNS = (sql: Sql) => sql`client_id as "clientId", user_id as "userId", redirect_uri as "redirectUri", scopes,
  code_challenge as "codeChallenge", resource, family_id as "familyId", expires_at as "expiresAt", used_at as "usedAt"`;

export async function findOAuthCode(sql: Sql, codeHash: string): Promise<OAuthCodeRow | null> {
  const [row] = await sql<OAuthCodeRow[]>`select ${CODE_COLUMNS(sql)} from oauth_codes where code_hash = ${codeHash}`;
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
  return (await sql`update credentials set revoked_at = ${now} where family_id = ${familyId} and revoked_at is null`).count;
}

export async function findCredentialFull(sql: Sql, tokenHash: string): Promise<(CredentialRow & { resource: string | null }) | null> {
  const [row] = await sql<(CredentialRow & { resource: string | null })[]>`
    select ${CREDENTIAL_COLUMNS(sql)}, c.resource from credentials c left join oauth_clients oc on oc.id = c.client_id
    where c.token_hash = ${tokenHash}`;
  return row ?? null;
}

/** Revokes one credential by its hash (an access token being revoked, RFC 7009). */
export async function revokeCredentialByHash(sql: Sql, tokenHash: string, now: Date): Promise<void> {
  await sql`update credentials set revoked_at = ${now} where token_hash = ${tokenHash} and revoked_at is null`;
}

export interface OidcLoginRow {
  codeVerifier: string;
  nonce: string;
  next: string;
}

export async function insertOidcLogin(sql: Sql, stateHash: string, login: OidcLoginRow, expiresAt: Date): Promise<void> {
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
 * the account with that verified email (created if absent), which is then linked.
 */
export async function linkUpstreamIdentity(
  sql: Pool,
  identity: { issuer: string; subject: string; email: string; name: string },
  now: Date,
): Promise<{ user: UserRow; linked: boolean }> {
  return sql.begin(async (tx) => {
    const [known] = await tx<{ userId: string }[]>`
      update user_identities set last_used_at = ${now}
      where issuer = ${identity.issuer} and subject = ${identity.subject} returning user_id as "userId"`;
    if (known) {
      const [user] = await tx<UserRow[]>`select id, email, name, phone from users where id = ${known.userId}`;
      if (user) return { user, linked: false };
    }
    const user = await findOrCreateUser(tx, identity.email, identity.name);
    await tx`insert into user_identities (issuer, subject, user_id, email, created_at, last_used_at)
      values (${identity.issuer}, ${identity.subject}, ${user.id}, ${identity.email}, ${now}, ${now})
      on conflict (issuer, subject) do update set user_id = excluded.user_id, email = excluded.email, last_used_at = excluded.last_used_at`;
    return { user, linked: true };
  }) as Promise<{ user: UserRow; linked: boolean }>;
}
