// What approval turns on: a partner business in South Africa is bookable through the
// same five tools as the operator's own, by its `businessId`; one outside South Africa answers
// NOT_AVAILABLE_IN_COUNTRY; an unknown id answers 404; no business reads another's bookings or menu.
import { createApiKey } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPetOwner, startTestServer, type TestServer, toolJson } from './harness.js';
import { insertPartner, LISBON_PARTNER, STELLENBOSCH_PARTNER } from './partner-fixture.js';

const ZA = STELLENBOSCH_PARTNER;
const PT = LISBON_PARTNER;
const rex = { name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT' };
const DAY = '2026-11-25'; // a Wednesday: the partner's van works 08:00 to 17:00

describe('booking a partner business (businessId on the booking tools)', () => {
  let server: TestServer;
  let owner: { key: string; petId: string; addressId: string };
  let other: { key: string; petId: string; addressId: string };
  const as = (key: string) => ({ authorization: `Bearer ${key}` });

  /** Asks over HTTP and MCP (with the owner's credential); both doors must give the same answer. */
  async function both(tool: string, method: 'GET' | 'POST', path: string, args: Record<string, unknown>) {
    const http =
      method === 'GET'
        ? await server.get(`${path}?${new URLSearchParams(args as Record<string, string>)}`, as(owner.key))
        : await server.post(path, args, as(owner.key));
    const client = await server.mcpAs(owner.key);
    const mcp = toolJson(await client.callTool({ name: tool, arguments: args }));
    const strip = (b: unknown) => JSON.parse(JSON.stringify(b).replace(/lead_\w+/g, 'lead'));
    expect(strip(mcp)).toEqual(strip(http.body));
    return http;
  }

  beforeAll(async () => {
    const clock = fixedClock('2026-11-23T04:00:00Z'); // Monday 06:00 in Johannesburg
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    await insertPartner(server.db.sql, ZA);
    await insertPartner(server.db.sql, PT);
    owner = await newPetOwner(server, {
      email: 'partner-owner@example.com',
      pet: { name: 'Rex', weightKg: 12 },
      line1: '3 Rustenburg Road',
    });
    other = await newPetOwner(server, {
      email: 'someone-else@example.com',
      pet: { name: 'Bella', weightKg: 8 },
      line1: '9 Rustenburg Road',
    });
  });
  afterAll(() => server?.stop());

  it("lists the partner's own menu with its businessId, and the operator's unchanged without one", async () => {
    const res = await both('list_services', 'GET', '/v1/services', { businessId: ZA.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      businessId: ZA.id,
      businessName: ZA.name,
      currency: 'ZAR',
      serviceFeeCents: 800,
      acceptsCash: false,
      areas: ['Stellenbosch and around'],
    });
    expect(res.body.lines.map((l: { id: string }) => l.id)).toEqual(['grooming']);
    expect(res.body.lines[0].services).toEqual([
      expect.objectContaining({ id: ZA.serviceId, kind: 'PRIMARY', priceCents: ZA.priceCents }),
    ]);

    const own = await server.get('/v1/services');
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ businessId: 'nogpets', businessName: 'NogPets', serviceFeeCents: 1000 });
    expect(own.body.lines.map((l: { id: string }) => l.id)).toEqual(['grooming', 'walking', 'sitting']);
    const ownIds = own.body.lines.flatMap((l: { services: { id: string }[] }) => l.services.map((s) => s.id));
    expect(ownIds).toContain('groom-dog-bath');
    expect(ownIds).not.toContain(ZA.serviceId);
  });

  it("checks coverage against the partner's own area, and notes a place it does not reach as its lead", async () => {
    const covered = await both('check_coverage', 'GET', '/v1/coverage', {
      businessId: ZA.id,
      address: 'Die Boord',
    });
    expect(covered.status).toBe(200);
    expect(covered.body).toMatchObject({
      covered: true,
      lines: [{ id: 'grooming', label: 'Mobile grooming', covered: true }],
    });
    // The suburb is named as people know it, though the partner's area is one radius.
    expect(covered.body.place).toMatchObject({ suburb: 'Die Boord', town: 'Stellenbosch', country: 'ZA' });

    const far = await server.get(`/v1/coverage?businessId=${ZA.id}&address=Franschhoek`);
    expect(far.status).toBe(200);
    expect(far.body).toMatchObject({ covered: false, error: 'NO_COVERAGE' });
    expect(far.body.message).toBe(
      `${ZA.name} does not come to Franschhoek: it serves Stellenbosch, South Africa. The closest area it serves is Stellenbosch and around, 25.2 km away. We've noted your request.`,
    );
    const [lead] = await server.db.sql`select business_id from leads where id = ${far.body.leadId}`;
    expect(lead?.business_id).toBe(ZA.id);
  });

  it("quotes the partner's service at its price, and never one business's service against the other", async () => {
    const res = await both('get_quote', 'POST', '/v1/quote', {
      businessId: ZA.id,
      category: 'grooming',
      address: 'Die Boord',
      pets: [{ ...rex, serviceIds: [ZA.serviceId] }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      category: 'grooming',
      durationMin: ZA.durationMin,
      subtotalCents: ZA.priceCents,
      cardFeeCents: 800,
      cardTotalCents: ZA.priceCents + 800,
      acceptsCash: false,
      pets: [{ name: 'Rex', items: [{ serviceId: ZA.serviceId, priceCents: ZA.priceCents }] }],
    });

    // The partner's service id means nothing to the operator, and the operator's nothing to the partner.
    const partnersAtOperator = await server.post('/v1/quote', {
      category: 'grooming',
      pets: [{ ...rex, serviceIds: [ZA.serviceId] }],
    });
    expect(partnersAtOperator.status).toBe(400);
    expect(partnersAtOperator.body.error.code).toBe('BAD_REQUEST');
    const operatorsAtPartner = await server.post('/v1/quote', {
      businessId: ZA.id,
      category: 'grooming',
      pets: [{ ...rex, serviceIds: ['groom-dog-bath'] }],
    });
    expect(operatorsAtPartner.status).toBe(400);
    // A line the partner does not offer.
    const walk = await server.post('/v1/quote', {
      businessId: ZA.id,
      category: 'walking',
      pets: [{ ...rex, serviceIds: ['walk-solo-60'] }],
    });
    expect(walk.status).toBe(400);
    expect(walk.body.error.message).toBe(`walking is not offered by ${ZA.name}.`);
  });

  it("finds times on the partner's van only, and books one by card for the partner and its van", async () => {
    const request = {
      businessId: ZA.id,
      category: 'grooming',
      addressId: owner.addressId,
      pets: [{ petId: owner.petId, serviceIds: [ZA.serviceId] }],
    };
    const found = await both('find_times', 'POST', '/v1/availability', { ...request, from: DAY, to: DAY });
    expect(found.status).toBe(200);
    const slots = found.body.days[0].slots as { start: string; resourceId: string; time: string }[];
    expect(slots.length).toBeGreaterThan(0);
    expect(new Set(slots.map((s) => s.resourceId))).toEqual(new Set([ZA.vanId]));
    expect(slots[0]!.time).toBe('08:00');
    // The operator's own times are its vans', unchanged.
    const own = await server.post(
      '/v1/availability',
      {
        category: 'grooming',
        addressId: owner.addressId,
        pets: [{ petId: owner.petId, serviceIds: ['groom-dog-bath'] }],
        from: DAY,
        to: DAY,
      },
      as(owner.key),
    );
    expect(own.status).toBe(200);
    const ownVans = new Set(own.body.days[0].slots.map((s: { resourceId: string }) => s.resourceId));
    expect(ownVans.has(ZA.vanId)).toBe(false);
    expect([...ownVans].every((v) => String(v).startsWith('van-'))).toBe(true);

    // Over HTTP: the first slot.
    const first = slots[0]!;
    const booked = await server.post(
      '/v1/bookings',
      { ...request, start: first.start, resourceId: first.resourceId, paymentMethod: 'CARD' },
      as(owner.key),
    );
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body).toMatchObject({
      status: 'PENDING',
      paymentStatus: 'PENDING',
      totalCents: ZA.priceCents + 800,
      total: 'R338',
    });
    expect(booked.body.payUrl).toMatch(/^http/);
    // Over MCP: a later slot (the first is taken now).
    const later = slots.find((s) => Date.parse(s.start) >= Date.parse(first.start) + 2 * 3600_000)!;
    const client = await server.mcpAs(owner.key);
    const viaMcp = toolJson(
      await client.callTool({
        name: 'book',
        arguments: { ...request, start: later.start, resourceId: later.resourceId, paymentMethod: 'CARD' },
      }),
    );
    expect(viaMcp).toMatchObject({ status: 'PENDING', totalCents: ZA.priceCents + 800 });

    const rows = await server.db.sql`
      select id, business_id, resource_id, line_id from bookings where id in ${server.db.sql([booked.body.bookingId, viaMcp.bookingId])}
      order by starts_at`;
    expect(rows.map((r) => [r.business_id, r.resource_id, r.line_id])).toEqual([
      [ZA.id, ZA.vanId, 'grooming'],
      [ZA.id, ZA.vanId, 'grooming'],
    ]);
    // The taken time is gone from the partner's times, and only from the partner's.
    const again = await server.post('/v1/availability', { ...request, from: DAY, to: DAY }, as(owner.key));
    expect(again.body.days[0].slots.map((s: { start: string }) => s.start)).not.toContain(first.start);
  });

  it("keeps a partner's booking its own: the owner manages it on the partner's schedule, nobody else sees it", async () => {
    const [row] = await server.db.sql`
      select id from bookings where business_id = ${ZA.id} order by starts_at limit 1`;
    const bookingId = row!.id as string;

    const mine = await server.get(`/v1/bookings/${bookingId}`, as(owner.key));
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ id: bookingId, category: 'grooming', total: 'R338' });

    // Moving it looks at the partner's van, not the operator's.
    const times = await server.post(`/v1/bookings/${bookingId}/times`, { from: DAY, to: DAY }, as(owner.key));
    expect(times.status, JSON.stringify(times.body)).toBe(200);
    const moveTo = times.body.days[0].slots as { start: string; resourceId: string }[];
    expect(moveTo.length).toBeGreaterThan(0);
    expect(new Set(moveTo.map((s) => s.resourceId))).toEqual(new Set([ZA.vanId]));
    const pay = await server.post(`/v1/bookings/${bookingId}/pay`, {}, as(owner.key));
    expect(pay.status).toBe(200);
    expect(pay.body.total).toBe('R338');

    // Another person: not through get, list, move, pay or cancel.
    expect((await server.get(`/v1/bookings/${bookingId}`, as(other.key))).status).toBe(404);
    const theirs = await server.get('/v1/bookings', as(other.key));
    expect(theirs.status).toBe(200);
    expect(theirs.body.bookings.map((b: { id: string }) => b.id)).not.toContain(bookingId);
    expect((await server.post(`/v1/bookings/${bookingId}/times`, {}, as(other.key))).status).toBe(404);
    expect((await server.post(`/v1/bookings/${bookingId}/pay`, {}, as(other.key))).status).toBe(404);
    const cancel = await server.post(`/v1/bookings/${bookingId}/cancel`, { confirm: true }, as(other.key));
    expect(cancel.status).toBe(404);
    const client = await server.mcpAs(other.key);
    const overMcp = toolJson(await client.callTool({ name: 'get_booking', arguments: { bookingId } }));
    expect(overMcp.error.code).toBe('NOT_FOUND');
  });

  it('answers 409 NOT_AVAILABLE_IN_COUNTRY from all five tools for a business outside South Africa', async () => {
    const pets = [{ petId: owner.petId, serviceIds: [PT.serviceId] }];
    const calls: [string, 'GET' | 'POST', string, Record<string, unknown>][] = [
      ['list_services', 'GET', '/v1/services', { businessId: PT.id }],
      ['check_coverage', 'GET', '/v1/coverage', { businessId: PT.id, address: 'Graça, Lisboa' }],
      [
        'get_quote',
        'POST',
        '/v1/quote',
        { businessId: PT.id, category: 'grooming', pets: [{ ...rex, serviceIds: [PT.serviceId] }] },
      ],
      [
        'find_times',
        'POST',
        '/v1/availability',
        { businessId: PT.id, category: 'grooming', addressId: owner.addressId, pets },
      ],
      [
        'book',
        'POST',
        '/v1/bookings',
        {
          businessId: PT.id,
          category: 'grooming',
          addressId: owner.addressId,
          pets,
          start: '2026-11-25T09:00:00Z',
          resourceId: PT.vanId,
          paymentMethod: 'CARD',
        },
      ],
    ];
    for (const [tool, method, path, args] of calls) {
      const res = await both(tool, method, path, args);
      expect(res.status, tool).toBe(409);
      expect(res.body.error, tool).toEqual({
        code: 'NOT_AVAILABLE_IN_COUNTRY',
        message: `${PT.name} is in Portugal: bookings with ${PT.name} are made directly with them, not through NogPets (its booking tools book businesses in South Africa). Reach them by phone ${PT.listing.phone} or website ${PT.listing.website}.`,
        details: {
          businessId: PT.id,
          country: 'PT',
          phone: PT.listing.phone,
          website: PT.listing.website,
        },
      });
    }
    expect(
      (await server.db.sql`select count(*)::int as n from bookings where business_id = ${PT.id}`)[0]?.n,
    ).toBe(0);
  });

  it('answers an unknown businessId with the same 404 on all five tools, and a malformed one with a 400', async () => {
    const pets = [{ petId: owner.petId, serviceIds: [ZA.serviceId] }];
    for (const id of ['biz_nobody', 'nogpets-but-not']) {
      const calls: [string, 'GET' | 'POST', string, Record<string, unknown>][] = [
        ['list_services', 'GET', '/v1/services', { businessId: id }],
        ['check_coverage', 'GET', '/v1/coverage', { businessId: id, address: 'Die Boord' }],
        ['get_quote', 'POST', '/v1/quote', { businessId: id, category: 'grooming', pets }],
        [
          'find_times',
          'POST',
          '/v1/availability',
          { businessId: id, category: 'grooming', addressId: owner.addressId, pets },
        ],
        [
          'book',
          'POST',
          '/v1/bookings',
          {
            businessId: id,
            category: 'grooming',
            addressId: owner.addressId,
            pets,
            start: '2026-11-25T09:00:00Z',
            resourceId: ZA.vanId,
            paymentMethod: 'CARD',
          },
        ],
      ];
      for (const [tool, method, path, args] of calls) {
        const res = await both(tool, method, path, args);
        expect(res.status, tool).toBe(404);
        expect(res.body.error, tool).toEqual({
          code: 'NOT_FOUND',
          message: `No business ${id}. Take the businessId from the directory's bookWith (find_pet_businesses), or leave it out for NogPets itself.`,
          details: { businessId: id },
        });
      }
    }
    for (const bad of ['has space', 'x'.repeat(129), '', 'dot.ted']) {
      const res = await server.post('/v1/quote', {
        businessId: bad,
        category: 'grooming',
        pets: [{ ...rex, serviceIds: ['groom-dog-bath'] }],
      });
      expect(res.status, bad).toBe(400);
      expect(res.body.error.details.fields[0].field).toBe('businessId');
    }
  });

  it("says in the directory's bookWith how to book each partner, and keeps NogPets' own listing as it was", async () => {
    const res = await server.get('/v1/directory?limit=50');
    expect(res.status).toBe(200);
    const byId = new Map(res.body.listings.map((l: { id: string }) => [l.id, l]));
    expect(byId.get('dir-nogpets')).toMatchObject({
      partner: true,
      isNogPets: true,
      businessId: null,
      bookWith:
        'Book with NogPets itself: list_services, check_coverage, get_quote, find_times, then book (no business id needed).',
    });
    expect(byId.get(ZA.listing.id)).toMatchObject({
      partner: true,
      isNogPets: false,
      businessId: ZA.id,
      bookWith: `Book ${ZA.name} with our booking tools: pass businessId "${ZA.id}" to list_services (its own menu and service ids), check_coverage, get_quote, find_times, then book.`,
    });
    expect(byId.get(PT.listing.id)).toMatchObject({
      partner: true,
      isNogPets: false,
      businessId: null,
      bookWith: `Not bookable through our booking tools: ${PT.name} is outside South Africa (they answer NOT_AVAILABLE_IN_COUNTRY for it). Book directly with them by phone ${PT.listing.phone} or website ${PT.listing.website}.`,
    });
    // Partners first: the three businesses on the service lead the list.
    expect(res.body.listings.slice(0, 3).every((l: { partner: boolean }) => l.partner)).toBe(true);
    const client = await server.mcp();
    expect(
      toolJson(await client.callTool({ name: 'find_pet_businesses', arguments: { limit: 50 } })),
    ).toEqual(res.body);
  });

  it('describes businessId on each tool, over OpenAPI and MCP, as the one to take from bookWith', async () => {
    const client = await server.mcp();
    const { tools } = await client.listTools();
    for (const name of ['list_services', 'check_coverage', 'get_quote', 'find_times', 'book']) {
      const tool = tools.find((t) => t.name === name)!;
      const prop = (tool.inputSchema.properties as Record<string, { description?: string; pattern?: string }>)
        .businessId;
      expect(prop?.description, name).toMatch(/from the directory's `bookWith`/);
      expect(prop?.pattern, name).toBe('^[A-Za-z0-9_-]{1,128}$');
      expect(tool.inputSchema.required ?? [], name).not.toContain('businessId');
    }
    const doc = (await server.get('/v1/openapi.json')).body;
    const services = doc.paths['/v1/services'].get;
    const param = services.parameters.find((p: { name: string }) => p.name === 'businessId');
    expect(param).toMatchObject({ in: 'query', schema: { pattern: '^[A-Za-z0-9_-]{1,128}$' } });
    expect(param.required ?? false).toBe(false);
    expect(param.description ?? param.schema.description).toMatch(/from the directory's `bookWith`/);
    expect(services.responses['404']).toBeDefined();
    expect(services.responses['409'].description).toMatch(/NOT_AVAILABLE_IN_COUNTRY/);
    expect(doc.components.schemas.NotAvailableInCountryDetails.required).toEqual(['businessId', 'country']);
  });

  it('keeps the operator the default: a business key of another person cannot reach the partner through the operator', async () => {
    // The same service id, asked of the operator by name, finds nothing of the partner's.
    const { key } = await createApiKey(server.db.sql, {
      email: 'third@example.com',
      scopes: ['bookings:read'],
    });
    const list = await server.get('/v1/bookings', as(key));
    expect(list.body.bookings).toEqual([]);
    const quote = await server.post('/v1/quote', {
      businessId: 'nogpets',
      category: 'grooming',
      pets: [{ ...rex, serviceIds: [ZA.serviceId] }],
    });
    expect(quote.status).toBe(400);
  });
});
