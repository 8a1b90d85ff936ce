import type { EventEmitter } from 'node:events';
import type { Deps } from '@nogpets/operations';
import { type Runtime, watchConnections } from '@nogpets/runtime';
import PgBoss from 'pg-boss';
import { jobs as allJobs, EVENT_READING_JOBS, type JobDefinition, latestEventSeq } from './jobs.js';

export interface WorkerLogger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface WorkerOptions {
  databaseUrl: string;
  sql: Deps['sql'];
  logger: WorkerLogger;
  now?: () => Date;
  jobs?: readonly JobDefinition[];
  /** The service's dependencies, for jobs that apply its rules. */
  deps?: Deps;
  /** Every queue's expiry instead of each job's own (`JobDefinition.expireInSeconds`). */
  jobExpireSec?: number | undefined;
  /** How often pg-boss looks for jobs past their expiry; default 60 s. */
  maintenanceSec?: number | undefined;
  /**
   * How often to look whether new domain events were written, to send the jobs that read them at
   * once (default 2000 ms; 0: only by their schedule).
   */
  eventWatchMs?: number | undefined;
}

export interface Worker {
  /** Queues a job to run now (also what the cron schedule does). */
  runNow(name: string): Promise<string | null>;
  stop(): Promise<void>;
}

/**
 * Runs the service's timed jobs on pg-boss in the same database. Any number of workers may run:
 * pg-boss hands each job to one of them, and schedules fire once across all.
 */
export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const jobs = options.jobs ?? allJobs;
  const now = options.now ?? (options.deps ? () => options.deps!.clock.now() : () => new Date());
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    schema: 'pgboss',
    max: 3,
    application_name: 'nogpets-worker',
    // Jobs past their expiry (a worker killed mid-job leaves its job active) are failed and retried
    // when a worker's maintenance runs: every minute, not pg-boss's two.
    maintenanceIntervalSeconds: options.maintenanceSec ?? 60,
  });
  boss.on('error', (err) => options.logger.error({ err }, 'job queue error'));
  // pg-boss ends its pool without waiting for the connections to close, and the server stops
  // PostgreSQL next: its pool is opened here (as its start would) so every connection is watched,
  // and the stop returns once they are closed (docs/decisions.md, "a clean stop, a true README").
  const connectionsClosed = await watchBossConnections(boss);
  // Workers starting together on a fresh database deadlock in pg-boss's queue creation; one at a
  // time sets up, under a session advisory lock.
  const setupLock = await options.sql.reserve();
  try {
    await setupLock`select pg_advisory_lock(736411904)`;
    await boss.start();
    for (const job of jobs) {
      // A killed run is retried after its queue's expiry (pg-boss's default is 15 minutes). The
      // queue may exist from an earlier release: its expiry is set again on every start.
      const expireInSeconds = options.jobExpireSec ?? job.expireInSeconds;
      await boss.createQueue(job.name, { name: job.name, expireInSeconds });
      await boss.updateQueue(job.name, { name: job.name, expireInSeconds });
      if (job.cron) await boss.schedule(job.name, job.cron);
    }
  } catch (err) {
    await boss.stop({ graceful: false }).catch(() => {});
    throw err;
  } finally {
    await setupLock`select pg_advisory_unlock(736411904)`.catch(() => {});
    setupLock.release();
  }
  const log = {
    info: (obj: object, msg?: string) => options.logger.info(obj, msg),
    warn: (obj: object, msg?: string) => options.logger.info(obj, msg),
    error: (obj: object, msg?: string) => options.logger.error(obj, msg),
  };
  for (const job of jobs) {
    await boss.work(job.name, { pollingIntervalSeconds: 2 }, async (batch) => {
      for (const item of batch) {
        const result = await job.run({ sql: options.sql, now, deps: options.deps, log });
        options.logger.info({ job: job.name, jobId: item.id, ...result }, 'job done');
      }
    });
  }
  const watch = watchEvents(boss, jobs, options, { sql: options.sql, now, deps: options.deps, log });
  return {
    runNow: (name) => boss.send(name, {}),
    async stop() {
      await watch.stop();
      // Jobs in flight finish (up to 10 s; then they are failed, to run again), then the pool ends.
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      await connectionsClosed(5_000);
    },
  };
}

/** The key of the jobs the event watch sends: one per job in a slot of a few seconds, across every worker. */
export const EVENT_WATCH_KEY = 'new-events';

/**
 * Looks every `eventWatchMs` whether the newest domain event moved and, if it did, sends the jobs
 * that read the events (throttled across workers to one per job in a slot of the watch's period,
 * so ten workers watching send as many as one). A mail made of a booking so goes within seconds of
 * it, not at the next minute; the schedule stays, for whatever a watch missed.
 */
function watchEvents(
  boss: PgBoss,
  jobs: readonly JobDefinition[],
  options: WorkerOptions,
  ctx: Parameters<JobDefinition['run']>[0],
): { stop(): Promise<void> } {
  const every = options.eventWatchMs ?? 2000;
  const names = jobs.map((j) => j.name).filter((n) => EVENT_READING_JOBS.includes(n));
  if (!every || !names.length) return { stop: async () => {} };
  const slot = Math.max(1, Math.ceil(every / 1000));
  let seen: string | null = null;
  let stopped = false;
  let looking: Promise<void> | null = null;
  const look = async () => {
    try {
      const seq = await latestEventSeq(ctx);
      if (stopped) return;
      if (seq !== seen && seq !== '0')
        // One waiting behind a run is enough: it reads whatever came meanwhile.
        for (const name of names)
          if ((await boss.getQueueSize(name)) === 0)
            await boss.sendThrottled(name, {}, {}, slot, EVENT_WATCH_KEY);
      seen = seq;
    } catch (err) {
      options.logger.error({ err }, 'watching for new events failed');
    } finally {
      looking = null;
    }
  };
  // One look at a time: a slow database skips beats rather than stacking them.
  const timer = setInterval(() => {
    if (!stopped && !looking) looking = look();
  }, every);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      // A look stuck on a database that went away does not hold the stop for more than 5 s.
      await Promise.race([looking, new Promise((r) => setTimeout(r, 5000).unref())]);
    },
  };
}

/** pg-boss 10's own database handle (`getDb()` when no `db` is given): its pool exists once opened. */
interface BossDb {
  open?: () => Promise<void>;
  opened?: boolean;
  pool?: EventEmitter;
}

/** Opens pg-boss's pool and watches its connections; what it returns waits for them to close. */
async function watchBossConnections(boss: PgBoss): Promise<(timeoutMs: number) => Promise<boolean>> {
  const db = boss.getDb() as unknown as BossDb;
  if (typeof db.open !== 'function') return async () => true;
  if (!db.opened) await db.open();
  return db.pool ? watchConnections(db.pool) : async () => true;
}

/** The worker on a running service's database and dependencies: how both the worker process and the all-in-one server start it. Returns its stop. */
export async function startWorkerIn(runtime: Runtime): Promise<() => Promise<void>> {
  const worker = await startWorker({
    databaseUrl: runtime.db.url,
    sql: runtime.db.sql,
    logger: runtime.logger,
    deps: runtime.deps,
    jobExpireSec: runtime.config.WORKER_JOB_EXPIRE_SEC,
    maintenanceSec: runtime.config.WORKER_MAINTENANCE_SEC,
    eventWatchMs: runtime.config.WORKER_EVENT_WATCH_MS,
  });
  return () => worker.stop();
}
