// A business's notifications on a page (issue 30: "a business can choose which (settings on a page
// and a Run tool)"): /business/notifications in Chromium lists each business the person owns or
// manages with a switch per notification; saving runs update_notification_settings, so the tool
// agrees; a notification turned off mails no staff (the worker's dispatch-notices, SMTP on
// loopback) while the others still go. Crew and strangers are offered nothing; a forged or
// cross-site post is refused with a page, never a 500, and changes nothing.
import { mkdirSync } from 'node:fs';
import { hash } from '@node-rs/argon2';
import { createApiKey } from '@nogpets/operations/testing';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { type Browser, fixedClock, launchBrowser, type Page } from '@nogpets/test-utils';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newPetOwner,
  payInSandbox,
  postForm,
  runJob,
  signedInForm,
  startTestServer,
  type TestServer,
} from './harness.js';
import { type SmtpReceiver, startSmtpReceiver } from './smtp-receiver.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const clock = fixedClock('2026-11-23T04:00:00Z'); // Monday 06:00 in Johannesburg
const PASSWORD = 'a long enough password';
const BUSINESS = 'biz_boland_paws';
const OWNER = 'owner@partner.example';
const MANAGER = 'manager@partner.example';
const CREW_VAN1 = 'crew@partner.example';
const PERSON = 'settings-page-pet-owner@example.com';
const STRANGER = 'no-business@example.com';
const PATH = '/business/notifications';

const toOf = (m: ParsedMail) => (m.to && !Array.isArray(m.to) ? m.to.value[0]?.address : '') ?? '';

