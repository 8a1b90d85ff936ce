/**
 * Bookings per second over HTTP: `POST /v1/bookings` on distinct open slots (each request books a
 * different time), and the contention case (many clients at one slot: one booking, the rest
 * SLOT_TAKEN). The all-in-one server runs in a child process on a fresh embedded PostgreSQL (a
 * benchmark must not write into a shared database); the load comes from this one.
 *
 *   pnpm --filter @nogpets/bench bench:bookings
 *   BENCH_CONNECTIONS=16 pnpm --filter @nogpets/bench bench:bookings
 *
 * Prints a Markdown table for docs/benchmarks.md.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { start } from './lib.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.join(here, '../apps/server');
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const contenders = Number(process.env.BENCH_CONTENDERS ?? 64);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'nogpets-bench-'));
chmodSync(dataDir, 0o755); // PostgreSQL runs as its own user when we are root
const env = { ...process.env, DATA_DIR: dataDir };
delete env.DATABASE_URL;
const server = await start(
  ['src/main.ts'],
  serverDir,
  {
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    RATE_LIMIT_POINTS: '100000000',
    RUN_WORKER: 'false',
  },
  /is running at (http:\/\/\S+)/,
);
const base = server.match[1]!;

// A person with a key (the operator CLI, attached to the running cluster), a pet and an address.
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
  { cwd: serverDir, env, encoding: 'utf8' },
);
const key = made.stdout.trim().split('\n').at(-1)!;
if (!key.startsWith('npk_')) throw new Error(`no key: ${made.stderr}`);
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const post = async (p: string, body: unknown) =>
  (await fetch(base + p, { method: 'POST', headers, body: JSON.stringify(body) })).json() as Promise<any>;
const petId = (await post('/v1/pets', { name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT' })).id;
const addressId = (
  await post('/v1/addresses', { label: 'Home', line1: '12 Dorp Street', suburb: 'Die Boord' })
).id;
const request = { category: 'grooming', addressId, pets: [{ petId, serviceIds: ['groom-dog-bath'] }] };

// Distinct slots that cannot overlap one another: per van, starts at least 2 hours apart (an
// hour's groom plus the van's travel buffer), over the next 90 days.
type Slot = { start: string; resourceId: string };
const slots: Slot[] = [];
for (let w = 0; w < 3; w++) {
  const from = new Date(Date.now() + (1 + w * 31) * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + (31 + w * 31) * 86_400_000).toISOString().slice(0, 10);
  const found = await post('/v1/availability', { ...request, from, to });
  const last = new Map<string, number>();
  for (const day of found.days ?? []) {
    for (const s of day.slots as Slot[]) {
      const t = Date.parse(s.start);
      if (t - (last.get(s.resourceId) ?? 0) >= 2 * 3600_000) {
        slots.push({ start: s.start, resourceId: s.resourceId });
        last.set(s.resourceId, t);
      }
    }
  }
}
if (slots.length < 200) throw new Error(`only ${slots.length} slots`);

async function run(name: string, amount: number, conns: number, bodyFor: (i: number) => unknown) {
  let i = 0;
  const r = await autocannon({
    url: `${base}/v1/bookings`,
    connections: conns,
    amount,
    requests: [
      { method: 'POST', headers, setupRequest: (req) => ({ ...req, body: JSON.stringify(bodyFor(i++)) }) },
    ],
  });
  const seconds = r.duration;
  const created = r['2xx'];
  return {
    name,
    requests: r.requests.total,
    created,
    refused: r.non2xx,
    errors: r.errors,
    rps: r.requests.total / seconds,
    bookingsPerSec: created / seconds,
    p50: r.latency.p50,
    p99: r.latency.p99,
  };
}

// Warm up on a few slots (JIT, pools, caches), then book the rest, each once.
const warm = slots.splice(0, 20);
await run('warm-up', warm.length, 4, (i) => ({ ...request, ...warm[i]!, paymentMethod: 'CARD' }));
const distinct = await run(
  `distinct slots (${connections} connections)`,
  slots.length - 1,
  connections,
  (i) => ({ ...request, ...slots[i]!, paymentMethod: 'CARD' }),
);
// Contention: every client asks for the same slot (five requests per client): one booking.
const contested = slots.length - 1;
const contention = await run(`one slot, ${contenders} connections`, contenders * 5, contenders, () => ({
  ...request,
  ...slots[contested]!,
  paymentMethod: 'CARD',
}));
server.child.kill('SIGTERM');

console.log(`\n${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}\n`);
console.log('| case | requests | booked | refused | req/s | bookings/s | p50 ms | p99 ms |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of [distinct, contention]) {
  console.log(
    `| ${r.name} | ${r.requests} | ${r.created} | ${r.refused} | ${Math.round(r.rps)} | ${Math.round(r.bookingsPerSec)} | ${r.p50} | ${r.p99} |`,
  );
}
if (distinct.created !== slots.length - 1 || contention.created !== 1) {
  console.error(
    `unexpected: ${distinct.created} of ${slots.length - 1} distinct booked; ${contention.created} of the contended`,
  );
  process.exit(1);
}
process.exit(0);
