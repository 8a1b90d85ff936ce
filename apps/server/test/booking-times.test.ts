import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, toolJson } from './harness.js';

const rex = {
  name: 'Rex',
  type: 'DOG',
  weightKg: 12,
  coat: 'SHORT',
  serviceIds: ['groom-dog-bath', 'extra-teeth'],
};
const groom = { category: 'grooming', address: 'Die Boord', pets: [rex] };

describe('getQuote / get_quote and findTimes / find_times', () => {
  let server: TestServer;
  const leads = async () => (await server.db.sql`select count(*)::int as n from leads`)[0]?.n as number;

  /** Asks over HTTP and MCP; both doors must give the same answer. */
  async function both(tool: string, path: string, body: Record<string, unknown>) {
    const http = await server.post(path, body);
    const client = await server.mcp();
    const mcp = toolJson(await client.callTool({ name: tool, arguments: body }));
    const strip = (b: any) => JSON.parse(JSON.stringify(b).replace(/lead_\w+/g, 'lead'));
    expect(strip(mcp)).toEqual(strip(http.body));
    return http;
  }

  beforeAll(async () => {
    // Demo bookings are laid out from the day the data is loaded: the clock is set before that.
    const clock = fixedClock('2026-11-23T04:00:00Z'); // Monday 06:00 in Johannesburg
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
  });
  afterAll(() => server?.stop());

  it('prices pets by value with their tiers, the same over HTTP and MCP', async () => {
    const res = await both('get_quote', '/v1/quote', groom);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      category: 'grooming',
      durationMin: 70,
      subtotalCents: 45000,
      cardFeeCents: 1000,
      cardTotalCents: 46000,
      cashTotalCents: 45000,
      acceptsCash: true,
      pets: [
        {
          name: 'Rex',
          items: [
            { serviceId: 'groom-dog-bath', priceCents: 38000 },
            { serviceId: 'extra-teeth', priceCents: 7000 },
          ],
        },
      ],
    });
    expect(res.body.summary).toMatch(/R450 cash or R460 by card/);
  });

  it('quotes without a place, and sums grooming pets one after another', async () => {
    const mia = { name: 'Mia', type: 'CAT', weightKg: 4, coat: 'LONG', serviceIds: ['groom-cat-bath'] };
    const res = await server.post('/v1/quote', { category: 'grooming', pets: [rex, mia] });
    expect(res.status).toBe(200);
    expect(res.body.durationMin).toBe(70 + 75);
  });

  it.each([
    [{ ...groom, pets: [{ ...rex, serviceIds: ['extra-teeth'] }] }, 'NO_PRIMARY'],
    [{ ...groom, pets: [{ ...rex, serviceIds: ['groom-cat-bath'] }] }, 'WRONG_PET_TYPE'],
    [{ ...groom, pets: [{ ...rex, serviceIds: ['walk-solo-30'] }] }, 'WRONG_LINE'],
    [{ ...groom, pets: [{ ...rex, serviceIds: ['nope'] }] }, 'UNKNOWN_SERVICE'],
  ])('refuses services that do not fit the pet with a 400 naming it (%#)', async (body, reason) => {
    const res = await both('get_quote', '/v1/quote', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', details: { reason, pet: 'Rex' } });
  });

  it.each([
    [{ ...groom, pets: [] }, 'pets'],
    [{ ...groom, pets: Array(11).fill(rex) }, 'pets'],
    [{ ...groom, pets: [{ ...rex, weightKg: 0 }] }, 'pets.0'],
    [{ ...groom, pets: [{ ...rex, weightKg: 150.1 }] }, 'pets.0'],
    [{ ...groom, pets: [{ ...rex, name: 'x'.repeat(61) }] }, 'pets.0'],
    [{ ...groom, category: 'bathing' }, 'category'],
    [{ ...groom, address: 'x'.repeat(301) }, 'address'],
    [{ ...groom, postalCode: '7600' }, '(input)'],
    [{ ...groom, surprise: true }, 'surprise'],
  ])('refuses a bad request with 400 naming the field (%#)', async (body, field) => {
    const res = await server.post('/v1/quote', body);
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field).join(' ')).toContain(field);
  });

  it('needs a credential for saved pets and addresses', async () => {
    const res = await both('get_quote', '/v1/quote', {
      category: 'grooming',
      addressId: 'addr_1',
      pets: [{ petId: 'pet_1', serviceIds: ['groom-dog-bath'] }],
    });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('answers 409 NO_COVERAGE with a message and a lead for a place not served, and for a line that does not reach it', async () => {
    const before = await leads();
    const abroad = await both('get_quote', '/v1/quote', { ...groom, address: 'Paris, France' });
    expect(abroad.status).toBe(409);
    expect(abroad.body.error).toMatchObject({
      code: 'NO_COVERAGE',
      details: { message: expect.stringContaining('Paris'), leadId: expect.any(String) },
    });
    const walk = await server.post('/v1/quote', {
      category: 'walking',
      address: 'Jonkershoek',
      pets: [{ ...rex, serviceIds: ['walk-solo-30'] }],
    });
    expect(walk.status).toBe(409);
    expect(walk.body.error.details.message).toMatch(
      /Dog walking does not reach Jonkershoek; mobile grooming and pet sitting does/,
    );
    // Paris over HTTP and MCP is one anonymous caller's one lead (asked twice); the walk is another.
    expect(await leads()).toBe(before + 2);
    const unknown = await server.post('/v1/quote', { ...groom, address: 'the blue house' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('UNKNOWN_PLACE');
  });

  it('finds open times by day with slots to book, the same over HTTP and MCP', async () => {
    const res = await both('find_times', '/v1/availability', groom);
    expect(res.status).toBe(200);
    expect(res.body.durationMin).toBe(70);
    expect(res.body.quote.subtotalCents).toBe(45000);
    expect(res.body.days.map((d: { date: string }) => d.date)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    const [today] = res.body.days;
    expect(today.label).toBe('Today');
    // Now is 06:00; two hours' notice: the first start is 08:00.
    expect(today.slots[0]).toEqual({ start: '2026-11-23T06:00:00.000Z', time: '08:00', resourceId: 'van-1' });
    // The demo's full days: Saturday, and the third day from the load.
    expect(res.body.days[5].slots).toEqual([]);
    expect(res.body.days[3].slots).toEqual([]);
  });

  it('answers 409 NO_AVAILABILITY with the reason and the next open times when nothing is open', async () => {
    const before = await leads();
    const full = await both('find_times', '/v1/availability', {
      ...groom,
      from: '2026-11-28',
      to: '2026-11-29',
    });
    expect(full.status).toBe(409);
    expect(full.body.error).toMatchObject({ code: 'NO_AVAILABILITY', details: { reason: 'FULLY_BOOKED' } });
    expect(full.body.error.details.alternatives[0]).toMatchObject({ date: '2026-11-30', time: '08:00' });
    expect(full.body.error.details.leadId).toBeUndefined();
    const closed = await server.post('/v1/availability', { ...groom, from: '2026-11-29', to: '2026-11-29' });
    expect(closed.body.error.details.reason).toBe('CLOSED_DAY');
    const late = await server.post('/v1/availability', {
      ...groom,
      windowStart: '18:00',
      windowEnd: '20:00',
    });
    expect(late.body.error.details.reason).toBe('OUTSIDE_HOURS');
    expect(await leads()).toBe(before);
  });

  it('refuses a range wholly in the past with a 400 and no lead, and starts a range begun in the past today', async () => {
    const before = await leads();
    const past = await both('find_times', '/v1/availability', {
      ...groom,
      from: '2026-11-16',
      to: '2026-11-20',
    });
    expect(past.status).toBe(400);
    expect(past.body.error).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'The dates asked for are in the past; today is 2026-11-23.',
      details: { fields: [{ field: 'to' }] },
    });
    expect(await leads()).toBe(before);
    const begun = await both('find_times', '/v1/availability', {
      ...groom,
      from: '2026-11-20',
      to: '2026-11-25',
    });
    expect(begun.status, JSON.stringify(begun.body)).toBe(200);
    expect(begun.body.days.map((d: { date: string }) => d.date)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
    ]);
    expect(begun.body.days.some((d: { slots: unknown[] }) => d.slots.length > 0)).toBe(true);
  });

  it('keeps a lead when nothing is open within 14 days', async () => {
    await server.db
      .sql`insert into time_off (id, business_id, starts_at, ends_at, reason) values ('closed-test', 'nogpets', '2027-02-01T00:00:00Z', '2027-03-01T00:00:00Z', 'Closed for the test')`;
    try {
      const res = await server.post('/v1/availability', { ...groom, from: '2027-02-01', to: '2027-02-07' });
      expect(res.status).toBe(409);
      expect(res.body.error.details).toMatchObject({
        alternatives: [],
        leadId: expect.stringMatching(/^lead_/),
      });
      const [lead] = await server.db
        .sql`select reason, operation from leads where id = ${res.body.error.details.leadId}`;
      expect(lead).toMatchObject({ reason: 'NO_AVAILABILITY', operation: 'findTimes' });
    } finally {
      await server.db.sql`delete from time_off where id = 'closed-test'`;
    }
  });

  it.each([
    [{ from: '2026-13-45' }, 'from'],
    [{ from: '2026-02-30' }, 'from'],
    [{ to: '2026-11-31' }, 'to'],
    [{ from: '2026-12-02', to: '2026-12-01' }, 'to'],
    [{ windowStart: '25:00' }, 'windowStart'],
    [{ windowStart: '10:00', windowEnd: '09:00' }, 'windowEnd'],
    [
      {
        category: 'sitting',
        pets: [{ ...rex, serviceIds: ['sit-overnight'] }],
        stay: { startDate: '2026-12-20', nights: 31 },
      },
      'stay.nights',
    ],
    [
      {
        category: 'sitting',
        pets: [{ ...rex, serviceIds: ['sit-dropin-30'] }],
        visits: { startDate: '2026-12-20', days: 2, perDay: 5 },
      },
      'visits.perDay',
    ],
  ])(
    'refuses bad dates, times and plans with 400 naming the field, never a 500 (%#)',
    async (extra, field) => {
      const res = await server.post('/v1/availability', { ...groom, ...extra });
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field).join(' ')).toContain(field);
    },
  );

  it('accepts 31 days and refuses 32', async () => {
    expect(
      (await server.post('/v1/availability', { ...groom, from: '2026-12-01', to: '2026-12-31' })).body.days,
    ).toHaveLength(31);
    const res = await server.post('/v1/availability', { ...groom, from: '2026-12-01', to: '2027-01-01' });
    expect(res.status).toBe(400);
    expect(res.body.error.details.reason).toBe('RANGE_TOO_LONG');
  });

  it('keeps a group walk open until it is full', async () => {
    const walk = (n: number) => ({
      category: 'walking',
      address: 'Die Boord',
      from: '2026-11-24',
      to: '2026-11-24',
      windowStart: '15:00',
      windowEnd: '16:00',
      pets: Array.from({ length: n }, (_, i) => ({
        ...rex,
        name: `Dog ${i}`,
        serviceIds: ['walk-group-60'],
      })),
    });
    // walker-2 already has 3 dogs on the 15:00 group walk; capacity 4.
    const one = await server.post('/v1/availability', walk(1));
    expect(one.body.days[0].slots.map((s: { resourceId: string }) => s.resourceId)).toEqual([
      'walker-1',
      'walker-2',
    ]);
    const two = await server.post('/v1/availability', walk(2));
    expect(two.body.days[0].slots.map((s: { resourceId: string }) => s.resourceId)).toEqual(['walker-1']);
  });

  it('plans a two-night stay with one sitter, priced per night', async () => {
    const res = await both('find_times', '/v1/availability', {
      category: 'sitting',
      address: 'Die Boord',
      pets: [{ ...rex, serviceIds: ['sit-overnight'] }],
      stay: { startDate: '2026-12-20', nights: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mode: 'STAY', windows: [{ start: '17:30', end: '07:30' }] });
    expect(res.body.plan).toHaveLength(2);
    expect(new Set(res.body.plan.map((p: { resourceId: string }) => p.resourceId)).size).toBe(1);
    expect(res.body.quote.subtotalCents).toBe(2 * 38000);
    // Its days are named as every line's are, with the year for a day in another year.
    expect(res.body.days.map((d: { label: string }) => d.label)).toEqual([
      'Sunday 20 December',
      'Monday 21 December',
    ]);
    const newYear = await server.post('/v1/availability', {
      category: 'sitting',
      address: 'Die Boord',
      pets: [{ ...rex, serviceIds: ['sit-overnight'] }],
      stay: { startDate: '2027-01-04', nights: 2 },
    });
    expect(newYear.status, JSON.stringify(newYear.body)).toBe(200);
    expect(newYear.body.days.map((d: { label: string }) => d.label)).toEqual([
      'Monday 4 January 2027',
      'Tuesday 5 January 2027',
    ]);
    const january = await server.post('/v1/availability', { ...groom, from: '2027-01-04', to: '2027-01-04' });
    expect(january.body.days[0].label).toBe('Monday 4 January 2027');
    const visits = await server.post('/v1/availability', {
      category: 'sitting',
      address: 'Die Boord',
      pets: [{ ...rex, serviceIds: ['sit-dropin-30'] }],
      visits: { startDate: '2026-12-01', days: 3, perDay: 2 },
    });
    expect(visits.body).toMatchObject({ mode: 'VISITS' });
    expect(visits.body.plan).toHaveLength(6);
    const wrong = await server.post('/v1/availability', {
      ...groom,
      stay: { startDate: '2026-12-20', nights: 2 },
    });
    expect(wrong.status).toBe(400);
  });

  it('marks both tools read-only and idempotent', async () => {
    const client = await server.mcp();
    const { tools } = await client.listTools();
    // A time free on two walkers comes twice (once per resourceId): the tool says to show it once.
    expect(tools.find((t) => t.name === 'find_times')?.description).toMatch(
      /listed once per van, walker or sitter[\s\S]*show the person each `time` once per day/,
    );
    for (const name of ['get_quote', 'find_times']) {
      expect(tools.find((t) => t.name === name)?.annotations).toMatchObject({
        readOnlyHint: true,
        idempotentHint: true,
        destructiveHint: false,
      });
    }
  });
});
