import { AsyncLocalStorage } from 'node:async_hooks';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import {
  InvalidClientError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  InvalidTokenError,
  MethodNotAllowedError,
  OAuthError,
  ServerError,
  TemporarilyUnavailableError,
  UnsupportedResponseTypeError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { redirectUriMatches } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import {
  type AuthRouterOptions,
  createOAuthMetadata,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  ACCESS_TOKEN_SECONDS,
  authenticate,
  DATABASE_RETRY_AFTER_SECONDS,
  identityOperations as identity,
  type IssuedTokens,
  MCP_PATHS,
  type McpSurface,
  type OAuthErrorCode,
  SCOPE_NAMES,
  scopesOn,
  ServiceError,
  toServiceError,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import express, { type RequestHandler, type Response, type Router } from 'express';
import {
  ClientDocumentError,
  checkRedirectUri,
  fetchClientMetadataDocument,
  isClientIdUrl,
} from './client-metadata.js';
import { run, visitorCall } from './calls.js';
import { unstorableRequestText } from './forms.js';

/** The issuer exactly as the metadata names it (the SDK's `issuerUrl.href`, trailing slash included). */
function issuerOf(runtime: Runtime): string {
  return new URL(runtime.publicUrl()).href;
}

/**
 * The resource a token may be for (RFC 8707): the whole service, its MCP server or its REST API;
 * anything else is `invalid_target`.
 */
function acceptResource(runtime: Runtime, resource: string): URL {
  const base = runtime.publicUrl().replace(/\/$/, '');
  const endpoints = [`${base}${MCP_PATHS.person}`, `${base}${MCP_PATHS.business}`, `${base}/v1`];
  const accepted = [base, `${base}/`, ...endpoints].map((u) => new URL(u).href);
  const url = URL.canParse(resource) ? new URL(resource) : null;
  if (!url || !accepted.includes(url.href))
    throw new InvalidTargetError(`resource must be ${base} or one of ${endpoints.join(', ')}.`);
  return url;
}

/** The SDK's error for each code the operations refuse with. */
const OAUTH_ERRORS: Record<OAuthErrorCode, new (message: string) => OAuthError> = {
  invalid_grant: InvalidGrantError,
  invalid_scope: InvalidScopeError,
};

/**
 * Awaits an operation, its refusals (the RFC 6749 code in `details.error`) turned into the SDK's
 * errors; input the operation's schema refuses (400) is the request's fault: invalid_request.
 */
async function oauthAnswer<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    const code = err instanceof ServiceError ? String(err.details.error) : '';
    if (Object.hasOwn(OAUTH_ERRORS, code))
      throw new OAUTH_ERRORS[code as OAuthErrorCode]((err as ServiceError).message);
    if (err instanceof ServiceError && err.code === 'BAD_REQUEST') throw new InvalidRequestError(err.message);
    throw err;
  }
}

/** Issued tokens as the token endpoint answers them (RFC 6749 §5.1). */
function tokenResponse(tokens: IssuedTokens): OAuthTokens {
  return {
    access_token: tokens.accessToken,
    token_type: 'Bearer',
    expires_in: tokens.expiresInSeconds,
    refresh_token: tokens.refreshToken,
    scope: tokens.scopes.join(' '),
  };
}

/**
 * The service as its own OAuth 2.1 authorization server, for the MCP SDK's router (our own
 * /authorize handler in front of it): the operations of `oauth/` in the SDK's shapes, with the
 * resource checks (RFC 8707) of this host.
 */
