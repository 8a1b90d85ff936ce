/**
 * Events out of the outbox (issue 30): BENCH_EVENTS domain events (default 10,000) made through the
 * real API while no worker runs, then drained by two `apps/worker` processes, with no duplicate
 * delivery.
 *
 * - A fresh database on DATABASE_URL's server, else on an embedded PostgreSQL of this run; the
 *   server (API) with RUN_WORKER=false and the demo data (Boland Paws, its owner, manager and crew).
 * - The owner registers a webhook endpoint for every event type (`*`) pointing to a receiver on
 *   loopback (WEBHOOKS_ALLOW_LOOPBACK=true) that verifies every Standard Webhooks signature
 *   (`standardwebhooks`) and counts webhook-ids; an SMTP server on loopback (`smtp-server`, each
 *   mail parsed by `mailparser`) counts Message-IDs; the workers get its SMTP_URL.
 * - Pet owners book cash grooms with an Idempotency-Key, as clients do; the business accepts each,
 *   then either the business moves and cancels it, or the person moves and cancels it: four events
 *   a cycle (created, accepted, moved, cancelled), each mailing someone (the business's staff or
 *   the person) and each one webhook delivery.
 * - Then two workers start, and the jobs that drain the events are sent through pg-boss's job table
 *   as cron sends them, but without waiting for the minute: `dispatch-notices`, `fan-out-webhooks`,
 *   `send-webhooks` and `deliver-mail`, each topped up to one queued or running job per worker.
 *   Measured until both event readers have no lag, every mail of the outbox is sent and every
 *   webhook delivery SUCCEEDED, and all of them arrived.
 *
 * Checks (exit 1 on failure): no webhook-id received twice, no Message-ID received twice, every
 * signature valid, every event's delivery and mails arrived, delivery rows unique per
 * (endpoint, event), mails unique per (event, address, kind).
 *
 *   BENCH_EVENTS=10000     how many events to make (rounded up to whole cycles of 4)
 *   BENCH_CONNECTIONS=8    clients making them at once
 *   BENCH_TIMEOUT_S=3600   how long the drain may take before the run fails
 *   BENCH_PROFILE=dir      the server and both workers under `node --cpu-prof` (bench/profile-top.ts;
 *                          the case window is `drain`)
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';
import {
  createSql,
  ensureDatabase,
  eventReaderLag,
  type Sql,
  startEmbeddedPostgres,
} from '../packages/store/src/index.js';
import {
  type Child,
  machine,
  markdownTable,
  ms,
  type NogPets,
  percentile,
  phase,
  processCpuMs,
  serverDir,
  startNogPets,
  writeWindows,
  finishRun,
} from './lib.js';

const host = machine();
const TARGET = Number(process.env.BENCH_EVENTS ?? 10_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_S ?? 3600) * 1000;
const WORKERS = 2;
const WORKER_MAIN = '../worker/src/main.ts'; // from apps/server, where startNogPets runs its mains
const DRAIN_JOBS = ['dispatch-notices', 'fan-out-webhooks', 'send-webhooks', 'deliver-mail'] as const;
const EVENTS_PER_CYCLE = 4;
const BUSINESS = 'biz_boland_paws';
const OWNER = 'owner@partner.example';
const MAIL_FROM = 'NogPets <hello@nogpets.test>';
const started = performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// The receivers on loopback: what arrived, when, and how often.

interface Arrivals {
  /** id → receipt times (epoch ms); an id with two is a duplicate. */
  times: Map<string, number[]>;
  /** Epoch ms of the last arrival. */
  last: number;
  count: number;
}
const arrivals = (): Arrivals => ({ times: new Map(), last: 0, count: 0 });
function arrived(a: Arrivals, id: string): void {
  const now = Date.now();
  const seen = a.times.get(id);
  if (seen) seen.push(now);
  else a.times.set(id, [now]);
  a.last = now;
  a.count++;
}

