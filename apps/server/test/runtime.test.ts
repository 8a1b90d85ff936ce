import { spawn, spawnSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS_DIR } from '@nogpets/store';
import { createTestDatabase } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startTestServer, type TestServer } from './harness.js';

const METRICS_TOKEN = 'scraper-token-0123456789abcdef';

describe('errors in the spec shape', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { METRICS_TOKEN } });
  });
  afterAll(() => server?.stop());

  it('answers an unknown route with 404 NOT_FOUND', async () => {
    const res = await server.get('/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: {
        code: 'NOT_FOUND',
        message: expect.any(String),
        details: { method: 'GET', path: '/v1/no-such-thing' },
      },
    });
  });

  it('answers malformed JSON with 400 and changes nothing', async () => {
    const before = await server.db.sql`select count(*)::int as n from leads`;
    const res = await server.post('/v1/services', '{"address": ');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', details: { reason: 'malformed_json' } });
    const after = await server.db.sql`select count(*)::int as n from leads`;
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('answers a body over 100 kB with 413 in the error shape', async () => {
    const res = await server.post('/mcp', JSON.stringify({ padding: 'x'.repeat(120_000) }));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers GET /mcp with 405, as stateless Streamable HTTP has no stream to open', async () => {
    const res = await server.get('/mcp', { accept: 'text/event-stream' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('echoes a request id, or makes one', async () => {
    const given = await server.get('/v1/services', { 'x-request-id': 'trace-123' });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
    const made = await server.get('/v1/services', { 'x-request-id': 'bad id with spaces' });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves health, readiness and Prometheus metrics', async () => {
    expect((await server.get('/healthz')).status).toBe(200);
    expect((await server.get('/readyz')).body).toEqual({ status: 'ready' });
    await server.get('/v1/services');
    const metrics = await server.get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/v1\/services",status="200"\}/,
    );
    expect(metrics.body).toMatch(
      /nogpets_operation_calls_total\{operation="listServices",transport="http",outcome="ok"\}/,
    );
  });
});

describe('rate limiting', () => {
  it('answers 429 RateLimited with standard headers once the window is spent', async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_POINTS: '3', RATE_LIMIT_WINDOW_SEC: '60' } });
    try {
      const first = await server.get('/v1/services');
      expect(first.headers.get('ratelimit-limit')).toBe('3');
      expect(first.headers.get('ratelimit-remaining')).toBe('2');
      await server.get('/v1/services');
      await server.get('/v1/services');
      const refused = await server.get('/v1/services');
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({
        code: 'RateLimited',
        details: { limit: 3, windowSeconds: 60 },
      });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    } finally {
      await server.stop();
    }
  });
});

describe('two instances on one database', () => {
  it('both migrate and start from an empty database, and share their rate-limit counters', async () => {
    const db = await createTestDatabase({ migrate: false });
    const env = { RATE_LIMIT_POINTS: '4', RATE_LIMIT_WINDOW_SEC: '60' };
    const [a, b] = await Promise.all([startTestServer({ db, env }), startTestServer({ db, env })]);
    try {
      const migrations = await db.sql`select count(*)::int as n from schema_migrations`;
      expect(migrations[0]?.n).toBeGreaterThan(0);
      const operators = await db.sql`select count(*)::int as n from businesses where is_operator`;
      expect(operators[0]?.n).toBe(1);
      expect((await a.get('/v1/services')).status).toBe(200);
      expect((await b.get('/v1/services')).status).toBe(200);
      expect((await a.get('/v1/services')).status).toBe(200);
      expect((await b.get('/v1/services')).status).toBe(200);
      // Four spent across the two instances: the fifth is refused by either.
      expect((await a.get('/v1/services')).status).toBe(429);
      expect((await b.get('/v1/services')).status).toBe(429);
    } finally {
      await a.stop();
      await b.stop();
      await db.drop();
    }
  });
});

