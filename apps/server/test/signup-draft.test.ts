// prepareBusinessSignup / prepare_business_signup: a no-login sign-up draft over HTTP and MCP, its
// bounds, consent, the per-caller and per-email limits, the account it joins (only by the link its
// page mails), and the purge.
import { CLI_REVIEWER } from '@nogpets/operations';
import { createApiKey, grantOperatorAccess } from '@nogpets/operations/testing';
import { findOrCreateUser, insertDraft, insertDraftApplication } from '@nogpets/store';
import { fixedClock } from '@nogpets/test-utils';
import { jobs } from '@nogpets/worker';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { followDraftLink } from './draft-link.js';
import { startTestServer, type TestServer, toolJson } from './harness.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe('prepareBusinessSignup / prepare_business_signup', () => {
  let server: TestServer;
  const clock = fixedClock('2026-11-23T08:00:00Z');
  const draft = (body: unknown) => server.post('/v1/signup-drafts', body);
  const base = { businessName: 'Patas Limpas', town: 'Lisboa', consent: true };
  const counts = async () =>
    (
      await server.db.sql<{ drafts: number; applications: number; users: number }[]>`
      select (select count(*)::int from signup_drafts) as drafts,
             (select count(*)::int from business_applications) as applications,
             (select count(*)::int from users) as users`
    )[0]!;
  const application = async (id: string) =>
    (
      await server.db.sql<
        {
          id: string;
          userId: string;
          status: string;
          country: string;
          currency: string;
          timezone: string;
          services: {
            name: string;
            kind: string;
            category: string;
            priceCents: number | null;
            needsPrice?: boolean;
            durationMin: number;
          }[];
          details: Record<string, unknown>;
          name: string;
        }[]
      >`select a.id, a.user_id as "userId", a.status, a.country, a.currency, a.timezone, a.services, a.details, a.name
        from signup_drafts d join business_applications a on a.id = d.application_id where d.id = ${id}`
    )[0];

  /**
   * A draft as drafts were made before drafts went by the link: attached at once to an account it made (named,
   * never signed in to). Such rows may still be in a database for up to 30 days; the purge removes them.
   */
  const legacyDraft = async (email: string) => {
    const now = clock.now();
    const user = await findOrCreateUser(server.db.sql, email, 'Named by a draft');
    const applicationId = await insertDraftApplication(
      server.db.sql,
      user.id,
      { name: 'Legacy', details: {}, country: null, currency: null, timezone: null, services: [] },
      now,
    );
    const expiresAt = new Date(now.getTime() + 30 * DAY);
    const row = await insertDraft(
      server.db.sql,
      {
        applicationId,
        userId: user.id,
        userCreated: true,
        email,
        caller: 'ip:legacy',
        data: null,
        expiresAt,
      },
      now,
    );
    return row.id;
  };

  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server?.stop());
  // Each test starts in a new hour: the per-caller limit counts every draft of the hour.
  beforeEach(() => clock.advance(HOUR + 60_000));

  it('makes a DRAFT application for the email once its link is followed, prices read in its currency', async () => {
    const before = await counts();
    const res = await draft({
      ...base,
      contactName: 'Ana Sousa',
      email: 'Ana@Example.com',
      phone: '+351 912 345 678',
      categories: ['grooming'],
      mode: 'MOBILE',
      vans: 1,
      staff: 2,
      website: 'https://patas.example',
      about: 'Mobile grooming around Lisbon.',
      note: 'Call after 10.',
      services: [
        { name: 'Full groom', price: '€30' },
        { name: 'Bath', price: '25 EUR' },
        { name: 'Nails', price: 'about 10' },
        { name: 'Teeth' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const now = clock.now().getTime();
    expect(res.body).toEqual({
      draftId: expect.stringMatching(/^drf_[0-9a-z]{20}$/),
      continueUrl: `${server.url}/business/drafts/${res.body.draftId}`,
      expiresAt: new Date(now + 30 * DAY).toISOString(),
      summary: expect.any(String),
      message: expect.any(String),
      next: expect.any(String),
    });
    expect(res.body.summary).toBe(
      'Patas Limpas: a grooming business in Lisboa, PT (EUR). Services: Full groom (€30), Bath (€25), Nails (price to set; said "about 10") and Teeth (price to set). Contact: Ana Sousa, ana@example.com. The time zone is still to be chosen.',
    );
    expect(res.body.message).toContain(res.body.continueUrl);
    expect(res.body.message).toContain('ana@example.com');
    // No account is made and none is given the draft: it waits, as sent, for its link.
    expect(await counts()).toEqual({ ...before, drafts: before.drafts + 1 });
    expect(await application(res.body.draftId)).toBeUndefined();
    expect((await server.db.sql`select 1 from users where email = 'ana@example.com'`).length).toBe(0);
    await followDraftLink(server, res.body.draftId, 'ana@example.com');
    const app = (await application(res.body.draftId))!;
    expect(app).toMatchObject({
      status: 'DRAFT',
      name: 'Patas Limpas',
      country: 'PT',
      currency: 'EUR',
      timezone: null,
    });
    expect(app.details).toMatchObject({
      town: 'Lisboa',
      contactName: 'Ana Sousa',
      mode: 'MOBILE',
      vans: 1,
      staff: 2,
      note: 'Call after 10.',
    });
    expect(
      app.services.map((s) => [
        s.name,
        s.kind,
        s.category,
        s.priceCents,
        s.needsPrice ?? false,
        s.durationMin,
      ]),
    ).toEqual([
      ['Full groom', 'PRIMARY', 'grooming', 3000, false, 60],
      ['Bath', 'PRIMARY', 'grooming', 2500, false, 60],
      ['Nails', 'PRIMARY', 'grooming', null, true, 60],
      ['Teeth', 'PRIMARY', 'grooming', null, true, 60],
    ]);
    // The account was made by following the link: the email proven, no password, no name from the draft.
    const [user] = await server.db
      .sql`select email, name, password_hash, email_verified from users where id = ${app.userId}`;
    expect(user).toEqual({
      email: 'ana@example.com',
      name: '',
      password_hash: null,
      email_verified: true,
    });
    expect(await counts()).toEqual({
      drafts: before.drafts + 1,
      applications: before.applications + 1,
      users: before.users + 1,
    });

    // A second draft for the same email (any case) goes to the same account by its link.
    const again = await draft({ ...base, businessName: 'Patas Limpas 2', email: 'ANA@example.com' });
    expect(again.status).toBe(201);
    await followDraftLink(server, again.body.draftId, 'ana@example.com');
    expect((await application(again.body.draftId))!.userId).toBe(app.userId);
    expect((await counts()).users).toBe(before.users + 1);
  });

  it('gives the draft to the account that already has the email, by its link', async () => {
    await createApiKey(server.db.sql, { email: 'owner@example.com', scopes: ['business:write'] });
    const [existing] = await server.db.sql`select id from users where email = 'owner@example.com'`;
    const users = (await counts()).users;
    const res = await draft({
      ...base,
      email: 'owner@example.com',
      country: 'za',
      town: 'Stellenbosch',
      services: [{ name: 'Dog wash', price: 'R350', category: 'grooming' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await application(res.body.draftId)).toBeUndefined();
    await followDraftLink(server, res.body.draftId, 'owner@example.com');
    const app = (await application(res.body.draftId))!;
    expect(app).toMatchObject({
      userId: existing!.id,
      country: 'ZA',
      currency: 'ZAR',
      timezone: 'Africa/Johannesburg',
    });
    expect(app.services[0]).toMatchObject({ priceCents: 35000, category: 'grooming' });
    expect((await counts()).users).toBe(users);
    const [row] = await server.db.sql`select user_created from signup_drafts where id = ${res.body.draftId}`;
    expect(row!.user_created).toBe(false);
  });

  it('works over MCP without a token: a walker in Tokyo, yen without minor units', async () => {
    const client = await server.mcp();
    const answer = await client.callTool({
      name: 'prepare_business_signup',
      arguments: {
        businessName: 'Shibuya Strolls',
        town: 'Tokyo',
        phone: '+81 90 1234 5678',
        email: 'ken@example.jp',
        categories: ['walking'],
        services: [{ name: 'Group walk', price: '¥1,500' }],
        consent: true,
      },
    });
    expect(answer.isError ?? false).toBe(false);
    const body = toolJson(answer);
    expect(body.continueUrl).toBe(`${server.url}/business/drafts/${body.draftId}`);
    await followDraftLink(server, body.draftId, 'ken@example.jp');
    const app = (await application(body.draftId))!;
    expect(app).toMatchObject({ country: 'JP', currency: 'JPY', timezone: 'Asia/Tokyo' });
    expect(app.services[0]).toMatchObject({
      name: 'Group walk',
      priceCents: 1500,
      category: 'walking',
      durationMin: 60,
    });
    // The tool is public and says it changes nothing destructively.
    const tool = (await client.listTools()).tools.find((t) => t.name === 'prepare_business_signup')!;
    expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    // Refusals over MCP are the same errors.
    const refused = await client.callTool({
      name: 'prepare_business_signup',
      arguments: { ...base, consent: false },
    });
    expect(refused.isError).toBe(true);
    expect(toolJson(refused).error.code).toBe('BAD_REQUEST');
  });

  it('keeps a draft without an email with no owner: what was sent waits for the page', async () => {
    const before = await counts();
    const res = await draft({
      ...base,
      services: [{ name: 'Full groom', price: '€30', category: 'grooming' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toMatch(/asks for your email first/);
    expect(res.body.summary).toMatch(/No email yet/);
    const [row] = await server.db
      .sql`select application_id, user_id, data from signup_drafts where id = ${res.body.draftId}`;
    expect(row).toMatchObject({
      application_id: null,
      user_id: null,
      data: { businessName: 'Patas Limpas' },
    });
    expect(await counts()).toEqual({ ...before, drafts: before.drafts + 1 });
  });

  it('accepts every bound at its limit and refuses it one past, naming the field', async () => {
    const s = (n: number) => 'a'.repeat(n);
    // A 64-letter local part and labels of 63: the longest address an email may be, then one more.
    const email = (n: number) =>
      `${'e'.repeat(64)}@${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(n - 64 - 1 - 128 - 4)}.com`;
    const service = { name: 'Walk', category: 'walking' };
    const bounds: [string, unknown, unknown][] = [
      ['businessName', s(120), s(121)],
      ['contactName', s(120), s(121)],
      ['email', email(254), email(255)],
      ['phone', `+27 ${'1'.repeat(26)}`, `+27 ${'1'.repeat(27)}`],
      ['country', 'PT', 'PRT'],
      ['town', s(80), s(81)],
      ['categories', ['grooming', 'walking', 'sitting'], ['grooming', 'walking', 'sitting', 'grooming']],
      ['mode', 'BOTH', 'VAN'],
      ['vans', 50, 51],
      ['vans', 0, -1],
      ['staff', 500, 501],
      ['staff', 0, -1],
      ['website', s(300), s(301)],
      ['about', s(300), s(301)],
      [
        'services',
        Array.from({ length: 30 }, (_, i) => ({ ...service, name: `Walk ${i}` })),
        Array.from({ length: 31 }, (_, i) => ({ ...service, name: `Walk ${i}` })),
      ],
      ['services', [{ ...service, name: s(80) }], [{ ...service, name: s(81) }]],
      ['services', [{ ...service, price: s(40) }], [{ ...service, price: s(41) }]],
      ['note', s(500), s(501)],
    ];
    for (const [field, ok, past] of bounds) {
      clock.advance(HOUR);
      const at = await draft({ ...base, [field]: ok });
      expect(at.status, `${field} at its limit: ${JSON.stringify(at.body)}`).toBe(201);
      const over = await draft({ ...base, [field]: past });
      expect(over.status, `${field} past its limit`).toBe(400);
      expect(over.body.error.code).toBe('BAD_REQUEST');
      expect(over.body.error.details.fields.map((f: { field: string }) => f.field.split('.')[0])).toContain(
        field,
      );
    }
    // Required: businessName and town.
    for (const field of ['businessName', 'town']) {
      const { [field as 'town']: _, ...rest } = base;
      const res = await draft(rest);
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields[0].field).toBe(field);
    }
  });

  it('refuses unknown properties, also inside a service, and a service whose category cannot be told', async () => {
    const before = await counts();
    const unknown = await draft({ ...base, bankAccount: '123' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/bankAccount/);
    const inService = await draft({
      ...base,
      services: [{ name: 'Walk', category: 'walking', priceCents: 100 }],
    });
    expect(inService.status).toBe(400);
    const noCategory = await draft({
      ...base,
      categories: ['grooming', 'walking'],
      services: [{ name: 'Walk' }],
    });
    expect(noCategory.status).toBe(400);
    expect(noCategory.body.error.details.fields[0].field).toBe('services.0.category');
    const badCountry = await draft({ ...base, country: 'XX' });
    expect(badCountry.status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('refuses a draft without consent: false or missing, saying what the person must agree to', async () => {
    const before = await counts();
    for (const consent of [false, undefined, 'yes']) {
      const res = await draft({ ...base, email: 'noconsent@example.com', consent });
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields).toEqual([
        {
          field: 'consent',
          message: expect.stringMatching(
            /must agree that the operator keeps these details to set up the application and to contact them/,
          ),
        },
      ]);
    }
    expect(await counts()).toEqual(before);
  });

  it('limits drafts per caller: 20 an hour, then 429 RateLimited with Retry-After and nothing saved', async () => {
    for (let i = 0; i < 20; i++) {
      clock.advance(60_000);
      const res = await draft({ ...base, businessName: `Shop ${i}`, email: `caller${i}@example.com` });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const before = await counts();
    const refused = await draft({ ...base, email: 'late@example.com' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RateLimited');
    // The first of the twenty is 19 minutes old: it leaves the window in 41 minutes.
    expect(refused.headers.get('retry-after')).toBe(String(41 * 60));
    expect(refused.body.error.details).toMatchObject({
      limit: 20,
      windowSeconds: 3600,
      retryAfterSeconds: 41 * 60,
    });
    const overMcp = await (await server.mcp()).callTool({ name: 'prepare_business_signup', arguments: base });
    expect(overMcp.isError).toBe(true);
    expect(toolJson(overMcp).error.code).toBe('RateLimited');
    expect(await counts()).toEqual(before);
    expect((await server.db.sql`select 1 from users where email = 'late@example.com'`).length).toBe(0);
    clock.advance(41 * 60_000 - 1000);
    expect((await draft({ ...base, email: 'late@example.com' })).status).toBe(429);
    clock.advance(1000);
    expect((await draft({ ...base, email: 'late@example.com' })).status).toBe(201);
  });

  it('limits drafts per email: 5 a day, then 429 with nothing saved; other emails go on', async () => {
    for (let i = 0; i < 5; i++) {
      clock.advance(HOUR);
      expect((await draft({ ...base, email: 'busy@example.com' })).status).toBe(201);
    }
    const before = await counts();
    const refused = await draft({ ...base, email: 'Busy@Example.com' });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      code: 'RateLimited',
      details: { limit: 5, windowSeconds: 86400 },
    });
    expect(Number(refused.headers.get('retry-after'))).toBe(24 * 3600 - 5 * 3600 + 3600);
    expect(await counts()).toEqual(before);
    expect((await draft({ ...base, email: 'quiet@example.com' })).status).toBe(201);
    clock.advance(DAY);
    expect((await draft({ ...base, email: 'busy@example.com' })).status).toBe(201);
  });

  it('purges drafts after 30 days with their DRAFT application and an account an earlier draft made; a submitted one stays', async () => {
    const purge = jobs.find((j) => j.name === 'purge-signup-drafts')!;
    const run = () => purge.run({ sql: server.db.sql, now: () => clock.now() });
    clock.advance(31 * DAY); // every draft of the tests above expires
    await run();
    await createApiKey(server.db.sql, { email: 'kept@example.com', scopes: ['business:write'] });
    const legacy = await legacyDraft('gone@example.com');
    const existing = await draft({ ...base, email: 'kept@example.com' });
    const submitted = await draft({ ...base, email: 'sent@example.com' });
    const signedIn = await draft({ ...base, email: 'came@example.com' });
    const unfollowed = await draft({ ...base, email: 'never.came@example.com' });
    const ownerless = await draft(base);
    const ids = [existing, submitted, signedIn, unfollowed, ownerless].map((r) => {
      expect(r.status).toBe(201);
      return r.body.draftId as string;
    });
    for (const [i, email] of ['kept@example.com', 'sent@example.com', 'came@example.com'].entries())
      await followDraftLink(server, ids[i]!, email);
    ids.unshift(legacy);
    const apps = await Promise.all(ids.slice(0, 4).map(async (id) => (await application(id))!));
    await server.db.sql`update business_applications set status = 'SUBMITTED' where id = ${apps[2]!.id}`;
    clock.advance(29 * DAY);
    const young = await draft({ ...base, email: 'young@example.com' });
    expect(await run()).toEqual({ drafts: 0, applications: 0, accounts: 0 });

    clock.advance(DAY + 60_000);
    expect(await run()).toEqual({ drafts: 6, applications: 3, accounts: 1 });
    expect(await run()).toEqual({ drafts: 0, applications: 0, accounts: 0 });
    const left = await server.db.sql`select id from signup_drafts`;
    expect(left.map((r) => r.id)).toEqual([young.body.draftId]);
    const appsLeft = await server.db
      .sql`select id, status from business_applications where id in ${server.db.sql(apps.map((a) => a.id))}`;
    expect(appsLeft).toEqual([{ id: apps[2]!.id, status: 'SUBMITTED' }]);
    const emails = (
      await server.db
        .sql`select email from users where email in ('gone@example.com', 'kept@example.com', 'sent@example.com', 'came@example.com', 'never.came@example.com') order by email`
    ).map((r) => r.email);
    expect(emails).toEqual(['came@example.com', 'kept@example.com', 'sent@example.com']);
    // The draft's page is gone too.
    const page = await fetch(`${server.url}/business/drafts/${ids[0]}`);
    expect(page.status).toBe(404);
  });

  it('never purges an account a draft made once it became an operator or a member of a business', async () => {
    const purge = jobs.find((j) => j.name === 'purge-signup-drafts')!;
    const run = () => purge.run({ sql: server.db.sql, now: () => clock.now() });
    clock.advance(31 * DAY);
    await run();
    // Accounts an earlier draft made (a draft makes none now).
    for (const email of ['new.operator@example.com', 'new.crew@example.com', 'nothing.else@example.com'])
      await legacyDraft(email);
    // Granted the console, and made crew of a business, before ever signing in.
    await grantOperatorAccess({ sql: server.db.sql, clock }, 'new.operator@example.com', CLI_REVIEWER);
    const [biz] = await server.db.sql`select id from businesses order by is_operator desc limit 1`;
    const [crewUser] = await server.db.sql`select id from users where email = 'new.crew@example.com'`;
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      values (${biz!.id}, ${crewUser!.id}, 'crew', ${clock.now()})`;
    clock.advance(31 * DAY);
    expect(await run()).toEqual({ drafts: 3, applications: 3, accounts: 1 });
    const emails = (
      await server.db.sql`
        select email from users where email in ('new.operator@example.com', 'new.crew@example.com', 'nothing.else@example.com')
        order by email`
    ).map((r) => r.email);
    expect(emails).toEqual(['new.crew@example.com', 'new.operator@example.com']);
    expect(
      (
        await server.db
          .sql`select 1 from operators o join users u on u.id = o.user_id where u.email = 'new.operator@example.com'`
      ).length,
    ).toBe(1);
    expect((await server.db.sql`select 1 from business_members where user_id = ${crewUser!.id}`).length).toBe(
      1,
    );
  });

  it('keeps an account that any table refers to, also a table added later', async () => {
    const purge = jobs.find((j) => j.name === 'purge-signup-drafts')!;
    const run = () => purge.run({ sql: server.db.sql, now: () => clock.now() });
    clock.advance(31 * DAY);
    await run();
    await server.db.sql`
      create table if not exists later_feature (id serial primary key, user_id text references users(id) on delete set null)`;
    await legacyDraft('held.later@example.com');
    await server.db.sql`
      insert into later_feature (user_id) select id from users where email = 'held.later@example.com'`;
    clock.advance(31 * DAY);
    expect(await run()).toEqual({ drafts: 1, applications: 1, accounts: 0 });
    expect((await server.db.sql`select 1 from users where email = 'held.later@example.com'`).length).toBe(1);
    await server.db.sql`drop table later_feature`;
  });

  it('counts a caller by its address, not by a header it writes, and an IPv6 caller by its /64', async () => {
    // Without a trusted proxy, X-Forwarded-For is the client's to write: it changes nothing.
    for (let i = 0; i < 20; i++) {
      const res = await server.post(
        '/v1/signup-drafts',
        { ...base, businessName: `Spoof ${i}` },
        { 'x-forwarded-for': `198.51.100.${i + 1}` },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const spoofed = await server.post('/v1/signup-drafts', base, { 'x-forwarded-for': '198.51.100.99' });
    expect(spoofed.status).toBe(429);

    // Behind a trusted proxy (loopback here), the address it forwards is the caller.
    const behind = await startTestServer({ db: server.db, clock, env: { TRUST_PROXY: 'loopback' } });
    try {
      clock.advance(HOUR + 60_000);
      const from = (address: string) =>
        behind.post('/v1/signup-drafts', base, { 'x-forwarded-for': address });
      for (let i = 0; i < 20; i++) {
        const res = await from(`2001:db8:1:2::${(i + 1).toString(16)}`);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
      // Another address of the same /64 is the same caller; another /64 is another.
      expect((await from('2001:db8:1:2:ffff:ffff:ffff:1')).status).toBe(429);
      expect((await from('2001:db8:1:3::1')).status).toBe(201);
      // An IPv4 address written IPv4-mapped is that address.
      for (let i = 0; i < 20; i++) expect((await from('203.0.113.7')).status).toBe(201);
      expect((await from('::ffff:203.0.113.7')).status).toBe(429);
    } finally {
      await behind.stop();
    }
  });
});
