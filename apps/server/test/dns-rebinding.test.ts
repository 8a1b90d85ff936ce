import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

/**
 * DNS rebinding: a page on evil.example whose name was rebound to the server's
 * address reaches it with `Host: evil.example` and `Origin: http://evil.example`. The MCP
 * conformance suite's `dns-rebinding-protection` scenario sends exactly that to /mcp, and the same
 * request with the server's own host, and wants 4xx then 2xx. These are its cases and their
 * neighbours, sent as raw HTTP to the listening socket (fetch cannot set Host).
 */

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
  body: any;
}

/** One request to the server's socket with exactly these headers. */
function raw(
  server: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const { port } = server.service.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers:
          body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'dns-rebinding-test', version: '1.0.0' },
  },
});

/** An MCP initialize as the conformance scenario sends it, with these Host/Origin headers. */
const initialize = (server: TestServer, headers: Record<string, string>) =>
  raw(
    server,
    'POST',
    '/mcp',
    { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    INITIALIZE,
  );

const portOf = (server: TestServer) => (server.service.server.address() as AddressInfo).port;

function expectServed(answer: Answer, what: string) {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(200);
  expect(answer.body.result.serverInfo.name, what).toBe('nogpets');
}

function expectRefused(answer: Answer, reason: 'host_not_allowed' | 'origin_not_allowed', what: string) {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(403);
  expect(answer.body.error.code, what).toBe('FORBIDDEN');
  expect(answer.body.error.details.reason, what).toBe(reason);
  // The message says what to do: use the public address, or have the operator allow the name.
  expect(answer.body.error.message, what).toMatch(
    reason === 'host_not_allowed' ? /ALLOWED_HOSTS/ : /ALLOWED_ORIGINS/,
  );
}

describe('on a loopback public URL (PUBLIC_URL unset: http://localhost:PORT)', () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    server = await startTestServer();
    port = portOf(server);
  });
  afterAll(() => server?.stop());

  it('refuses the conformance scenario’s attacker request (Host and Origin evil.example.com) with 403 in the error shape, and serves its valid one', async () => {
    expectRefused(
      await initialize(server, { host: 'evil.example.com', origin: 'http://evil.example.com' }),
      'host_not_allowed',
      'evil Host and Origin',
    );
    expectServed(
      await initialize(server, { host: `localhost:${port}`, origin: `http://localhost:${port}` }),
      'own Host and Origin',
    );
  });

  it('serves the public URL’s host and every loopback name, with or without a port, without an Origin', async () => {
    for (const host of [
      `localhost:${port}`,
      'localhost',
      `127.0.0.1:${port}`,
      '127.0.0.1',
      `[::1]:${port}`,
      '[::1]',
      'LOCALHOST',
    ]) {
      expectServed(await initialize(server, { host }), `Host ${host}`);
    }
  });

  it('refuses any other Host on /mcp: a rebound name, a LAN address, a name hiding a loopback one', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      '192.168.1.20',
      'localhost.evil.example',
      'evil@localhost',
    ]) {
      const answer = await initialize(server, { host });
      expectRefused(answer, 'host_not_allowed', `Host ${host}`);
      expect(answer.body.error.details.host).toBe(host);
    }
  });

  it('refuses a browser page on another site (Origin) with the right Host; serves pages on its own hosts and requests without Origin', async () => {
    const host = `localhost:${port}`;
    for (const origin of [
      'http://evil.example',
      `http://evil.example:${port}`,
      'https://localhost.evil.example',
      'null',
      'file://',
    ]) {
      expectRefused(await initialize(server, { host, origin }), 'origin_not_allowed', `Origin ${origin}`);
    }
    // A preflight from such a page is refused too.
    const preflight = await raw(server, 'OPTIONS', '/mcp', {
      host,
      origin: 'http://evil.example',
      'access-control-request-method': 'POST',
    });
    expect(preflight.status).toBe(403);
    for (const origin of [
      `http://localhost:${port}`,
      'http://localhost:6274',
      `http://127.0.0.1:${port}`,
      'http://[::1]:5173',
    ]) {
      expectServed(await initialize(server, { host, origin }), `Origin ${origin}`);
    }
    expectServed(await initialize(server, { host }), 'no Origin');
    const own = await raw(server, 'OPTIONS', '/mcp', {
      host,
      origin: 'http://localhost:6274',
      'access-control-request-method': 'POST',
    });
    expect(own.status).toBe(204);
  });

  it('serves a real MCP client at the public URL', async () => {
    const client = await server.mcp();
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
  });

  it('refuses an evil Host on the API, the OAuth endpoints and the pages too; health and readiness answer any Host', async () => {
    const evil = { host: 'evil.example' };
    for (const [method, path] of [
      ['GET', '/v1/services'],
      ['GET', '/.well-known/oauth-authorization-server'],
      ['GET', '/.well-known/oauth-protected-resource/mcp'],
      ['GET', '/authorize?client_id=x'],
      ['POST', '/token'],
      ['POST', '/register'],
      ['GET', '/signin'],
      ['GET', '/account'],
      ['GET', '/pay/x'],
      ['GET', '/no-such-page'],
    ] as const) {
      const answer = await raw(server, method, path, evil, method === 'POST' ? '{}' : undefined);
      expectRefused(answer, 'host_not_allowed', `${method} ${path}`);
    }
    for (const path of ['/healthz', '/readyz']) {
      expect((await raw(server, 'GET', path, evil)).status, path).toBe(200);
    }
    // The same routes answer as usual at the right host.
    expect((await raw(server, 'GET', '/v1/services', { host: `localhost:${port}` })).status).toBe(200);
    expect((await raw(server, 'GET', '/signin', { host: `127.0.0.1:${port}` })).status).toBe(200);
  });

  it('does not apply the Origin rule to the OAuth endpoints: clients call them from their own pages or from servers', async () => {
    const host = `localhost:${port}`;
    const token = await raw(
      server,
      'POST',
      '/token',
      { host, origin: 'https://assistant.example', 'content-type': 'application/x-www-form-urlencoded' },
      'grant_type=authorization_code&code=nope&client_id=nope',
    );
    // The token endpoint's own answer (an OAuth error), not the Origin refusal.
    expect(token.status).toBeGreaterThanOrEqual(400);
    expect(token.status).not.toBe(403);
    const meta = await raw(server, 'GET', '/.well-known/oauth-authorization-server', {
      host,
      origin: 'https://assistant.example',
    });
    expect(meta.status).toBe(200);
  });

  it('ignores X-Forwarded-Host without TRUST_PROXY: the Host that reached it is checked', async () => {
    expectServed(
      await initialize(server, { host: `localhost:${port}`, 'x-forwarded-host': 'evil.example' }),
      'untrusted X-Forwarded-Host',
    );
    expectRefused(
      await initialize(server, { host: 'evil.example', 'x-forwarded-host': `localhost:${port}` }),
      'host_not_allowed',
      'untrusted X-Forwarded-Host hiding an evil Host',
    );
  });
});

