/**
 * What the load scripts share: starting the servers in child processes (optionally under
 * `node --cpu-prof`), a person who books, the open slots to book, the load generators (autocannon
 * for throughput, a closed loop timed with performance.now() for sub-millisecond latency), the
 * insert floor on the server's own database, and the Markdown output.
 *
 *   BENCH_PROFILE=dir   the NogPets server child runs with `node --cpu-prof --cpu-prof-dir=dir`;
 *                       each measured case's time window and the server's source maps are written
 *                       next to its profile, for `bench/profile-top.ts`.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
// The store's own pool settings (postgres.js, as the server opens it); imported from source so
// that the floor talks to PostgreSQL exactly as the server does.
import { createSql, ensureDatabase, runningEmbedded } from '../packages/store/src/index.js';

export const benchDir = path.dirname(fileURLToPath(import.meta.url));
export const serverDir = path.join(benchDir, '../apps/server');
/** Where the server child writes its CPU profile (BENCH_PROFILE), or undefined. */
export const profileDir = process.env.BENCH_PROFILE
  ? // As given where the command was typed (pnpm runs scripts in the package's folder).
    path.resolve(process.env.INIT_CWD ?? process.cwd(), process.env.BENCH_PROFILE)
  : undefined;

export interface Child {
  child: ChildProcess;
  match: RegExpMatchArray;
  /** SIGTERM, then waits for the exit (the CPU profile is written as the process exits). */
  stop(): Promise<void>;
}

/**
 * Starts `node --import tsx ...cmd` and waits for its ready line. With `profile` and BENCH_PROFILE
 * set, under `--cpu-prof` and with `sourcemaps.ts` preloaded (it writes tsx's source maps at exit).
 */
export function start(
  cmd: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  options: { profile?: boolean; tap?: (chunk: string) => void } = {},
): Promise<Child> {
  const profiling = options.profile && profileDir !== undefined;
  if (profiling) mkdirSync(profileDir!, { recursive: true });
  const args = profiling
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${profileDir}`,
        '--import',
        'tsx',
        '--import',
        path.join(benchDir, 'sourcemaps.ts'),
      ]
    : ['--import', 'tsx'];
  const child = spawn(process.execPath, [...args, ...cmd], {
    cwd,
    env: { ...process.env, ...env, ...(profiling ? { BENCH_PROFILE: profileDir } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  };
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = out.match(ready);
      if (m) {
        // From here on the server's log lines are drained and dropped, not kept or searched
        // (or handed to `tap` as they come, which keeps nothing either).
        child.stdout?.off('data', onData);
        if (options.tap) child.stdout?.on('data', (c: Buffer) => options.tap!(c.toString()));
        child.stdout?.resume();
        resolve({ child, match: m, stop });
      }
    };
    child.stdout?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

export interface NogPets extends Child {
  base: string;
  /** DATA_DIR of the server (its embedded PostgreSQL lives under `pg/`). */
  dataDir: string;
  /** The environment the server was started with (for the operator CLI). */
  env: NodeJS.ProcessEnv;
}

/**
 * The all-in-one server as in production (JSON request logs at info to a drained pipe, metrics,
 * the PostgreSQL-backed rate limiter with a limit that never refuses, the offer cache), no worker.
 * On a fresh embedded PostgreSQL (a benchmark must not write into a shared database) unless
 * `useDatabaseUrl` and DATABASE_URL is set, or `databaseUrl` names the database to use.
 * `main` runs another app's main instead (`../worker/src/main.ts`, from `apps/server`); `env` adds
 * or overrides settings (`RUN_WORKER`, `MIGRATE`, `TRUST_PROXY`).
 */
export async function startNogPets(
  options: {
    useDatabaseUrl?: boolean;
    databaseUrl?: string;
    env?: NodeJS.ProcessEnv;
    main?: string;
    tap?: (chunk: string) => void;
  } = {},
): Promise<NogPets> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'nogpets-bench-'));
  chmodSync(dataDir, 0o755); // PostgreSQL runs as its own user when we are root
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  // spawn leaves out variables whose value is undefined.
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else if (!options.useDatabaseUrl) env.DATABASE_URL = undefined;
  const server = await start(
    [options.main ?? 'src/main.ts'],
    serverDir,
    {
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      // One client address sends all the load here; the limit must not be what is measured.
      RATE_LIMIT_POINTS: '100000000',
      RUN_WORKER: 'false',
      ...options.env,
    },
    /is running at (http:\/\/\S+)/,
    { profile: true, tap: options.tap },
  );
  return { ...server, base: server.match[1]!, dataDir, env: { ...env, ...options.env } };
}

/** The bare express route answering a constant: the floor of the read routes. */
export async function startBare(): Promise<Child & { url: string }> {
  const bare = await start(['bare-server.ts'], benchDir, { PORT: '0' }, /bare listening on (\d+)/);
  return { ...bare, url: `http://127.0.0.1:${bare.match[1]}/constant` };
}

