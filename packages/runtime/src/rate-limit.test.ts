import { createTestDatabase, type TestDatabase } from '@nogpets/test-utils';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitPool } from './rate-limit.js';

describe('the rate limiter behind a pooler in transaction mode', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ demoData: false });
  });
  afterAll(() => db?.drop());

  // rate-limiter-flexible names its queries, so node-postgres prepares them on each connection;
  // with prepare: false (DB_PREPARE=false) they run unnamed. One connection: the count is its session's.
  const statementsAfterConsume = async (prepare: boolean) => {
    const { pool, store } = rateLimitPool(db.url, { prepare, max: 1 });
    try {
      const limiter = new RateLimiterPostgres({
        storeClient: store,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
        clearExpiredByTimeout: false,
        points: 5,
        duration: 60,
      });
      const first = await limiter.consume(`probe-${prepare}`, 2);
      const second = await limiter.consume(`probe-${prepare}`, 2);
      expect([first.remainingPoints, second.remainingPoints]).toEqual([3, 1]);
      const { rows } = await pool.query<{ n: number }>(
        'select count(*)::int as n from pg_prepared_statements',
      );
      return rows[0]?.n;
    } finally {
      await pool.end();
    }
  };

  it('prepares named statements by default, none with prepare: false, and counts the same', async () => {
    expect(await statementsAfterConsume(true)).toBeGreaterThan(0);
    expect(await statementsAfterConsume(false)).toBe(0);
  });
});
