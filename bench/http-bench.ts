/**
 * HTTP throughput and latency of public operations, measured in the same run as a bare express
 * route answering a constant. Servers run in child processes; the load comes from this one.
 *
 *   pnpm bench                         # embedded PostgreSQL (or DATABASE_URL when set)
 *   BENCH_SECONDS=20 BENCH_CONNECTIONS=64 pnpm bench
 *
 * Prints a Markdown table for docs/benchmarks.md.
 */
import { chmodSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { start } from './lib.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

async function measure(url: string, body?: unknown) {
  const request =
    body === undefined
      ? {}
      : {
          method: 'POST' as const,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        };
  // Warm up (JIT, caches, connection pools), then measure.
  await autocannon({ url, connections, duration: 2, ...request });
  const r = await autocannon({ url, connections, duration: seconds, ...request });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  // p50/p99 in ms; throughput is the mean of per-second samples.
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

function dayAfter(days: number): string {
  return new Date(Date.now() + 2 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'nogpets-bench-'));
chmodSync(dataDir, 0o755); // PostgreSQL runs as its own user when we are root
const bare = await start(['bare-server.ts'], here, { PORT: '0' }, /bare listening on (\d+)/);
const server = await start(
  ['src/main.ts'],
  path.join(here, '../apps/server'),
  {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    // One client address sends all the load here; the limit must not be what is measured.
    RATE_LIMIT_POINTS: '100000000',
    RUN_WORKER: 'false',
  },
  /is running at (http:\/\/\S+)/,
);
const base = server.match[1];
const rex = {
  name: 'Rex',
  type: 'DOG',
  weightKg: 12,
  coat: 'SHORT',
  serviceIds: ['groom-dog-bath', 'extra-teeth'],
};
const cases: [string, string, unknown?][] = [
  ['bare express route (constant)', `http://127.0.0.1:${bare.match[1]}/constant`],
  ['GET /v1/services', `${base}/v1/services`],
  [
    'GET /v1/coverage?address=Die Boord',
    `${base}/v1/coverage?address=${encodeURIComponent('12 Dorp Street, Die Boord')}`,
  ],
  ['GET /v1/coverage?postalCode=7600', `${base}/v1/coverage?postalCode=7600`],
  ['GET /v1/coverage?lat&lng', `${base}/v1/coverage?lat=-33.9477&lng=18.8502`],
  [
    'POST /v1/quote (1 dog, 2 services)',
    `${base}/v1/quote`,
    { category: 'grooming', address: 'Die Boord', pets: [rex] },
  ],
  [
    'POST /v1/availability (7 days, 2 vans)',
    `${base}/v1/availability`,
    { category: 'grooming', address: 'Die Boord', pets: [rex] },
  ],
  [
    'POST /v1/availability (31 days, 2 vans)',
    `${base}/v1/availability`,
    { category: 'grooming', address: 'Die Boord', pets: [rex], from: dayAfter(1), to: dayAfter(31) },
  ],
];
const results: { name: string; rps: number; p50: number; p99: number }[] = [];
for (const [name, url, body] of cases) {
  results.push({ name, ...(await measure(url, body)) });
}
bare.child.kill('SIGTERM');
server.child.kill('SIGTERM');

const floor = results[0]!.rps;
console.log(
  `\n${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, ${connections} connections, ${seconds} s each\n`,
);
console.log('| route | req/s | p50 ms | p99 ms | of bare route |');
console.log('|---|---:|---:|---:|---:|');
for (const r of results) {
  console.log(`| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.rps / floor).toFixed(2)} |`);
}
process.exit(0);
