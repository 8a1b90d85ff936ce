import type { Sql } from '@nogpets/store';

export interface JobContext {
  sql: Sql;
  now: () => Date;
}

/** A timed rule of the service. Each one is idempotent: running it twice, or on two workers, is safe. */
export interface JobDefinition {
  name: string;
  /** Cron in UTC (pg-boss schedules), or null for jobs only sent on demand. */
  cron: string | null;
  run(ctx: JobContext): Promise<Record<string, unknown>>;
}

/** Rate-limit counters whose window has passed are dead weight; an hour's grace keeps it cheap. */
export const purgeExpiredRateLimits: JobDefinition = {
  name: 'purge-expired-rate-limits',
  cron: '*/10 * * * *',
  async run({ sql, now }) {
    const cutoff = now().getTime() - 60 * 60 * 1000;
    const rows = await sql`delete from rate_limits where expire is not null and expire < ${cutoff}`;
    return { deleted: rows.count };
  },
};

export const jobs: readonly JobDefinition[] = [purgeExpiredRateLimits];
