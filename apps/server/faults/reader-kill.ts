// Two workers on the domain events' readers, one killed with SIGKILL in the middle of a reader's pass,
// for the faults test (reader-kill.test.ts) and its short form in `pnpm test` (test/reader-kill.test.ts).
// The readers are dispatch-notices (reader `notices`: events → mails in mail_outbox, then sent) and
// fan-out-webhooks (reader `webhooks`: events → webhook_deliveries, then POSTed). Both workers run
// as their own processes (`apps/worker/src/main.ts`) on a PostgreSQL the trial starts, with SMTP_URL
// at a real SMTP server on loopback and a business's endpoint at a real webhook receiver on loopback.
// Work is made through the real server: cash bookings at Boland Paws confirmed, moved and cancelled
// by their pet owners, and bookings raced for one time (the loser's change rolls back).
//
// "In flight" is read from the database: the reader's bookmark row is locked by a transaction of a
// worker's backend (its pass took the bookmark with FOR UPDATE and has not committed). Each worker
// names its connections (`application_name` in its DATABASE_URL), so the one killed is the one whose
// backend holds the bookmark. Outcomes are read where they land (mail_outbox.sent_at,
// webhook_deliveries.status, what the receivers got), not from how a pass delivers.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createApiKey, dispatchAllNotices, fanOutWebhookEvents } from '@nogpets/operations/testing';
import { createSql, ensureDatabase, eventReaderLag, type Sql, startEmbeddedPostgres } from '@nogpets/store';
import { type SmtpReceiver, startSmtpReceiver } from '../test/smtp-receiver.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';
import {
  type Customer,
  makeCustomer,
  request,
  type ServerProcess,
  spawnServer,
  tempDir,
  timeUntil,
} from './support.js';
import { parallel, sendJob } from './worker-jobs.js';

export type ReaderName = 'notices' | 'webhooks';
const JOB_OF: Record<ReaderName, string> = { notices: 'dispatch-notices', webhooks: 'fan-out-webhooks' };

export interface ReaderKillSizes {
  /** Cash bookings made per kill (before it); a quarter are moved and a quarter cancelled. */
  bookings: number;
  /** Times two pet owners race for at once, per kill: one wins, the other's change rolls back. */
  races: number;
  /** The readers whose passes a worker is killed in, in turn, each on fresh work. */
  kills: ReaderName[];
  /** How long to wait for everything to be read, sent and received after the last kill (120 s). */
  drainMs?: number;
}

/** Thrown when a kill never found the reader's pass in flight: the trial may be run again on fresh work. */
export class MissedKill extends Error {}

export interface KillFigures {
  reader: ReaderName;
  /** The worker killed (its application_name). */
  worker: string;
  /** Events the reader had not yet read when its pass was killed. */
  lagAtKill: number;
  /** Mails and deliveries received before the kill whose row was not yet marked done: may arrive twice. */
  mailsInFlight: number;
  deliveriesInFlight: number;
}

export interface ReaderKillFigures {
  events: number;
  /** Event mails in the outbox (all sent) and deliveries (all SUCCEEDED) at the end. */
  mails: number;
  deliveries: number;
  /** Bookings made (201), and the raced changes that rolled back (409). */
  bookings: number;
  rolledBack: number;
  kills: KillFigures[];
  /** Message-IDs and webhook-ids received more than once (each only among those in flight at a kill). */
  mailDuplicates: number;
  webhookDuplicates: number;
  /** From the last kill to everything read, sent and received. */
  drainedMs: number | null;
  /** Where the time went (ms): setting up, making work, catching passes, restarting, draining, the reference. */
  phases: Record<string, number>;
  /** Everything that is wrong; empty when right. */
  problems: string[];
}

const WORKER = 'apps/worker/src/main.ts';
const BP = 'biz_boland_paws';
const OWNER = 'owner@partner.example';
const HOOK_PATH = '/boland-paws';
const CUSTOMERS = 8;

