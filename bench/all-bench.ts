/**
 * The booking and open-time goals, measured in one run against one server on a fresh embedded PostgreSQL,
 * each with the floor it is compared to, measured by this script on the same machine and database:
 *
 *   floor      single-row inserts into a table with a GiST exclusion constraint like the bookings'
 *              (resource =, tstzrange &&), 16 concurrent connections, postgres.js as the server uses it
 *   distinct   POST /v1/bookings, every request a different open slot, 16 connections
 *   contention 64 clients ask for one slot, 5 times each: exactly one booking
 *   bare       a bare express route answering a constant, 32 connections (the floor of the reads)
 *   avail7     POST /v1/availability (findTimes), 7 days, 32 connections
 *   avail31    POST /v1/availability, 31 days, 32 connections
 *   quote      POST /v1/quote vs MCP tools/call get_quote with the same input: latency at 1
 *              connection (timed to the µs), and throughput/latency at 32 connections
 *
 *   pnpm bench:all                               # from the root (builds the packages first)
 *   BENCH_ONLY=bare,avail31 pnpm bench:all       # only some of: floor bare avail7 avail31 quote
 *                                                #   distinct contention (distinct brings the floor)
 *   BENCH_PROFILE=/tmp/prof pnpm bench:all       # the server under --cpu-prof; then
 *   npx tsx bench/profile-top.ts /tmp/prof --case distinct
 *                                                # cases: floor bare avail7 avail31 quote-1 mcp-1
 *                                                #   quote-32 mcp-32 distinct contention (warm-ups left out)
 *   BENCH_SECONDS=10                             # per read case (default 8, after a 2 s warm-up)
 *
 * Prints one Markdown table: each figure, its ratio to its floor, the goal, met or not.
 * Exits 1 when a correctness check fails (a distinct slot not booked, the contended one not once).
 */
import {
  availabilityBody,
  bookingRun,
  closedLoop,
  cpuPerRequest,
  distinctSlots,
  insertFloor,
  type Measured,
  machine,
  markdownTable,
  measure,
  ms,
  newBooker,
  phase,
  postJson,
  quoteBody,
  startBare,
  startNogPets,
  watchCpuOf,
  writeWindows,
} from './lib.js';

// Before our own load: the load average says what else was running.
const host = machine();
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const want = (name: string) => !only || only.includes(name);
const BOOK_CONNECTIONS = 16;
const CONTENDERS = 64;
const READ_CONNECTIONS = 32;

const started = performance.now();
const bare = want('bare') || want('avail7') || want('avail31') ? await startBare() : undefined;
const server = await startNogPets();
watchCpuOf(server.child.pid);
const mcpHeaders = {
  accept: 'application/json, text/event-stream',
  // Optional for the server (absent means its default), checked when present; a real client sends it.
  'mcp-protocol-version': '2025-11-25',
};
const mcpBody = (id: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'get_quote', arguments: quoteBody },
  });

type Row = (string | number)[];
const rows: Row[] = [];
const met = (ok: boolean) => (ok ? 'met' : '**not met**');
let failed = false;

