import { Validator } from '@seriousme/openapi-schema-validator';
import { operations } from '@nogpets/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

describe('the OpenAPI document', () => {
  let server: TestServer;
  let doc: any;
  beforeAll(async () => {
    server = await startTestServer();
    doc = (await server.get('/v1/openapi.json')).body;
  });
  afterAll(() => server?.stop());

  it('is valid OpenAPI 3.1 by a real validator', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.4.0');
    expect(doc.servers).toEqual([{ url: server.url }]);
  });

  it('has every operation with its operationId, tag, MCP tool and error responses', () => {
    for (const op of operations) {
      const path = op.path.replace(/:(\w+)/g, '{$1}');
      const entry = doc.paths[path]?.[op.method.toLowerCase()];
      expect(entry, `${op.method} ${path}`).toBeDefined();
      expect(entry.operationId).toBe(op.operationId);
      expect(entry.tags).toEqual([op.tag]);
      expect(entry['x-mcp-tool']).toBe(op.toolName);
      expect(entry.responses['400'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/Error',
      });
      expect(entry.responses['429']).toBeDefined();
    }
    expect(doc.components.schemas.Error).toBeDefined();
  });

  it('describes only routes the server answers', async () => {
    for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(item)) {
        const url = path.replace(/\{(\w+)\}/g, 'x');
        const res = await fetch(server.url + url, {
          method: method.toUpperCase(),
          headers: { 'content-type': 'application/json' },
          body: method === 'get' ? undefined : '{}',
        });
        const body = (await res.json()) as { error?: { message?: string } };
        // Whatever the input, the route exists: never the unknown-route answer.
        expect(body?.error?.message ?? '', `${method} ${path}`).not.toMatch(/^No route/);
        expect(res.status).not.toBe(500);
      }
    }
  });
});
