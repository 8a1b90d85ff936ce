import { CoverageAnswerSchema } from '@nogpets/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, toolJson } from './harness.js';

function queryString(query: Record<string, string | number>): string {
  return new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
}

describe('checkCoverage / check_coverage', () => {
  let server: TestServer;
  const leads = async () => (await server.db.sql`select count(*)::int as n from leads`)[0]?.n as number;

  /** Asks over HTTP and MCP and checks both doors answered the same. */
  async function both(query: Record<string, string | number>) {
    const qs = queryString(query);
    const http = await server.get(`/v1/coverage?${qs}`);
    const client = await server.mcp();
    const mcp = toolJson(await client.callTool({ name: 'check_coverage', arguments: query }));
    // Lead ids differ (each call records one); everything else is the same answer.
    const strip = (b: Record<string, unknown>) => ({
      ...b,
      leadId: b.leadId ? 'lead' : undefined,
      message: typeof b.message === 'string' ? b.message.replace(/lead_\w+/, '') : b.message,
    });
    expect(strip(mcp)).toEqual(strip(http.body));
    return http;
  }

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  it('covers a typed address in a core suburb on every line, the same over HTTP and MCP', async () => {
    const before = await leads();
    const res = await both({ address: '12 Dorp Street, Die Boord, Stellenbosch 7600' });
    expect(res.status).toBe(200);
    const answer = CoverageAnswerSchema.parse(res.body);
    expect(answer).toEqual({
      covered: true,
      place: {
        suburb: 'Die Boord',
        postalCode: '7600',
        lat: -33.9477,
        lng: 18.8502,
        town: 'Stellenbosch',
        country: 'ZA',
      },
      lines: [
        { id: 'grooming', label: 'Mobile grooming', covered: true },
        { id: 'walking', label: 'Dog walking', covered: true },
        { id: 'sitting', label: 'Pet sitting', covered: true },
      ],
      nearest: null,
    });
    expect(await leads()).toBe(before);
  });

  it('covers a fringe valley by vans but not by walkers on foot', async () => {
    const res = await both({ address: 'Jonkershoek Valley' });
    expect(res.body.lines.map((l: { covered: boolean }) => l.covered)).toEqual([true, false, true]);
  });

  it.each([
    [{ lat: -33.9477, lng: 18.8502 }, 'Die Boord'],
    [{ address: '-33.9477,18.8502' }, 'Die Boord'],
    [{ postalCode: '7681' }, 'Pniel'],
  ])('reads %j', async (query, suburb) => {
    const res = await both(query);
    expect(res.body).toMatchObject({ covered: true, place: { suburb } });
  });

  it('reads a postal code several suburbs share, suburb unknown', async () => {
    const res = await both({ postalCode: '7600' });
    expect(res.body).toMatchObject({
      covered: true,
      place: { suburb: null, postalCode: '7600', town: 'Stellenbosch' },
    });
  });

  it('records a lead for a town abroad and answers with town, country, leadId, message and next', async () => {
    const before = await leads();
    const res = await server.get(
      `/v1/coverage?address=${encodeURIComponent('Rua Augusta 100, Lisbon, Portugal')}`,
      { 'x-client-name': 'Claude' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      covered: false,
      error: 'NO_COVERAGE',
      place: { town: 'Lisbon', country: 'PT', suburb: null },
      leadId: expect.stringMatching(/^lead_/),
      message: expect.stringContaining("We don't come to Lisbon yet"),
      next: expect.any(String),
    });
    expect(res.body.lines.every((l: { covered: boolean }) => !l.covered)).toBe(true);
    expect(await leads()).toBe(before + 1);
    const [lead] = await server.db.sql`select * from leads where id = ${res.body.leadId}`;
    expect(lead).toMatchObject({
      business_id: 'nogpets',
      operation: 'checkCoverage',
      reason: 'NO_COVERAGE',
      query: { address: 'Rua Augusta 100, Lisbon, Portugal' },
      place: { town: 'Lisbon', country: 'PT' },
      client_name: 'Claude',
    });
  });

  it('records a lead for another town nearby, naming the nearest area we serve', async () => {
    const res = await both({ address: 'Somerset West' });
    expect(res.body).toMatchObject({
      covered: false,
      error: 'NO_COVERAGE',
      place: { town: 'Somerset West', country: 'ZA', postalCode: '7130' },
      nearest: { name: 'Jamestown', distanceKm: 11.1 },
    });
    expect(res.body.message).toContain('The closest area we serve is Jamestown, 11.1 km away.');
  });

  it('answers text that names no place with UNKNOWN_PLACE, a question for the person, and no lead', async () => {
    const before = await leads();
    const res = await both({ address: 'the blue house behind the school' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ covered: false, error: 'UNKNOWN_PLACE', place: null, nearest: null });
    expect(res.body.message).toMatch(/Which suburb or town/);
    expect(await leads()).toBe(before);
  });

  describe('bounds: at the bound it is answered, past it 400 and no lead', () => {
    const ok: Record<string, string | number>[] = [
      { address: `${'x'.repeat(290)} Die Boord` },
      { lat: 90, lng: 180 },
      { lat: -90, lng: -180 },
      { postalCode: 'AB' },
      { postalCode: '1234567890' },
      { postalCode: 'SW1A 1AA' },
      { postalCode: '1100-053' },
    ];
    const bad: [Record<string, string | number>, string][] = [
      [{ address: 'x'.repeat(301) }, 'address'],
      [{ address: '   ' }, 'address'],
      [{ lat: 90.0001, lng: 0 }, 'lat'],
      [{ lat: -90.0001, lng: 0 }, 'lat'],
      [{ lat: 0, lng: 180.0001 }, 'lng'],
      [{ lat: 0, lng: -180.0001 }, 'lng'],
      [{ lat: 1 }, 'lng'],
      [{ lng: 1 }, 'lat'],
      [{ lat: 'north', lng: 1 }, 'lat'],
      [{ postalCode: 'A' }, 'postalCode'],
      [{ postalCode: '12345678901' }, 'postalCode'],
      [{ postalCode: '-7600' }, 'postalCode'],
      [{ postalCode: '76#0' }, 'postalCode'],
      [{}, '(input)'],
      [{ address: 'Die Boord', postalCode: '7600' }, '(input)'],
      [{ address: 'Die Boord', colour: 'blue' }, 'colour'],
    ];

    it.each(ok)('answers %j with 200', async (query) => {
      const qs = queryString(query);
      const res = await server.get(`/v1/coverage?${qs}`);
      expect(res.status).toBe(200);
      expect(CoverageAnswerSchema.safeParse(res.body).success).toBe(true);
    });

    it.each(bad)('refuses %j naming %s, over HTTP and MCP, writing no lead', async (query, field) => {
      const before = await leads();
      const qs = queryString(query);
      const res = await server.get(`/v1/coverage?${qs}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
      const client = await server.mcp();
      const mcp = await client.callTool({ name: 'check_coverage', arguments: query });
      expect(mcp.isError).toBe(true);
      expect(toolJson(mcp).error.code).toBe('BAD_REQUEST');
      expect(await leads()).toBe(before);
    });
  });

  it('is read-only and idempotent on MCP', async () => {
    const client = await server.mcp();
    const tool = (await client.listTools()).tools.find((t) => t.name === 'check_coverage')!;
    expect(tool.annotations).toMatchObject({
      readOnlyHint: true,
      idempotentHint: true,
      destructiveHint: false,
    });
    expect(tool.inputSchema.properties).toMatchObject({
      address: { type: 'string', maxLength: 300 },
      lat: { type: 'number', minimum: -90, maximum: 90 },
      lng: { type: 'number', minimum: -180, maximum: 180 },
      postalCode: { type: 'string', pattern: expect.any(String) },
    });
  });
});