/** Starts PostgreSQL, the server, the receivers and two workers; kills a worker in each reader's pass in turn. */
export async function readerKillTrial(sizes: ReaderKillSizes): Promise<ReaderKillFigures> {
  const phases: Record<string, number> = {};
  let mark = performance.now();
  /** Adds the time since the last lap to `phase`. */
  const lap = (phase: string) => {
    const now = performance.now();
    phases[phase] = Math.round((phases[phase] ?? 0) + now - mark);
    mark = now;
  };
  const tmp = await tempDir('nogpets-fault-readers-');
  const pg = await startEmbeddedPostgres({ dataDir: path.join(tmp.dir, 'pg') });
  let smtp: SmtpReceiver | undefined;
  let hooks: WebhookReceiver | undefined;
  let server: ServerProcess | undefined;
  const workers = new Map<string, ServerProcess>();
  let sql: Sql | undefined;
  /** A killed worker being started again (while the next work is made). */
  let restarting: Promise<void> = Promise.resolve();
  try {
    const databaseUrl = await ensureDatabase(pg.url, 'nogpets');
    smtp = await startSmtpReceiver();
    hooks = await startWebhookReceiver();
    // The server without a worker of its own: only the two worker processes read the events.
    server = await spawnServer({
      DATABASE_URL: databaseUrl,
      RUN_WORKER: 'false',
      WEBHOOKS_ALLOW_LOOPBACK: 'true',
    });
    sql = createSql(databaseUrl, { max: 4, applicationName: 'nogpets-faults' });
    const s = sql;
    const url = server.url;
    const owner = await createApiKey(s, { email: OWNER, scopes: ['business:manage'] });
    const registered = await request(
      url,
      'POST',
      '/v1/business/webhooks',
      { url: hooks.url(HOOK_PATH), eventTypes: ['*'] },
      { authorization: `Bearer ${owner.key}` },
    );
    if (registered.status !== 201)
      throw new Error(`webhook endpoint: ${registered.status} ${JSON.stringify(registered.body)}`);
    hooks.secrets.set(HOOK_PATH, registered.body.secret);
    const customers = await Promise.all(
      Array.from({ length: CUSTOMERS }, (_, i) => makeCustomer(s, url, `faults-readers-${i}@example.com`)),
    );
    const slots = await openSlots(url, customers[0]!);
    const made: Made = {
      people: new Set(customers.map((c) => c.userId)),
      bookingIds: new Set(),
      rolledBack: 0,
    };
    // Where the readers stand before any worker ran: the reference pass reads from here.
    const start = await s<{ name: string; tx: string; seq: string }[]>`
      select name, after_tx::text as tx, after_seq::text as seq from event_readers`;

    const startWorker = (name: string) => {
      const u = new URL(databaseUrl);
      u.searchParams.set('application_name', name);
      return spawnServer(
        {
          DATABASE_URL: u.toString(),
          PORT: '0',
          SMTP_URL: smtp!.url,
          MAIL_FROM: 'NogPets <hello@nogpets.test>',
          WEBHOOKS_ALLOW_LOOPBACK: 'true',
          WEBHOOKS_TIMEOUT_MS: '5000',
          // The trial sends the readers' jobs itself, once the work is made, so that a pass with a
          // backlog is there to be killed; the watch for new events would read each as it came.
          WORKER_EVENT_WATCH_MS: '0',
        },
        120_000,
        WORKER,
      );
    };
    lap('setup');
    const names = ['nogpets-worker-a', 'nogpets-worker-b'];
    for (const [i, w] of (await Promise.all(names.map(startWorker))).entries()) workers.set(names[i]!, w);

    lap('workers');

    const kills: KillFigures[] = [];
    const allowedMail = new Set<string>();
    const allowedHooks = new Set<string>();
    let lastKillAt = performance.now();
    for (const reader of sizes.kills) {
      await makeWork(url, customers, slots, sizes, made);
      lap('work');
      await restarting;
      lap('workers');
      await sendJob(s, JOB_OF[reader]);
      // The pass in flight: the bookmark row locked by a worker's open transaction.
      let holder: string | null = null;
      let lagAtKill = 0;
      const deadline = performance.now() + 60_000;
      while (performance.now() < deadline) {
        holder = await bookmarkHolder(s, reader);
        if (holder && workers.has(holder)) {
          workers.get(holder)!.child.kill('SIGKILL');
          break;
        }
        holder = null;
        if ((await lagOf(s, reader)) === 0) break;
      }
      if (!holder) throw new MissedKill(`${reader}: no pass caught in flight`);
      const killed = workers.get(holder)!;
      await killed.exited;
      lap('catch');
      lastKillAt = performance.now();
      // A mail the killed worker had wholly written may still be in the parser: wait for it (a
      // cut-off one never ends, so the wait is bounded).
      await timeUntil(async () => smtp!.inProgress() === 0, 5000, 20);
      lagAtKill = await lagOf(s, reader);
      // In flight at the kill: received, and not marked done (the killed worker could not record it).
      const receivedMail = new Set(smtp.received.map((m) => outboxIdOf(m.messageId)));
      const unsent = await s<{ id: string }[]>`
        select id from mail_outbox where event_id is not null and sent_at is null`;
      // A mail claimed by the killed worker is leased for two minutes (MAIL_LEASE_MS): let run out
      // now, as the clock would, and counted in flight (it may have reached the server).
      const leasedMail = await s<{ id: string }[]>`
        update mail_outbox set leased_until = now()
        where sent_at is null and leased_until > now() returning id`;
      const mailsInFlight = [
        ...new Set([
          ...leasedMail.map((r) => r.id),
          ...unsent.filter((r) => receivedMail.has(r.id)).map((r) => r.id),
        ]),
      ];
      const receivedHooks = new Set(hooks.received.map((h) => h.id));
      // A claim of the killed worker is a lease on the delivery until its next_attempt_at: what it
      // claimed and did not record is let run out now rather than in five minutes, as the clock would.
      const leased = await s<{ eventId: string }[]>`
        update webhook_deliveries set next_attempt_at = now()
        where status = 'PENDING' and next_attempt_at > now() returning event_id as "eventId"`;
      const notDone = await s<{ eventId: string }[]>`
        select event_id as "eventId" from webhook_deliveries where status <> 'SUCCEEDED'`;
      const deliveriesInFlight = [
        ...new Set([
          ...leased.map((r) => r.eventId),
          ...notDone.filter((r) => receivedHooks.has(r.eventId)).map((r) => r.eventId),
        ]),
      ];
      for (const id of mailsInFlight) allowedMail.add(id);
      for (const id of deliveriesInFlight) allowedHooks.add(id);
      kills.push({
        reader,
        worker: holder,
        lagAtKill,
        mailsInFlight: mailsInFlight.length,
        deliveriesInFlight: deliveriesInFlight.length,
      });
      const name = holder;
      workers.delete(name);
      restarting = startWorker(name).then((w) => {
        workers.set(name, w);
      });
    }
    await restarting;
    lap('workers');

    // Drained: both readers at the end, every event mail sent, every delivery SUCCEEDED, and what
    // was sent received. The readers' and senders' jobs are sent as their schedules would.
    const drained = await timeUntil(
      async () => {
        for (const job of ['dispatch-notices', 'deliver-mail', 'fan-out-webhooks', 'send-webhooks'])
          await sendIfIdle(s, job);
        const [d] = await s<{ lag: number; unsent: number; pending: number; sent: number; done: number }[]>`
          select (select count(*)::int from domain_events e join event_readers r on (e.tx, e.seq) > (r.after_tx, r.after_seq)) as lag,
            (select count(*)::int from mail_outbox where event_id is not null and sent_at is null) as unsent,
            (select count(*)::int from webhook_deliveries where status <> 'SUCCEEDED') as pending,
            (select count(*)::int from mail_outbox where event_id is not null) as sent,
            (select count(*)::int from webhook_deliveries) as done`;
        return (
          d!.lag === 0 &&
          d!.unsent === 0 &&
          d!.pending === 0 &&
          new Set(smtp!.received.map((m) => m.messageId)).size >= d!.sent &&
          new Set(hooks!.received.map((h) => h.id)).size >= d!.done
        );
      },
      sizes.drainMs ?? 120_000,
      500,
    );
    const drainedMs = drained === null ? null : Math.round(performance.now() - lastKillAt);
    lap('drain');
    const problems: string[] = drained === null ? ['not drained in time'] : [];
    for (const w of workers.values()) await w.stop();
    workers.clear();
    await server.stop();
    server = undefined;

    const outcome = await checkOutcome(s, smtp, hooks, made, allowedMail, allowedHooks);
    problems.push(...outcome.problems);
    await s.end({ timeout: 5 });
    sql = undefined;
    // The reference: the same events read once, with no kill, by the same rules, on a copy.
    problems.push(...(await compareWithReference(pg.url, databaseUrl, start, outcome)));
    lap('reference');
    return {
      events: outcome.events,
      mails: outcome.mails.size,
      deliveries: outcome.deliveries.size,
      bookings: made.bookingIds.size,
      rolledBack: made.rolledBack,
      kills,
      mailDuplicates: outcome.mailDuplicates,
      webhookDuplicates: outcome.webhookDuplicates,
      drainedMs,
      phases,
      problems,
    };
  } finally {
    await restarting.catch(() => {});
    for (const w of workers.values()) await w.stop();
    await server?.stop();
    await sql?.end({ timeout: 5 });
    await smtp?.close();
    await hooks?.close();
    await pg.stop();
    await tmp.rm();
  }
}

