// The Run operations agree with the data: what the demo partner's bookings say is what the
// tools say of the same pets and services.
import { createApiKey } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

type Json = any;

const BIZ = 'biz_boland_paws';
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg

describe('the Run operations agree with the data', () => {
  let server: TestServer;
  let owner: string;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    owner = (
      await createApiKey(server.db.sql, { email: 'owner@partner.example', scopes: ['business:manage'] })
    ).key;
  }, 60_000);
  afterAll(() => server?.stop());

  it("every demo booking of Boland Paws lasts what find_business_times says its pets' services take, at its price", async () => {
    const rows = await server.db.sql<
      { id: string; start: Date; end: Date; clientId: string; details: Json }[]
    >`
      select id, starts_at as start, ends_at as end, business_client_id as "clientId", details
      from bookings where business_id = ${BIZ} and id like 'demo-%' order by starts_at, id`;
    expect(rows.length).toBeGreaterThan(50);
    // One find_business_times per distinct client, pets and services.
    const asked = new Map<string, { durationMin: number; subtotalCents: number }>();
    for (const r of rows) {
      const pets = (r.details.pets as Json[]).map((p) => ({ petId: p.petId, serviceIds: p.serviceIds }));
      const key = JSON.stringify([r.clientId, pets]);
      if (!asked.has(key)) {
        const res = await server.post(
          '/v1/business/times',
          { clientId: r.clientId, pets, from: '2026-03-16', to: '2026-03-20', ignoreNotice: true },
          as(owner),
        );
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        asked.set(key, { durationMin: res.body.durationMin, subtotalCents: res.body.quote.subtotalCents });
      }
      const minutes = (r.end.getTime() - r.start.getTime()) / 60_000;
      const label = `${r.id}: ${JSON.stringify(pets)}`;
      const told = asked.get(key)!;
      expect(minutes, label).toBe(told.durationMin);
      // The booking's own quote says the same, at the same price.
      expect(r.details.quote.durationMin, label).toBe(told.durationMin);
      expect(r.details.quote.subtotalCents, label).toBe(told.subtotalCents);
    }
    expect(asked.size).toBeGreaterThan(3);
  });

  it('says why nothing is open as find_times does: too soon inside the notice, closed on a day off', async () => {
    const walk = { name: 'Rex', type: 'DOG', weightKg: 14, coat: 'SHORT', serviceIds: ['bp-walk-30'] };
    const early = {
      pets: [walk],
      from: '2026-03-11',
      to: '2026-03-11',
      windowStart: '07:00',
      windowEnd: '07:45',
    };
    // 06:00 now: the walker's 07:00 to 07:45 is inside the two hours of notice.
    const soon = await server.post('/v1/business/times', early, as(owner));
    expect(soon.status, JSON.stringify(soon.body)).toBe(409);
    expect(soon.body.error.details.reason).toBe('PAST');
    expect(soon.body.error.message).toMatch(
      /^Dog walking is too soon to book on 2026-03-11\. The next open time is /,
    );
    // Waived, the same hour is open.
    const waived = await server.post('/v1/business/times', { ...early, ignoreNotice: true }, as(owner));
    expect(waived.status, JSON.stringify(waived.body)).toBe(200);
    // Van 2 does not work on Saturdays.
    const groom = { name: 'Rex', type: 'DOG', weightKg: 14, coat: 'SHORT', serviceIds: ['bp-groom-bath'] };
    const closed = await server.post(
      '/v1/business/times',
      { pets: [groom], from: '2026-03-14', to: '2026-03-14', resourceId: 'bp-van-2' },
      as(owner),
    );
    expect(closed.status).toBe(409);
    expect(closed.body.error.details.reason).toBe('CLOSED_DAY');
    expect(closed.body.error.details.alternatives[0].resourceId).toBe('bp-van-2');
  });
});
