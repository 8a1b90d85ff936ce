import { createServer, type Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { hash } from '@node-rs/argon2';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { type Browser, launchBrowser } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentInBrowser, startTestServer, type TestServer, toolJson } from './harness.js';

/** An assistant's side of OAuth as the SDK wants it: kept in memory, the redirect handed to the test. */
class AssistantAuth implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Claude Test',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe('a real MCP client authorizes itself', () => {
  let server: TestServer;
  let browser: Browser;
  let callback: Server;
  let redirectUri: string;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    const user = await findOrCreateUser(server.db.sql, 'lerato@example.com', 'Lerato');
    await setPassword(server.db.sql, user.id, await hash('correct horse battery'));
    callback = createServer((_req, res) => res.end('You can close this window.'));
    await new Promise<void>((r) => callback.listen(0, '127.0.0.1', () => r()));
    redirectUri = `http://127.0.0.1:${(callback.address() as { port: number }).port}/callback`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => callback?.close(r));
    await server?.stop();
  });

  it('starts anonymously, is challenged by a scoped tool, discovers, registers, is authorized in the browser, and calls the tool', async () => {
    const auth = new AssistantAuth(redirectUri);
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: auth });
    const client = new Client({ name: 'claude-test', version: '1.0.0' });
    await client.connect(transport);
    // Anonymous: the tool list and a public tool.
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('list_pets');
    expect(
      toolJson(await client.callTool({ name: 'list_services', arguments: {} })).lines.length,
    ).toBeGreaterThan(0);

    // A scoped tool: HTTP 401 with the challenge; the SDK follows the metadata, registers and asks to authorize.
    await expect(client.callTool({ name: 'list_pets', arguments: {} })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(auth.info?.client_id).toMatch(/[0-9a-f-]{36}/);
    const url = auth.authorizationUrl!;
    expect(url.href.startsWith(`${server.url}/authorize`)).toBe(true);
    expect(url.searchParams.get('scope')).toBe('pets');
    expect(url.searchParams.get('resource')).toBe(`${server.url}/mcp`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');

    const { back, consent } = await consentInBrowser(browser, url.href, {
      email: 'lerato@example.com',
      password: 'correct horse battery',
      returnTo: redirectUri,
      expectClient: 'Claude Test',
    });
    expect(consent).toContain('See and add your pets');
    await transport.finishAuth(back.searchParams.get('code')!);
    expect(auth.saved).toMatchObject({ scope: 'pets', token_type: 'Bearer' });

    // Authorized: the scoped tool answers, and what the assistant adds carries its name.
    expect(toolJson(await client.callTool({ name: 'list_pets', arguments: {} }))).toMatchObject({ pets: [] });
    const added = toolJson(
      await client.callTool({
        name: 'add_pet',
        arguments: { name: 'Biscuit', type: 'DOG', weightKg: 6, coat: 'SHORT' },
      }),
    );
    expect(added).toMatchObject({ name: 'Biscuit' });
    const [audit] = await server.db.sql<{ clientName: string; action: string }[]>`
      select client_name as "clientName", action from audit_log where target = ${added.id}`;
    expect(audit).toMatchObject({ clientName: 'Claude Test', action: 'pet.add' });

    // Too narrow for another tool: 403 insufficient_scope with the scopes to ask for (those held and the one missing).
    const narrow = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${auth.saved!.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'list_addresses', arguments: {} },
      }),
    });
    expect(narrow.status).toBe(403);
    expect(narrow.headers.get('www-authenticate')).toMatch(
      /error="insufficient_scope", scope="pets addresses"/,
    );

    // A token for /mcp is not accepted by /v1 (audience).
    expect(
      (await server.get('/v1/pets', { authorization: `Bearer ${auth.saved!.access_token}` })).status,
    ).toBe(401);
    await client.close();
  });
  it("authorizes a business's assistant for /mcp/business only: its resource, its scopes, a token no other endpoint takes", async () => {
    const auth = new AssistantAuth(redirectUri);
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp/business`), {
      authProvider: auth,
    });
    const client = new Client({ name: 'claude-test', version: '1.0.0' });
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('get_signup_status');
    expect(names).not.toContain('list_pets');

    // The challenge names this endpoint's metadata; the client asks for this resource and scope.
    await expect(client.callTool({ name: 'get_signup_status', arguments: {} })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const url = auth.authorizationUrl!;
    expect(url.searchParams.get('resource')).toBe(`${server.url}/mcp/business`);
    expect(url.searchParams.get('scope')).toBe('business:write');
    const { back, consent } = await consentInBrowser(browser, url.href, {
      email: 'lerato@example.com',
      password: 'correct horse battery',
      returnTo: redirectUri,
      expectClient: 'Claude Test',
    });
    expect(consent).toContain('Claude Test');
    await transport.finishAuth(back.searchParams.get('code')!);
    expect(toolJson(await client.callTool({ name: 'get_signup_status', arguments: {} }))).toMatchObject({
      applications: [],
    });

    // Issued for /mcp/business: /mcp and /v1 refuse it as a token that is not theirs (401).
    const token = auth.saved!.access_token;
    const onPersonEndpoint = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_pets', arguments: {} },
      }),
    });
    expect(onPersonEndpoint.status).toBe(401);
    expect(onPersonEndpoint.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await server.get('/v1/business/applications', { authorization: `Bearer ${token}` })).status).toBe(
      401,
    );
    await client.close();
  });
});