describe('on a public https URL with ALLOWED_HOSTS and ALLOWED_ORIGINS, behind a trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        PUBLIC_URL: 'https://pets.example.test',
        ALLOWED_HOSTS: 'mcp.internal.test, 10.0.0.5',
        ALLOWED_ORIGINS: 'https://assistant.example',
        TRUST_PROXY: 'loopback',
      },
    });
  });
  afterAll(() => server?.stop());

  it('serves the public host and the configured extra hosts (any port); refuses loopback names and others', async () => {
    for (const host of ['pets.example.test', 'pets.example.test:443', 'mcp.internal.test:8080', '10.0.0.5']) {
      expectServed(await initialize(server, { host }), `Host ${host}`);
    }
    for (const host of ['evil.example', 'localhost', '127.0.0.1', 'example.test', 'internal.test']) {
      expectRefused(await initialize(server, { host }), 'host_not_allowed', `Host ${host}`);
    }
  });

  it('serves pages on its own hosts and ALLOWED_ORIGINS; refuses other origins, loopback ones included', async () => {
    const host = 'pets.example.test';
    for (const origin of [
      'https://pets.example.test',
      'https://mcp.internal.test',
      'https://assistant.example',
    ]) {
      expectServed(await initialize(server, { host, origin }), `Origin ${origin}`);
    }
    for (const origin of [
      'https://evil.example',
      'http://localhost:6274',
      'https://assistant.example:8443',
    ]) {
      expectRefused(await initialize(server, { host, origin }), 'origin_not_allowed', `Origin ${origin}`);
    }
  });

  it('checks every X-Forwarded-Host entry from the trusted proxy instead of the Host it rewrote', async () => {
    // The proxy on loopback rewrote Host to its upstream address and says what the client asked for.
    const upstream = { host: '127.0.0.1:3000' };
    expectServed(
      await initialize(server, { ...upstream, 'x-forwarded-host': 'pets.example.test' }),
      'forwarded public host',
    );
    expectRefused(
      await initialize(server, { ...upstream, 'x-forwarded-host': 'evil.example' }),
      'host_not_allowed',
      'forwarded evil host',
    );
    // A proxy that appends: the client's own entry first, the real one after; both must pass.
    expectRefused(
      await initialize(server, { ...upstream, 'x-forwarded-host': 'pets.example.test, evil.example' }),
      'host_not_allowed',
      'appended evil host',
    );
    // Without the header the Host itself is checked (HAProxy passes it through unchanged).
    expectRefused(await initialize(server, upstream), 'host_not_allowed', 'rewritten Host alone');
  });
});
