/**
 * At scale: the same load against (a) one all-in-one process (API, MCP, pages and its
 * worker) and (b) the split deployment of docs/deployment.md: migrations once as a release step
 * (MIGRATE=only), two API instances (apps/server with RUN_WORKER=false, MIGRATE=false,
 * TRUST_PROXY=true) behind HAProxy (round robin, health-checked on /readyz), and two workers
 * (apps/worker), all on one PostgreSQL. Each setup gets a fresh database of its own on the same
 * server: DATABASE_URL's server when set (scratch databases, dropped at the end), else an embedded
 * PostgreSQL started for the run.
 *
 *   pnpm bench:scale                   # needs haproxy (Debian: apt-get install -y haproxy)
 *   BENCH_SECONDS=10 pnpm bench:scale  # per read case (default 8, after a 2 s warm-up)
 *   DATABASE_URL=postgres://root@127.0.0.1:5432/test pnpm bench:scale
 *
 * Cases, as in bench/all-bench.ts: GET /v1/services and POST /v1/availability (7 days) at 32
 * connections; every open grooming slot of the next 372 days that cannot overlap another booked
 * once by card over 16 connections (a tenth first as a warm-up); 64 clients on one slot × 5.
 * Beside each figure: the CPU per request of the API processes (summed), of the balancer and of
 * the workers, and the connections the setup held open on PostgreSQL after the case.
 *
 * Exits 1 when a check fails: a distinct slot not booked, the contended slot booked other than
 * once, the bookings in the database not those answered 201, or a scheduled job run twice (more
 * than one pg-boss job of a schedule in one minute, a job retried, or more `job done` log lines
 * across the workers than completed jobs).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { EVENT_WATCH_KEY } from '../apps/worker/src/worker.js';
import { createSql, ensureDatabase, type Sql, startEmbeddedPostgres } from '../packages/store/src/index.js';
import {
  availabilityBody,
  bookingRun,
  type Child,
  distinctSlots,
  machine,
  markdownTable,
  measure,
  ms,
  type NogPets,
  newBooker,
  processCpuMs,
  serverDir,
  startNogPets,
  finishRun,
} from './lib.js';

const host = machine();
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const READ_CONNECTIONS = 32;
const BOOK_CONNECTIONS = 16;
const CONTENDERS = 64;
const WORKER_MAIN = '../worker/src/main.ts'; // from apps/server, where startNogPets runs its mains
const started = performance.now();

// ---------------------------------------------------------------------------------------------
// One PostgreSQL for both setups: DATABASE_URL's server, or an embedded one for this run.

const embeddedDir = process.env.DATABASE_URL
  ? undefined
  : mkdtempSync(path.join(os.tmpdir(), 'nogpets-scale-'));
const embedded = embeddedDir
  ? await startEmbeddedPostgres({ dataDir: path.join(embeddedDir, 'pg'), ephemeral: true })
  : undefined;
const serverUrl = embedded?.url ?? process.env.DATABASE_URL!;
const scratch: string[] = [];
async function freshDatabase(label: string): Promise<string> {
  const name = `nogpets_scale_${label}_${Date.now().toString(36)}`;
  scratch.push(name);
  return ensureDatabase(serverUrl, name);
}
async function dropScratch(): Promise<void> {
  const admin = createSql(serverUrl, { max: 1 });
  try {
    for (const name of scratch) await admin.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

// ---------------------------------------------------------------------------------------------
// The balancer: HAProxy, one thread, round robin over the API instances, each checked on /readyz.

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

async function startHaproxy(backends: string[]): Promise<Child & { base: string }> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nogpets-haproxy-'));
  const config = path.join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    `global
  nbthread 1
  maxconn 4096
defaults
  mode http
  option http-keep-alive
  option forwardfor
  timeout connect 5s
  timeout client 70s
  timeout server 70s
  timeout http-keep-alive 60s
frontend api
  bind 127.0.0.1:${port}
  default_backend instances
backend instances
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 1s fall 2 rise 1
${backends.map((b, i) => `  server api${i + 1} ${new URL(b).host.replace('localhost', '127.0.0.1')} check`).join('\n')}
`,
  );
  const child = spawn('haproxy', ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const failed = new Promise<never>((_, reject) =>
    child.once('error', (err) => reject(new Error(`haproxy: ${err.message} (apt-get install -y haproxy)`))),
  );
  const base = `http://127.0.0.1:${port}`;
  // Up once it answers /readyz through a healthy backend.
  const up = (async () => {
    for (let i = 0; i < 100; i++) {
      const ok = await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('haproxy did not come up');
  })();
  await Promise.race([up, failed]);
  return {
    child,
    match: [base] as unknown as RegExpMatchArray,
    base,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// A setup: its processes, grouped for the CPU figures, and what its workers logged.

interface Setup {
  name: string;
  /** Where the load goes: the single process, or the balancer. */
  front: NogPets;
  groups: { api: Child[]; balancer: Child[]; workers: Child[] };
  databaseUrl: string;
  /** `job done` log lines per job name, across its workers. */
  jobsDone: Map<string, number>;
  stop(): Promise<void>;
}

