// Every kind of area a partner's application can propose: a radius around a
// point, suburbs by name, postal codes alone, and all three mixed, each approved by the operator.
// Every public and booking tool answers for each, over HTTP and MCP alike, and never with a 5xx:
// a suburb covers the places of that suburb, a postal code the places of that code, a radius the
// points within it; a place outside them is a NO_COVERAGE. A partner none of whose areas is
// approved yet covers nothing and says so.
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPetOwner, startTestServer, type TestServer, toolJson } from './harness.js';
import { approvedPartner } from './review-fixture.js';

const DIE_BOORD = { lat: -33.9477, lng: 18.8502 };
const FRANSCHHOEK = { lat: -33.9133, lng: 19.1169 };

/** The application's area (set_service_area's input) and what a person there should be told. */
const KINDS = {
  radius: {
    area: { radiusKm: 4, center: { lat: -33.9346, lng: 18.8602 }, centerName: 'the salon' },
    areas: ['4 km around the salon'],
    // A suburb of the same postal code within the radius is in it.
    sameCodeOtherSuburb: true,
    day: '2026-11-25',
  },
  suburbs: {
    area: { suburbs: [{ name: 'Die Boord', postalCode: '7600' }, { name: 'Dalsig' }] },
    areas: ['Die Boord (7600)', 'Dalsig'],
    // Mostertsdrift shares 7600 with Die Boord, but the partner did not list it.
    sameCodeOtherSuburb: false,
    day: '2026-11-26',
  },
  postalCodes: {
    area: { postalCodes: ['7600'] },
    areas: ['Postal code 7600'],
    sameCodeOtherSuburb: true,
    day: '2026-11-27',
  },
  mixed: {
    area: {
      radiusKm: 1,
      center: { lat: -33.9336, lng: 18.8805 },
      centerName: 'Mostertsdrift',
      suburbs: [{ name: 'Die Boord' }],
      postalCodes: ['7681'],
    },
    areas: ['1 km around Mostertsdrift', 'Die Boord', 'Postal code 7681'],
    sameCodeOtherSuburb: true,
    day: '2026-11-30',
  },
} as const;
type Kind = keyof typeof KINDS;

