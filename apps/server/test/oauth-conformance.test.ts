import { createServer, type Server } from 'node:http';
import { hash } from '@node-rs/argon2';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { type Browser, launchBrowser } from '@nogpets/test-utils';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentInBrowser, startTestServer, type TestServer } from './harness.js';

/** What a client sees of the authorization server's answers: RFC 9207, RFC 8707, RFC 7591, RFC 9728. */
describe('OAuth conformance', () => {
  let server: TestServer;
  let browser: Browser;
  let callback: Server;
  let redirectUri: string;
  let issuer: string;
  let clientId: string;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    const user = await findOrCreateUser(server.db.sql, 'thandi@example.com', 'Thandi');
    await setPassword(server.db.sql, user.id, await hash('a long enough password'));
    callback = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => callback.listen(0, '127.0.0.1', () => r()));
    redirectUri = `http://127.0.0.1:${(callback.address() as { port: number }).port}/callback`;
    issuer = `${server.url}/`;
    const registered = await server.post('/register', {
      redirect_uris: [redirectUri],
      client_name: 'Conformance Assistant',
      token_endpoint_auth_method: 'none',
    });
    expect(registered.status).toBe(201);
    clientId = registered.body.client_id;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => callback?.close(r));
    await server?.stop();
  });

  /** A well-formed authorization request's parameters, with some changed or (as undefined) removed. */
  async function anAuthorizationRequest(changes: Record<string, string | undefined> = {}) {
    const params: Record<string, string | undefined> = {
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'profile',
      state: 'st-42',
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: 'S256',
      ...changes,
    };
    return new URLSearchParams(
      Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined),
    );
  }

  /** GET (or POST) /authorize without following redirects: the status, the Location and any JSON body. */
  async function requestAuthorization(params: URLSearchParams, method: 'GET' | 'POST' = 'GET') {
    const res =
      method === 'GET'
        ? await fetch(`${server.url}/authorize?${params}`, { redirect: 'manual' })
        : await fetch(`${server.url}/authorize`, { method, body: params, redirect: 'manual' });
    const location = res.headers.get('location');
    const text = await res.text();
    return {
      status: res.status,
      location: location ? new URL(location, server.url) : null,
      body: text.startsWith('{') ? JSON.parse(text) : text,
    };
  }

  describe('authorization server metadata', () => {
    it('advertises that authorization responses carry iss (RFC 9207)', async () => {
      const meta = await server.get('/.well-known/oauth-authorization-server');
      expect(meta.body).toMatchObject({ issuer, authorization_response_iss_parameter_supported: true });
    });

    it('names the issuer exactly, trailing slash included, in the metadata of both protected resources', async () => {
      for (const path of ['mcp', 'v1']) {
        const prm = await server.get(`/.well-known/oauth-protected-resource/${path}`);
        expect(prm.body).toMatchObject({
          resource: `${server.url}/${path}`,
          authorization_servers: [issuer],
        });
      }
    });
  });

  describe('/authorize', () => {
    it.each([
      { why: 'plain PKCE', changes: { code_challenge_method: 'plain' }, error: 'invalid_request' },
      { why: 'no PKCE method', changes: { code_challenge_method: undefined }, error: 'invalid_request' },
      { why: 'no code_challenge', changes: { code_challenge: undefined }, error: 'invalid_request' },
      { why: 'a malformed code_challenge', changes: { code_challenge: 'short' }, error: 'invalid_request' },
      { why: 'the implicit flow', changes: { response_type: 'token' }, error: 'unsupported_response_type' },
      { why: 'no response_type', changes: { response_type: undefined }, error: 'invalid_request' },
      { why: 'an unknown scope', changes: { scope: 'profile admin' }, error: 'invalid_scope' },
      {
        why: 'a foreign resource',
        changes: { resource: 'https://evil.example/api' },
        error: 'invalid_target',
      },
      {
        why: 'a resource under another path',
        changes: { resource: 'RESOURCE/admin' },
        error: 'invalid_target',
      },
      { why: 'a resource with a fragment', changes: { resource: 'RESOURCE/mcp#x' }, error: 'invalid_target' },
      { why: 'a resource that is not a URL', changes: { resource: 'not a url' }, error: 'invalid_target' },
    ])(
      'sends $why back to the client as $error, with state, iss and a plain description',
      async ({ changes, error }) => {
        const resource = changes.resource?.replace('RESOURCE', server.url);
        for (const method of ['GET', 'POST'] as const) {
          const answer = await requestAuthorization(
            await anAuthorizationRequest({ ...changes, ...(resource ? { resource } : {}) }),
            method,
          );
          expect(answer.status).toBe(302);
          expect(answer.location?.href.startsWith(`${redirectUri}?`)).toBe(true);
          const back = answer.location!.searchParams;
          expect({ error: back.get('error'), state: back.get('state'), iss: back.get('iss') }).toEqual({
            error,
            state: 'st-42',
            iss: issuer,
          });
          expect(back.get('code')).toBeNull();
          const description = back.get('error_description') ?? '';
          expect(description.length).toBeGreaterThan(5);
          expect(description.length).toBeLessThan(200);
          expect(description).not.toMatch(/[{}[\]"]/);
        }
      },
    );

    it('lets oauth4webapi read an error redirect once iss is advertised', async () => {
      const as = await oauth.processDiscoveryResponse(
        new URL(server.url),
        await oauth.discoveryRequest(new URL(server.url), {
          algorithm: 'oauth2',
          [oauth.allowInsecureRequests]: true,
        }),
      );
      const answer = await requestAuthorization(await anAuthorizationRequest({ scope: 'nonsense' }));
      const err = (() => {
        try {
          oauth.validateAuthResponse(as, { client_id: clientId }, answer.location!, 'st-42');
          return null;
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(oauth.AuthorizationResponseError);
      expect((err as oauth.AuthorizationResponseError).error).toBe('invalid_scope');
    });

    it.each([
      { why: 'an unknown client', changes: { client_id: 'no-such-client' }, error: 'invalid_client' },
      {
        why: 'an unregistered redirect_uri',
        changes: { redirect_uri: 'https://evil.example/callback' },
        error: 'invalid_request',
      },
      {
        why: 'another path on the loopback host',
        changes: { redirect_uri: 'LOOPBACK/elsewhere' },
        error: 'invalid_request',
      },
      {
        why: 'a redirect_uri that is not a URL',
        changes: { redirect_uri: 'nope' },
        error: 'invalid_request',
      },
      { why: 'no client_id', changes: { client_id: undefined }, error: 'invalid_request' },
    ])(
      'answers $why itself, without redirecting, even when other parameters are wrong too',
      async ({ changes, error }) => {
        const redirect = changes.redirect_uri?.replace('LOOPBACK', new URL(redirectUri).origin);
        const answer = await requestAuthorization(
          await anAuthorizationRequest({
            ...changes,
            ...(redirect ? { redirect_uri: redirect } : {}),
            response_type: 'token',
          }),
        );
        expect(answer.status).toBe(400);
        expect(answer.location).toBeNull();
        expect(answer.body).toMatchObject({ error, error_description: expect.any(String) });
        expect(answer.body.error_description).not.toMatch(/[{}[\]"]/);
      },
    );

    it('accepts the service, /mcp and /v1 as resource, and a loopback redirect URI on any port', async () => {
      const otherPort = redirectUri.replace(/:\d+\//, ':1/');
      for (const [resource, redirect] of [
        [server.url, redirectUri],
        [`${server.url}/`, redirectUri],
        [`${server.url}/mcp`, redirectUri],
        [`${server.url}/v1`, otherPort],
        [undefined, otherPort],
      ]) {
        const answer = await requestAuthorization(
          await anAuthorizationRequest({ resource, redirect_uri: redirect }),
        );
        expect(answer.status).toBe(302);
        expect(answer.location?.pathname).toBe('/oauth/consent');
      }
    });
  });

  describe('/token', () => {
    it('refuses a foreign resource as invalid_target, for a code and for a refresh token', async () => {
      const verifier = oauth.generateRandomCodeVerifier();
      // No resource at /authorize: the token request is the only place one is named.
      const params = await anAuthorizationRequest({
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      });
      const { back } = await consentInBrowser(browser, `${server.url}/authorize?${params}`, {
        email: 'thandi@example.com',
        password: 'a long enough password',
        returnTo: redirectUri,
        expectClient: 'Conformance Assistant',
      });
      const code = back.searchParams.get('code')!;
      const token = (body: Record<string, string>) =>
        fetch(`${server.url}/token`, {
          method: 'POST',
          body: new URLSearchParams({ client_id: clientId, ...body }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, string> }));
      const evil = await token({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri,
        resource: 'https://evil.example/api',
      });
      expect(evil).toMatchObject({
        status: 400,
        body: { error: 'invalid_target', error_description: expect.any(String) },
      });
      const good = await token({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri,
        resource: `${server.url}/v1`,
      });
      expect(good.status).toBe(200);
      const refresh = await token({
        grant_type: 'refresh_token',
        refresh_token: String(good.body.refresh_token),
        resource: 'https://evil.example/api',
      });
      expect(refresh).toMatchObject({
        status: 400,
        body: { error: 'invalid_target', error_description: expect.any(String) },
      });
    });
  });

  describe('/register', () => {
    it.each([
      'http://assistant.example/callback',
      'http://localhost.evil.example/callback',
      'https://assistant.example/callback#section',
      'https://assistant.example/callback#',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,hello',
      'ftp://assistant.example/callback',
      'chrome-extension://abc/callback',
      'not a uri',
    ])('refuses %s as invalid_redirect_uri', async (uri) => {
      const res = await server.post('/register', {
        redirect_uris: [`https://assistant.example/ok`, uri],
        client_name: 'Odd',
        token_endpoint_auth_method: 'none',
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: 'invalid_redirect_uri',
        error_description: expect.any(String),
      });
      expect(res.body.error_description).not.toMatch(/[{}[\]]/);
    });

    it.each([
      'https://assistant.example/callback',
      'http://127.0.0.1/callback',
      'http://[::1]:8080/callback',
      'http://localhost:3000/callback',
      'com.example.app:/oauth/callback',
      'cursor://anysphere.cursor-retrieval/oauth/callback',
    ])('registers %s', async (uri) => {
      const res = await server.post('/register', {
        redirect_uris: [uri],
        client_name: 'Fine',
        token_endpoint_auth_method: 'none',
      });
      expect(res.status).toBe(201);
      expect(res.body.redirect_uris).toEqual([uri]);
    });

    it('refuses a Client ID Metadata Document whose redirect URI is plain http off loopback', async () => {
      const docs = createServer((req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            client_id: `http://127.0.0.1:${(docs.address() as { port: number }).port}${req.url}`,
            client_name: 'Loose',
            redirect_uris: ['http://assistant.example/callback'],
          }),
        );
      });
      await new Promise<void>((r) => docs.listen(0, '127.0.0.1', () => r()));
      try {
        const documentId = `http://127.0.0.1:${(docs.address() as { port: number }).port}/loose.json`;
        const answer = await requestAuthorization(
          await anAuthorizationRequest({
            client_id: documentId,
            redirect_uri: 'http://assistant.example/callback',
          }),
        );
        expect(answer.status).toBe(400);
        expect(answer.location).toBeNull();
        expect(answer.body).toMatchObject({
          error: 'invalid_client',
          error_description: expect.stringMatching(/redirect/),
        });
      } finally {
        await new Promise((r) => docs.close(r));
      }
    });
  });
});
