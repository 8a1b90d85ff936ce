// The two MCP endpoints as an assistant loads them: /mcp for pet owners and the public, and
// /mcp/business for sign-up and running a business. Each lists only its own tools, within a size
// budget measured on the bytes of its `tools/list` answer; each has its own protected resource
// metadata and challenge; and an assistant that asks one endpoint for the other's tool is told where
// it is.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { type McpSurface, operations, SCOPE_NAMES } from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, toolJson } from './harness.js';

type Json = Record<string, any>;

/** The most an endpoint may list, and the most bytes its whole tools/list answer may take. */
const BUDGET: Record<McpSurface, { tools: number; bytes: number }> = {
  person: { tools: 25, bytes: 60_000 },
  business: { tools: 45, bytes: 120_000 },
};
const PATH: Record<McpSurface, string> = { person: '/mcp', business: '/mcp/business' };
/** Where a schema holds prose (a `description` or `title` keyword; not a field of that name). */
function prose(schema: unknown, where = ''): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => prose(s, `${where}/${i}`));
  if (!schema || typeof schema !== 'object') return [];
  return Object.entries(schema as Json).flatMap(([key, value]) =>
    key === 'properties'
      ? Object.entries(value as Json).flatMap(([field, s]) => prose(s, `${where}/${field}`))
      : [
          ...(key === 'description' || key === 'title' ? [`${where}/${key}`] : []),
          ...prose(value, `${where}/${key}`),
        ],
  );
}

/** The longest description a tool may have, its permission sentence included. */
const DESCRIPTION_BUDGET = 1_000;

