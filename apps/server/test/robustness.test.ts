import { toServiceError } from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { createSql } from '@nogpets/store';
import { connect } from 'node:net';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureServerErrors } from './fuzz/checks.js';
import { startTestServer, type TestServer, toolJson } from './harness.js';

const NOW = '2026-11-23T04:00:00Z';
const NUL = '\u0000';
const LONE = '\ud800';

/**
 * The edge rule: text holding NUL or a lone surrogate is a 400 naming the field at every
 * door, numbers are bounded as their columns are, and a change with an Idempotency-Key commits
 * with its answer or not at all.
 */
describe('robustness at the edge', () => {
  let server: TestServer;
  let key: string;
  let userId: string;
  let addressId: string;
  const clock = fixedClock(NOW);
  const as = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });
  const count = async (table: string) =>
    (await server.db.sql.unsafe(`select count(*)::int as n from ${table}`))[0]!.n as number;
  const raw = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    fetch(server.url + path, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body,
      redirect: 'manual',
    });

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    const made = await createApiKey(server.db.sql, {
      email: 'edge@example.com',
      scopes: ['bookings:read', 'bookings:write', 'pets', 'addresses'],
    });
    key = made.key;
    userId = made.userId;
    addressId = (
      await server.post('/v1/addresses', { label: 'Home', line1: '9 Bird Street', suburb: 'Die Boord' }, as())
    ).body.id;
  });
  afterAll(async () => {
    await server?.stop();
  });

  function expectField(res: { status: number; body: any }, field: string) {
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.details.fields).toEqual([expect.objectContaining({ field })]);
  }

  describe('HTTP API', () => {
    it.each(['', '/reschedule', '/pay', '/times', '/cancel'])(
      'refuses NUL in a booking id path (%s) naming bookingId',
      async (suffix) => {
        const res =
          suffix === ''
            ? await server.get('/v1/bookings/%00', as())
            : await server.post(`/v1/bookings/bk%00x${suffix}`, {}, as());
        expectField(res, 'bookingId');
      },
    );

    it.each([
      ['name', { name: `Rex${NUL}` }],
      ['breed', { breed: `x${LONE}` }],
      ['notes', { notes: `gate code 12${NUL}34` }],
    ])('refuses a pet whose %s cannot be stored, and adds nothing', async (field, extra) => {
      const before = await count('pets');
      const res = await server.post(
        '/v1/pets',
        { name: 'Rex', type: 'DOG', weightKg: 10, coat: 'SHORT', ...extra },
        as(),
      );
      expectField(res, field);
      expect(await count('pets')).toBe(before);
    });

    it('refuses NUL in an address line, naming it', async () => {
      expectField(
        await server.post('/v1/addresses', { line1: `1 Main${NUL}`, suburb: 'Die Boord' }, as()),
        'line1',
      );
    });

    it('refuses a lone surrogate sent as a JSON escape, naming the nested field', async () => {
      const body = `{"category":"grooming","addressId":"${addressId}","pets":[{"name":"Rex\\ud800","type":"DOG","weightKg":10,"coat":"SHORT","serviceIds":["groom-dog-bath"]}]}`;
      const res = await raw('POST', '/v1/quote', body, as());
      expectField({ status: res.status, body: await res.json() }, 'pets.0.name');
    });

    it('refuses NUL in a coverage query and in an availability address, without a credential, and records no lead', async () => {
      const leads = await count('leads');
      expectField(await server.get('/v1/coverage?address=Paarl%00'), 'address');
      const pets = [
        { name: 'Rex', type: 'DOG', weightKg: 10, coat: 'SHORT', serviceIds: ['groom-dog-bath'] },
      ];
      expectField(
        await server.post('/v1/availability', {
          category: 'grooming',
          address: `Paarl${NUL}`,
          pets,
          from: '2026-11-30',
          to: '2026-11-30',
        }),
        'address',
      );
      expect(await count('leads')).toBe(leads);
    });

    it('refuses NUL in an unknown field and in a key, rather than echoing it', async () => {
      expectField(
        await server.post(
          '/v1/pets',
          { name: 'Rex', type: 'DOG', weightKg: 10, coat: 'SHORT', extra: `a${NUL}` },
          as(),
        ),
        'extra',
      );
      const res = await server.post(
        '/v1/pets',
        { name: 'Rex', type: 'DOG', weightKg: 10, coat: 'SHORT', [`k${NUL}`]: 1 },
        as(),
      );
      expectField(res, 'k\\u0000');
    });

    it('keeps a pet whose name holds an emoji (a whole surrogate pair)', async () => {
      const res = await server.post(
        '/v1/pets',
        { name: 'Rex 🐕', type: 'DOG', weightKg: 10, coat: 'SHORT' },
        as(),
      );
      expect(res.status).toBe(201);
      expect(res.body.name).toBe('Rex 🐕');
    });

    it.each([0.001, 0.005, 12.345, 150.01, 0])(
      'refuses a weight of %s kg (bounded and as precise as the column)',
      async (weightKg) => {
        const before = await count('pets');
        expectField(
          await server.post('/v1/pets', { name: 'Tiny', type: 'CAT', weightKg, coat: 'SHORT' }, as()),
          'weightKg',
        );
        expect(await count('pets')).toBe(before);
      },
    );

    it('keeps weights of 0.01 and 149.99 kg exactly', async () => {
      for (const weightKg of [0.01, 149.99]) {
        const res = await server.post(
          '/v1/pets',
          { name: 'Edge', type: 'CAT', weightKg, coat: 'SHORT' },
          as(),
        );
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body.weightKg).toBe(weightKg);
      }
    });
  });

  it('answers a data exception that slips past the doors as 400, not 500 (the last line of defence)', async () => {
    const err = await server.db.sql`select ${'a\u0000'}::text`.catch((e: unknown) => e);
    expect((err as { code?: string }).code).toMatch(/^22/);
    expect(toServiceError(err)).toMatchObject({
      status: 400,
      code: 'BAD_REQUEST',
      details: { reason: 'unstorable_value' },
    });
    const range = await server.db.sql`select ${'1e400'}::numeric(5,2)`.catch((e: unknown) => e);
    expect(toServiceError(range)).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(toServiceError(new Error('x'))).toMatchObject({ status: 500, code: 'INTERNAL' });
  });

  it('answers what Node refuses before the app (a 30 kB URL, bytes that are not HTTP) in the error shape', async () => {
    const long = await server.get(`/v1/me?a=${'x'.repeat(30_000)}`, as());
    expect(long.status).toBe(431);
    expect(long.body).toMatchObject({
      error: { code: 'BAD_REQUEST', details: { reason: 'headers_too_large' } },
    });
    const { port } = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (d) => {
        text += d.toString();
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      error: { code: 'BAD_REQUEST', details: { reason: 'malformed_http' } },
    });
  });

  it('refuses input nested deeper than 32 levels with a 400, however deep (no stack overflow)', async () => {
    const res = await raw(
      'POST',
      '/v1/pets',
      `{"name":${'['.repeat(8000)}${']'.repeat(8000)},"type":"DOG","weightKg":10,"coat":"SHORT"}`,
      as(),
    );
    const body = (await res.json()) as { error: { details: { fields: { message: string }[] } } };
    expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
    expect(body.error.details.fields[0]?.message).toContain('32 levels');
  });

  describe('MCP', () => {
    it('answers add_pet and check_coverage with BAD_REQUEST naming the field, not INTERNAL', async () => {
      const client = await server.mcpAs(key);
      const pet = await client.callTool({
        name: 'add_pet',
        arguments: { name: `Rex${NUL}`, type: 'DOG', weightKg: 10, coat: 'SHORT' },
      });
      expect(pet.isError).toBe(true);
      expect(toolJson(pet).error).toMatchObject({
        code: 'BAD_REQUEST',
        details: { fields: [expect.objectContaining({ field: 'name' })] },
      });
      const light = await client.callTool({
        name: 'add_pet',
        arguments: { name: 'Rex', type: 'DOG', weightKg: 0.001, coat: 'SHORT' },
      });
      expect(toolJson(light).error).toMatchObject({
        code: 'BAD_REQUEST',
        details: { fields: [expect.objectContaining({ field: 'weightKg' })] },
      });
      const where = await client.callTool({ name: 'check_coverage', arguments: { address: `Paarl${LONE}` } });
      expect(where.isError).toBe(true);
      expect(toolJson(where).error).toMatchObject({
        code: 'BAD_REQUEST',
        details: { fields: [expect.objectContaining({ field: 'address' })] },
      });
    });
  });

  describe('forms and OAuth endpoints', () => {
    it('answers a form holding NUL with a 400 page naming the field', async () => {
      const res = await fetch(`${server.url}/signin/link`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `email=a%00@example.com`,
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain(
        'The email field was not accepted. Text may not contain the NUL character',
      );
    });

    it('answers NUL in a page path (a key id, a consent request) with 400, not 500', async () => {
      expect((await raw('POST', '/account/keys/%00/revoke')).status).toBe(400);
      expect((await raw('GET', '/oauth/consent?request=%00')).status).toBe(400);
      expect((await raw('POST', '/account/keys/%ED%A0%80/revoke')).status).toBe(400);
    });

    it("logs, with its cause, an error the SDK's registration handler would swallow into a bare 500", async () => {
      const logs = captureServerErrors(server);
      const admin = createSql(server.db.url, { max: 1 });
      try {
        await admin.unsafe(
          `create or replace function refuse_clients() returns trigger language plpgsql as $$ begin raise exception 'clients are refused here'; end $$`,
        );
        await admin.unsafe(
          'create trigger refuse_clients before insert on oauth_clients for each row execute function refuse_clients()',
        );
        logs.take();
        const res = await raw(
          'POST',
          '/register',
          JSON.stringify({ client_name: 'Bot', redirect_uris: ['https://example.com/cb'] }),
        );
        expect(res.status).toBe(500);
        expect(logs.take()).toContainEqual(
          expect.objectContaining({
            msg: 'OAuth request failed',
            err: expect.stringContaining('clients are refused here'),
          }),
        );
      } finally {
        await admin.unsafe('drop trigger if exists refuse_clients on oauth_clients');
        await admin.end();
      }
    });

    it('answers NUL in client_id at /authorize and /token, and in client_name at /register, as OAuth errors naming the field', async () => {
      const authorize = await raw(
        'GET',
        '/authorize?response_type=code&client_id=%00&redirect_uri=https%3A%2F%2Fexample.com%2Fcb',
      );
      expect(authorize.status).toBe(400);
      expect(await authorize.json()).toMatchObject({
        error: 'invalid_request',
        error_description: expect.stringContaining('client_id'),
      });
      const token = await fetch(`${server.url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=authorization_code&code=x&client_id=%00',
      });
      expect(token.status).toBe(400);
      expect(await token.json()).toMatchObject({
        error: 'invalid_request',
        error_description: expect.stringContaining('client_id'),
      });
      for (const name of [`Bot${NUL}`, `Bot${LONE}`]) {
        const before = await count('oauth_clients');
        const register = await raw(
          'POST',
          '/register',
          JSON.stringify({ client_name: name, redirect_uris: ['https://example.com/cb'] }),
        );
        expect(register.status).toBe(400);
        expect(await register.json()).toMatchObject({
          error: 'invalid_client_metadata',
          error_description: expect.stringContaining('client_name'),
        });
        expect(await count('oauth_clients')).toBe(before);
      }
    });
  });

  describe('Idempotency-Key: a change and its answer, both or neither', () => {
    it('writes nothing on any try when the input cannot be stored, refused before the key is used (3 tries, 0 pets, 0 audit rows)', async () => {
      const [pets, audit] = [await count('pets'), await count('audit_log')];
      for (let i = 0; i < 3; i += 1) {
        const res = await raw(
          'POST',
          '/v1/pets',
          '{"name":"Rex","type":"DOG","weightKg":10,"coat":"SHORT","breed":"x\\ud800"}',
          as({ 'idempotency-key': 'lone-1' }),
        );
        expect(res.status).toBe(400);
      }
      expect([await count('pets'), await count('audit_log')]).toEqual([pets, audit]);
    });

    it('serves more keyed changes at once than the pool has connections (each holds one, never waits for a second)', async () => {
      const small = await startTestServer({
        clock,
        database: { demoDataAt: clock.now() },
        env: { DB_POOL_MAX: '2' },
      });
      try {
        const made = await createApiKey(small.db.sql, {
          email: 'pool@example.com',
          scopes: ['addresses', 'pets'],
        });
        const auth = (k: string) => ({ authorization: `Bearer ${made.key}`, 'idempotency-key': k });
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            i % 2
              ? small.post(
                  '/v1/addresses',
                  { label: `A${i}`, line1: `${i} Bird Street`, suburb: 'Die Boord' },
                  auth(`pool-${i}`),
                )
              : small.post(
                  '/v1/pets',
                  { name: `P${i}`, type: 'DOG', weightKg: 5, coat: 'SHORT' },
                  auth(`pool-${i}`),
                ),
          ),
        );
        expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 8 }, () => 201));
      } finally {
        await small.stop();
      }
    }, 60_000);

    it('books a weekly series with a key where one week is taken: that week skipped, the rest booked once, and a retry gets the same answer', async () => {
      const other = (
        await createApiKey(server.db.sql, {
          email: 'other-walker@example.com',
          scopes: ['bookings:write', 'pets', 'addresses'],
        })
      ).key;
      const them = { authorization: `Bearer ${other}` };
      const theirPet = (
        await server.post('/v1/pets', { name: 'Bolt', type: 'DOG', weightKg: 20, coat: 'SHORT' }, them)
      ).body.id;
      const theirAddress = (
        await server.post(
          '/v1/addresses',
          { label: 'Home', line1: '3 Dorp Street', suburb: 'Die Boord' },
          them,
        )
      ).body.id;
      const myPet = (
        await server.post('/v1/pets', { name: 'Kwezi', type: 'DOG', weightKg: 12, coat: 'SHORT' }, as())
      ).body.id;
      const walk = (addr: string, pet: string) => ({
        category: 'walking',
        addressId: addr,
        pets: [{ petId: pet, serviceIds: ['walk-solo-30'] }],
      });
      const open = await server.post(
        '/v1/availability',
        { ...walk(addressId, myPet), from: '2026-12-01', to: '2026-12-01' },
        as(),
      );
      expect(open.status, JSON.stringify(open.body)).toBe(200);
      const slot = open.body.days[0].slots[0] as { start: string; resourceId: string };
      const weekTwo = new Date(Date.parse(slot.start) + 7 * 24 * 3600_000).toISOString();
      const taken = await server.post(
        '/v1/bookings',
        {
          ...walk(theirAddress, theirPet),
          start: weekTwo,
          resourceId: slot.resourceId,
          paymentMethod: 'CASH',
          confirm: true,
        },
        them,
      );
      expect(taken.status, JSON.stringify(taken.body)).toBe(201);
      const before = await count('bookings');
      const body = {
        ...walk(addressId, myPet),
        start: slot.start,
        resourceId: slot.resourceId,
        paymentMethod: 'CASH',
        confirm: true,
        repeat: { freq: 'WEEKLY', days: ['tue'] },
      };
      const first = await server.post('/v1/bookings', body, as({ 'idempotency-key': 'series-1' }));
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(first.body.skipped).toEqual([
        expect.objectContaining({ date: weekTwo.slice(0, 10), reason: 'FULLY_BOOKED' }),
      ]);
      expect(first.body.bookingIds.length).toBeGreaterThan(1);
      expect(await count('bookings')).toBe(before + first.body.bookingIds.length);
      const again = await server.post('/v1/bookings', body, as({ 'idempotency-key': 'series-1' }));
      expect(again.body).toEqual(first.body);
      expect(await count('bookings')).toBe(before + first.body.bookingIds.length);
    });

    it('rolls the change back when its answer cannot be kept, so a retry with the key writes it once', async () => {
      const admin = createSql(server.db.url, { max: 1 });
      try {
        await admin.unsafe(
          `create or replace function refuse_answers() returns trigger language plpgsql as $$ begin raise exception 'answers are refused'; end $$`,
        );
        await admin.unsafe(
          'create trigger refuse_answers before insert on idempotency_keys for each row execute function refuse_answers()',
        );
        const [pets, audit] = [await count('pets'), await count('audit_log')];
        const body = { name: 'Once', type: 'DOG', weightKg: 8, coat: 'SHORT' };
        const failed = await server.post('/v1/pets', body, as({ 'idempotency-key': 'atomic-1' }));
        expect(failed.status).toBe(500);
        expect([await count('pets'), await count('audit_log')]).toEqual([pets, audit]);
        await admin.unsafe('drop trigger refuse_answers on idempotency_keys');
        const first = await server.post('/v1/pets', body, as({ 'idempotency-key': 'atomic-1' }));
        expect(first.status).toBe(201);
        const again = await server.post('/v1/pets', body, as({ 'idempotency-key': 'atomic-1' }));
        expect(again.status).toBe(201);
        expect(again.body).toEqual(first.body);
        expect([await count('pets'), await count('audit_log')]).toEqual([pets + 1, audit + 1]);
      } finally {
        await admin.unsafe('drop trigger if exists refuse_answers on idempotency_keys');
        await admin.end();
      }
    });

    it("keeps a key busy while its first request runs, and frees it the moment that request's connection dies", async () => {
      // A request in flight holds the key in its transaction; here a session of our own holds it
      // the same way, then dies as a killed server process's connection would.
      const holder = createSql(server.db.url, { max: 1 });
      const body = { name: 'Busy', type: 'DOG', weightKg: 9, coat: 'SHORT' };
      try {
        const reserved = await holder.reserve();
        await reserved`begin`;
        const [{ pid }] = (await reserved`select pg_backend_pid() as pid`) as unknown as [{ pid: number }];
        const [{ locked }] =
          (await reserved`select pg_try_advisory_xact_lock(7041101, hashtext(${userId} || ':' || ${'busy-1'})) as locked`) as unknown as [
            { locked: boolean },
          ];
        expect(locked).toBe(true);
        const busy = await server.post('/v1/pets', body, as({ 'idempotency-key': 'busy-1' }));
        expect(busy.status).toBe(409);
        expect(busy.body.error.code).toBe('REQUEST_IN_PROGRESS');
        await server.db.sql`select pg_terminate_backend(${pid})`;
        // No timer: the next retry runs at once.
        let retried = await server.post('/v1/pets', body, as({ 'idempotency-key': 'busy-1' }));
        for (let i = 0; i < 20 && retried.status === 409; i += 1) {
          await new Promise((r) => setTimeout(r, 50));
          retried = await server.post('/v1/pets', body, as({ 'idempotency-key': 'busy-1' }));
        }
        expect(retried.status, JSON.stringify(retried.body)).toBe(201);
      } finally {
        await holder.end({ timeout: 1 }).catch(() => {});
      }
    });
  });
});