/** The machine, and its load average: anything else running on these cores moves every figure. */
export const machine = () =>
  `${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;

/** YYYY-MM-DD `days` from now (two hours on, so that "today" is never already over). */
export function dayAfter(days: number): string {
  return new Date(Date.now() + 2 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

/** The anonymous inputs of the read cases: one dog, a bath plus teeth, in Die Boord. */
export const rex = {
  name: 'Rex',
  type: 'DOG',
  weightKg: 12,
  coat: 'SHORT',
  serviceIds: ['groom-dog-bath', 'extra-teeth'],
};
export const quoteBody = { category: 'grooming', address: 'Die Boord', pets: [rex] };
/** findTimes: 7 days is the default range; 31 days the longest. */
export const availabilityBody = (days: 7 | 31) =>
  days === 7 ? quoteBody : { ...quoteBody, from: dayAfter(1), to: dayAfter(31) };

// ---------------------------------------------------------------------------------------------
// Profile windows: when each case ran, on the clock V8 stamps its profile samples with (the
// monotonic clock of process.hrtime, in µs), so `profile-top.ts --case name` can keep just those.

const windows: Record<string, [number, number]> = {};
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

// The server's own CPU time in each case (user + system, from /proc; its PostgreSQL and the load
// generator are other processes): per request, it says what a request costs whatever else the two
// shared cores are doing, which moves the rates by tens of per cent from run to run.
let cpuPid: number | undefined;
const cpuUsed: Record<string, number> = {};
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

/** Counts the CPU time of this process (the server) in every case from now on. */
export function watchCpuOf(pid: number | undefined): void {
  cpuPid = pid;
}

/** The CPU time (user + system, ms) a process has used so far, from /proc; undefined where there is none. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (name) ": the state is field 3 of proc(5); utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  } catch {
    return undefined; // not Linux
  }
}

const serverCpuMs = () => processCpuMs(cpuPid);

/** The server's CPU milliseconds per request in case `name`, when it was counted. */
export function cpuPerRequest(name: string, requests: number): string {
  const used = cpuUsed[name];
  return used === undefined || requests === 0 ? '–' : (used / requests).toFixed(2);
}

/** Runs one measured case, remembering its time window for the profile and the server's CPU time. */
export async function phase<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const from = nowUs();
  const cpuFrom = serverCpuMs();
  try {
    return await fn();
  } finally {
    windows[name] = [from, nowUs()];
    const cpuTo = serverCpuMs();
    if (cpuFrom !== undefined && cpuTo !== undefined) cpuUsed[name] = cpuTo - cpuFrom;
  }
}

/** In profile mode: writes the case windows as `windows-<server pid>.json` in BENCH_PROFILE. */
export function writeWindows(server: Child): void {
  if (!profileDir) return;
  const file = path.join(profileDir, `windows-${server.child.pid}.json`);
  writeFileSync(file, `${JSON.stringify(windows, null, 2)}\n`);
  console.error(`profile: case windows in ${file}; the profile is CPU.*.${server.child.pid}.*.cpuprofile`);
}

// ---------------------------------------------------------------------------------------------
// Load generators.

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  count: number;
}

export interface MeasureOptions {
  connections: number;
  seconds: number;
  warmupSeconds?: number;
  /** The profile window's name for the measured part (the warm-up is left out of it). */
  phase?: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * autocannon against one URL for a duration after a warm-up (JIT, caches, pools). Throughput is the
 * mean of per-second samples; p50/p99 in ms (autocannon keeps whole milliseconds).
 */
export async function measure(url: string, o: MeasureOptions): Promise<Measured> {
  const request =
    o.body === undefined
      ? { method: o.method ?? 'GET', headers: o.headers }
      : {
          method: o.method ?? 'POST',
          headers: { 'content-type': 'application/json', ...o.headers },
          body: JSON.stringify(o.body),
        };
  const connections = o.connections;
  if (o.warmupSeconds !== 0)
    await autocannon({ url, connections, duration: o.warmupSeconds ?? 2, ...request });
  const run = () => autocannon({ url, connections, duration: o.seconds, ...request });
  const r = o.phase ? await phase(o.phase, run) : await run();
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, count: r.requests.total };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * `connections` loops, each awaiting `once` again as soon as it returns, for `seconds`; every call
 * timed with performance.now() (fractional ms). For latency where whole milliseconds are too coarse,
 * and for the database floor.
 */
export async function closedLoop(
  connections: number,
  seconds: number,
  once: (worker: number, i: number) => Promise<unknown>,
): Promise<Measured> {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let i = 0;
  await Promise.all(
    Array.from({ length: connections }, async (_, worker) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await once(worker, i++);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    count: latencies.length,
  };
}

/** A keep-alive POST of JSON that must answer 2xx; resolves to the parsed answer. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

// ---------------------------------------------------------------------------------------------
// The floor of a booking: single-row inserts into a table with an exclusion constraint like the
// bookings' (GiST over resource and time range), on the database the server uses, at the same
// concurrency, through postgres.js configured as the server configures it.

export async function insertFloor(server: NogPets, connections: number, seconds: number): Promise<Measured> {
  const url = server.env.DATABASE_URL;
  const running = url ? null : await runningEmbedded(path.join(server.dataDir, 'pg'));
  if (!url && !running) throw new Error(`no PostgreSQL running under ${server.dataDir}`);
  const sql = createSql(url ?? (await ensureDatabase(running!.url, 'nogpets')), {
    max: connections,
    applicationName: 'nogpets-bench-floor',
  });
  try {
    await sql`create extension if not exists btree_gist`;
    await sql`drop table if exists bench_floor`;
    await sql`create table bench_floor (
      id text primary key,
      business_id text not null,
      resource_id text not null,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      exclude using gist (business_id with =, resource_id with =, tstzrange(starts_at, ends_at) with &&)
    )`;
    // Open every connection before timing.
    await Promise.all(Array.from({ length: connections }, () => sql`select 1`));
    const t0 = Date.UTC(2030, 0, 1);
    const insert = (worker: number, i: number) => {
      const starts = new Date(t0 + i * 3600_000);
      const ends = new Date(t0 + i * 3600_000 + 3600_000);
      return sql`insert into bench_floor (id, business_id, resource_id, starts_at, ends_at)
        values (${`f${i}`}, 'bench', ${`r${worker}`}, ${starts}, ${ends})`;
    };
    await closedLoop(connections, 1, insert); // warm-up: prepared statements, GiST pages
    await sql`truncate bench_floor`;
    return await phase('floor', () => closedLoop(connections, seconds, insert));
  } finally {
    await sql`drop table if exists bench_floor`.catch(() => {});
    await sql.end({ timeout: 5 });
  }
}

// ---------------------------------------------------------------------------------------------
// Booking: a person with an API key, a saved dog and address; the open slots to book.

export interface Booker {
  headers: Record<string, string>;
  post(p: string, body: unknown): Promise<Record<string, unknown>>;
  /** What a booking and its availability ask for (add `start`, `resourceId`, `paymentMethod`). */
  request: { category: string; addressId: string; pets: { petId: string; serviceIds: string[] }[] };
}

export async function newBooker(server: NogPets): Promise<Booker> {
  // The operator CLI, attached to the running cluster.
  const made = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli.ts',
      'key',
      'create',
      '--email',
      'bench@example.com',
      '--scopes',
      'pets,addresses,bookings:read,bookings:write',
    ],
    { cwd: serverDir, env: server.env, encoding: 'utf8' },
  );
  const key = made.stdout.trim().split('\n').at(-1)!;
  if (!key.startsWith('npk_')) throw new Error(`no key: ${made.stderr}`);
  const headers = { authorization: `Bearer ${key}` };
  const post = async (p: string, body: unknown) =>
    (await postJson(server.base + p, body, headers)) as Record<string, unknown>;
  const petId = (await post('/v1/pets', { name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT' })).id;
  const addressId = (
    await post('/v1/addresses', { label: 'Home', line1: '12 Dorp Street', suburb: 'Die Boord' })
  ).id;
  return {
    headers,
    post,
    request: {
      category: 'grooming',
      addressId: String(addressId),
      pets: [{ petId: String(petId), serviceIds: ['groom-dog-bath'] }],
    },
  };
}

export type Slot = { start: string; resourceId: string };

/**
 * Open slots that cannot overlap one another: per van, starts at least 2 hours apart (an hour's
 * groom plus the van's travel buffer), over the next 372 days (a run of a few thousand bookings,
 * long enough that the JIT's warm-up and one noisy second do not make the figure).
 */
export async function distinctSlots(booker: Booker): Promise<Slot[]> {
  const slots: Slot[] = [];
  for (let w = 0; w < 12; w++) {
    const from = new Date(Date.now() + (1 + w * 31) * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + (31 + w * 31) * 86_400_000).toISOString().slice(0, 10);
    const found = (await booker.post('/v1/availability', { ...booker.request, from, to })) as {
      days?: { slots: Slot[] }[];
    };
    const last = new Map<string, number>();
    for (const day of found.days ?? []) {
      for (const s of day.slots) {
        const t = Date.parse(s.start);
        if (t - (last.get(s.resourceId) ?? 0) >= 2 * 3600_000) {
          slots.push({ start: s.start, resourceId: s.resourceId });
          last.set(s.resourceId, t);
        }
      }
    }
  }
  if (slots.length < 200) throw new Error(`only ${slots.length} slots`);
  return slots;
}

export interface BookingResult {
  name: string;
  requests: number;
  created: number;
  refused: number;
  errors: number;
  rps: number;
  bookingsPerSec: number;
  p50: number;
  p99: number;
}

/** `amount` POST /v1/bookings over `connections`, the i-th with `bodyFor(i)`. */
export async function bookingRun(
  server: NogPets,
  booker: Booker,
  name: string,
  amount: number,
  connections: number,
  bodyFor: (i: number) => unknown,
): Promise<BookingResult> {
  let i = 0;
  const started = performance.now();
  let last = started;
  // Without a callback autocannon returns its tracker (an EventEmitter) made thenable; the types
  // know only the promise.
  const run = autocannon({
    url: `${server.base}/v1/bookings`,
    connections,
    amount,
    requests: [
      {
        method: 'POST',
        headers: { ...booker.headers, 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: JSON.stringify(bodyFor(i++)) }),
      },
    ],
  }) as Promise<autocannon.Result> & { on(event: 'response', listener: () => void): void };
  // autocannon notices that `amount` is done only at its next 1-second tick, so its own duration
  // is rounded up to whole seconds (320 requests in 1.2 s reported as 2 s): time to the last answer.
  run.on('response', () => {
    last = performance.now();
  });
  const r = await run;
  const seconds = (last - started) / 1000;
  return {
    name,
    requests: r.requests.total,
    created: r['2xx'],
    refused: r.non2xx,
    errors: r.errors,
    rps: r.requests.total / seconds,
    bookingsPerSec: r['2xx'] / seconds,
    p50: r.latency.p50,
    p99: r.latency.p99,
  };
}

// ---------------------------------------------------------------------------------------------
// Output.

/** A Markdown table: the first column and those named in `left` left-aligned, the others right-aligned. */
export function markdownTable(head: string[], rows: (string | number)[][], left: string[] = []): string {
  const align = head.map((h, i) => (i === 0 || left.includes(h) ? '---' : '---:'));
  return [`| ${head.join(' | ')} |`, `|${align.join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join(
    '\n',
  );
}

/** Milliseconds to print: whole numbers as they are, fractions to one decimal under 10. */
export const ms = (x: number) =>
  Number.isNaN(x) ? '–' : Number.isInteger(x) || x >= 10 ? Math.round(x).toString() : x.toFixed(1);

/**
 * The end of a benchmark run: each check on its own line, how long the run took and the machine's
 * load then, and the exit code (1 when a check failed).
 */
export function finishRun(checks: readonly string[], startedAt: number, failed: boolean): never {
  console.log(`\n${checks.map((c) => `- ${c}`).join('\n')}`);
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    `\n(${((performance.now() - startedAt) / 1000).toFixed(0)} s in all; load average now ${load})`,
  );
  process.exit(failed ? 1 : 0);
}
