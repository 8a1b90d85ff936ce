// Booking for a business's clients: find_business_times, book_for_client and
// rebook_booking on the demo partner (Boland Paws) over HTTP and MCP: its own resources only, the
// notice it may waive, a new walk-in client for cash and an existing client by card (confirm step
// first), a slot taken meanwhile, a done booking booked again, roles, other businesses' clients and
// bookings, and a Lisbon business's booking tools.
import { createApiKey } from '@nogpets/operations/testing';
import { insertClient } from '@nogpets/store';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payInSandbox, startTestServer, type TestServer, toolJson } from './harness.js';
import { insertPartner, LISBON_PARTNER, STELLENBOSCH_PARTNER } from './partner-fixture.js';

type Json = any;

const BIZ = 'biz_boland_paws';
const OTHER = STELLENBOSCH_PARTNER.id;
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg
const BP_RESOURCES = ['bp-van-1', 'bp-van-2', 'bp-walker', 'bp-sitter'];

const REX = {
  name: 'Rex',
  type: 'DOG',
  weightKg: 14,
  coat: 'SHORT',
  notes: 'Shy of the dryer',
  serviceIds: ['bp-groom-bath'],
};

describe('booking for a business’s clients', () => {
  let server: TestServer;
  const keys = {} as Record<'owner' | 'manager' | 'crew' | 'other' | 'nobody' | 'lisbon' | 'anele', string>;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const key = async (email: string, scopes = ['business:manage']) =>
    (await createApiKey(server.db.sql, { email, scopes: scopes as never })).key;
  const mcp = async (tool: string, who: string, args: Record<string, unknown>) => {
    const client = await server.mcpAs(who);
    const answer = (await client.callTool({ name: tool, arguments: args })) as { isError?: boolean };
    return { isError: answer.isError === true, body: toolJson(answer) };
  };
  const times = (who: string, body: Record<string, unknown>) =>
    server.post('/v1/business/times', body, as(who));
  const bookFor = (who: string, body: Record<string, unknown>) =>
    server.post('/v1/business/bookings', body, as(who));
  const rebook = (who: string, id: string, body: Record<string, unknown>) =>
    server.post(`/v1/business/bookings/${id}/rebook`, body, as(who));
  const count = async (table: 'bookings' | 'business_clients') =>
    Number((await server.db.sql`select count(*)::int as n from ${server.db.sql(table)}`)[0]!.n);

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    await insertPartner(server.db.sql, STELLENBOSCH_PARTNER);
    await insertPartner(server.db.sql, LISBON_PARTNER);
    keys.owner = await key('owner@partner.example');
    keys.manager = await key('manager@partner.example');
    keys.crew = await key('crew@partner.example');
    keys.other = await key('other-owner@example.com');
    keys.nobody = await key('nobody@example.com');
    keys.lisbon = await key('lisbon-owner@example.com');
    keys.anele = await key('anele.dlamini@clients.example', ['bookings:read']);
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${OTHER}, id, 'owner', now() from users where email = 'other-owner@example.com'`;
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${LISBON_PARTNER.id}, id, 'owner', now() from users where email = 'lisbon-owner@example.com'`;
    await server.db.sql`
      insert into bookings (id, business_id, resource_id, line_id, status, payment_method, payment_status, starts_at, ends_at, total_cents, client_name)
      values ('bkg_other_van', ${OTHER}, ${STELLENBOSCH_PARTNER.vanId}, 'grooming', 'ACCEPTED', 'CASH', 'CASH_DUE',
        '2026-03-11T08:00:00Z', '2026-03-11T09:00:00Z', 33000, 'test')`;
    await insertClient(
      server.db.sql,
      { id: 'cli_other_biz', businessId: OTHER, name: 'Someone Else', phone: '+27 21 555 0000', email: null },
      clock.now(),
    );
  }, 60_000);
  afterAll(() => server?.stop());

  it("offers times on the business's own resources only, for any of its services, priced as its quote", async () => {
    const res = await times(keys.owner, { pets: [REX], from: '2026-03-12', to: '2026-03-13' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.businessId).toBe(BIZ);
    expect(res.body.durationMin).toBe(60);
    expect(res.body.quote.subtotalCents).toBe(32000);
    expect(res.body.quote.cardFeeCents).toBe(1000);
    const slots = res.body.days.flatMap((d: Json) => d.slots);
    expect(slots.length).toBeGreaterThan(5);
    expect(new Set(slots.map((s: Json) => s.resourceId))).toEqual(new Set(['bp-van-1', 'bp-van-2']));
    for (const s of slots) expect(BP_RESOURCES).toContain(s.resourceId);
    // The operator's own vans never appear (the operator's demo also runs van-1, van-2).
    expect(JSON.stringify(res.body)).not.toMatch(/"van-\d"/);
    // One resource only.
    const van2 = await times(keys.manager, {
      pets: [REX],
      from: '2026-03-12',
      to: '2026-03-12',
      resourceId: 'bp-van-2',
    });
    expect(van2.status).toBe(200);
    expect(new Set(van2.body.days.flatMap((d: Json) => d.slots.map((s: Json) => s.resourceId)))).toEqual(
      new Set(['bp-van-2']),
    );
    // The same over MCP.
    const overMcp = await mcp('find_business_times', keys.owner, {
      pets: [REX],
      from: '2026-03-12',
      to: '2026-03-13',
    });
    expect(overMcp.isError).toBe(false);
    expect(overMcp.body.days).toEqual(res.body.days);
    // A service it does not have, another business's resource.
    const unknown = await times(keys.owner, { pets: [{ ...REX, serviceIds: ['groom-dog-bath'] }] });
    expect(unknown.status).toBe(400);
    const foreignVan = await times(keys.owner, { pets: [REX], resourceId: 'van-1' });
    expect(foreignVan.status).toBe(404);
  });

  it('keeps two hours of notice unless the business waives it (ignoreNotice), never in the past', async () => {
    const walk = { name: 'Rex', type: 'DOG', weightKg: 14, coat: 'SHORT', serviceIds: ['bp-walk-30'] };
    const today = '2026-03-11';
    const kept = await times(keys.owner, { pets: [walk], from: today, to: today, resourceId: 'bp-walker' });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.minNoticeMin).toBe(120);
    const keptStarts = kept.body.days[0].slots.map((s: Json) => s.time);
    expect(keptStarts[0]).toBe('08:00'); // 06:00 now + 2 hours
    const waived = await times(keys.owner, {
      pets: [walk],
      from: today,
      to: today,
      resourceId: 'bp-walker',
      ignoreNotice: true,
    });
    expect(waived.status).toBe(200);
    expect(waived.body.minNoticeMin).toBe(0);
    expect(waived.body.days[0].slots[0].time).toBe('07:00'); // the walker's first hour
    expect(waived.body.days[0].slots.map((s: Json) => s.time)).toEqual(
      expect.arrayContaining(['07:00', '07:30', ...keptStarts]),
    );
    // Booking a waived-notice time needs the same ignoreNotice: without it the slot is not one.
    const slot = waived.body.days[0].slots[0];
    const body = {
      client: { clientId: 'cli_bp_anele' },
      pets: [{ petId: 'pet_bp_bongo', serviceIds: ['bp-walk-30'] }],
      address: { addressId: 'adr_bp_anele' },
      start: slot.start,
      resourceId: slot.resourceId,
      paymentMethod: 'CASH',
    };
    const refused = await bookFor(keys.owner, body);
    expect(refused.status).toBe(400);
    const asked = await bookFor(keys.owner, { ...body, ignoreNotice: true });
    expect(asked.status).toBe(409);
    expect(asked.body.error.code).toBe('CONFIRM_REQUIRED');
    expect(asked.body.error.details.summary).toContain('07:00');
  });

  it('books a new walk-in client for cash: 409 with a summary and nothing made, then 201', async () => {
    const found = await times(keys.owner, {
      pets: [REX],
      from: '2026-03-12',
      to: '2026-03-12',
      resourceId: 'bp-van-2',
    });
    const slot = found.body.days[0].slots[0];
    const body = {
      client: { name: 'Thandi Walk-in', phone: '+27 82 555 0101' },
      pets: [REX],
      start: slot.start,
      resourceId: slot.resourceId,
      address: {
        line1: '12 Dorp Street',
        suburb: 'Die Boord',
        city: 'Stellenbosch',
        accessNotes: 'Gate code 4321',
      },
      paymentMethod: 'CASH',
      notes: 'Phoned in',
    };
    const [bookings, clients] = [await count('bookings'), await count('business_clients')];
    const asked = await bookFor(keys.manager, body);
    expect(asked.status, JSON.stringify(asked.body)).toBe(409);
    expect(asked.body.error.code).toBe('CONFIRM_REQUIRED');
    expect(asked.body.error.details.summary).toMatch(
      /^Book mobile grooming \(Thandi Walk-in, a new client\) for Rex at 12 Dorp Street, Die Boord, Stellenbosch, Thu, 12 Mar 2026, \d\d:\d\d to \d\d:\d\d\. R320 in cash on the day\. With Van 2 \(Nomsa\)\.$/,
    );
    expect(asked.body.error.details.totalCents).toBe(32000);
    expect(await count('bookings')).toBe(bookings);
    expect(await count('business_clients')).toBe(clients);

    const made = await bookFor(keys.manager, { ...body, confirm: true });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.newClient).toBe(true);
    expect(made.body.payUrl).toBeUndefined();
    const b = made.body.booking;
    expect(b).toMatchObject({
      status: 'PENDING',
      paymentMethod: 'CASH',
      paymentStatus: 'CASH_DUE',
      totalCents: 32000,
      cashToCollect: 'R320',
      resourceId: 'bp-van-2',
      start: slot.start,
      address: '12 Dorp Street, Die Boord, Stellenbosch',
      accessNotes: 'Gate code 4321',
      notes: 'Phoned in',
      client: { clientId: made.body.clientId, name: 'Thandi Walk-in', phone: '+27 82 555 0101', email: null },
    });
    expect(b.pets).toEqual([
      {
        petId: null,
        name: 'Rex',
        type: 'DOG',
        breed: null,
        weightKg: 14,
        coat: 'SHORT',
        notes: 'Shy of the dryer',
        services: ['Bath & brush'],
      },
    ]);
    const [client] = await server.db
      .sql`select user_id, name, phone from business_clients where id = ${made.body.clientId}`;
    expect(client).toMatchObject({ user_id: null, name: 'Thandi Walk-in', phone: '+27 82 555 0101' });
    const [row] = await server.db.sql`
      select user_id, business_id, business_client_id, status from bookings where id = ${b.bookingId}`;
    expect(row).toMatchObject({ user_id: null, business_id: BIZ, business_client_id: made.body.clientId });
    // Audited with the assistant's name.
    const audit = await server.db
      .sql`select action from audit_log where target in (${b.bookingId}, ${made.body.clientId}) order by action`;
    expect(audit.map((a) => a.action)).toEqual([
      'booking.book_for_client',
      'booking.create',
      'client.create',
    ]);
    // The business's list shows it under the new client.
    const listed = await server.get(
      `/v1/business/bookings?from=2026-03-12&to=2026-03-12&clientId=${made.body.clientId}`,
      as(keys.owner),
    );
    expect(listed.body.bookings.map((x: Json) => x.bookingId)).toEqual([b.bookingId]);
    // The slot is gone from the times.
    const again = await times(keys.owner, {
      pets: [REX],
      from: '2026-03-12',
      to: '2026-03-12',
      resourceId: 'bp-van-2',
    });
    expect(again.body.days[0].slots.map((s: Json) => s.start)).not.toContain(slot.start);
  });

  it('books an existing client with an account by card: a 48-hour pay link, in their own bookings, paid through the gateway', async () => {
    const found = await mcp('find_business_times', keys.owner, {
      clientId: 'cli_bp_anele',
      pets: [{ petId: 'pet_bp_bongo', serviceIds: ['bp-walk-60'] }],
      from: '2026-03-13',
      to: '2026-03-13',
    });
    expect(found.isError, JSON.stringify(found.body)).toBe(false);
    const slot = found.body.days[0].slots.at(-1);
    const args = {
      client: { clientId: 'cli_bp_anele' },
      pets: [{ petId: 'pet_bp_bongo', serviceIds: ['bp-walk-60'] }],
      address: { addressId: 'adr_bp_anele' },
      start: slot.start,
      resourceId: slot.resourceId,
      paymentMethod: 'CARD',
    };
    const asked = await mcp('book_for_client', keys.owner, args);
    expect(asked.isError).toBe(true);
    expect(asked.body.error.code).toBe('CONFIRM_REQUIRED');
    expect(asked.body.error.details.summary).toContain('(Anele Dlamini)');
    expect(asked.body.error.details.summary).toContain(
      'R190 by card (a pay link for the client, valid 48 hours)',
    );
    const made = await mcp('book_for_client', keys.owner, { ...args, confirm: true });
    expect(made.isError, JSON.stringify(made.body)).toBe(false);
    expect(made.body.newClient).toBe(false);
    expect(made.body.clientId).toBe('cli_bp_anele');
    expect(made.body.payUrl).toMatch(/\/pay\/npl_/);
    expect(made.body.payLinkExpiresAt).toBe('2026-03-13T04:00:00.000Z');
    const b = made.body.booking;
    expect(b).toMatchObject({
      paymentMethod: 'CARD',
      paymentStatus: 'PENDING',
      totalCents: 19000,
      unpaidCard: { amount: 'R190', linkOpenUntil: '2026-03-13T04:00:00.000Z' },
      client: { clientId: 'cli_bp_anele', name: 'Anele Dlamini' },
    });
    expect(b.pets[0].petId).toBe('pet_bp_bongo');
    // The booking is the client's: it is in their own bookings, and the link opens.
    const own = await server.get('/v1/bookings', as(keys.anele));
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body)).toContain(b.bookingId);
    const page = await fetch(made.body.payUrl);
    expect(page.status).toBe(200);
    await page.body?.cancel();
    expect(await payInSandbox(server, b.bookingId)).toBe(200);
    const [paid] = await server.db.sql`select status, payment_status from bookings where id = ${b.bookingId}`;
    expect(paid).toMatchObject({ status: 'ACCEPTED', payment_status: 'PAID' });
  });

  it('answers SLOT_TAKEN when the time was taken between the summary and the confirmation; nothing made', async () => {
    const found = await times(keys.owner, {
      pets: [REX],
      from: '2026-03-16',
      to: '2026-03-16',
      resourceId: 'bp-van-2',
    });
    const slot = found.body.days[0].slots[0];
    const body = {
      client: { name: 'Late Caller', email: 'late@example.com' },
      pets: [REX],
      start: slot.start,
      resourceId: slot.resourceId,
      paymentMethod: 'CASH',
    };
    expect((await bookFor(keys.owner, body)).status).toBe(409);
    // Meanwhile the manager books it for someone else.
    const other = await bookFor(keys.manager, {
      ...body,
      client: { clientId: 'cli_bp_fatima' },
      pets: [{ petId: 'pet_bp_rex', serviceIds: ['bp-groom-bath'] }],
      address: { addressId: 'adr_bp_fatima' },
      confirm: true,
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const clients = await count('business_clients');
    const late = await bookFor(keys.owner, { ...body, confirm: true });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('SLOT_TAKEN');
    expect(await count('business_clients')).toBe(clients);
  });

  it('books a past done booking again next week: same client, pets, services and address; the old one unchanged', async () => {
    const [old] = await server.db.sql`
      select id, details, address_id, business_client_id, status from bookings
      where business_id = ${BIZ} and resource_id = 'bp-van-1' and status = 'DONE' and starts_at < '2026-03-10T00:00:00Z'
      order by starts_at desc limit 1`;
    expect(old).toBeTruthy();
    const pets = (old!.details as Json).pets;
    const found = await times(keys.manager, {
      clientId: old!.business_client_id,
      pets: pets.map((p: Json) => ({ petId: p.petId, serviceIds: p.serviceIds })),
      from: '2026-03-16',
      to: '2026-03-20',
      resourceId: 'bp-van-1',
    });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    const slot = found.body.days.flatMap((d: Json) => d.slots)[0];
    const asked = await rebook(keys.manager, old!.id, { start: slot.start });
    expect(asked.status, JSON.stringify(asked.body)).toBe(409);
    expect(asked.body.error.details.summary).toMatch(/^Book again mobile grooming \(.+\) for /);
    const made = await rebook(keys.manager, old!.id, {
      start: slot.start,
      paymentMethod: 'CASH',
      confirm: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.rebookOf).toBe(old!.id);
    expect(made.body.clientId).toBe(old!.business_client_id);
    expect(made.body.booking.resourceId).toBe('bp-van-1');
    expect(made.body.booking.start).toBe(slot.start);
    expect(made.body.booking.pets.map((p: Json) => p.petId)).toEqual(pets.map((p: Json) => p.petId));
    const [row] = await server.db
      .sql`select details, address_id from bookings where id = ${made.body.booking.bookingId}`;
    expect((row!.details as Json).pets.map((p: Json) => p.serviceIds)).toEqual(
      pets.map((p: Json) => p.serviceIds),
    );
    expect(row!.address_id).toBe(old!.address_id);
    const [still] = await server.db.sql`select status from bookings where id = ${old!.id}`;
    expect(still!.status).toBe('DONE');
    // Over MCP, a walk-in's booking again (pets and address as told).
    const walkIn = await server.db.sql`
      select b.id from bookings b join business_clients c on c.id = b.business_client_id
      where c.name = 'Thandi Walk-in'`;
    const next = await times(keys.owner, {
      pets: [REX],
      from: '2026-03-19',
      to: '2026-03-19',
      resourceId: 'bp-van-2',
    });
    const again = await mcp('rebook_booking', keys.owner, {
      bookingId: walkIn[0]!.id,
      start: next.body.days[0].slots[0].start,
      confirm: true,
    });
    expect(again.isError, JSON.stringify(again.body)).toBe(false);
    expect(again.body.booking).toMatchObject({
      address: '12 Dorp Street, Die Boord, Stellenbosch',
      accessNotes: 'Gate code 4321',
      paymentMethod: 'CASH',
      client: { name: 'Thandi Walk-in' },
    });
    expect(again.body.booking.pets[0]).toMatchObject({
      name: 'Rex',
      weightKg: 14,
      notes: 'Shy of the dryer',
    });
  });

  type Role = 'owner' | 'manager' | 'crew' | 'other' | 'nobody';
  // A booking of Boland Paws to book again (looked up once the demo is loaded).
  let demoBooking = '';
  const demoBookingId = async () => {
    if (!demoBooking)
      demoBooking = (
        await server.db
          .sql`select id from bookings where business_id = ${BIZ} and resource_id = 'bp-van-2' order by starts_at limit 1`
      )[0]!.id;
    return demoBooking;
  };
  const EXPECTED: Record<Role, [number, string | null]> = {
    owner: [0, null],
    manager: [0, null],
    crew: [403, 'FORBIDDEN'],
    other: [404, 'NOT_FOUND'],
    nobody: [403, 'FORBIDDEN'],
  };
  const ROLE_CALLS = [
    {
      tool: 'find_business_times',
      ok: 200,
      http: (who: string) => times(who, { businessId: BIZ, pets: [REX] }),
      args: { businessId: BIZ, pets: [REX] },
    },
    {
      tool: 'book_for_client',
      ok: 409, // the confirm step: allowed, nothing made
      http: (who: string) =>
        bookFor(who, {
          businessId: BIZ,
          client: { clientId: 'cli_bp_anele' },
          pets: [REX],
          start: '2026-03-18T13:00:00.000Z',
          resourceId: 'bp-van-2',
          paymentMethod: 'CASH',
        }),
      args: {
        businessId: BIZ,
        client: { clientId: 'cli_bp_anele' },
        pets: [REX],
        start: '2026-03-18T13:00:00.000Z',
        resourceId: 'bp-van-2',
        paymentMethod: 'CASH',
      },
    },
    {
      tool: 'rebook_booking',
      ok: 409,
      http: async (who: string) =>
        rebook(who, await demoBookingId(), { businessId: BIZ, start: '2026-03-18T13:00:00.000Z' }),
      args: { businessId: BIZ, bookingId: '', start: '2026-03-18T13:00:00.000Z' },
    },
  ];
  for (const role of Object.keys(EXPECTED) as Role[]) {
    for (const call of ROLE_CALLS) {
      const [status, code] = EXPECTED[role];
      it(`${call.tool} for ${role}: ${status || call.ok} over HTTP and MCP, never another business's data`, async () => {
        const bookings = await count('bookings');
        const res = await call.http(keys[role]);
        const args =
          'bookingId' in call.args ? { ...call.args, bookingId: await demoBookingId() } : call.args;
        const overMcp = await mcp(call.tool, keys[role], args);
        if (status === 0) {
          expect(res.status, JSON.stringify(res.body)).toBe(call.ok);
          if (call.ok === 409) {
            expect(res.body.error.code).toBe('CONFIRM_REQUIRED');
            expect(overMcp.body.error.code).toBe('CONFIRM_REQUIRED');
          } else expect(overMcp.isError).toBe(false);
        } else {
          expect(res.status).toBe(status);
          expect(res.body.error.code).toBe(code);
          expect(overMcp.isError).toBe(true);
          expect(overMcp.body.error.code).toBe(code);
          expect(JSON.stringify(res.body)).not.toMatch(/Anele|bp-van|R320/);
        }
        expect(await count('bookings')).toBe(bookings);
      });
    }
  }

  it("answers 404 for another business's client or booking, the same as a missing one", async () => {
    const base = {
      pets: [REX],
      start: '2026-03-18T07:00:00.000Z',
      resourceId: 'bp-van-2',
      paymentMethod: 'CASH',
    };
    const foreign = await bookFor(keys.owner, { ...base, client: { clientId: 'cli_other_biz' } });
    const missing = await bookFor(keys.owner, { ...base, client: { clientId: 'cli_nope' } });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.body.error.message).toBe('No client cli_other_biz at Boland Paws.');
    expect(JSON.stringify(foreign.body)).not.toContain('Someone Else');
    const foreignTimes = await times(keys.owner, { clientId: 'cli_other_biz', pets: [REX] });
    expect(foreignTimes.status).toBe(404);
    const foreignBooking = await rebook(keys.owner, 'bkg_other_van', { start: '2026-03-18T07:00:00.000Z' });
    expect(foreignBooking.status).toBe(404);
    expect(foreignBooking.body.error.message).toBe('No booking bkg_other_van at Boland Paws.');
    const overMcp = await mcp('rebook_booking', keys.owner, {
      bookingId: 'bkg_other_van',
      start: '2026-03-18T07:00:00.000Z',
    });
    expect(overMcp.body.error.code).toBe('NOT_FOUND');
    // Another client's saved pet is not this client's.
    const notTheirs = await bookFor(keys.owner, {
      ...base,
      client: { clientId: 'cli_bp_anele' },
      pets: [{ petId: 'pet_bp_rex', serviceIds: ['bp-groom-bath'] }],
    });
    expect(notTheirs.status).toBe(404);
  });

  it('answers NOT_AVAILABLE_IN_COUNTRY from a Lisbon business’s three booking tools; its bookings list works', async () => {
    const calls = [
      times(keys.lisbon, { pets: [{ ...REX, serviceIds: [LISBON_PARTNER.serviceId] }] }),
      bookFor(keys.lisbon, {
        client: { name: 'Ana', phone: '+351 91 000 0000' },
        pets: [{ ...REX, serviceIds: [LISBON_PARTNER.serviceId] }],
        start: '2026-03-18T10:00:00.000Z',
        resourceId: LISBON_PARTNER.vanId,
        paymentMethod: 'CARD',
        confirm: true,
      }),
      rebook(keys.lisbon, 'bkg_whatever', { start: '2026-03-18T10:00:00.000Z', confirm: true }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('NOT_AVAILABLE_IN_COUNTRY');
      expect(res.body.error.details.country).toBe('PT');
    }
    const overMcp = await mcp('find_business_times', keys.lisbon, {
      pets: [{ ...REX, serviceIds: [LISBON_PARTNER.serviceId] }],
    });
    expect(overMcp.body.error.code).toBe('NOT_AVAILABLE_IN_COUNTRY');
    const list = await server.get('/v1/business/bookings', as(keys.lisbon));
    expect(list.status).toBe(200);
    expect(list.body.businessId).toBe(LISBON_PARTNER.id);
  });
});
