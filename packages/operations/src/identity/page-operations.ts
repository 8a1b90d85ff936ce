/**
 * Sign-in, sessions, API keys, assistants' connections and the OAuth server's endpoints as internal
 * operations: what apps/web's pages and OAuth endpoints run through runOperation (principal check,
 * input checked, output and events checked under CHECK_OUTPUTS), each wrapping the function that
 * does the work.
 *
 * Who runs them: `visitor` for a browser or client not signed in (the sign-in forms and links, the
 * upstream login, reading a session cookie, and every endpoint an assistant's OAuth client calls:
 * a public client proves nothing but PKCE and the code or refresh token it sends, so it is a
 * visitor of those endpoints: docs/decisions.md); `person` for the person signed in on our pages
 * (their browser session), who acts on their own account only: the account is `ctx.auth.userId`,
 * never an input.
 *
 * Secrets (passwords, link tokens, codes, tokens) travel in the input and the answer; runOperation
 * neither logs nor stores either for internal operations (no idempotency row, no audit of input),
 * and none of these writes a domain event.
 */
import { findUserById, type OidcLoginRow } from '@nogpets/store';
import { z } from 'zod';
import {
  defineInternalOperation,
  type OperationContext,
  personOf,
  ServiceError,
  typed,
} from '../core/index.js';
import { createAccountApiKey, listApiKeys, revokeApiKey } from './api-keys.js';
import { listAssistantConnections, removeConnection } from './connections.js';
import { followSignInLink, peekSignInLink, sendSignInLink } from './email-sign-in.js';
import {
  answerAuthorizationRequest,
  codeChallengeFor,
  findAuthorizationRequest,
  requestAuthorization,
} from './oauth-authorization-requests.js';
import {
  clientFromMetadataDocument,
  type FetchedClientDocument,
  findOAuthClientMetadata,
  type OAuthClientRegistration,
  registerOAuthClient,
} from './oauth-clients.js';
import { endMcpSession, findLiveMcpSession, openMcpSession } from './mcp-sessions.js';
import { exchangeAuthorizationCode, exchangeRefreshToken, revokeOAuthToken } from './oauth-tokens.js';
import { pageHeaderOf } from './page-header.js';
import { checkPassword, hashPassword, passwordProblem } from './passwords.js';
import { keepUpstreamLogin, signInWithUpstreamIdentity, takeUpstreamLogin } from './upstream-sign-in.js';
import {
  endWebSession,
  findWebSessionUser,
  formTokenKey,
  signInWithPassword,
  startWebSession,
} from './web-sessions.js';

const VISITOR = { principal: ['visitor'] } as const;
const PERSON = { principal: ['person'] } as const;

type Result<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

/**
 * A form's text field. Bounded by what a form may carry at all (the pages read at most 20 kB):
 * anything a form sends reaches the function as it did before, which gives its own answer (a
 * made-up token is not found, a long email is not an address).
 */
const FORM_TEXT = z.string().max(20_000);
/** A secret made here (session, link, code, token) or an id: never longer than this. */
const SECRET = z.string().max(4_000);
/** A path on this site to go to afterwards (the pages pass it through safeNext, as long as a form allows). */
const NEXT = FORM_TEXT;
/**
 * A parameter of the OAuth endpoints: bounded by what their requests may carry (100 kB bodies), so
 * whatever reached the functions before still does and gets their answer (invalid_grant, …).
 */
const OAUTH_TEXT = z.string().max(100_000);
const URL_TEXT = z.string().max(4_000);
/** Scopes as a form or an OAuth request lists them (unknown ones are the function's to refuse, as before). */
const SCOPE_LIST = z.array(z.string().max(20_000)).max(10_000);
/** A function the door gives (the password check, the document fetch): it runs in the handler, never stored. */
const fn = <T>() => z.custom<T>((v) => typeof v === 'function', 'Expected a function.');

// --- Signing in and out: a visitor becomes a person ---------------------------------------------

export const signInWithPasswordOp = defineInternalOperation({
  operationId: 'signInWithPassword',
  title: 'Sign in with email and password',
  description:
    'A new browser session, or null when the email and password do not match (the same answer, in the same time, for an unknown email).',
  auth: VISITOR,
  input: z.object({ email: FORM_TEXT, password: FORM_TEXT }).strict(),
  output: typed<Result<typeof signInWithPassword>>(),
  events: [],
  async handler(ctx, input) {
    return signInWithPassword(ctx.deps, { email: input.email, password: input.password }, checkPassword);
  },
});

