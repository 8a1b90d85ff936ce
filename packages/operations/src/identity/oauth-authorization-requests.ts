import { randomBytes, randomUUID } from 'node:crypto';
import {
  appendAudit,
  deleteOAuthRequest,
  findOAuthClient,
  findOAuthCode,
  findOAuthRequest,
  insertOAuthCode,
  insertOAuthRequest,
  type OAuthClientRow,
  type OAuthRequestRow,
} from '@nogpets/store';
import { type Deps, hashSecret, isScope } from '../core/index.js';
import { oauthRefusal } from './oauth-refusal.js';

/** How long a person has to answer on the consent page, and a code to be exchanged (docs/decisions.md). */
export const REQUEST_MINUTES = 15;
export const CODE_SECONDS = 300;

type OAuthDeps = Pick<Deps, 'sql' | 'clock'>;

/** An authorization request whose client and redirect URI are checked, as /authorize read it (no scopes asked: `profile`). */
export type AuthorizationRequest = Omit<OAuthRequestRow, 'id' | 'expiresAt'>;

/**
 * Keeps an authorization request until the person answers it on the consent page: its id.
 * Unknown scopes are refused (invalid_scope) and nothing is kept.
 */
export async function requestAuthorization(deps: OAuthDeps, request: AuthorizationRequest): Promise<string> {
  const requested = request.scopes.length ? request.scopes : ['profile'];
  const unknown = requested.filter((s) => !isScope(s));
  if (unknown.length) throw oauthRefusal('invalid_scope', `Unknown scopes: ${unknown.join(' ')}`);
  return insertOAuthRequest(deps.sql, {
    clientId: request.clientId,
    redirectUri: request.redirectUri,
    scopes: [...new Set(requested)],
    state: request.state,
    codeChallenge: request.codeChallenge,
    resource: request.resource,
    expiresAt: new Date(deps.clock.now().getTime() + REQUEST_MINUTES * 60_000),
  });
}

/** What the consent page shows: a request still waiting for its answer, and the client asking; null once expired or answered. */
export async function findAuthorizationRequest(
  deps: OAuthDeps,
  requestId: string,
): Promise<{ request: OAuthRequestRow; client: OAuthClientRow | null } | null> {
  const request = await findOAuthRequest(deps.sql, requestId, deps.clock.now());
  if (!request) return null;
  return { request, client: await findOAuthClient(deps.sql, request.clientId) };
}

/** Where the consent page sends the browser back to: the client's redirect URI, its state, and the code when approved. */
export interface AuthorizationAnswer {
  redirectUri: string;
  state: string | null;
  /** The authorization code (only its hash is kept); null when the person denied. */
  code: string | null;
}

/**
 * The person's answer to a request, once: the request is deleted, and when approved a code bound
 * to client, person, redirect URI, PKCE challenge and resource is issued and the approval
 * audited, all in one transaction. Null when the request expired or was already answered.
 */
export async function answerAuthorizationRequest(
  deps: OAuthDeps,
  answer: { requestId: string; userId: string; approve: boolean },
): Promise<AuthorizationAnswer | null> {
  const now = deps.clock.now();
  return deps.sql.begin(async (tx) => {
    const request = await findOAuthRequest(tx, answer.requestId, now);
    // One answer per request: deleting it is what makes a second click do nothing.
    if (!request || !(await deleteOAuthRequest(tx, request.id))) return null;
    const back = { redirectUri: request.redirectUri, state: request.state };
    if (!answer.approve) return { ...back, code: null };
    const code = randomBytes(32).toString('base64url');
    await insertOAuthCode(tx, hashSecret(code), {
      clientId: request.clientId,
      userId: answer.userId,
      redirectUri: request.redirectUri,
      scopes: request.scopes,
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      familyId: randomUUID(),
      expiresAt: new Date(now.getTime() + CODE_SECONDS * 1000),
    });
    await appendAudit(
      tx,
      {
        userId: answer.userId,
        clientId: request.clientId,
        clientName: null,
        action: 'connection.approve',
        target: request.clientId,
        details: { scopes: request.scopes },
      },
      now,
    );
    return { ...back, code };
  }) as Promise<AuthorizationAnswer | null>;
}

/** The PKCE challenge a live code was issued with, to the client asking; invalid_grant otherwise. */
export async function codeChallengeFor(deps: OAuthDeps, clientId: string, code: string): Promise<string> {
  const row = await findOAuthCode(deps.sql, hashSecret(code));
  if (!row || row.clientId !== clientId || row.expiresAt <= deps.clock.now())
    throw oauthRefusal('invalid_grant', 'Unknown or expired authorization code.');
  return row.codeChallenge;
}
