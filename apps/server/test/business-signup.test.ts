// startBusinessSignup and getSignupStatus: a groomer in Lisbon, a walker in Tokyo, a groomer in
// Stellenbosch and a business in the US start their applications, over HTTP and MCP.
import { createApiKey } from '@nogpets/operations/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, toolJson } from './harness.js';

type Item = { id: string; status: string; missing: string[]; fixWith: string };

describe('startBusinessSignup / getSignupStatus', () => {
  let server: TestServer;
  const keyFor = async (email: string) =>
    `Bearer ${(await createApiKey(server.db.sql, { email, scopes: ['business:write'] })).key}`;
  const item = (answer: { checklist: Item[] }, id: string) => answer.checklist.find((i) => i.id === id)!;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  it('takes the country from the phone, the currency from the country, and asks for a zone when there are several', async () => {
    const as = { authorization: await keyFor('lisbon@example.com') };
    const res = await server.post(
      '/v1/business/applications',
      {
        businessName: 'Banho & Tosquia',
        town: 'Lisboa',
        phone: '+351 912 345 678',
        categories: ['grooming'],
        mode: 'MOBILE',
      },
      as,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      applicationId: expect.stringMatching(/^app_/),
      name: 'Banho & Tosquia',
      status: 'DRAFT',
      country: 'PT',
      currency: 'EUR',
      timezone: null,
      readyToSubmit: false,
      statusUrl: expect.stringMatching(/\/business\/applications\/app_/),
      reviewNote: null,
      overlaps: [],
    });
    expect(item(res.body, 'details')).toMatchObject({ status: 'MISSING', fixWith: 'start_business_signup' });
    expect(item(res.body, 'details').missing.join(' ')).toMatch(/Europe\/Lisbon/);
    expect(res.body.next).toMatch(/time zone.*start_business_signup/);
    // The update: 200, the zone set, the rest kept.
    const updated = await server.post(
      '/v1/business/applications',
      {
        applicationId: res.body.applicationId,
        timezone: 'Europe/Lisbon',
        payoutPreference: { method: 'Wise', note: 'monthly' },
      },
      as,
    );
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ country: 'PT', currency: 'EUR', timezone: 'Europe/Lisbon' });
    expect(item(updated.body, 'details').status).toBe('DONE');
    expect(item(updated.body, 'payout').status).toBe('DONE');
    expect(item(updated.body, 'services')).toMatchObject({
      status: 'MISSING',
      fixWith: 'add_business_services',
    });
    // Moving the business to South Africa: rand and Johannesburg follow, the payout preference goes (PayFast instead).
    const moved = await server.post(
      '/v1/business/applications',
      { applicationId: res.body.applicationId, country: 'ZA', timezone: 'Africa/Johannesburg' },
      as,
    );
    expect(moved.body).toMatchObject({ country: 'ZA', currency: 'ZAR' });
    expect(moved.body.checklist.map((i: Item) => i.id)).toContain('gateway');
    const [stored] = await server.db
      .sql`select details from business_applications where id = ${res.body.applicationId}`;
    expect(stored!.details).not.toHaveProperty('payoutPreference');
    await server.post(
      '/v1/business/applications',
      { applicationId: res.body.applicationId, country: 'PT', timezone: 'Europe/Lisbon' },
      as,
    );
    // The same over MCP: getSignupStatus finds it.
    const client = await server.mcpAs(as.authorization.slice(7));
    const status = toolJson(await client.callTool({ name: 'get_signup_status', arguments: {} }));
    expect(status).toMatchObject({
      application: { applicationId: res.body.applicationId, timezone: 'Europe/Lisbon' },
      applications: [{ applicationId: res.body.applicationId, name: 'Banho & Tosquia', status: 'DRAFT' }],
      welcomeUrl: expect.stringMatching(/\/business\/applications$/),
    });
  });

  it('gives a walker in Tokyo yen and Asia/Tokyo, a groomer in Stellenbosch rand and Johannesburg, and leaves a US zone missing', async () => {
    const tokyo = await server.post(
      '/v1/business/applications',
      { businessName: 'Shibuya Walks', town: 'Tokyo', phone: '+81 3-1234-5678', categories: ['walking'] },
      { authorization: await keyFor('tokyo@example.com') },
    );
    expect(tokyo.status).toBe(201);
    expect(tokyo.body).toMatchObject({ country: 'JP', currency: 'JPY', timezone: 'Asia/Tokyo' });
    const stellenbosch = await server.post(
      '/v1/business/applications',
      {
        businessName: 'Eikestad Paws Mobile Grooming',
        town: 'Stellenbosch',
        country: 'za',
        categories: ['grooming'],
      },
      { authorization: await keyFor('eikestad@example.com') },
    );
    expect(stellenbosch.body).toMatchObject({
      country: 'ZA',
      currency: 'ZAR',
      timezone: 'Africa/Johannesburg',
    });
    // Its name is in our directory: offered to claim.
    expect(stellenbosch.body.possibleListings).toEqual([
      expect.objectContaining({ id: 'dir-eikestad-paws-mobile-grooming', town: 'stellenbosch' }),
    ]);
    expect(item(stellenbosch.body, 'gateway').status).toBe('OPTIONAL');
    const owner = { authorization: await keyFor('eikestad@example.com') };
    const unknown = await server.post(
      '/v1/business/applications',
      { applicationId: stellenbosch.body.applicationId, claimListingId: 'dir-nobody' },
      owner,
    );
    expect(unknown.status).toBe(404);
    const claimed = await server.post(
      '/v1/business/applications',
      { applicationId: stellenbosch.body.applicationId, claimListingId: 'dir-eikestad-paws-mobile-grooming' },
      owner,
    );
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    expect(claimed.body.possibleListings).toEqual([]);
    expect(item(claimed.body, 'listing').status).toBe('DONE');
    // NogPets' own listing is a business on the service: never offered, never claimable.
    const nogpets = await server.post(
      '/v1/business/applications',
      { applicationId: stellenbosch.body.applicationId, claimListingId: 'dir-nogpets' },
      owner,
    );
    expect(nogpets.status).toBe(404);
    const us = await server.post(
      '/v1/business/applications',
      { businessName: 'Brooklyn Barkers', town: 'New York', country: 'US', categories: ['walking'] },
      { authorization: await keyFor('ny@example.com') },
    );
    expect(us.status).toBe(201);
    expect(us.body).toMatchObject({ country: 'US', currency: 'USD', timezone: null });
    // A zone in any case is stored by its IANA name.
    const zoned = await server.post(
      '/v1/business/applications',
      { applicationId: us.body.applicationId, timezone: 'america/new_york' },
      { authorization: await keyFor('ny@example.com') },
    );
    expect(zoned.body.timezone).toBe('America/New_York');
    expect(item(zoned.body, 'details').status).toBe('DONE');
    expect(item(us.body, 'details').status).toBe('MISSING');
  });

  it('refuses what it must, names the field, and never shows another person their application', async () => {
    const as = { authorization: await keyFor('careful@example.com') };
    const post = (body: Record<string, unknown>) => server.post('/v1/business/applications', body, as);
    for (const [body, field] of [
      [{ town: 'Paarl', country: 'ZA' }, 'businessName'],
      [{ businessName: 'X', country: 'ZA' }, 'town'],
      [{ businessName: 'X', town: 'Somewhere' }, 'No country was given, and no phone number'],
      [
        { businessName: 'X', town: 'Somewhere', country: 'XX' },
        '\\"XX\\" is not a two-letter ISO 3166 country code',
      ],
      [
        { businessName: 'X', town: 'Somewhere', country: 'XX', phone: '+351 912 345 678' },
        "The phone's +351 is Portugal's (PT)",
      ],
      [{ businessName: 'X', town: 'Somewhere', phone: '+1 555 123 4567' }, 'does not say which'],
      [{ businessName: 'X', town: 'Paarl', country: 'ZA', currency: 'ABC' }, 'currency'],
      [
        { businessName: 'X', town: 'Paarl', country: 'ZA', payoutPreference: { method: 'Wise' } },
        'payoutPreference',
      ],
      [
        {
          businessName: 'X',
          town: 'Porto',
          country: 'PT',
          payoutPreference: { method: 'bank', note: 'PT50 0002 0123 1234 5678 9015 4' },
        },
        'payoutPreference',
      ],
      [{ businessName: 'x'.repeat(121), town: 'Paarl', country: 'ZA' }, 'businessName'],
      [
        { businessName: 'X', town: 'Paarl', country: 'ZA', categories: ['grooming', 'grooming'] },
        'categories',
      ],
      [{ businessName: 'X', town: 'Paarl', country: 'ZA', vans: 51 }, 'vans'],
      [{ businessName: 'X', town: 'Paarl', country: 'ZA', staff: -1 }, 'staff'],
      [{ businessName: 'X', town: 'Paarl', country: 'ZA', timezone: 'Mars/Olympus' }, 'timezone'],
      [{ businessName: 'X', town: 'Paarl', country: 'ZA', bankAccount: '123' }, 'bankAccount'],
    ] as const) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body.error), JSON.stringify(body)).toContain(field);
    }
    expect(
      (await post({ businessName: 'x'.repeat(120), town: 'Paarl', country: 'ZA', vans: 50, staff: 500 }))
        .status,
    ).toBe(201);
    const mine = await post({ businessName: 'Mine', town: 'Paarl', country: 'ZA' });
    const other = { authorization: await keyFor('other@example.com') };
    const theirs = await server.post(
      '/v1/business/applications',
      { applicationId: mine.body.applicationId, businessName: 'Taken' },
      other,
    );
    expect(theirs.status).toBe(404);
    expect(
      (await server.get(`/v1/business/applications?applicationId=${mine.body.applicationId}`, other)).status,
    ).toBe(404);
    const still = await server.get(`/v1/business/applications?applicationId=${mine.body.applicationId}`, as);
    expect(still.body.application.name).toBe('Mine');
    expect((await server.get('/v1/business/applications', other)).body).toMatchObject({
      application: null,
      applications: [],
    });
    // Without the scope: 403.
    const { key } = await createApiKey(server.db.sql, { email: 'careful@example.com', scopes: ['pets'] });
    expect(
      (
        await server.post(
          '/v1/business/applications',
          { businessName: 'Y', town: 'Paarl', country: 'ZA' },
          { authorization: `Bearer ${key}` },
        )
      ).status,
    ).toBe(403);
  });

  it('drops the PayFast merchant id when the business moves out of South Africa', async () => {
    const as = { authorization: await keyFor('mover@example.com') };
    const started = await server.post(
      '/v1/business/applications',
      { businessName: 'Moving Paws', town: 'Stellenbosch', country: 'ZA' },
      as,
    );
    const id = started.body.applicationId;
    const connected = await server.post(
      `/v1/business/applications/${id}/gateway`,
      { merchantId: '10000100' },
      as,
    );
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    expect(item(connected.body, 'gateway').status).toBe('DONE');
    const moved = await server.post(
      '/v1/business/applications',
      { applicationId: id, country: 'PT', timezone: 'Europe/Lisbon' },
      as,
    );
    expect(moved.status).toBe(200);
    expect(moved.body.checklist.map((i: Item) => i.id)).toContain('payout');
    const [stored] = await server.db.sql`select gateway from business_applications where id = ${id}`;
    expect(stored!.gateway).toBeNull();
  });
});