export const signInWithUpstreamIdentityOp = defineInternalOperation({
  operationId: 'signInWithUpstreamIdentity',
  title: 'Sign in with the upstream provider',
  description: 'A new browser session for the identity the OpenID Connect provider verified.',
  auth: VISITOR,
  input: z
    .object({
      // As the provider sent them (apps/web checked they can be stored); the name cut to 120.
      issuer: FORM_TEXT.min(1),
      subject: FORM_TEXT.min(1),
      email: FORM_TEXT.min(1),
      // The pages cut a name to 120 characters (code points); UTF-16 counts an emoji as two.
      name: z.string().max(240),
    })
    .strict(),
  output: typed<Result<typeof signInWithUpstreamIdentity>>(),
  events: [],
  async handler(ctx, input) {
    return signInWithUpstreamIdentity(ctx.deps, input);
  },
});

export const keepUpstreamLoginOp = defineInternalOperation({
  operationId: 'keepUpstreamLogin',
  title: 'Keep an upstream sign-in started',
  description:
    'Keeps the PKCE verifier, nonce and where to go after under the state, hashed, for a few minutes.',
  auth: VISITOR,
  input: z
    .object({
      state: SECRET.min(1),
      login: z.object({ codeVerifier: SECRET.min(1), nonce: SECRET.min(1), next: NEXT }).strict(),
    })
    .strict(),
  output: typed<void>(),
  events: [],
  async handler(ctx, input) {
    return keepUpstreamLogin(ctx.deps, input.state, input.login satisfies OidcLoginRow);
  },
});

export const takeUpstreamLoginOp = defineInternalOperation({
  operationId: 'takeUpstreamLogin',
  title: 'Take an upstream sign-in back',
  description: 'The sign-in a callback state belongs to (once), while it lasts; null otherwise.',
  auth: VISITOR,
  input: z.object({ state: FORM_TEXT }).strict(),
  output: typed<Result<typeof takeUpstreamLogin>>(),
  events: [],
  async handler(ctx, input) {
    return takeUpstreamLogin(ctx.deps, input.state);
  },
});

export const sendSignInLinkOp = defineInternalOperation({
  operationId: 'sendSignInLink',
  title: 'Mail a sign-in link',
  description:
    'Mails a one-time sign-in link (sign-in, sign-up, or from a sign-up draft); the same answer whoever owns the address. Past the hourly limit for the address, 429 RateLimited.',
  auth: VISITOR,
  input: z
    .object({
      email: z.string().min(1).max(1_000),
      reason: z.enum(['signup', 'signin']),
      publicUrl: URL_TEXT.min(1),
      next: NEXT,
      name: z.string().max(1_000).optional(),
      draft: z
        .object({ id: z.string().min(1).max(200), name: z.string().max(1_000) })
        .strict()
        .optional(),
    })
    .strict(),
  output: typed<void>(),
  events: [],
  async handler(ctx, input) {
    const { name, draft, ...request } = input;
    return sendSignInLink(
      { ...ctx.deps, log: ctx.log },
      { ...request, ...(name !== undefined ? { name } : {}), ...(draft ? { draft } : {}) },
    );
  },
});

export const peekSignInLinkOp = defineInternalOperation({
  operationId: 'peekSignInLink',
  title: 'Whose sign-in link this is',
  description: 'The address a link would sign in to while it may be followed; not used up. Null otherwise.',
  auth: VISITOR,
  input: z.object({ token: FORM_TEXT }).strict(),
  output: typed<Result<typeof peekSignInLink>>(),
  events: [],
  async handler(ctx, input) {
    return peekSignInLink(ctx.deps, input.token);
  },
});

export const followSignInLinkOp = defineInternalOperation({
  operationId: 'followSignInLink',
  title: 'Follow a sign-in link',
  description:
    'Uses a link once: the account with its address (made if absent), the password chosen set (hashed here; one that breaks the password rule is a 400 and uses nothing), a draft it was mailed from attached, and a browser session opened for that account. Null when the link is unknown, used or expired.',
  auth: VISITOR,
  input: z.object({ token: FORM_TEXT, password: FORM_TEXT.nullable() }).strict(),
  output: typed<
    (NonNullable<Result<typeof followSignInLink>> & { session: Result<typeof startWebSession> }) | null
  >(),
  events: [],
  async handler(ctx, input) {
    // The session is opened here, for the account the link proved: a visitor never names the
    // account a session is opened for.
    const problem = input.password ? passwordProblem(input.password) : null;
    if (problem)
      throw new ServiceError('BAD_REQUEST', problem, { fields: [{ field: 'password', message: problem }] });
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    const followed = await followSignInLink(ctx.deps, input.token, passwordHash);
    if (!followed) return null;
    return { ...followed, session: await startWebSession(ctx.deps, followed.user.id) };
  },
});