/** Counts `job done` lines in a process's log as they pass (a chunk may end mid-line). */
function jobTap(counts: Map<string, number>) {
  let rest = '';
  return (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('"msg":"job done"')) continue;
      const job = /"job":"([^"]+)"/.exec(line)?.[1];
      if (job) counts.set(job, (counts.get(job) ?? 0) + 1);
    }
  };
}

async function singleProcess(): Promise<Setup> {
  const databaseUrl = await freshDatabase('single');
  const jobsDone = new Map<string, number>();
  const server = await startNogPets({ databaseUrl, env: { RUN_WORKER: 'true' }, tap: jobTap(jobsDone) });
  return {
    name: '1 process',
    front: server,
    groups: { api: [server], balancer: [], workers: [] },
    databaseUrl,
    jobsDone,
    stop: () => server.stop(),
  };
}

async function splitSetup(): Promise<Setup> {
  const databaseUrl = await freshDatabase('split');
  // The release step, once: the server's main with MIGRATE=only applies everything and exits.
  const release = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, DATABASE_URL: databaseUrl, MIGRATE: 'only', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => release.once('exit', resolve));
  if (code !== 0) throw new Error(`release step (MIGRATE=only) exited ${code}`);
  const jobsDone = new Map<string, number>();
  const instance = { MIGRATE: 'false', TRUST_PROXY: 'true' };
  const api = await Promise.all([
    startNogPets({ databaseUrl, env: { ...instance, RUN_WORKER: 'false' } }),
    startNogPets({ databaseUrl, env: { ...instance, RUN_WORKER: 'false' } }),
  ]);
  const workers = await Promise.all([
    startNogPets({ databaseUrl, env: instance, main: WORKER_MAIN, tap: jobTap(jobsDone) }),
    startNogPets({ databaseUrl, env: instance, main: WORKER_MAIN, tap: jobTap(jobsDone) }),
  ]);
  const balancer = await startHaproxy(api.map((a) => a.base));
  const front: NogPets = { ...api[0]!, base: balancer.base };
  return {
    name: '2 API + 2 workers + HAProxy',
    front,
    groups: { api, balancer: [balancer], workers },
    databaseUrl,
    jobsDone,
    async stop() {
      await balancer.stop();
      await Promise.all([...api, ...workers].map((c) => c.stop()));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Measuring: each case with the CPU each group of processes used in it.

type Group = keyof Setup['groups'];
const cpuOf = (setup: Setup): Record<Group, number | undefined> => {
  const sum = (children: Child[]) =>
    children.length === 0
      ? undefined
      : children.reduce((total, c) => total + (processCpuMs(c.child.pid) ?? Number.NaN), 0);
  return {
    api: sum(setup.groups.api),
    balancer: sum(setup.groups.balancer),
    workers: sum(setup.groups.workers),
  };
};

async function connectionsOf(sql: Sql, databaseUrl: string): Promise<number> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`;
  return row?.n ?? 0;
}

type Row = (string | number)[];
const rows: Row[] = [];
let failed = false;
const checks: string[] = [];

async function runCase<T extends { requests: number }>(
  setup: Setup,
  sql: Sql,
  label: string,
  work: () => Promise<T & { rps: number; p50: number; p99: number }>,
  note = '',
): Promise<T> {
  const before = cpuOf(setup);
  const r = await work();
  const after = cpuOf(setup);
  const per = (g: Group) => {
    const a = after[g];
    const b = before[g];
    return a === undefined || b === undefined || Number.isNaN(a - b)
      ? '–'
      : ((a - b) / r.requests).toFixed(2);
  };
  rows.push([
    `${label}${note}`,
    setup.name,
    Math.round(r.rps),
    ms(r.p50),
    ms(r.p99),
    per('api'),
    per('balancer'),
    per('workers'),
    await connectionsOf(sql, setup.databaseUrl),
  ]);
  return r;
}

async function runCases(setup: Setup): Promise<void> {
  const sql = createSql(setup.databaseUrl, { max: 2, applicationName: 'nogpets-bench-scale' });
  try {
    const base = setup.front.base;
    const read = { connections: READ_CONNECTIONS, seconds };
    const reads = (m: { rps: number; p50: number; p99: number; count: number }) => ({
      ...m,
      requests: m.count,
    });
    await runCase(setup, sql, `GET /v1/services, ${READ_CONNECTIONS} conn.`, async () =>
      reads(await measure(`${base}/v1/services`, read)),
    );
    await runCase(setup, sql, `findTimes 7 days, ${READ_CONNECTIONS} conn.`, async () =>
      reads(await measure(`${base}/v1/availability`, { ...read, body: availabilityBody(7) })),
    );
    const booker = await newBooker(setup.front);
    const slots = await distinctSlots(booker);
    const body = (s: object) => ({ ...booker.request, ...s, paymentMethod: 'CARD' });
    const warm = slots.splice(0, Math.ceil(slots.length / 10));
    const contested = slots.pop()!;
    await bookingRun(setup.front, booker, 'warm-up', warm.length, BOOK_CONNECTIONS, (i) => body(warm[i]!));
    const d = await runCase(
      setup,
      sql,
      `book distinct slots, ${BOOK_CONNECTIONS} conn.`,
      () =>
        bookingRun(setup.front, booker, 'distinct', slots.length, BOOK_CONNECTIONS, (i) => body(slots[i]!)),
      ` (${slots.length})`,
    );
    const c = await runCase(
      setup,
      sql,
      `${CONTENDERS} clients on one slot × 5`,
      () => bookingRun(setup.front, booker, 'contention', CONTENDERS * 5, CONTENDERS, () => body(contested)),
      '',
    );
    // What was answered is what the database holds.
    const [held] = await sql<{ n: number }[]>`
      select count(*)::int as n from bookings b join users u on u.id = b.user_id
      where u.email = 'bench@example.com'`;
    const expected = warm.length + d.created + c.created;
    const ok =
      d.created === slots.length &&
      d.errors === 0 &&
      c.created === 1 &&
      c.errors === 0 &&
      held?.n === expected;
    failed ||= !ok;
    checks.push(
      `${setup.name}: ${d.created} of ${slots.length} distinct slots booked, the contended one ${c.created} time(s) ` +
        `(${c.refused} refused), ${held?.n} bookings in the database for ${expected} answered 201: ${ok ? 'ok' : '**FAILED**'}`,
    );
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The every-minute schedule whose runs show the workers share the schedules without doubling them. */
const EVERY_MINUTE = 'expire-unpaid-holds';
const SCHEDULE_MINUTES = 3;

/**
 * Each schedule fired at most once a minute, no job retried, each completed job run once. First
 * waits (at most 3 minutes) until the every-minute schedule has fired in SCHEDULE_MINUTES minutes.
 */
async function checkJobs(setup: Setup): Promise<void> {
  const sql = createSql(setup.databaseUrl, { max: 1, applicationName: 'nogpets-bench-scale' });
  try {
    const deadline = Date.now() + 180_000;
    for (;;) {
      const [fired] = await sql<{ n: number }[]>`
        select count(distinct date_trunc('minute', created_on))::int as n from pgboss.job
        where name = ${EVERY_MINUTE} and state = 'completed'`;
      if ((fired?.n ?? 0) >= SCHEDULE_MINUTES || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 5_000));
    }
    // Let a job that just started finish and be logged.
    await new Promise((r) => setTimeout(r, 3_000));
    const jobs = await sql<{ name: string; minute: string; n: number; retried: number; completed: number }[]>`
      select name, date_trunc('minute', created_on)::text as minute,
        -- Jobs sent by a worker's watch for new events (one per slot of seconds) are not the schedule's.
        count(*) filter (where singleton_key is distinct from ${EVENT_WATCH_KEY})::int as n,
        count(*) filter (where retry_count > 0)::int as retried,
        count(*) filter (where state = 'completed')::int as completed
      from (select name, created_on, retry_count, state::text, singleton_key from pgboss.job
            union all select name, created_on, retry_count, state::text, singleton_key from pgboss.archive) j
      where name not like '\\_\\_pgboss%'
      group by 1, 2`;
    const twice = jobs.filter((j) => j.n > 1);
    const retried = jobs.reduce((n, j) => n + j.retried, 0);
    const completed = new Map<string, number>();
    for (const j of jobs) completed.set(j.name, (completed.get(j.name) ?? 0) + j.completed);
    const logged = [...setup.jobsDone.values()].reduce((a, b) => a + b, 0);
    const done = [...completed.values()].reduce((a, b) => a + b, 0);
    const overRun = [...setup.jobsDone].filter(([name, n]) => n > (completed.get(name) ?? 0));
    const everyMinute = new Set(jobs.filter((j) => j.name === EVERY_MINUTE).map((j) => j.minute)).size;
    const ok = twice.length === 0 && retried === 0 && overRun.length === 0 && everyMinute >= 2;
    failed ||= !ok;
    checks.push(
      `${setup.name}: ${jobs.reduce((n, j) => n + j.n, 0)} scheduled jobs of ${completed.size} schedules, ` +
        `${EVERY_MINUTE} in ${everyMinute} minutes, ` +
        `${twice.length} schedule-minutes with more than one job, ${retried} retried; ` +
        `${done} completed, ${logged} 'job done' log lines across the worker(s): ${ok ? 'ok' : '**FAILED**'}` +
        (overRun.length ? ` (run more often than completed: ${overRun.map(([n]) => n).join(', ')})` : ''),
    );
  } finally {
    await sql.end({ timeout: 5 });
  }
}

try {
  for (const make of [singleProcess, splitSetup]) {
    const setup = await make();
    try {
      await runCases(setup);
      // Two workers sharing the schedules is the split's question; one process has one worker.
      if (setup.groups.workers.length > 1) await checkJobs(setup);
    } finally {
      await setup.stop();
    }
  }
} finally {
  await dropScratch().catch((err) => console.error(`scratch databases not dropped: ${err}`));
  await embedded?.stop();
}

console.log(
  `\n${host}; PostgreSQL ${embedded ? 'embedded' : new URL(serverUrl).host}; read cases ${seconds} s each after a 2 s warm-up\n`,
);
console.log(
  markdownTable(
    [
      'case',
      'setup',
      'req/s',
      'p50 ms',
      'p99 ms',
      'API CPU ms/req',
      'balancer CPU ms/req',
      'workers CPU ms/req',
      'PG connections',
    ],
    rows,
    ['setup'],
  ),
);
finishRun(checks, started, failed);
