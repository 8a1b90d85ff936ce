import {
  completeBookings,
  deliverPendingMail,
  type Deps,
  expireHolds,
  expireOrders,
  releaseStrandedVisitOrders,
  extendSeries,
  recheckNotices,
} from '@nogpets/operations';
import {
  purgeDonePaymentNotices,
  purgeEmailLinks,
  purgeLinkMailRequests,
  purgeExpiredDrafts,
  purgeIdempotencyKeys,
  purgeRateLimits,
  type Sql,
} from '@nogpets/store';

export interface JobContext {
  sql: Sql;
  now: () => Date;
  /** What the service's rules need (catalogue, payments, clock); absent for jobs that only touch tables. */
  deps?: Deps | undefined;
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
  async run({ sql, now }) {
    return { deleted: await purgeRateLimits(sql, new Date(now().getTime() - 60 * 60 * 1000)) };
  },
};

/** Unpaid card bookings whose hold lapsed free their time (docs/decisions.md, "Holds"). */
export const expireUnpaidHolds: JobDefinition = {
  name: 'expire-unpaid-holds',
  cron: '* * * * *',
  expireInSeconds: EXPIRE.everyMinute,
  async run({ deps }) {
    if (!deps) return { skipped: 'no deps' };
    const expired = await expireHolds(deps);
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
  async run({ deps }) {
    if (!deps) return { skipped: 'no deps' };
    const expired = await expireOrders(deps);
    const released = await releaseStrandedVisitOrders(deps);
    return { expired: expired.length, released: released.length };
  },
};

/** Bookings whose time is over become DONE (docs/decisions.md, "Booking statuses"). */
export const completeFinishedBookings: JobDefinition = {
  name: 'complete-finished-bookings',
  cron: '*/5 * * * *',
  expireInSeconds: EXPIRE.hourly,
  async run({ deps }) {
    if (!deps) return { skipped: 'no deps' };
    return { done: (await completeBookings(deps)).length };
  },
};

/** Weekly walks are kept booked four weeks ahead. */
export const keepSeriesBooked: JobDefinition = {
  name: 'keep-series-booked',
  cron: '17 * * * *',
  expireInSeconds: EXPIRE.hourly,
  async run({ deps }) {
    if (!deps) return { skipped: 'no deps' };
    return { booked: await extendSeries(deps) };
  },
};

/** Idempotency keys are kept a day: long enough for any retry. */
export const purgeOldIdempotencyKeys: JobDefinition = {
  name: 'purge-idempotency-keys',
  cron: '41 3 * * *',
  expireInSeconds: EXPIRE.daily,
  async run({ sql, now }) {
    return { deleted: await purgeIdempotencyKeys(sql, new Date(now().getTime() - 24 * 3600_000)) };
  },
};

/** Mail a request could not deliver at once (SMTP down, a crash) is tried again while its link lives. */
export const deliverMail: JobDefinition = {
  name: 'deliver-mail',
  cron: '* * * * *',
  expireInSeconds: EXPIRE.everyMinute,
  async run({ deps }) {
    if (!deps) return { skipped: 'no deps' };
    return { sent: await deliverPendingMail(deps) };
  },
};

/** Sign-in links past their time are kept a day (for support questions), then removed; so are link-mail counts. */
export const purgeOldEmailLinks: JobDefinition = {
  name: 'purge-email-links',
  cron: '23 * * * *',
  expireInSeconds: EXPIRE.hourly,
  async run({ sql, now }) {
    const dayAgo = new Date(now().getTime() - 24 * 3600_000);
    return { deleted: await purgeEmailLinks(sql, dayAgo), counts: await purgeLinkMailRequests(sql, dayAgo) };
  },
};

/** Payment notices kept but not checked to the end (a stop after answering, a failed check, PayFast unreachable) are checked again. */
export const recheckPaymentNotices: JobDefinition = {
  name: 'recheck-payment-notices',
  cron: '* * * * *',
  expireInSeconds: EXPIRE.everyMinute,
  async run({ deps }) {
    if (!deps) return { skipped: 'no deps' };
    return recheckNotices(deps);
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
  async run({ sql, now }) {
    return { deleted: await purgeDonePaymentNotices(sql, new Date(now().getTime() - 90 * 24 * 3600_000)) };
  },
};

/**
 * No-login sign-up drafts are kept 30 days (spec, Limits), then removed: each with its application
 * while it is still a DRAFT, and the account made for it when nothing else came of it.
 */
export const purgeSignupDrafts: JobDefinition = {
  name: 'purge-signup-drafts',
  cron: '29 * * * *',
  expireInSeconds: EXPIRE.hourly,
  async run({ sql, now }) {
    return purgeExpiredDrafts(sql, now());
  },
};

export const jobs: readonly JobDefinition[] = [
  purgeExpiredRateLimits,
  expireUnpaidHolds,
  expireUnpaidOrders,
  completeFinishedBookings,
  keepSeriesBooked,
  purgeOldIdempotencyKeys,
  deliverMail,
  purgeOldEmailLinks,
  recheckPaymentNotices,
  purgeDoneNotices,
  purgeSignupDrafts,
];