export function createOAuthProvider(runtime: Runtime): OAuthServerProvider {
  const { deps } = runtime;
  const now = () => deps.clock.now();
  /** Every call here is an assistant's client at our endpoints: a visitor (docs/decisions.md). */
  const client = () => visitorCall(runtime);

  /** Fetches a client's metadata document; its problems are the client's (invalid_client). */
  async function fetchDocument(clientId: string) {
    try {
      return await fetchClientMetadataDocument(clientId, {
        allowLoopback: isLoopbackUrl(runtime.publicUrl()),
      });
    } catch (err) {
      if (err instanceof ClientDocumentError) throw new InvalidClientError(err.message);
      throw err;
    }
  }

  const clientsStore: OAuthRegisteredClientsStore = {
    async getClient(clientId) {
      const found = isClientIdUrl(clientId)
        ? await oauthAnswer(run(identity.clientFromMetadataDocumentOp, client(), { clientId, fetchDocument }))
        : await oauthAnswer(run(identity.findOAuthClientMetadataOp, client(), { clientId }));
      return (found ?? undefined) as OAuthClientInformationFull | undefined;
    },
    async registerClient(metadata) {
      return (await oauthAnswer(
        run(identity.registerOAuthClientOp, client(), { client: metadata }),
      )) as OAuthClientInformationFull;
    },
  };

  return {
    clientsStore,

    async authorize(asking: OAuthClientInformationFull, params: AuthorizationParams, res) {
      // Its refusals go back to the client through the /authorize handler, with state and iss.
      const id = await oauthAnswer(
        run(identity.requestAuthorizationOp, client(), {
          clientId: asking.client_id,
          redirectUri: params.redirectUri,
          scopes: params.scopes ?? [],
          state: params.state ?? null,
          codeChallenge: params.codeChallenge,
          resource: params.resource?.href ?? null,
        }),
      );
      // Sign-in (if needed) and consent happen on our pages; they issue the code.
      res.redirect(302, `/oauth/consent?request=${encodeURIComponent(id)}`);
    },

    challengeForAuthorizationCode(asking, code) {
      return oauthAnswer(run(identity.codeChallengeForOp, client(), { clientId: asking.client_id, code }));
    },

    async exchangeAuthorizationCode(asking, code, _verifier, redirectUri, resource) {
      // Before the code is spent: a foreign resource is the request's fault, not the code's.
      if (resource) acceptResource(runtime, resource.href);
      const tokens = await oauthAnswer(
        run(identity.exchangeAuthorizationCodeOp, client(), {
          clientId: asking.client_id,
          code,
          ...(redirectUri !== undefined ? { redirectUri } : {}),
          ...(resource ? { resource: resource.href } : {}),
        }),
      );
      return tokenResponse(tokens);
    },

    async exchangeRefreshToken(asking, refreshToken, scopes, resource) {
      if (resource) acceptResource(runtime, resource.href);
      const tokens = await oauthAnswer(
        run(identity.exchangeRefreshTokenOp, client(), {
          clientId: asking.client_id,
          refreshToken,
          ...(scopes !== undefined ? { scopes } : {}),
          ...(resource ? { resource: resource.href } : {}),
        }),
      );
      return tokenResponse(tokens);
    },

    async verifyAccessToken(token): Promise<AuthInfo> {
      try {
        const auth = await authenticate(deps.sql, token, now());
        return {
          token,
          clientId: auth.clientId ?? 'personal-api-key',
          scopes: auth.scopes,
          expiresAt: Math.floor(now().getTime() / 1000) + ACCESS_TOKEN_SECONDS,
        };
      } catch (err) {
        if (err instanceof ServiceError) throw new InvalidTokenError(err.message);
        throw err;
      }
    },

    async revokeToken(asking, request: OAuthTokenRevocationRequest) {
      // RFC 7009: an unknown token, or one of another client, is answered the same and changes nothing.
      await oauthAnswer(
        run(identity.revokeOAuthTokenOp, client(), { clientId: asking.client_id, token: request.token }),
      );
    },
  };
}

function isLoopbackUrl(url: string): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);
}

// RFC 7636 §4.2: base64url of a SHA-256 is 43 characters; the grammar allows up to 128.
const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

/** A request parameter: absent (or empty, RFC 6749 §3.1), else given exactly once. */
function readParam(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new InvalidRequestError(`${name} must be given once.`);
  return value;
}

