// Rate limits: the counters of the runtime's limiter (rate-limiter-flexible keeps their rows).
import type { Queryable as Sql } from './sql.js';

/** Removes the counters whose window ended before `before`; how many went. */
export async function purgeRateLimits(sql: Sql, before: Date): Promise<number> {
  // `expire` is epoch milliseconds, as rate-limiter-flexible writes it; null never expires.
  return (await sql`delete from rate_limits where expire is not null and expire < ${before.getTime()}`).count;
}
