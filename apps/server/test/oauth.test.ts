import { createServer, type Server } from 'node:http';
import { hash } from '@node-rs/argon2';
import { type Browser, launchBrowser } from '@nogpets/test-utils';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentInBrowser, startTestServer, type TestServer } from './harness.js';

describe('OAuth 2.1 for assistants', () => {
  let server: TestServer;
  let browser: Browser;
  let callback: Server;
  let redirectUri: string;
  let as: oauth.AuthorizationServer;
  let client: oauth.Client;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    const user = await findOrCreateUser(server.db.sql, 'sipho@example.com', 'Sipho');
    await setPassword(server.db.sql, user.id, await hash('a long enough password'));
    // The assistant's redirect target: a real HTTP server on loopback.
    callback = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => callback.listen(0, '127.0.0.1', () => r()));
    const port = (callback.address() as { port: number }).port;
    redirectUri = `http://127.0.0.1:${port}/callback`;
    const issuer = new URL(server.url);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', [oauth.allowInsecureRequests]: true }),
    );
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        {
          redirect_uris: [redirectUri],
          client_name: 'Test Assistant',
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        },
        { [oauth.allowInsecureRequests]: true },
      ),
    );
    client = { client_id: registered.client_id, token_endpoint_auth_method: 'none' };
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => callback?.close(r));
    await server?.stop();
  });

  const opts = { [oauth.allowInsecureRequests]: true };

  /** The token endpoint's refusal, as the client library reports it: the OAuth error code and its description. */
  async function refusal(promise: Promise<unknown>) {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(oauth.ResponseBodyError);
    const body = err as oauth.ResponseBodyError;
    return `${body.error}: ${body.error_description ?? ''}`;
  }

  /** The browser steps: sign in, consent. Returns the URL the browser was sent back to. */
  async function authorizeInBrowser(scope: string, verifier: string, decision: 'Allow' | 'Deny' = 'Allow') {
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set('client_id', client.client_id);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', scope);
    url.searchParams.set('state', 'xyz');
    url.searchParams.set('resource', `${server.url}/v1`);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    return consentInBrowser(browser, url.href, {
      email: 'sipho@example.com',
      password: 'a long enough password',
      returnTo: redirectUri,
      decision,
      expectClient: 'Test Assistant',
    });
  }

  async function codeFor(scope: string, verifier: string) {
    const { back, consent } = await authorizeInBrowser(scope, verifier);
    const params = oauth.validateAuthResponse(as, client, back, 'xyz');
    return { params, consent };
  }

  it('publishes authorization server and protected resource metadata, and challenges with it', async () => {
    expect(as).toMatchObject({ issuer: `${server.url}/`, code_challenge_methods_supported: ['S256'] });
    expect(as.scopes_supported).toContain('bookings:write');
    for (const path of ['mcp', 'v1']) {
      const prm = await server.get(`/.well-known/oauth-protected-resource/${path}`);
      expect(prm.status).toBe(200);
      expect(prm.body).toMatchObject({
        resource: `${server.url}/${path}`,
        authorization_servers: [expect.stringContaining(new URL(server.url).host)],
      });
    }
    const me = await server.get('/v1/me');
    expect(me.headers.get('www-authenticate')).toContain(
      `resource_metadata="${server.url}/.well-known/oauth-protected-resource/v1"`,
    );
    const call = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_pets', arguments: {} },
      }),
    });
    expect(call.status).toBe(401);
    expect(call.headers.get('www-authenticate')).toMatch(
      /scope="pets".*resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
    // Public tools work without a credential.
    const anon = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_services', arguments: {} },
      }),
    });
    expect(anon.status).toBe(200);
  });

  it('runs the whole authorization code flow with PKCE: sign in and consent in Chromium, tokens, an API call', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const { params, consent } = await codeFor('profile pets', verifier);
    expect(consent).toContain('See and add your pets');
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      redirectUri,
      verifier,
      opts,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'profile pets' });
    const me = await server.get('/v1/me', { authorization: `Bearer ${tokens.access_token}` });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: 'sipho@example.com',
      client: { name: 'Test Assistant' },
      scopes: ['profile', 'pets'],
    });
    // The same code again: refused, and what it gave out is revoked.
    const again = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      redirectUri,
      verifier,
      opts,
    );
    expect(await refusal(oauth.processAuthorizationCodeResponse(as, client, again))).toMatch(
      /^invalid_grant: .*already used/,
    );
    expect((await server.get('/v1/me', { authorization: `Bearer ${tokens.access_token}` })).status).toBe(401);
  });

  it('refuses a wrong verifier and a redirect URI that differs', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const { params } = await codeFor('profile', verifier);
    const wrong = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      redirectUri,
      oauth.generateRandomCodeVerifier(),
      opts,
    );
    expect(await refusal(oauth.processAuthorizationCodeResponse(as, client, wrong))).toMatch(
      /^invalid_grant: .*code_verifier/,
    );
    const verifier2 = oauth.generateRandomCodeVerifier();
    const { params: params2 } = await codeFor('profile', verifier2);
    const other = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params2,
      `${redirectUri}/other`,
      verifier2,
      opts,
    );
    expect(await refusal(oauth.processAuthorizationCodeResponse(as, client, other))).toMatch(
      /^invalid_grant: .*redirect_uri/,
    );
  });

  it('rotates refresh tokens, refuses widening, revokes the family on reuse, and revokes on request', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const { params } = await codeFor('profile pets', verifier);
    const first = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        params,
        redirectUri,
        verifier,
        opts,
      ),
    );
    const wider = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, {
      ...opts,
      additionalParameters: { scope: 'profile pets bookings:write' },
    });
    expect(await refusal(oauth.processRefreshTokenResponse(as, client, wider))).toMatch(
      /^invalid_scope: .*widen/,
    );
    const second = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, opts),
    );
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await server.get('/v1/me', { authorization: `Bearer ${second.access_token}` })).status).toBe(200);
    // The first refresh token again: reuse, so the whole connection is revoked.
    const reuse = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, opts);
    expect(await refusal(oauth.processRefreshTokenResponse(as, client, reuse))).toMatch(
      /^invalid_grant: .*already used/,
    );
    expect((await server.get('/v1/me', { authorization: `Bearer ${second.access_token}` })).status).toBe(401);

    const v3 = oauth.generateRandomCodeVerifier();
    const { params: p3 } = await codeFor('profile', v3);
    const third = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), p3, redirectUri, v3, opts),
    );
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), third.access_token, opts),
    );
    expect((await server.get('/v1/me', { authorization: `Bearer ${third.access_token}` })).status).toBe(401);
  });

  it('refuses an expired token, and sends a denial back as access_denied', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const { params } = await codeFor('profile', verifier);
    const t = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        params,
        redirectUri,
        verifier,
        opts,
      ),
    );
    await server.db
      .sql`update credentials set expires_at = now() - interval '1 second' where kind = 'ACCESS' and revoked_at is null`;
    expect((await server.get('/v1/me', { authorization: `Bearer ${t.access_token}` })).status).toBe(401);
    const { back } = await authorizeInBrowser('profile', oauth.generateRandomCodeVerifier(), 'Deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('xyz');
  });

  describe('Client ID Metadata Documents', () => {
    let docs: Server;
    let docsBase: string;
    const served = new Map<string, { body: unknown; headers?: Record<string, string> }>();
    let fetched = 0;

    beforeAll(async () => {
      docs = createServer((req, res) => {
        fetched++;
        const doc = served.get(req.url ?? '');
        if (!doc) {
          res.statusCode = 404;
          res.end();
          return;
        }
        res.setHeader('content-type', 'application/json');
        for (const [k, v] of Object.entries(doc.headers ?? {})) res.setHeader(k, v);
        res.end(typeof doc.body === 'string' ? doc.body : JSON.stringify(doc.body));
      });
      await new Promise<void>((r) => docs.listen(0, '127.0.0.1', () => r()));
      docsBase = `http://127.0.0.1:${(docs.address() as { port: number }).port}`;
    });
    afterAll(() => new Promise((r) => docs?.close(r)));

    const serve = (path: string, body: unknown, headers?: Record<string, string>) => {
      served.set(path, { body, headers });
      return `${docsBase}${path}`;
    };

    async function authorizeStatus(clientId: string, redirect = redirectUri) {
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirect,
        response_type: 'code',
        scope: 'profile',
        code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
        code_challenge_method: 'S256',
      }).toString();
      const res = await fetch(url, { redirect: 'manual' });
      return {
        status: res.status,
        body: res.status === 400 ? await res.json() : null,
        location: res.headers.get('location'),
      };
    }

    it('are advertised, fetched, cached, and run the whole flow with the document URL as client_id', async () => {
      expect(as).toMatchObject({ client_id_metadata_document_supported: true });
      const clientId = serve('/assistants/pebble.json', {
        client_id: `${docsBase}/assistants/pebble.json`,
        client_name: 'Pebble Assistant',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
      });
      const docClient: oauth.Client = { client_id: clientId, token_endpoint_auth_method: 'none' };
      const verifier = oauth.generateRandomCodeVerifier();
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'profile',
        state: 'doc',
        resource: `${server.url}/v1`,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }).toString();
      const before = fetched;
      const { back, consent } = await consentInBrowser(browser, url.href, {
        email: 'sipho@example.com',
        password: 'a long enough password',
        returnTo: redirectUri,
        expectClient: 'Pebble Assistant',
      });
      expect(consent).toContain(`described by ${new URL(docsBase).host}`);
      const params = oauth.validateAuthResponse(as, docClient, back, 'doc');
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        docClient,
        await oauth.authorizationCodeGrantRequest(
          as,
          docClient,
          oauth.None(),
          params,
          redirectUri,
          verifier,
          opts,
        ),
      );
      const me = await server.get('/v1/me', { authorization: `Bearer ${tokens.access_token}` });
      expect(me.body).toMatchObject({ client: { name: 'Pebble Assistant' }, scopes: ['profile'] });
      // Fetched once; the authorize and token steps after it used the cached copy.
      expect(fetched - before).toBe(1);
    });

    it('refuses a document that names another client, lacks the redirect URI, carries a secret, or is not JSON', async () => {
      const other = serve('/other.json', {
        client_id: `${docsBase}/elsewhere.json`,
        client_name: 'X',
        redirect_uris: [redirectUri],
      });
      expect(await authorizeStatus(other)).toMatchObject({
        status: 400,
        body: { error: 'invalid_client', error_description: expect.stringMatching(/another client_id/) },
      });
      const narrow = serve('/narrow.json', {
        client_id: `${docsBase}/narrow.json`,
        client_name: 'Narrow',
        redirect_uris: ['http://127.0.0.1:1/elsewhere'],
      });
      expect(await authorizeStatus(narrow)).toMatchObject({
        status: 400,
        body: { error: 'invalid_request', error_description: 'Unregistered redirect_uri' },
      });
      const secret = serve('/secret.json', {
        client_id: `${docsBase}/secret.json`,
        client_name: 'S',
        redirect_uris: [redirectUri],
        client_secret: 'shh',
      });
      expect(await authorizeStatus(secret)).toMatchObject({
        status: 400,
        body: { error_description: expect.stringMatching(/secret/) },
      });
      const junk = serve('/junk.json', 'not json');
      expect(await authorizeStatus(junk)).toMatchObject({
        status: 400,
        body: { error_description: expect.stringMatching(/not JSON/) },
      });
      expect(await authorizeStatus(`${docsBase}/missing.json`)).toMatchObject({
        status: 400,
        body: { error_description: expect.stringMatching(/answered 404/) },
      });
      const big = serve('/big.json', {
        client_id: `${docsBase}/big.json`,
        client_name: 'B'.repeat(20_000),
        redirect_uris: [redirectUri],
      });
      expect(await authorizeStatus(big)).toMatchObject({
        status: 400,
        body: { error_description: expect.stringMatching(/larger than/) },
      });
    });

    it('refuses plain http off loopback, private addresses, and URLs without a path', async () => {
      expect(await authorizeStatus('http://assistant.example/client.json')).toMatchObject({
        status: 400,
        body: { error_description: 'A client_id URL must use https.' },
      });
      expect(await authorizeStatus('https://10.1.2.3/client.json')).toMatchObject({
        status: 400,
        body: { error_description: expect.stringMatching(/not on a public address/) },
      });
      expect(await authorizeStatus('https://[::ffff:c0a8:1]/client.json')).toMatchObject({
        status: 400,
        body: { error_description: expect.stringMatching(/not on a public address/) },
      });
      expect(await authorizeStatus('https://169.254.169.254/latest/meta-data')).toMatchObject({
        status: 400,
        body: { error_description: expect.stringMatching(/not on a public address/) },
      });
      expect(await authorizeStatus('https://assistant.example/')).toMatchObject({
        status: 400,
        body: { error_description: expect.stringMatching(/needs a path/) },
      });
    });
  });
});
