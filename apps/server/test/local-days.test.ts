// One clock for local days. A business in Santiago, whose clocks skip midnight on
// Sunday 2026-09-06 (23:59 UTC-4 is followed by 01:00 UTC-3): its day plan, booking list and
// earnings of the 5th and the 6th split where slot-engine splits them, at 04:00Z, not an hour early.
import { createApiKey } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { insertPartner, LISBON_PARTNER, type PartnerFixture } from './partner-fixture.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const clock = fixedClock('2026-09-10T15:00:00Z');

const SANTIAGO: PartnerFixture = {
  ...LISBON_PARTNER,
  id: 'biz_santiago_reloj',
  name: 'Peluquería Reloj',
  country: 'CL',
  currency: 'CLP',
  timezone: 'America/Santiago',
  center: { lat: -33.4263, lng: -70.6107 },
  town: 'Santiago',
  serviceId: 'svc_reloj_bano',
  priceCents: 25000,
  vanId: 'res_reloj_van',
  listing: { id: 'dir-reloj-pelu', town: 'santiago', phone: null, website: null },
};

describe('local days in a zone whose clocks skip midnight', () => {
  let server: TestServer;
  let key: string;
  const as = () => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    await insertPartner(server.db.sql, SANTIAGO);
    key = (
      await createApiKey(server.db.sql, { email: 'reloj@providencia.example', scopes: ['business:manage'] })
    ).key;
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${SANTIAGO.id}, id, 'owner', now() from users where email = 'reloj@providencia.example'`;
    // Saturday 23:00-23:45 (UTC-4), and Sunday 01:30-02:30 (UTC-3), both done, cash due.
    await server.db.sql`
      insert into bookings (id, business_id, resource_id, line_id, status, payment_method, payment_status, starts_at, ends_at, total_cents, client_name)
      values ('reloj_sat', ${SANTIAGO.id}, ${SANTIAGO.vanId}, 'grooming', 'DONE', 'CASH', 'CASH_DUE',
          '2026-09-06T03:00:00Z', '2026-09-06T03:45:00Z', 25000, 'Cliente Sábado'),
        ('reloj_sun', ${SANTIAGO.id}, ${SANTIAGO.vanId}, 'grooming', 'DONE', 'CASH', 'CASH_DUE',
          '2026-09-06T04:30:00Z', '2026-09-06T05:30:00Z', 30000, 'Cliente Domingo')`;
  }, 60_000);
  afterAll(() => server?.stop());

  const ids = (jobs: Json[]) => jobs.map((j) => j.bookingId ?? j.id).sort();
  const planIds = (plan: Json) => ids(plan.resources.flatMap((r: Json) => r.jobs));

  it('plans each day with its own bookings: the Saturday job is not on Sunday’s plan', async () => {
    const sat = await server.get(`/v1/business/day-plan?businessId=${SANTIAGO.id}&date=2026-09-05`, as());
    const sun = await server.get(`/v1/business/day-plan?businessId=${SANTIAGO.id}&date=2026-09-06`, as());
    expect(sat.status, JSON.stringify(sat.body)).toBe(200);
    expect(sun.status, JSON.stringify(sun.body)).toBe(200);
    expect(planIds(sat.body)).toEqual(['reloj_sat']);
    expect(planIds(sun.body)).toEqual(['reloj_sun']);
  });

  it('lists each date’s bookings, and counts each date’s cash in its earnings', async () => {
    const list = async (date: string) =>
      server.get(`/v1/business/bookings?businessId=${SANTIAGO.id}&from=${date}&to=${date}`, as());
    const sat = await list('2026-09-05');
    const sun = await list('2026-09-06');
    expect(sat.status, JSON.stringify(sat.body)).toBe(200);
    expect(ids(sat.body.bookings)).toEqual(['reloj_sat']);
    expect(ids(sun.body.bookings)).toEqual(['reloj_sun']);

    const earnings = async (date: string) =>
      server.get(`/v1/business/earnings?businessId=${SANTIAGO.id}&from=${date}&to=${date}`, as());
    const satMoney = await earnings('2026-09-05');
    const sunMoney = await earnings('2026-09-06');
    expect(satMoney.status, JSON.stringify(satMoney.body)).toBe(200);
    expect(satMoney.body.totals.cashCents).toBe(25000);
    expect(sunMoney.body.totals.cashCents).toBe(30000);
    // In the business's own currency: Chilean pesos have no minor units, so 25000 is 25,000 pesos.
    expect(satMoney.body.totals.gross).toBe('$25,000');
    expect(sunMoney.body.totals.gross).toBe('$30,000');
  });
});
