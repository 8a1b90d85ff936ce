// Fault 1: the server killed with SIGKILL under booking load, each client retrying its booking
// with the same Idempotency-Key until it gets a definite answer. The server is started again on
// the same DATA_DIR: it must deal with the embedded PostgreSQL the dead one left running, and then
// every acknowledged booking exists exactly once and no booking exists that nobody was told of.
// `pnpm faults` runs it; FAULT_TRIALS and FAULT_CLIENTS change its size.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { runningEmbedded } from '@nogpets/store';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  auth,
  bookingBody,
  type Customer,
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
  GIVE_UP_MS,
  freePort,
} from './support.js';

interface Attempted {
  key: string;
  slot: Slot;
  answers: Answer[];
  /** The booking the client was told of (201). */
  bookingId?: string;
  /** The definite answer it ended with; undefined while it still retries. */
  final?: Answer;
  /** How long it saw 409 REQUEST_IN_PROGRESS after the restart. */
  inProgressAfterRestartMs: number;
}

describe('server killed with SIGKILL under booking load', () => {
  const report: unknown[] = [];
  afterAll(() => {
    console.log(JSON.stringify({ fault: 'crash', clients: FAULT_CLIENTS, trials: report }, null, 2));
  });

  for (let trial = 1; trial <= FAULT_TRIALS; trial++) {
    it(`trial ${trial}: restarts on the same data, every acknowledged booking exists once`, async () => {
      const tmp = await tempDir('nogpets-fault-crash-');
      const env = { DATA_DIR: tmp.dir, PORT: String(await freePort()) };
      let server: ServerProcess | undefined;
      try {
        server = await spawnServer(env);
        const first = server;
        const url = server.url;
        const pgBefore = await runningEmbedded(path.join(tmp.dir, 'pg'));
        let sql = await serviceDatabase(pgBefore!.url);
        const customer: Customer = await makeCustomer(sql, url);
        await sql.end({ timeout: 5 });
        const slots = await openSlots(url, customer, 1000);
        expect(slots.length).toBeGreaterThan(100);

        let next = 0;
        let issuing = true;
        let restartedAt = Number.POSITIVE_INFINITY;
        const all: Attempted[] = [];
        async function client() {
          while (issuing) {
            const a: Attempted = {
              key: randomUUID(),
              slot: slots[next++]!,
              answers: [],
              inProgressAfterRestartMs: 0,
            };
            all.push(a);
            const started = performance.now();
            while (performance.now() - started < GIVE_UP_MS) {
              const t = performance.now();
              const answer = await request(
                url,
                'POST',
                '/v1/bookings',
                bookingBody(customer, a.slot),
                { ...auth(customer), 'idempotency-key': a.key },
                10_000,
              );
              a.answers.push(answer);
              const code = answer.body?.error?.code;
              if (answer.status === 409 && code === 'REQUEST_IN_PROGRESS' && t > restartedAt)
                a.inProgressAfterRestartMs += performance.now() - t + 200;
              // No answer (the server is dead), 503, or the first attempt still held: retry the same key.
              if (
                answer.status === 0 ||
                answer.status === 503 ||
                (answer.status === 409 && code === 'REQUEST_IN_PROGRESS')
              ) {
                await sleep(200);
                continue;
              }
              a.final = answer;
              if (answer.status === 201) a.bookingId = answer.body.bookingId;
              break;
            }
          }
        }
        const load = Array.from({ length: FAULT_CLIENTS }, () => client());
        await sleep(2500 + Math.random() * 2000);
        const killedAt = performance.now();
        first.child.kill('SIGKILL');
        await first.exited;
        const orphan = await runningEmbedded(path.join(tmp.dir, 'pg'));
        server = await spawnServer(env);
        restartedAt = performance.now();
        const restartMs = restartedAt - killedAt;
        await sleep(4000);
        issuing = false;
        await Promise.all(load);

        const pgAfter = await runningEmbedded(path.join(tmp.dir, 'pg'));
        sql = await serviceDatabase(pgAfter!.url);
        const rows = await sql<{ id: string; resource_id: string; starts_at: Date }[]>`
          select id, resource_id, starts_at from bookings where user_id = ${customer.userId} and status in ('PENDING', 'ACCEPTED')`;
        await sql.end({ timeout: 5 });
        const slotKey = (resourceId: string, start: string) =>
          `${resourceId}@${new Date(start).toISOString()}`;
        const found = new Map<string, string[]>();
        for (const r of rows) {
          const k = slotKey(r.resource_id, r.starts_at.toISOString());
          found.set(k, [...(found.get(k) ?? []), r.id]);
        }
        const acked = all.filter((a) => a.bookingId);
        const ackedIds = new Set(acked.map((a) => a.bookingId!));
        const missing = acked.filter((a) => !rows.some((r) => r.id === a.bookingId));
        const twice = [...found.values()].filter((ids) => ids.length > 1);
        // Booked but never acknowledged: the client was told something else (or gave up).
        const unacknowledged = rows.filter((r) => !ackedIds.has(r.id));
        const stuck = all.filter((a) => !a.final);
        const tally = new Tally();
        for (const a of all) for (const x of a.answers) tally.add(x);
        const figures = {
          trial,
          keys: all.length,
          answers: tally.toJSON(),
          acknowledged: acked.length,
          acknowledgedFound: acked.length - missing.length,
          bookingsInDatabase: rows.length,
          bookedTwice: twice.length,
          bookedNotAcknowledged: unacknowledged.length,
          keysStillInProgress: stuck.length,
          longestInProgressAfterRestartMs: Math.round(
            Math.max(0, ...all.map((a) => a.inProgressAfterRestartMs)),
          ),
          restartMs: Math.round(restartMs),
          leftRunningPostgres: orphan ? { pid: 'running', port: orphan.port } : null,
          restartLog: server
            .output()
            .split('\n')
            .filter(
              (l) => l.includes('"component":"postgres"') && /left running|did not stop|Stopped/.test(l),
            )
            .map((l) => JSON.parse(l).msg as string),
        };
        report.push(figures);

        expect(server.alive()).toBe(true);
        expect(missing.map((a) => a.key)).toEqual([]);
        expect(twice).toEqual([]);
        expect(stuck.map((a) => `${a.key}: ${a.answers.map((x) => x.status).join(',')}`)).toEqual([]);
        expect(unacknowledged.map((r) => r.id)).toEqual([]);
        if (orphan) expect(figures.restartLog.join('\n')).toMatch(/left running/);
      } finally {
        await server?.stop();
        await tmp.rm();
      }
    });
  }
});