describe("a partner's approved areas of every kind, on every public and booking tool", () => {
  let server: TestServer;
  let owner: { key: string; petId: string; addressId: string };
  const partners = {} as Record<Kind | 'pending', { businessId: string; serviceId: string; vanId: string }>;
  const as = () => ({ authorization: `Bearer ${owner.key}` });

  /** The same request over HTTP and MCP (the owner's credential): the same answer, never a 5xx. */
  async function both(tool: string, method: 'GET' | 'POST', path: string, args: Record<string, unknown>) {
    const http =
      method === 'GET'
        ? await server.get(`${path}?${new URLSearchParams(args as Record<string, string>)}`, as())
        : await server.post(path, args, as());
    expect(http.status, JSON.stringify(http.body)).toBeLessThan(500);
    const client = await server.mcpAs(owner.key);
    const mcp = toolJson(await client.callTool({ name: tool, arguments: args }));
    const strip = (b: unknown) => JSON.parse(JSON.stringify(b).replace(/lead_\w+/g, 'lead'));
    expect(strip(mcp)).toEqual(strip(http.body));
    return http;
  }

  beforeAll(async () => {
    const clock = fixedClock('2026-11-23T04:00:00Z'); // Monday 06:00 in Johannesburg
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    for (const [kind, k] of Object.entries(KINDS))
      partners[kind as Kind] = await approvedPartner(server, `${kind}@partner-areas.example`, {
        name: `Areas ${kind}`,
        area: k.area,
      });
    partners.pending = await approvedPartner(server, 'pending@partner-areas.example', {
      name: 'Areas pending',
      area: { suburbs: [{ name: 'Die Boord', postalCode: '7600' }] },
      approveAreas: false,
    });
    owner = await newPetOwner(server, {
      email: 'areas-owner@example.com',
      pet: { name: 'Rex', weightKg: 12 },
      line1: '4 Rustenburg Road',
    });
  });
  afterAll(() => server?.stop());

  describe.each(Object.keys(KINDS) as Kind[])('areas of kind %s', (kind) => {
    const k = KINDS[kind];
    const p = () => partners[kind];
    const coverage = (where: Record<string, unknown>) =>
      both('check_coverage', 'GET', '/v1/coverage', { businessId: p().businessId, ...where });

    it('list_services names the approved areas', async () => {
      const res = await both('list_services', 'GET', '/v1/services', { businessId: p().businessId });
      expect(res.status).toBe(200);
      expect(res.body.areas).toEqual(k.areas);
    });

    it('check_coverage: the suburb by address, its postal code and its point are covered; Franschhoek is not', async () => {
      const byAddress = await coverage({ address: '12 Dorp Street, Die Boord, Stellenbosch' });
      expect(byAddress.status).toBe(200);
      expect(byAddress.body).toMatchObject({
        covered: true,
        place: { suburb: 'Die Boord', town: 'Stellenbosch', country: 'ZA' },
        lines: [
          { id: 'grooming', covered: true },
          { id: 'walking', covered: true },
        ],
      });
      const byCode = await coverage({ postalCode: '7600' });
      expect(byCode.status).toBe(200);
      expect(byCode.body).toMatchObject({ covered: true, place: { postalCode: '7600' } });
      const byPoint = await coverage(DIE_BOORD);
      expect(byPoint.status).toBe(200);
      expect(byPoint.body.covered).toBe(true);

      for (const where of [{ address: 'Franschhoek' }, FRANSCHHOEK]) {
        const far = await coverage(where);
        expect(far.status).toBe(200);
        expect(far.body).toMatchObject({ covered: false, error: 'NO_COVERAGE' });
        expect(far.body.message).toContain(`Areas ${kind} does not come to`);
      }
    });

    it(`check_coverage: another suburb of the same postal code is ${k.sameCodeOtherSuburb ? '' : 'not '}covered`, async () => {
      const res = await coverage({ address: 'Mostertsdrift' });
      expect(res.status).toBe(200);
      expect(res.body.covered).toBe(k.sameCodeOtherSuburb);
    });

    it('get_quote: priced in the suburb, 409 NO_COVERAGE in Franschhoek', async () => {
      const pets = [{ name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: [p().serviceId] }];
      const quote = { businessId: p().businessId, category: 'grooming', pets };
      const inside = await both('get_quote', 'POST', '/v1/quote', { ...quote, address: 'Die Boord' });
      expect(inside.status, JSON.stringify(inside.body)).toBe(200);
      expect(inside.body).toMatchObject({ category: 'grooming', subtotalCents: 45000 });
      const byCode = await both('get_quote', 'POST', '/v1/quote', { ...quote, postalCode: '7600' });
      expect(byCode.status, JSON.stringify(byCode.body)).toBe(200);
      const outside = await both('get_quote', 'POST', '/v1/quote', { ...quote, address: 'Franschhoek' });
      expect(outside.status).toBe(409);
      expect(outside.body.error.code).toBe('NO_COVERAGE');
    });

    it('find_times, book, find_reschedule_times and reschedule_booking at the saved address in Die Boord', async () => {
      const request = {
        businessId: p().businessId,
        category: 'grooming',
        addressId: owner.addressId,
        pets: [{ petId: owner.petId, serviceIds: [p().serviceId] }],
      };
      const found = await both('find_times', 'POST', '/v1/availability', {
        ...request,
        from: k.day,
        to: k.day,
      });
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      const slots = found.body.days[0].slots as { start: string; resourceId: string }[];
      expect(slots.length).toBeGreaterThan(3);
      expect(new Set(slots.map((s) => s.resourceId))).toEqual(new Set([p().vanId]));

      const byHttp = await server.post(
        '/v1/bookings',
        { ...request, start: slots[0]!.start, resourceId: slots[0]!.resourceId, paymentMethod: 'CARD' },
        as(),
      );
      expect(byHttp.status, JSON.stringify(byHttp.body)).toBe(201);
      const client = await server.mcpAs(owner.key);
      const later = slots.find((s) => Date.parse(s.start) >= Date.parse(slots[0]!.start) + 2 * 3600_000)!;
      const byMcp = toolJson(
        await client.callTool({
          name: 'book',
          arguments: { ...request, start: later.start, resourceId: later.resourceId, paymentMethod: 'CARD' },
        }),
      );
      expect(byMcp, JSON.stringify(byMcp)).toMatchObject({ status: 'PENDING' });
      const [row] = await server.db.sql`select business_id from bookings where id = ${byHttp.body.bookingId}`;
      expect(row?.business_id).toBe(p().businessId);

      const bookingId = byHttp.body.bookingId as string;
      const times = await both('find_reschedule_times', 'POST', `/v1/bookings/${bookingId}/times`, {
        bookingId,
        from: k.day,
        to: k.day,
      });
      expect(times.status, JSON.stringify(times.body)).toBe(200);
      const moveTo = (times.body.days[0].slots as { start: string; resourceId: string }[]).filter(
        (s) => s.start !== slots[0]!.start && Date.parse(s.start) >= Date.parse(later.start) + 2 * 3600_000,
      );
      expect(moveTo.length).toBeGreaterThan(1);
      const moved = await server.post(
        `/v1/bookings/${bookingId}/reschedule`,
        { start: moveTo[0]!.start, resourceId: moveTo[0]!.resourceId },
        as(),
      );
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      const movedByMcp = toolJson(
        await client.callTool({
          name: 'reschedule_booking',
          arguments: {
            bookingId: byMcp.bookingId,
            start: moveTo.at(-1)!.start,
            resourceId: moveTo.at(-1)!.resourceId,
          },
        }),
      );
      expect(movedByMcp, JSON.stringify(movedByMcp)).toMatchObject({ bookingId: byMcp.bookingId });
    });
  });

  it('a partner none of whose areas is approved yet covers nothing, and says so on every tool', async () => {
    const businessId = partners.pending.businessId;
    const services = await both('list_services', 'GET', '/v1/services', { businessId });
    expect(services.status).toBe(200);
    expect(services.body.areas).toEqual([]);
    for (const where of [{ address: 'Die Boord' }, { postalCode: '7600' }, DIE_BOORD]) {
      const res = await both('check_coverage', 'GET', '/v1/coverage', { businessId, ...where });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ covered: false, error: 'NO_COVERAGE' });
    }
    const request = {
      businessId,
      category: 'grooming',
      pets: [{ petId: owner.petId, serviceIds: [partners.pending.serviceId] }],
    };
    const quote = await both('get_quote', 'POST', '/v1/quote', { ...request, address: 'Die Boord' });
    expect(quote.status).toBe(409);
    expect(quote.body.error.code).toBe('NO_COVERAGE');
    const times = await both('find_times', 'POST', '/v1/availability', {
      ...request,
      addressId: owner.addressId,
      from: '2026-11-25',
      to: '2026-11-25',
    });
    expect(times.status).toBe(409);
    expect(times.body.error.code).toBe('NO_COVERAGE');
  });
});