describe('behind a pooler in transaction mode, migrated by a release step', () => {
  const serverDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

  it('MIGRATE=false refuses an unmigrated database (server and CLI); MIGRATE=only migrates and exits; DB_PREPARE=false prepares nothing', async () => {
    const db = await createTestDatabase({ migrate: false });
    try {
      await expect(startTestServer({ db, env: { MIGRATE: 'false' } })).rejects.toThrow(
        /lacks migrations 0001_.*run the release step/,
      );
      // The operator CLI with MIGRATE=false checks too, and never migrates (it may be given a pooler).
      const refused = await cli(db.url, ['shop', 'status'], { MIGRATE: 'false' });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/lacks migrations 0001_.*run the release step/);
      const [before] = await db.sql`select to_regclass('schema_migrations')::text as t`;
      expect(before?.t).toBeNull();

      // The release step: the server's own main with MIGRATE=only applies everything and exits 0.
      const release = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: serverDir,
        env: { ...process.env, DATABASE_URL: db.url, MIGRATE: 'only', LOG_LEVEL: 'silent', PORT: '0' },
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(release.status, release.stderr).toBe(0);
      expect(release.stdout).toContain('migrations and demo data applied');
      const [applied] = await db.sql`select count(*)::int as n from schema_migrations`;
      expect(applied?.n).toBe((await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).length);
      const [operators] = await db.sql`select count(*)::int as n from businesses where is_operator`;
      expect(operators?.n).toBe(1);

      // One connection per pool, so the statements the requests ran are on the connection asked.
      const prepared = async (env: Record<string, string>) => {
        const server = await startTestServer({ db, env: { MIGRATE: 'false', DB_POOL_MAX: '1', ...env } });
        try {
          expect((await server.get('/v1/services')).status).toBe(200);
          const found = await server.post('/v1/availability', {
            category: 'grooming',
            address: 'Die Boord',
            pets: [{ name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['groom-dog-bath'] }],
          });
          expect(found.status).toBe(200);
          const sql = server.service.runtime.db.sql;
          const [row] = await sql`select count(*)::int as n from pg_prepared_statements`;
          return { option: sql.options.prepare, statements: row?.n };
        } finally {
          await server.stop();
        }
      };
      const byDefault = await prepared({});
      expect(byDefault.option).toBe(true);
      expect(byDefault.statements).toBeGreaterThan(0);
      expect(await prepared({ DB_PREPARE: 'false' })).toEqual({ option: false, statements: 0 });
    } finally {
      await db.drop();
    }
  });
});

describe('a rolling deploy: the release step of a newer build ran first', () => {
  it('instances of the older build still start on the database ahead of them, with MIGRATE=false and by default', async () => {
    const db = await createTestDatabase();
    try {
      // A migration this build does not know, as the next release's step would have applied it.
      await db.sql`insert into schema_migrations (name, checksum) values ('9999_next_release.sql', 'x')`;
      for (const env of [{ MIGRATE: 'false' }, {}] as Record<string, string>[]) {
        const server = await startTestServer({ db, env });
        try {
          expect((await server.get('/v1/services')).status).toBe(200);
        } finally {
          await server.stop();
        }
      }
    } finally {
      await db.drop();
    }
  });
});

describe('stopping behind a load balancer (SHUTDOWN_DELAY_MS)', () => {
  it('keeps serving while /readyz says draining for the delay, each answer closing its connection, then stops accepting', async () => {
    // A delay no test outlasts, ended by endDelay() (what a second signal does) once checked.
    const server = await startTestServer({ env: { SHUTDOWN_DELAY_MS: '300000' } });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('connection')).not.toBe('close');
    const stopped = server.stop();
    // The balancer's health check sees draining and takes the instance out; requests still answer.
    const draining = await fetch(`${server.url}/readyz`);
    expect(draining.status).toBe(503);
    expect(await draining.json()).toEqual({ status: 'draining' });
    expect(draining.headers.get('retry-after')).not.toBeNull();
    const served = await fetch(`${server.url}/v1/services`);
    expect(served.status).toBe(200);
    expect(served.headers.get('connection')).toBe('close');
    // MCP answers through its SDK transport, which writes its own headers: still closing.
    const mcp = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(200);
    expect(mcp.headers.get('connection')).toBe('close');
    expect(server.service.endDelay()).toBe(true);
    await stopped;
    expect(server.service.endDelay()).toBe(false);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});

describe('a second stop signal during SHUTDOWN_DELAY_MS', () => {
  const serverDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

  it('ends the delay and stops cleanly (exit 0), rather than exiting at once while the instance still serves', async () => {
    const db = await createTestDatabase();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        PORT: '0',
        HOST: '127.0.0.1',
        RUN_WORKER: 'false',
        LOG_LEVEL: 'silent',
        // Far longer than the test may take: only the second signal can end it.
        SHUTDOWN_DELAY_MS: '300000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /is running at (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]!.replace('localhost', '127.0.0.1'));
        });
        child.once('exit', (code) => reject(new Error(`exited ${code} before listening: ${out}`)));
      });
      child.kill('SIGTERM');
      let readiness = '';
      while (readiness !== 'draining') {
        readiness = ((await (await fetch(`${url}/readyz`)).json()) as { status: string }).status;
      }
      // Past the window in which a repeated signal counts as the same one (Ctrl-C echoed by pnpm).
      await new Promise((r) => setTimeout(r, 1_500));
      expect((await fetch(`${url}/v1/services`)).status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await db.drop();
    }
  });
});

