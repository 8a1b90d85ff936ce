// Calendar feeds (issue 30): a pet owner's bookings, a staff member's own jobs and a business's
// jobs as private .ics feeds, read back with a real parser (node-ical) as a calendar app would.
// Only the van's own jobs in a crew member's feed; a moved booking keeps its UID at its new time;
// a cancelled one is STATUS:CANCELLED; a rotated address answers 404 and the new one works; other
// people's business feeds are refused and change nothing; bad addresses are a plain 404, never a
// 500; and the account page's form makes and replaces the address in Chromium.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { type AuthContext, type OperationContext, pageOperations, runOperation } from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { setPassword } from '@nogpets/store';
import { type Browser, fixedClock, launchBrowser, type Page } from '@nogpets/test-utils';
import ical from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm, signedInForm, startTestServer, type TestServer, toolJson } from './harness.js';
import { insertPartner, STELLENBOSCH_PARTNER } from './partner-fixture.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const BIZ = 'biz_boland_paws';
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg
const DAY = 86_400_000;
const CLIENT = 'anele.dlamini@clients.example'; // a Boland Paws client with bookings (demo data)
const PASSWORD = 'a long enough password';
const screens = process.env.PAGE_SCREENS;

interface FeedEvent {
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  status: string | undefined;
  sequence: number;
  location: string;
}

/** A property's text, whether node-ical gives it bare or with its parameters. */
const text = (v: unknown): string =>
  typeof v === 'string' ? v : ((v as { val?: string } | undefined)?.val ?? '');

/** What a calendar app reads at the address: the answer, and its events as node-ical parses them. */
async function readFeed(url: string) {
  const res = await fetch(url);
  const body = await res.text();
  if (res.status !== 200)
    return { status: res.status, headers: res.headers, body, events: [], calendar: null };
  const parsed = ical.sync.parseICS(body);
  const events: FeedEvent[] = Object.values(parsed)
    .filter((c) => c?.type === 'VEVENT')
    .map((c) => {
      const e = c as Json;
      return {
        uid: e.uid,
        start: new Date(e.start),
        end: new Date(e.end),
        summary: text(e.summary),
        status: e.status,
        sequence: Number(e.sequence ?? 0),
        location: text(e.location),
      };
    });
  const calendar = Object.values(parsed).find((c) => c?.type === 'VCALENDAR') as Json;
  return { status: res.status, headers: res.headers, body, events, calendar };
}