/** The client and the redirect URI to answer at; until both are known nothing may redirect. */
async function findClientRedirect(
  provider: OAuthServerProvider,
  input: Record<string, unknown>,
): Promise<{ client: OAuthClientInformationFull; redirectUri: string }> {
  const clientId = readParam(input, 'client_id');
  if (!clientId) throw new InvalidRequestError('client_id is required.');
  const requested = readParam(input, 'redirect_uri');
  if (requested !== undefined && !URL.canParse(requested))
    throw new InvalidRequestError('redirect_uri is not a valid URL.');
  const client = await provider.clientsStore.getClient(clientId);
  if (!client) throw new InvalidClientError('Unknown client_id.');
  let redirectUri: string;
  if (requested !== undefined) {
    // Exact match, except any port on loopback (RFC 8252 §7.3), as the SDK's own handler does.
    if (!client.redirect_uris.some((registered) => redirectUriMatches(requested, String(registered))))
      throw new InvalidRequestError('Unregistered redirect_uri');
    redirectUri = requested;
  } else if (client.redirect_uris.length === 1) {
    redirectUri = String(client.redirect_uris[0]);
  } else {
    throw new InvalidRequestError('redirect_uri is required when the client registered several.');
  }
  // Clients registered before the redirect URI rules were enforced are held to them here too.
  const problem = checkRedirectUri(redirectUri);
  if (problem) throw new InvalidRequestError(problem);
  return { client, redirectUri };
}

/** The rest of the request, checked; its errors go back to the client's redirect URI. */
function readAuthorizationRequest(
  runtime: Runtime,
  input: Record<string, unknown>,
): Omit<AuthorizationParams, 'redirectUri'> {
  const state = readParam(input, 'state');
  const responseType = readParam(input, 'response_type');
  if (!responseType) throw new InvalidRequestError('response_type is required; use code.');
  if (responseType !== 'code')
    throw new UnsupportedResponseTypeError('Only response_type=code is supported.');
  const codeChallenge = readParam(input, 'code_challenge');
  if (!codeChallenge) throw new InvalidRequestError('code_challenge is required (PKCE with S256).');
  // PKCE S256 only: a missing method means plain (RFC 7636 §4.3), which we refuse too.
  if (readParam(input, 'code_challenge_method') !== 'S256')
    throw new InvalidRequestError('code_challenge_method must be S256.');
  if (!CODE_CHALLENGE.test(codeChallenge))
    throw new InvalidRequestError('code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
  // A token is bound to one resource; the base URL covers /mcp, /mcp/business and /v1.
  if (Array.isArray(input.resource))
    throw new InvalidTargetError(
      'Name one resource; the service base URL covers /mcp, /mcp/business and /v1.',
    );
  const resource = readParam(input, 'resource');
  const scope = readParam(input, 'scope');
  return {
    state,
    scopes: scope?.split(' ').filter(Boolean) ?? [],
    codeChallenge,
    resource: resource === undefined ? undefined : acceptResource(runtime, resource),
  };
}

/** The client's redirect URI carrying an error, its state, and our issuer (RFC 6749 §4.1.2.1, RFC 9207). */
function buildErrorRedirect(
  runtime: Runtime,
  redirectUri: string,
  error: OAuthError,
  state: string | undefined,
): string {
  const to = new URL(redirectUri);
  to.searchParams.set('error', error.errorCode);
  to.searchParams.set('error_description', error.message);
  if (state) to.searchParams.set('state', state);
  to.searchParams.set('iss', issuerOf(runtime));
  return to.href;
}

/** Errors before the redirect URI is trusted: answered here, never redirected (RFC 6749 §4.1.2.1). */
function sendDirectError(runtime: Runtime, res: Response, err: unknown): void {
  if (err instanceof OAuthError && !(err instanceof ServerError)) {
    res.status(400).json(err.toResponseObject());
    return;
  }
  const error = toServiceError(err);
  if (error.status === 503) {
    // The database is away for a moment: RFC 6749's temporarily_unavailable, with when to retry.
    res.setHeader('Retry-After', String(error.details.retryAfterSeconds ?? 2));
    res.status(503).json(new TemporarilyUnavailableError(error.message).toResponseObject());
    return;
  }
  runtime.logger.error({ err }, 'authorization request failed');
  res.status(500).json(new ServerError('The request could not be handled; try again.').toResponseObject());
}

/**
 * /authorize, in place of the SDK's handler, which drops `state` and `iss` from error redirects and
 * puts zod's JSON in `error_description`. Unknown clients and redirect URIs are answered here
 * (400 JSON); every other error goes back to the client with state and iss.
 */
function authorizationHandler(runtime: Runtime, provider: OAuthServerProvider): Router {
  const router = express.Router();
  router.use(express.urlencoded({ extended: false }));
  router.all('/', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.setHeader('Allow', 'GET, POST');
      res
        .status(405)
        .json(new MethodNotAllowedError(`${req.method} is not allowed; use GET or POST.`).toResponseObject());
      return;
    }
    const input: Record<string, unknown> = (req.method === 'POST' ? req.body : req.query) ?? {};
    let found: Awaited<ReturnType<typeof findClientRedirect>>;
    try {
      found = await findClientRedirect(provider, input);
    } catch (err) {
      sendDirectError(runtime, res, err);
      return;
    }
    // State goes back even when another parameter is wrong, so the client can match the answer.
    const state = typeof input.state === 'string' && input.state ? input.state : undefined;
    try {
      await provider.authorize(
        found.client,
        { ...readAuthorizationRequest(runtime, input), redirectUri: found.redirectUri },
        res,
      );
    } catch (err) {
      const away = !(err instanceof OAuthError) && toServiceError(err).status === 503;
      if (!(err instanceof OAuthError) && !away)
        runtime.logger.error({ err }, 'authorization request failed');
      const error =
        err instanceof OAuthError
          ? err
          : away
            ? new TemporarilyUnavailableError('The service is unavailable for a moment; try again.')
            : new ServerError('The request could not be handled; try again.');
      res.redirect(302, buildErrorRedirect(runtime, found.redirectUri, error, state));
    }
  });
  return router;
}

