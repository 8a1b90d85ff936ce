import {
  appendAudit,
  insertOidcLogin,
  linkUpstreamIdentity,
  type OidcLoginRow,
  takeOidcLogin,
} from '@nogpets/store';
import { type Deps, hashSecret } from '../core/index.js';
import { openWebSession, type WebSession } from './web-sessions.js';

/** How long a person has to finish signing in at the upstream provider. */
export const UPSTREAM_LOGIN_MINUTES = 10;

type UpstreamDeps = Pick<Deps, 'sql' | 'clock'>;

/** Who the upstream OpenID Connect provider says signed in, with an email it has verified. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string;
  name: string;
}

/**
 * Keeps a sign-in started at the upstream provider (PKCE verifier, nonce, where to go after) under
 * its state, hashed, for UPSTREAM_LOGIN_MINUTES: whichever instance gets the callback finishes it.
 */
export function keepUpstreamLogin(deps: UpstreamDeps, state: string, login: OidcLoginRow): Promise<void> {
  const expiresAt = new Date(deps.clock.now().getTime() + UPSTREAM_LOGIN_MINUTES * 60_000);
  return insertOidcLogin(deps.sql, hashSecret(state), login, expiresAt);
}

/** Takes the sign-in a callback's state belongs to (once), while it has not expired; null otherwise. */
export function takeUpstreamLogin(deps: UpstreamDeps, state: string): Promise<OidcLoginRow | null> {
  return takeOidcLogin(deps.sql, hashSecret(state), deps.clock.now());
}

/**
 * Signs in with a verified upstream identity: to the account linked to it, else the one with its
 * email (made if absent), which is linked. The link, its audit record and the session commit together.
 */
export async function signInWithUpstreamIdentity(
  deps: UpstreamDeps,
  identity: VerifiedIdentity,
): Promise<WebSession> {
  const now = deps.clock.now();
  return deps.sql.begin(async (tx) => {
    const { user, linked } = await linkUpstreamIdentity(tx, identity, now);
    if (linked) {
      await appendAudit(
        tx,
        {
          userId: user.id,
          clientId: null,
          clientName: null,
          action: 'account.link',
          target: user.id,
          details: { issuer: identity.issuer },
        },
        now,
      );
    }
    return openWebSession(tx, user.id, now);
  }) as Promise<WebSession>;
}
