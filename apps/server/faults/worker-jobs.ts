// The worker killed with SIGKILL in the middle of a job, for the faults test (worker-kill.test.ts)
// and its short form in `pnpm test` (test/worker-kill.test.ts). The worker runs as its own process
// (`node --import tsx apps/worker/src/main.ts`, as `pnpm --filter @nogpets/worker start` does) on a
// PostgreSQL the trial starts. Work is made through the real server (card bookings, card orders,
// DRAFT applications) and then made due by moving its timestamps in the database: the worker reads
// no clock override. Each job is sent through pg-boss's job table, as its schedule sends it.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createApiKey } from '@nogpets/operations/testing';
import { createSql, ensureDatabase, type Sql, startEmbeddedPostgres } from '@nogpets/store';
import {
  bookingBody,
  makeCustomer,
  openSlots,
  request,
  type ServerProcess,
  sleep,
  spawnServer,
  tempDir,
  timeUntil,
} from './support.js';

export interface WorkerKillSizes {
  /** Unpaid card bookings whose hold lapses. */
  bookings: number;
  /** Unpaid card orders past 24 hours and the grace. */
  orders: number;
  /** No-login drafts past 30 days (at most 1000: one purge run takes 1000). */
  drafts: number;
  /** Of those, drafts with a DRAFT application and an owner (made through the API). */
  draftApplications: number;
  /** How long to wait after the work is done for a second run to double it, if it would (5 s). */
  settleMs?: number;
  /**
   * Kill as soon as pg-boss has the job active and its work is not all done, rather than after a
   * share of the items: with few items (the short form in `pnpm test`) a job runs for a fraction
   * of a second, and the whole time it is active is the window to hit on a busy machine.
   */
  killWhenActive?: boolean;
  /**
   * Every queue's expiry for the workers (WORKER_JOB_EXPIRE_SEC, with maintenance every second):
   * the restarted worker is then sent nothing, and the killed job itself must be run again once
   * its expiry has passed. Left out: the schedule's next send does the work, as in production
   * between a kill and the killed job's expiry.
   */
  retryAfterExpirySec?: number;
}

export type JobName = 'expire-unpaid-holds' | 'expire-unpaid-orders' | 'purge-signup-drafts';

export interface JobFigures {
  job: JobName;
  items: number;
  /** Done (committed) when the worker was killed; null when the kill did not land mid-job. */
  doneAtKill: number | null;
  /** Whether pg-boss had the job active when it was killed. */
  activeAtKill: boolean;
  /** The killed job's state once the new worker had done the work (pg-boss retries it only after its expiry). */
  killedJobStateAfter: string | null;
  /** How many times pg-boss ran the killed job again. */
  killedJobRetries: number | null;
  /** From the kill to the work being done by the restarted worker (its start included). */
  doneAfterKillMs: number | null;
  /** Effects per item: how many items had the effect 0, 1, 2… times. */
  effects: Record<string, number>;
  /** Items not done, done twice, or done that should not have been; empty when right. */
  problems: string[];
}

const WORKER = 'apps/worker/src/main.ts';

