// Prices, working hours and time off at their edges.
// A weekly series' weeks not yet made are new bookings at the new price, and update_prices says so
// before it is confirmed; the week the worker makes carries its own quote, not the first week's.
// Time off in a zone whose clocks skip midnight (Santiago) is a whole day, not a 400; dates past
// year 9999 are a 400, never a 500.
import { createApiKey, extendSeries } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { insertPartner, LISBON_PARTNER, type PartnerFixture } from './partner-fixture.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const BIZ = 'biz_boland_paws';
const NOW = '2026-03-11T04:00:00Z'; // Wednesday 06:00 in Johannesburg
const clock = fixedClock(NOW);
const DAY = 86_400_000;

/** A groomer in Santiago: Chile's clocks go from 00:00 to 01:00 on Sunday 2026-09-06. */
const SANTIAGO_PARTNER: PartnerFixture = {
  ...LISBON_PARTNER,
  id: 'biz_santiago_peluqueria',
  name: 'Peluquería Providencia',
  country: 'CL',
  currency: 'CLP',
  timezone: 'America/Santiago',
  center: { lat: -33.4263, lng: -70.6107 },
  town: 'Santiago',
  serviceId: 'svc_santiago_bano',
  priceCents: 25000,
  vanId: 'res_santiago_van',
  listing: { id: 'dir-santiago-pelu', town: 'santiago', phone: null, website: null },
};

