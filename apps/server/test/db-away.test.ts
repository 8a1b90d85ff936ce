// While PostgreSQL is away: the driver patch (patches/postgres@3.4.9.patch) and the 503 answers.
// The long form under load from 8 clients, with figures: faults/db-away.test.ts (`pnpm faults`).
import path from 'node:path';
import { createApiKey } from '@nogpets/operations/testing';
import { createSql, type EmbeddedServer, ensureDatabase, startEmbeddedPostgres } from '@nogpets/store';
import { createTestDatabase, type TestDatabase } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, tempDir, timeUntil } from '../faults/support.js';
import { startTestServer, type TestServer } from './harness.js';

describe('postgres.js when a connection dies under a transaction (porsager/postgres#1208)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('rejects with CONNECTION_CLOSED instead of throwing from a timer, and the pool serves again', async () => {
    const sql = createSql(db.url, { max: 2 });
    const killer = createSql(db.url, { max: 1 });
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      let pid: number | null = null;
      // The failed query makes postgres.js write its own ROLLBACK to the socket that just closed.
      const tx = sql.begin(async (t) => {
        pid = (await t<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!.pid;
        await t`select pg_sleep(5)`;
      });
      // Settled now, so a rejection that lands while we await the killer is never 'unhandled'.
      const outcome = tx.then(
        () => null,
        (err: unknown) => err,
      );
      await timeUntil(async () => pid !== null, 5000, 20);
      await killer`select pg_terminate_backend(${pid})`;
      expect(await outcome).toMatchObject({ code: expect.stringMatching(/^(CONNECTION_CLOSED|57P01)$/) });
      await new Promise((r) => setTimeout(r, 100));
      expect(uncaught).toEqual([]);
      expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await sql.end({ timeout: 1 });
      await killer.end({ timeout: 1 });
    }
  });
});

describe('the server while its PostgreSQL is stopped', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let pg: EmbeddedServer;
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    tmp = await tempDir('nogpets-db-away-');
    pg = await startEmbeddedPostgres({ dataDir: path.join(tmp.dir, 'pg') });
    const url = await ensureDatabase(pg.url, 'nogpets');
    const sql = createSql(url, { max: 4 });
    // The server migrates and loads the demo data itself; dropping is removing the cluster.
    const db: TestDatabase = { sql, url, kind: 'external', drop: () => sql.end({ timeout: 1 }) };
    server = await startTestServer({ db });
    key = (
      await createApiKey(sql, { email: 'away@example.com', scopes: ['bookings:read', 'bookings:write'] })
    ).key;
  });
  afterAll(async () => {
    await server?.stop();
    await server?.db.drop();
    await pg?.stop();
    await tmp?.rm();
  });

  it('answers 503 UNAVAILABLE with Retry-After (never 500, never hangs) and serves within 5 s of its return', async () => {
    const as = { authorization: `Bearer ${key}` };
    const reads = () => [
      request(server.url, 'GET', '/v1/bookings', undefined, as, 12_000),
      request(server.url, 'GET', '/v1/services', undefined, {}, 12_000),
      request(
        server.url,
        'POST',
        '/v1/availability',
        {
          category: 'grooming',
          pets: [{ type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['groom-dog-bath'] }],
        },
        {},
        12_000,
      ),
    ];
    const before = await Promise.all(reads());
    expect(before.map((a) => a.status)).toEqual([200, 200, expect.any(Number)]);

    // In flight when it stops, and after.
    const inFlight = Array.from({ length: 4 }, reads).flat();
    await pg.stop();
    const during = [...(await Promise.all(inFlight)), ...(await Promise.all([...reads(), ...reads()]))];
    for (const a of during) {
      expect(
        a.status === 0 || (a.status >= 500 && a.status !== 503),
        `${a.status} ${a.failure ?? ''} ${JSON.stringify(a.body)}`,
      ).toBe(false);
      expect(a.ms).toBeLessThan(10_000);
    }
    const refused = during.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(6);
    for (const a of refused) {
      expect(a.body.error).toMatchObject({
        code: 'UNAVAILABLE',
        message: expect.stringMatching(/retry/i),
        details: { retryAfterSeconds: expect.any(Number) },
      });
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
    }
    // The OAuth endpoints too: the SDK's handlers would answer 500 server_error.
    const token = await fetch(`${server.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=abc&code_verifier=x&client_id=some-client',
      signal: AbortSignal.timeout(10_000),
    });
    expect(token.status).toBe(503);
    expect(token.headers.get('retry-after')).toBe('2');
    expect(await token.json()).toMatchObject({ error: 'temporarily_unavailable' });
    const ready = await request(server.url, 'GET', '/readyz', undefined, {}, 5000);
    expect(ready.status).toBe(503);
    expect(ready.ms).toBeLessThan(3000);

    pg = await startEmbeddedPostgres({ dataDir: pg.dataDir, port: pg.port });
    const back = await timeUntil(
      async () => (await request(server.url, 'GET', '/v1/bookings', undefined, as, 5000)).status === 200,
      10_000,
    );
    expect(back).not.toBeNull();
    expect(back!).toBeLessThan(5000);
    expect((await request(server.url, 'GET', '/readyz')).status).toBe(200);
  });
});
