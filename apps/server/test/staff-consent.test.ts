// Nobody becomes staff without saying yes. An approval and invite_staff_member
// make invitations only, mailed to the address typed; the invited person, signed in with that
// address verified, accepts or declines on the mailed page (Chromium) or with accept_invitation /
// decline_invitation; until then list_staff shows the email as typed, never an account's name.
// Invitations expire after 14 days and are sent again or withdrawn by owners; a member leaves with
// leave_business (the last owner cannot). Another business's manager is never joined nor blocked.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { CLI_REVIEWER } from '@nogpets/operations';
import { approveApplication, createApiKey, grantOperatorAccess } from '@nogpets/operations/testing';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { type Browser, fixedClock, launchBrowser, type Page } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openForm, postForm, startTestServer, type TestServer, toolJson } from './harness.js';
import { applicationForReview } from './review-fixture.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg
const DAY = 86_400_000;
const PASSWORD = 'a long enough password';
const screens = process.env.PAGE_SCREENS;

/** The people the application names, each a case of staff by consent. */
const PET_OWNER = 'petra.owner@example.com'; // a signed-up, verified pet owner with a name
const DRAFTED = 'Drafted.Person@Example.com'; // an account a draft made, never signed in
const OTHER_MANAGER = 'manager@partner.example'; // Boland Paws' manager (demo data)
const FOUNDER = 'founder@karoo.example';