describe('prices, hours and time off at their edges', () => {
  let server: TestServer;
  let owner: string;
  let santiago: string;
  let person: string;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    await insertPartner(server.db.sql, SANTIAGO_PARTNER);
    const key = async (email: string, scopes: string[]) =>
      (await createApiKey(server.db.sql, { email, scopes: scopes as never })).key;
    owner = await key('owner@partner.example', ['business:manage']);
    santiago = await key('duena@providencia.example', ['business:manage']);
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${SANTIAGO_PARTNER.id}, id, 'owner', now() from users where email = 'duena@providencia.example'`;
    person = await key('walker-client@example.com', ['bookings:read', 'bookings:write', 'pets', 'addresses']);
  }, 60_000);
  afterAll(() => server?.stop());

  it("books a weekly series' later weeks at the new price, says so before the change, and keeps the weeks already made", async () => {
    const petId = (
      await server.post('/v1/pets', { name: 'Kwezi', type: 'DOG', weightKg: 12, coat: 'SHORT' }, as(person))
    ).body.id;
    const addressId = (
      await server.post(
        '/v1/addresses',
        { label: 'Home', line1: '14 Rustenburg Road', suburb: 'Die Boord' },
        as(person),
      )
    ).body.id;
    const walk = {
      businessId: BIZ,
      category: 'walking',
      addressId,
      pets: [{ petId, serviceIds: ['bp-walk-30'] }],
    };
    const found = await server.post(
      '/v1/availability',
      { ...walk, from: '2026-03-17', to: '2026-03-17' },
      as(person),
    );
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    const open = found.body.days[0].slots[0];
    const booked = await server.post(
      '/v1/bookings',
      {
        ...walk,
        start: open.start,
        resourceId: open.resourceId,
        paymentMethod: 'CASH',
        confirm: true,
        repeat: { freq: 'WEEKLY', days: ['tue'] },
      },
      as(person),
    );
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const seriesId = booked.body.seriesId as string;
    const made = await server.db.sql<{ id: string; totalCents: number }[]>`
      select id, total_cents as "totalCents" from bookings where series_id = ${seriesId} order by starts_at`;
    expect(made.length).toBeGreaterThan(1);
    expect(made.every((b) => b.totalCents === 12000)).toBe(true);

    const change = { businessId: BIZ, changes: [{ serviceId: 'bp-walk-30', priceCents: 13500 }] };
    const asked = await server.post('/v1/business/prices', change, as(owner));
    expect(asked.status, JSON.stringify(asked.body)).toBe(409);
    // The person hears that the series goes on at the new price before agreeing to it.
    expect(asked.body.error.details.summary).toMatch(/1 weekly series .*new price/);
    expect(asked.body.error.details.seriesAtNewPrice).toBe(1);
    const done = await server.post('/v1/business/prices', { ...change, confirm: true }, as(owner));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.seriesAtNewPrice).toBe(1);
    expect(done.body.message).toMatch(/weekly series/);

    const deps = server.service.runtime.deps;
    try {
      clock.set(new Date(Date.parse(NOW) + 14 * DAY));
      expect(await extendSeries(deps)).toBeGreaterThan(0);
    } finally {
      clock.set(NOW);
    }
    const rows = await server.db.sql<{ id: string; totalCents: number; details: Json }[]>`
      select id, total_cents as "totalCents", details from bookings where series_id = ${seriesId} order by starts_at`;
    const old = new Set(made.map((b) => b.id));
    const kept = rows.filter((r) => old.has(r.id));
    const added = rows.filter((r) => !old.has(r.id));
    expect(kept.map((r) => r.totalCents)).toEqual(made.map((b) => b.totalCents));
    expect(added.length).toBeGreaterThan(0);
    for (const r of added) {
      expect(r.totalCents).toBe(13500);
      // The week's own quote, so what it says agrees with what it costs.
      expect(r.details.quote.subtotalCents).toBe(13500);
      expect(r.details.quote.pets[0].items[0].priceCents).toBe(13500);
    }
  });

  it('takes a whole day off in a zone whose clocks skip midnight: the day starts when it starts', async () => {
    const body = {
      businessId: SANTIAGO_PARTNER.id,
      start: '2026-09-06',
      end: '2026-09-06',
      reason: 'Feriado',
    };
    const res = await server.post('/v1/business/time-off', body, as(santiago));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // 2026-09-06 starts at 01:00 (UTC-3) and ends at the next midnight (UTC-3): 23 hours.
    expect(res.body.timeOff.start).toBe('2026-09-06T04:00:00.000Z');
    expect(res.body.timeOff.end).toBe('2026-09-07T03:00:00.000Z');
    expect(res.body.timeOff.hours).toBe(23);
    // The day before ends at that same instant: "through 2026-09-05" reaches the 6th's first minute.
    const before = await server.post(
      '/v1/business/time-off',
      { businessId: SANTIAGO_PARTNER.id, start: '2026-09-05T18:00', end: '2026-09-05' },
      as(santiago),
    );
    expect(before.status, JSON.stringify(before.body)).toBe(201);
    expect(before.body.timeOff.end).toBe('2026-09-06T04:00:00.000Z');
    // A time the clocks skip, given as a time, is still refused in words.
    const skipped = await server.post(
      '/v1/business/time-off',
      { businessId: SANTIAGO_PARTNER.id, start: '2026-09-06T00:30', end: '2026-09-06T05:00' },
      as(santiago),
    );
    expect(skipped.status, JSON.stringify(skipped.body)).toBe(400);
    expect(skipped.body.error.details.fields[0].message).toMatch(/does not exist in America\/Santiago/);
  });

  it('answers 400, not 500, to time off at the end of year 9999, and changes nothing', async () => {
    const count = async () =>
      (
        await server.db.sql<
          { n: number }[]
        >`select count(*)::int as n from time_off where business_id = ${BIZ}`
      )[0]!.n;
    const before = await count();
    for (const [start, end] of [
      ['9999-12-31', '9999-12-31'],
      ['9999-12-30T10:00', '9999-12-31'],
      ['2026-04-01', '9999-12-31'],
    ] as const) {
      const res = await server.post(
        '/v1/business/time-off',
        { businessId: BIZ, resourceId: 'bp-van-1', start, end, confirm: true },
        as(owner),
      );
      expect(res.status, `${start}..${end}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
      expect(['start', 'end']).toContain(res.body.error.details.fields[0].field);
    }
    expect(await count()).toBe(before);
    // A list up to year 9999 is refused with the range (dates have ranges); left out, `to` has no end.
    const far = await server.get(`/v1/business/time-off?businessId=${BIZ}&to=9999-12-31`, as(owner));
    expect(far.status, JSON.stringify(far.body)).toBe(400);
    expect(far.body.error.details.reason).toBe('DATE_OUT_OF_RANGE');
    const listed = await server.get(`/v1/business/time-off?businessId=${BIZ}`, as(owner));
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  });
});
