import { randomUUID } from 'node:crypto';
import {
  type Deps,
  type InternalOperation,
  type Logger,
  type OperationContext,
  jobOperations as op,
  runOperation,
} from '@nogpets/operations';

export interface JobContext {
  sql: Deps['sql'];
  now: () => Date;
  /** What the service's rules need (catalogue, payments, clock); absent for jobs that only touch tables. */
  deps?: Deps | undefined;
  /** Where the operations' own log lines go; quiet when absent. */
  log?: Logger | undefined;
}

const quiet: Logger = { info() {}, warn() {}, error() {} };

/**
 * Runs the job's internal operation through runOperation as the `system` principal named after the
 * job. Jobs that only keep tables run on the job's own pool and clock (`tableOnly`): with the
 * service's other dependencies when given, else without them (their operations use none).
 */
function runAs<Op extends InternalOperation>(
  job: string,
  operation: Op,
  ctx: JobContext,
  tableOnly: boolean,
): Promise<Awaited<ReturnType<Op['handler']>>> {
  const clock = { now: ctx.now };
  const deps: Deps = tableOnly ? ({ ...ctx.deps, sql: ctx.sql, clock } as Deps) : ctx.deps!;
  const call: OperationContext = {
    deps,
    requestId: randomUUID(),
    clientName: null,
    auth: null,
    log: ctx.log ?? quiet,
    principal: { kind: 'system', job },
  };
  return runOperation(operation, call, {}) as Promise<Awaited<ReturnType<Op['handler']>>>;
}

/** A timed rule of the service. Each one is idempotent: running it twice, or on two workers, is safe. */
export interface JobDefinition {
  name: string;
  /** Cron in UTC (pg-boss schedules), or null for jobs only sent on demand. */
  cron: string | null;
  /**
   * How long one run may stay active before pg-boss takes it for dead (its worker killed) and runs
   * it again: well above what a run takes, well below the 15 minutes pg-boss would wait.
   */
  expireInSeconds: number;
  run(ctx: JobContext): Promise<Record<string, unknown>>;
}

/** How long a run may stay active before it is run again, by how often the job runs (every minute; every 5 minutes to hourly; daily): docs/reliability.md. */
export const EXPIRE = { everyMinute: 120, hourly: 300, daily: 600 } as const;

/** Rate-limit counters whose window has passed are dead weight; an hour's grace keeps it cheap. */
export const purgeExpiredRateLimits: JobDefinition = {
  name: 'purge-expired-rate-limits',
  cron: '*/10 * * * *',
  expireInSeconds: EXPIRE.hourly,
  run: (ctx) => runAs('purge-expired-rate-limits', op.purgeExpiredRateLimits, ctx, true),
};

/** Unpaid card bookings whose hold lapsed free their time (docs/decisions.md, "Holds"). */
export const expireUnpaidHolds: JobDefinition = {
  name: 'expire-unpaid-holds',
  cron: '* * * * *',
  expireInSeconds: EXPIRE.everyMinute,
  async run(ctx) {
    if (!ctx.deps) return { skipped: 'no deps' };
    const { expired } = await runAs('expire-unpaid-holds', op.expireUnpaidHolds, ctx, false);
    return { expired: expired.length };
  },
};

/**
 * Shop orders that can no longer go ahead close (docs/decisions.md, "The shop"): card orders unpaid
 * 24 hours after they were made, and `visit` add-ons whose booking was cancelled or lapsed. Their
 * stock and discount use return.
 */
export const expireUnpaidOrders: JobDefinition = {
  name: 'expire-unpaid-orders',
  cron: '* * * * *',
  expireInSeconds: EXPIRE.everyMinute,
  async run(ctx) {
    if (!ctx.deps) return { skipped: 'no deps' };
    const { expired, released } = await runAs('expire-unpaid-orders', op.expireUnpaidOrders, ctx, false);
    return { expired: expired.length, released: released.length };
  },
};

/** Bookings whose time is over become DONE (docs/decisions.md, "Booking statuses"). */
export const completeFinishedBookings: JobDefinition = {
  name: 'complete-finished-bookings',
  cron: '*/5 * * * *',
  expireInSeconds: EXPIRE.hourly,
  async run(ctx) {
    if (!ctx.deps) return { skipped: 'no deps' };
    const { done } = await runAs('complete-finished-bookings', op.completeFinishedBookings, ctx, false);
    return { done: done.length };
  },
};

/** Confirmed bookings are reminded the evening before (18:00 in the business's zone): checked every 10 minutes. */
export const remindBookings: JobDefinition = {
  name: 'remind-bookings',
  cron: '*/10 * * * *',
  expireInSeconds: EXPIRE.hourly,
  async run(ctx) {
    if (!ctx.deps) return { skipped: 'no deps' };
    const { reminded } = await runAs('remind-bookings', op.remindBookingsDue, ctx, false);
    return { reminded: reminded.length };
  },
};

/** Unpaid card bookings and orders: their person is told 6 hours before the link lapses (checked every 10 minutes). */
export const remindPayments: JobDefinition = {
  name: 'remind-payments',
  cron: '*/10 * * * *',
  expireInSeconds: EXPIRE.hourly,
  async run(ctx) {
    if (!ctx.deps) return { skipped: 'no deps' };
    const told = await runAs('remind-payments', op.remindUnpaidLinks, ctx, false);
    return { bookings: told.bookings.length, orders: told.orders.length };
  },
};