export const findWebSessionUserOp = defineInternalOperation({
  operationId: 'findWebSessionUser',
  title: 'Who a browser session signs in',
  description:
    "The person a session cookie signs in while it lasts; null otherwise. The pages' door: it makes a visitor the person.",
  auth: VISITOR,
  input: z.object({ token: FORM_TEXT }).strict(),
  output: typed<Result<typeof findWebSessionUser>>(),
  events: [],
  async handler(ctx, input) {
    return findWebSessionUser(ctx.deps, input.token);
  },
});

export const formTokenKeyOp = defineInternalOperation({
  operationId: 'formTokenKey',
  title: "The form tokens' key",
  description: 'The key form tokens are made with: made the first time, then the same for every instance.',
  auth: VISITOR,
  input: z.object({}).strict(),
  output: typed<string>(),
  events: [],
  async handler(ctx) {
    return formTokenKey(ctx.deps);
  },
});

export const endWebSessionOp = defineInternalOperation({
  operationId: 'endWebSession',
  title: 'Sign out',
  description: "Ends the person's browser session: it stops working at once.",
  auth: PERSON,
  input: z.object({ token: SECRET.min(1) }).strict(),
  output: typed<void>(),
  events: [],
  async handler(ctx, input) {
    // Only the person's own session: another's token is told as unknown, and ended never.
    const owner = await findWebSessionUser(ctx.deps, input.token);
    if (owner && owner.id !== personOf(ctx))
      throw new ServiceError('NOT_FOUND', 'No such session of yours.', {});
    personOf(ctx);
    return endWebSession(ctx.deps, input.token);
  },
});

export const pageHeaderOfOp = defineInternalOperation({
  operationId: 'pageHeaderOf',
  title: "The pages' header links",
  description: "Which of the header's links the person gets: business applications, the operator console.",
  auth: PERSON,
  input: z.object({}).strict(),
  output: typed<Result<typeof pageHeaderOf>>(),
  events: [],
  async handler(ctx) {
    return pageHeaderOf(ctx.deps, personOf(ctx));
  },
});

// --- The person's own account: API keys and connected assistants -------------------------------

export const listApiKeysOp = defineInternalOperation({
  operationId: 'listApiKeys',
  title: 'Your API keys',
  description: "The person's API keys that still work, newest first.",
  auth: PERSON,
  input: z.object({}).strict(),
  output: typed<Result<typeof listApiKeys>>(),
  events: [],
  async handler(ctx) {
    return listApiKeys(ctx.deps, personOf(ctx));
  },
});

export const createAccountApiKeyOp = defineInternalOperation({
  operationId: 'createAccountApiKey',
  title: 'Make an API key',
  description: 'An API key for the person themselves, shown once; unknown or no scopes are refused (400).',
  auth: PERSON,
  // The page cuts a key's name to 80 characters (code points); UTF-16 counts an emoji as two.
  input: z.object({ scopes: SCOPE_LIST, name: z.string().min(1).max(160) }).strict(),
  output: typed<Result<typeof createAccountApiKey>>(),
  events: [],
  async handler(ctx, input) {
    const user = await findUserById(ctx.deps.sql, personOf(ctx));
    if (!user) throw new ServiceError('FORBIDDEN', 'This account no longer exists.', {});
    return createAccountApiKey(ctx.deps, user, input);
  },
});

export const revokeApiKeyOp = defineInternalOperation({
  operationId: 'revokeApiKey',
  title: 'Revoke an API key',
  description: "Revokes one of the person's own keys; false when it is not theirs or already revoked.",
  auth: PERSON,
  input: z.object({ keyId: FORM_TEXT }).strict(),
  output: typed<boolean>(),
  events: [],
  async handler(ctx, input) {
    return revokeApiKey(ctx.deps, personOf(ctx), input.keyId);
  },
});

export const listAssistantConnectionsOp = defineInternalOperation({
  operationId: 'listAssistantConnections',
  title: 'Your connected assistants',
  description: "The assistants connected to the person's account, one row each.",
  auth: PERSON,
  input: z.object({}).strict(),
  output: typed<Result<typeof listAssistantConnections>>(),
  events: [],
  async handler(ctx) {
    return listAssistantConnections(ctx.deps, personOf(ctx));
  },
});