describe('a business’s notifications on its page', () => {
  let smtp: SmtpReceiver;
  let server: TestServer;
  let browser: Browser;
  let person: { key: string; petId: string; addressId: string };
  let ownerKey: string;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });

  /** The worker's dispatch-notices job once: events to mails, then delivered. */
  const dispatch = () => runJob(server, 'dispatchNotices', 'dispatch-notices');
  /** Runs `act`, then the job until `n` mails arrived (with a deadline), then once more; the mails. */
  async function mailsOf(act: () => Promise<unknown>, n: number): Promise<ParsedMail[]> {
    const before = smtp.received.length;
    await act();
    await expect
      .poll(
        async () => {
          await dispatch();
          return smtp.received.length - before;
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBeGreaterThanOrEqual(n);
    await dispatch();
    return smtp.received.slice(before);
  }
  /** Each mail as "address kind", read from the outbox row it was sent from. */
  async function described(mails: ParsedMail[]): Promise<string[]> {
    const out: string[] = [];
    for (const m of mails) {
      const [row] = await server.db.sql<{ kind: string }[]>`select kind from mail_outbox
        where lower(to_address) = lower(${toOf(m)}) and subject = ${m.subject ?? ''} order by seq desc limit 1`;
      out.push(`${toOf(m)} ${row?.kind}`);
    }
    return out.sort();
  }
  /** The person's card booking on Van 1 (its crew hears of it), on the first open time of `date`. */
  async function personBooks(date: string): Promise<string> {
    const body = {
      businessId: BUSINESS,
      category: 'grooming',
      addressId: person.addressId,
      pets: [{ petId: person.petId, serviceIds: ['bp-groom-bath'] }],
    };
    const found = await server.post('/v1/availability', { ...body, from: date, to: date }, as(person.key));
    const slot = (found.body.days?.[0]?.slots ?? []).find((s: Json) => s.resourceId === 'bp-van-1');
    expect(slot, `a time on Van 1 on ${date}`).toBeDefined();
    const res = await server.post(
      '/v1/bookings',
      { ...body, start: slot.start, resourceId: 'bp-van-1', paymentMethod: 'CARD', confirm: true },
      as(person.key),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.bookingId as string;
  }
  /** The settings as the operation answers them (GET /v1/business/notification-settings). */
  const toolSettings = async () => {
    const answer = await server.get(
      `/v1/business/notification-settings?businessId=${BUSINESS}`,
      as(ownerKey),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return Object.fromEntries((answer.body as Json).settings.map((s: Json) => [s.kind, s.enabled]));
  };

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
  const seen = (page: Page) => page.locator('main').innerText();

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({
      clock,
      database: { demoDataAt: clock.now() },
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'NogPets <hello@nogpets.test>' },
    });
    browser = await launchBrowser();
    const sql = server.db.sql;
    const secret = await hash(PASSWORD);
    for (const email of [OWNER, CREW_VAN1, STRANGER]) {
      const user = await findOrCreateUser(sql, email);
      await setPassword(sql, user.id, secret);
    }
    ownerKey = (await createApiKey(sql, { email: OWNER, scopes: ['business:manage'] })).key;
    person = await newPetOwner(server, {
      email: PERSON,
      pet: { name: 'Rex', weightKg: 12 },
      line1: '12 Dorp Street',
    });
    // Events before this point (the demo's) were never for the reader: it starts with the ones to come.
    await dispatch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('the owner turns new bookings off on the page: off after a reload, the API agrees, and a booking mails no staff while cancellations still go', async () => {
    expect(await toolSettings()).toEqual({
      business_new_booking: true,
      business_booking_cancelled: true,
      business_booking_moved: true,
      business_staff_joined: true,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      // Reached from the account page's Mail section.
      await signIn(page, OWNER, '/account');
      await Promise.all([
        page.waitForURL(`${server.url}${PATH}`),
        page.getByRole('link', { name: 'Business notifications' }).click(),
      ]);
      const section = page.locator(`#business-${BUSINESS}`);
      expect(await section.locator('h2').innerText()).toBe('Boland Paws');
      expect(await section.locator('form').getAttribute('action')).toBe(PATH);
      const box = (label: string) => section.getByRole('checkbox', { name: label });
      for (const label of [
        'New bookings',
        'Cancellations by clients',
        'Moves by clients',
        'Someone joined your staff',
      ])
        expect(await box(label).isChecked(), label).toBe(true);
      await box('New bookings').uncheck();
      await Promise.all([
        page.waitForURL(/\/business\/notifications\?saved=/),
        section.getByRole('button', { name: 'Save notifications of Boland Paws' }).click(),
      ]);
      expect(await seen(page)).toContain('Saved the notifications of Boland Paws.');
      await page.reload();
      expect(await box('New bookings').isChecked()).toBe(false);
      for (const label of ['Cancellations by clients', 'Moves by clients', 'Someone joined your staff'])
        expect(await box(label).isChecked(), label).toBe(true);
      mkdirSync('/tmp/shots', { recursive: true });
      await page.screenshot({ path: '/tmp/shots/business-notifications.png', fullPage: true });
    } finally {
      await context.close();
    }
    // The tool reads what the page saved.
    expect(await toolSettings()).toEqual({
      business_new_booking: false,
      business_booking_cancelled: true,
      business_booking_moved: true,
      business_staff_joined: true,
    });

    // A new booking, paid: the person's confirmation goes (made from the same event), no staff mail.
    const bookingId = await personBooks('2026-11-25');
    const booked = await mailsOf(async () => expect(await payInSandbox(server, bookingId)).toBe(200), 1);
    expect(await described(booked)).toEqual([`${PERSON} booking_confirmed`]);
    const staffMails = await server.db.sql`
      select to_address from mail_outbox where kind = 'business_new_booking'
        and event_id in (select id from domain_events where subject_id = ${bookingId})`;
    expect(staffMails).toEqual([]);
    // Its cancellation by the client still goes to the owner, the manager and Van 1's crew.
    const cancelled = await mailsOf(
      async () =>
        expect(
          (await server.post(`/v1/bookings/${bookingId}/cancel`, { confirm: true }, as(person.key))).status,
        ).toBe(200),
      3,
    );
    const told = await described(cancelled);
    for (const to of [OWNER, MANAGER, CREW_VAN1]) expect(told).toContain(`${to} business_booking_cancelled`);
  });

  it('crew and a stranger see no business to change; forged, unknown and cross-site posts are refused with a page and change nothing', async () => {
    const before = await toolSettings();
    for (const who of [CREW_VAN1, STRANGER]) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      try {
        await signIn(page, who, PATH);
        const shown = await seen(page);
        expect(shown).toContain('You are not an owner or manager of a business on NogPets');
        expect(shown).not.toContain('Boland Paws');
        expect(await page.locator('main form').count()).toBe(0);
        expect(await page.locator('main input[type=checkbox]').count()).toBe(0);
      } finally {
        await context.close();
      }
    }

    const post = (session: { cookie: string; csrf: string }, fields: Record<string, string>, headers = {}) =>
      postForm(server, PATH, fields, session, headers);
    const crew = await signedInForm(server, CREW_VAN1, PASSWORD);
    const owner = await signedInForm(server, OWNER, PASSWORD);
    const [operator] = await server.db.sql<{ id: string }[]>`select id from businesses where is_operator`;
    const cases: [string, { cookie: string; csrf: string }, Record<string, string>, number, string][] = [
      // Crew forging the owner's form: the operation's refusal, in its words.
      [
        'crew',
        crew,
        { businessId: BUSINESS, kinds: 'business_booking_cancelled' },
        403,
        'As crew at Boland Paws you may not',
      ],
      // The owner naming a business that is not theirs: as if it did not exist.
      [
        'another business',
        owner,
        { businessId: operator!.id, kinds: 'business_new_booking' },
        404,
        `No business ${operator!.id} of yours.`,
      ],
      ['no business', owner, { businessId: '', kinds: 'business_new_booking' }, 400, 'businessId'],
      [
        'a made-up id',
        owner,
        { businessId: 'biz_<script>', kinds: 'business_new_booking' },
        400,
        'businessId',
      ],
      [
        'an unknown kind',
        owner,
        { businessId: BUSINESS, kinds: 'booking_confirmed' },
        400,
        'Not a notification: booking_confirmed',
      ],
      ['no kind at all', owner, { businessId: BUSINESS }, 400, 'Name 1 to 20 notifications.'],
    ];
    for (const [name, session, fields, status, words] of cases) {
      const res = await post(session, fields);
      const text = await res.text();
      expect([name, res.status]).toEqual([name, status]);
      expect(res.headers.get('content-type'), name).toMatch(/^text\/html/);
      expect(text, name).toContain(words);
      expect(text, name).not.toContain('<script>');
    }
    // From another site, or without the form's token: refused before anything runs.
    const cross = await post(
      owner,
      { businessId: BUSINESS, kinds: 'business_booking_moved' },
      {
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
    );
    expect(cross.status).toBe(403);
    expect(await cross.text()).toContain('This form was sent from another site');
    const tokenless = await postForm(
      server,
      PATH,
      { businessId: BUSINESS, kinds: 'business_booking_moved', csrf: 'x'.repeat(owner.csrf.length) },
      undefined,
      { cookie: owner.cookie },
    );
    expect(tokenless.status).toBe(403);
    expect(await toolSettings()).toEqual(before);
  });
});
