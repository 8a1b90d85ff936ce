import { get } from 'node:http';
import { CatalogueSchema } from '@nogpets/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, toolJson } from './harness.js';

describe('listServices / list_services', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  it('answers the operator catalogue over HTTP, in the catalogue shape', async () => {
    const res = await server.get('/v1/services');
    expect(res.status).toBe(200);
    const catalogue = CatalogueSchema.parse(res.body);
    expect(catalogue).toMatchObject({ currency: 'ZAR', serviceFeeCents: 1000, acceptsCash: true });
    const [grooming, walking, sitting] = catalogue.lines;
    expect([grooming?.id, walking?.id, sitting?.id]).toEqual(['grooming', 'walking', 'sitting']);
    expect(grooming).toMatchObject({ durationMode: 'SUM', repeats: false });
    expect(walking).toMatchObject({ repeats: true });
    expect(walking?.services.some((s) => s.groupSize > 1)).toBe(true);
    const all = catalogue.lines.flatMap((l) => l.services);
    expect(all.some((s) => s.petTypes.includes('CAT'))).toBe(true);
    for (const s of all) {
      expect(s.fromCents).toBeLessThanOrEqual(s.toCents);
      for (const t of s.tiers) {
        expect(t.priceCents).toBeGreaterThanOrEqual(s.fromCents);
        expect(t.priceCents).toBeLessThanOrEqual(s.toCents);
      }
    }
    const bath = all.find((s) => s.id === 'groom-dog-bath')!;
    expect(bath).toMatchObject({ kind: 'PRIMARY', fromCents: 30000, toCents: 72000 });
    expect(bath.tiers.some((t) => t.coat === 'MEDIUM')).toBe(true);
    expect(catalogue.areas).toContain('Die Boord');
    // Franschhoek is in the municipality but no line goes there.
    expect(catalogue.areas).not.toContain('Franschhoek');
  });

  it('reads the catalogue from the database, so a price change shows', async () => {
    await server.db.sql`update services set price_cents = 29000 where id = 'groom-puppy-intro'`;
    const res = await server.get('/v1/services');
    const puppy = res.body.lines[0].services.find((s: { id: string }) => s.id === 'groom-puppy-intro');
    expect(puppy).toMatchObject({ priceCents: 29000, fromCents: 29000, toCents: 29000 });
    await server.db.sql`update services set price_cents = 28000 where id = 'groom-puppy-intro'`;
  });

  it('lets clients revalidate the cached catalogue with its ETag', async () => {
    const cached = await startTestServer({ env: { OFFER_CACHE_TTL_MS: '60000' } });
    try {
      await cached.get('/v1/services');
      const second = await cached.get('/v1/services');
      const etag = second.headers.get('etag');
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      // node:http, not fetch: fetch adds `Cache-Control: no-cache` to conditional requests.
      const status = await new Promise<number | undefined>((resolve, reject) => {
        get(`${cached.url}/v1/services`, { headers: { 'if-none-match': etag! } }, (res) => {
          res.resume();
          resolve(res.statusCode);
        }).on('error', reject);
      });
      expect(status).toBe(304);
    } finally {
      await cached.stop();
    }
  });

  it('gives the same answer through a real MCP client, marked read-only and idempotent', async () => {
    const client = await server.mcp();
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'list_services')!;
    expect(tool.annotations).toMatchObject({
      readOnlyHint: true,
      idempotentHint: true,
      destructiveHint: false,
    });
    expect(tool.description).toMatch(/get_quote/);
    const [viaMcp, viaHttp] = await Promise.all([
      client.callTool({ name: 'list_services', arguments: {} }),
      server.get('/v1/services'),
    ]);
    expect(viaMcp.isError).toBeFalsy();
    expect(toolJson(viaMcp)).toEqual(viaHttp.body);
  });

  it('refuses an unknown query parameter on HTTP and an unknown argument on MCP with the same error', async () => {
    const http = await server.get('/v1/services?colour=blue');
    expect(http.status).toBe(400);
    expect(http.body.error).toMatchObject({
      code: 'BAD_REQUEST',
      details: { fields: [{ field: 'colour' }] },
    });
    const client = await server.mcp();
    const mcp = await client.callTool({ name: 'list_services', arguments: { colour: 'blue' } });
    expect(mcp.isError).toBe(true);
    expect(toolJson(mcp)).toEqual(http.body);
  });
});