export const removeConnectionOp = defineInternalOperation({
  operationId: 'removeConnection',
  title: 'Remove a connected assistant',
  description: 'Every token the assistant holds for the person stops working; how many were revoked.',
  auth: PERSON,
  input: z.object({ clientId: FORM_TEXT }).strict(),
  output: typed<number>(),
  events: [],
  async handler(ctx, input) {
    return removeConnection(ctx.deps, personOf(ctx), input.clientId);
  },
});

export const findAuthorizationRequestOp = defineInternalOperation({
  operationId: 'findAuthorizationRequest',
  title: "An assistant's request to connect",
  description:
    'The authorization request the consent page shows, with its client; null when expired or answered.',
  auth: PERSON,
  input: z.object({ requestId: FORM_TEXT }).strict(),
  output: typed<Result<typeof findAuthorizationRequest>>(),
  events: [],
  async handler(ctx, input) {
    personOf(ctx);
    return findAuthorizationRequest(ctx.deps, input.requestId);
  },
});

export const answerAuthorizationRequestOp = defineInternalOperation({
  operationId: 'answerAuthorizationRequest',
  title: "Answer an assistant's request to connect",
  description:
    'Allows (an authorization code for the person) or denies the request, once; null when expired or answered.',
  auth: PERSON,
  input: z.object({ requestId: FORM_TEXT, approve: z.boolean() }).strict(),
  output: typed<Result<typeof answerAuthorizationRequest>>(),
  events: [],
  async handler(ctx, input) {
    return answerAuthorizationRequest(ctx.deps, { ...input, userId: personOf(ctx) });
  },
});

// --- The OAuth server's endpoints, called by assistants' clients (visitors) --------------------

// Empty is let through: the functions answer an unknown client (`invalid_client`, RFC 6749 §5.2).
const CLIENT_ID = OAUTH_TEXT;

export const registerOAuthClientOp = defineInternalOperation({
  operationId: 'registerOAuthClient',
  title: 'Register an OAuth client',
  description: 'RFC 7591 dynamic registration: the metadata as stored, id included.',
  auth: VISITOR,
  input: z
    .object({ client: z.custom<OAuthClientRegistration>((v) => typeof v === 'object' && v !== null) })
    .strict(),
  output: typed<Result<typeof registerOAuthClient>>(),
  events: [],
  async handler(ctx, input) {
    return registerOAuthClient(ctx.deps, input.client);
  },
});

export const findOAuthClientMetadataOp = defineInternalOperation({
  operationId: 'findOAuthClientMetadata',
  title: 'A known OAuth client',
  description: 'A registered client or one known by a cached metadata document; null when unknown.',
  auth: VISITOR,
  input: z.object({ clientId: CLIENT_ID }).strict(),
  output: typed<Result<typeof findOAuthClientMetadata>>(),
  events: [],
  async handler(ctx, input) {
    return findOAuthClientMetadata(ctx.deps, input.clientId);
  },
});

export const clientFromMetadataDocumentOp = defineInternalOperation({
  operationId: 'clientFromMetadataDocument',
  title: 'An OAuth client known by its metadata document',
  description: 'The cached document while fresh, else the one fetched (and cached as long as it allows).',
  auth: VISITOR,
  input: z
    .object({
      clientId: CLIENT_ID,
      fetchDocument: fn<(clientId: string) => Promise<FetchedClientDocument>>(),
    })
    .strict(),
  output: typed<Result<typeof clientFromMetadataDocument>>(),
  events: [],
  async handler(ctx, input) {
    return clientFromMetadataDocument(ctx.deps, input.clientId, input.fetchDocument);
  },
});

export const requestAuthorizationOp = defineInternalOperation({
  operationId: 'requestAuthorization',
  title: 'An assistant asks to connect',
  description: 'Keeps the authorization request for the consent page; unknown scopes are invalid_scope.',
  auth: VISITOR,
  input: z
    .object({
      clientId: CLIENT_ID,
      redirectUri: OAUTH_TEXT.min(1),
      scopes: SCOPE_LIST,
      state: OAUTH_TEXT.nullable(),
      codeChallenge: z.string().min(43).max(128),
      resource: OAUTH_TEXT.nullable(),
    })
    .strict(),
  output: typed<string>(),
  events: [],
  async handler(ctx, input) {
    return requestAuthorization(ctx.deps, input);
  },
});