interface Slot {
  start: string;
  resourceId: string;
}
interface Made {
  /** The trial's pet owners (user ids). */
  people: Set<string>;
  bookingIds: Set<string>;
  rolledBack: number;
}

const grooming = (c: Customer) => ({
  businessId: BP,
  category: 'grooming',
  addressId: c.addressId,
  pets: [{ petId: c.petId, serviceIds: ['bp-groom-bath'] }],
});
const auth = (c: Customer) => ({ authorization: `Bearer ${c.key}`, 'idempotency-key': randomUUID() });

/** Boland Paws' open grooming times from the day after tomorrow, a month per question, as far as it books ahead (6 months at most). */
async function openSlots(url: string, c: Customer): Promise<Slot[]> {
  const slots: Slot[] = [];
  let from = new Date(Date.now() + 2 * 86_400_000);
  for (let i = 0; i < 6; i++) {
    const to = new Date(from.getTime() + 29 * 86_400_000);
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const res = await request(
      url,
      'POST',
      '/v1/availability',
      { ...grooming(c), from: day(from), to: day(to) },
      auth(c),
    );
    if (res.status !== 200) {
      if (slots.length) break; // past how far ahead it books
      throw new Error(`availability: ${res.status} ${JSON.stringify(res.body)}`);
    }
    for (const d of res.body.days as { slots: Slot[] }[])
      for (const s of d.slots) slots.push({ start: s.start, resourceId: s.resourceId });
    from = new Date(to.getTime() + 86_400_000);
  }
  return slots;
}

