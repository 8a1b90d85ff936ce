// The business sign-up after its first step: services, area, resources, hours, staff, PayFast and
// sending for review. A groomer in Lisbon (EUR, a DST week), a walker in Tokyo (JPY, no minor
// units) and a groomer in Stellenbosch (ZAR, our menu at -10%, PayFast) go through every step on
// HTTP; a walker in Stellenbosch does it on MCP. Bounds, other people's applications, submitted ones.
import { createApiKey } from '@nogpets/operations/testing';
import { findSlots } from '@nogpets/slot-engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, toolJson } from './harness.js';

type Item = { id: string; status: string; missing: string[]; fixWith: string; note: string | null };
type Answer = Awaited<ReturnType<TestServer['post']>>;
// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const STEPS = ['services', 'area', 'resources', 'hours', 'staff', 'gateway', 'submit'] as const;
type Step = (typeof STEPS)[number];

describe('business sign-up steps', () => {
  let server: TestServer;
  const keyFor = async (email: string) =>
    `Bearer ${(await createApiKey(server.db.sql, { email, scopes: ['business:write'] })).key}`;
  const item = (answer: { checklist: Item[] }, id: string) =>
    answer.checklist.find((i: Json) => i.id === id)!;
  const start = async (auth: string, body: Record<string, unknown>) => {
    const res = await server.post('/v1/business/applications', body, { authorization: auth });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.applicationId as string;
  };
  const step = (auth: string, id: string, path: Step, body: unknown, headers: Record<string, string> = {}) =>
    server.post(`/v1/business/applications/${id}/${path}`, body, { authorization: auth, ...headers });
  const ok = async (p: Promise<Answer>): Promise<Json> => {
    const res = await p;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  /** What the steps store, to show a refused request changed nothing. */
  const stored = async (id: string) => {
    const [row] = await server.db.sql`
      select status, services, area, resources, business_hours, staff_invites, gateway, updated_at
      from business_applications where id = ${id}`;
    return row;
  };
  const audited = async (id: string) =>
    (
      await server.db.sql<{ action: string }[]>`select action from audit_log where target = ${id} order by id`
    ).map((r: Json) => r.action);

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  it('takes a Lisbon groomer through every step: euros in cents, local hours that keep to summer time, no PayFast', async () => {
    const as = await keyFor('tosquia@example.com');
    const id = await start(as, {
      businessName: 'Tosquia Móvel Alfama',
      town: 'Lisboa',
      phone: '+351 912 345 000',
      timezone: 'Europe/Lisbon',
      categories: ['grooming'],
      mode: 'MOBILE',
      payoutPreference: { method: 'Wise' },
    });

    // Our menu in euros: copied without prices, each to be priced.
    const template = await ok(step(as, id, 'services', { useTemplate: true }));
    expect(template.services.length).toBeGreaterThan(5);
    expect(template.services.every((s: Json) => s.category === 'grooming')).toBe(true);
    expect(template.services[0]).toMatchObject({
      priceCents: null,
      price: null,
      needsPrice: true,
      fromTemplate: true,
      tiers: [],
    });
    expect(item(template, 'services')).toMatchObject({ status: 'NEEDS_ATTENTION' });
    expect(item(template, 'services').missing[0]).toMatch(/^a price for .+ \(EUR\)$/);
    // A service with the template's name (any case) replaces it: priced now, no longer marked.
    const priced = await ok(
      step(as, id, 'services', {
        services: [
          {
            category: 'grooming',
            kind: 'PRIMARY',
            name: 'DOG FULL GROOM',
            petTypes: ['DOG'],
            priceCents: 4550,
            durationMin: 90,
          },
        ],
      }),
    );
    const full = priced.services.filter((s: Json) => s.name.toLowerCase() === 'dog full groom');
    expect(full).toEqual([
      expect.objectContaining({ priceCents: 4550, price: '€45.50', fromTemplate: false, needsPrice: false }),
    ]);
    expect(full[0].id).toBe(template.services.find((s: Json) => s.name === 'Dog full groom').id);
    // Starting over with their own menu: €35 is 3500 cents.
    const services = await ok(
      step(as, id, 'services', {
        replace: true,
        services: [
          {
            category: 'grooming',
            kind: 'PRIMARY',
            name: 'Banho e escovagem',
            blurb: 'Banho, secagem e escovagem.',
            petTypes: ['DOG'],
            priceCents: 3500,
            durationMin: 60,
            tiers: [
              { petType: 'DOG', minKg: 0, maxKg: 10, priceCents: 3500, durationMin: 60 },
              { petType: 'DOG', minKg: 10, priceCents: 4800, durationMin: 75 },
            ],
          },
          {
            category: 'grooming',
            kind: 'EXTRA',
            name: 'Corte de unhas',
            petTypes: ['DOG', 'CAT'],
            priceCents: 800,
            durationMin: 0,
          },
        ],
      }),
    );
    expect(services.services.map((s: Json) => [s.name, s.price])).toEqual([
      ['Banho e escovagem', '€35'],
      ['Corte de unhas', '€8'],
    ]);
    expect(item(services, 'services').status).toBe('DONE');
    expect(services.next).toMatch(/set_service_area/);

    // A radius around Lisbon, and a Portuguese 7600 that is not Stellenbosch's 7600. A street that
    // names no town is not found, and a radius around nothing would cover nothing.
    const unknown = await step(as, id, 'area', { radiusKm: 8, centerAddress: 'Rua Augusta 100' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('UNKNOWN_PLACE');
    const area = await ok(
      step(as, id, 'area', {
        radiusKm: 8,
        centerAddress: 'Lisbon',
        centerName: 'Lisboa',
        postalCodes: ['1100-148', '7600'],
      }),
    );
    expect(area.areas).toEqual([
      expect.objectContaining({
        name: '8 km around Lisboa',
        kind: 'RADIUS',
        status: 'PENDING',
        radiusKm: 8,
        center: { lat: expect.closeTo(38.72, 1), lng: expect.closeTo(-9.13, 1) },
      }),
      expect.objectContaining({ name: 'Postal code 1100-148', kind: 'POSTAL_CODE', postalCode: '1100-148' }),
      expect.objectContaining({ name: 'Postal code 7600', kind: 'POSTAL_CODE', center: null }),
    ]);
    expect(area.overlaps).toEqual([]);
    expect(item(area, 'area').status).toBe('DONE');
    expect(item(area, 'area').note).toMatch(/operator/);

    // A van without a week works the business hours: missing until they are set.
    const resources = await ok(
      step(as, id, 'resources', { resources: [{ kind: 'VAN', name: 'Carrinha 1' }] }),
    );
    const van = resources.resources[0];
    expect(van).toMatchObject({ kind: 'VAN', week: null, slotStepMin: 30, travelBufferMin: 15 });
    expect(item(resources, 'resources')).toMatchObject({ status: 'MISSING', fixWith: 'set_operating_hours' });
    expect(resources.next).toMatch(/set_operating_hours/);

    const week = {
      mon: [
        { start: '14:00', end: '18:00' },
        { start: '09:00', end: '13:00' },
      ],
      tue: [{ start: '09:00', end: '18:00' }],
      wed: [{ start: '09:00', end: '18:00' }],
      thu: [{ start: '09:00', end: '18:00' }],
      fri: [{ start: '09:00', end: '18:00' }],
      sat: [{ start: '09:00', end: '13:00' }],
      sun: [],
    };
    const hours = await ok(step(as, id, 'hours', { week }));
    // Kept in order, the empty Sunday left out; the van takes the business hours.
    expect(hours.businessHours).toEqual({ ...week, mon: [week.mon[1], week.mon[0]], sun: undefined });
    expect(Object.keys(hours.businessHours)).not.toContain('sun');
    expect(hours.resources[0].week).toBeNull();
    expect(item(hours, 'resources').status).toBe('DONE');
    expect(hours.readyToSubmit).toBe(true);

    // Hours are Lisbon wall-clock times: 09:00 is 09:00 UTC before the clocks go forward on Sunday
    // 29 March 2026 and 08:00 UTC after, as the slot engine reads the stored week.
    const { days } = findSlots({
      resources: [{ id: van.id, kind: 'VAN', week: hours.businessHours, slotStepMin: van.slotStepMin }],
      durationMin: 60,
      timeZone: hours.timezone,
      now: '2026-03-20T00:00:00Z',
      from: '2026-03-27',
      to: '2026-03-30',
    });
    const first = (date: string) => days.find((d: Json) => d.date === date)!.slots[0]!;
    expect(first('2026-03-27')).toMatchObject({ time: '09:00', start: '2026-03-27T09:00:00.000Z' });
    expect(first('2026-03-28')).toMatchObject({ time: '09:00', start: '2026-03-28T09:00:00.000Z' });
    expect(days.find((d: Json) => d.date === '2026-03-29')!.slots).toEqual([]);
    expect(first('2026-03-30')).toMatchObject({ time: '09:00', start: '2026-03-30T08:00:00.000Z' });

    const staff = await ok(
      step(as, id, 'staff', {
        people: [
          { email: 'ines@example.com', role: 'crew', jobTitle: 'Tosquiadora', resourceIds: [van.id] },
          { phone: '+351 913 000 111', role: 'manager' },
        ],
      }),
    );
    expect(staff.staff).toEqual([
      expect.objectContaining({ email: 'ines@example.com', role: 'crew', resourceIds: [van.id] }),
      expect.objectContaining({ phone: '+351 913 000 111', email: null, role: 'manager' }),
    ]);
    expect(item(staff, 'staff').status).toBe('DONE');

    // PayFast is South Africa's: Lisbon keeps its payout preference.
    const gateway = await step(as, id, 'gateway', { merchantId: '10000100' });
    expect(gateway.status).toBe(409);
    expect(gateway.body.error.code).toBe('NOT_AVAILABLE_IN_COUNTRY');
    expect(gateway.body.error.message).toMatch(/payoutPreference/);
    expect(item(staff, 'payout').status).toBe('DONE');

    const asked = await step(as, id, 'submit', {});
    expect(asked.status).toBe(409);
    expect(asked.body.error.code).toBe('CONFIRM_REQUIRED');
    const summary: string = asked.body.error.details.summary;
    expect(summary).toContain('Tosquia Móvel Alfama, Lisboa, PT: prices in EUR, hours in Europe/Lisbon.');
    expect(summary).toContain('Banho e escovagem €35 (60 min, main, grooming)');
    expect(summary).toContain('Corte de unhas €8 (0 min, extra, grooming)');
    expect(summary).toContain('8 km around Lisboa');
    expect(summary).toContain('Carrinha 1 (van or salon table: business hours)');
    expect(summary).toContain('Mon 09:00-13:00 and 14:00-18:00; Tue 09:00-18:00');
    expect(summary).toContain('ines@example.com as crew (Tosquiadora)');
    expect(summary).toContain('Payment: paid by Wise.');
    expect(asked.body.error.details.application).toMatchObject({
      currency: 'EUR',
      timezone: 'Europe/Lisbon',
      services: [expect.objectContaining({ name: 'Banho e escovagem', price: '€35' }), expect.anything()],
    });
    expect((await stored(id))!.status).toBe('DRAFT');

    const sent = await ok(step(as, id, 'submit', { confirm: true }));
    expect(sent.status).toBe('SUBMITTED');
    expect(Date.parse(sent.submittedAt)).not.toBeNaN();
    expect(sent.next).toMatch(/reviewing/);
    expect(await audited(id)).toEqual([
      'application.start',
      'application.services',
      'application.services',
      'application.services',
      'application.area',
      'application.resources',
      'application.hours',
      'application.staff',
      'application.submit',
    ]);

    // Sent: nothing can be changed any more, and it is not sent twice.
    const bodies: Record<Step, unknown> = {
      services: { useTemplate: true },
      area: { postalCodes: ['1000'] },
      resources: { resources: [{ kind: 'VAN', name: 'Carrinha 2' }] },
      hours: { week },
      staff: { people: [{ email: 'x@example.com', role: 'crew' }] },
      gateway: { merchantId: '10000100' },
      submit: { confirm: true },
    };
    const before = await stored(id);
    for (const path of STEPS) {
      const res = await step(as, id, path, bodies[path]);
      expect(res.status, path).toBe(409);
      expect(res.body.error.code, path).toBe('NOT_ACTIVE');
    }
    expect(await stored(id)).toEqual(before);
  });

  it('takes a Tokyo walker through every step: yen have no minor units, a walker with its own week', async () => {
    const as = await keyFor('shibuya@example.com');
    const id = await start(as, {
      businessName: 'Shibuya Sanpo',
      town: 'Tokyo',
      phone: '+81 3-1234-5678',
      categories: ['walking'],
    });
    const services = await ok(
      step(as, id, 'services', {
        services: [
          {
            category: 'walking',
            kind: 'PRIMARY',
            name: 'Solo walk 30 min',
            petTypes: ['DOG'],
            priceCents: 1500,
            durationMin: 30,
          },
          {
            category: 'walking',
            kind: 'PRIMARY',
            name: 'Group walk 60 min',
            petTypes: ['DOG'],
            priceCents: 2200,
            durationMin: 60,
            groupSize: 4,
          },
        ],
      }),
    );
    expect(services.currency).toBe('JPY');
    expect(services.services.map((s: Json) => s.price)).toEqual(['¥1,500', '¥2,200']);
    expect(services.services[1].groupSize).toBe(4);
    const area = await ok(
      step(as, id, 'area', {
        suburbs: [
          { name: 'Shibuya', postalCode: '150-0002' },
          { name: 'Ebisu', postalCode: '150-0013' },
        ],
        postalCodes: ['1500002', '150-0041'],
      }),
    );
    // Our gazetteer knows Tokyo but not its suburbs: they are not placed at the town's centre.
    expect(area.areas.map((a: Json) => a.center)).toEqual([null, null, null]);
    // 1500002 is Shibuya's 150-0002 written without its hyphen: one area.
    expect(area.areas.map((a: Json) => [a.kind, a.name])).toEqual([
      ['SUBURB', 'Shibuya (150-0002)'],
      ['SUBURB', 'Ebisu (150-0013)'],
      ['POSTAL_CODE', 'Postal code 150-0041'],
    ]);
    expect(area.overlaps).toEqual([]);
    const resources = await ok(
      step(as, id, 'resources', {
        resources: [
          {
            kind: 'WALKER',
            name: 'Haruto',
            week: { mon: [{ start: '07:00', end: '10:00' }], sun: [{ start: '16:00', end: '24:00' }] },
            slotStepMin: 15,
          },
        ],
      }),
    );
    const walker = resources.resources[0];
    expect(walker).toMatchObject({ slotStepMin: 15, travelBufferMin: null });
    expect(walker.week.sun).toEqual([{ start: '16:00', end: '24:00' }]);
    // Its own week: no business hours needed.
    expect(item(resources, 'resources').status).toBe('DONE');
    expect(resources.readyToSubmit).toBe(true);
    // Hours for this walker only; the business hours stay unset.
    const hours = await ok(
      step(as, id, 'hours', {
        week: { tue: [{ start: '06:30', end: '09:00' }], thu: [{ start: '06:30', end: '09:00' }] },
        resourceIds: [walker.id],
      }),
    );
    expect(hours.businessHours).toBeNull();
    expect(hours.resources[0].week).toEqual({
      tue: [{ start: '06:30', end: '09:00' }],
      thu: [{ start: '06:30', end: '09:00' }],
    });
    await ok(step(as, id, 'staff', { people: [{ phone: '+81 90-1234-5678', role: 'crew' }] }));
    const asked = await step(as, id, 'submit', { confirm: false });
    expect(asked.body.error.code).toBe('CONFIRM_REQUIRED');
    expect(asked.body.error.details.summary).toContain('Solo walk 30 min ¥1,500 (30 min, main, walking)');
    expect(asked.body.error.details.summary).toContain('Haruto (walker: Tue 06:30-09:00; Thu 06:30-09:00)');
    expect(asked.body.error.details.summary).toContain('hours in Asia/Tokyo');
    const sent = await ok(step(as, id, 'submit', { confirm: true }));
    expect(sent.status).toBe('SUBMITTED');
  });

  it('takes a Stellenbosch groomer through every step: our menu at -10% in whole rand, PayFast, overlaps with our areas', async () => {
    const as = await keyFor('eikestad-steps@example.com');
    const id = await start(as, {
      businessName: 'Eikestad Grooming Van',
      town: 'Stellenbosch',
      country: 'ZA',
      categories: ['grooming'],
      mode: 'MOBILE',
    });
    // Moved by 7.5%, rounded to the nearest rand: R300 is R322.50, so R323.
    const up = await ok(step(as, id, 'services', { useTemplate: true, priceAdjustPct: 7.5 }));
    const bath = (a: Json) => a.services.find((s: Json) => s.name === 'Dog bath, blow-dry & brush-out');
    expect(bath(up)).toMatchObject({
      priceCents: 32300,
      price: 'R323',
      fromTemplate: true,
      needsPrice: false,
    });
    // Again at -10%: the same names replace the copies, same ids, none twice.
    const template = await ok(step(as, id, 'services', { useTemplate: true, priceAdjustPct: -10 }));
    expect(template.services.length).toBe(up.services.length);
    expect(bath(template).id).toBe(bath(up).id);
    expect(bath(template)).toMatchObject({ priceCents: 27000, price: 'R270' });
    expect(bath(template).tiers[1]).toMatchObject({ minKg: 10, maxKg: 25, priceCents: 34200 });
    expect(template.services.find((s: Json) => s.name === 'Dog full groom')).toMatchObject({
      priceCents: 37800,
      price: 'R378',
    });
    // Grooming only: our walks and sittings are not copied.
    expect(template.services.every((s: Json) => s.category === 'grooming')).toBe(true);
    expect(item(template, 'services').status).toBe('DONE');
    // Removing by id.
    const nails = template.services.find((s: Json) => s.name === 'Nail clip only');
    const fewer = await ok(step(as, id, 'services', { removeIds: [nails.id] }));
    expect(fewer.services.map((s: Json) => s.id)).not.toContain(nails.id);

    // Around Stellenbosch: where NogPets already works.
    const area = await ok(
      step(as, id, 'area', {
        radiusKm: 5,
        centerAddress: 'Stellenbosch',
        centerName: 'Stellenbosch',
        suburbs: [{ name: 'Die Boord', postalCode: '7600' }],
      }),
    );
    expect(area.areas[0]).toMatchObject({
      name: '5 km around Stellenbosch',
      center: { lat: expect.any(Number), lng: expect.any(Number) },
    });
    expect(area.areas[1]).toMatchObject({
      name: 'Die Boord (7600)',
      kind: 'SUBURB',
      postalCode: '7600',
      center: { lat: -33.9477, lng: 18.8502 },
    });
    // NogPets and the demo partner Boland Paws both work there.
    expect(area.overlaps).toEqual([
      {
        area: '5 km around Stellenbosch',
        businesses: 2,
        with: [
          expect.stringMatching(/^NogPets \(.*Die Boord/),
          expect.stringMatching(/^Boland Paws \(.*Die Boord/),
        ],
      },
      {
        area: 'Die Boord (7600)',
        businesses: 2,
        with: [expect.stringMatching(/^NogPets \(/), expect.stringMatching(/^Boland Paws \(/)],
      },
    ]);
    // A point far away (Cape Point) meets none of our areas.
    const far = await ok(step(as, id, 'area', { radiusKm: 2, center: { lat: -34.357, lng: 18.497 } }));
    expect(far.areas).toEqual([
      expect.objectContaining({ name: '2 km around -34.357, 18.497', center: { lat: -34.357, lng: 18.497 } }),
    ]);
    expect(far.overlaps).toEqual([]);
    await ok(step(as, id, 'area', { radiusKm: 5, centerAddress: 'Stellenbosch' }));

    const resources = await ok(
      step(as, id, 'resources', {
        resources: [
          { kind: 'VAN', name: 'Van 1', travelBufferMin: 20 },
          { kind: 'VAN', name: 'Van 2' },
        ],
      }),
    );
    const [van1, van2] = resources.resources;
    expect([van1.travelBufferMin, van2.travelBufferMin]).toEqual([20, 15]);
    // Van 2 gets its own Saturday; then business hours for all replace it.
    const own = await ok(
      step(as, id, 'hours', { week: { sat: [{ start: '08:00', end: '13:00' }] }, resourceIds: [van2.id] }),
    );
    expect(own.resources.map((r: Json) => r.week)).toEqual([
      null,
      { sat: [{ start: '08:00', end: '13:00' }] },
    ]);
    expect(item(own, 'resources').status).toBe('MISSING');
    const all = await ok(
      step(as, id, 'hours', {
        week: Object.fromEntries(
          ['mon', 'tue', 'wed', 'thu', 'fri'].map((d: Json) => [d, [{ start: '08:00', end: '17:00' }]]),
        ),
      }),
    );
    expect(all.resources.map((r: Json) => r.week)).toEqual([null, null]);
    expect(item(all, 'resources').status).toBe('DONE');
    // A resource added later without a week takes the business hours.
    const later = await ok(step(as, id, 'resources', { resources: [{ kind: 'VAN', name: 'Salon table' }] }));
    expect(later.resources[2].week).toBeNull();
    expect(item(later, 'resources').status).toBe('DONE');
    // Renaming by id; removing one that staff work: their invitation forgets it.
    const staff = await ok(
      step(as, id, 'staff', {
        people: [
          { email: 'Lerato@Example.com', role: 'crew', jobTitle: 'Groomer', resourceIds: [van1.id, van2.id] },
        ],
      }),
    );
    const again = await ok(
      step(as, id, 'staff', {
        people: [{ email: 'lerato@example.com', role: 'manager', resourceIds: [van2.id] }],
      }),
    );
    expect(again.staff).toEqual([
      expect.objectContaining({ id: staff.staff[0].id, email: 'lerato@example.com', role: 'manager' }),
    ]);
    const removed = await ok(step(as, id, 'resources', { removeIds: [van2.id] }));
    expect(removed.resources.map((r: Json) => r.name)).toEqual(['Van 1', 'Salon table']);
    expect(removed.staff[0].resourceIds).toEqual([]);

    // PayFast: the merchant id only, 8 to 10 digits; never a key or a passphrase.
    expect(item(removed, 'gateway').status).toBe('OPTIONAL');
    for (const body of [
      { merchantId: '1000010' },
      { merchantId: '10000100000' },
      { merchantId: '1000010a' },
      { merchantId: 10000100 },
      { merchantId: '10000100', merchantKey: '46f0cd694581a' },
      { merchantId: '10000100', passphrase: 'jt7NOE43FZPn' },
      {},
    ]) {
      const before = await stored(id);
      const res = await step(as, id, 'gateway', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body)).not.toContain('46f0cd694581a');
      expect(await stored(id)).toEqual(before);
    }
    await ok(step(as, id, 'gateway', { merchantId: '1234567890' }));
    const gateway = await ok(step(as, id, 'gateway', { merchantId: '10000100' }));
    expect(gateway.gateway).toEqual({ kind: 'PAYFAST', merchantId: '10000100' });
    expect(item(gateway, 'gateway').status).toBe('DONE');

    const asked = await step(as, id, 'submit', {});
    expect(asked.body.error.code).toBe('CONFIRM_REQUIRED');
    const summary: string = asked.body.error.details.summary;
    expect(summary).toContain('Dog full groom R378 (75 min, main, grooming)');
    expect(summary).toContain('Payment: card payments through PayFast, merchant 10000100.');
    expect(summary).toContain('Mon 08:00-17:00; Tue 08:00-17:00');
    expect(summary).toContain('lerato@example.com as manager');
    const sent = await ok(step(as, id, 'submit', { confirm: true }));
    expect(sent).toMatchObject({ status: 'SUBMITTED', gateway: { merchantId: '10000100' } });
  });

  it('takes a Stellenbosch walker through every step on MCP, with the tools annotated', async () => {
    const auth = await keyFor('mcp-walker@example.com');
    const client = await server.mcpAs(auth.slice('Bearer '.length), 'business');
    const { tools } = await client.listTools();
    const tool = (name: string) => tools.find((t: Json) => t.name === name)!;
    for (const name of [
      'add_business_services',
      'set_service_area',
      'add_resources',
      'set_operating_hours',
      'invite_staff',
      'connect_gateway',
    ]) {
      expect(tool(name).annotations, name).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    }
    expect(tool('submit_business_for_review').annotations).toMatchObject({
      idempotentHint: false,
      readOnlyHint: false,
    });
    expect(tool('invite_staff').inputSchema.properties).toHaveProperty('people');
    const call = async (name: string, args: Record<string, unknown>) =>
      toolJson(await client.callTool({ name, arguments: args }));
    const started = await call('start_business_signup', {
      businessName: 'Jonkershoek Dog Walkers',
      town: 'Stellenbosch',
      country: 'ZA',
      categories: ['walking'],
    });
    const applicationId = started.applicationId;
    const services = await call('add_business_services', {
      applicationId,
      useTemplate: true,
      services: [
        {
          category: 'walking',
          kind: 'PRIMARY',
          name: 'Trail walk 90 min',
          petTypes: ['DOG'],
          priceCents: 25000,
          durationMin: 90,
        },
      ],
    });
    expect(services.services.at(-1)).toMatchObject({ name: 'Trail walk 90 min', price: 'R250' });
    expect(services.services.find((s: Json) => s.name === 'Solo walk 30 min')).toMatchObject({
      priceCents: 13000,
      fromTemplate: true,
    });
    const area = await call('set_service_area', {
      applicationId,
      suburbs: [
        { name: 'Jonkershoek', postalCode: '7600' },
        { name: 'Karindal', postalCode: '7600' },
      ],
    });
    expect(area.overlaps.map((o: Json) => o.area)).toEqual(['Jonkershoek (7600)', 'Karindal (7600)']);
    const resources = await call('add_resources', {
      applicationId,
      resources: [{ kind: 'WALKER', name: 'Sipho' }],
    });
    const hours = await call('set_operating_hours', {
      applicationId,
      week: { mon: [{ start: '06:00', end: '10:00' }], sat: [{ start: '07:00', end: '11:00' }] },
    });
    expect(hours.readyToSubmit).toBe(true);
    const staff = await call('invite_staff', {
      applicationId,
      people: [{ email: 'sipho@example.com', role: 'crew', resourceIds: [resources.resources[0].id] }],
    });
    expect(staff.staff).toHaveLength(1);
    const gateway = await call('connect_gateway', { applicationId, merchantId: '10000100' });
    expect(gateway.gateway.merchantId).toBe('10000100');
    const refused = await call('connect_gateway', {
      applicationId,
      merchantId: '10000100',
      merchantKey: 'x',
    });
    expect(refused.error.code).toBe('BAD_REQUEST');
    const asked = await call('submit_business_for_review', { applicationId });
    expect(asked.error.code).toBe('CONFIRM_REQUIRED');
    expect(asked.error.details.summary).toContain('Trail walk 90 min R250');
    const sent = await call('submit_business_for_review', { applicationId, confirm: true });
    expect(sent.status).toBe('SUBMITTED');
    const late = await call('set_operating_hours', {
      applicationId,
      week: { mon: [{ start: '06:00', end: '10:00' }] },
    });
    expect(late.error.code).toBe('NOT_ACTIVE');
  });

  it('refuses to send an application that is not ready, saying what is missing and with which tool', async () => {
    const as = await keyFor('not-ready@example.com');
    const id = await start(as, {
      businessName: 'Half Done',
      town: 'Paarl',
      country: 'ZA',
      categories: ['sitting'],
    });
    for (const body of [{}, { confirm: true }]) {
      const res = await step(as, id, 'submit', body);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('NOT_READY');
      expect(res.body.error.details.missing.map((m: Json) => [m.item, m.fixWith])).toEqual([
        ['services', 'add_business_services'],
        ['area', 'set_service_area'],
        ['resources', 'add_resources'],
      ]);
      expect(res.body.error.message).toMatch(/a main sitting service/);
    }
    // An EXTRA alone is no main service: reported, not refused.
    const extra = await ok(
      step(as, id, 'services', {
        services: [
          {
            category: 'sitting',
            kind: 'EXTRA',
            name: 'Key handling',
            petTypes: ['DOG'],
            priceCents: 5000,
            durationMin: 0,
          },
        ],
      }),
    );
    expect(item(extra, 'services')).toMatchObject({ status: 'MISSING' });
    expect((await stored(id))!.status).toBe('DRAFT');
  });

  it('answers 404 with the same words for another person’s application on every step, and changes nothing', async () => {
    const owner = await keyFor('owner-steps@example.com');
    const other = await keyFor('other-steps@example.com');
    const id = await start(owner, {
      businessName: 'Mine Only',
      town: 'Stellenbosch',
      country: 'ZA',
      categories: ['grooming'],
    });
    const bodies: Record<Step, unknown> = {
      services: { useTemplate: true },
      area: { postalCodes: ['7600'] },
      resources: { resources: [{ kind: 'VAN', name: 'Van' }] },
      hours: { week: { mon: [{ start: '08:00', end: '12:00' }] } },
      staff: { people: [{ email: 'x@example.com', role: 'crew' }] },
      gateway: { merchantId: '10000100' },
      submit: { confirm: true },
    };
    const before = await stored(id);
    for (const path of STEPS) {
      const theirs = await step(other, id, path, bodies[path]);
      const missing = await step(other, 'app_nosuchapplication', path, bodies[path]);
      expect(theirs.status, path).toBe(404);
      expect(theirs.body.error.code).toBe('NOT_FOUND');
      expect(theirs.body.error.message).toBe(`No application ${id} of yours.`);
      expect(missing.body.error.message).toBe('No application app_nosuchapplication of yours.');
    }
    expect(await stored(id)).toEqual(before);
    // Without business:write: 403; without a credential: 401.
    const { key } = await createApiKey(server.db.sql, { email: 'owner-steps@example.com', scopes: ['pets'] });
    for (const path of STEPS) {
      expect((await step(`Bearer ${key}`, id, path, bodies[path])).status, path).toBe(403);
      expect((await server.post(`/v1/business/applications/${id}/${path}`, bodies[path])).status, path).toBe(
        401,
      );
    }
  });

  it('keeps every bound at its limit and refuses past it, changing nothing', async () => {
    const as = await keyFor('bounds-steps@example.com');
    const id = await start(as, {
      businessName: 'Bounds Grooming',
      town: 'Stellenbosch',
      country: 'ZA',
      categories: ['grooming', 'walking'],
    });
    const svc = (name: string, extra: Record<string, unknown> = {}) => ({
      category: 'grooming',
      kind: 'PRIMARY',
      name,
      petTypes: ['DOG'],
      priceCents: 10000,
      durationMin: 30,
      ...extra,
    });
    const tier = { petType: 'DOG', priceCents: 100, durationMin: 10 };
    const range = (h: number) => ({
      start: `${String(h).padStart(2, '0')}:00`,
      end: `${String(h).padStart(2, '0')}:30`,
    });
    const person = (i: number) => ({ email: `p${i}@example.com`, role: 'crew' });
    const refuse = async (path: Step, body: Record<string, unknown>, field: string) => {
      const before = await stored(id);
      const res = await step(as, id, path, body);
      expect(res.status, `${path} ${JSON.stringify(body).slice(0, 200)}`).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
      expect(JSON.stringify(res.body.error.details.fields), path).toContain(field);
      expect(await stored(id), path).toEqual(before);
    };

    // Services: 50 a request, 100 in all; names 80, blurbs 300, prices 0..10 000 000, durations, groups, tiers.
    const fifty = Array.from({ length: 50 }, (_, i) => svc(`A${i}`));
    expect((await ok(step(as, id, 'services', { services: fifty }))).services).toHaveLength(50);
    await refuse('services', { services: [...fifty, svc('A50')] }, 'services');
    const next50 = Array.from({ length: 50 }, (_, i) => svc(`B${i}`));
    expect((await ok(step(as, id, 'services', { services: next50 }))).services).toHaveLength(100);
    await refuse('services', { services: [svc('C0')] }, 'at most 100 services');
    await ok(
      step(as, id, 'services', {
        replace: true,
        services: [svc('x'.repeat(80), { blurb: 'y'.repeat(300) })],
      }),
    );
    await refuse('services', { services: [svc('x'.repeat(81))] }, 'services.0.name');
    await refuse('services', { services: [svc('Z', { blurb: 'y'.repeat(301) })] }, 'services.0.blurb');
    await ok(
      step(as, id, 'services', {
        services: [svc('Top', { priceCents: 10_000_000 }), svc('Free', { priceCents: 0 })],
      }),
    );
    await refuse('services', { services: [svc('Z', { priceCents: 10_000_001 })] }, 'services.0.priceCents');
    await refuse('services', { services: [svc('Z', { priceCents: -1 })] }, 'services.0.priceCents');
    await refuse('services', { services: [svc('Z', { priceCents: 12.5 })] }, 'services.0.priceCents');
    await ok(
      step(as, id, 'services', {
        services: [svc('Short', { durationMin: 5 }), svc('Long', { durationMin: 1440 })],
      }),
    );
    await refuse('services', { services: [svc('Z', { durationMin: 4 })] }, 'services.0.durationMin');
    await refuse('services', { services: [svc('Z', { durationMin: 1441 })] }, 'services.0.durationMin');
    await ok(step(as, id, 'services', { services: [svc('Add-on', { kind: 'EXTRA', durationMin: 0 })] }));
    await ok(step(as, id, 'services', { services: [svc('Pack', { category: 'walking', groupSize: 20 })] }));
    await refuse('services', { services: [svc('Z', { groupSize: 21 })] }, 'services.0.groupSize');
    await refuse('services', { services: [svc('Z', { groupSize: 0 })] }, 'services.0.groupSize');
    await ok(step(as, id, 'services', { services: [svc('Tiered', { tiers: Array(24).fill(tier) })] }));
    await refuse('services', { services: [svc('Z', { tiers: Array(25).fill(tier) })] }, 'services.0.tiers');
    await refuse(
      'services',
      { services: [svc('Z', { tiers: [{ ...tier, minKg: 10, maxKg: 5 }] })] },
      'maxKg',
    );
    await refuse('services', { services: [svc('Z', { petTypes: ['HAMSTER'] })] }, 'services.0.petTypes');
    await refuse('services', { services: [svc('Z', { category: 'sitting' })] }, 'does not offer sitting');
    await refuse('services', { services: [svc('Twin'), svc('TWIN')] }, 'the same service');
    await refuse('services', { services: [svc('Z', { id: 'svc_nope' })] }, 'no service svc_nope');
    await refuse('services', { removeIds: ['svc_nope'] }, 'removeIds.0');
    await refuse('services', { replace: true, removeIds: ['svc_nope'] }, 'removeIds');
    await refuse('services', {}, 'nothing to do');
    await refuse('services', { services: [svc('Z', { colour: 'red' })] }, 'colour');
    await ok(step(as, id, 'services', { useTemplate: true, priceAdjustPct: -90 }));
    await ok(step(as, id, 'services', { useTemplate: true, priceAdjustPct: 200 }));
    await refuse('services', { useTemplate: true, priceAdjustPct: -91 }, 'priceAdjustPct');
    await refuse('services', { useTemplate: true, priceAdjustPct: 201 }, 'priceAdjustPct');
    await refuse('services', { services: [svc('Z')], priceAdjustPct: -10 }, 'only with useTemplate');

    // Area: radius 0.5..100 km, address 300, 50 suburbs, 100 postal codes of 2 to 12 characters.
    await ok(step(as, id, 'area', { radiusKm: 0.5, center: { lat: -33.93, lng: 18.86 } }));
    await ok(step(as, id, 'area', { radiusKm: 100, centerAddress: `Stellenbosch ${'x'.repeat(287)}` }));
    await refuse('area', { radiusKm: 0.4, center: { lat: -33.93, lng: 18.86 } }, 'radiusKm');
    await refuse('area', { radiusKm: 100.1, center: { lat: -33.93, lng: 18.86 } }, 'radiusKm');
    await refuse('area', { radiusKm: 5, centerAddress: 'x'.repeat(301) }, 'centerAddress');
    await refuse('area', { radiusKm: 5, center: { lat: 91, lng: 0 } }, 'center.lat');
    await refuse('area', { radiusKm: 5 }, 'needs a centre');
    await refuse('area', { centerAddress: 'Stellenbosch' }, 'radiusKm');
    await refuse(
      'area',
      { radiusKm: 5, centerAddress: 'Stellenbosch', center: { lat: 1, lng: 1 } },
      'not both',
    );
    await refuse('area', {}, 'say where');
    const suburbs = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ name: `Suburb ${i}`, postalCode: `${7000 + i}` }));
    expect((await ok(step(as, id, 'area', { suburbs: suburbs(50) }))).areas).toHaveLength(50);
    await refuse('area', { suburbs: suburbs(51) }, 'suburbs');
    await refuse('area', { suburbs: [{ name: 'A' }, { name: 'a' }] }, 'listed twice');
    const codes = (n: number) => Array.from({ length: n }, (_, i) => `${10000 + i}`);
    expect((await ok(step(as, id, 'area', { postalCodes: codes(100) }))).areas).toHaveLength(100);
    await refuse('area', { postalCodes: codes(101) }, 'postalCodes');
    await ok(step(as, id, 'area', { postalCodes: ['AB12-345 678'] }));
    await refuse('area', { postalCodes: ['AB12-345 6789'] }, 'postalCodes.0');
    await refuse('area', { postalCodes: ['7'] }, 'postalCodes.0');

    // Resources: 100, names 80, step 5..240, buffer 0..240; weeks of up to 6 ranges a day.
    const res = (i: number, extra: Record<string, unknown> = {}) => ({
      kind: 'VAN',
      name: `R${i}`,
      ...extra,
    });
    const hundred = Array.from({ length: 100 }, (_, i) => res(i));
    expect((await ok(step(as, id, 'resources', { resources: hundred }))).resources).toHaveLength(100);
    await refuse('resources', { resources: [res(100)] }, 'at most 100 resources');
    await refuse('resources', { replace: true, resources: [...hundred, res(100)] }, 'resources');
    await ok(
      step(as, id, 'resources', {
        replace: true,
        resources: [res(0, { name: 'n'.repeat(80), slotStepMin: 5, travelBufferMin: 0 })],
      }),
    );
    await ok(step(as, id, 'resources', { resources: [res(1, { slotStepMin: 240, travelBufferMin: 240 })] }));
    await refuse('resources', { resources: [res(2, { name: 'n'.repeat(81) })] }, 'resources.0.name');
    await refuse('resources', { resources: [res(2, { slotStepMin: 4 })] }, 'resources.0.slotStepMin');
    await refuse('resources', { resources: [res(2, { slotStepMin: 241 })] }, 'resources.0.slotStepMin');
    await refuse(
      'resources',
      { resources: [res(2, { travelBufferMin: -1 })] },
      'resources.0.travelBufferMin',
    );
    await refuse(
      'resources',
      { resources: [res(2, { travelBufferMin: 241 })] },
      'resources.0.travelBufferMin',
    );
    await refuse('resources', { resources: [res(2, { kind: 'DRONE' })] }, 'resources.0.kind');
    const six = [8, 9, 10, 11, 12, 13].map(range);
    await ok(
      step(as, id, 'resources', {
        resources: [res(2, { week: { sun: six, mon: [{ start: '00:00', end: '24:00' }] } })],
      }),
    );
    await refuse(
      'resources',
      { resources: [res(3, { week: { tue: [...six, range(14)] } })] },
      'resources.0.week.tue',
    );
    await refuse(
      'resources',
      {
        resources: [
          res(3, {
            week: {
              tue: [
                { start: '09:00', end: '12:00' },
                { start: '11:00', end: '13:00' },
              ],
            },
          }),
        ],
      },
      'ranges overlap',
    );
    await refuse(
      'resources',
      { resources: [res(3, { week: { tue: [{ start: '12:00', end: '09:00' }] } })] },
      'start must be before end',
    );
    await refuse(
      'resources',
      { resources: [res(3, { week: { tue: [{ start: '25:00', end: '26:00' }] } })] },
      'HH:MM',
    );
    await refuse('resources', { resources: [res(3, { week: { Tuesday: [range(9)] } })] }, 'Tuesday');
    await refuse('resources', { resources: [res(3, { week: {} })] }, 'no working time');
    await refuse('resources', { resources: [res(3, { id: 'res_nope' })] }, 'no resource res_nope');

    // Hours: up to 6 ranges a day, resources of this application only.
    await ok(step(as, id, 'hours', { week: { mon: six } }));
    await refuse('hours', { week: { mon: [...six, range(14)] } }, 'week.mon');
    await refuse('hours', { week: { mon: [range(9)] }, resourceIds: ['res_nope'] }, 'resourceIds.0');
    await refuse('hours', { week: { mon: [] } }, 'no working time');
    await refuse('hours', { week: { mon: [{ start: '9:00', end: '12:00' }] } }, 'week.mon.0.start');

    // Staff: 50 people, email and/or phone, manager or crew, the application's resources.
    expect(
      (await ok(step(as, id, 'staff', { people: Array.from({ length: 50 }, (_, i) => person(i)) }))).staff,
    ).toHaveLength(50);
    await refuse('staff', { people: Array.from({ length: 51 }, (_, i) => person(i)) }, 'people');
    await refuse('staff', { people: [person(60)] }, 'at most 50 invitations');
    await ok(
      step(as, id, 'staff', {
        replace: true,
        people: [{ phone: '+27 82 555 0000', role: 'manager', jobTitle: 'j'.repeat(80) }],
      }),
    );
    await refuse('staff', { people: [{ role: 'crew' }] }, 'email or a phone');
    await refuse('staff', { people: [{ email: 'not-an-email', role: 'crew' }] }, 'people.0.email');
    await refuse('staff', { people: [{ email: 'a@example.com', role: 'owner' }] }, 'people.0.role');
    await refuse(
      'staff',
      { people: [{ email: 'a@example.com', role: 'crew', jobTitle: 'j'.repeat(81) }] },
      'people.0.jobTitle',
    );
    await refuse(
      'staff',
      { people: [{ email: 'a@example.com', role: 'crew', resourceIds: ['res_nope'] }] },
      'people.0.resourceIds.0',
    );
    await refuse('staff', { people: [person(1), { ...person(1), role: 'manager' }] }, 'the same person');
    await refuse('staff', { people: [person(1)], removeIds: ['inv_nope'] }, 'removeIds.0');
  });

  it('keeps one service, resource and invitation per id and per name: a request meaning one twice is refused', async () => {
    const as = await keyFor('one-each@example.com');
    const id = await start(as, {
      businessName: 'One Each Grooming',
      town: 'Stellenbosch',
      country: 'ZA',
      categories: ['grooming'],
    });
    const svc = (name: string, extra: Record<string, unknown> = {}) => ({
      category: 'grooming',
      kind: 'PRIMARY',
      name,
      petTypes: ['DOG'],
      priceCents: 10000,
      durationMin: 30,
      ...extra,
    });
    const refused = async (path: Step, body: Record<string, unknown>, words: RegExp) => {
      const before = await stored(id);
      const res = await step(as, id, path, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.message).toMatch(words);
      expect(await stored(id)).toEqual(before);
    };
    const unique = (items: { id: string; name?: string }[]) => {
      expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    };
    const first = await ok(step(as, id, 'services', { services: [svc('Wash'), svc('Clip')] }));
    const [wash, clip] = first.services;
    // Renaming Wash by its id while a service named Wash is sent too: both mean the one service.
    await refused(
      'services',
      { services: [svc('Bath', { id: wash.id }), svc('Wash')] },
      /services\.1: the same service as services\.0/,
    );
    // The same with replace: the kept id is not given to two services.
    await refused(
      'services',
      { replace: true, services: [svc('Bath', { id: wash.id }), svc('Wash')] },
      /services\.1: the same service as services\.0/,
    );
    // Renaming onto another service's name would make two of one name.
    await refused('services', { services: [svc('Clip', { id: wash.id })] }, /services\.0\.name: .*Clip/);
    // A template entry is one service with the one sent under its name: renaming another onto it is refused.
    await refused(
      'services',
      { useTemplate: true, services: [svc('Dog full groom', { id: clip.id })] },
      /services\.0\.name: .*Dog full groom/,
    );
    // Renamed alone, it keeps its id; a new Wash is another service.
    const renamed = await ok(step(as, id, 'services', { services: [svc('Bath', { id: wash.id })] }));
    const again = await ok(step(as, id, 'services', { services: [svc('Wash')] }));
    expect(again.services.map((s: Json) => [s.name, s.id === wash.id])).toEqual([
      ['Bath', true],
      ['Clip', false],
      ['Wash', false],
    ]);
    unique(renamed.services);
    unique(again.services);

    const res = await ok(
      step(as, id, 'resources', {
        resources: [
          { kind: 'VAN', name: 'Van A' },
          { kind: 'VAN', name: 'Van B' },
        ],
      }),
    );
    const [vanA] = res.resources;
    await refused(
      'resources',
      {
        resources: [
          { id: vanA.id, kind: 'VAN', name: 'Van C' },
          { kind: 'VAN', name: 'Van A', slotStepMin: 15 },
        ],
      },
      /resources\.1: the same resource as resources\.0/,
    );
    await refused(
      'resources',
      {
        replace: true,
        resources: [
          { id: vanA.id, kind: 'VAN', name: 'Van C' },
          { kind: 'VAN', name: 'Van A' },
        ],
      },
      /resources\.1: the same resource as resources\.0/,
    );
    await refused(
      'resources',
      { resources: [{ id: vanA.id, kind: 'VAN', name: 'van b' }] },
      /resources\.0\.name: .*Van B/,
    );
    unique((await stored(id))!.resources);

    // Invitations: one person sent with the email of one invitation and the phone of another is
    // both of them, kept once.
    await ok(
      step(as, id, 'staff', {
        people: [
          { email: 'lerato@example.com', role: 'crew' },
          { phone: '+27 82 555 0101', role: 'crew' },
        ],
      }),
    );
    const merged = await ok(
      step(as, id, 'staff', {
        people: [{ email: 'Lerato@example.com', phone: '+27825550101', role: 'manager', jobTitle: 'Owner' }],
      }),
    );
    expect(merged.staff).toEqual([
      expect.objectContaining({ email: 'Lerato@example.com', phone: '+27825550101', role: 'manager' }),
    ]);
    // Two people in one request who are one invitation already: refused.
    await ok(
      step(as, id, 'staff', {
        people: [{ email: 'sipho@example.com', phone: '+27 82 555 0202', role: 'crew' }],
      }),
    );
    await refused(
      'staff',
      {
        people: [
          { email: 'sipho@example.com', role: 'crew' },
          { phone: '+27825550202', role: 'manager' },
        ],
      },
      /people\.1: the same person as people\.0/,
    );
  });

  it('counts no area of the business an application became as an overlap of its own', async () => {
    const as = await keyFor('own-overlap@example.com');
    const id = await start(as, {
      businessName: 'Overlap Of Its Own',
      town: 'Paarl',
      country: 'ZA',
      categories: ['grooming'],
    });
    // Far from NogPets' areas: around Paarl, and a postal code.
    const area = await ok(
      step(as, id, 'area', { radiusKm: 3, center: { lat: -33.734, lng: 18.962 }, postalCodes: ['7646'] }),
    );
    expect(area.overlaps).toEqual([]);
    // Approval copies the areas into the business's own, with their ids (as the operator's review does).
    const sql = server.db.sql;
    await sql`insert into businesses (id, name, country, currency, timezone, created_at)
              values ('biz_own_overlap', 'Overlap Of Its Own', 'ZA', 'ZAR', 'Africa/Johannesburg', now())`;
    for (const [i, a] of area.areas.entries())
      await sql`insert into service_areas (business_id, id, name, postal_code, lat, lng, radius_km, town, status, sort)
                values ('biz_own_overlap', ${a.id}, ${a.name}, ${a.postalCode}, ${a.center?.lat ?? null},
                        ${a.center?.lng ?? null}, ${a.radiusKm}, 'Paarl', 'APPROVED', ${i})`;
    await sql`update business_applications set status = 'APPROVED' where id = ${id}`;
    const status = await server.get(`/v1/business/applications?applicationId=${id}`, { authorization: as });
    expect(status.status).toBe(200);
    expect(status.body.application.overlaps).toEqual([]);
    // Another applicant there is told about it.
    const other = await keyFor('own-overlap-neighbour@example.com');
    const theirs = await start(other, {
      businessName: 'Paarl Neighbour',
      town: 'Paarl',
      country: 'ZA',
      categories: ['grooming'],
    });
    const near = await ok(step(other, theirs, 'area', { postalCodes: ['7646'] }));
    expect(near.overlaps).toEqual([
      { area: 'Postal code 7646', businesses: 1, with: ['Overlap Of Its Own (Postal code 7646)'] },
    ]);
  });

  it('refuses a radius around a place it cannot find in the application’s country (422 UNKNOWN_PLACE), and one suburb written twice', async () => {
    const as = await keyFor('unknown-centre@example.com');
    const id = await start(as, {
      businessName: 'Nowhere Grooming',
      town: 'Stellenbosch',
      country: 'ZA',
      categories: ['grooming'],
    });
    await ok(step(as, id, 'area', { radiusKm: 5, centerAddress: 'Stellenbosch' }));
    // Lisboa is not in South Africa, and no place is called "%%%": a radius around nothing covers nothing.
    for (const centerAddress of ['Lisboa', '%%%']) {
      const before = await stored(id);
      const res = await step(as, id, 'area', { radiusKm: 5, centerAddress });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error.code).toBe('UNKNOWN_PLACE');
      expect(res.body.error.message).toMatch(/center/);
      expect(res.body.error.details).toMatchObject({ field: 'centerAddress', country: 'ZA' });
      expect(await stored(id)).toEqual(before);
    }
    // A suburb written twice with other spacing or accents is one suburb.
    const res = await step(as, id, 'area', { suburbs: [{ name: 'Die Boord' }, { name: 'die  böord' }] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/suburbs\.1: .*listed twice/);
  });

  it('replays a step sent twice with the same Idempotency-Key, and refuses the key with another body', async () => {
    const as = await keyFor('idem-steps@example.com');
    const id = await start(as, {
      businessName: 'Twice Grooming',
      town: 'Stellenbosch',
      country: 'ZA',
      categories: ['grooming'],
    });
    const body = { resources: [{ kind: 'VAN', name: 'Van A' }] };
    const first = await step(as, id, 'resources', body, { 'idempotency-key': 'steps-1' });
    const again = await step(as, id, 'resources', body, { 'idempotency-key': 'steps-1' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = await step(
      as,
      id,
      'resources',
      { resources: [{ kind: 'VAN', name: 'Van B' }] },
      { 'idempotency-key': 'steps-1' },
    );
    expect(other.status).toBe(422);
    expect((await stored(id))!.resources).toHaveLength(1);
  });
});
