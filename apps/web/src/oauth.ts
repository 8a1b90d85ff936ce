import { randomBytes, randomUUID } from 'node:crypto';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidClientError, InvalidGrantError, InvalidScopeError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { type AuthRouterOptions, createOAuthMetadata, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { authenticate, hashSecret, newSecret, SCOPE_NAMES, ServiceError } from '@nogpets/operations';
import type { Runtime } from '@nogpets/platform';
import {
  findCredentialFull,
  findOAuthClient,
  findOAuthCode,
  insertCredential,
  insertOAuthClient,
  insertOAuthRequest,
  revokeCredentialByHash,
  revokeFamily,
  saveClientMetadataDocument,
  useOAuthCode,
} from '@nogpets/store';
import express, { type RequestHandler, type Router } from 'express';
import { ClientDocumentError, fetchClientMetadataDocument, isClientIdUrl } from './client-metadata.js';

/** Token lifetimes (docs/decisions.md): short access, rotating refresh, short codes and requests. */
export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_DAYS = 30;
export const CODE_SECONDS = 300;
export const REQUEST_MINUTES = 15;

/**
 * The service as its own OAuth 2.1 authorization server, for the MCP SDK's router: PKCE is checked
 * by the SDK; single-use codes bound to client, redirect URI and resource, scope checks, refresh
 * rotation with reuse detection, revocation and audience are ours.
 */
export function createOAuthProvider(runtime: Runtime): OAuthServerProvider {
  const { sql, clock } = runtime.deps;
  const now = () => clock.now();

  /** A client known by the URL of its metadata document: the cached copy while fresh, else fetched. */
  async function documentClient(clientId: string): Promise<OAuthClientInformationFull> {
    const row = await findOAuthClient(sql, clientId);
    if (row?.kind === 'METADATA_DOCUMENT' && row.staleAt && row.staleAt > now()) {
      return { ...(row.metadata as object), client_id: row.id, redirect_uris: row.redirectUris } as OAuthClientInformationFull;
    }
    try {
      const { client, cacheSeconds } = await fetchClientMetadataDocument(clientId, { allowLoopback: isLoopbackUrl(runtime.publicUrl()) });
      await saveClientMetadataDocument(sql, {
        id: clientId,
        name: (client.client_name ?? new URL(clientId).host).slice(0, 120),
        redirectUris: client.redirect_uris.map(String),
        metadata: client as unknown as Record<string, unknown>,
        staleAt: new Date(now().getTime() + cacheSeconds * 1000),
      });
      return client;
    } catch (err) {
      if (err instanceof ClientDocumentError) throw new InvalidClientError(err.message);
      throw err;
    }
  }

  const clientsStore: OAuthRegisteredClientsStore = {
    async getClient(clientId) {
      if (isClientIdUrl(clientId)) return documentClient(clientId);
      const row = await findOAuthClient(sql, clientId);
      return row ? ({ ...(row.metadata as object), client_id: row.id, redirect_uris: row.redirectUris } as OAuthClientInformationFull) : undefined;
    },
    async registerClient(client) {
      const full = client as OAuthClientInformationFull;
      const id = full.client_id ?? randomUUID();
      const info = { ...full, client_id: id };
      await insertOAuthClient(sql, {
        id,
        name: (full.client_name ?? 'Unnamed assistant').slice(0, 120),
        redirectUris: full.redirect_uris.map(String),
        metadata: info as unknown as Record<string, unknown>,
      });
      return info;
    },
  };

  async function issue(userId: string, clientId: string, scopes: string[], familyId: string, resource: string | null): Promise<OAuthTokens> {
    const access = newSecret('nat');
    const refresh = newSecret('nrt');
    const t = now().getTime();
    await insertCredential(sql, {
      userId,
      kind: 'ACCESS',
      tokenHash: hashSecret(access),
      scopes,
      clientId,
      familyId,
      expiresAt: new Date(t + ACCESS_TOKEN_SECONDS * 1000),
      resource,
    });
    await insertCredential(sql, {
      userId,
      kind: 'REFRESH',
      tokenHash: hashSecret(refresh),
      scopes,
      clientId,
      familyId,
      expiresAt: new Date(t + REFRESH_TOKEN_DAYS * 86_400_000),
      resource,
    });
    return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS, refresh_token: refresh, scope: scopes.join(' ') };
  }

  return {
    clientsStore,

    async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res) {
      const requested = params.scopes?.length ? params.scopes : ['profile'];
      const unknown = requested.filter((s) => !(SCOPE_NAMES as string[]).includes(s));
      if (unknown.length) {
        const to = new URL(params.redirectUri);
        to.searchParams.set('error', 'invalid_scope');
        to.searchParams.set('error_description', `Unknown scopes: ${unknown.join(' ')}`);
        if (params.state) to.searchParams.set('state', params.state);
        res.redirect(302, to.href);
        return;
      }
      const id = await insertOAuthRequest(sql, {
        clientId: client.client_id,
        redirectUri: params.redirectUri,
        scopes: [...new Set(requested)],
        state: params.state ?? null,
        codeChallenge: params.codeChallenge,
        resource: params.resource?.href ?? null,
        expiresAt: new Date(now().getTime() + REQUEST_MINUTES * 60_000),
      });
      // Sign-in (if needed) and consent happen on our pages; they issue the code.
      res.redirect(302, `/oauth/consent?request=${encodeURIComponent(id)}`);
    },

    async challengeForAuthorizationCode(client, code) {
      const row = await findOAuthCode(sql, hashSecret(code));
      if (!row || row.clientId !== client.client_id || row.expiresAt <= now()) throw new InvalidGrantError('Unknown or expired authorization code.');
      return row.codeChallenge;
    },

    async exchangeAuthorizationCode(client, code, _verifier, redirectUri, resource) {
      const hash = hashSecret(code);
      const row = await useOAuthCode(sql, hash, now());
      if (!row) {
        // A replayed code: whatever it already gave out is revoked (OAuth 2.1 §4.1.3).
        const used = await findOAuthCode(sql, hash);
        if (used?.usedAt) await revokeFamily(sql, used.familyId, now());
        throw new InvalidGrantError('The authorization code was already used.');
      }
      if (row.clientId !== client.client_id) throw new InvalidGrantError('The code was issued to another client.');
      if (row.expiresAt <= now()) throw new InvalidGrantError('The authorization code has expired.');
      // OAuth 2.1 lets PKCE clients leave redirect_uri out here; when it is given it must be the same.
      if (redirectUri !== undefined && redirectUri !== row.redirectUri) {
        throw new InvalidGrantError('redirect_uri differs from the one the code was issued for.');
      }
      if (resource && row.resource && resource.href !== row.resource) throw new InvalidGrantError('resource differs from the one authorized.');
      return issue(row.userId, row.clientId, row.scopes, row.familyId, row.resource ?? resource?.href ?? null);
    },

    async exchangeRefreshToken(client, refreshToken, scopes, resource) {
      const hash = hashSecret(refreshToken);
      const row = await findCredentialFull(sql, hash);
      if (row?.kind !== 'REFRESH' || row.clientId !== client.client_id) throw new InvalidGrantError('Unknown refresh token.');
      if (row.revokedAt) {
        // Reuse of a rotated (or revoked) refresh token: the whole family goes.
        if (row.familyId) await revokeFamily(sql, row.familyId, now());
        throw new InvalidGrantError('The refresh token was already used; the connection has been revoked.');
      }
      if (row.expiresAt && row.expiresAt <= now()) throw new InvalidGrantError('The refresh token has expired.');
      const wanted = scopes?.length ? scopes : row.scopes;
      const wider = wanted.filter((s) => !row.scopes.includes(s));
      if (wider.length) throw new InvalidScopeError(`Refresh cannot widen scope (${wider.join(' ')}); authorize again.`);
      if (resource && row.resource && resource.href !== row.resource) throw new InvalidGrantError('resource differs from the one authorized.');
      await revokeCredentialByHash(sql, hash, now());
      return issue(row.userId, row.clientId!, wanted, row.familyId ?? randomUUID(), row.resource);
    },

    async verifyAccessToken(token): Promise<AuthInfo> {
      try {
        const auth = await authenticate(sql, token, now());
        return { token, clientId: auth.clientId ?? 'personal-api-key', scopes: auth.scopes, expiresAt: Math.floor(now().getTime() / 1000) + ACCESS_TOKEN_SECONDS };
      } catch (err) {
        if (err instanceof ServiceError) throw new InvalidTokenError(err.message);
        throw err;
      }
    },

    async revokeToken(client, request: OAuthTokenRevocationRequest) {
      const row = await findCredentialFull(sql, hashSecret(request.token));
      // RFC 7009: an unknown token, or one of another client, is answered the same and changes nothing.
      if (!row || row.clientId !== client.client_id) return;
      if (row.kind === 'REFRESH' && row.familyId) await revokeFamily(sql, row.familyId, now());
      else await revokeCredentialByHash(sql, hashSecret(request.token), now());
    },
  };
}