/**
 * Cash bookings confirmed by their pet owners, a quarter moved to another time and a quarter
 * cancelled, and `races` times asked for by two owners at once. Slots are taken from `slots`.
 */
async function makeWork(
  url: string,
  customers: Customer[],
  slots: Slot[],
  sizes: ReaderKillSizes,
  made: Made,
) {
  const ids: { id: string; c: Customer }[] = [];
  const take = () => slots.shift();
  let asked = 0;
  const book = async (c: Customer, slot: Slot) =>
    request(
      url,
      'POST',
      '/v1/bookings',
      { ...grooming(c), ...slot, paymentMethod: 'CASH', confirm: true },
      auth(c),
    );
  await parallel(CUSTOMERS, async (lane) => {
    const c = customers[lane]!;
    while (asked < sizes.bookings) {
      const slot = take();
      if (!slot) throw new Error(`Boland Paws has no open time left (${made.bookingIds.size} booked)`);
      asked++;
      const res = await book(c, slot);
      if (res.status === 201) {
        ids.push({ id: res.body.bookingId, c });
        made.bookingIds.add(res.body.bookingId);
      } else if (res.status === 409) asked--;
      else throw new Error(`booking: ${res.status} ${JSON.stringify(res.body)}`);
    }
  });
  // Two owners ask for one time at once: one booking is made, the other's change rolls back.
  for (let i = 0; i < sizes.races; i++) {
    const slot = take();
    if (!slot) break;
    const pair = [customers[(2 * i) % CUSTOMERS]!, customers[(2 * i + 1) % CUSTOMERS]!];
    for (const res of await Promise.all(pair.map((c) => book(c, slot)))) {
      if (res.status === 201) made.bookingIds.add(res.body.bookingId);
      else if (res.status === 409) made.rolledBack++;
      else throw new Error(`race: ${res.status} ${JSON.stringify(res.body)}`);
    }
  }
  const quarter = Math.floor(ids.length / 4);
  const moves = ids.slice(0, quarter);
  const cancels = ids.slice(quarter, 2 * quarter);
  let next = 0;
  await parallel(CUSTOMERS, async () => {
    while (next < moves.length) {
      const { id, c } = moves[next++]!;
      for (;;) {
        const slot = take();
        if (!slot) throw new Error('no open time left to move to');
        const res = await request(url, 'POST', `/v1/bookings/${id}/reschedule`, slot, auth(c));
        if (res.status === 200) break;
        if (res.status !== 409) throw new Error(`move: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
  });
  next = 0;
  await parallel(CUSTOMERS, async () => {
    while (next < cancels.length) {
      const { id, c } = cancels[next++]!;
      const res = await request(url, 'POST', `/v1/bookings/${id}/cancel`, { confirm: true }, auth(c));
      if (res.status !== 200) throw new Error(`cancel: ${res.status} ${JSON.stringify(res.body)}`);
    }
  });
}

/** The worker (application_name) whose open transaction holds the reader's bookmark row, if any. */
async function bookmarkHolder(sql: Sql, reader: ReaderName): Promise<string | null> {
  const [row] = await sql<{ name: string }[]>`
    select a.application_name as name from event_readers r
    join pg_stat_activity a on a.backend_xid = r.xmax
    where r.name = ${reader} and a.state <> 'idle'`;
  return row?.name ?? null;
}

async function lagOf(sql: Sql, reader: ReaderName): Promise<number> {
  return (await eventReaderLag(sql)).find((r) => r.name === reader)?.behind ?? 0;
}

/** Sends the job unless one is waiting to be taken: a drain needs runs, not a queue of them. */
async function sendIfIdle(sql: Sql, job: string): Promise<void> {
  const [r] = await sql<{ n: number }[]>`
    select count(*)::int as n from pgboss.job where name = ${job} and state in ('created', 'retry')`;
  if (!r!.n) await sendJob(sql, job);
}

/** `<mail_id@domain>` → the outbox row's id. */
const outboxIdOf = (messageId: string | undefined) => /^<([^@>]+)@/.exec(messageId ?? '')?.[1] ?? '';

interface Outcome {
  events: number;
  /** (event, address, kind) of every event mail. */
  mails: Set<string>;
  /** (endpoint, event) of every delivery. */
  deliveries: Set<string>;
  mailDuplicates: number;
  webhookDuplicates: number;
  problems: string[];
}

async function checkOutcome(
  sql: Sql,
  smtp: SmtpReceiver,
  hooks: WebhookReceiver,
  made: Made,
  allowedMail: Set<string>,
  allowedHooks: Set<string>,
): Promise<Outcome> {
  const problems: string[] = [];
  const mails = await sql<{ id: string; key: string; sent: boolean; failed: boolean }[]>`
    select id, event_id || ' ' || lower(to_address) || ' ' || kind as key, sent_at is not null as sent,
      failed_at is not null as failed
    from mail_outbox where event_id is not null`;
  const deliveries = await sql<{ key: string; eventId: string; status: string }[]>`
    select endpoint_id || ' ' || event_id as key, event_id as "eventId", status from webhook_deliveries`;
  const events = await sql<{ id: string }[]>`select id from domain_events`;
  const eventIds = new Set(events.map((e) => e.id));

  // Mail: one per (event, address, kind), every one sent; each Message-ID received, twice only if in flight.
  const mailKeys = new Map<string, number>();
  for (const m of mails) mailKeys.set(m.key, (mailKeys.get(m.key) ?? 0) + 1);
  for (const [k, n] of mailKeys) if (n !== 1) problems.push(`mail ${k}: ${n} rows`);
  for (const m of mails) if (!m.sent || m.failed) problems.push(`mail ${m.id} (${m.key}) not sent`);
  const copies = new Map<string, number>();
  for (const r of smtp.received) {
    const id = outboxIdOf(r.messageId);
    copies.set(id, (copies.get(id) ?? 0) + 1);
  }
  const outboxIds = new Set(mails.map((m) => m.id));
  for (const m of mails) if (!copies.get(m.id)) problems.push(`mail ${m.id} (${m.key}) never received`);
  let mailDuplicates = 0;
  for (const [id, n] of copies) {
    if (!outboxIds.has(id)) problems.push(`received a mail that is no event mail of the outbox: ${id}`);
    if (n > 1) {
      mailDuplicates++;
      if (!allowedMail.has(id))
        problems.push(`mail ${id} received ${n} times and was not in flight at a kill`);
    }
  }

  // Webhooks: one delivery per (endpoint, event), all SUCCEEDED; every id received and signed; twice only if in flight.
  const deliveryKeys = new Map<string, number>();
  for (const d of deliveries) deliveryKeys.set(d.key, (deliveryKeys.get(d.key) ?? 0) + 1);
  for (const [k, n] of deliveryKeys) if (n !== 1) problems.push(`delivery ${k}: ${n} rows`);
  for (const d of deliveries) if (d.status !== 'SUCCEEDED') problems.push(`delivery ${d.key} ${d.status}`);
  const hookCopies = new Map<string, number>();
  for (const h of hooks.received) {
    hookCopies.set(h.id, (hookCopies.get(h.id) ?? 0) + 1);
    if (!h.verified) problems.push(`webhook ${h.id} with a signature that does not verify`);
    if (h.path !== HOOK_PATH) problems.push(`webhook ${h.id} to ${h.path}`);
  }
  for (const d of deliveries)
    if (!hookCopies.get(d.eventId)) problems.push(`delivery ${d.key} never received`);
  let webhookDuplicates = 0;
  for (const [id, n] of hookCopies) {
    if (!eventIds.has(id)) problems.push(`received webhook ${id}, no event of the database`);
    if (n > 1) {
      webhookDuplicates++;
      if (!allowedHooks.has(id))
        problems.push(`webhook ${id} received ${n} times and was not in flight at a kill`);
    }
  }

  // Nothing for a change that rolled back: the trial's pet owners have the bookings the server
  // answered 201 for and no other, and every event of their bookings names one of those.
  const people = [...made.people];
  const theirs = await sql<{ id: string }[]>`select id from bookings where user_id = any(${people})`;
  const ofTheirs = await sql<{ id: string; subjectId: string }[]>`
    select id, subject_id as "subjectId" from domain_events where subject_kind = 'booking' and person_id = any(${people})`;
  for (const b of theirs)
    if (!made.bookingIds.has(b.id)) problems.push(`booking ${b.id}, which no answer made`);
  if (theirs.length !== made.bookingIds.size)
    problems.push(`${made.bookingIds.size} bookings made, ${theirs.length} in the database`);
  for (const e of ofTheirs)
    if (!made.bookingIds.has(e.subjectId))
      problems.push(`event ${e.id} of booking ${e.subjectId}, which no answer made`);

  return {
    events: events.length,
    mails: new Set(mailKeys.keys()),
    deliveries: new Set(deliveryKeys.keys()),
    mailDuplicates,
    webhookDuplicates,
    problems,
  };
}

/**
 * The pass computed from the same events: the database copied (every connection to it closed), the
 * event mails and deliveries removed there and both readers set back to where they stood before any
 * worker ran, then each reader's pass run to the end in this process. The trial's outcome must be
 * exactly the copy's: no mail or delivery lost, none made that the rules do not make.
 */
async function compareWithReference(
  clusterUrl: string,
  databaseUrl: string,
  start: { name: string; tx: string; seq: string }[],
  outcome: Outcome,
): Promise<string[]> {
  const admin = createSql(clusterUrl, { max: 1, applicationName: 'nogpets-faults' });
  const name = new URL(databaseUrl).pathname.slice(1);
  try {
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`;
    await admin.unsafe(`create database nogpets_reference template "${name}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const u = new URL(databaseUrl);
  u.pathname = '/nogpets_reference';
  const ref = createSql(u.toString(), { max: 2, applicationName: 'nogpets-faults' });
  try {
    await ref`delete from mail_outbox where event_id is not null`;
    await ref`delete from webhook_deliveries`;
    for (const r of start)
      await ref`update event_readers set after_tx = ${r.tx}::xid8, after_seq = ${r.seq}::bigint where name = ${r.name}`;
    const clock = { now: () => new Date() };
    await dispatchAllNotices(
      { sql: ref, clock, payments: { publicUrl: () => 'http://127.0.0.1' } },
      10_000,
      500,
    );
    // The fan-out reads only the pool and the clock.
    await fanOutWebhookEvents({ sql: ref, clock } as unknown as Parameters<typeof fanOutWebhookEvents>[0]);
    const lag = (await eventReaderLag(ref)).filter((r) => r.name === 'notices' || r.name === 'webhooks');
    const mails = await ref<{ key: string }[]>`
      select event_id || ' ' || lower(to_address) || ' ' || kind as key from mail_outbox where event_id is not null`;
    const deliveries = await ref<{ key: string }[]>`
      select endpoint_id || ' ' || event_id as key from webhook_deliveries`;
    const problems: string[] = [];
    for (const r of lag) if (r.behind) problems.push(`reference: reader ${r.name} ${r.behind} behind`);
    const expectMails = new Set(mails.map((m) => m.key));
    const expectDeliveries = new Set(deliveries.map((d) => d.key));
    if (!expectMails.size || !expectDeliveries.size)
      problems.push('reference: no mail or no delivery at all');
    for (const k of expectMails) if (!outcome.mails.has(k)) problems.push(`mail lost: ${k}`);
    for (const k of outcome.mails) if (!expectMails.has(k)) problems.push(`mail the rules do not make: ${k}`);
    for (const k of expectDeliveries) if (!outcome.deliveries.has(k)) problems.push(`delivery lost: ${k}`);
    for (const k of outcome.deliveries)
      if (!expectDeliveries.has(k)) problems.push(`delivery the rules do not make: ${k}`);
    return problems;
  } finally {
    await ref.end({ timeout: 5 });
  }
}