/** Starts PostgreSQL and the server, makes the work, then kills the worker in each job in turn. */
export async function workerKillTrial(sizes: WorkerKillSizes): Promise<JobFigures[]> {
  const tmp = await tempDir('nogpets-fault-worker-');
  const pg = await startEmbeddedPostgres({ dataDir: path.join(tmp.dir, 'pg') });
  let server: ServerProcess | undefined;
  let worker: ServerProcess | undefined;
  let sql: Sql | undefined;
  try {
    const databaseUrl = await ensureDatabase(pg.url, 'nogpets');
    // The server without its own worker: only the worker process under test runs jobs.
    server = await spawnServer({ DATABASE_URL: databaseUrl, RUN_WORKER: 'false' });
    sql = createSql(databaseUrl, { max: 4, applicationName: 'nogpets-faults' });
    const work = await makeWork(sql, server.url, sizes);
    await server.stop();
    server = undefined;

    const expiry = sizes.retryAfterExpirySec;
    const startWorker = () =>
      spawnServer(
        {
          DATABASE_URL: databaseUrl,
          PORT: '0',
          ...(expiry ? { WORKER_JOB_EXPIRE_SEC: String(expiry), WORKER_MAINTENANCE_SEC: '1' } : {}),
        },
        120_000,
        WORKER,
      );
    const figures: JobFigures[] = [];
    for (const job of JOBS) {
      const s = sql;
      await job.makeDue(s, work);
      worker ??= await startWorker();
      const progress = () => job.progress(s, work);
      const sentId = await sendJob(s, job.name);
      // Somewhere in the middle: after a random share of the items, at least one, never all.
      const share = 0.15 + Math.random() * 0.5;
      // Mid-job: some items done and some not, or (one transaction) the job active.
      let doneAtKill: number | null = null;
      let activeAtKill = false;
      let killed = false;
      const deadline = performance.now() + 60_000;
      while (performance.now() < deadline) {
        const p = await progress();
        const active = await activeJobs(s, job.name);
        const due = job.oneTransaction
          ? active > 0
          : sizes.killWhenActive
            ? active > 0 && p.done < p.of
            : p.done >= Math.max(1, p.of * share) && p.done < p.of;
        if (due) {
          worker.child.kill('SIGKILL');
          killed = true;
          activeAtKill = active > 0;
          break;
        }
        if (p.done === p.of) break;
      }
      const killedAt = performance.now();
      if (!killed)
        throw new Error(
          `${job.name}: never caught mid-job (${JSON.stringify(await progress())}):\n${worker.output().slice(-4000)}`,
        );
      await worker.exited;
      doneAtKill = (await progress()).done;
      worker = await startWorker();
      // The schedule sends it again (every minute for holds and orders, hourly for drafts); with a
      // short expiry nothing is sent: pg-boss runs the killed job again once it has expired.
      if (!expiry) await sendJob(s, job.name);
      const took = await timeUntil(async () => {
        const p = await progress();
        if (p.done !== p.of) return false;
        if (!expiry) return true;
        const [killedJob] = await s<
          { state: string }[]
        >`select state::text from pgboss.job where id = ${sentId}`;
        return killedJob?.state === 'completed';
      }, 60_000);
      const doneAfterKillMs = took === null ? null : performance.now() - killedAt;
      // Time for a second run to do it twice, if it would: another send and the poll after it.
      await sendJob(s, job.name);
      await sleep(sizes.settleMs ?? 5000);
      const [killedJob] = await s<
        { state: string; retries: number }[]
      >`select state::text, retry_count as retries from pgboss.job where id = ${sentId}`;
      const check = await job.check(s, work);
      figures.push({
        job: job.name,
        items: (await progress()).of,
        doneAtKill,
        activeAtKill,
        killedJobStateAfter: killedJob?.state ?? null,
        killedJobRetries: killedJob?.retries ?? null,
        doneAfterKillMs: doneAfterKillMs === null ? null : Math.round(doneAfterKillMs),
        effects: check.effects,
        problems: took === null ? [`not done within 60 s of the restart`, ...check.problems] : check.problems,
      });
    }
    return figures;
  } finally {
    await worker?.stop();
    await server?.stop();
    await sql?.end({ timeout: 5 });
    await pg.stop();
    await tmp.rm();
  }
}

interface Work {
  bookingIds: string[];
  orderIds: string[];
  /** Stock of each variant ordered, before the orders. */
  stockBefore: Record<string, number>;
  draftIds: string[];
  /** DRAFT applications of some of those drafts. */
  applicationIds: string[];
  /** Drafts not yet 30 days old: the purge leaves them. */
  liveDraftIds: string[];
}

const VARIANTS = [
  { productId: 'leash', variantId: 'leash' },
  { productId: 'dental-treats', variantId: 'dental-treats' },
];

