// What the spec says, kept. Sitting that starts inside the notice says so (PAST)
// and offers the next stays or visits that can be booked; directory listings of businesses on
// NogPets carry their hours and prices; find_reschedule_times defaults to the next 7 days.
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookFirstCardSlot, newPetOwner, startTestServer, type TestServer, toolJson } from './harness.js';

// Monday 23 November 2026, 19:52 in Johannesburg: a stay arriving 17:30 today is inside the notice.
const NOW = '2026-11-23T17:52:00Z';
const TODAY = '2026-11-23';

describe('what the spec says, kept', () => {
  let server: TestServer;
  const clock = fixedClock(NOW);

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const sittingByValue = {
    category: 'sitting',
    address: '12 Dorp Street, Die Boord, Stellenbosch',
    pets: [{ name: 'Rex', type: 'DOG', weightKg: 12.5, coat: 'SHORT', serviceIds: ['sit-overnight'] }],
  };

  it('a stay starting today at 19:52 is too soon (PAST), not fully booked, and the next stays are offered and bookable', async () => {
    const asked = await server.post('/v1/availability', {
      ...sittingByValue,
      stay: { startDate: TODAY, nights: 2 },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(409);
    const details = asked.body.error.details;
    expect(asked.body.error.code).toBe('NO_AVAILABILITY');
    expect(details.reason).toBe('PAST');
    expect(details.message).toMatch(/too soon/);
    expect(details.message).not.toMatch(/fully booked|No sitter is free/i);
    expect(details.leadId).toBeUndefined();
    // The next stays like it (two nights, arriving 17:30), soonest first, each with the stay to send.
    expect(details.alternatives.length).toBeGreaterThan(0);
    const [first] = details.alternatives;
    expect(first).toMatchObject({
      date: '2026-11-24',
      time: '17:30',
      start: '2026-11-24T15:30:00.000Z',
      stay: { startDate: '2026-11-24', nights: 2 },
    });
    expect(details.message).toContain('2026-11-24 at 17:30');
    const dates = details.alternatives.map((a: { date: string }) => a.date);
    expect(dates).toEqual([...dates].sort());

    // The alternative is what find_times offers for it, and a person can book it.
    const offered = await server.post('/v1/availability', { ...sittingByValue, stay: first.stay });
    expect(offered.status, JSON.stringify(offered.body)).toBe(200);
    expect(offered.body.plan[0]).toMatchObject({ start: first.start, resourceId: first.resourceId });

    const owner = await newPetOwner(server, {
      email: 'spec-kept-stay@example.com',
      pet: { name: 'Kwezi', weightKg: 12 },
      line1: '9 Bird Street',
    });
    const as = { authorization: `Bearer ${owner.key}` };
    const booking = {
      category: 'sitting',
      addressId: owner.addressId,
      pets: [{ petId: owner.petId, serviceIds: ['sit-overnight'] }],
      paymentMethod: 'CARD',
    };
    // Booking the stay asked for says the same true reason, with the same alternatives.
    const refused = await server.post(
      '/v1/bookings',
      { ...booking, stay: { startDate: TODAY, nights: 2 } },
      as,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toMatchObject({ reason: 'PAST' });
    expect(refused.body.error.details.alternatives[0]).toEqual(first);
    const booked = await server.post('/v1/bookings', { ...booking, stay: first.stay }, as);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.start).toBe(first.start);
  });

  it('visits whose windows today are past are too soon too, the same over MCP', async () => {
    const body = {
      ...sittingByValue,
      pets: [{ ...sittingByValue.pets[0], serviceIds: ['sit-dropin-30'] }],
      visits: { startDate: TODAY, days: 2, perDay: 2 },
    };
    const http = await server.post('/v1/availability', body);
    expect(http.status).toBe(409);
    expect(http.body.error.details).toMatchObject({
      reason: 'PAST',
      unplanned: [
        { date: TODAY, window: 'morning', reason: 'PAST' },
        { date: TODAY, window: 'evening', reason: 'PAST' },
      ],
    });
    const [next] = http.body.error.details.alternatives;
    expect(next).toMatchObject({
      date: '2026-11-24',
      visits: { startDate: '2026-11-24', days: 2, perDay: 2 },
    });

    const client = await server.mcp();
    const answer = await client.callTool({ name: 'find_times', arguments: body });
    expect(answer.isError).toBe(true);
    expect(toolJson(answer)).toEqual(http.body);
  });

  it('partners and NogPets publish their hours (when any resource works) and prices; other listings have none known', async () => {
    const res = await server.get('/v1/directory?town=stellenbosch&limit=50');
    expect(res.status).toBe(200);
    type Listing = { name: string; partner: boolean; hours: any; prices: any[] | null };
    const listings = res.body.listings as Listing[];
    const byName = (name: string) => listings.find((l) => l.name === name)!;

    const day = [{ start: '07:00', end: '19:30' }];
    // NogPets: its sitters work 07:00-19:30 Monday to Saturday, the vans and walkers inside that.
    const nogpets = byName('NogPets');
    expect(nogpets.hours).toEqual({
      timezone: 'Africa/Johannesburg',
      week: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day },
      words:
        'Mon 07:00-19:30; Tue 07:00-19:30; Wed 07:00-19:30; Thu 07:00-19:30; Fri 07:00-19:30; Sat 07:00-19:30',
    });
    expect(nogpets.prices).toContainEqual({
      serviceId: 'groom-dog-bath',
      name: expect.any(String),
      line: 'Mobile grooming',
      kind: 'PRIMARY',
      currency: 'ZAR',
      fromCents: 30000,
      toCents: 72000,
      range: 'R300 to R720',
    });
    // Boland Paws' sitter also works Sundays.
    const boland = byName('Boland Paws');
    expect(Object.keys(boland.hours.week)).toEqual(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
    expect(boland.prices).toContainEqual(
      expect.objectContaining({
        serviceId: 'bp-groom-bath',
        fromCents: 32000,
        toCents: 32000,
        range: 'R320',
      }),
    );
    expect(boland.prices).toHaveLength(9);

    const others = listings.filter((l) => !l.partner);
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((l) => l.hours === null && l.prices === null)).toBe(true);

    // A partner's published hours follow its working hours: a resource no longer active stops counting.
    await server.db
      .sql`update resources set active = false where business_id = 'biz_boland_paws' and kind = 'SITTER'`;
    try {
      const after = (await server.get('/v1/directory?town=stellenbosch&limit=50')).body.listings as Listing[];
      const moved = after.find((l) => l.name === 'Boland Paws')!;
      expect(moved.hours.week.sun).toBeUndefined();
      expect(moved.hours.week.mon).toEqual([{ start: '07:00', end: '18:00' }]);
    } finally {
      await server.db
        .sql`update resources set active = true where business_id = 'biz_boland_paws' and kind = 'SITTER'`;
    }
  });

  it('find_reschedule_times without dates answers the next 7 days, today first, over HTTP and MCP', async () => {
    const owner = await newPetOwner(server, {
      email: 'spec-kept-move@example.com',
      pet: { name: 'Bongo', weightKg: 14 },
      line1: '11 Bird Street',
    });
    const { bookingId } = await bookFirstCardSlot(server, owner, '2026-11-27');
    const as = { authorization: `Bearer ${owner.key}` };
    const week = [
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ];
    for (const body of [undefined, {}]) {
      const res = await server.post(`/v1/bookings/${bookingId}/times`, body, as);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.days.map((d: { date: string }) => d.date)).toEqual(week);
    }
    // Only `from`: seven days from it.
    const from = await server.post(`/v1/bookings/${bookingId}/times`, { from: '2026-12-01' }, as);
    expect(from.body.days.map((d: { date: string }) => d.date)).toEqual([
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05',
      '2026-12-06',
      '2026-12-07',
    ]);
    const client = await server.mcpAs(owner.key);
    const overMcp = toolJson(
      await client.callTool({ name: 'find_reschedule_times', arguments: { bookingId } }),
    );
    expect(overMcp.days.map((d: { date: string }) => d.date)).toEqual(week);
  });
});