/** Webhooks: every signature verified with the endpoint's secret (set once it is registered). */
async function startWebhookReceiver() {
  const hooks = arrivals();
  const state = {
    secret: '',
    badSignatures: 0,
    badSamples: [] as string[],
    occurredAt: new Map<string, number>(),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id'] ?? '');
      try {
        const payload = new Webhook(state.secret).verify(body, {
          'webhook-id': id,
          'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
          'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
        }) as { timestamp?: string };
        arrived(hooks, id);
        if (payload.timestamp) state.occurredAt.set(id, Date.parse(payload.timestamp));
      } catch (err) {
        // Answered 2xx all the same: a bad signature is this run's failure, not a reason to retry.
        state.badSignatures++;
        if (state.badSamples.length < 3) state.badSamples.push(`${id}: ${(err as Error).message}`);
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    hooks,
    state,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** SMTP: each mail parsed (mailparser) and counted by its Message-ID. */
async function startMailReceiver() {
  const mails = arrivals();
  const state = { unparsed: 0, withoutId: 0, sessionsMs: [] as number[] };
  const opened = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // How long a sender holds a connection, from the accept to the close (one mail each).
    onConnect(session, callback) {
      opened.set(session.id, performance.now());
      callback();
    },
    onClose(session) {
      const at = opened.get(session.id);
      if (at !== undefined) state.sessionsMs.push(performance.now() - at);
      opened.delete(session.id);
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          if (mail.messageId) arrived(mails, mail.messageId);
          else state.withoutId++;
          callback();
        },
        (err: Error) => {
          state.unparsed++;
          callback(err);
        },
      );
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    state,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

// ---------------------------------------------------------------------------------------------
// Clients of the API.

type Json = Record<string, unknown>;

async function call(base: string, key: string, method: 'GET' | 'POST', p: string, body?: unknown) {
  const res = await fetch(base + p, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(method === 'POST' ? { 'content-type': 'application/json', 'idempotency-key': randomUUID() } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
}

async function ok(base: string, key: string, p: string, body: unknown, status = 200): Promise<Json> {
  const res = await call(base, key, 'POST', p, body);
  if (res.status !== status)
    throw new Error(`POST ${p}: ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
  return res.body;
}

/** An API key from the operator CLI (attached to the running database). */
function cliKey(server: NogPets, email: string, scopes: string): string {
  const made = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', 'key', 'create', '--email', email, '--scopes', scopes],
    { cwd: serverDir, env: server.env, encoding: 'utf8' },
  );
  const key = made.stdout.trim().split('\n').at(-1) ?? '';
  if (!key.startsWith('npk_')) throw new Error(`no key for ${email}: ${made.stderr}`);
  return key;
}

interface Person {
  key: string;
  request: {
    businessId: string;
    category: string;
    addressId: string;
    pets: { petId: string; serviceIds: string[] }[];
  };
}

async function newPerson(server: NogPets, i: number): Promise<Person> {
  const key = cliKey(server, `events-bench-${i}@example.com`, 'pets,addresses,bookings:read,bookings:write');
  const pet = await ok(
    server.base,
    key,
    '/v1/pets',
    { name: `Rex ${i}`, type: 'DOG', weightKg: 12, coat: 'SHORT' },
    201,
  );
  const address = await ok(
    server.base,
    key,
    '/v1/addresses',
    { label: 'Home', line1: `${10 + i} Dorp Street`, suburb: 'Die Boord' },
    201,
  );
  return {
    key,
    request: {
      businessId: BUSINESS,
      category: 'grooming',
      addressId: String(address.id),
      pets: [{ petId: String(pet.id), serviceIds: ['bp-groom-bath'] }],
    },
  };
}

type Slot = { start: string; resourceId: string };

/** Open times at Boland Paws far enough apart (per van, 3 hours) that none can hold another up. */
async function apartSlots(server: NogPets, person: Person, wanted: number): Promise<Slot[]> {
  const slots: Slot[] = [];
  for (let w = 0; w < 12 && slots.length < wanted; w++) {
    const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
    const found = (await ok(server.base, person.key, '/v1/availability', {
      ...person.request,
      from: day(2 + w * 31),
      to: day(32 + w * 31),
    })) as { days?: { slots: Slot[] }[] };
    const last = new Map<string, number>();
    for (const d of found.days ?? [])
      for (const s of d.slots) {
        const t = Date.parse(s.start);
        if (t - (last.get(s.resourceId) ?? 0) >= 3 * 3600_000) {
          slots.push({ start: s.start, resourceId: s.resourceId });
          last.set(s.resourceId, t);
        }
      }
  }
  if (slots.length < wanted)
    throw new Error(`only ${slots.length} open times at ${BUSINESS}, ${wanted} wanted`);
  return slots.slice(0, wanted);
}

/**
 * One cycle, four events: the person books A (cash, so PENDING: the business's staff are mailed),
 * the business accepts (the person is mailed the confirmation), then on even cycles the business
 * moves it to B and cancels it (the person is mailed each), on odd ones the person moves it to B
 * and cancels it (the staff are mailed each, the person gets an optional confirmation of the cancel).
 * Both times are free again afterwards.
 */
async function cycle(
  base: string,
  owner: string,
  person: Person,
  a: Slot,
  b: Slot,
  n: number,
): Promise<void> {
  const booked = await ok(
    base,
    person.key,
    '/v1/bookings',
    { ...person.request, ...a, paymentMethod: 'CASH', confirm: true },
    201,
  );
  const id = String(booked.bookingId);
  await ok(base, owner, `/v1/business/bookings/${id}/accept`, { confirm: true });
  if (n % 2 === 0) {
    await ok(base, owner, `/v1/business/bookings/${id}/move`, {
      ...b,
      reason: 'The van is in for service.',
      confirm: true,
    });
    await ok(base, owner, `/v1/business/bookings/${id}/cancel`, {
      reason: 'Our groomer is ill.',
      confirm: true,
    });
  } else {
    await ok(base, person.key, `/v1/bookings/${id}/reschedule`, b);
    await ok(base, person.key, `/v1/bookings/${id}/cancel`, { confirm: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The jobs, sent through pg-boss's job table as its schedule sends them.

/**
 * Keeps each drain job waiting for the next free worker: one queued beside at most one running on
 * each worker (each worker runs one job of a name at a time). Without the queued one a worker that
 * finishes a run finds nothing and sleeps its 2 s poll interval before the next. Answers how many
 * were sent.
 */
async function topUp(sql: Sql): Promise<number> {
  const rows = await sql<{ name: string; sent: number }[]>`
    with wanted as (
      select n.name, ${WORKERS + 1}::int - count(j.id)::int as missing
      from unnest(${DRAIN_JOBS as unknown as string[]}::text[]) n(name)
      left join pgboss.job j on j.name = n.name and j.state in ('created', 'retry', 'active')
      group by n.name
    )
    insert into pgboss.job (name, data, expire_in)
    select w.name, '{}', coalesce(q.expire_seconds * interval '1s', interval '15 minutes')
    from wanted w join pgboss.queue q on q.name = w.name, generate_series(1, greatest(w.missing, 0))
    returning name, 1 as sent`;
  return rows.length;
}

interface JobLog {
  runs: number;
  /** Sums of the numbers each `job done` line carried (events, mails, sent, deliveries...). */
  sums: Record<string, number>;
  /** Runs of the event readers that stopped at their bound (20 passes of 200, 20 rounds of 500). */
  atBound: number;
}

/** Reads the workers' `job done` and error lines as they pass. */
function logTap(jobs: Map<string, JobLog>, errors: string[]) {
  let rest = '';
  return (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (line.includes('"level":50') || line.includes('"level":60')) {
        if (errors.length < 20) errors.push(line.slice(0, 600));
        else errors.length++;
      }
      if (!line.includes('"msg":"job done"')) continue;
      let entry: Json;
      try {
        entry = JSON.parse(line) as Json;
      } catch {
        continue;
      }
      const name = String(entry.job);
      const log = jobs.get(name) ?? { runs: 0, sums: {}, atBound: 0 };
      log.runs++;
      for (const [k, v] of Object.entries(entry))
        if (typeof v === 'number' && !['level', 'time', 'pid'].includes(k))
          log.sums[k] = (log.sums[k] ?? 0) + v;
      if (name === 'dispatch-notices' && entry.events === 20 * 200) log.atBound++;
      if (name === 'fan-out-webhooks' && entry.events === 20 * 500) log.atBound++;
      jobs.set(name, log);
    }
  };
}

// ---------------------------------------------------------------------------------------------
// The run.

const embeddedDir = process.env.DATABASE_URL
  ? undefined
  : mkdtempSync(path.join(os.tmpdir(), 'nogpets-events-'));
// PostgreSQL runs as its own user when we are root: it must be able to enter the folder.
if (embeddedDir) chmodSync(embeddedDir, 0o755);
const embedded = embeddedDir
  ? await startEmbeddedPostgres({ dataDir: path.join(embeddedDir, 'pg'), ephemeral: true })
  : undefined;
const serverUrl = embedded?.url ?? process.env.DATABASE_URL!;
const dbName = `nogpets_events_${Date.now().toString(36)}`;
const databaseUrl = await ensureDatabase(serverUrl, dbName);

const webhooks = await startWebhookReceiver();
const smtp = await startMailReceiver();
const checks: string[] = [];
let failed = false;
const check = (ok: boolean, text: string) => {
  failed ||= !ok;
  checks.push(`${text}: ${ok ? 'ok' : '**FAILED**'}`);
};
const rows: (string | number)[][] = [];
const notes: string[] = [];
const children: Child[] = [];
const sql = createSql(databaseUrl, { max: 2, applicationName: 'nogpets-bench-events' });

try {
  const shared = { WEBHOOKS_ALLOW_LOOPBACK: 'true', MAIL_FROM, SMTP_URL: undefined };
  const server = await startNogPets({ databaseUrl, env: { ...shared, RUN_WORKER: 'false' } });
  children.push(server);

  // The business's webhook endpoint, for every event type.
  const owner = cliKey(server, OWNER, 'business:manage');
  const endpoint = await ok(
    server.base,
    owner,
    '/v1/business/webhooks',
    { url: webhooks.url, eventTypes: ['*'] },
    201,
  );
  webhooks.state.secret = String(endpoint.secret);
  const endpointId = String(endpoint.endpointId);

  // The clients, and two open times for each.
  const people = await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => newPerson(server, i)));
  const slots = await apartSlots(server, people[0]!, 2 * CONNECTIONS);
  const [mark] = await sql<{ seq: number }[]>`select coalesce(max(seq), 0)::int as seq from domain_events`;
  const fromSeq = mark!.seq;

  // The backlog: events made through the API while no worker runs.
  const cycles = Math.ceil(TARGET / EVENTS_PER_CYCLE);
  let next = 0;
  const madeFrom = performance.now();
  const apiCpuFrom = processCpuMs(server.child.pid);
  await Promise.all(
    people.map(async (person, i) => {
      const a = slots[2 * i]!;
      const b = slots[2 * i + 1]!;
      for (let n = next++; n < cycles; n = next++) await cycle(server.base, owner, person, a, b, n);
    }),
  );
  const madeSeconds = (performance.now() - madeFrom) / 1000;
  const apiCpu = (processCpuMs(server.child.pid) ?? Number.NaN) - (apiCpuFrom ?? Number.NaN);
  const runEvents = await sql<{ id: string; type: string; occurredAt: Date }[]>`
    select id, type, occurred_at as "occurredAt" from domain_events where seq > ${fromSeq} order by seq`;
  const events = runEvents.length;
  const byType = new Map<string, number>();
  for (const e of runEvents) byType.set(e.type, (byType.get(e.type) ?? 0) + 1);
  const [before] = await sql<{ mails: number; deliveries: number; sent: number }[]>`
    select (select count(*)::int from mail_outbox) as mails,
           (select count(*)::int from webhook_deliveries) as deliveries,
           (select count(*)::int from mail_outbox where sent_at is not null) as sent`;
  check(
    before!.mails === 0 && before!.deliveries === 0 && smtp.mails.count === 0 && webhooks.hooks.count === 0,
    `before the workers: ${before!.mails} mails and ${before!.deliveries} deliveries made, nothing received (the backlog is whole)`,
  );

  // Two workers; the drain starts once both are ready.
  const jobs = new Map<string, JobLog>();
  const errors: string[] = [];
  const workerEnv = { ...shared, SMTP_URL: smtp.url, MIGRATE: 'false' };
  const workersFrom = performance.now();
  const workers = await Promise.all(
    Array.from({ length: WORKERS }, () =>
      startNogPets({ databaseUrl, env: workerEnv, main: WORKER_MAIN, tap: logTap(jobs, errors) }),
    ),
  );
  children.push(...workers);
  const workersStartSeconds = (performance.now() - workersFrom) / 1000;
  const workersCpu = () => workers.reduce((t, w) => t + (processCpuMs(w.child.pid) ?? Number.NaN), 0);

  // What each reader has to read: the run's events and the demo data's (written after the readers
  // were registered by the migrations).
  const backlog = new Map((await eventReaderLag(sql)).map((r) => [r.name, r.behind]));
  const drainFrom = performance.now();
  const drainFromEpoch = Date.now();
  const cpuFrom = workersCpu();
  const benchCpuFrom = process.cpuUsage();
  const readerDone = new Map<string, number>();
  let sentJobs = 0;
  let timedOut = false;
  let shown = performance.now();
  let last = { unsent: 0, failedMails: 0, pending: 0, failedDeliveries: 0, mails: 0, deliveries: 0 };
  await phase('drain', async () => {
    for (;;) {
      sentJobs += await topUp(sql);
      const lag = await eventReaderLag(sql);
      const now = performance.now();
      for (const r of lag) if (r.behind === 0 && !readerDone.has(r.name)) readerDone.set(r.name, now);
      for (const r of lag) if (r.behind > 0) readerDone.delete(r.name);
      const [o] = await sql<(typeof last)[]>`
        select count(*) filter (where sent_at is null and failed_at is null)::int as unsent,
               count(*) filter (where failed_at is not null)::int as "failedMails",
               count(*)::int as mails,
               (select count(*) filter (where status <> 'SUCCEEDED' and status <> 'FAILED')::int
                  from webhook_deliveries) as pending,
               (select count(*) filter (where status = 'FAILED')::int from webhook_deliveries) as "failedDeliveries",
               (select count(*)::int from webhook_deliveries) as deliveries
        from mail_outbox`;
      last = o!;
      const readersDone = lag.every((r) => r.behind === 0);
      if (
        readersDone &&
        last.unsent === 0 &&
        last.pending === 0 &&
        smtp.mails.times.size >= last.mails - last.failedMails &&
        webhooks.hooks.times.size >= last.deliveries - last.failedDeliveries
      )
        break;
      if (now - shown > 15_000) {
        shown = now;
        console.error(
          `drain ${((now - drainFrom) / 1000).toFixed(0)} s: lag ${lag.map((r) => `${r.name} ${r.behind}`).join(', ')}; ` +
            `mails ${last.mails - last.unsent}/${last.mails} sent, ${smtp.mails.count} received; ` +
            `deliveries ${last.deliveries - last.pending}/${last.deliveries} done, ${webhooks.hooks.count} received`,
        );
      }
      if (now - drainFrom > TIMEOUT_MS) {
        timedOut = true;
        break;
      }
      await sleep(100);
    }
  });
  const drainSeconds = (performance.now() - drainFrom) / 1000;
  const workerCpuMs = workersCpu() - cpuFrom;
  const benchCpu = process.cpuUsage(benchCpuFrom);
  check(!timedOut, `drained within ${TIMEOUT_MS / 1000} s (${drainSeconds.toFixed(1)} s)`);
  // Late duplicates would come now, if any: a second send of something already recorded.
  await sleep(3000);

  // What the database says was made and sent.
  const outbox = await sql<{ id: string; eventId: string | null; sent: boolean; failed: boolean }[]>`
    select id, event_id as "eventId", sent_at is not null as sent, failed_at is not null as failed from mail_outbox`;
  const deliveries = await sql<{ eventId: string; status: string; attempts: number }[]>`
    select event_id as "eventId", status, attempts from webhook_deliveries where endpoint_id = ${endpointId}`;
  const domain = new URL(`mailto:${/<([^>]+)>/.exec(MAIL_FROM)![1]}`).pathname.split('@')[1];
  const messageIdOf = (id: string) => `<${id}@${domain}>`;

  // Duplicates.
  const twice = (a: Arrivals) => [...a.times].filter(([, t]) => t.length > 1);
  const hooksTwice = twice(webhooks.hooks);
  const mailsTwice = twice(smtp.mails);
  check(
    hooksTwice.length === 0,
    `no webhook-id received twice (${webhooks.hooks.count} POSTs, ${webhooks.hooks.times.size} distinct webhook-ids` +
      (hooksTwice.length
        ? `; twice: ${hooksTwice
            .slice(0, 3)
            .map(([id]) => id)
            .join(', ')}`
        : '') +
      ')',
  );
  check(
    mailsTwice.length === 0,
    `no Message-ID received twice (${smtp.mails.count} mails, ${smtp.mails.times.size} distinct Message-IDs` +
      (mailsTwice.length
        ? `; twice: ${mailsTwice
            .slice(0, 3)
            .map(([id]) => id)
            .join(', ')}`
        : '') +
      ')',
  );
  check(
    webhooks.state.badSignatures === 0,
    `every webhook signature verified (standardwebhooks): ${webhooks.state.badSignatures} bad` +
      (webhooks.state.badSamples.length ? ` (${webhooks.state.badSamples.join('; ')})` : ''),
  );
  check(
    smtp.state.unparsed === 0 && smtp.state.withoutId === 0,
    `every mail parsed with a Message-ID (${smtp.state.unparsed} unparsed, ${smtp.state.withoutId} without)`,
  );

  // Every event's delivery and mails arrived.
  const deliveryOf = new Map(deliveries.map((d) => [d.eventId, d]));
  const noDelivery = runEvents.filter((e) => !deliveryOf.has(e.id));
  const notSucceeded = deliveries.filter((d) => d.status !== 'SUCCEEDED');
  const notReceived = deliveries.filter((d) => !webhooks.hooks.times.has(d.eventId));
  const strayHooks = [...webhooks.hooks.times.keys()].filter((id) => !deliveryOf.has(id));
  check(
    noDelivery.length === 0 &&
      notSucceeded.length === 0 &&
      notReceived.length === 0 &&
      strayHooks.length === 0,
    `every event of the run has its delivery, SUCCEEDED and received (${runEvents.length} events, ` +
      `${deliveries.length} deliveries; ${noDelivery.length} events without one, ${notSucceeded.length} not SUCCEEDED, ` +
      `${notReceived.length} not received, ${strayHooks.length} received that no delivery names)`,
  );
  const mailsOfEvent = new Map<string, number>();
  for (const m of outbox) if (m.eventId) mailsOfEvent.set(m.eventId, (mailsOfEvent.get(m.eventId) ?? 0) + 1);
  const noMail = runEvents.filter((e) => !mailsOfEvent.has(e.id));
  if (noMail.length) {
    // What the events without mail were, and where they stand against the notices reader.
    const ids = noMail.map((e) => e.id);
    const seen = await sql<
      { type: string; actor: string; n: number; fromSeq: number; toSeq: number; behind: number }[]
    >`
      select e.type, e.actor->>'kind' as actor, count(*)::int as n, min(e.seq)::int as "fromSeq", max(e.seq)::int as "toSeq",
        count(*) filter (where (e.tx, e.seq) > (r.after_tx, r.after_seq))::int as behind
      from domain_events e, event_readers r where r.name = 'notices' and e.id = any(${ids})
      group by 1, 2 order by 1, 2`;
    for (const x of seen)
      notes.push(
        `without mail: ${x.n} ${x.type} by ${x.actor} (seq ${x.fromSeq}–${x.toSeq}, ${x.behind} after the notices bookmark)`,
      );
  }
  const unsentMails = outbox.filter((m) => !m.sent);
  const mailNotReceived = outbox.filter((m) => m.sent && !smtp.mails.times.has(messageIdOf(m.id)));
  const outboxIds = new Set(outbox.map((m) => messageIdOf(m.id)));
  const strayMails = [...smtp.mails.times.keys()].filter((id) => !outboxIds.has(id));
  check(
    noMail.length === 0 &&
      unsentMails.length === 0 &&
      mailNotReceived.length === 0 &&
      strayMails.length === 0,
    `every event of the run made mail, every mail of the outbox sent and received (${outbox.length} mails; ` +
      `${noMail.length} events without a mail, ${unsentMails.length} not sent, ${mailNotReceived.length} sent but not ` +
      `received, ${strayMails.length} received that no outbox row names)`,
  );
  const [unique] = await sql<{ deliveries: number; mails: number }[]>`
    select (select count(*)::int from (select 1 from webhook_deliveries group by endpoint_id, event_id
              having count(*) > 1) d) as deliveries,
           (select count(*)::int from (select 1 from mail_outbox where event_id is not null
              group by event_id, lower(to_address), kind having count(*) > 1) m) as mails`;
  check(
    unique!.deliveries === 0 && unique!.mails === 0,
    `delivery rows unique per (endpoint, event), mails per (event, address, kind): ${unique!.deliveries} and ` +
      `${unique!.mails} repeated`,
  );
  const retried = deliveries.filter((d) => d.attempts > 1).length;
  check(events >= TARGET, `${events} events made (${TARGET} asked)`);

  // Latency: from the event (its occurredAt) and from the drain's start, to its receipt.
  const occurred = new Map(runEvents.map((e) => [e.id, e.occurredAt.getTime()]));
  const mailEvent = new Map(
    outbox.flatMap((m) => (m.eventId ? [[messageIdOf(m.id), m.eventId] as const] : [])),
  );
  const latencies = (a: Arrivals, eventOf: (id: string) => string | undefined) => {
    const fromEvent: number[] = [];
    const fromDrain: number[] = [];
    for (const [id, times] of a.times) {
      const at = occurred.get(eventOf(id) ?? '');
      if (at !== undefined) fromEvent.push(times[0]! - at);
      fromDrain.push(times[0]! - drainFromEpoch);
    }
    fromEvent.sort((x, y) => x - y);
    fromDrain.sort((x, y) => x - y);
    return { fromEvent, fromDrain };
  };
  const hookLatency = latencies(webhooks.hooks, (id) => id);
  const mailLatency = latencies(smtp.mails, (id) => mailEvent.get(id));
  const s = (x: number) => (x / 1000).toFixed(1);
  const rate = (n: number, seconds: number) => (seconds > 0 ? Math.round(n / seconds) : '–');

  const readerSeconds = (name: string) => {
    const at = readerDone.get(name);
    return at === undefined ? Number.NaN : (at - drainFrom) / 1000;
  };
  /** An event reader's row: how many events it read, in how long, and at what rate. */
  const readerRow = (name: string, label: string) => {
    const read = backlog.get(name) ?? Number.NaN;
    return [label, read, readerSeconds(name).toFixed(1), rate(read, readerSeconds(name)), '–', '–', '–', '–'];
  };
  const hooksSeconds = (webhooks.hooks.last - drainFromEpoch) / 1000;
  const mailsSeconds = (smtp.mails.last - drainFromEpoch) / 1000;
  rows.push(
    [
      `events made through the API (${CONNECTIONS} clients, no worker)`,
      events,
      madeSeconds.toFixed(1),
      rate(events, madeSeconds),
      '–',
      '–',
      '–',
      '–',
    ],
    readerRow('notices', 'notices reader: events read, mails written to the outbox'),
    readerRow('webhooks', 'webhooks reader: events read, deliveries written'),
    [
      'mails out of the outbox (SMTP, received once)',
      smtp.mails.times.size,
      mailsSeconds.toFixed(1),
      rate(smtp.mails.times.size, mailsSeconds),
      s(percentile(mailLatency.fromDrain, 50)),
      s(percentile(mailLatency.fromDrain, 99)),
      s(percentile(mailLatency.fromEvent, 50)),
      s(percentile(mailLatency.fromEvent, 99)),
    ],
    [
      'webhook deliveries (POSTed, verified, received once)',
      webhooks.hooks.times.size,
      hooksSeconds.toFixed(1),
      rate(webhooks.hooks.times.size, hooksSeconds),
      s(percentile(hookLatency.fromDrain, 50)),
      s(percentile(hookLatency.fromDrain, 99)),
      s(percentile(hookLatency.fromEvent, 50)),
      s(percentile(hookLatency.fromEvent, 99)),
    ],
  );

  // The jobs: how often each ran, how long a run was active, and what it did.
  const jobTimes = await sql<{ name: string; runs: number; activeMs: number; p50: number; max: number }[]>`
    select name, count(*)::int as runs,
      coalesce(sum(extract(epoch from completed_on - started_on) * 1000), 0)::float8 as "activeMs",
      coalesce(percentile_cont(0.5) within group (order by extract(epoch from completed_on - started_on) * 1000), 0)::float8 as p50,
      coalesce(max(extract(epoch from completed_on - started_on) * 1000), 0)::float8 as max
    from (select name, started_on, completed_on, state::text from pgboss.job
          union all select name, started_on, completed_on, state::text from pgboss.archive) j
    where name = any(${DRAIN_JOBS as unknown as string[]}) and state = 'completed'
    group by name order by name`;
  const jobRows = jobTimes.map((j) => {
    const log = jobs.get(j.name);
    const did = Object.entries(log?.sums ?? {})
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    return [
      j.name,
      j.runs,
      ms(j.p50),
      ms(j.max),
      `${((j.activeMs / 1000 / (drainSeconds * WORKERS)) * 100).toFixed(0)} %`,
      did || '–',
      log?.atBound ?? 0,
    ];
  });

  const sessionsMs = [...smtp.state.sessionsMs].sort((a, b) => a - b);
  const deliverRuns = jobTimes.find((j) => j.name === 'deliver-mail');
  const deliverSent = jobs.get('deliver-mail')?.sums.sent ?? 0;
  const perMail =
    deliverRuns && deliverSent ? `${ms(deliverRuns.activeMs / deliverSent)} ms (run time / mails sent)` : '–';
  notes.push(
    `${events} events of the run (${[...byType].map(([t, n]) => `${t} ${n}`).join(', ')}); ${outbox.length} mails ` +
      `(${(outbox.length / events).toFixed(2)} an event), ${deliveries.length} webhook deliveries (${retried} needed more than one attempt)`,
    `API while making them: ${(apiCpu / 1000).toFixed(1)} s CPU, ${(apiCpu / events).toFixed(2)} ms an event`,
    `workers: ready ${workersStartSeconds.toFixed(1)} s after their start (not in the drain); in the drain ` +
      `${(workerCpuMs / 1000).toFixed(1)} s CPU of ${WORKERS} (${((workerCpuMs / 1000 / drainSeconds) * 100).toFixed(0)} % of one core, ` +
      `${(workerCpuMs / events).toFixed(2)} ms an event); the bench's receivers ` +
      `${((benchCpu.user + benchCpu.system) / 1e6).toFixed(1)} s CPU`,
    `SMTP sessions at the receiver (connect to close, one mail each): p50 ${ms(percentile(sessionsMs, 50))} ms, ` +
      `p99 ${ms(percentile(sessionsMs, 99))} ms; per mail in deliver-mail runs: ${perMail}`,
    `${sentJobs} drain jobs sent through pgboss.job; worker error lines: ${errors.length}`,
  );
  for (const e of errors.slice(0, 5)) notes.push(`worker error: ${e}`);

  console.log(
    `\n${host}; PostgreSQL ${embedded ? 'embedded' : new URL(serverUrl).host}; ${WORKERS} workers; ` +
      `drain ${drainSeconds.toFixed(1)} s\n`,
  );
  console.log(
    markdownTable(
      [
        'stage',
        'items',
        's from drain start',
        'per s',
        'p50 s from drain start',
        'p99 s',
        'p50 s from event',
        'p99 s',
      ],
      rows,
    ),
  );
  console.log('\n(The first row is timed from its own start; the others from the workers being ready.)\n');
  console.log(
    markdownTable(
      [
        'job',
        'runs',
        'p50 ms',
        'max ms',
        'active (of 2 workers × drain)',
        'what the runs did (sums)',
        'runs at their bound',
      ],
      jobRows,
      ['what the runs did (sums)'],
    ),
  );
  console.log(`\n${notes.map((n) => `- ${n}`).join('\n')}`);
  for (const w of [server, ...workers]) writeWindows(w);
} catch (err) {
  failed = true;
  checks.push(`the run: **FAILED**: ${(err as Error).stack ?? err}`);
} finally {
  await Promise.all(children.map((c) => c.stop()));
  await sql.end({ timeout: 5 });
  await webhooks.close();
  await smtp.close();
  const admin = createSql(serverUrl, { max: 1 });
  await admin
    .unsafe(`drop database if exists "${dbName}" with (force)`)
    .catch((err) => console.error(`scratch database not dropped: ${err}`));
  await admin.end({ timeout: 5 });
  await embedded?.stop();
}

finishRun(checks, started, failed);
