// Drafts by the link. A no-login draft typed with somebody else's email stays the stranger's:
// it is in no account (not in get_signup_status, not on /business/applications, never the default)
// and names nobody, until a sign-in link mailed from the draft's page is followed; then it joins
// the account of that address. And one limit on link mails to an address: sign-up, sign-in and the
// draft page's links together reach it at most 5 times an hour, the 6th refused with the same
// answer whether or not the address has an account.
import { createApiKey } from '@nogpets/operations/testing';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, fixedClock, launchBrowser, type Page } from '@nogpets/test-utils';
import { hash } from '@node-rs/argon2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { askDraftLink, followDraftLink, followMailedLink } from './draft-link.js';
import { mailedLink, openForm, postForm, signedInForm, startTestServer, type TestServer } from './harness.js';

const HOUR = 3600_000;
const PASSWORD = 'a long enough password';

describe('a draft with somebody else’s email stays the stranger’s until the link is followed', () => {
  let server: TestServer;
  const clock = fixedClock('2026-11-23T08:00:00Z');
  const strangerDraft = async (email: string, businessName: string) => {
    const made = await server.post('/v1/signup-drafts', {
      businessName,
      contactName: 'Mallory Stranger',
      email,
      country: 'ZA',
      town: 'Stellenbosch',
      categories: ['grooming'],
      services: [{ name: 'Full groom', price: 'R450' }],
      consent: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body.draftId as string;
  };
  const status = async (key: string) => {
    const res = await server.get('/v1/business/applications', { authorization: `Bearer ${key}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as {
      application: { applicationId: string; name: string } | null;
      applications: { name: string }[];
    };
  };
  const applicationsPage = async (cookie: string) => {
    const res = await fetch(`${server.url}/business/applications`, { headers: { cookie } });
    expect(res.status).toBe(200);
    return res.text();
  };
  const nameOf = async (email: string) =>
    (await server.db.sql`select name from users where email = ${email}`)[0]?.name as string | undefined;

  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server?.stop());
  beforeEach(() => clock.advance(HOUR + 60_000));

  it('is not in the victim’s applications, not their default, and does not name them, until they follow its link', async () => {
    const victim = await findOrCreateUser(server.db.sql, 'victim@example.com', 'Vera Owner');
    await setPassword(server.db.sql, victim.id, await hash(PASSWORD));
    const { key } = await createApiKey(server.db.sql, {
      email: 'victim@example.com',
      scopes: ['business:write'],
    });
    const own = await server.post(
      '/v1/business/applications',
      { businessName: 'Vera’s Own Grooming', town: 'Stellenbosch', country: 'ZA' },
      { authorization: `Bearer ${key}` },
    );
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const ownId = own.body.application?.applicationId ?? own.body.applicationId;

    clock.advance(60_000); // the stranger's draft is the newer one
    const draftId = await strangerDraft('Victim@Example.com', 'Mallory Planted Grooming');
    for (let i = 0; i < 4; i++) await strangerDraft('victim@example.com', `Planted ${i}`);

    const before = await status(key);
    expect(before.application?.applicationId).toBe(ownId);
    expect(before.applications.map((a) => a.name)).toEqual(['Vera’s Own Grooming']);
    const signedIn = await signedInForm(server, 'victim@example.com', PASSWORD);
    const listed = await applicationsPage(signedIn.cookie);
    expect(listed).toContain('Vera’s Own Grooming');
    expect(listed).not.toContain('Planted');
    expect(await nameOf('victim@example.com')).toBe('Vera Owner');
    expect(await server.db.sql`select 1 from business_applications where name like '%Planted%'`).toHaveLength(
      0,
    );

    // Signed in with the password, the draft's page still does not show it as theirs: only its link does.
    const page = await fetch(`${server.url}/business/drafts/${draftId}`, {
      headers: { cookie: signedIn.cookie },
    });
    const pageText = await page.text();
    expect(pageText).toContain('Email me a sign-in link');
    expect(pageText).not.toContain('What is missing');

    // Their own sign-in link (not the draft's) attaches nothing either.
    const form = await openForm(server, '/signin/link');
    expect((await postForm(server, '/signin/link', { email: 'victim@example.com' }, form)).status).toBe(200);
    await followMailedLink(server, 'victim@example.com');
    expect((await status(key)).applications.map((a) => a.name)).toEqual(['Vera’s Own Grooming']);

    // The link mailed from the draft's page says what it does; followed, the draft joins the account.
    const followed = await followDraftLink(server, draftId, 'victim@example.com');
    expect(followed.subject).toBe('Your NogPets application for Mallory Planted Grooming');
    expect(followed.body).toContain('the application is not added to any account unless the link is opened');
    const after = await status(key);
    expect(after.applications.map((a) => a.name).sort()).toEqual(
      ['Mallory Planted Grooming', 'Vera’s Own Grooming'].sort(),
    );
    expect(await applicationsPage(followed.cookie)).toContain('Mallory Planted Grooming');
    const [row] = await server.db.sql`
      select a.user_id, a.status from signup_drafts d join business_applications a on a.id = d.application_id
      where d.id = ${draftId}`;
    expect(row).toEqual({ user_id: victim.id, status: 'DRAFT' });
    // The person's name is theirs; the draft's contact stays on the application only.
    expect(await nameOf('victim@example.com')).toBe('Vera Owner');
  });

  it('makes no account for a new address; the real owner’s sign-up name wins, and the draft joins only by its link', async () => {
    const draftId = await strangerDraft('nia@example.com', 'Stranger Suds');
    expect(await server.db.sql`select 1 from users where email = 'nia@example.com'`).toHaveLength(0);
    expect(
      (await server.db.sql`select user_id, application_id from signup_drafts where id = ${draftId}`)[0],
    ).toEqual({ user_id: null, application_id: null });

    // The owner signs up with her own name.
    const form = await openForm(server, '/signup');
    const asked = await postForm(server, '/signup', { name: 'Nia Real', email: 'nia@example.com' }, form);
    expect(asked.status).toBe(200);
    const signup = await followMailedLink(server, 'nia@example.com', PASSWORD);
    expect(await nameOf('nia@example.com')).toBe('Nia Real');
    expect(await applicationsPage(signup.cookie)).not.toContain('Stranger Suds');

    // From the draft's page: it joins her account, and her name stays hers.
    const followed = await followDraftLink(server, draftId, 'nia@example.com');
    expect(await applicationsPage(followed.cookie)).toContain('Stranger Suds');
    expect(await nameOf('nia@example.com')).toBe('Nia Real');
  });

  it('an account the draft’s link makes has no name from the draft, nor from a sign-up form after', async () => {
    const draftId = await strangerDraft('omar@example.com', 'Omar’s Dog Spa');
    const followed = await followDraftLink(server, draftId, 'omar@example.com');
    expect(followed.subject).toBe('Your NogPets application for Omar’s Dog Spa');
    expect(followed.body).toContain('makes your NogPets account');
    expect(await nameOf('omar@example.com')).toBe('');
    expect(await applicationsPage(followed.cookie)).toContain('Omar’s Dog Spa');
    const [app] = await server.db.sql`
      select a.details->>'contactName' as contact from signup_drafts d
      join business_applications a on a.id = d.application_id where d.id = ${draftId}`;
    expect(app!.contact).toBe('Mallory Stranger');

    const form = await openForm(server, '/signup');
    expect(
      (await postForm(server, '/signup', { name: 'Omar Own', email: 'omar@example.com' }, form)).status,
    ).toBe(200);
    // The account exists now: a sign-up form (anyone's) never names it.
    const mail = await followMailedLink(server, 'omar@example.com');
    expect(mail.subject).toBe('You already have a NogPets account');
    expect(await nameOf('omar@example.com')).toBe('');
  });
});

describe('one limit on link mails per address: 5 an hour, all kinds together', () => {
  let server: TestServer;
  const clock = fixedClock('2026-11-23T08:00:00Z');
  const outbox = async (email: string) =>
    (
      (await server.db
        .sql`select count(*)::int as n from mail_outbox where to_address = ${email}`) as unknown as [
        { n: number },
      ]
    )[0].n;
  const signup = async (email: string) =>
    postForm(server, '/signup', { name: 'Someone', email }, await openForm(server, '/signup'));
  const signinLink = async (email: string) =>
    postForm(server, '/signin/link', { email }, await openForm(server, '/signin/link'));
  const draftFor = async (email: string) => {
    const made = await server.post('/v1/signup-drafts', {
      businessName: 'Flood Grooming',
      email,
      town: 'Stellenbosch',
      consent: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body.draftId as string;
  };
  const main = (html: string, email: string) =>
    (/<main>([\s\S]*)<\/main>/.exec(html)?.[1] ?? html)
      .replaceAll(email, 'ADDRESS')
      .replace(/\d+ minutes/, 'N minutes');

  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server?.stop());

  it('sends at most 5 an hour over /signup, /signin/link and the draft page, then refuses, saying nothing of the account', async () => {
    const known = 'flood.known@example.com';
    const unknown = 'flood.nobody@example.com';
    await findOrCreateUser(server.db.sql, known, 'Known');
    const knownDraft = await draftFor(known);
    const unknownDraft = await draftFor(unknown);

    // Five of every kind mixed: each answered as usual.
    const asks = [
      signup,
      signinLink,
      (e: string) => askDraftLink(server, e === known ? knownDraft : unknownDraft),
      signinLink,
      signup,
    ];
    for (const ask of asks) {
      expect((await ask(known)).status).toBe(200);
      expect((await ask(unknown)).status).toBe(200);
    }
    expect(await outbox(known)).toBe(5);
    // No sign-in mail goes to an address without an account, but the asking counted the same.
    expect(await outbox(unknown)).toBe(3);

    // The sixth, of any kind: 429 with Retry-After, the same words for both addresses, no mail.
    const refusals: Record<string, string[]> = { known: [], unknown: [] };
    for (const [who, email, draftId] of [
      ['known', known, knownDraft],
      ['unknown', unknown, unknownDraft],
    ] as const) {
      for (const res of [await signup(email), await signinLink(email), await askDraftLink(server, draftId)]) {
        expect(res.status).toBe(429);
        expect(res.headers.get('retry-after')).toBe('3600');
        const text = await res.text();
        expect(text).toContain('No mail was sent');
        expect(text).toContain('at most 5 sign-in or sign-up mails an hour to one address');
        refusals[who]!.push(main(text, email).replace(/t•••@example.com|f•••@example.com/, 'ADDRESS'));
      }
    }
    expect(refusals.known!.slice(0, 2)).toEqual(refusals.unknown!.slice(0, 2));
    expect(await outbox(known)).toBe(5);
    expect(await outbox(unknown)).toBe(3);

    // An hour after the first, one more may go.
    clock.advance(HOUR);
    expect((await signinLink(known)).status).toBe(200);
    expect(await outbox(known)).toBe(6);
  });
});

describe('in Chromium: the victim, signed in, meets the stranger’s draft and the mail limit', () => {
  let server: TestServer;
  let browser: Browser;
  const clock = fixedClock('2026-11-23T08:00:00Z');
  const screens = '/tmp/screens';
  const seen = (page: Page) => page.locator('main').innerText();
  const shoot = async (page: Page, name: string) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: path.join(screens, `${name}-${width}.png`), fullPage: true });
    }
  };
  beforeAll(async () => {
    mkdirSync(screens, { recursive: true });
    server = await startTestServer({ clock });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('offers the link on the draft page, attaches by it, and refuses the sixth mail in words', async () => {
    const victim = await findOrCreateUser(server.db.sql, 'vera@example.com', 'Vera Owner');
    await setPassword(server.db.sql, victim.id, await hash(PASSWORD));
    const made = await server.post('/v1/signup-drafts', {
      businessName: 'Planted Paws',
      contactName: 'Mallory Stranger',
      email: 'vera@example.com',
      country: 'ZA',
      town: 'Stellenbosch',
      categories: ['grooming'],
      services: [{ name: 'Full groom', price: 'R450' }],
      consent: true,
    });
    expect(made.status).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/signin`);
      await page.getByLabel('Email').fill('vera@example.com');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((u) => u.pathname === '/account');
      await page.goto(`${server.url}/business/applications`);
      expect(await seen(page)).not.toContain('Planted Paws');

      await page.goto(made.body.continueUrl);
      const offer = await seen(page);
      expect(offer).toContain('we email to v•••@example.com');
      expect(offer).toContain('until then it is in no account');
      await shoot(page, 'i27-draft-unattached');

      for (let i = 0; i < 5; i++) {
        await page.goto(made.body.continueUrl);
        await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
        expect(await seen(page)).toContain('We have sent a sign-in link to v•••@example.com');
      }
      await page.goto(made.body.continueUrl);
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      expect(await seen(page)).toContain('No mail was sent to v•••@example.com now.');
      await shoot(page, 'i27-link-mails-refused');

      const mail = await followMailedLinkInPage(page, 'vera@example.com');
      expect(mail).toContain('Planted Paws');
      expect(await seen(page)).toContain('Finish your application: Planted Paws');
      await page.goto(`${server.url}/business/applications`);
      expect(await seen(page)).toContain('Planted Paws');
      expect((await server.db.sql`select name from users where id = ${victim.id}`)[0]!.name).toBe(
        'Vera Owner',
      );
    } finally {
      await context.close();
    }
  });

  async function followMailedLinkInPage(page: Page, email: string): Promise<string> {
    const mail = await mailedLink(server, email);
    await page.goto(mail.link);
    await page.getByRole('button', { name: new RegExp(`Continue as ${email}`) }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/business/drafts/'));
    return mail.subject;
  }
});