/** RFC 7591 §3.2.2: a redirect URI we would never send a code to is refused before the SDK registers it. */
const checkRegistration: RequestHandler = (req, res, next) => {
  const uris = (req.body as { redirect_uris?: unknown } | undefined)?.redirect_uris;
  // Other malformed metadata is left to the SDK's handler (invalid_client_metadata).
  const problem = Array.isArray(uris)
    ? uris.map((uri) => (typeof uri === 'string' ? checkRedirectUri(uri) : null)).find(Boolean)
    : null;
  if (!problem) {
    next();
    return;
  }
  // The SDK's handler allows any origin; browser-based clients need that to read this refusal too.
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cache-Control', 'no-store');
  res.status(400).json({ error: 'invalid_redirect_uri', error_description: problem });
};

/**
 * RFC 6749 §5.2 / RFC 7591 §3.2.2: a parameter holding text we cannot store is an
 * invalid_request (invalid_client_metadata at /register), answered directly, never redirected:
 * a client_id or redirect_uri holding it cannot be trusted to send the browser back to.
 */
const refuseUnstorableOAuthText: RequestHandler = (req, res, next) => {
  const problem = unstorableRequestText(req);
  if (!problem) {
    next();
    return;
  }
  const registering = req.baseUrl.endsWith('/register');
  res.setHeader('Cache-Control', 'no-store');
  // As the SDK's handlers do: browser-based clients must be able to read the refusal.
  if (registering || req.baseUrl.endsWith('/token') || req.baseUrl.endsWith('/revoke'))
    res.setHeader('Access-Control-Allow-Origin', '*');
  res.status(400).json({
    error: registering ? 'invalid_client_metadata' : 'invalid_request',
    error_description: `${problem.field}: ${problem.message}`,
  });
};

/** Set while the SDK handles /token, /register, /revoke: whether the database was away. */
const databaseAway = new AsyncLocalStorage<{ away: boolean }>();

/**
 * The SDK's /token, /register and /revoke answer 500 server_error to any error not its own; when
 * that error was the database being away (the provider notes it), the answer becomes 503
 * temporarily_unavailable with Retry-After, as on every other door. Runs after the body is read,
 * so the request's async context reaches the SDK's handlers.
 */
const unavailableNot500: RequestHandler = (_req, res, next) => {
  const request = { away: false };
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (request.away && res.statusCode === 500) {
      res.status(503).setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return json(
        new TemporarilyUnavailableError(
          'The service is unavailable for a moment; try again shortly.',
        ).toResponseObject(),
      );
    }
    return json(body);
  };
  databaseAway.run(request, next);
};

/**
 * The provider as the SDK's handlers get it: they answer 500 to any error that is not an
 * OAuthError and log nothing, so each method (and the clients store's) logs such an error with
 * its cause first. OAuth errors (a refusal the client is told about) pass through unlogged.
 */
