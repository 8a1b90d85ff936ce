// A business's prices: list_prices and update_prices on the demo partner Boland Paws
// over HTTP and MCP. The list as the catalogue shows it, in words; the confirm step (old → new in
// words, nothing changed before it); a change seen at once by list_services and get_quote even
// with a long-lived offer cache, while bookings already made keep their totals; every role; the
// bounds and tier rules; another business's service; prices in euro (Lisbon) and yen (Tokyo).
import { createApiKey } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, toolJson } from './harness.js';
import {
  insertPartner,
  LISBON_PARTNER,
  type PartnerFixture,
  STELLENBOSCH_PARTNER,
} from './partner-fixture.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const BIZ = 'biz_boland_paws';
const OTHER = STELLENBOSCH_PARTNER.id;
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg

/** A groomer in Tokyo (JP, yen: no minor units). */
const TOKYO_PARTNER: PartnerFixture = {
  ...LISBON_PARTNER,
  id: 'biz_tokyo_trim',
  name: 'Shibuya Trim',
  country: 'JP',
  currency: 'JPY',
  timezone: 'Asia/Tokyo',
  center: { lat: 35.6595, lng: 139.7005 },
  town: 'Tokyo',
  serviceId: 'svc_tokyo_wash',
  priceCents: 6500,
  vanId: 'res_tokyo_van',
  listing: { id: 'dir-tokyo-trim', town: 'tokyo', phone: '+81 3 5555 0100', website: null },
};

type Role = 'owner' | 'manager' | 'crew' | 'other' | 'nobody';
const ROLES: Role[] = ['owner', 'manager', 'crew', 'other', 'nobody'];

