import { ServiceError } from '../core/index.js';

/** The OAuth error codes (RFC 6749 §5.2) the authorization server's operations refuse with. */
export type OAuthErrorCode = 'invalid_grant' | 'invalid_scope';

/**
 * A refusal at the OAuth endpoints: the service's one error type, with the RFC 6749 code in
 * `details.error` (as `authenticate` and `insufficientScope` carry theirs) for the adapter to answer.
 */
export function oauthRefusal(error: OAuthErrorCode, message: string): ServiceError {
  return new ServiceError('BAD_REQUEST', message, { error });
}