async function makeWork(sql: Sql, url: string, sizes: WorkerKillSizes): Promise<Work> {
  const customer = await makeCustomer(sql, url);
  const slots = await openSlots(url, customer, sizes.bookings * 3 + 100);
  const bookingIds: string[] = [];
  let nextSlot = 0;
  await parallel(8, async () => {
    while (bookingIds.length < sizes.bookings && nextSlot < slots.length) {
      const res = await request(url, 'POST', '/v1/bookings', bookingBody(customer, slots[nextSlot++]!), {
        authorization: `Bearer ${customer.key}`,
        'idempotency-key': randomUUID(),
      });
      if (res.status === 201) bookingIds.push(res.body.bookingId);
      else if (res.status !== 409) throw new Error(`booking: ${res.status} ${JSON.stringify(res.body)}`);
    }
  });
  if (bookingIds.length < sizes.bookings) throw new Error(`only ${bookingIds.length} bookings made`);

  for (const v of VARIANTS) await sql`update product_variants set stock = 100000 where id = ${v.variantId}`;
  const stockBefore = Object.fromEntries(VARIANTS.map((v) => [v.variantId, 100000]));
  // A person may hold two unpaid orders at once (TOO_MANY_UNPAID_ORDERS): each order has its own buyer.
  const buyers = await Promise.all(
    Array.from({ length: sizes.orders }, (_, i) =>
      createApiKey(sql, { email: `faults-worker-buyer-${i}@example.com`, scopes: ['orders:write'] }),
    ),
  );
  const orderIds: string[] = [];
  let asked = 0;
  await parallel(8, async () => {
    while (asked < sizes.orders) {
      const i = asked++;
      const res = await request(
        url,
        'POST',
        '/v1/orders',
        {
          items: [{ ...VARIANTS[i % 2]!, qty: 1 + (i % 3) }],
          shippingMethod: 'courier',
          paymentMethod: 'CARD',
          shipTo: { line1: '12 Dorp Street', city: 'Stellenbosch', postalCode: '7600' },
        },
        { authorization: `Bearer ${buyers[i]!.key}`, 'idempotency-key': randomUUID() },
      );
      if (res.status !== 201) throw new Error(`order: ${res.status} ${JSON.stringify(res.body)}`);
      orderIds.push(res.body.orderId);
    }
  });

  // Drafts with an application and an owner, as a sign-up with an email makes them.
  const applicationIds: string[] = [];
  const owned: { id: string; applicationId: string; userId: string }[] = [];
  for (let i = 0; i < sizes.draftApplications; i++) {
    const person = await createApiKey(sql, {
      email: `faults-worker-applicant-${i}@example.com`,
      scopes: ['business:write'],
    });
    const res = await request(
      url,
      'POST',
      '/v1/business/applications',
      {
        businessName: `Fault Walks ${i}`,
        town: 'Stellenbosch',
        phone: '+27 82 555 0101',
        categories: ['walking'],
      },
      { authorization: `Bearer ${person.key}` },
    );
    if (res.status !== 201) throw new Error(`application: ${res.status} ${JSON.stringify(res.body)}`);
    applicationIds.push(res.body.applicationId);
    owned.push({ id: `drf_fault_app_${i}`, applicationId: res.body.applicationId, userId: person.userId });
  }
  for (const o of owned)
    await sql`
      insert into signup_drafts (id, application_id, user_id, user_created, email, caller, data, created_at, expires_at)
      values (${o.id}, ${o.applicationId}, ${o.userId}, false, null, 'faults', null, now(), now() + interval '30 days')`;
  const bare = sizes.drafts - owned.length;
  await sql`
    insert into signup_drafts (id, caller, data, created_at, expires_at)
    select 'drf_fault_' || g, 'faults', '{"businessName": "Fault"}'::jsonb, now(), now() + interval '30 days'
    from generate_series(1, ${bare}::int) g`;
  await sql`
    insert into signup_drafts (id, caller, data, created_at, expires_at)
    select 'drf_fault_live_' || g, 'faults', '{"businessName": "Live"}'::jsonb, now(), now() + interval '30 days'
    from generate_series(1, 10) g`;
  return {
    bookingIds,
    orderIds,
    stockBefore,
    draftIds: [...owned.map((o) => o.id), ...Array.from({ length: bare }, (_, g) => `drf_fault_${g + 1}`)],
    applicationIds,
    liveDraftIds: Array.from({ length: 10 }, (_, g) => `drf_fault_live_${g + 1}`),
  };
}

interface Job {
  name: JobName;
  /** Its work is one transaction: it cannot be seen half done, so the kill waits for it to be active. */
  oneTransaction: boolean;
  /** Moves the work's timestamps so it is due now. */
  makeDue(sql: Sql, w: Work): Promise<void>;
  progress(sql: Sql, w: Work): Promise<{ done: number; of: number }>;
  check(sql: Sql, w: Work): Promise<{ effects: Record<string, number>; problems: string[] }>;
}

/** How many items had an effect n times, from a count per item. */
function effectsOf(ids: string[], counts: Map<string, number>) {
  const effects: Record<string, number> = {};
  for (const id of ids) {
    const n = counts.get(id) ?? 0;
    effects[n] = (effects[n] ?? 0) + 1;
  }
  return effects;
}

async function auditCounts(sql: Sql, action: string, ids: string[]): Promise<Map<string, number>> {
  const rows = await sql<{ target: string; n: number }[]>`
    select target, count(*)::int as n from audit_log where action = ${action} and target = any(${ids}) group by target`;
  return new Map(rows.map((r) => [r.target, r.n]));
}

