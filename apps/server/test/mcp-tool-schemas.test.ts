import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

type Json = Record<string, any>;

/** Every place in `schema` where something is wrong for a client that reads it as it stands. */
function unreadable(schema: unknown, where: string): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => unreadable(s, `${where}/${i}`));
  if (!schema || typeof schema !== 'object') return [];
  return Object.entries(schema).flatMap(([k, v]) => [
    // `example` is the OpenAPI document's: not JSON Schema, and a model copies it (confirm: true).
    ...(['$ref', '$defs', 'definitions', 'override', 'example'].includes(k) ? [`${where}/${k}`] : []),
    ...unreadable(v, `${where}/${k}`),
  ]);
}

describe('MCP tools/list as a generic client reads it', () => {
  let server: TestServer;
  let client: Client;
  let tools: Awaited<ReturnType<Client['listTools']>>['tools'];
  const input = (name: string) => tools.find((t) => t.name === name)!.inputSchema as Json;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.mcp();
    tools = (await client.listTools()).tools;
  });
  afterAll(() => server?.stop());

  it('has every schema written out in place: no $ref or $defs in any tool', () => {
    // Tools moved to /mcp/business and answers' schemas shrank: the minor version says so.
    expect(client.getServerVersion()?.version).toBe('1.8.0');
    expect(tools.length).toBeGreaterThan(10);
    for (const tool of tools) {
      expect(unreadable(tool.inputSchema, `${tool.name}.inputSchema`)).toEqual([]);
      expect(unreadable(tool.outputSchema, `${tool.name}.outputSchema`)).toEqual([]);
      // Assistants' tool APIs want a plain object at the top: no oneOf/anyOf/allOf there.
      expect(tool.inputSchema.type).toBe('object');
      for (const k of ['oneOf', 'anyOf', 'allOf'])
        expect(tool.inputSchema, `${tool.name}`).not.toHaveProperty(k);
    }
  });

  it('shows enums as their values and objects with their properties', () => {
    const lines = ['grooming', 'walking', 'sitting'];
    for (const name of ['get_quote', 'find_times', 'book'])
      expect(input(name).properties.category, name).toMatchObject({ type: 'string', enum: lines });
    for (const name of ['find_times', 'book']) {
      expect(input(name).properties.stay, name).toMatchObject({
        type: 'object',
        required: ['startDate', 'nights'],
        properties: { nights: { type: 'integer' } },
      });
      expect(input(name).properties.visits, name).toMatchObject({
        type: 'object',
        properties: { perDay: { type: 'integer' } },
      });
    }
    expect(input('book').properties.repeat).toMatchObject({
      type: 'object',
      properties: { freq: { const: 'WEEKLY' }, days: { items: { enum: expect.arrayContaining(['mon']) } } },
    });
    const byValue = (input('get_quote').properties.pets.items.anyOf as Json[]).find(
      (s) => s.properties.name,
    )!;
    expect(byValue.properties.type).toMatchObject({ type: 'string', enum: ['DOG', 'CAT'] });
    expect(byValue.properties.coat).toMatchObject({ type: 'string', enum: ['SHORT', 'MEDIUM', 'LONG'] });
    expect(input('add_pet').properties.coat).toMatchObject({ enum: ['SHORT', 'MEDIUM', 'LONG'] });
  });

  it('says for every signed-in tool when to use it and what to show the person, as the public ones do', () => {
    const describe = (name: string) => tools.find((t) => t.name === name)!.description ?? '';
    expect(describe('list_services')).toMatch(/Use it when/);
    for (const name of ['my_profile', 'list_pets', 'list_addresses', 'list_bookings', 'get_booking']) {
      expect(describe(name), name).toMatch(/Use it (when|at|before)/);
      expect(describe(name), name).toMatch(/Show /);
    }
  });
});