describe("a business's prices", () => {
  let server: TestServer;
  const keys = {} as Record<Role | 'lisbon' | 'tokyo', string>;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const key = async (email: string) =>
    (await createApiKey(server.db.sql, { email, scopes: ['business:manage'] })).key;
  const mcp = async (tool: string, who: string, args: Record<string, unknown> = {}) => {
    const client = await server.mcpAs(who);
    const answer = (await client.callTool({ name: tool, arguments: args })) as { isError?: boolean };
    return { isError: answer.isError === true, body: toolJson(answer) };
  };
  const listPrices = (who: string, businessId?: string) =>
    server.get(`/v1/business/prices${businessId ? `?businessId=${businessId}` : ''}`, as(who));
  const update = (who: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    server.post('/v1/business/prices', body, { ...as(who), ...headers });
  const priceOf = async (businessId: string, serviceId: string) => {
    const [row] = await server.db.sql<{ priceCents: number; tiers: Json }[]>`
      select price_cents as "priceCents", tiers from services where business_id = ${businessId} and id = ${serviceId}`;
    return row!;
  };
  const BONGO = { petId: 'pet_bp_bongo', serviceIds: ['bp-groom-bath'] };
  const quote = async (serviceIds: string[], pet = { name: 'Bongo', weightKg: 28, coat: 'LONG' }) => {
    const res = await server.post('/v1/quote', {
      businessId: BIZ,
      category: 'grooming',
      pets: [{ ...pet, type: 'DOG', serviceIds }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  /** A cash booking for Anele's Bongo on Friday through book_for_client, confirmed. */
  const bookBongo = async () => {
    const found = await server.post(
      '/v1/business/times',
      { clientId: 'cli_bp_anele', pets: [BONGO], from: '2026-03-13', to: '2026-03-13' },
      as(keys.owner),
    );
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    const slot = found.body.days[0].slots[0];
    const made = await server.post(
      '/v1/business/bookings',
      {
        client: { clientId: 'cli_bp_anele' },
        pets: [BONGO],
        address: { addressId: 'adr_bp_anele' },
        start: slot.start,
        resourceId: slot.resourceId,
        paymentMethod: 'CASH',
        confirm: true,
      },
      as(keys.owner),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body.booking;
  };

  beforeAll(async () => {
    // A long-lived offer cache, as in production: the change must empty it, not wait for it to expire.
    server = await startTestServer({
      clock,
      database: { demoDataAt: clock.now() },
      env: { OFFER_CACHE_TTL_MS: '600000' },
    });
    await insertPartner(server.db.sql, STELLENBOSCH_PARTNER);
    await insertPartner(server.db.sql, LISBON_PARTNER);
    await insertPartner(server.db.sql, TOKYO_PARTNER);
    keys.owner = await key('owner@partner.example');
    keys.manager = await key('manager@partner.example');
    keys.crew = await key('crew@partner.example');
    keys.other = await key('other-owner@example.com');
    keys.nobody = await key('nobody@example.com');
    keys.lisbon = await key('lisbon-owner@example.com');
    keys.tokyo = await key('tokyo-owner@example.com');
    for (const [businessId, email] of [
      [OTHER, 'other-owner@example.com'],
      [LISBON_PARTNER.id, 'lisbon-owner@example.com'],
      [TOKYO_PARTNER.id, 'tokyo-owner@example.com'],
    ])
      await server.db.sql`
        insert into business_members (business_id, user_id, role, created_at)
        select ${businessId!}, id, 'owner', now() from users where email = ${email!}`;
  }, 60_000);
  afterAll(() => server?.stop());

  it('list_prices shows every service line by line as the catalogue has it, with prices in words, on HTTP and MCP alike', async () => {
    const res = await listPrices(keys.owner);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = res.body;
    expect(list).toMatchObject({
      businessId: BIZ,
      businessName: 'Boland Paws',
      currency: 'ZAR',
      serviceFeeCents: 1000,
      serviceFee: 'R10',
      acceptsCash: true,
    });
    expect(list.lines.map((l: Json) => l.id)).toEqual(['grooming', 'walking', 'sitting']);
    const bath = list.lines[0].services.find((s: Json) => s.serviceId === 'bp-groom-bath');
    expect(bath).toMatchObject({
      name: 'Bath & brush',
      kind: 'PRIMARY',
      priceCents: 32000,
      price: 'R320',
      range: 'R320',
      durationMin: 60,
      tiers: [],
      words: 'Bath & brush: R320 (1 h).',
    });
    const sit = list.lines[2].services.find((s: Json) => s.serviceId === 'bp-sit-overnight');
    expect(sit.words).toBe('Overnight house sit: R400 (14 h).');
    // The same services and prices as the public catalogue.
    const catalogue = await server.get(`/v1/services?businessId=${BIZ}`);
    expect(catalogue.status).toBe(200);
    const flat = (lines: Json[], id: string) =>
      lines.flatMap((l) => l.services.map((s: Json) => [s[id], s.priceCents, s.fromCents, s.toCents]));
    expect(flat(list.lines, 'serviceId')).toEqual(flat(catalogue.body.lines, 'id'));
    // MCP, as the manager, and without businessId (one business): the same answer.
    const overMcp = await mcp('list_prices', keys.manager);
    expect(overMcp.isError, JSON.stringify(overMcp.body)).toBe(false);
    expect(overMcp.body).toEqual(list);
  });

  it('every role: owners and managers list and are asked to confirm a change; crew 403; another business 404; no business 403; on HTTP and MCP', async () => {
    const change = { businessId: BIZ, changes: [{ serviceId: 'bp-groom-bath', priceCents: 1 }] };
    const want: Record<Role, [number, number]> = {
      owner: [200, 409],
      manager: [200, 409],
      crew: [403, 403],
      other: [404, 404],
      nobody: [403, 403],
    };
    const CODE: Record<number, string> = { 403: 'FORBIDDEN', 404: 'NOT_FOUND', 409: 'CONFIRM_REQUIRED' };
    for (const role of ROLES) {
      const [listStatus, updateStatus] = want[role];
      const listed = await listPrices(keys[role], BIZ);
      expect(listed.status, `${role}: ${JSON.stringify(listed.body)}`).toBe(listStatus);
      const listedMcp = await mcp('list_prices', keys[role], { businessId: BIZ });
      expect(listedMcp.isError).toBe(listStatus !== 200);
      if (listStatus !== 200) {
        expect(listed.body.error.code).toBe(CODE[listStatus]);
        expect(listedMcp.body.error.code).toBe(CODE[listStatus]);
        expect(JSON.stringify(listed.body)).not.toContain('Bath & brush');
      }
      // Refused roles are refused with confirm: true too (only the role stands between them and the change).
      for (const confirm of updateStatus === 409 ? [undefined] : [undefined, true]) {
        const body = confirm ? { ...change, confirm } : change;
        const updated = await update(keys[role], body);
        const updatedMcp = await mcp('update_prices', keys[role], body);
        expect(updated.status, `${role}: ${JSON.stringify(updated.body)}`).toBe(updateStatus);
        expect(updated.body.error.code).toBe(CODE[updateStatus]);
        expect(updatedMcp.body.error.code).toBe(CODE[updateStatus]);
        if (updateStatus === 409)
          expect(updated.body.error.details.summary).toContain('Bath & brush: R320 → R0.01');
        else expect(JSON.stringify(updated.body)).not.toContain('Bath & brush');
      }
      if (role === 'crew') expect(listed.body.error.message).toContain('As crew at Boland Paws you may not');
    }
    expect((await priceOf(BIZ, 'bp-groom-bath')).priceCents).toBe(32000);
    const audited = await server.db
      .sql`select count(*)::int as n from audit_log where action = 'business.prices'`;
    expect(audited[0]!.n).toBe(0);
  });

  it('a price change: confirm first (old → new in words, nothing changed), then the catalogue and quotes have it at once; bookings already made keep their totals', async () => {
    const booked = await bookBongo();
    expect(booked).toMatchObject({ totalCents: 32000, paymentMethod: 'CASH' });
    const totalsBefore = await server.db.sql<{ id: string; total: number }[]>`
      select id, total_cents as total from bookings where business_id = ${BIZ} order by id`;
    // Quoted (and the offer cached for ten minutes) before the change.
    expect((await quote(['bp-groom-bath'])).subtotalCents).toBe(32000);
    expect((await quote(['bp-groom-full'])).subtotalCents).toBe(45000);

    const body = {
      changes: [
        { serviceId: 'bp-groom-bath', priceCents: 35000 },
        {
          serviceId: 'bp-groom-full',
          tiers: [
            { petType: 'DOG', maxKg: 10, priceCents: 40000, durationMin: 75 },
            { petType: 'DOG', coat: 'LONG', minKg: 25, priceCents: 56000, durationMin: 120 },
          ],
        },
      ],
    };
    const asked = await update(keys.owner, body, { 'x-client-name': 'Test assistant' });
    expect(asked.status, JSON.stringify(asked.body)).toBe(409);
    expect(asked.body.error.code).toBe('CONFIRM_REQUIRED');
    const summary: string = asked.body.error.details.summary;
    expect(summary).toContain('Change 2 prices at Boland Paws: Bath & brush: R320 → R350; ');
    expect(summary).toContain(
      'Full groom: R450 (1 h 30 min) → dogs, under 10 kg R400 (1 h 15 min); dogs, long coat, 25 kg and over ' +
        'R560 (2 h); otherwise R450 (1 h 30 min).',
    );
    expect(summary).toMatch(
      /The catalogue, quotes and new bookings use the new prices at once; the \d+ bookings still to come with these services keep the price they were booked at\.$/,
    );
    expect(asked.body.error.details.bookingsKeepingPrice).toBeGreaterThanOrEqual(1);
    // Nothing changed before the confirmation.
    expect((await priceOf(BIZ, 'bp-groom-bath')).priceCents).toBe(32000);
    expect((await quote(['bp-groom-bath'])).subtotalCents).toBe(32000);

    const done = await update(keys.owner, { ...body, confirm: true }, { 'x-client-name': 'Test assistant' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.changed.map((c: Json) => c.serviceId)).toEqual(['bp-groom-bath', 'bp-groom-full']);
    expect(done.body.changed[0]).toMatchObject({
      before: { priceCents: 32000, price: 'R320' },
      after: { priceCents: 35000, price: 'R350' },
      words: 'Bath & brush: R320 → R350',
    });
    expect(done.body.services[1].tiers[1]).toMatchObject({
      petType: 'DOG',
      coat: 'LONG',
      minKg: 25,
      priceCents: 56000,
      price: 'R560',
      appliesTo: 'dogs, long coat, 25 kg and over',
    });
    expect(done.body.services[1].range).toBe('R400 to R560');
    expect(done.body.bookingsKeepingPrice).toBe(asked.body.error.details.bookingsKeepingPrice);
    expect(await priceOf(BIZ, 'bp-groom-full')).toEqual({
      priceCents: 45000,
      tiers: [
        { petType: 'DOG', maxKg: 10, priceCents: 40000, durationMin: 75 },
        { coat: 'LONG', petType: 'DOG', minKg: 25, priceCents: 56000, durationMin: 120 },
      ],
    });

    // At once, through the same ten-minute offer cache: quotes and the public catalogue.
    expect((await quote(['bp-groom-bath'])).subtotalCents).toBe(35000);
    const full = await quote(['bp-groom-full']);
    expect(full.subtotalCents).toBe(56000);
    expect(full.durationMin).toBe(120);
    expect((await quote(['bp-groom-full'], { name: 'Pip', weightKg: 6, coat: 'SHORT' })).subtotalCents).toBe(
      40000,
    );
    expect((await quote(['bp-groom-full'], { name: 'Sam', weightKg: 15, coat: 'SHORT' })).subtotalCents).toBe(
      45000,
    );
    const catalogue = (await server.get(`/v1/services?businessId=${BIZ}`)).body;
    const grooming = catalogue.lines.find((l: Json) => l.id === 'grooming');
    expect(grooming.services.find((s: Json) => s.id === 'bp-groom-bath').priceCents).toBe(35000);
    expect(grooming.services.find((s: Json) => s.id === 'bp-groom-full')).toMatchObject({
      fromCents: 40000,
      toCents: 56000,
    });
    // list_prices as the manager over MCP.
    const listed = await mcp('list_prices', keys.manager);
    const bath = listed.body.lines[0].services.find((s: Json) => s.serviceId === 'bp-groom-bath');
    expect(bath.words).toBe('Bath & brush: R350 (1 h).');

    // Bookings already made keep their totals: Bongo's, and every one of the business's.
    const totalsAfter = await server.db.sql<{ id: string; total: number }[]>`
      select id, total_cents as total from bookings where business_id = ${BIZ} order by id`;
    expect(totalsAfter).toEqual(totalsBefore);
    const page = await server.get(
      '/v1/business/bookings?from=2026-03-13&to=2026-03-13&clientId=cli_bp_anele',
      as(keys.owner),
    );
    const same = page.body.bookings.find((b: Json) => b.bookingId === booked.bookingId);
    expect(same).toMatchObject({ totalCents: 32000, total: 'R320' });
    // A booking made now takes the new price.
    expect((await bookBongo()).totalCents).toBe(35000);

    // Audited with the assistant's name: old and new.
    const audit = await server.db.sql<{ clientName: string | null; target: string; details: Json }[]>`
      select client_name as "clientName", target, details from audit_log where action = 'business.prices' order by at, id`;
    const last = audit.at(-1)!;
    expect(last.clientName).toBe('Test assistant');
    expect(last.target).toBe(BIZ);
    expect(last.details.changes[0]).toEqual({
      serviceId: 'bp-groom-bath',
      from: { priceCents: 32000, tiers: [] },
      to: { priceCents: 35000, tiers: [] },
    });

    // The same input again: nothing to change, no confirm needed, nothing audited.
    const again = await update(keys.owner, { ...body, confirm: true });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ changed: [], unchanged: ['bp-groom-bath', 'bp-groom-full'] });
    expect(again.body.message).toContain('Nothing changed');
    const audited = await server.db
      .sql`select count(*)::int as n from audit_log where action = 'business.prices'`;
    expect(audited[0]!.n).toBe(audit.length);
  });

  it('over MCP: the manager changes a price with the confirm step; tiers of a service that has them stay', async () => {
    const args = { changes: [{ serviceId: 'bp-groom-full', priceCents: 47500 }] };
    const asked = await mcp('update_prices', keys.manager, args);
    expect(asked.isError).toBe(true);
    expect(asked.body.error.code).toBe('CONFIRM_REQUIRED');
    expect(asked.body.error.details.summary).toContain(
      'Full groom: R450 → R475 when no tier applies (tiers unchanged)',
    );
    expect((await priceOf(BIZ, 'bp-groom-full')).priceCents).toBe(45000);
    const done = await mcp('update_prices', keys.manager, { ...args, confirm: true });
    expect(done.isError, JSON.stringify(done.body)).toBe(false);
    expect(done.body.changed[0].after).toMatchObject({ priceCents: 47500, price: 'R475' });
    const row = await priceOf(BIZ, 'bp-groom-full');
    expect(row.priceCents).toBe(47500);
    expect(row.tiers).toHaveLength(2);
    expect((await quote(['bp-groom-full'], { name: 'Sam', weightKg: 15, coat: 'SHORT' })).subtotalCents).toBe(
      47500,
    );
  });

  it('bounds and tier rules: 400 naming the field, nothing changed; the highest price and 0 pass', async () => {
    const before = await server.db
      .sql`select id, price_cents, tiers from services where business_id = ${BIZ} order by id`;
    const tier = { petType: 'DOG', priceCents: 30000, durationMin: 60 };
    const bad: [unknown, RegExp][] = [
      [{ changes: [] }, /changes/],
      [
        { changes: Array.from({ length: 101 }, () => ({ serviceId: 'bp-groom-bath', priceCents: 1 })) },
        /changes/,
      ],
      [{ changes: [{ serviceId: 'bp-groom-bath' }] }, /priceCents, tiers or both/],
      [{ changes: [{ serviceId: 'bp-groom-bath', priceCents: -1 }] }, /priceCents/],
      [{ changes: [{ serviceId: 'bp-groom-bath', priceCents: 10_000_001 }] }, /priceCents/],
      [{ changes: [{ serviceId: 'bp-groom-bath', priceCents: 320.5 }] }, /priceCents/],
      [{ changes: [{ serviceId: 'bp-groom-bath', priceCents: '320' }] }, /priceCents/],
      [{ changes: [{ serviceId: 'bp-groom-bath', priceCents: 1, colour: 'red' }] }, /colour|unrecognized/i],
      [
        { changes: [{ serviceId: 'bp-groom-bath', tiers: [{ ...tier, minKg: 20, maxKg: 10 }] }] },
        /minKg must be below maxKg/,
      ],
      [
        { changes: [{ serviceId: 'bp-groom-bath', tiers: [{ ...tier, priceCents: 10_000_001 }] }] },
        /priceCents/,
      ],
      [{ changes: [{ serviceId: 'bp-groom-bath', tiers: Array.from({ length: 25 }, () => tier) }] }, /tiers/],
      [
        { changes: [{ serviceId: 'bp-groom-bath', tiers: [{ ...tier, petType: 'CAT' }] }] },
        /Bath & brush is not offered for cats/,
      ],
      [
        { changes: [{ serviceId: 'bp-groom-bath', tiers: [{ ...tier, durationMin: 3 }] }] },
        /a PRIMARY service takes at least 5 minutes/,
      ],
      [
        {
          changes: [
            { serviceId: 'bp-groom-bath', priceCents: 1 },
            { serviceId: 'bp-groom-bath', priceCents: 2 },
          ],
        },
        /changes\.1\.serviceId: the same service twice/,
      ],
      [
        { changes: [{ serviceId: 'no-such-service', priceCents: 1 }] },
        /no service no-such-service at Boland Paws/,
      ],
      [{ changes: [{ serviceId: 'bad id!', priceCents: 1 }] }, /serviceId/],
    ];
    for (const [body, message] of bad) {
      const res = await update(keys.owner, { ...(body as object), confirm: true });
      const label = `${JSON.stringify(body).slice(0, 200)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
      expect(res.status, label).toBe(400);
      expect(res.body.error.code, label).toBe('BAD_REQUEST');
      expect(JSON.stringify(res.body.error), label).toMatch(message);
    }
    // Over MCP too.
    const overMcp = await mcp('update_prices', keys.owner, {
      changes: [{ serviceId: 'bp-groom-bath', priceCents: 10_000_001 }],
      confirm: true,
    });
    expect(overMcp.isError).toBe(true);
    expect(overMcp.body.error.code).toBe('BAD_REQUEST');
    expect(
      await server.db.sql`select id, price_cents, tiers from services where business_id = ${BIZ} order by id`,
    ).toEqual(before);
    // The bounds themselves are prices: R100 000 and free.
    const edge = await update(keys.owner, {
      changes: [
        { serviceId: 'bp-groom-bath', priceCents: 10_000_000 },
        { serviceId: 'bp-extra-nails', priceCents: 0 },
      ],
    });
    expect(edge.status, JSON.stringify(edge.body)).toBe(409);
    expect(edge.body.error.details.summary).toContain('Bath & brush: R350 → R100,000; Nail clip: R70 → R0');
  });

  it("another business's service id is a 400 in the same words as an unknown one, and that service is untouched", async () => {
    const res = await update(keys.owner, {
      changes: [{ serviceId: STELLENBOSCH_PARTNER.serviceId, priceCents: 1 }],
      confirm: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields).toEqual([
      {
        field: 'changes.0.serviceId',
        message: `no service ${STELLENBOSCH_PARTNER.serviceId} at Boland Paws (list_prices shows its services)`,
      },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('Wash and brush');
    expect((await priceOf(OTHER, STELLENBOSCH_PARTNER.serviceId)).priceCents).toBe(
      STELLENBOSCH_PARTNER.priceCents,
    );
    // And the other business's owner, asking for their own, changes their own (never Boland Paws').
    const theirs = await update(keys.other, {
      changes: [{ serviceId: 'bp-groom-bath', priceCents: 1 }],
      confirm: true,
    });
    expect(theirs.status).toBe(400);
    expect(theirs.body.error.message).toContain(`no service bp-groom-bath at ${STELLENBOSCH_PARTNER.name}`);
    expect((await priceOf(BIZ, 'bp-groom-bath')).priceCents).toBe(35000);
  });

  it('a business in Lisbon (euro) and one in Tokyo (yen, no minor units) list and change their prices in their own money', async () => {
    const lisbon = await listPrices(keys.lisbon);
    expect(lisbon.status, JSON.stringify(lisbon.body)).toBe(200);
    expect(lisbon.body).toMatchObject({ currency: 'EUR', serviceFee: '€8' });
    expect(lisbon.body.lines[0].services[0]).toMatchObject({
      serviceId: LISBON_PARTNER.serviceId,
      priceCents: 3500,
      price: '€35',
      words: 'Wash and brush: €35 (1 h).',
    });
    const euro = { changes: [{ serviceId: LISBON_PARTNER.serviceId, priceCents: 3850 }] };
    const asked = await mcp('update_prices', keys.lisbon, euro);
    expect(asked.body.error.code).toBe('CONFIRM_REQUIRED');
    expect(asked.body.error.details.summary).toContain('Wash and brush: €35 → €38.50');
    const done = await mcp('update_prices', keys.lisbon, { ...euro, confirm: true });
    expect(done.isError, JSON.stringify(done.body)).toBe(false);
    expect((await priceOf(LISBON_PARTNER.id, LISBON_PARTNER.serviceId)).priceCents).toBe(3850);

    const tokyo = await mcp('list_prices', keys.tokyo);
    expect(tokyo.isError, JSON.stringify(tokyo.body)).toBe(false);
    expect(tokyo.body.currency).toBe('JPY');
    expect(tokyo.body.lines[0].services[0]).toMatchObject({ priceCents: 6500, price: '¥6,500' });
    const yen = {
      changes: [
        {
          serviceId: TOKYO_PARTNER.serviceId,
          priceCents: 7000,
          tiers: [{ minKg: 20, priceCents: 9500, durationMin: 90 }],
        },
      ],
    };
    const askedYen = await update(keys.tokyo, yen);
    expect(askedYen.status).toBe(409);
    expect(askedYen.body.error.details.summary).toContain(
      'Wash and brush: ¥6,500 (1 h) → dogs, 20 kg and over ¥9,500 (1 h 30 min); otherwise ¥7,000 (1 h)',
    );
    const doneYen = await update(keys.tokyo, { ...yen, confirm: true });
    expect(doneYen.status, JSON.stringify(doneYen.body)).toBe(200);
    expect(doneYen.body.services[0]).toMatchObject({ priceCents: 7000, range: '¥7,000 to ¥9,500' });
    // Boland Paws is untouched by either.
    expect((await priceOf(BIZ, 'bp-groom-bath')).priceCents).toBe(35000);
  });
});
