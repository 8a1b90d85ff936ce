import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startTestServer, type TestServer, toolJson } from './harness.js';

describe('identity: API keys, scopes, pets, addresses, audit', () => {
  let server: TestServer;
  let full: string;
  let narrow: string;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    server = await startTestServer();
    const a = await cli(server.db.url, [
      'key',
      'create',
      '--email',
      'thandi@example.com',
      '--scopes',
      'profile,pets,addresses',
      '--name',
      'Tests',
    ]);
    expect(a.status, a.stderr).toBe(0);
    full = a.lastLine;
    narrow = (
      await cli(server.db.url, ['key', 'create', '--email', 'thandi@example.com', '--scopes', 'profile'])
    ).lastLine;
  });
  afterAll(() => server?.stop());

  it('the CLI prints the new key alone on its last line, and refuses unknown scopes', async () => {
    expect(full).toMatch(/^npk_[A-Za-z0-9_-]{43}$/);
    const bad = await cli(server.db.url, [
      'key',
      'create',
      '--email',
      'x@example.com',
      '--scopes',
      'profile,everything',
    ]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/Unknown scopes: everything/);
    expect((await cli(server.db.url, ['--help'])).stdout).toMatch(/key/);
  });

  it('stores keys hashed, never in the clear', async () => {
    const rows = await server.db.sql`select token_hash from credentials where kind = 'API_KEY'`;
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const r of rows) expect(r.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(full);
  });

  it('answers 401 with a Bearer challenge without a credential or with a bad one, 403 without the scope', async () => {
    const none = await server.get('/v1/me');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer realm="nogpets".*scope="profile"/);
    const bad = await server.get('/v1/me', as('npk_not-a-real-key-at-all-000000000000'));
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    const lacking = await server.get('/v1/pets', as(narrow));
    expect(lacking.status).toBe(403);
    // The scopes held plus the one missing, as on MCP: authorizing again with it keeps what it had.
    expect(lacking.body.error).toMatchObject({
      code: 'FORBIDDEN',
      details: { error: 'insufficient_scope', scope: 'profile pets' },
    });
    expect(lacking.headers.get('www-authenticate')).toMatch(
      /error="insufficient_scope", scope="profile pets"/,
    );
    // Public operations keep working without a credential.
    expect((await server.get('/v1/services')).status).toBe(200);
  });

  it('gives the profile with the scopes of the credential, the same over HTTP and MCP', async () => {
    const http = await server.get('/v1/me', as(full));
    expect(http.status).toBe(200);
    expect(http.body).toMatchObject({
      email: 'thandi@example.com',
      pets: 0,
      addresses: 0,
      client: null,
      scopes: ['profile', 'pets', 'addresses'],
    });
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import(
      '@modelcontextprotocol/sdk/client/streamableHttp.js'
    );
    const client = new Client({ name: 'tests', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: as(full) } }),
    );
    try {
      expect(toolJson(await client.callTool({ name: 'my_profile', arguments: {} }))).toEqual(http.body);
    } finally {
      await client.close();
    }
    // Without a credential, a scoped tool is refused at the HTTP level (401 with the challenge).
    const anonymous = await server.mcp();
    await expect(anonymous.callTool({ name: 'my_profile', arguments: {} })).rejects.toThrow();
  });

  it("saves pets and lists only the owner's, with the change audited", async () => {
    const added = await server.post(
      '/v1/pets',
      { name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', breed: 'Staffie' },
      { ...as(full), 'x-client-name': 'Test assistant' },
    );
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      id: expect.stringMatching(/^pet_/),
      name: 'Rex',
      weightKg: 12,
      birthYear: null,
    });
    const other = (
      await cli(server.db.url, ['key', 'create', '--email', 'someone@example.com', '--scopes', 'pets'])
    ).lastLine;
    expect((await server.get('/v1/pets', as(other))).body).toEqual({ pets: [] });
    expect((await server.get('/v1/pets', as(full))).body.pets.map((p: { name: string }) => p.name)).toEqual([
      'Rex',
    ]);
    const [audit] = await server.db
      .sql`select action, target, client_name from audit_log where target = ${added.body.id}`;
    expect(audit).toMatchObject({ action: 'pet.add', client_name: 'Test assistant' });
    await expect(server.db.sql`delete from audit_log`).rejects.toThrow(/append-only/);
    const bad = await server.post(
      '/v1/pets',
      { name: 'Rex', type: 'DOG', weightKg: 0, coat: 'SHORT' },
      as(full),
    );
    expect(bad.status).toBe(400);
  });

  it('saves addresses with their coverage, refuses a place it cannot tell, and accepts one abroad', async () => {
    const home = await server.post(
      '/v1/addresses',
      { label: 'Home', line1: '12 Dorp Street', suburb: 'Die Boord', postalCode: '7600' },
      as(full),
    );
    expect(home.status).toBe(201);
    expect(home.body).toMatchObject({
      suburb: 'Die Boord',
      postalCode: '7600',
      country: 'ZA',
      covered: true,
    });
    expect(home.body.lines.every((l: { covered: boolean }) => l.covered)).toBe(true);
    const unknown = await server.post(
      '/v1/addresses',
      { label: 'Work', line1: '3 Nowhere Lane', suburb: 'Qwertyville' },
      as(full),
    );
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('UNKNOWN_PLACE');
    const abroad = await server.post(
      '/v1/addresses',
      { label: 'Holiday', line1: 'Rua Augusta 100', city: 'Lisbon, Portugal' },
      as(full),
    );
    expect(abroad.status).toBe(201);
    expect(abroad.body).toMatchObject({ city: 'Lisbon', country: 'PT', covered: false });
  });

  it('quotes and finds times for saved pets and addresses', async () => {
    const pet = (await server.get('/v1/pets', as(full))).body.pets[0];
    const address = (await server.get('/v1/addresses', as(full))).body.addresses[0];
    const body = {
      category: 'grooming',
      addressId: address.id,
      pets: [{ petId: pet.id, serviceIds: ['groom-dog-bath'] }],
    };
    const q = await server.post('/v1/quote', body, as(full));
    expect(q.status).toBe(200);
    expect(q.body).toMatchObject({ subtotalCents: 38000, pets: [{ name: 'Rex' }] });
    expect((await server.post('/v1/availability', body, as(full))).status).toBe(200);
    expect((await server.post('/v1/quote', body, as(narrow))).status).toBe(403);
    const missing = await server.post(
      '/v1/quote',
      { ...body, pets: [{ petId: 'pet_nope', serviceIds: ['groom-dog-bath'] }] },
      as(full),
    );
    expect(missing.status).toBe(404);
  });
});