export function reportingProvider(runtime: Runtime, provider: OAuthServerProvider): OAuthServerProvider {
  const report = <T extends object>(target: T, name: string): T =>
    new Proxy(target, {
      get(obj, prop, receiver) {
        const value = Reflect.get(obj, prop, receiver);
        if (prop === 'clientsStore' && value && typeof value === 'object')
          return report(value as object, 'clientsStore');
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          try {
            return await (value as (...a: unknown[]) => unknown).apply(obj, args);
          } catch (err) {
            if (!(err instanceof OAuthError)) {
              const away = toServiceError(err).status === 503;
              const request = databaseAway.getStore();
              if (away && request) request.away = true;
              else runtime.logger.error({ err, method: `${name}.${String(prop)}` }, 'OAuth request failed');
            }
            throw err;
          }
        };
      },
    });
  return report(provider, 'provider');
}

/**
 * The authorization server's endpoints (/authorize, /token, /register, /revoke, metadata) and the
 * protected-resource metadata of /mcp, /mcp/business and /v1, built on first use (the public URL is known then).
 */
export function oauthRouter(runtime: Runtime, ourProvider: OAuthServerProvider): Router {
  const router = express.Router();
  const provider = reportingProvider(runtime, ourProvider);
  let auth: RequestHandler | undefined;
  /** RFC 9728 metadata of one protected resource, naming only the scopes its operations need. */
  const resourceMetadata =
    (path: string, name: string, scopes: readonly string[]): RequestHandler =>
    (_req, res) => {
      const base = runtime.publicUrl();
      res.json({
        resource: `${base}${path}`,
        // Strict clients compare this string with the metadata's issuer, trailing slash included.
        authorization_servers: [issuerOf(runtime)],
        scopes_supported: scopes,
        bearer_methods_supported: ['header'],
        resource_name: name,
        resource_documentation: `${base}/docs`,
      });
    };
  router.get('/.well-known/oauth-protected-resource/v1', resourceMetadata('/v1', 'NogPets API', SCOPE_NAMES));
  const mcpNames: Record<McpSurface, string> = {
    person: 'NogPets MCP for pet owners',
    business: 'NogPets MCP for pet businesses',
  };
  for (const surface of ['person', 'business'] as const) {
    const path = MCP_PATHS[surface];
    router.get(
      `/.well-known/oauth-protected-resource${path}`,
      resourceMetadata(path, mcpNames[surface], scopesOn(surface)),
    );
  }
  let metadata: RequestHandler | undefined;
  const options = (): AuthRouterOptions => {
    const base = runtime.publicUrl();
    return {
      provider,
      issuerUrl: new URL(base),
      scopesSupported: SCOPE_NAMES,
      resourceServerUrl: new URL(`${base}/mcp`),
      resourceName: 'NogPets MCP',
      serviceDocumentationUrl: new URL(`${base}/docs`),
      // Our own PostgreSQL-backed limiter covers these (above); the SDK's would count per instance.
      authorizationOptions: { rateLimit: false },
      clientRegistrationOptions: { rateLimit: false },
      tokenOptions: { rateLimit: false },
      revocationOptions: { rateLimit: false },
    };
  };
  // The shared, PostgreSQL-backed request limit (the SDK's own limiter counts per instance).
  router.use(['/authorize', '/token', '/register', '/revoke'], runtime.rateLimiter.middleware);
  // Text that cannot be stored (NUL, a lone surrogate) in any parameter is refused here, naming
  // it, before the SDK's handlers read it. (They parse bodies again only when we have not.)
  router.use(
    ['/authorize', '/token', '/register', '/revoke'],
    express.urlencoded({ extended: false }),
    express.json({ limit: '100kb' }),
    refuseUnstorableOAuthText,
  );
  router.use(['/token', '/register', '/revoke'], unavailableNot500);
  // The SDK's metadata, plus what it does not know: Client ID Metadata Documents, and iss on every
  // answer from /authorize (RFC 9207).
  router.use('/.well-known/oauth-authorization-server', (req, res, next) => {
    metadata ??= metadataHandler({
      ...createOAuthMetadata(options()),
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    } as Parameters<typeof metadataHandler>[0]);
    metadata(req, res, next);
  });
  router.use('/authorize', authorizationHandler(runtime, provider));
  router.post('/register', express.json(), checkRegistration);
  router.use((req, res, next) => {
    auth ??= mcpAuthRouter(options());
    auth(req, res, next);
  });
  return router;
}
