// The worker watches for new domain events and runs the jobs that read them at once, rather than at
// their next minute: a booking paid is mailed within seconds. Here the workers have no schedules at
// all (cron null), so only the watch can have sent the job that made and delivered the mail; two
// workers watching send one job per slot between them.
import { EVENT_WATCH_KEY, jobs, startWorker, type Worker } from '@nogpets/worker';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookFirstCardSlot, newPetOwner, payInSandbox, startTestServer, type TestServer } from './harness.js';
import { type SmtpReceiver, startSmtpReceiver } from './smtp-receiver.js';

const silent = { info() {}, error() {} };

describe('the worker runs the event readers as soon as events are written', () => {
  const clock = fixedClock('2026-11-23T04:00:00Z');
  let smtp: SmtpReceiver;
  let server: TestServer;
  let workers: Worker[] = [];

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({
      clock,
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'NogPets <hello@nogpets.test>' },
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await server?.stop();
    await smtp?.close();
  });

  it('a paid booking’s confirmation arrives with no schedule and nobody running the job by hand', async () => {
    const deps = server.service.runtime.deps;
    const unscheduled = jobs.map((j) => ({ ...j, cron: null }));
    workers = await Promise.all(
      [0, 1].map(() =>
        startWorker({
          databaseUrl: server.db.url,
          sql: server.db.sql,
          logger: silent,
          deps,
          jobs: unscheduled,
          eventWatchMs: 500,
        }),
      ),
    );
    const email = 'watch-nomsa@example.com';
    const person = await newPetOwner(server, {
      email,
      pet: { name: 'Tau', weightKg: 14 },
      line1: '5 Ryneveld Street',
    });
    const booked = await bookFirstCardSlot(server, person, '2026-11-25');
    expect(await payInSandbox(server, booked.bookingId)).toBe(200);
    await expect
      .poll(() => smtp.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === email).length, {
        timeout: 60_000,
        interval: 200,
      })
      .toBeGreaterThanOrEqual(1);
    const mine = smtp.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === email);
    expect(mine.map((m) => m.subject)).toEqual([expect.stringMatching(/^Booked: Tau: /)]);
    // Every run of the readers came from the watch, one per job and slot however many watch.
    const runs = await server.db.sql<{ name: string; key: string | null; slot: string; n: number }[]>`
      select name, singleton_key as key, singleton_on::text as slot, count(*)::int as n from pgboss.job
      where name in ('dispatch-notices', 'fan-out-webhooks') group by 1, 2, 3`;
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) expect(run).toMatchObject({ key: EVENT_WATCH_KEY, n: 1 });
  });
});
