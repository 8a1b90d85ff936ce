import { createSql } from '@nogpets/store';
import { createTestDatabase, type TestDatabase } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, purgeDoneNotices, purgeExpiredRateLimits } from './jobs.js';
import { startWorker, type Worker } from './worker.js';

const silent = { info() {}, error() {} };

describe('worker', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('purges rate-limit counters an hour past their window, and only those', async () => {
    const now = new Date('2026-11-23T08:00:00Z');
    const t = now.getTime();
    await db.sql`insert into rate_limits (key, points, expire) values ('old', 5, ${t - 2 * 3600_000}), ('recent', 5, ${t - 60_000}), ('live', 1, ${t + 60_000})`;
    const first = await purgeExpiredRateLimits.run({ sql: db.sql, now: () => now });
    expect(first).toEqual({ deleted: 1 });
    // Idempotent: a second run finds nothing more.
    expect(await purgeExpiredRateLimits.run({ sql: db.sql, now: () => now })).toEqual({ deleted: 0 });
    const keys = (await db.sql`select key from rate_limits order by key`).map((r) => r.key);
    expect(keys).toEqual(['live', 'recent']);
  });

  it('purges payment notices with nothing left to do after 90 days, never a problem or money owed back', async () => {
    const now = new Date('2026-11-23T08:00:00Z');
    const old = new Date(now.getTime() - 91 * 24 * 3600_000);
    const recent = new Date(now.getTime() - 89 * 24 * 3600_000);
    await db.sql`insert into payment_notices (id, gateway, source_ip, body, received_at, state, gateway_ref) values
      ('ntc_old_done', 'payfast', '1.2.3.4', 'x', ${old}, 'DONE', null),
      ('ntc_recent_done', 'payfast', '1.2.3.4', 'x', ${recent}, 'DONE', null),
      ('ntc_old_problem', 'payfast', '1.2.3.4', 'x', ${old}, 'PROBLEM', null),
      ('ntc_old_refund', 'payfast', '1.2.3.4', 'x', ${old}, 'REFUND_DUE', 'pf-1')`;
    expect(await purgeDoneNotices.run({ sql: db.sql, now: () => now })).toEqual({ deleted: 1 });
    expect(await purgeDoneNotices.run({ sql: db.sql, now: () => now })).toEqual({ deleted: 0 });
    const ids = (await db.sql`select id from payment_notices order by id`).map((r) => r.id);
    expect(ids).toEqual(['ntc_old_problem', 'ntc_old_refund', 'ntc_recent_done']);
  });

  it('runs jobs from the pg-boss queue, with two workers sharing it', async () => {
    await db.sql`insert into rate_limits (key, points, expire) values ('stale', 1, 1000)`;
    const workers: Worker[] = await Promise.all([
      startWorker({ databaseUrl: db.url, sql: db.sql, logger: silent }),
      startWorker({ databaseUrl: db.url, sql: db.sql, logger: silent }),
    ]);
    try {
      expect(await workers[0]!.runNow('purge-expired-rate-limits')).toBeTruthy();
      await expect
        .poll(
          async () => (await db.sql`select count(*)::int as n from rate_limits where key = 'stale'`)[0]?.n,
          { timeout: 15_000 },
        )
        .toBe(0);
      // Every timed job is scheduled once, however many workers start.
      const schedules = await db.sql`select name, cron from pgboss.schedule order by name`;
      expect(schedules).toEqual(
        jobs
          .filter((j) => j.cron)
          .map((j) => ({ name: j.name, cron: j.cron }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      );
      expect(schedules.map((s) => s.name)).toEqual(
        expect.arrayContaining([
          'expire-unpaid-holds',
          'expire-unpaid-orders',
          'keep-series-booked',
          'purge-idempotency-keys',
        ]),
      );
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
  });

  it('has closed every connection of its own when its stop returns, so PostgreSQL may stop next', async () => {
    // The server stops PostgreSQL right after the worker: a connection still closing then is ended
    // by PostgreSQL, and pg-boss logs "terminating connection due to administrator command" as an
    // error. The jobs get a pool of one connection, open before and after.
    const jobSql = createSql(db.url, { max: 1 });
    await jobSql`select 1`;
    const sockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
    const before = sockets();
    const worker = await startWorker({ databaseUrl: db.url, sql: jobSql, logger: silent, maintenanceSec: 1 });
    try {
      await db.sql`insert into rate_limits (key, points, expire) values ('stale-stop', 1, 1000)`;
      await worker.runNow('purge-expired-rate-limits');
      await expect
        .poll(
          async () =>
            (await db.sql`select count(*)::int as n from rate_limits where key = 'stale-stop'`)[0]?.n,
          { timeout: 15_000 },
        )
        .toBe(0);
      expect(sockets()).toBeGreaterThan(before);
    } finally {
      await worker.stop();
    }
    expect(sockets()).toBe(before);
    await jobSql.end({ timeout: 5 });
  });
});
