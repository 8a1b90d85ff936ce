// Sign-up end to end: a groomer in Stellenbosch signs up through an assistant (MCP, every step),
// the operator approves from the CLI, and a pet owner books the new business through the same
// booking tools as the operator's own. A groomer in Lisbon is approved too, and the booking tools
// answer NOT_AVAILABLE_IN_COUNTRY for it.
import { createApiKey } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, newPetOwner, startTestServer, type TestServer, toolJson } from './harness.js';

const HOURS = {
  mon: [{ start: '08:00', end: '17:00' }],
  tue: [{ start: '08:00', end: '17:00' }],
  wed: [{ start: '08:00', end: '12:00' }],
  thu: [{ start: '08:00', end: '17:00' }],
  fri: [{ start: '08:00', end: '17:00' }],
};
const DAY = '2026-11-25'; // a Wednesday

describe('from sign-up to a booking with the new business', () => {
  let server: TestServer;
  const run = (...args: string[]) => cli(server.db.url, args);
  /** The summary each application's submit showed before its confirm. */
  const summaries = new Map<string, string>();

  beforeAll(async () => {
    const clock = fixedClock('2026-11-23T04:00:00Z'); // Monday 06:00 in Johannesburg
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
  });
  afterAll(() => server?.stop());

  /** Signs up a business through the MCP tools as its owner, and sends it for review. */
  async function signUpOverMcp(
    email: string,
    details: Record<string, unknown>,
    steps: {
      area: Record<string, unknown>;
      services: Record<string, unknown>;
      gateway?: string;
      resource?: Record<string, unknown>;
      staff?: Record<string, unknown>[];
    },
  ) {
    const { key } = await createApiKey(server.db.sql, { email, scopes: ['business:write'] });
    const client = await server.mcpAs(key);
    const call = async (name: string, args: Record<string, unknown>) =>
      toolJson(await client.callTool({ name, arguments: args }));
    const started = await call('start_business_signup', details);
    expect(started.status, JSON.stringify(started)).toBe('DRAFT');
    const applicationId = started.applicationId as string;
    const services = await call('add_business_services', { applicationId, ...steps.services });
    expect(services.services.length, JSON.stringify(services)).toBeGreaterThan(0);
    const area = await call('set_service_area', { applicationId, ...steps.area });
    expect(area.areas, JSON.stringify(area)).toHaveLength(1);
    // Business hours first: set without resourceIds they become every resource's week, so a walker
    // added after keeps a week of its own.
    await call('set_operating_hours', { applicationId, week: HOURS });
    await call('add_resources', {
      applicationId,
      resources: [steps.resource ?? { kind: 'VAN', name: 'Van 1' }],
    });
    if (steps.staff) {
      const invited = await call('invite_staff', { applicationId, people: steps.staff });
      expect(invited.staff, JSON.stringify(invited)).toHaveLength(steps.staff.length);
    }
    if (steps.gateway) await call('connect_gateway', { applicationId, merchantId: steps.gateway });
    const unconfirmed = await call('submit_business_for_review', { applicationId });
    expect(unconfirmed.error?.code, JSON.stringify(unconfirmed)).toBe('CONFIRM_REQUIRED');
    summaries.set(applicationId, String(unconfirmed.error.details.summary));
    const sent = await call('submit_business_for_review', { applicationId, confirm: true });
    expect(sent.status, JSON.stringify(sent)).toBe('SUBMITTED');
    return { applicationId, areaId: area.areas[0].id as string, key, call };
  }

  it('a Stellenbosch groomer signs up over MCP, is approved, listed, and booked through the booking tools', async () => {
    const { applicationId, areaId, call } = await signUpOverMcp(
      'eikestad-groom@example.com',
      {
        businessName: 'Eikestad Mobile Grooming',
        town: 'Stellenbosch',
        country: 'ZA',
        phone: '082 555 0199',
        categories: ['grooming'],
        mode: 'MOBILE',
      },
      {
        services: { useTemplate: true, priceAdjustPct: -10 },
        area: { radiusKm: 10, center: { lat: -33.9346, lng: 18.8668 }, centerName: 'Stellenbosch' },
        gateway: '10000100',
      },
    );
    // Not bookable before the operator approves it.
    const listedBefore = await server.get('/v1/directory?q=Eikestad%20Mobile%20Grooming');
    expect(
      listedBefore.body.listings.some((l: { name: string }) => l.name === 'Eikestad Mobile Grooming'),
    ).toBe(false);

    const approved = await run('application', 'approve', applicationId);
    expect(approved.status, approved.stderr).toBe(0);
    expect((await run('area', 'approve', areaId)).status).toBe(0);
    const status = await call('get_signup_status', { applicationId });
    expect(status.application.status).toBe('APPROVED');

    // The directory lists it as a partner, with the businessId to book it by.
    const listed = await server.get('/v1/directory?town=stellenbosch&q=Eikestad%20Mobile%20Grooming');
    expect(listed.status).toBe(200);
    const listing = listed.body.listings.find((l: { name: string }) => l.name === 'Eikestad Mobile Grooming');
    expect(listing).toMatchObject({ partner: true, isNogPets: false });
    const businessId = listing.businessId as string;
    expect(businessId).toBeTruthy();
    expect(listing.bookWith).toContain(businessId);

    // Its menu is the operator's at 10% less, in rand.
    const own = await server.get('/v1/services');
    const theirs = await server.get(`/v1/services?businessId=${businessId}`);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    expect(theirs.body.lines.map((l: { id: string }) => l.id)).toEqual(['grooming']);
    // Paid by card through the operator's gateway, at the operator's card fee.
    expect(theirs.body.serviceFeeCents).toBe(own.body.serviceFeeCents);
    expect(own.body.serviceFeeCents).toBe(1000);
    const ownBath = own.body.lines[0].services.find(
      (s: { name: string }) => s.name === 'Dog bath, blow-dry & brush-out',
    );
    const theirBath = theirs.body.lines[0].services.find(
      (s: { name: string }) => s.name === 'Dog bath, blow-dry & brush-out',
    );
    expect(theirBath.priceCents).toBe(Math.round((ownBath.priceCents * 0.9) / 100) * 100);

    // A pet owner books it: times on its own van, in its own hours (Wednesday until 12:00).
    const owner = await newPetOwner(server, {
      email: 'rex-owner@example.com',
      pet: { name: 'Rex', weightKg: 12 },
      line1: '3 Rustenburg Road',
    });
    const as = { authorization: `Bearer ${owner.key}` };
    const request = {
      businessId,
      category: 'grooming',
      addressId: owner.addressId,
      pets: [{ petId: owner.petId, serviceIds: [theirBath.id] }],
    };
    const times = await server.post('/v1/availability', { ...request, from: DAY, to: DAY }, as);
    expect(times.status, JSON.stringify(times.body)).toBe(200);
    const slots = times.body.days[0].slots as { start: string; time: string; resourceId: string }[];
    expect(slots.length).toBeGreaterThan(0);
    expect(slots[0]!.time).toBe('08:00');
    expect(slots.every((s) => s.time < '12:00')).toBe(true);
    const booked = await server.post(
      '/v1/bookings',
      { ...request, start: slots[0]!.start, resourceId: slots[0]!.resourceId, paymentMethod: 'CARD' },
      as,
    );
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const quote = await server.post('/v1/quote', request, as);
    expect(quote.body).toMatchObject({ cardFeeCents: 1000 });
    expect(booked.body.totalCents).toBe(quote.body.subtotalCents + 1000);
    const [row] = await server.db.sql`select business_id from bookings where id = ${booked.body.bookingId}`;
    expect(row!.business_id).toBe(businessId);
  });

  it('a Lisbon groomer is approved and listed, and the booking tools say it is not bookable here', async () => {
    const { applicationId, areaId } = await signUpOverMcp(
      'lisboa-groom@example.com',
      {
        businessName: 'Banho & Tosquia Lisboa',
        town: 'Lisbon',
        phone: '+351 912 345 678',
        timezone: 'Europe/Lisbon',
        categories: ['grooming'],
        mode: 'SALON',
        payoutPreference: { method: 'Wise' },
      },
      {
        services: {
          services: [
            {
              category: 'grooming',
              kind: 'PRIMARY',
              name: 'Banho completo',
              petTypes: ['DOG'],
              priceCents: 3500,
              durationMin: 60,
            },
          ],
        },
        area: { postalCodes: ['1100-001'] },
      },
    );
    expect((await run('application', 'approve', applicationId)).status).toBe(0);
    expect((await run('area', 'approve', areaId)).status).toBe(0);
    const listed = await server.get('/v1/directory?q=Banho%20Tosquia%20Lisboa');
    const listing = listed.body.listings.find((l: { name: string }) => l.name === 'Banho & Tosquia Lisboa');
    expect(listing).toMatchObject({ partner: true });
    const { key } = await createApiKey(server.db.sql, {
      email: 'someone@example.com',
      scopes: ['bookings:read'],
    });
    const client = await server.mcpAs(key);
    const [business] = await server.db.sql`
      select b.id from businesses b join business_applications a on a.business_id = b.id where a.id = ${applicationId}`;
    const http = await server.get(`/v1/services?businessId=${business!.id}`);
    expect(http.status).toBe(409);
    expect(http.body.error).toMatchObject({ code: 'NOT_AVAILABLE_IN_COUNTRY', details: { country: 'PT' } });
    const quote = toolJson(
      await client.callTool({
        name: 'get_quote',
        arguments: {
          businessId: business!.id,
          category: 'grooming',
          pets: [{ name: 'Bolt', type: 'DOG', weightKg: 10, coat: 'SHORT', serviceIds: ['x'] }],
        },
      }),
    );
    expect(quote.error.code).toBe('NOT_AVAILABLE_IN_COUNTRY');
    // Its listing says so too (no businessId to book it by), and how to reach it instead.
    expect(listing.businessId).toBeNull();
    expect(listing.bookWith).toMatch(/NOT_AVAILABLE_IN_COUNTRY|directly|not bookable/i);
  });

  it('a Tokyo walker signs up over MCP in yen with a walker of its own week and a crew member, and is not bookable here', async () => {
    const { applicationId, areaId, call } = await signUpOverMcp(
      'shibuya-walks@example.com',
      { businessName: 'Shibuya Walks', town: 'Tokyo', phone: '+81 3-1234-5678', categories: ['walking'] },
      {
        services: {
          services: [
            {
              category: 'walking',
              kind: 'PRIMARY',
              name: 'Sanpo 60',
              petTypes: ['DOG'],
              priceCents: 1500,
              durationMin: 60,
            },
          ],
        },
        area: { postalCodes: ['150-0002'] },
        resource: {
          kind: 'WALKER',
          name: 'Aiko',
          week: { mon: [{ start: '07:00', end: '10:00' }], sat: [{ start: '08:00', end: '12:00' }] },
        },
        staff: [{ email: 'aiko@example.com', role: 'crew', jobTitle: 'Walker' }],
      },
    );
    // Yen have no minor units: 1500 is ¥1,500, said so in the summary the person agreed to.
    expect(summaries.get(applicationId)).toMatch(/Sanpo 60 ¥1,500/);
    const status = await call('get_signup_status', { applicationId });
    expect(status.application).toMatchObject({ country: 'JP', currency: 'JPY', timezone: 'Asia/Tokyo' });
    expect((await run('application', 'approve', applicationId)).status).toBe(0);
    expect((await run('area', 'approve', areaId)).status).toBe(0);
    const [business] = await server.db.sql`
      select b.id, b.currency, b.timezone from businesses b join business_applications a on a.business_id = b.id
      where a.id = ${applicationId}`;
    expect(business).toMatchObject({ currency: 'JPY', timezone: 'Asia/Tokyo' });
    const [walker] = await server.db.sql`select week from resources where business_id = ${business!.id}`;
    expect(walker!.week).toMatchObject({ mon: [{ start: '07:00', end: '10:00' }] });
    const invited = await server.db.sql`
      select role, job_title from business_invitations where business_id = ${business!.id}`;
    expect(invited).toEqual([{ role: 'crew', job_title: 'Walker' }]);
    const times = await server.post('/v1/availability', {
      businessId: business!.id,
      category: 'walking',
      address: 'Shibuya, Tokyo',
      pets: [{ name: 'Hachi', type: 'DOG', weightKg: 20, coat: 'SHORT', serviceIds: ['x'] }],
    });
    expect(times.status, JSON.stringify(times.body)).toBe(409);
    expect(times.body.error).toMatchObject({ code: 'NOT_AVAILABLE_IN_COUNTRY', details: { country: 'JP' } });
  });
});