export const codeChallengeForOp = defineInternalOperation({
  operationId: 'codeChallengeFor',
  title: "An authorization code's PKCE challenge",
  description: 'The code challenge a live code of this client was issued with; invalid_grant otherwise.',
  auth: VISITOR,
  input: z.object({ clientId: CLIENT_ID, code: OAUTH_TEXT }).strict(),
  output: typed<string>(),
  events: [],
  async handler(ctx, input) {
    return codeChallengeFor(ctx.deps, input.clientId, input.code);
  },
});

export const exchangeAuthorizationCodeOp = defineInternalOperation({
  operationId: 'exchangeAuthorizationCode',
  title: 'Exchange an authorization code',
  description: 'Tokens for a live code of this client (once); invalid_grant otherwise.',
  auth: VISITOR,
  input: z
    .object({
      clientId: CLIENT_ID,
      code: OAUTH_TEXT,
      redirectUri: OAUTH_TEXT.optional(),
      resource: OAUTH_TEXT.optional(),
    })
    .strict(),
  output: typed<Result<typeof exchangeAuthorizationCode>>(),
  events: [],
  async handler(ctx, input) {
    return exchangeAuthorizationCode(ctx.deps, input);
  },
});

export const exchangeRefreshTokenOp = defineInternalOperation({
  operationId: 'exchangeRefreshToken',
  title: 'Exchange a refresh token',
  description:
    'New tokens of the same family for a live refresh token of this client; invalid_grant otherwise.',
  auth: VISITOR,
  input: z
    .object({
      clientId: CLIENT_ID,
      refreshToken: OAUTH_TEXT,
      scopes: SCOPE_LIST.optional(),
      resource: OAUTH_TEXT.optional(),
    })
    .strict(),
  output: typed<Result<typeof exchangeRefreshToken>>(),
  events: [],
  async handler(ctx, input) {
    return exchangeRefreshToken(ctx.deps, input);
  },
});

export const revokeOAuthTokenOp = defineInternalOperation({
  operationId: 'revokeOAuthToken',
  title: 'Revoke an OAuth token',
  description:
    'RFC 7009: a token of this client stops working; an unknown one changes nothing, answered the same.',
  auth: VISITOR,
  input: z.object({ clientId: CLIENT_ID, token: OAUTH_TEXT }).strict(),
  output: typed<void>(),
  events: [],
  async handler(ctx, input) {
    return revokeOAuthToken(ctx.deps, input.clientId, input.token);
  },
});

// --- MCP sessions: what a client declared at initialize, for any instance (issue 31) -----------

/** The MCP endpoint a session belongs to, as the door names it (`/mcp`, `/mcp/business`). */
const MCP_ENDPOINT = z.string().min(1).max(200);
/** An `Mcp-Session-Id` as a client sends it back (ours are 68 characters). */
const MCP_SESSION_ID = z.string().min(1).max(200);

export const openMcpSessionOp = defineInternalOperation({
  operationId: 'openMcpSession',
  title: 'Open an MCP session',
  description:
    "Keeps what an MCP client declared at initialize (capabilities, protocol version) under a new session id, given once: the MCP door's, for a client not yet known (a visitor).",
  auth: VISITOR,
  input: z
    .object({
      endpoint: MCP_ENDPOINT,
      protocolVersion: z.string().max(100),
      capabilities: z.record(z.string(), z.unknown()),
      clientName: z.string().max(200).nullable(),
    })
    .strict(),
  output: typed<Result<typeof openMcpSession>>(),
  events: [],
  async handler(ctx, input) {
    return openMcpSession(ctx.deps, input);
  },
});

export const findMcpSessionOp = defineInternalOperation({
  operationId: 'findMcpSession',
  title: 'Read an MCP session',
  description:
    'What the client of a live MCP session declared at initialize; null when the id is unknown, expired or of the other endpoint.',
  auth: VISITOR,
  input: z.object({ endpoint: MCP_ENDPOINT, sessionId: MCP_SESSION_ID }).strict(),
  output: typed<Result<typeof findLiveMcpSession>>(),
  events: [],
  async handler(ctx, input) {
    return findLiveMcpSession(ctx.deps, input.sessionId, input.endpoint);
  },
});

export const endMcpSessionOp = defineInternalOperation({
  operationId: 'endMcpSession',
  title: 'End an MCP session',
  description: "The client's DELETE: the session ends; false when there was no live one.",
  auth: VISITOR,
  input: z.object({ endpoint: MCP_ENDPOINT, sessionId: MCP_SESSION_ID }).strict(),
  output: typed<boolean>(),
  events: [],
  async handler(ctx, input) {
    return endMcpSession(ctx.deps, input.sessionId, input.endpoint);
  },
});