const JOBS: Job[] = [
  {
    name: 'expire-unpaid-holds',
    oneTransaction: false,
    async makeDue(sql, w) {
      await sql`update bookings set hold_until = now() - interval '1 minute' where id = any(${w.bookingIds})`;
    },
    async progress(sql, w) {
      const [r] = await sql<{ n: number }[]>`
        select count(*)::int as n from bookings where id = any(${w.bookingIds}) and status = 'EXPIRED'`;
      return { done: r!.n, of: w.bookingIds.length };
    },
    async check(sql, w) {
      const audits = await auditCounts(sql, 'booking.expire', w.bookingIds);
      const rows = await sql<{ id: string; status: string; hold_until: Date | null }[]>`
        select id, status, hold_until from bookings where id = any(${w.bookingIds})`;
      const problems = [
        ...rows
          .filter((r) => r.status !== 'EXPIRED' || r.hold_until !== null)
          .map((r) => `${r.id} ${r.status}`),
        ...w.bookingIds
          .filter((id) => audits.get(id) !== 1)
          .map((id) => `${id}: ${audits.get(id) ?? 0} audits`),
      ];
      return { effects: effectsOf(w.bookingIds, audits), problems };
    },
  },
  {
    name: 'expire-unpaid-orders',
    oneTransaction: false,
    async makeDue(sql, w) {
      await sql`
        update orders set created_at = created_at - interval '2 days', expires_at = now() - interval '1 day'
        where id = any(${w.orderIds})`;
    },
    async progress(sql, w) {
      const [r] = await sql<{ n: number }[]>`
        select count(*)::int as n from orders where id = any(${w.orderIds}) and status = 'EXPIRED'`;
      return { done: r!.n, of: w.orderIds.length };
    },
    async check(sql, w) {
      const audits = await auditCounts(sql, 'order.expire', w.orderIds);
      const rows = await sql<{ id: string; status: string }[]>`
        select id, status from orders where id = any(${w.orderIds})`;
      // Stock returned once: back to what it was before the orders, not more.
      const stock = await sql<{ id: string; stock: number }[]>`
        select id, stock from product_variants where id = any(${Object.keys(w.stockBefore)})`;
      const problems = [
        ...rows.filter((r) => r.status !== 'EXPIRED').map((r) => `${r.id} ${r.status}`),
        ...w.orderIds
          .filter((id) => audits.get(id) !== 1)
          .map((id) => `${id}: ${audits.get(id) ?? 0} audits`),
        ...stock
          .filter((s) => s.stock !== w.stockBefore[s.id])
          .map((s) => `${s.id}: stock ${s.stock}, was ${w.stockBefore[s.id]} before the orders`),
      ];
      return { effects: effectsOf(w.orderIds, audits), problems };
    },
  },
  {
    name: 'purge-signup-drafts',
    oneTransaction: true,
    async makeDue(sql, w) {
      await sql`
        update signup_drafts set created_at = now() - interval '31 days', expires_at = now() - interval '1 day'
        where id = any(${w.draftIds})`;
    },
    async progress(sql, w) {
      const [r] = await sql<
        { n: number }[]
      >`select count(*)::int as n from signup_drafts where id = any(${w.draftIds})`;
      return { done: w.draftIds.length - r!.n, of: w.draftIds.length };
    },
    async check(sql, w) {
      const [left] = await sql<{ drafts: number; live: number; applications: number }[]>`
        select (select count(*)::int from signup_drafts where id = any(${w.draftIds})) as drafts,
               (select count(*)::int from signup_drafts where id = any(${w.liveDraftIds})) as live,
               (select count(*)::int from business_applications where id = any(${w.applicationIds})) as applications`;
      const problems = [
        ...(left!.drafts ? [`${left!.drafts} expired drafts left`] : []),
        ...(left!.applications ? [`${left!.applications} DRAFT applications of purged drafts left`] : []),
        ...(left!.live !== w.liveDraftIds.length
          ? [`${w.liveDraftIds.length - left!.live} live drafts purged`]
          : []),
      ];
      return {
        effects: { purged: w.draftIds.length - left!.drafts, livePurged: w.liveDraftIds.length - left!.live },
        problems,
      };
    },
  },
];

/**
 * Queues a job as pg-boss's schedule does (its queue exists once a worker has started): with the
 * queue's expiry, as pg-boss's send gives it (its 15 minutes when the queue has none).
 */
export async function sendJob(sql: Sql, name: string): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    insert into pgboss.job (name, data, expire_in)
    select ${name}, '{}', coalesce(q.expire_seconds * interval '1s', interval '15 minutes')
    from pgboss.queue q where q.name = ${name}
    returning id`;
  return row!.id;
}

async function activeJobs(sql: Sql, name: JobName): Promise<number> {
  const [r] = await sql<{ n: number }[]>`
    select count(*)::int as n from pgboss.job where name = ${name} and state = 'active'`;
  return r!.n;
}

/** `fn` on `n` lanes at once (each lane takes the next item of shared work). */
export async function parallel(n: number, fn: (i: number) => Promise<void>): Promise<void> {
  await Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
}
