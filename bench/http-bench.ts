/**
 * HTTP throughput and latency of public operations, measured in the same run as a bare express
 * route answering a constant. Servers run in child processes; the load comes from this one.
 *
 *   pnpm bench                         # embedded PostgreSQL (or DATABASE_URL when set)
 *   BENCH_SECONDS=20 BENCH_CONNECTIONS=64 pnpm bench
 *
 * Prints a Markdown table for docs/benchmarks.md.
 */
import {
  availabilityBody,
  machine,
  markdownTable,
  measure,
  quoteBody,
  startBare,
  startNogPets,
  writeWindows,
} from './lib.js';

// Before our own load: the load average says what else was running.
const host = machine();
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

const bare = await startBare();
const server = await startNogPets({ useDatabaseUrl: true });
const base = server.base;
const cases: [string, string, unknown?][] = [
  ['bare express route (constant)', bare.url],
  ['GET /v1/services', `${base}/v1/services`],
  [
    'GET /v1/coverage?address=Die Boord',
    `${base}/v1/coverage?address=${encodeURIComponent('12 Dorp Street, Die Boord')}`,
  ],
  ['GET /v1/coverage?postalCode=7600', `${base}/v1/coverage?postalCode=7600`],
  ['GET /v1/coverage?lat&lng', `${base}/v1/coverage?lat=-33.9477&lng=18.8502`],
  ['POST /v1/quote (1 dog, 2 services)', `${base}/v1/quote`, quoteBody],
  ['POST /v1/availability (7 days, 2 vans)', `${base}/v1/availability`, availabilityBody(7)],
  ['POST /v1/availability (31 days, 2 vans)', `${base}/v1/availability`, availabilityBody(31)],
];
const results: { name: string; rps: number; p50: number; p99: number }[] = [];
for (const [name, url, body] of cases) {
  results.push({ name, ...(await measure(url, { connections, seconds, body, phase: name })) });
}
writeWindows(server);
await Promise.all([bare.stop(), server.stop()]);

const floor = results[0]!.rps;
console.log(`\n${host}, ${connections} connections, ${seconds} s each\n`);
console.log(
  markdownTable(
    ['route', 'req/s', 'p50 ms', 'p99 ms', 'of bare route'],
    results.map((r) => [r.name, Math.round(r.rps), r.p50, r.p99, (r.rps / floor).toFixed(2)]),
  ),
);
process.exit(0);