describe('two MCP endpoints, each listing its own tools within its budget', () => {
  let server: TestServer;
  const listed: Partial<Record<McpSurface, { tools: Json[]; bytes: number }>> = {};

  /** One JSON-RPC request to an endpoint, as a client sends it over Streamable HTTP. */
  const rpc = (path: string, body: Json, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
    });
  const call = (path: string, name: string, args: Json = {}, headers?: Record<string, string>) =>
    rpc(path, { method: 'tools/call', params: { name, arguments: args } }, headers);

  beforeAll(async () => {
    server = await startTestServer();
    for (const surface of ['person', 'business'] as const) {
      const res = await rpc(PATH[surface], { method: 'tools/list' });
      expect(res.status).toBe(200);
      const text = await res.text();
      listed[surface] = { tools: JSON.parse(text).result.tools, bytes: Buffer.byteLength(text) };
    }
  });
  afterAll(() => server?.stop());

  it.each(['person', 'business'] as const)(
    '%s: lists exactly its tools, within its count and bytes',
    (surface) => {
      const { tools, bytes } = listed[surface]!;
      const names = tools.map((t) => t.name).sort();
      expect(names).toEqual(
        operations
          .filter((op) => op.mcp === surface)
          .map((op) => op.toolName)
          .sort(),
      );
      expect(tools.length).toBeLessThanOrEqual(BUDGET[surface].tools);
      expect(bytes).toBeLessThanOrEqual(BUDGET[surface].bytes);
      console.log(`${PATH[surface]}: ${tools.length} tools, tools/list ${bytes} bytes`);
    },
  );

  it('puts each audience where it belongs, and no tool on both', () => {
    const person = new Set(listed.person!.tools.map((t) => t.name));
    const business = new Set(listed.business!.tools.map((t) => t.name));
    for (const name of [
      'check_coverage',
      'find_times',
      'book',
      'buy',
      'find_pet_businesses',
      'prepare_business_signup',
    ])
      expect(person.has(name), name).toBe(true);
    for (const name of [
      'start_business_signup',
      'submit_business_for_review',
      'get_day_plan',
      'book_for_client',
      'invite_staff_member',
      'create_webhook_endpoint',
      'get_business_calendar_feed',
    ])
      expect(business.has(name), name).toBe(true);
    expect([...person].filter((name) => business.has(name))).toEqual([]);
  });

  it('keeps every description within its budget, saying when to use the tool', () => {
    for (const tool of [...listed.person!.tools, ...listed.business!.tools]) {
      expect(tool.description.length, tool.name).toBeLessThanOrEqual(DESCRIPTION_BUDGET);
      expect(tool.description.length, tool.name).toBeGreaterThan(150);
    }
  });

  it('keeps output schemas that the answers validate against, with no prose in them', async () => {
    // The validator the SDK's client checks `structuredContent` with.
    const validator = new AjvJsonSchemaValidator();
    const check = (surface: McpSurface, name: string, answer: unknown) =>
      validator.getValidator(schemaOf(surface, name))(answer);
    const schemaOf = (surface: McpSurface, name: string) =>
      listed[surface]!.tools.find((t) => t.name === name)!.outputSchema;
    for (const tool of [...listed.person!.tools, ...listed.business!.tools]) {
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(prose(tool.outputSchema), tool.name).toEqual([]);
    }
    const services = toolJson(await (await server.mcp()).callTool({ name: 'list_services', arguments: {} }));
    expect(check('person', 'list_services', services).errorMessage).toBeUndefined();
    expect(services.lines.length).toBeGreaterThan(0);
    // A schema keeps the top level's fields and what is required of them: a missing field fails.
    const { lines: _lines, ...withoutLines } = services;
    expect(check('person', 'list_services', withoutLines).valid).toBe(false);

    const { key } = await createApiKey(server.db.sql, {
      email: 'surfaces@example.com',
      scopes: ['business:write'],
    });
    const status = toolJson(
      await (await server.mcpAs(key, 'business')).callTool({ name: 'get_signup_status', arguments: {} }),
    );
    expect(status).toMatchObject({ application: null, applications: [] });
    expect(check('business', 'get_signup_status', status).errorMessage).toBeUndefined();
  });

  it('gives each endpoint its own protected resource metadata, naming only its scopes', async () => {
    const person = (await server.get('/.well-known/oauth-protected-resource/mcp')).body;
    const business = (await server.get('/.well-known/oauth-protected-resource/mcp/business')).body;
    expect(person.resource).toBe(`${server.url}/mcp`);
    expect(business.resource).toBe(`${server.url}/mcp/business`);
    expect([...business.scopes_supported].sort()).toEqual(['business:manage', 'business:write']);
    expect([...person.scopes_supported].sort()).toEqual(
      ['addresses', 'bookings:read', 'bookings:write', 'orders:write', 'pets', 'profile'].sort(),
    );
    // The API's metadata still names every scope.
    expect((await server.get('/.well-known/oauth-protected-resource/v1')).body.scopes_supported).toEqual(
      SCOPE_NAMES,
    );
  });

  it('challenges a scoped call on /mcp/business with its own metadata, 401 without and 403 with too little', async () => {
    const anonymous = await call('/mcp/business', 'get_day_plan', {});
    expect(anonymous.status).toBe(401);
    const challenge = anonymous.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('scope="business:manage"');
    expect(challenge).toContain(
      `resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp/business"`,
    );

    const { key } = await createApiKey(server.db.sql, { email: 'narrow@example.com', scopes: ['profile'] });
    const narrow = await call('/mcp/business', 'get_signup_status', {}, { authorization: `Bearer ${key}` });
    expect(narrow.status).toBe(403);
    expect(narrow.headers.get('www-authenticate')).toMatch(
      /error="insufficient_scope", scope="profile business:write"/,
    );
    // /mcp's challenge names /mcp's metadata.
    const pets = await call('/mcp', 'list_pets');
    expect(pets.status).toBe(401);
    expect(pets.headers.get('www-authenticate')).toContain(
      `resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('tells an assistant asking one endpoint for the other’s tool where that tool is', async () => {
    const client = await server.mcp(undefined, 'person');
    const there = toolJson(await client.callTool({ name: 'get_day_plan', arguments: {} }));
    expect(there.error).toMatchObject({
      code: 'NOT_FOUND',
      details: { endpoint: `${server.url}/mcp/business` },
    });
    expect(there.error.message).toContain(`${server.url}/mcp/business`);
    const back = toolJson(
      await (await server.mcp(undefined, 'business')).callTool({ name: 'book', arguments: {} }),
    );
    expect(back.error.details).toEqual({ tool: 'book', endpoint: `${server.url}/mcp` });
    // A tool of the HTTP API only names its route.
    const apiOnly = toolJson(await client.callTool({ name: 'redeliver_webhook', arguments: {} }));
    expect(apiOnly.error).toMatchObject({ code: 'NOT_FOUND', details: { tool: 'redeliver_webhook' } });
    expect(apiOnly.error.details.api).toMatch(/^POST \/v1\/business\/webhooks\//);
    const nothing = toolJson(await client.callTool({ name: 'no_such_tool', arguments: {} }));
    expect(nothing.error).toEqual({
      code: 'NOT_FOUND',
      message: 'No tool named no_such_tool.',
      details: { tool: 'no_such_tool' },
    });
  });

  it('tells each endpoint’s assistant who it is for at initialize', async () => {
    const person = await server.mcp(undefined, 'person');
    const business = await server.mcp(undefined, 'business');
    expect(person.getInstructions()).toContain('/mcp/business');
    expect(person.getInstructions()).toContain('check_coverage');
    expect(business.getInstructions()).toContain('start_business_signup');
  });
});