/**
 * A TCP relay to PostgreSQL that notes every statement a client prepares by name (a Parse message
 * with a name; node-postgres and postgres.js send '' for an unnamed one), with the client's
 * application_name: what a pooler in transaction mode cannot carry from one server connection to the next.
 */
async function preparedNamesRelay(databaseUrl: string) {
  const target = new URL(databaseUrl);
  const named: string[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let pending = Buffer.alloc(0);
    let startup = true;
    let application = '?';
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (startup) {
          if (pending.length < 8) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          const code = pending.readInt32BE(4);
          if (code === 196608) {
            const params = pending.subarray(8, length).toString('utf8').split('\0');
            const at = params.indexOf('application_name');
            if (at >= 0) application = params[at + 1] ?? '?';
            startup = false;
          }
          pending = pending.subarray(length);
        } else {
          if (pending.length < 5) break;
          const length = pending.readInt32BE(1) + 1;
          if (pending.length < length) break;
          if (pending[0] === 0x50) {
            const name = pending.subarray(5, pending.indexOf(0, 5)).toString('utf8');
            if (name) named.push(`${application}: ${name}`);
          }
          pending = pending.subarray(length);
        }
      }
    });
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relayed = new URL(databaseUrl);
  relayed.hostname = '127.0.0.1';
  relayed.port = String((server.address() as { port: number }).port);
  return {
    url: relayed.toString(),
    named,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('DB_PREPARE=false on every pool that may go through a transaction-mode pooler', () => {
  it('with DB_PREPARE=false (or prepare=false in the URL) no pool names a statement: server, rate limiter, worker, CLI; by default the server, rate limiter and CLI do', async () => {
    const db = await createTestDatabase();
    const relay = await preparedNamesRelay(db.url);
    try {
      const namedBy = async (databaseUrl: string, env: Record<string, string>) => {
        relay.named.length = 0;
        const server = await startTestServer({
          db,
          worker: true,
          env: { DATABASE_URL: databaseUrl, ...env },
        });
        try {
          expect((await server.get('/v1/services')).status).toBe(200);
          const found = await server.post('/v1/availability', {
            category: 'grooming',
            address: 'Die Boord',
            pets: [{ name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['groom-dog-bath'] }],
          });
          expect(found.status).toBe(200);
        } finally {
          await server.stop();
        }
        const made = await cli(
          databaseUrl,
          ['key', 'create', '--email', 'relay@example.com', '--scopes', 'pets'],
          env,
        );
        expect(made.status, made.stderr).toBe(0);
        return new Set(relay.named.map((n) => n.split(':')[0]));
      };
      expect(await namedBy(relay.url, {})).toEqual(new Set(['nogpets', 'nogpets-ratelimit', 'nogpets-cli']));
      expect(await namedBy(relay.url, { DB_PREPARE: 'false' })).toEqual(new Set());
      // postgres.js's own URL parameter, given instead of DB_PREPARE, holds for the rate limiter too.
      const unprepared = new URL(relay.url);
      unprepared.searchParams.set('prepare', 'false');
      expect(await namedBy(unprepared.toString(), {})).toEqual(new Set());
    } finally {
      await relay.close();
      await db.drop();
    }
  });
});