function isLoopbackUrl(url: string): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);
}

/** A secret code for the consent page to hand out; only its hash is stored. */
export function newAuthorizationCode(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The authorization server's endpoints (/authorize, /token, /register, /revoke, metadata) and the
 * protected-resource metadata of /mcp and /v1, built on first use (the public URL is known then).
 */
export function oauthRouter(runtime: Runtime, provider: OAuthServerProvider): Router {
  const router = express.Router();
  let auth: RequestHandler | undefined;
  router.get('/.well-known/oauth-protected-resource/v1', (_req, res) => {
    const base = runtime.publicUrl();
    res.json({
      resource: `${base}/v1`,
      authorization_servers: [base],
      scopes_supported: SCOPE_NAMES,
      bearer_methods_supported: ['header'],
      resource_name: 'NogPets API',
      resource_documentation: `${base}/docs`,
    });
  });
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
  // The SDK's metadata, plus what it does not know: we accept Client ID Metadata Documents.
  router.use('/.well-known/oauth-authorization-server', (req, res, next) => {
    metadata ??= metadataHandler({ ...createOAuthMetadata(options()), client_id_metadata_document_supported: true } as Parameters<typeof metadataHandler>[0]);
    metadata(req, res, next);
  });
  router.use((req, res, next) => {
    auth ??= mcpAuthRouter(options());
    auth(req, res, next);
  });
  return router;
}
