// Helpers of the fault tests: the real server as its own process, a PostgreSQL the test may stop,
// and booking load from several clients. Used by faults/*.test.ts and the short forms in test/.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiKey } from '@nogpets/operations/testing';
import { createSql, ensureDatabase, type Sql } from '@nogpets/store';

/** Trials per fault test (`FAULT_TRIALS`) and clients per kind of load (`FAULT_CLIENTS`). */
export const FAULT_TRIALS = Number(process.env.FAULT_TRIALS ?? 3);
export const FAULT_CLIENTS = Number(process.env.FAULT_CLIENTS ?? 8);
/** How long a client keeps retrying one key before it gives up (and the test reports the key). */
export const GIVE_UP_MS = 120_000;

/** A free loopback port for a server process to take. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A folder PostgreSQL (which runs as its own user when we are root) can use; removed by `rm`. */
export async function tempDir(prefix: string): Promise<{ dir: string; rm(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  await chmod(dir, 0o755);
  return { dir, rm: () => rm(dir, { recursive: true, force: true }) };
}

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  /** http://127.0.0.1:<port> */
  url: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or signal) once it has exited. */
  exited: Promise<string>;
  alive(): boolean;
  /** SIGTERM and wait (SIGKILL after 15 s). */
  stop(): Promise<void>;
}

/**
 * `node --import tsx apps/server/src/main.ts` as `pnpm start` runs it, with `env` added (no
 * DATABASE_URL unless given: then it starts its embedded PostgreSQL under DATA_DIR). Resolves when
 * it prints its URL; rejects with its output when it exits first or takes longer than `timeoutMs`.
 * `entry` runs another app the same way (`apps/worker/src/main.ts`).
 */
export function spawnServer(
  env: Record<string, string>,
  timeoutMs = 120_000,
  entry = 'apps/server/src/main.ts',
): Promise<ServerProcess> {
  const e: NodeJS.ProcessEnv = { ...process.env };
  delete e.DATABASE_URL;
  delete e.npm_lifecycle_event; // no "parent exited" watch: the test is the parent
  Object.assign(e, { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMIT_POINTS: '1000000', ...env });
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: repoRoot,
    env: e,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let exitedWith: string | null = null;
  const exited = new Promise<string>((resolve) => {
    child.on('exit', (code, signal) => {
      exitedWith = signal ?? String(code);
      resolve(exitedWith);
    });
  });
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = () => {
      const m = /is running at (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({
        child,
        pid: child.pid!,
        url: m[1]!.replace('//localhost:', '//127.0.0.1:'),
        output: () => out,
        exited,
        alive: () => exitedWith === null,
        async stop() {
          if (exitedWith !== null) return;
          child.kill('SIGTERM');
          const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(t);
        },
      });
    };
    child.stdout!.on('data', onData);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${how}) before it was ready:\n${out}`));
    });
  });
}

/** The all-in-one database of the embedded cluster on `serverUrl` (database `postgres`). */
export async function serviceDatabase(serverUrl: string): Promise<Sql> {
  return createSql(await ensureDatabase(serverUrl, 'nogpets'), { max: 2, applicationName: 'nogpets-faults' });
}

export interface Customer {
  key: string;
  userId: string;
  petId: string;
  addressId: string;
}

const GROOMING = 'groom-dog-bath';

/** A person with a key, a dog and an address, made as the operator and the person would. */
export async function makeCustomer(
  sql: Sql,
  baseUrl: string,
  email = `faults-${randomUUID().slice(0, 8)}@example.com`,
): Promise<Customer> {
  const created = await createApiKey(sql, {
    email,
    scopes: ['bookings:read', 'bookings:write', 'pets', 'addresses'],
  });
  const auth = { authorization: `Bearer ${created.key}` };
  const pet = await postJson(
    baseUrl,
    '/v1/pets',
    { name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT' },
    auth,
  );
  const address = await postJson(
    baseUrl,
    '/v1/addresses',
    { label: 'Home', line1: '12 Dorp Street', suburb: 'Die Boord' },
    auth,
  );
  if (pet.status !== 201 && pet.status !== 200)
    throw new Error(`pet: ${pet.status} ${JSON.stringify(pet.body)}`);
  if (address.status !== 201 && address.status !== 200)
    throw new Error(`address: ${address.status} ${JSON.stringify(address.body)}`);
  return { key: created.key, userId: created.userId, petId: pet.body.id, addressId: address.body.id };
}

export interface Slot {
  start: string;
  resourceId: string;
}

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** Open grooming slots from tomorrow, at least `want` of them (31 days per question). */
export async function openSlots(baseUrl: string, c: Customer, want: number): Promise<Slot[]> {
  const slots: Slot[] = [];
  let from = new Date(Date.now() + 2 * 86_400_000);
  for (let i = 0; i < 6 && slots.length < want; i++) {
    const to = new Date(from.getTime() + 30 * 86_400_000);
    const res = await postJson(
      baseUrl,
      '/v1/availability',
      { ...grooming(c), from: isoDate(from), to: isoDate(to) },
      auth(c),
    );
    if (res.status !== 200) throw new Error(`availability: ${res.status} ${JSON.stringify(res.body)}`);
    for (const day of res.body.days as { slots: Slot[] }[])
      for (const s of day.slots) slots.push({ start: s.start, resourceId: s.resourceId });
    from = new Date(to.getTime() + 86_400_000);
  }
  return slots;
}

export const auth = (c: Customer) => ({ authorization: `Bearer ${c.key}` });
export const grooming = (c: Customer) => ({
  category: 'grooming',
  addressId: c.addressId,
  pets: [{ petId: c.petId, serviceIds: [GROOMING] }],
});
export const bookingBody = (c: Customer, slot: Slot) => ({
  ...grooming(c),
  start: slot.start,
  resourceId: slot.resourceId,
  paymentMethod: 'CARD',
});

export interface Answer {
  /** HTTP status, or 0 when no answer came (refused, reset, timed out). */
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are JSON the tests read loosely
  body: any;
  ms: number;
  /** Why there was no answer. */
  failure?: string;
  retryAfter?: string | null;
}

/** One request with a deadline; never throws. */
export async function request(
  baseUrl: string,
  method: string,
  pathname: string,
  body?: unknown,
  headers: Record<string, string> = {},
  timeoutMs = 15_000,
): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(baseUrl + pathname, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return {
      status: res.status,
      body: parsed,
      ms: performance.now() - started,
      retryAfter: res.headers.get('retry-after'),
    };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return {
      status: 0,
      body: null,
      ms: performance.now() - started,
      failure: e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.message),
    };
  }
}

export const postJson = (
  baseUrl: string,
  pathname: string,
  body: unknown,
  headers: Record<string, string> = {},
) => request(baseUrl, 'POST', pathname, body, headers);

/** Answers counted by status and error code ("409 SLOT_TAKEN"; "0 ECONNREFUSED" for no answer). */
export class Tally {
  readonly counts = new Map<string, number>();
  add(a: Answer): void {
    const code = a.status >= 400 ? a.body?.error?.code : undefined;
    const k = a.status === 0 ? `0 ${a.failure}` : code ? `${a.status} ${code}` : String(a.status);
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }
  toJSON(): Record<string, number> {
    return Object.fromEntries([...this.counts].sort());
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` every `everyMs` until it is true; the milliseconds it took, or null past `timeoutMs`. */
export async function timeUntil(
  fn: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 50,
): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (await fn()) return performance.now() - started;
    await sleep(everyMs);
  }
  return null;
}