/** Weekly walks are kept booked four weeks ahead. */
export const keepSeriesBooked: JobDefinition = {
  name: 'keep-series-booked',
  cron: '17 * * * *',
  expireInSeconds: EXPIRE.hourly,
  async run(ctx) {
    if (!ctx.deps) return { skipped: 'no deps' };
    return runAs('keep-series-booked', op.keepSeriesBooked, ctx, false);
  },
};

/** Idempotency keys are kept a day: long enough for any retry. */
export const purgeOldIdempotencyKeys: JobDefinition = {
  name: 'purge-idempotency-keys',
  cron: '41 3 * * *',
  expireInSeconds: EXPIRE.daily,
  run: (ctx) => runAs('purge-idempotency-keys', op.purgeOldIdempotencyKeys, ctx, true),
};

/**
 * Mail a request could not deliver at once (SMTP down, a crash) is tried again while its link lives;
 * mail to people when its next attempt is due (1, 5, 30 minutes, 2, 6, 12 hours, then failed).
 */
export const deliverMail: JobDefinition = {
  name: 'deliver-mail',
  cron: '* * * * *',
  expireInSeconds: EXPIRE.everyMinute,
  async run(ctx) {
    if (!ctx.deps) return { skipped: 'no deps' };
    return runAs('deliver-mail', op.deliverMail, ctx, false);
  },
};

/** Mail to people made from the domain events (docs/decisions.md, "Mail to people"), then delivered. */
export const dispatchNotices: JobDefinition = {
  name: 'dispatch-notices',
  cron: '* * * * *',
  expireInSeconds: EXPIRE.everyMinute,
  async run(ctx) {
    if (!ctx.deps) return { skipped: 'no deps' };
    return runAs('dispatch-notices', op.dispatchNotices, ctx, false);
  },
};

/** Sign-in links past their time are kept a day (for support questions), then removed; so are link-mail counts. */
export const purgeOldEmailLinks: JobDefinition = {
  name: 'purge-email-links',
  cron: '23 * * * *',
  expireInSeconds: EXPIRE.hourly,
  run: (ctx) => runAs('purge-email-links', op.purgeEmailLinks, ctx, true),
};

/** Payment notices kept but not checked to the end (a stop after answering, a failed check, PayFast unreachable) are checked again. */
export const recheckPaymentNotices: JobDefinition = {
  name: 'recheck-payment-notices',
  cron: '* * * * *',
  expireInSeconds: EXPIRE.everyMinute,
  async run(ctx) {
    if (!ctx.deps) return { skipped: 'no deps' };
    return runAs('recheck-payment-notices', op.recheckPaymentNotices, ctx, false);
  },
};

/**
 * Payment notices with nothing left to do are kept 90 days (support questions, PayFast's own
 * disputes window), then removed: anyone may post one, so they must not pile up for ever.
 */
export const purgeDoneNotices: JobDefinition = {
  name: 'purge-payment-notices',
  cron: '47 3 * * *',
  expireInSeconds: EXPIRE.daily,
  run: (ctx) => runAs('purge-payment-notices', op.purgeDoneNotices, ctx, true),
};

/**
 * No-login sign-up drafts are kept 30 days (spec, Limits), then removed: each with its application
 * while it is still a DRAFT, and the account made for it when nothing else came of it.
 */
export const purgeSignupDrafts: JobDefinition = {
  name: 'purge-signup-drafts',
  cron: '29 * * * *',
  expireInSeconds: EXPIRE.hourly,
  run: (ctx) => runAs('purge-signup-drafts', op.purgeSignupDrafts, ctx, true),
};

/**
 * Webhooks (docs/decisions.md, "Webhooks"): the domain events become one delivery per endpoint
 * that wants each, and what was made is sent right away in the same run.
 */
export const fanOutWebhooks: JobDefinition = {
  name: 'fan-out-webhooks',
  cron: '* * * * *',
  expireInSeconds: EXPIRE.everyMinute,
  async run(ctx) {
    if (!ctx.deps) return { skipped: 'no deps' };
    const made = await runAs('fan-out-webhooks', op.fanOutWebhooks, ctx, false);
    if (!made.deliveries) return made;
    return { ...made, ...(await runAs('fan-out-webhooks', op.sendWebhooks, ctx, false)) };
  },
};

/** Webhook deliveries due (retries with backoff, redeliveries) are sent; two workers never send one at once. */
export const sendWebhooks: JobDefinition = {
  name: 'send-webhooks',
  cron: '* * * * *',
  expireInSeconds: EXPIRE.everyMinute,
  async run(ctx) {
    if (!ctx.deps) return { skipped: 'no deps' };
    return runAs('send-webhooks', op.sendWebhooks, ctx, false);
  },
};

/** The jobs that read the domain events: run as soon as new ones are written (worker.ts), and each minute. */
export const EVENT_READING_JOBS: readonly string[] = [dispatchNotices.name, fanOutWebhooks.name];

/** The newest event's place, as the worker's watch reads it (through its operation, as a job would). */
export async function latestEventSeq(ctx: JobContext): Promise<string> {
  return (await runAs('watch-events', op.latestEvent, ctx, true)).seq;
}

export const jobs: readonly JobDefinition[] = [
  purgeExpiredRateLimits,
  expireUnpaidHolds,
  expireUnpaidOrders,
  completeFinishedBookings,
  remindBookings,
  remindPayments,
  keepSeriesBooked,
  purgeOldIdempotencyKeys,
  deliverMail,
  dispatchNotices,
  purgeOldEmailLinks,
  recheckPaymentNotices,
  purgeDoneNotices,
  purgeSignupDrafts,
  fanOutWebhooks,
  sendWebhooks,
];
