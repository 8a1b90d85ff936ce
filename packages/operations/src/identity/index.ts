/** The public entry of identity/: sign-in (mail links, upstream), web sessions, API keys, connections, the OAuth server. */
export { createAccountApiKey, listApiKeys, revokeApiKey } from './api-keys.js';
export { listAssistantConnections, removeConnection } from './connections.js';
export {
  deliverMail,
  deliverPendingMail,
  MAIL_BATCH,
  MAIL_LEASE_MS,
  MAIL_RETRY_MINUTES,
  nextMailAttempt,
  followSignInLink,
  peekSignInLink,
  sendSignInLink,
  SIGN_IN_LINK_MINUTES,
  SIGN_IN_LINK_PATH,
  type SignInLinkReason,
} from './email-sign-in.js';
export {
  answerAuthorizationRequest,
  type AuthorizationAnswer,
  type AuthorizationRequest,
  CODE_SECONDS,
  codeChallengeFor,
  findAuthorizationRequest,
  REQUEST_MINUTES,
  requestAuthorization,
} from './oauth-authorization-requests.js';
export {
  clientFromMetadataDocument,
  type FetchedClientDocument,
  findOAuthClientMetadata,
  type OAuthClientMetadata,
  type OAuthClientRegistration,
  registerOAuthClient,
} from './oauth-clients.js';
export type { OAuthErrorCode } from './oauth-refusal.js';
export {
  ACCESS_TOKEN_SECONDS,
  exchangeAuthorizationCode,
  exchangeRefreshToken,
  type IssuedTokens,
  REFRESH_TOKEN_DAYS,
  revokeOAuthToken,
} from './oauth-tokens.js';
export { type PageHeader, pageHeaderOf } from './page-header.js';
export {
  keepUpstreamLogin,
  signInWithUpstreamIdentity,
  takeUpstreamLogin,
  UPSTREAM_LOGIN_MINUTES,
  type VerifiedIdentity,
} from './upstream-sign-in.js';
export {
  endWebSession,
  findWebSessionUser,
  formTokenKey,
  type PasswordCheck,
  SESSION_DAYS,
  signInWithPassword,
  startWebSession,
  type WebSession,
} from './web-sessions.js';
export * as identityOperations from './page-operations.js';
export { MAX_PASSWORD, MIN_PASSWORD, passwordProblem } from './passwords.js';
