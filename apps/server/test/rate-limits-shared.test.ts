// Rate limits hold across instances : two servers on one database share the
// request limiter's counters and the sign-up draft quotas, so a caller spreading requests over a
// load balancer's instances gets no more than one instance would give.
import { createTestDatabase, fixedClock, type TestDatabase } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

describe('rate limits across two instances on one database', () => {
  const clock = fixedClock('2026-11-23T08:00:00Z');
  let db: TestDatabase;
  const servers: TestServer[] = [];
  /** Two instances on the shared database with these settings. */
  const pair = async (env: Record<string, string>) => {
    const two = [await startTestServer({ db, clock, env }), await startTestServer({ db, clock, env })];
    servers.push(...two);
    return two as [TestServer, TestServer];
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await db?.drop();
  });

  it('counts one caller’s requests on both instances against one limit', async () => {
    const [a, b] = await pair({ RATE_LIMIT_POINTS: '10', RATE_LIMIT_WINDOW_SEC: '600' });
    const statuses: number[] = [];
    // Alternating instances, as a round-robin balancer sends them.
    for (let i = 0; i < 16; i++) statuses.push((await (i % 2 ? b : a).get('/v1/services')).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    const refused = await b.get('/v1/services');
    expect(refused.body.error.code).toBe('RateLimited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('holds the per-email draft quota (5 a day) across instances, saving nothing past it', async () => {
    // A limiter of its own (other instances' counters are their business): the draft quota is
    // counted in the database by the service's clock, whichever instance takes the draft.
    await db.sql`delete from rate_limits`;
    const [a, b] = await pair({ RATE_LIMIT_POINTS: '1000' });
    const base = { businessName: 'Patas Limpas', town: 'Lisboa', consent: true, email: 'both@example.com' };
    const answers: number[] = [];
    for (let i = 0; i < 7; i++) {
      clock.advance(60_000);
      const res = await (i % 2 ? b : a).post('/v1/signup-drafts', { ...base, businessName: `Patas ${i}` });
      answers.push(res.status);
    }
    expect(answers).toEqual([201, 201, 201, 201, 201, 429, 429]);
    const [{ n }] = (await db.sql`select count(*)::int as n from signup_drafts`) as unknown as [
      { n: number },
    ];
    expect(n).toBe(5);
  });
});
