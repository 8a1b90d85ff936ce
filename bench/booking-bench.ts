/**
 * Bookings per second over HTTP: `POST /v1/bookings` on distinct open slots (each request books a
 * different time), and the contention case (many clients at one slot: one booking, the rest
 * SLOT_TAKEN). The all-in-one server runs in a child process on a fresh embedded PostgreSQL (a
 * benchmark must not write into a shared database); the load comes from this one.
 *
 *   pnpm --filter @nogpets/bench bench:bookings
 *   BENCH_CONNECTIONS=16 pnpm --filter @nogpets/bench bench:bookings
 *
 * Prints a Markdown table for docs/benchmarks.md. `all-bench.ts` runs the same cases beside their floor.
 */
import {
  bookingRun,
  distinctSlots,
  machine,
  markdownTable,
  newBooker,
  phase,
  startNogPets,
  writeWindows,
} from './lib.js';

// Before our own load: the load average says what else was running.
const host = machine();
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const contenders = Number(process.env.BENCH_CONTENDERS ?? 64);

const server = await startNogPets();
const booker = await newBooker(server);
const slots = await distinctSlots(booker);
const body = (s: object) => ({ ...booker.request, ...s, paymentMethod: 'CARD' });

// Warm up on a few slots (JIT, pools, caches), then book the rest, each once; the last is contended.
const warm = slots.splice(0, 20);
const contested = slots.pop()!;
await bookingRun(server, booker, 'warm-up', warm.length, 4, (i) => body(warm[i]!));
const distinct = await phase('distinct', () =>
  bookingRun(server, booker, `distinct slots (${connections} connections)`, slots.length, connections, (i) =>
    body(slots[i]!),
  ),
);
// Contention: every client asks for the same slot (five requests per client): one booking.
const contention = await phase('contention', () =>
  bookingRun(server, booker, `one slot, ${contenders} connections`, contenders * 5, contenders, () =>
    body(contested),
  ),
);
writeWindows(server);
await server.stop();

console.log(`\n${host}\n`);
console.log(
  markdownTable(
    ['case', 'requests', 'booked', 'refused', 'req/s', 'bookings/s', 'p50 ms', 'p99 ms'],
    [distinct, contention].map((r) => [
      r.name,
      r.requests,
      r.created,
      r.refused,
      Math.round(r.rps),
      Math.round(r.bookingsPerSec),
      r.p50,
      r.p99,
    ]),
  ),
);
if (distinct.created !== slots.length || contention.created !== 1) {
  console.error(
    `unexpected: ${distinct.created} of ${slots.length} distinct booked; ${contention.created} of the contended`,
  );
  process.exit(1);
}
process.exit(0);
