// Fault 2: PostgreSQL stopped for a while under load from several clients. The server process
// lives, every answer while it is away is 503 UNAVAILABLE with Retry-After (never 500, never no
// answer) within a bounded time, /readyz says 503, and it serves again soon after PostgreSQL returns.
// `pnpm faults` runs it; FAULT_TRIALS, FAULT_DOWN_SEC and FAULT_CLIENTS change its size.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { type EmbeddedServer, ensureDatabase, startEmbeddedPostgres } from '@nogpets/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  auth,
  bookingBody,
  type Customer,
  grooming,
  makeCustomer,
  openSlots,
  request,
  type ServerProcess,
  type Slot,
  serviceDatabase,
  sleep,
  spawnServer,
  Tally,
  tempDir,
  FAULT_TRIALS,
  FAULT_CLIENTS,
} from './support.js';

const DOWN_MS = Number(process.env.FAULT_DOWN_SEC ?? 10) * 1000;
/** The longest any answer may take while PostgreSQL is away. */
const BOUND_MS = 10_000;
/** Serving again within this of PostgreSQL's return. */
const BACK_MS = 5_000;

type Phase = 'before' | 'down' | 'after';
interface Seen extends Answer {
  phase: Phase;
  at: number;
  what: string;
}

describe('PostgreSQL stopped under load', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let pg: EmbeddedServer;
  let server: ServerProcess;
  let customer: Customer;
  let slots: Slot[];
  const report: unknown[] = [];

  beforeAll(async () => {
    tmp = await tempDir('nogpets-fault-db-');
    pg = await startEmbeddedPostgres({ dataDir: path.join(tmp.dir, 'pg') });
    server = await spawnServer({
      DATABASE_URL: await ensureDatabase(pg.url, 'nogpets'),
      OFFER_CACHE_TTL_MS: '0',
    });
    const sql = await serviceDatabase(pg.url);
    try {
      customer = await makeCustomer(sql, server.url);
    } finally {
      await sql.end({ timeout: 5 });
    }
    slots = await openSlots(server.url, customer, 2000);
  });
  afterAll(async () => {
    await server?.stop();
    await pg?.stop();
    await tmp?.rm();
    console.log(
      JSON.stringify({ fault: 'db-away', clients: FAULT_CLIENTS, downMs: DOWN_MS, trials: report }, null, 2),
    );
  });

  for (let trial = 1; trial <= FAULT_TRIALS; trial++) {
    it(`trial ${trial}: 503 while away, the process lives, serving again within ${BACK_MS / 1000} s`, async () => {
      let phase: Phase = 'before';
      let running = true;
      const seen: Seen[] = [];
      const readyz: Seen[] = [];
      let next = 0;
      const tell = (what: string, a: Answer, list = seen) =>
        list.push({ ...a, what, phase, at: performance.now() });

      async function client(n: number) {
        for (let i = 0; running; i++) {
          const pick = (n + i) % 3;
          if (pick === 0) {
            const from = new Date(Date.now() + (2 + (i % 20)) * 86_400_000).toISOString().slice(0, 10);
            tell(
              'availability',
              await request(
                server.url,
                'POST',
                '/v1/availability',
                { ...grooming(customer), from, to: from },
                auth(customer),
              ),
            );
          } else if (pick === 1) {
            const slot = slots[next++ % slots.length]!;
            tell(
              'book',
              await request(server.url, 'POST', '/v1/bookings', bookingBody(customer, slot), {
                ...auth(customer),
                'idempotency-key': randomUUID(),
              }),
            );
          } else {
            tell('list', await request(server.url, 'GET', '/v1/bookings', undefined, auth(customer)));
          }
        }
      }
      async function watchReady() {
        while (running) {
          tell('readyz', await request(server.url, 'GET', '/readyz'), readyz);
          await sleep(200);
        }
      }

      const load = [...Array.from({ length: FAULT_CLIENTS }, (_, n) => client(n)), watchReady()];
      await sleep(3000);
      const downAt = performance.now();
      phase = 'down';
      await pg.stop();
      const stoppedMs = performance.now() - downAt;
      await sleep(DOWN_MS);
      pg = await startEmbeddedPostgres({ dataDir: pg.dataDir, port: pg.port });
      const upAt = performance.now();
      phase = 'after';
      await sleep(BACK_MS + 3000);
      running = false;
      await Promise.all(load);

      const down = seen.filter((s) => s.phase === 'down');
      const after = seen.filter((s) => s.phase === 'after');
      const firstOk = (list: Seen[]) =>
        list.find((s) => s.at - s.ms >= upAt && s.status >= 200 && s.status < 300);
      const backApi = firstOk(after);
      const backReady = firstOk(readyz.filter((s) => s.phase === 'after'));
      const tally = (list: Seen[]) => {
        const t = new Tally();
        for (const s of list) t.add(s);
        return t.toJSON();
      };
      const figures = {
        trial,
        pgStopTookMs: Math.round(stoppedMs),
        answers: {
          before: tally(seen.filter((s) => s.phase === 'before')),
          down: tally(down),
          after: tally(after),
        },
        readyz: {
          down: tally(readyz.filter((s) => s.phase === 'down')),
          after: tally(readyz.filter((s) => s.phase === 'after')),
        },
        slowestWhileDownMs: Math.round(
          Math.max(0, ...down.map((s) => s.ms), ...readyz.filter((s) => s.phase === 'down').map((s) => s.ms)),
        ),
        servingAgainMs: backApi ? Math.round(backApi.at - upAt) : null,
        readyAgainMs: backReady ? Math.round(backReady.at - upAt) : null,
        processAlive: server.alive(),
      };
      report.push(figures);

      expect(server.alive(), server.output().slice(-3000)).toBe(true);
      expect(server.output()).not.toMatch(/uncaught|Cannot read properties of null/i);
      // Never a 500, never no answer.
      const bad = seen.concat(readyz).filter((s) => s.status === 0 || (s.status >= 500 && s.status !== 503));
      expect(
        bad.map(
          (s) =>
            `${s.phase} ${s.what} ${s.status} ${s.failure ?? ''} ${JSON.stringify(s.body)?.slice(0, 200)}`,
        ),
      ).toEqual([]);
      // While away: 503 UNAVAILABLE with Retry-After, in bounded time.
      const refused = down.filter((s) => s.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      for (const s of refused) {
        expect(s.body.error).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(/retry/i) });
        expect(Number(s.retryAfter)).toBeGreaterThan(0);
      }
      expect(figures.slowestWhileDownMs).toBeLessThan(BOUND_MS);
      // Readiness says so once PostgreSQL is gone (a request in flight at the stop may still pass).
      const readyDown = readyz.filter((s) => s.phase === 'down' && s.at - s.ms > downAt + stoppedMs + 500);
      expect(readyDown.length).toBeGreaterThan(0);
      expect(readyDown.every((s) => s.status === 503)).toBe(true);
      expect(figures.servingAgainMs).not.toBeNull();
      expect(figures.servingAgainMs!).toBeLessThan(BACK_MS);
      expect(figures.readyAgainMs!).toBeLessThan(BACK_MS);
    });
  }
});