describe('staff by consent', () => {
  let server: TestServer;
  let browser: Browser;
  let businessId: string;
  let walkerId: string;
  const keys = {} as Record<'founder' | 'petOwner' | 'drafted' | 'otherManager' | 'stranger', string>;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const key = async (email: string) =>
    (await createApiKey(server.db.sql, { email, scopes: ['business:manage'] })).key;
  const mcp = async (who: string, tool: string, args: Record<string, unknown> = {}) =>
    toolJson(await (await server.mcpAs(who)).callTool({ name: tool, arguments: args })) as Json;
  const staff = async () =>
    (await server.get(`/v1/business/staff?businessId=${businessId}`, as(keys.founder))).body;
  const invitationTo = async (email: string) => {
    const [row] = await server.db.sql`
      select id from business_invitations where business_id = ${businessId} and lower(email) = lower(${email})`;
    return row!.id as string;
  };
  const membersOf = async (biz: string) =>
    (
      await server.db
        .sql`select lower(u.email) as email, m.role from business_members m join users u on u.id = m.user_id
        where m.business_id = ${biz} order by u.email`
    ).map((r) => `${r.email}:${r.role}`);
  const mailsTo = (email: string) =>
    server.db
      .sql`select subject, body, kind from mail_outbox where lower(to_address) = lower(${email}) order by seq`;
  const auditOf = async (target: string) =>
    (await server.db.sql`select action from audit_log where target = ${target} order by id`).map(
      (r) => r.action,
    );

  async function signIn(page: Page, email: string, next: string) {
    await page.goto(`${server.url}${next}`);
    await page.waitForURL(/\/signin\?next=/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await Promise.all([
      page.waitForURL(`${server.url}${next}`),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
  }
  async function shoot(page: Page, name: string) {
    if (!screens) return;
    mkdirSync(screens, { recursive: true });
    await page.screenshot({ path: path.join(screens, `${name}.png`), fullPage: true });
  }
  const seen = (page: Page) => page.locator('main').innerText();

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    browser = await launchBrowser();
    const sql = server.db.sql;
    // A pet owner who signed up (verified, with a name and a password).
    const petra = await findOrCreateUser(sql, PET_OWNER, 'Petra Owner');
    await setPassword(sql, petra.id, await hash(PASSWORD));
    await sql`update users set email_verified = true, name = 'Petra Owner' where id = ${petra.id}`;
    // An account a draft made for an address nobody proved.
    await findOrCreateUser(sql, DRAFTED, 'Drafty McDraft');
    // Boland Paws' manager: verified, on the staff of Boland Paws only.
    await sql`update users set email_verified = true where email = ${OTHER_MANAGER}`;
    const ops = await findOrCreateUser(sql, 'ops@nogpets.example');
    await setPassword(sql, ops.id, await hash(PASSWORD));
    await grantOperatorAccess({ sql, clock }, 'ops@nogpets.example', CLI_REVIEWER);

    const app = await applicationForReview(server, FOUNDER, { name: 'Karoo Walkers', submit: false });
    walkerId = app.resourceIds.walker;
    const base = `/v1/business/applications/${app.applicationId}`;
    const people = [
      { email: PET_OWNER, role: 'crew', jobTitle: 'Walker', resourceIds: [walkerId] },
      { email: DRAFTED, role: 'crew' },
      { email: OTHER_MANAGER, role: 'manager', jobTitle: 'Head groomer' },
    ];
    const staffStep = await server.post(`${base}/staff`, { people }, { authorization: app.auth });
    expect(staffStep.status, JSON.stringify(staffStep.body)).toBe(200);
    const submitted = await server.post(`${base}/submit`, { confirm: true }, { authorization: app.auth });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);

    // The operator console lists the invited emails and roles before approving.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page, 'ops@nogpets.example', '/operator');
    const console = await page.locator(`#application-${app.applicationId}`).innerText();
    expect(console).toContain(
      `Staff invited at approval: ${PET_OWNER} (crew, Walker); ${DRAFTED} (crew); ${OTHER_MANAGER} (manager, Head groomer)`,
    );
    await shoot(page, 'consent-operator-console');
    await context.close();

    const approval = await approveApplication(
      { sql, clock, payments: { publicUrl: () => server.url } },
      app.applicationId,
      CLI_REVIEWER,
    );
    businessId = approval.businessId;
    keys.founder = await key(FOUNDER);
    keys.petOwner = await key(PET_OWNER);
    keys.drafted = await key(DRAFTED);
    keys.otherManager = await key(OTHER_MANAGER);
    keys.stranger = await key('stranger@example.com');
    await sql`update users set email_verified = true where email in (${FOUNDER}, 'stranger@example.com')`;
  }, 300_000); // a browser, two password hashes, an application made step by step and its approval
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('approval joins only the owner; every person named is invited and mailed the invitation’s page', async () => {
    expect(await membersOf(businessId)).toEqual([`${FOUNDER}:owner`]);
    const invitations = await server.db.sql`
      select id, email, role, sent_at, expires_at from business_invitations where business_id = ${businessId}
      order by email`;
    expect(invitations.map((v) => v.email).sort()).toEqual([DRAFTED, OTHER_MANAGER, PET_OWNER].sort());
    for (const v of invitations) {
      expect(v.sent_at).toEqual(clock.now());
      expect(v.expires_at).toEqual(new Date(clock.now().getTime() + 14 * DAY));
      const [mail] = await mailsTo(v.email);
      expect(mail!.subject).toBe('Karoo Walkers invites you to its staff on NogPets');
      expect(mail!.kind).toBe('staff_invitation');
      expect(mail!.body).toContain(`${server.url}/invitations/${v.id}?answer=accept`);
      expect(mail!.body).toContain(`${server.url}/invitations/${v.id}?answer=decline`);
      expect(mail!.body).toMatch(/nothing changes unless you accept/);
    }
    // Nobody answered them: no accept or decline is recorded.
    expect(await auditOf(invitations[0]!.id)).toEqual([]);
  });

  it('list_staff shows the emails as typed and "invited", never the names of the accounts behind them', async () => {
    const body = await staff();
    expect(body.members.map((m: Json) => m.email)).toEqual([FOUNDER]);
    // Oldest first; made in one approval, so in no particular order among themselves.
    expect(body.invitations.map((v: Json) => [v.email, v.role, v.status]).sort()).toEqual(
      [
        [PET_OWNER, 'crew', 'invited'],
        [DRAFTED, 'crew', 'invited'],
        [OTHER_MANAGER, 'manager', 'invited'],
      ].sort(),
    );
    const text = JSON.stringify(body);
    for (const name of ['Petra Owner', 'Drafty McDraft']) expect(text).not.toContain(name);
    const [manager] = await server.db.sql`select name from users where email = ${OTHER_MANAGER}`;
    expect(manager!.name.length).toBeGreaterThan(0);
    expect(text).not.toContain(manager!.name);
    expect(await mcp(keys.founder, 'list_staff', { businessId })).toEqual(body);
  });

  it('another business’s manager is neither joined nor blocked: their own business answers without businessId', async () => {
    expect(await membersOf('biz_boland_paws')).toContain(`${OTHER_MANAGER}:manager`);
    const plan = await server.get('/v1/business/day-plan', as(keys.otherManager));
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    expect(plan.body.businessId).toBe('biz_boland_paws');
    // Not a member of the new business: it does not exist for them.
    const there = await server.get(`/v1/business/day-plan?businessId=${businessId}`, as(keys.otherManager));
    expect(there.status).toBe(404);
    // Their waiting invitation is listed for them to decide.
    const mine = await mcp(keys.otherManager, 'list_my_invitations');
    expect(mine.invitations).toEqual([
      expect.objectContaining({
        invitationId: await invitationTo(OTHER_MANAGER),
        businessName: 'Karoo Walkers',
        role: 'manager',
        jobTitle: 'Head groomer',
        url: `${server.url}/invitations/${await invitationTo(OTHER_MANAGER)}`,
      }),
    ]);
  });

  it('the pet owner accepts on the mailed page in Chromium and is crew from then on', async () => {
    const id = await invitationTo(PET_OWNER);
    // Until they say yes, nothing: a Run call does not join them.
    const before = await server.get('/v1/business/day-plan', as(keys.petOwner));
    expect(before.status).toBe(403);
    expect(before.body.error.details.invitations).toEqual([
      { invitationId: id, businessName: 'Karoo Walkers' },
    ]);
    expect(await membersOf(businessId)).toEqual([`${FOUNDER}:owner`]);

    const [mail] = await mailsTo(PET_OWNER);
    const link = /https?:\/\/\S+\/invitations\/\S+/.exec(mail!.body)![0];
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await signIn(page, PET_OWNER, new URL(link).pathname);
      const text = await seen(page);
      expect(text).toContain('Karoo Walkers invites you to join its staff as crew (Walker) on Sipho.');
      expect(text).toContain('A crew sees only their own day.');
      expect(text).toContain('Its owners and managers will see your name, email and phone.');
      expect(text).toContain('It waits until Wed, 25 Mar 2026, 06:00 (Africa/Johannesburg time).');
      await shoot(page, `consent-invitation-${width}`);
      if (width === 390) {
        await Promise.all([
          page.waitForNavigation(),
          page.getByRole('button', { name: 'Accept and join Karoo Walkers' }).click(),
        ]);
        expect(await seen(page)).toContain('You are on the staff of Karoo Walkers now, as crew.');
        await shoot(page, 'consent-accepted');
      }
      await context.close();
    }
    expect(await membersOf(businessId)).toEqual([`${FOUNDER}:owner`, `${PET_OWNER}:crew`]);
    const plan = await server.get('/v1/business/day-plan', as(keys.petOwner));
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    expect(plan.body.resources.map((r: Json) => r.resourceId)).toEqual([walkerId]);
    expect(await auditOf(id)).toEqual(['business.invitation.accept']);
    // Accepted: it no longer waits; a second answer says so and changes nothing.
    const again = await server.post(`/v1/business/invitations/${id}/decline`, {}, as(keys.petOwner));
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'INVITATION_CLOSED', details: { state: 'accepted' } });
    expect((await staff()).invitations.map((v: Json) => v.email).sort()).toEqual(
      [DRAFTED, OTHER_MANAGER].sort(),
    );
  });

  it('an unverified account cannot take up its invitation until it proves the address; then it declines', async () => {
    const id = await invitationTo(DRAFTED);
    const refused = await server.post(
      `/v1/business/invitations/${id}/accept`,
      { confirm: true },
      as(keys.drafted),
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.reason).toBe('email_not_verified');
    expect((await mcp(keys.drafted, 'list_my_invitations')).error.code).toBe('FORBIDDEN');
    // The page says the same and offers the link that proves the address.
    const drafted = await server.db.sql`select id from users where lower(email) = lower(${DRAFTED})`;
    await setPassword(server.db.sql, drafted[0]!.id, await hash(PASSWORD));
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, DRAFTED.toLowerCase(), `/invitations/${id}`);
    const text = await seen(page);
    expect(text).toContain('is not verified yet, so this invitation cannot be matched to you');
    expect(text).not.toContain('Karoo Walkers');
    await page.getByRole('link', { name: 'Email me a link to verify it' }).waitFor();
    await shoot(page, 'consent-unverified');
    await context.close();
    expect(await membersOf(businessId)).not.toContain(`${DRAFTED.toLowerCase()}:crew`);

    // Once proven (a followed link), they decline over MCP: not joined; the owner sees it declined.
    await server.db.sql`update users set email_verified = true where id = ${drafted[0]!.id}`;
    const declined = await mcp(keys.drafted, 'decline_invitation', { invitationId: id });
    expect(declined).toMatchObject({ status: 'declined', businessName: 'Karoo Walkers' });
    expect((await staff()).invitations.find((v: Json) => v.invitationId === id)).toMatchObject({
      email: DRAFTED,
      status: 'declined',
    });
    expect(await auditOf(id)).toEqual(['business.invitation.decline']);
    const late = await mcp(keys.drafted, 'accept_invitation', { invitationId: id, confirm: true });
    expect(late.error).toMatchObject({ code: 'INVITATION_CLOSED', details: { state: 'declined' } });
  });

  it('someone else’s invitation answers as one that never existed, on the page and the API, changing nothing', async () => {
    const id = await invitationTo(OTHER_MANAGER);
    for (const who of [keys.stranger, keys.petOwner]) {
      for (const [action, body] of [
        ['accept', { confirm: true }],
        ['decline', {}],
      ] as const) {
        const res = await server.post(`/v1/business/invitations/${id}/${action}`, body, as(who));
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    }
    const none = await server.post(
      '/v1/business/invitations/binv_never_made/accept',
      { confirm: true },
      as(keys.stranger),
    );
    expect(none.status).toBe(404);
    expect(none.body.error.message.replace('binv_never_made', id)).toBe(
      (await server.post(`/v1/business/invitations/${id}/accept`, { confirm: true }, as(keys.stranger))).body
        .error.message,
    );
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, PET_OWNER, `/invitations/${id}`);
    const text = await seen(page);
    expect(text).toContain(`This invitation is not for ${PET_OWNER}.`);
    expect(text).not.toContain('Head groomer');
    await context.close();
    const [row] = await server.db
      .sql`select accepted_at, declined_at from business_invitations where id = ${id}`;
    expect(row).toEqual({ accepted_at: null, declined_at: null });
  });

  it('accept_invitation asks first; the other business’s manager then runs both and leaves the new one', async () => {
    const id = await invitationTo(OTHER_MANAGER);
    const ask = await mcp(keys.otherManager, 'accept_invitation', { invitationId: id });
    expect(ask.error.code).toBe('CONFIRM_REQUIRED');
    expect(ask.error.details.summary).toMatch(/^Join the staff of Karoo Walkers as manager \(Head groomer\)/);
    expect(await membersOf(businessId)).not.toContain(`${OTHER_MANAGER}:manager`);
    const joined = await mcp(keys.otherManager, 'accept_invitation', { invitationId: id, confirm: true });
    expect(joined).toMatchObject({ status: 'accepted', businessId, role: 'manager' });
    // Two businesses now: they name the one they mean; neither is lost.
    const both = await server.get('/v1/business/day-plan', as(keys.otherManager));
    expect(both.status).toBe(400);
    expect(both.body.error.details.businesses.map((b: Json) => b.businessId).sort()).toEqual(
      ['biz_boland_paws', businessId].sort(),
    );
    // They leave the new one: asked first, then gone, and Boland Paws answers without businessId again.
    const askLeave = await server.post('/v1/business/leave', { businessId }, as(keys.otherManager));
    expect(askLeave.status).toBe(409);
    expect(askLeave.body.error.code).toBe('CONFIRM_REQUIRED');
    expect(askLeave.body.error.details.summary).toMatch(
      /^Leave the staff of Karoo Walkers, where you are manager/,
    );
    const left = await mcp(keys.otherManager, 'leave_business', { businessId, confirm: true });
    expect(left).toMatchObject({ businessId, role: 'manager' });
    expect(await membersOf(businessId)).not.toContain(`${OTHER_MANAGER}:manager`);
    expect((await server.get('/v1/business/day-plan', as(keys.otherManager))).body.businessId).toBe(
      'biz_boland_paws',
    );
    expect(await membersOf('biz_boland_paws')).toContain(`${OTHER_MANAGER}:manager`);
    const [manager] = await server.db.sql`select id from users where email = ${OTHER_MANAGER}`;
    expect(await auditOf(manager!.id)).toContain('business.staff.leave');
  });

  it('the last owner cannot leave; crew can', async () => {
    const refused = await mcp(keys.founder, 'leave_business', { businessId, confirm: true });
    expect(refused.error.code).toBe('LAST_OWNER');
    expect(await membersOf(businessId)).toContain(`${FOUNDER}:owner`);
    const left = await server.post('/v1/business/leave', { confirm: true }, as(keys.petOwner));
    expect(left.status, JSON.stringify(left.body)).toBe(200);
    expect(await membersOf(businessId)).toEqual([`${FOUNDER}:owner`]);
    expect((await server.get('/v1/business/day-plan', as(keys.petOwner))).status).toBe(403);
  });

  it('invitations expire after 14 days; the owner sends one again (a fresh mail and expiry) or withdraws it', async () => {
    const invite = (email: string) =>
      mcp(keys.founder, 'invite_staff_member', { businessId, email, role: 'crew', confirm: true });
    const first = await invite('late.walker@example.com');
    expect(first.invitation).toMatchObject({ status: 'invited', sentAt: clock.now().toISOString() });
    expect(first.message).toMatch(/mailed to late\.walker@example\.com; they join once they accept it/);
    const id = first.invitation.invitationId;
    expect(await mailsTo('late.walker@example.com')).toHaveLength(1);
    const late = await key('late.walker@example.com');
    await server.db.sql`update users set email_verified = true where email = 'late.walker@example.com'`;

    clock.advance(14 * DAY + 60_000);
    try {
      expect((await staff()).invitations.find((v: Json) => v.invitationId === id).status).toBe('expired');
      const tooLate = await server.post(`/v1/business/invitations/${id}/accept`, { confirm: true }, as(late));
      expect(tooLate.status).toBe(409);
      expect(tooLate.body.error).toMatchObject({ code: 'INVITATION_CLOSED', details: { state: 'expired' } });
      expect((await mcp(late, 'list_my_invitations')).invitations).toEqual([]);

      const again = await invite('late.walker@example.com');
      expect(again.invitation).toMatchObject({ invitationId: id, status: 'invited' });
      expect(Date.parse(again.invitation.expiresAt)).toBe(clock.now().getTime() + 14 * DAY);
      expect(await mailsTo('late.walker@example.com')).toHaveLength(2);
      expect(
        (await server.post(`/v1/business/invitations/${id}/accept`, { confirm: true }, as(late))).status,
      ).toBe(200);

      // Withdrawn: the link leads nowhere.
      const gone = await invite('withdrawn@example.com');
      const withdrawnKey = await key('withdrawn@example.com');
      await server.db.sql`update users set email_verified = true where email = 'withdrawn@example.com'`;
      await mcp(keys.founder, 'remove_staff_member', {
        businessId,
        staffId: gone.invitation.invitationId,
        confirm: true,
      });
      const after = await server.post(
        `/v1/business/invitations/${gone.invitation.invitationId}/accept`,
        { confirm: true },
        as(withdrawnKey),
      );
      expect(after.status).toBe(404);
      expect(await membersOf(businessId)).toEqual([`${FOUNDER}:owner`, 'late.walker@example.com:crew']);
    } finally {
      clock.set('2026-03-11T04:00:00Z');
    }
  });

  it('invitation mails share the per-address limit of link mails: the sixth in an hour is refused and nothing changes', async () => {
    const email = 'busy.inbox@example.com';
    const invite = () =>
      server.post('/v1/business/staff', { businessId, email, role: 'crew', confirm: true }, as(keys.founder));
    // One sign-in link and four invitations (the first, then sent again three times): five mails.
    const form = await openForm(server, '/signin/link');
    expect((await postForm(server, '/signin/link', { email, next: '/account' }, form)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await invite()).status).toBe(201);
    expect(await mailsTo(email)).toHaveLength(4); // no account: the sign-in link mails nothing, but counts
    const before = await server.db
      .sql`select expires_at, sent_at from business_invitations where email = ${email}`;
    clock.advance(60_000);
    try {
      const sixth = await invite();
      expect(sixth.status).toBe(429);
      expect(sixth.body.error.code).toBe('RateLimited');
      expect(sixth.body.error.message).toMatch(/most mails we send one address in an hour/);
      expect(await mailsTo(email)).toHaveLength(4);
      expect(
        await server.db.sql`select expires_at, sent_at from business_invitations where email = ${email}`,
      ).toEqual(before);
    } finally {
      clock.set('2026-03-11T04:00:00Z');
    }
  });
});
