import { randomUUID } from 'node:crypto';
import {
  findCredentialFull,
  findOAuthCode,
  insertCredential,
  type Queryable,
  revokeCredentialByHash,
  revokeFamily,
  type Sql,
  useOAuthCode,
} from '@nogpets/store';
import { type Deps, hashSecret, newSecret, ServiceError } from '../core/index.js';
import { oauthRefusal } from './oauth-refusal.js';

/** Token lifetimes (docs/decisions.md): short access, rotating refresh. */
export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_DAYS = 30;

type OAuthDeps = Pick<Deps, 'sql' | 'clock'>;

/** What a token request is answered with: the two tokens (shown once; only their hashes are kept). */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresInSeconds: number;
  scopes: string[];
}

/** What a grant gives out tokens for: who, to which client, what, in which family, for which resource. */
interface Grant {
  userId: string;
  clientId: string;
  scopes: string[];
  familyId: string;
  resource: string | null;
}

/** An access token and a refresh token of the grant's family. */
async function issueTokens(sql: Queryable, grant: Grant, now: Date): Promise<IssuedTokens> {
  const access = newSecret('nat');
  const refresh = newSecret('nrt');
  const common = { userId: grant.userId, scopes: grant.scopes, clientId: grant.clientId };
  const bound = { familyId: grant.familyId, resource: grant.resource };
  await insertCredential(sql, {
    ...common,
    kind: 'ACCESS',
    tokenHash: hashSecret(access),
    ...bound,
    expiresAt: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000),
  });
  await insertCredential(sql, {
    ...common,
    kind: 'REFRESH',
    tokenHash: hashSecret(refresh),
    ...bound,
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_DAYS * 86_400_000),
  });
  return {
    accessToken: access,
    refreshToken: refresh,
    expiresInSeconds: ACCESS_TOKEN_SECONDS,
    scopes: grant.scopes,
  };
}

/**
 * Runs `work` in one transaction; a refusal it returns is thrown after the commit, so what it
 * wrote before refusing (a spent code, a revoked family) stays written.
 */
async function commitThenRefuse<T>(sql: Sql, work: (tx: Queryable) => Promise<T | ServiceError>): Promise<T> {
  const outcome = (await sql.begin(work)) as T | ServiceError;
  if (outcome instanceof ServiceError) throw outcome;
  return outcome;
}

/**
 * Exchanges an authorization code for tokens, once. The code is spent even when the exchange is
 * refused (invalid_grant: another client, expired, another redirect URI or resource), and a code
 * used again revokes whatever it gave out (OAuth 2.1 §4.1.3). The tokens are issued in the
 * transaction that spends the code.
 */
export async function exchangeAuthorizationCode(
  deps: OAuthDeps,
  exchange: {
    clientId: string;
    code: string;
    redirectUri?: string | undefined;
    resource?: string | undefined;
  },
): Promise<IssuedTokens> {
  const now = deps.clock.now();
  const hash = hashSecret(exchange.code);
  return commitThenRefuse(deps.sql, async (tx) => {
    const row = await useOAuthCode(tx, hash, now);
    if (!row) {
      // A replayed code: whatever it already gave out is revoked (OAuth 2.1 §4.1.3).
      const used = await findOAuthCode(tx, hash);
      if (used?.usedAt) await revokeFamily(tx, used.familyId, now);
      return oauthRefusal('invalid_grant', 'The authorization code was already used.');
    }
    if (row.clientId !== exchange.clientId)
      return oauthRefusal('invalid_grant', 'The code was issued to another client.');
    if (row.expiresAt <= now) return oauthRefusal('invalid_grant', 'The authorization code has expired.');
    // OAuth 2.1 lets PKCE clients leave redirect_uri out here; when it is given it must be the same.
    if (exchange.redirectUri !== undefined && exchange.redirectUri !== row.redirectUri)
      return oauthRefusal('invalid_grant', 'redirect_uri differs from the one the code was issued for.');
    if (exchange.resource && row.resource && exchange.resource !== row.resource)
      return oauthRefusal('invalid_grant', 'resource differs from the one authorized.');
    return issueTokens(
      tx,
      {
        userId: row.userId,
        clientId: row.clientId,
        scopes: row.scopes,
        familyId: row.familyId,
        resource: row.resource ?? exchange.resource ?? null,
      },
      now,
    );
  });
}

/**
 * Rotates a refresh token: it is revoked and a new pair of its family issued, with the same
 * scopes or fewer (invalid_scope for more). A refresh token used again, or revoked, revokes its
 * whole family (invalid_grant).
 */
export async function exchangeRefreshToken(
  deps: OAuthDeps,
  exchange: {
    clientId: string;
    refreshToken: string;
    scopes?: string[] | undefined;
    resource?: string | undefined;
  },
): Promise<IssuedTokens> {
  const now = deps.clock.now();
  const hash = hashSecret(exchange.refreshToken);
  return commitThenRefuse(deps.sql, async (tx) => {
    const row = await findCredentialFull(tx, hash);
    if (row?.kind !== 'REFRESH' || row.clientId !== exchange.clientId)
      return oauthRefusal('invalid_grant', 'Unknown refresh token.');
    if (row.revokedAt) {
      // Reuse of a rotated (or revoked) refresh token: the whole family goes.
      if (row.familyId) await revokeFamily(tx, row.familyId, now);
      return oauthRefusal(
        'invalid_grant',
        'The refresh token was already used; the connection has been revoked.',
      );
    }
    if (row.expiresAt && row.expiresAt <= now)
      return oauthRefusal('invalid_grant', 'The refresh token has expired.');
    const wanted = exchange.scopes?.length ? exchange.scopes : row.scopes;
    const wider = wanted.filter((s) => !row.scopes.includes(s));
    if (wider.length)
      return oauthRefusal(
        'invalid_scope',
        `Refresh cannot widen scope (${wider.join(' ')}); authorize again.`,
      );
    if (exchange.resource && row.resource && exchange.resource !== row.resource)
      return oauthRefusal('invalid_grant', 'resource differs from the one authorized.');
    // Spent exactly once: a refresh racing this one with the same token waits on the row, then
    // finds it revoked, and is a reuse like any other.
    if (!(await revokeCredentialByHash(tx, hash, now))) {
      if (row.familyId) await revokeFamily(tx, row.familyId, now);
      return oauthRefusal(
        'invalid_grant',
        'The refresh token was already used; the connection has been revoked.',
      );
    }
    return issueTokens(
      tx,
      {
        userId: row.userId,
        clientId: exchange.clientId,
        scopes: wanted,
        familyId: row.familyId ?? randomUUID(),
        resource: row.resource,
      },
      now,
    );
  });
}

/**
 * Revokes a token at its client's request (RFC 7009): a refresh token with its whole family, an
 * access token alone. An unknown token, or another client's, changes nothing and says nothing.
 */
export async function revokeOAuthToken(deps: OAuthDeps, clientId: string, token: string): Promise<void> {
  const now = deps.clock.now();
  const hash = hashSecret(token);
  await deps.sql.begin(async (tx) => {
    const row = await findCredentialFull(tx, hash);
    if (!row || row.clientId !== clientId) return;
    if (row.kind === 'REFRESH' && row.familyId) await revokeFamily(tx, row.familyId, now);
    else await revokeCredentialByHash(tx, hash, now);
  });
}
