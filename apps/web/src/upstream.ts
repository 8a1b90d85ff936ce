import type { Runtime } from '@nogpets/runtime';
import {
  cutText,
  identityOperations as identity,
  toStorableText,
  unstorableReason,
  type VerifiedIdentity,
} from '@nogpets/operations';
import * as oidc from 'openid-client';
import { run, visitorCall } from './calls.js';

export const CALLBACK_PATH = '/signin/oidc/callback';

export class UpstreamSignInError extends Error {}

export interface UpstreamIdentity extends VerifiedIdentity {
  /** Where the person was going when the sign-in started (a path on this site). */
  next: string;
}

export interface UpstreamLogin {
  /** The provider's name for the sign-in button. */
  name: string;
  /** Where to send the person's browser: the provider's authorization URL (PKCE S256, state, nonce). */
  begin(next: string): Promise<URL>;
  /** Finishes the login from the callback URL: the verified identity, or UpstreamSignInError. */
  finish(callbackUrl: URL): Promise<UpstreamIdentity>;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Sign-in through the configured OpenID Connect provider with openid-client: authorization code
 * with PKCE, state and nonce kept in PostgreSQL (any instance finishes the login), and the email
 * taken only when the provider says it is verified (from the ID token or else from userinfo).
 */
export function createUpstreamLogin(runtime: Runtime): UpstreamLogin | null {
  const { OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_NAME } = runtime.config;
  if (!OIDC_ISSUER || !OIDC_CLIENT_ID) return null;
  const issuer = new URL(OIDC_ISSUER);
  // Plain http only for a provider on loopback (development and tests).
  const insecure = issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname);
  let configuration: Promise<oidc.Configuration> | undefined;
  const config = () => {
    configuration ??= oidc
      .discovery(
        issuer,
        OIDC_CLIENT_ID,
        OIDC_CLIENT_SECRET,
        OIDC_CLIENT_SECRET ? undefined : oidc.None(),
        insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((err: unknown) => {
        configuration = undefined; // try discovery again next time
        throw new UpstreamSignInError(
          `The sign-in provider could not be reached (${(err as Error).message}).`,
        );
      });
    return configuration;
  };
  const redirectUri = () => `${runtime.publicUrl()}${CALLBACK_PATH}`;

  return {
    name: OIDC_NAME,

    async begin(next) {
      const c = await config();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      await run(identity.keepUpstreamLoginOp, visitorCall(runtime), {
        state,
        login: { codeVerifier, nonce, next },
      });
      return oidc.buildAuthorizationUrl(c, {
        redirect_uri: redirectUri(),
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
    },

    async finish(callbackUrl) {
      const state = callbackUrl.searchParams.get('state');
      const login = state ? await run(identity.takeUpstreamLoginOp, visitorCall(runtime), { state }) : null;
      if (!login || !state)
        throw new UpstreamSignInError('This sign-in has expired or was already used. Start again.');
      const error = callbackUrl.searchParams.get('error');
      if (error)
        throw new UpstreamSignInError(
          error === 'access_denied'
            ? 'Sign-in was cancelled at the provider.'
            : `The provider refused the sign-in (${error}).`,
        );
      const c = await config();
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(c, callbackUrl, {
          pkceCodeVerifier: login.codeVerifier,
          expectedState: state,
          expectedNonce: login.nonce,
          idTokenExpected: true,
        });
      } catch (err) {
        throw new UpstreamSignInError(
          `The provider's answer could not be verified (${(err as Error).message}).`,
        );
      }
      const claims = tokens.claims()!;
      let email = typeof claims.email === 'string' ? claims.email : undefined;
      let verified = claims.email_verified === true;
      let name = typeof claims.name === 'string' ? claims.name : '';
      if (!email || !verified) {
        // Many providers give the email only through userinfo.
        const info = await oidc.fetchUserInfo(c, tokens.access_token, claims.sub);
        email = typeof info.email === 'string' ? info.email : email;
        verified = info.email_verified === true;
        name ||= typeof info.name === 'string' ? info.name : '';
      }
      if (!email)
        throw new UpstreamSignInError(
          'The provider did not share an email address, so no account can be linked.',
        );
      if (!verified)
        throw new UpstreamSignInError(
          `The provider has not verified ${email}, so it cannot sign in to the account with that email.`,
        );
      if (unstorableReason(email) || unstorableReason(claims.sub))
        throw new UpstreamSignInError(
          'The provider sent an email address or user id that cannot be read, so no account can be linked.',
        );
      return {
        issuer: c.serverMetadata().issuer,
        subject: claims.sub,
        email,
        name: cutText(toStorableText(name), 120),
        next: login.next,
      };
    },
  };
}