describe('calendar feeds', () => {
  let server: TestServer;
  const keys = {} as Record<'owner' | 'manager' | 'crew' | 'other' | 'client', string>;
  const as = (key: string, more: Record<string, string> = {}) => ({
    authorization: `Bearer ${key}`,
    ...more,
  });
  const feedRows = async () =>
    (await server.db.sql`select id, token_hash from calendar_feeds order by id`).map(
      (r) => `${r.id}:${r.token_hash}`,
    );
  /** The bookings a feed must show: starting 90 days back to a year ahead, live or changed in 30 days. */
  const expectedIds = async (where: { userEmail?: string; resources?: string[] }) => {
    const now = clock.now();
    const rows = await server.db.sql<{ id: string }[]>`
      select b.id from bookings b left join users u on u.id = b.user_id
      where b.starts_at >= ${new Date(now.getTime() - 90 * DAY)} and b.starts_at < ${new Date(now.getTime() + 365 * DAY)}
        and (b.status in ('PENDING', 'ACCEPTED', 'DONE') or b.updated_at >= ${new Date(now.getTime() - 30 * DAY)})
        ${where.userEmail ? server.db.sql`and lower(u.email) = ${where.userEmail}` : server.db.sql`and b.business_id = ${BIZ}`}
        ${where.resources ? server.db.sql`and b.resource_id = any(${where.resources}::text[])` : server.db.sql``}`;
    return rows.map((r) => `${r.id}@nogpets`).sort();
  };

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    await insertPartner(server.db.sql, STELLENBOSCH_PARTNER);
    const key = async (email: string, scopes: string[]) =>
      (await createApiKey(server.db.sql, { email, scopes })).key;
    keys.owner = await key('owner@partner.example', ['business:manage']);
    keys.manager = await key('manager@partner.example', ['business:manage']);
    keys.crew = await key('crew@partner.example', ['business:manage']);
    keys.other = await key('other-owner@example.com', ['business:manage', 'bookings:read']);
    keys.client = await key(CLIENT, ['bookings:read', 'bookings:write', 'business:manage']);
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${STELLENBOSCH_PARTNER.id}, id, 'owner', now() from users where email = 'other-owner@example.com'`;
  }, 60_000);
  afterAll(() => server?.stop());

  it("a pet owner's feed: their bookings with the business, UTC times, the zone named, shown once", async () => {
    const made = await server.get('/v1/calendar-feed', as(keys.client));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ scope: 'mine', businessId: null });
    expect(made.body.url).toMatch(
      /^http:\/\/(127\.0\.0\.1|localhost):\d+\/feeds\/ncf_[A-Za-z0-9_-]{43}\.ics$/,
    );
    // Only its hash is kept: the next answer has no address.
    const again = await server.get('/v1/calendar-feed', as(keys.client));
    expect(again.body.url).toBeNull();
    expect(again.body.message).toMatch(/rotate/);
    const [stored] = await server.db.sql`select token_hash from calendar_feeds where scope = 'mine'`;
    expect(stored!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.token_hash).not.toContain(made.body.url.split('/').pop().replace('.ics', ''));

    const feed = await readFeed(made.body.url);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(feed.headers.get('cache-control')).toBe('private, max-age=300');
    // Unchanged, it is the same text: a poll with its ETag gets a 304.
    const etag = feed.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    const again304 = await fetch(made.body.url, { headers: { 'if-none-match': etag } });
    expect(again304.status).toBe(304);
    expect((await readFeed(made.body.url)).body).toBe(feed.body);
    expect(feed.calendar['WR-TIMEZONE']).toBe('Africa/Johannesburg');
    expect(feed.body).toMatch(/\r\nDTSTART:\d{8}T\d{6}Z\r\n/);
    const uids = feed.events.map((e) => e.uid).sort();
    expect(uids.length).toBeGreaterThan(0);
    expect(uids).toEqual(await expectedIds({ userEmail: CLIENT }));
    for (const e of feed.events) expect(e.summary, e.uid).toMatch(/ with Boland Paws$/);
    // Times as the database holds them.
    const first = feed.events[0]!;
    const [row] = await server.db
      .sql`select starts_at, ends_at from bookings where id = ${first.uid.replace('@nogpets', '')}`;
    expect(first.start.toISOString()).toBe(row!.starts_at.toISOString());
    expect(first.end.toISOString()).toBe(row!.ends_at.toISOString());
  });

  it("a crew member's feed holds only their van's jobs, each with service, pet, client and address (MCP)", async () => {
    const client = await server.mcpAs(keys.crew);
    const made = toolJson(
      await client.callTool({ name: 'get_business_calendar_feed', arguments: { scope: 'my_jobs' } }),
    );
    expect(made).toMatchObject({ scope: 'my_jobs', businessId: BIZ });
    const feed = await readFeed(made.url);
    const van1 = await expectedIds({ resources: ['bp-van-1'] });
    const van2 = await expectedIds({ resources: ['bp-van-2'] });
    expect(van1.length).toBeGreaterThan(0);
    expect(van2.length).toBeGreaterThan(0);
    const uids = feed.events.map((e) => e.uid).sort();
    expect(uids).toEqual(van1);
    expect(uids.filter((u) => van2.includes(u))).toEqual([]);
    expect(feed.calendar['WR-CALNAME']).toBe('Boland Paws: my jobs');
    const anele = feed.events.find((e) => e.summary.includes('(Anele Dlamini)'));
    expect(anele, feed.events.map((e) => e.summary).join('\n')).toBeDefined();
    expect(anele!.summary).toMatch(/ for Bongo/);
    expect(anele!.location).toContain('14 Rustenburg Road');
    // Gate codes stay in the day plan, out of a feed that syncs to other services.
    expect(feed.body).not.toContain('Gate code');
  });

  it("an owner's business feed holds every van's jobs (HTTP); a crew member cannot have it, nor another business (nothing made)", async () => {
    const made = await server.get('/v1/business/calendar-feed?scope=business', as(keys.owner));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const feed = await readFeed(made.body.url);
    expect(feed.events.map((e) => e.uid).sort()).toEqual(await expectedIds({}));

    const before = await feedRows();
    const crew = await server.get('/v1/business/calendar-feed?scope=business', as(keys.crew));
    expect(crew.status).toBe(403);
    expect(crew.body.error.code).toBe('FORBIDDEN');
    const crewRotate = await server.post(
      '/v1/business/calendar-feed/rotate',
      { scope: 'business' },
      as(keys.crew),
    );
    expect(crewRotate.status).toBe(403);
    const overMcp = toolJson(
      await (await server.mcpAs(keys.crew)).callTool({
        name: 'get_business_calendar_feed',
        arguments: { scope: 'business' },
      }),
    );
    expect(overMcp.error.code).toBe('FORBIDDEN');
    // A person on no business's staff: 403; another business's owner naming Boland Paws: 404, as
    // for a business that does not exist (the house rule for Run operations).
    for (const path of [
      '/v1/business/calendar-feed?scope=business',
      `/v1/business/calendar-feed?scope=business&businessId=${BIZ}`,
    ]) {
      const stranger = await server.get(
        path,
        as(
          (await createApiKey(server.db.sql, { email: 'nobody@example.com', scopes: ['business:manage'] }))
            .key,
        ),
      );
      expect(stranger.status).toBe(403);
    }
    const other = await server.post(
      '/v1/business/calendar-feed/rotate',
      { scope: 'business', businessId: BIZ },
      as(keys.other),
    );
    expect(other.status).toBe(404);
    expect(JSON.stringify(other.body)).not.toContain('Anele');
    // A pet owner's key without business:manage: 403 for the scope.
    const noScope = await server.get(
      '/v1/business/calendar-feed?scope=business',
      as((await createApiKey(server.db.sql, { email: CLIENT, scopes: ['bookings:read'] })).key),
    );
    expect(noScope.status).toBe(403);
    expect(await feedRows()).toEqual(before);
  });

  it('a moved booking keeps its UID at its new time (SEQUENCE up); a cancelled one is STATUS:CANCELLED', async () => {
    const made = await server.get('/v1/business/calendar-feed?scope=my_jobs', as(keys.crew));
    expect(made.body.url).toBeNull(); // made over MCP above
    const rotated = await server.post(
      '/v1/business/calendar-feed/rotate',
      { scope: 'my_jobs' },
      as(keys.crew),
    );
    expect(rotated.status).toBe(200);
    const url = rotated.body.url as string;
    const [toMove, toCancel] = await server.db.sql<{ id: string }[]>`
      select id from bookings where business_id = ${BIZ} and resource_id = 'bp-van-1' and status = 'ACCEPTED'
        and starts_at > ${new Date(clock.now().getTime() + DAY)} order by starts_at limit 2`;
    const before = (await readFeed(url)).events.find((e) => e.uid === `${toMove!.id}@nogpets`)!;
    expect(before.status).toBe('CONFIRMED');
    // A free weekday morning three weeks on.
    let day = 21;
    while ([0, 6].includes(new Date(clock.now().getTime() + day * DAY).getUTCDay())) day++;
    const start = `${new Date(clock.now().getTime() + day * DAY).toISOString().slice(0, 10)}T08:30:00+02:00`;
    const moved = await server.post(
      `/v1/business/bookings/${toMove!.id}/move`,
      { start, resourceId: 'bp-van-1', confirm: true },
      as(keys.owner),
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const cancelled = await server.post(
      `/v1/business/bookings/${toCancel!.id}/cancel`,
      { reason: 'The van is in for repairs.', confirm: true },
      as(keys.owner),
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);

    const after = await readFeed(url);
    const same = after.events.filter((e) => e.uid === `${toMove!.id}@nogpets`);
    expect(same).toHaveLength(1);
    expect(same[0]!.start.toISOString()).toBe(new Date(start).toISOString());
    expect(same[0]!.sequence).toBeGreaterThan(before.sequence);
    const gone = after.events.find((e) => e.uid === `${toCancel!.id}@nogpets`)!;
    expect(gone.status).toBe('CANCELLED');
    expect(gone.summary).toMatch(/^Cancelled: /);
    expect(after.body).toContain(`UID:${toCancel!.id}@nogpets`);
  });

  it('rotation: the old address answers 404, the new one works; a retry with its Idempotency-Key answers the same address', async () => {
    const first = await server.post(
      '/v1/calendar-feed/rotate',
      {},
      as(keys.client, { 'idempotency-key': 'feeds-rotate-1' }),
    );
    expect(first.status).toBe(200);
    const retry = await server.post(
      '/v1/calendar-feed/rotate',
      {},
      as(keys.client, { 'idempotency-key': 'feeds-rotate-1' }),
    );
    expect(retry.body.url).toBe(first.body.url);
    const second = await server.post(
      '/v1/calendar-feed/rotate',
      {},
      as(keys.client, { 'idempotency-key': 'feeds-rotate-2' }),
    );
    expect(second.body.url).not.toBe(first.body.url);
    const old = await readFeed(first.body.url);
    expect(old.status).toBe(404);
    expect(old.body).toBe('Not found\n');
    expect((await readFeed(second.body.url)).status).toBe(200);
    const audits = await server.db.sql`
      select action from audit_log where action like 'calendar_feed.%' and user_id = (select id from users where email = ${CLIENT})`;
    expect(audits.map((a) => a.action).sort()).toEqual([
      'calendar_feed.create',
      'calendar_feed.rotate',
      'calendar_feed.rotate',
    ]);
  });

  it("a feed stops when its person may no longer read it: a manager's business feed once they are crew", async () => {
    const made = await server.get('/v1/business/calendar-feed?scope=business', as(keys.manager));
    expect((await readFeed(made.body.url)).status).toBe(200);
    await server.db
      .sql`update business_members set role = 'crew' where user_id = (select id from users where email = 'manager@partner.example')`;
    expect((await readFeed(made.body.url)).status).toBe(404);
    await server.db
      .sql`update business_members set role = 'manager' where user_id = (select id from users where email = 'manager@partner.example')`;
    expect((await readFeed(made.body.url)).status).toBe(200);
  });

  it('bad addresses (NUL, huge, unicode, unknown, other shapes) are a plain 404, never a 500', async () => {
    const known = (await server.post('/v1/calendar-feed/rotate', {}, as(keys.client))).body.url as string;
    const token = known.split('/').pop()!.replace('.ics', '');
    const paths = [
      '/feeds/%00.ics',
      `/feeds/${token.slice(0, -1)}%00.ics`,
      `/feeds/${token}%00.ics`,
      `/feeds/${'ncf_'.repeat(3000)}.ics`,
      `/feeds/${'a'.repeat(7000)}`,
      '/feeds/%C3%B1%E2%9C%93.ics',
      '/feeds/%FF%FE.ics',
      '/feeds/%ED%A0%80.ics',
      `/feeds/ncf_${'A'.repeat(43)}.ics`,
      `/feeds/${token}`,
      `/feeds/${token}.ICS`,
      `/feeds/${token}.ics/x`,
      `/feeds/../feeds/${token.toUpperCase()}.ics`,
      '/feeds/',
      '/feeds',
    ];
    for (const p of paths) {
      const res = await fetch(`${server.url}${p}`);
      expect(res.status, p.slice(0, 80)).toBe(404);
      expect(res.headers.get('content-type'), p.slice(0, 80)).toMatch(/^text\/plain/);
      await res.body?.cancel();
    }
    expect((await readFeed(known)).status).toBe(200);
  });

  it("the pages' feed operations run only for their principal: the feed for a visitor, the section for the person", async () => {
    const [u] = await server.db.sql`select id from users where email = ${CLIENT}`;
    const cred = (kind: AuthContext['kind']): AuthContext => ({
      userId: u!.id,
      credentialId: 'c',
      kind,
      scopes: ['bookings:read', 'business:manage'],
      clientId: null,
      clientName: null,
    });
    const call = (who: Pick<OperationContext, 'auth' | 'principal'>): OperationContext => ({
      deps: server.service.runtime.deps,
      requestId: 'calendar-feeds-test',
      clientName: null,
      log: { info() {}, warn() {}, error() {} },
      ...who,
    });
    const visitor = call({ auth: null, principal: { kind: 'visitor' } });
    const person = call({ auth: cred('WEB_SESSION') });
    const apiKey = call({ auth: cred('API_KEY') });
    const refused = (p: Promise<unknown>) =>
      expect(p).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
    const before = await feedRows();
    await refused(runOperation(pageOperations.calendarFeed, person, { token: 'x' }));
    await refused(runOperation(pageOperations.calendarFeed, apiKey, { token: 'x' }));
    for (const who of [visitor, apiKey, call({ auth: null })]) {
      await refused(runOperation(pageOperations.ownCalendarFeeds, who, {}));
      await refused(
        runOperation(pageOperations.rotateOwnCalendarFeed, who, { scope: 'mine', businessId: null }),
      );
    }
    expect(
      await runOperation(pageOperations.calendarFeed, visitor, { token: `ncf_${'x'.repeat(43)}` }),
    ).toBeNull();
    // A pet owner is on no business's staff: only their own bookings' feed is offered, and the
    // business's is refused as for any Run operation (403), nothing made.
    expect((await runOperation(pageOperations.ownCalendarFeeds, person, {})).map((f) => f.scope)).toEqual([
      'mine',
    ]);
    await refused(
      runOperation(pageOperations.rotateOwnCalendarFeed, person, { scope: 'business', businessId: BIZ }),
    );
    await expect(
      runOperation(pageOperations.rotateOwnCalendarFeed, person, { scope: 'mine', businessId: BIZ }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await feedRows()).toEqual(before);
  });

  it("the account page offers staff their own jobs' feed (and owners all jobs), and the form makes it", async () => {
    for (const email of ['crew@partner.example', 'owner@partner.example']) {
      const [u] = await server.db.sql`select id from users where email = ${email}`;
      await setPassword(server.db.sql, u!.id, await hash(PASSWORD));
    }
    const crew = await signedInForm(server, 'crew@partner.example', PASSWORD);
    const page = await (await fetch(`${server.url}/account`, { headers: { cookie: crew.cookie } })).text();
    expect(page).toContain('Your jobs at Boland Paws');
    expect(page).not.toContain('All jobs at Boland Paws');
    // Crew posting the business's feed by hand: refused with the page, nothing made.
    const before = await feedRows();
    const refused = await postForm(
      server,
      '/account/calendar-feeds',
      { csrf: crew.csrf, scope: 'business', businessId: BIZ },
      crew,
    );
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/As crew at Boland Paws you may not/);
    expect(await feedRows()).toEqual(before);
    const owner = await signedInForm(server, 'owner@partner.example', PASSWORD);
    const ownerPage = await (
      await fetch(`${server.url}/account`, { headers: { cookie: owner.cookie } })
    ).text();
    expect(ownerPage).toContain('All jobs at Boland Paws');
    // The owner works no van: no feed of their own jobs is offered.
    expect(ownerPage).not.toContain('Your jobs at Boland Paws');
    const made = await postForm(
      server,
      '/account/calendar-feeds',
      { csrf: owner.csrf, scope: 'business', businessId: BIZ },
      owner,
    );
    expect(made.status).toBe(200);
    const url = /id="new-feed-url">([^<]+)</.exec(await made.text())?.[1];
    expect(url).toMatch(/\/feeds\/ncf_[A-Za-z0-9_-]{43}\.ics$/);
    expect((await readFeed(url!)).events.map((e) => e.uid).sort()).toEqual(await expectedIds({}));
  });

  describe('the account page (Chromium)', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
      await setPassword(
        server.db.sql,
        (await server.db.sql`select id from users where email = ${CLIENT}`)[0]!.id,
        await hash(PASSWORD),
      );
    }, 60_000);
    afterAll(() => browser?.close());

    async function shoot(page: Page, name: string) {
      if (!screens) return;
      mkdirSync(screens, { recursive: true });
      await page.screenshot({ path: path.join(screens, `${name}.png`), fullPage: true });
    }

    it('replaces the personal feed’s address with its form: the new one shown once and working, the old one 404', async () => {
      const page = await browser.newPage();
      await page.goto(`${server.url}/account`);
      await page.waitForURL(/\/signin\?next=/);
      await page.getByLabel('Email').fill(CLIENT);
      await page.getByLabel('Password').fill(PASSWORD);
      await Promise.all([
        page.waitForURL(`${server.url}/account`),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      const section = page.locator('#calendar-feeds');
      const row = section.locator('tr', { hasText: 'Your bookings' });
      expect(await row.innerText()).toMatch(/Your bookings/);
      expect(await page.locator('main').innerText()).not.toContain('/feeds/ncf_');
      const previous = (await server.post('/v1/calendar-feed/rotate', {}, as(keys.client))).body
        .url as string;

      await Promise.all([
        page.waitForLoadState('load'),
        row.getByRole('button', { name: 'Get a new address' }).click(),
      ]);
      await page.locator('#new-feed-url').waitFor();
      const seen = await page.locator('main').innerText();
      expect(seen).toMatch(/The address of the calendar feed of your bookings, shown this once/);
      const url = (await page.locator('#new-feed-url').innerText()).trim();
      expect(url).toMatch(/\/feeds\/ncf_[A-Za-z0-9_-]{43}\.ics$/);
      await page.locator('#calendar').scrollIntoViewIfNeeded();
      await shoot(page, 'account-calendar-feed');
      expect((await readFeed(url)).status).toBe(200);
      expect((await readFeed(previous)).status).toBe(404);
      // Reloaded, the page no longer shows it.
      await page.goto(`${server.url}/account`);
      expect(await page.locator('main').innerText()).not.toContain(url);
      await page.close();
    });
  });
});
