// One lead per caller, place and day: asking again about a place we do not serve counts the ask on
// the lead already made, whichever of check_coverage, get_quote and find_times asked.
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, newPetOwner, startTestServer, type TestServer, toolJson } from './harness.js';

describe('leads for places we do not serve', () => {
  let server: TestServer;
  const clock = fixedClock('2026-11-23T08:00:00Z'); // Monday 10:00 in Johannesburg
  const rex = { name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['groom-dog-bath'] };
  const paarl = { category: 'grooming', address: 'Main Road, Paarl', pets: [rex] };
  const leadsOf = (ids: string[]) =>
    server.db.sql<{ id: string; asks: number; reason: string }[]>`
      select id, asks, reason from leads where id = any(${ids}) order by created_at, id`;

  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server?.stop());

  it('keeps one lead per caller, place and day, counting each ask on it', async () => {
    const claude = { 'x-client-name': 'Claude' };
    const asks = [
      await server.get(`/v1/coverage?address=${encodeURIComponent('Main Road, Paarl')}`, claude),
      await server.post('/v1/quote', paarl, claude),
      await server.post('/v1/availability', paarl, claude),
      await server.post('/v1/quote', { ...paarl, address: '  main road,   PAARL ' }, claude),
    ];
    const ids = asks.map((a) => a.body.leadId ?? a.body.error?.details?.leadId);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(1);
    expect(await leadsOf(ids)).toEqual([{ id: ids[0], asks: 4, reason: 'NO_COVERAGE' }]);

    // Another caller: its own lead. A caller that gives no name (as this MCP client) is 'anonymous'.
    const other = await server.post('/v1/quote', paarl, { 'x-client-name': 'ChatGPT' });
    const client = await server.mcp();
    const overMcp = toolJson(await client.callTool({ name: 'get_quote', arguments: paarl }));
    const otherIds = [other.body.error.details.leadId, overMcp.error.details.leadId];
    expect(new Set([...ids, ...otherIds]).size).toBe(3);
    // The same assistant over MCP names itself as over HTTP (stateless MCP sees no clientInfo later).
    const claudeOverMcp = await server.mcp(claude);
    const again = toolJson(await claudeOverMcp.callTool({ name: 'get_quote', arguments: paarl }));
    expect(again.error.details.leadId).toBe(ids[0]);
    expect(await leadsOf([ids[0]])).toEqual([{ id: ids[0], asks: 5, reason: 'NO_COVERAGE' }]);

    // A signed-in person is the caller whatever assistant they use.
    const owner = await newPetOwner(server, {
      email: 'lead@example.com',
      pet: { name: 'Rex', weightKg: 12 },
      line1: '1 Dorp Street',
    });
    const mine = [
      await server.post('/v1/quote', paarl, { authorization: `Bearer ${owner.key}`, 'x-client-name': 'A' }),
      await server.post('/v1/quote', paarl, { authorization: `Bearer ${owner.key}`, 'x-client-name': 'B' }),
    ].map((a) => a.body.error.details.leadId);
    expect(mine[0]).toBe(mine[1]);
    expect(ids).not.toContain(mine[0]);

    // Another place, or a line that does not reach a served place: their own leads.
    const lisbon = await server.post('/v1/quote', { ...paarl, address: 'Rua Augusta 100, Lisbon' }, claude);
    expect(lisbon.body.error.details.leadId).not.toBe(ids[0]);
    const walk = {
      category: 'walking',
      address: 'Jonkershoek',
      pets: [{ ...rex, serviceIds: ['walk-solo-30'] }],
    };
    const walks = [
      await server.post('/v1/quote', walk, claude),
      await server.post('/v1/quote', walk, claude),
    ];
    const walkIds = walks.map((w) => w.body.error.details.leadId);
    expect(walkIds[0]).toBe(walkIds[1]);
    expect(await leadsOf([walkIds[0]])).toEqual([{ id: walkIds[0], asks: 2, reason: 'LINE_NOT_COVERED' }]);

    // The next local day, a new lead.
    clock.advance(24 * 3_600_000);
    const tomorrow = await server.post('/v1/quote', paarl, claude);
    expect(tomorrow.body.error.details.leadId).not.toBe(ids[0]);
    expect(await leadsOf([ids[0]])).toEqual([{ id: ids[0], asks: 5, reason: 'NO_COVERAGE' }]);
  });

  it('lists open leads for the operator with their asks, and closes one with a note', async () => {
    const claude = { 'x-client-name': 'Claude' };
    const asked = await server.post('/v1/quote', { ...paarl, address: 'Main Road, Wellington' }, claude);
    await server.post('/v1/quote', { ...paarl, address: 'Main Road, Wellington' }, claude);
    const id = asked.body.error.details.leadId as string;
    const listed = await cli(server.db.url, ['lead', 'list']);
    expect(listed.status, listed.stderr).toBe(0);
    const row = listed.stdout.split('\n').find((l) => l.startsWith(id));
    expect(row?.split('\t').slice(0, 3)).toEqual([id, 'NO_COVERAGE', '2']);
    expect(row).toMatch(/Wellington/);
    expect(row).toMatch(/Claude$/);
    const done = await cli(server.db.url, ['lead', 'done', id, '--note', 'Told them we come in March']);
    expect(done.status, done.stderr).toBe(0);
    expect(done.lastLine).toBe(`${id}\tCLOSED\tTold them we come in March`);
    expect((await cli(server.db.url, ['lead', 'list'])).stdout).not.toContain(id);
    const [audit] = await server.db.sql`select action, details from audit_log where target = ${id}`;
    expect(audit).toMatchObject({ action: 'lead.closed', details: { note: 'Told them we come in March' } });
    const unknown = await cli(server.db.url, ['lead', 'done', 'lead_nope']);
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toMatch(/No lead lead_nope/);
    const badLimit = await cli(server.db.url, ['lead', 'list', '--limit', '0']);
    expect(badLimit.status).not.toBe(0);
    expect(badLimit.stderr).toMatch(/--limit/);
  });
});
