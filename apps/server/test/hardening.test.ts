import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startTestServer, type TestServer } from './harness.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** What /mcp answers a tools/call with, in JSON mode. */
interface ToolAnswer {
  id: string | number;
  result: {
    isError?: boolean;
    content: { type: string; text: string }[];
    structuredContent?: Record<string, unknown>;
  };
}

/** A request sent with node:http, which (unlike fetch) can carry a header twice. */
function rawRequest(
  url: string,
  method: string,
  headers: [string, string | string[]][],
  body?: string,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    for (const [name, value] of headers) req.setHeader(name, value);
    req.end(body);
  });
}

describe('hardening: headers, credentials, metrics, MCP input, payment limits', () => {
  let server: TestServer;
  let key: string;
  let narrow: string;
  beforeAll(async () => {
    server = await startTestServer();
    key = (
      await cli(server.db.url, ['key', 'create', '--email', 'harden@example.com', '--scopes', 'profile,pets'])
    ).lastLine;
    narrow = (
      await cli(server.db.url, ['key', 'create', '--email', 'harden@example.com', '--scopes', 'profile'])
    ).lastLine;
  });
  afterAll(() => server?.stop());

  it.each([
    ['API', 'GET', '/v1/services'],
    ['API error', 'GET', '/v1/me'],
    ['MCP', 'GET', '/mcp'],
    ['MCP preflight', 'OPTIONS', '/mcp'],
    ['OAuth metadata', 'GET', '/.well-known/oauth-authorization-server'],
    ['health', 'GET', '/healthz'],
    ['sign-in page', 'GET', '/signin'],
    ['pay page', 'GET', '/pay/no-such-token'],
    ['API reference', 'GET', '/docs'],
    ['unknown route', 'GET', '/nowhere'],
  ])(
    'gives the %s answer nosniff, no referrer and refuses framing, without HSTS over http',
    async (_door, method, path) => {
      const res = await fetch(server.url + path, { method });
      await res.body?.cancel();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('strict-transport-security')).toBeNull();
    },
  );

  it("keeps each HTML surface's own policy: pages, the API reference, and a pay page that may post to the gateway", async () => {
    const signin = await server.get('/signin');
    // The pages' own policy (apps/web/src/pages.ts), not the baseline: forms may post on to an assistant.
    expect(signin.headers.get('content-security-policy')).toMatch(
      /form-action 'self' (http: https:|https: http:).*frame-ancestors 'none'/,
    );
    const docs = await server.get('/docs');
    expect(docs.headers.get('content-security-policy')).toMatch(
      /^default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; .*frame-ancestors 'none'/,
    );
    const pay = await server.get('/pay/no-such-token');
    expect(pay.status).toBe(404);
    expect(pay.headers.get('content-security-policy')).toMatch(
      /default-src 'self'.*form-action 'self' https: http:.*frame-ancestors 'none'/,
    );
  });

  it('answers everything under /pay with Cache-Control: no-store, redirects included', async () => {
    for (const [method, path] of [
      ['GET', '/pay/no-such-token'],
      ['GET', '/pay/no-such-token/done'],
      ['POST', '/pay/no-such-token/sandbox'],
    ] as const) {
      const res = await fetch(server.url + path, {
        method,
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: method === 'POST' ? 'decision=pay' : undefined,
      });
      await res.body?.cancel();
      expect(res.headers.get('cache-control'), `${method} ${path}`).toBe('no-store');
    }
  });

  it('answers an unknown pay link, and its return page, with a 404 page saying so', async () => {
    for (const path of ['/pay/no-such-token', '/pay/no-such-token/done']) {
      const res = await fetch(server.url + path);
      expect(res.status, path).toBe(404);
      const text = (await res.text()).replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
      expect(text, path).toContain('This pay link is not known. Ask your assistant for a new one.');
    }
  });

  it('answers /v1 with Cache-Control: no-store, answers and refusals alike', async () => {
    for (const path of ['/v1/services', '/v1/bookings', '/v1/no-such-thing']) {
      const res = await fetch(server.url + path);
      await res.body?.cancel();
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('answers /token with Cache-Control: no-store (the MCP SDK sets it once the client is known)', async () => {
    const registered = await server.post('/register', {
      client_name: 'Header test',
      redirect_uris: ['http://127.0.0.1:9/cb'],
      token_endpoint_auth_method: 'none',
    });
    expect(registered.status).toBe(201);
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: registered.body.client_id,
      code: 'no-such-code',
      code_verifier: 'v'.repeat(43),
    });
    const res = await fetch(`${server.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    await res.body?.cancel();
    expect(res.status).toBe(400);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it.each([
    ['GET', '/v1/services'],
    ['GET', '/v1/me'],
    ['POST', '/mcp'],
    ['GET', '/healthz'],
    ['GET', '/signin'],
  ])('refuses %s %s carrying two Authorization headers with 400 in the error shape', async (method, path) => {
    const res = await rawRequest(
      server.url + path,
      method,
      [['authorization', [`Bearer ${narrow}`, `Bearer ${key}`]], ...Object.entries(MCP_HEADERS)],
      method === 'POST' ? '{}' : undefined,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        code: 'BAD_REQUEST',
        message: expect.stringContaining('Authorization'),
        details: expect.any(Object),
      },
    });
  });

  it('still serves one Authorization header sent the ordinary way', async () => {
    const res = await rawRequest(`${server.url}/v1/me`, 'GET', [['authorization', `Bearer ${key}`]]);
    expect(res.status).toBe(200);
  });

  it('answers a too-narrow credential with the same 403 on /v1 and MCP: the scopes held plus the one missing', async () => {
    const v1 = await server.get('/v1/pets', { authorization: `Bearer ${narrow}` });
    const mcp = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${narrow}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'list_pets', arguments: {} },
      }),
    });
    expect(v1.status).toBe(403);
    expect(mcp.status).toBe(403);
    const mcpBody = await mcp.json();
    expect(v1.body.error.details).toEqual({ error: 'insufficient_scope', scope: 'profile pets' });
    expect(mcpBody).toEqual(v1.body);
    expect(v1.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="profile pets"/);
    expect(mcp.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="profile pets"/);
  });

  it('refuses __proto__ in add_pet the same on /v1 and MCP, and saves nothing', async () => {
    const args =
      '{"__proto__": {"admin": true}, "name": "Sneaky", "type": "DOG", "weightKg": 8, "coat": "SHORT"}';
    const v1 = await server.post('/v1/pets', args, { authorization: `Bearer ${key}` });
    expect(v1.status).toBe(400);
    expect(v1.body.error).toMatchObject({
      code: 'BAD_REQUEST',
      details: { fields: [expect.objectContaining({ field: '__proto__' })] },
    });
    const mcp = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${key}` },
      body: `{"jsonrpc": "2.0", "id": "call-1", "method": "tools/call", "params": {"name": "add_pet", "arguments": ${args}}}`,
    });
    expect(mcp.status).toBe(200);
    const answer = (await mcp.json()) as ToolAnswer;
    expect(answer.id).toBe('call-1');
    expect(answer.result.isError).toBe(true);
    const error = JSON.parse(answer.result.content[0]?.text ?? '{}').error;
    expect(error).toMatchObject({
      code: 'BAD_REQUEST',
      details: { fields: [expect.objectContaining({ field: '__proto__' })] },
    });
    expect((await server.get('/v1/pets', { authorization: `Bearer ${key}` })).body).toEqual({ pets: [] });
    // The same call without the extra key goes through: the check is on the arguments, not the tool.
    const fine = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${key}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'add_pet', arguments: { name: 'Plain', type: 'DOG', weightKg: 8, coat: 'SHORT' } },
      }),
    });
    expect(((await fine.json()) as ToolAnswer).result.structuredContent).toMatchObject({ name: 'Plain' });
  });

  it('does not serve /metrics unless METRICS_TOKEN is set: 404 in the error shape', async () => {
    const res = await server.get('/metrics');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('HSTS', () => {
  it('is sent only when PUBLIC_URL is https', async () => {
    const server = await startTestServer({ env: { PUBLIC_URL: 'https://pets.example.test' } });
    try {
      // The public URL names a host that is not us: reach the listening socket directly.
      const { port } = server.service.server.address() as AddressInfo;
      for (const path of ['/v1/services', '/healthz', '/docs', '/pay/x']) {
        const res = await fetch(`http://127.0.0.1:${port}${path}`);
        await res.body?.cancel();
        expect(res.headers.get('strict-transport-security'), path).toBe(
          'max-age=31536000; includeSubDomains',
        );
      }
    } finally {
      await server.stop();
    }
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { METRICS_TOKEN, RATE_LIMIT_POINTS: '3' } });
  });
  afterAll(() => server?.stop());

  it('wants the token: 401 without it or with a wrong one, counted by the rate limiter until 429; the right one is served', async () => {
    const none = await server.get('/metrics');
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('UNAUTHORIZED');
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer realm="nogpets"/);
    expect(none.headers.get('ratelimit-remaining')).toBe('2');
    const wrong = await server.get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    expect((await server.get('/metrics', { authorization: 'Bearer short' })).status).toBe(401);
    const refused = await server.get('/metrics', { authorization: 'Bearer guess' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RateLimited');
    const right = await server.get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(right.status).toBe(200);
    expect(right.body).toMatch(/http_request_duration_seconds/);
  });
});

describe('payment endpoints share the request limit', () => {
  it('answers the 4th GET /pay/... with 429 when the limit is 3', async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_POINTS: '3' } });
    try {
      for (let i = 0; i < 3; i += 1) expect((await server.get(`/pay/guess-${i}`)).status).toBe(404);
      const refused = await server.get('/pay/guess-3');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.headers.get('cache-control')).toBe('no-store');
    } finally {
      await server.stop();
    }
  });

  it('counts notifications on /payments/:gateway/notify, whatever the gateway', async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_POINTS: '3' } });
    const notify = async (gateway: string) => {
      const res = await fetch(`${server.url}/payments/${gateway}/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'payment=nothing',
      });
      await res.body?.cancel();
      return res.status;
    };
    try {
      expect(await notify('sandbox')).toBe(400);
      expect(await notify('sandbox')).toBe(400);
      expect(await notify('payfast')).toBe(404);
      expect(await notify('sandbox')).toBe(429);
    } finally {
      await server.stop();
    }
  });
});