try {
  // --- The floor of a booking: inserts into an exclusion-constrained table, same database. ---
  let floor: Measured | undefined;
  if (want('floor') || want('distinct')) {
    floor = await insertFloor(server, BOOK_CONNECTIONS, 5);
    rows.push([
      `floor: single inserts, GiST exclusion, ${BOOK_CONNECTIONS} connections`,
      Math.round(floor.rps),
      ms(floor.p50),
      ms(floor.p99),
      '–',
      '1.00',
      '–',
      '–',
    ]);
  }

  // --- Reads, before any booking changes what findTimes finds. ---
  const read = { connections: READ_CONNECTIONS, seconds };
  let bareRps: number | undefined;
  if (bare) {
    const r = await measure(bare.url, { ...read, phase: 'bare' });
    bareRps = r.rps;
    rows.push([
      `bare express route, ${READ_CONNECTIONS} connections`,
      Math.round(r.rps),
      ms(r.p50),
      ms(r.p99),
      '–',
      '1.00',
      '–',
      '–',
    ]);
  }
  for (const [days, goalRatio, goalP99] of [
    [7, 0.25, undefined],
    [31, 0.15, 30],
  ] as const) {
    if (!want(`avail${days}`)) continue;
    const r = await measure(`${server.base}/v1/availability`, {
      ...read,
      body: availabilityBody(days),
      phase: `avail${days}`,
    });
    const ratio = bareRps ? r.rps / bareRps : Number.NaN;
    const ok = ratio >= goalRatio && (goalP99 === undefined || r.p99 < goalP99);
    rows.push([
      `findTimes ${days} days (POST /v1/availability), ${READ_CONNECTIONS} connections`,
      Math.round(r.rps),
      ms(r.p50),
      ms(r.p99),
      cpuPerRequest(`avail${days}`, r.count),
      `${ratio.toFixed(2)} of bare`,
      `≥ ${goalRatio} of bare${goalP99 ? `, p99 < ${goalP99} ms` : ''}`,
      met(ok),
    ]);
  }

  if (want('quote')) {
    // The same answer both ways, checked once before timing.
    const rest = await postJson(`${server.base}/v1/quote`, quoteBody);
    const viaMcp = (await postJson(`${server.base}/mcp`, mcpBody(1), mcpHeaders)) as {
      result?: { isError?: boolean; structuredContent?: unknown };
    };
    if (viaMcp.result?.isError || JSON.stringify(viaMcp.result?.structuredContent) !== JSON.stringify(rest)) {
      throw new Error(`get_quote over MCP does not answer as POST /v1/quote: ${JSON.stringify(viaMcp)}`);
    }
    const callRest = () => postJson(`${server.base}/v1/quote`, quoteBody);
    const callMcp = (_: number, i: number) => postJson(`${server.base}/mcp`, mcpBody(i), mcpHeaders);
    // One connection: the latency a single client sees, timed with performance.now().
    const one = async (name: string, call: (w: number, i: number) => Promise<unknown>) => {
      await closedLoop(1, 1, call);
      return phase(name, () => closedLoop(1, Math.max(3, seconds / 2), call));
    };
    const r1 = await one('quote-1', callRest);
    const m1 = await one('mcp-1', callMcp);
    const p50 = m1.p50 / r1.p50;
    const p99 = m1.p99 / r1.p99;
    rows.push([
      'POST /v1/quote, 1 connection',
      Math.round(r1.rps),
      ms(r1.p50),
      ms(r1.p99),
      cpuPerRequest('quote-1', r1.count),
      '1.00',
      '–',
      '–',
    ]);
    rows.push([
      'MCP tools/call get_quote, 1 connection',
      Math.round(m1.rps),
      ms(m1.p50),
      ms(m1.p99),
      cpuPerRequest('mcp-1', m1.count),
      `×${p50.toFixed(2)} p50, ×${p99.toFixed(2)} p99 of REST`,
      '≤ 1.5× the latency',
      met(p50 <= 1.5 && p99 <= 1.5),
    ]);
    // Under load: the same comparison at 32 connections (autocannon, whole milliseconds).
    const r32 = await measure(`${server.base}/v1/quote`, { ...read, body: quoteBody, phase: 'quote-32' });
    const m32 = await measure(`${server.base}/mcp`, {
      ...read,
      headers: mcpHeaders,
      body: JSON.parse(mcpBody(1)),
      phase: 'mcp-32',
    });
    rows.push([
      `POST /v1/quote, ${READ_CONNECTIONS} connections`,
      Math.round(r32.rps),
      ms(r32.p50),
      ms(r32.p99),
      cpuPerRequest('quote-32', r32.count),
      bareRps ? `${(r32.rps / bareRps).toFixed(2)} of bare` : '–',
      '–',
      '–',
    ]);
    rows.push([
      `MCP tools/call get_quote, ${READ_CONNECTIONS} connections`,
      Math.round(m32.rps),
      ms(m32.p50),
      ms(m32.p99),
      cpuPerRequest('mcp-32', m32.count),
      `×${(m32.p50 / r32.p50).toFixed(2)} p50, ×${(m32.p99 / r32.p99).toFixed(2)} p99 of REST`,
      '(≤ 1.5×)',
      met(m32.p50 / r32.p50 <= 1.5 && m32.p99 / r32.p99 <= 1.5),
    ]);
  }

  // --- Bookings (they change what findTimes finds, so they come last). ---
  if (want('distinct') || want('contention')) {
    const booker = await newBooker(server);
    const slots = await distinctSlots(booker);
    const body = (s: object) => ({ ...booker.request, ...s, paymentMethod: 'CARD' });
    // Warm up on a tenth of the slots (JIT, pools, caches); the last is kept for the contention case.
    const warm = slots.splice(0, Math.ceil(slots.length / 10));
    const contested = slots.pop()!;
    await bookingRun(server, booker, 'warm-up', warm.length, BOOK_CONNECTIONS, (i) => body(warm[i]!));
    if (want('distinct')) {
      const d = await phase('distinct', () =>
        bookingRun(server, booker, 'distinct', slots.length, BOOK_CONNECTIONS, (i) => body(slots[i]!)),
      );
      const ratio = floor ? d.rps / floor.rps : Number.NaN;
      const allBooked = d.created === slots.length && d.errors === 0;
      failed ||= !allBooked;
      rows.push([
        `book distinct slots (${d.created} of ${slots.length} booked), ${BOOK_CONNECTIONS} connections`,
        Math.round(d.rps),
        ms(d.p50),
        ms(d.p99),
        cpuPerRequest('distinct', d.requests),
        `${ratio.toFixed(3)} of floor`,
        '≥ 1,000/s, p99 < 100 ms',
        allBooked ? met(d.rps >= 1000 && d.p99 < 100) : '**FAILED: not every slot booked**',
      ]);
    }
    if (want('contention')) {
      const c = await phase('contention', () =>
        bookingRun(server, booker, 'contention', CONTENDERS * 5, CONTENDERS, () => body(contested)),
      );
      const once = c.created === 1 && c.errors === 0;
      failed ||= !once;
      rows.push([
        `${CONTENDERS} clients on one slot × 5 (${c.created} booked, ${c.refused} refused)`,
        Math.round(c.rps),
        ms(c.p50),
        ms(c.p99),
        cpuPerRequest('contention', c.requests),
        '–',
        'exactly one booking, p99 < 100 ms',
        once ? met(c.p99 < 100) : `**FAILED: ${c.created} bookings**`,
      ]);
    }
  }
} finally {
  writeWindows(server);
  await Promise.all([server.stop(), bare?.stop()]);
}

console.log(`\n${host}; read cases ${seconds} s each after a 2 s warm-up\n`);
console.log(
  markdownTable(['case', 'req/s', 'p50 ms', 'p99 ms', 'server CPU ms/req', 'ratio', 'goal', 'met'], rows, [
    'goal',
    'met',
  ]),
);
console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
process.exit(failed ? 1 : 0);
