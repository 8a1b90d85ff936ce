// Pages a person can find their way through, in real Chromium reading what is
// shown. The home page says what NogPets is and where each visitor goes on (and starts a business
// application as prepare_business_signup does); every page has the same header links for who is
// signed in; the operator's approve asks first; an approved application says what is next; the
// sign-in link mails name the business and greet by the name given.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { CLI_REVIEWER, systemClock } from '@nogpets/operations';
import { grantOperatorAccess } from '@nogpets/operations/testing';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { type Browser, launchBrowser, type Page } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askDraftLink } from './draft-link.js';
import { mailedLink, openForm, postForm, startTestServer, type TestServer } from './harness.js';
import { applicationForReview } from './review-fixture.js';

const PASSWORD = 'a long enough password';
const OWNER = 'nav.owner@example.com';
const APPLICANT = 'nav.applicant@example.com';
const OPERATOR = 'nav.operator@example.com';
const screens = process.env.PAGE_SCREENS;

describe('pages a person can find their way through', () => {
  let server: TestServer;
  let browser: Browser;
  let waiting: { applicationId: string };
  let toApprove: { applicationId: string };

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    const sql = server.db.sql;
    for (const [email, name] of [
      [OWNER, 'Olwethu Owner'],
      [APPLICANT, 'Ayanda Applicant'],
      [OPERATOR, 'Oscar Operator'],
    ] as const) {
      const user = await findOrCreateUser(sql, email, name);
      await setPassword(sql, user.id, await hash(PASSWORD));
    }
    await grantOperatorAccess({ sql, clock: systemClock }, OPERATOR, CLI_REVIEWER);
    waiting = await applicationForReview(server, APPLICANT, { name: 'Navigation Suds' });
    toApprove = await applicationForReview(server, APPLICANT, { name: 'Confirmed Paws' });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function shoot(page: Page, name: string) {
    if (!screens) return;
    mkdirSync(screens, { recursive: true });
    await page.screenshot({ path: path.join(screens, `${name}.png`), fullPage: true });
  }

  const shown = (page: Page, selector = 'main') => page.locator(selector).innerText();

  async function submit(page: Page, button: ReturnType<Page['locator']>): Promise<void> {
    await Promise.all([page.waitForNavigation(), button.click()]);
  }

  async function signedIn(email: string, width = 1280) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/signin`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await submit(page, page.getByRole('button', { name: 'Sign in' }));
    return { context, page };
  }

  /** The header's links and buttons, as shown. */
  async function headerLinks(page: Page): Promise<string[]> {
    const items = page.locator('header nav a, header nav button');
    return (await items.allInnerTexts()).map((t) => t.trim());
  }

  for (const width of [1280, 390]) {
    it(`shows a stranger the home page: what NogPets is, and the way on for each visitor, at ${width} px`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      try {
        const page = await context.newPage();
        const answer = await page.goto(`${server.url}/`);
        expect(answer?.status()).toBe(200);
        expect(answer?.headers()['content-type']).toMatch(/^text\/html/);
        const text = await shown(page);
        expect(text).toContain('NogPets books pet care');
        expect(await shown(page, '#owners')).toMatch(/Sign in\s+Create an account/);
        expect(await shown(page, '#developers')).toContain(`MCP server for pet owners: ${server.url}/mcp\n`);
        expect(await shown(page, '#developers')).toContain(
          `MCP server for pet businesses (sign-up and running the business): ${server.url}/mcp/business`,
        );
        expect(await shown(page, '#businesses')).toContain('Start the application');
        expect(await headerLinks(page)).toEqual(['Sign in', 'Sign up']);
        await shoot(page, `home-${width}`);
        // Its links go where they say.
        await submit(page, page.locator('#developers').getByRole('link', { name: 'API documentation' }));
        expect(new URL(page.url()).pathname).toBe('/docs');
        await page.goto(`${server.url}/`);
        await submit(page, page.locator('header').getByRole('link', { name: 'Sign up' }));
        expect(await shown(page, 'h1')).toBe('Create your account');
      } finally {
        await context.close();
      }
    });
  }

  it('keeps JSON 404s for unknown paths, with odd text in them too', async () => {
    const res = await fetch(`${server.url}/v1/no-such-thing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    // Text that cannot be stored in an unknown path or its query is still the API's JSON 404: the
    // home page's check of its own text covers '/' only, not every path below it.
    for (const at of [
      '/v1/no-such-thing%00',
      '/v1/no-such-thing?q=%00',
      '/v1/%ED%A0%80',
      '/no-such-page%00',
      '/no-such-page?q=%00',
    ]) {
      const odd = await fetch(`${server.url}${at}`);
      expect(odd.status, at).toBe(404);
      expect(await odd.json(), at).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    // The home page itself refuses such text with a page, as every page does.
    const home = await fetch(`${server.url}/?q=%00`);
    expect(home.status).toBe(400);
    expect(home.headers.get('content-type')).toMatch(/^text\/html/);
  });

  for (const width of [1280, 390]) {
    it(`starts an application from the home page's form and lands on the draft's page, at ${width} px`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      try {
        const page = await context.newPage();
        await page.goto(`${server.url}/`);
        const form = page.locator('#start-application');
        await form.getByLabel('Business name').fill(`Home Page Groomers ${width}`);
        await form.getByLabel('Town').fill('Stellenbosch');
        await form.getByLabel('Country (optional)').fill('za');
        await form.getByLabel('Your name (optional)').fill('Thandi Groomer');
        await form.getByLabel('Email (optional)').fill(`home.groomer.${width}@example.com`);
        await form.getByLabel('Grooming').check();
        await form.getByLabel(/I agree that the NogPets operator keeps these details/).check();
        await submit(page, form.getByRole('button', { name: 'Start the application' }));
        expect(new URL(page.url()).pathname).toMatch(/^\/business\/drafts\/drf_[0-9a-z]+$/);
        expect(await shown(page)).toContain(`Home Page Groomers ${width}`);
        await shoot(page, `home-started-${width}`);
        // The same draft an assistant's prepare_business_signup makes, named on the page it came from.
        const draftId = new URL(page.url()).pathname.split('/').pop()!;
        const [audit] = await server.db.sql`
          select client_name from audit_log where action = 'signup_draft.prepare' and target = ${draftId}`;
        expect(audit).toMatchObject({ client_name: 'NogPets home page' });
      } finally {
        await context.close();
      }
    });
  }

  it('says what the start form refused in its own words, and refuses a post without its token', async () => {
    const form = await openForm(server, '/business/start');
    const refused = await postForm(
      server,
      '/business/start',
      { businessName: 'No Consent Walkers', town: 'Paarl', country: 'Q1' },
      form,
    );
    expect(refused.status).toBe(400);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.setContent(await refused.text());
      const outcome = await shown(page, '#outcome');
      expect(outcome).toContain('Country:');
      expect(outcome).toContain('Agreement: tick the box to agree');
      // What was typed is still there.
      expect(await page.locator('#start-businessName').inputValue()).toBe('No Consent Walkers');
    } finally {
      await context.close();
    }
    const forged = await postForm(
      server,
      '/business/start',
      { businessName: 'Forged', town: 'Paarl', consent: 'yes' },
      { cookie: form.cookie, csrf: 'forged' },
    );
    expect(forged.status).toBe(403);
    const [made] = await server.db.sql`
      select count(*)::int as n from signup_drafts where data->>'businessName' in ('Forged', 'No Consent Walkers')`;
    expect(made!.n).toBe(0);
  });

  it('gives every page the same header links for a pet owner, an applicant and an operator', async () => {
    const people = [
      {
        email: OWNER,
        links: ['Account', 'Sign out'],
        // The sign-in pages too: someone signed in who opens them (to switch accounts) still sees who they are.
        pages: ['/', '/account', '/business/start', '/signin', '/signup', '/signin/link'],
      },
      {
        email: APPLICANT,
        links: ['Account', 'Applications', 'Sign out'],
        pages: [
          '/',
          '/account',
          '/business/applications',
          `/business/applications/${waiting.applicationId}`,
          '/operator', // refused, but still the same header
        ],
      },
      {
        email: OPERATOR,
        links: ['Account', 'Console', 'Sign out'],
        pages: ['/', '/account', '/operator', '/business/start'],
      },
    ];
    for (const person of people) {
      const { context, page } = await signedIn(person.email);
      try {
        for (const at of person.pages) {
          await page.goto(`${server.url}${at}`);
          expect(await headerLinks(page), `${person.email} on ${at}`).toEqual(person.links);
          expect(await shown(page, 'header'), `${person.email} on ${at}`).toContain(person.email);
        }
        if (person.email === OWNER) {
          // A form whose token has gone stale: the refusal keeps the header of who is signed in.
          await page.goto(`${server.url}/signin/link`);
          await page.locator('main input[name="csrf"]').evaluate((el) => {
            (el as unknown as { value: string }).value = 'stale';
          });
          await page.getByLabel('Email').fill(person.email);
          await submit(page, page.locator('main').getByRole('button', { name: 'Send the link' }));
          expect(await shown(page)).toContain('This form has expired');
          expect(await headerLinks(page)).toEqual(person.links);
        }
        if (person.email === OPERATOR) {
          // The operator reaches the console from the header of any page.
          await page.goto(`${server.url}/account`);
          await submit(page, page.locator('header').getByRole('link', { name: 'Console' }));
          expect(new URL(page.url()).pathname).toBe('/operator');
          expect(await shown(page, 'h1')).toBe('Operator console');
        }
        if (person.email === APPLICANT) {
          await page.goto(`${server.url}/`);
          await submit(page, page.locator('header').getByRole('link', { name: 'Applications' }));
          expect(await shown(page, '#applications')).toContain('Navigation Suds');
        }
        // Sign out is in the header too.
        await submit(page, page.locator('header').getByRole('button', { name: 'Sign out' }));
        await page.goto(`${server.url}/`);
        expect(await headerLinks(page)).toEqual(['Sign in', 'Sign up']);
      } finally {
        await context.close();
      }
    }
    for (const width of [1280, 390]) {
      const { context, page } = await signedIn(OPERATOR, width);
      try {
        await page.goto(`${server.url}/account`);
        await shoot(page, `header-operator-account-${width}`);
      } finally {
        await context.close();
      }
    }
  });

  it('asks the operator to confirm an approval; the approved application then says what is next', async () => {
    const sql = server.db.sql;
    const statusOf = async () =>
      (await sql`select status from business_applications where id = ${toApprove.applicationId}`)[0]!.status;
    for (const width of [390, 1280]) {
      const { context, page } = await signedIn(OPERATOR, width);
      try {
        await page.goto(`${server.url}/operator`);
        const entry = page.locator(`#application-${toApprove.applicationId}`);
        await submit(page, entry.getByRole('button', { name: 'Approve Confirmed Paws' }));
        expect(await shown(page, 'h1')).toBe('Approve Confirmed Paws?');
        expect(await shown(page)).toContain('Approving makes Confirmed Paws');
        await shoot(page, `approve-confirm-${width}`);
        expect(await statusOf()).toBe('SUBMITTED');
        if (width === 390) {
          // Going back approves nothing.
          await submit(page, page.getByRole('link', { name: 'No, back to the console' }));
          expect(new URL(page.url()).pathname).toBe('/operator');
          expect(await statusOf()).toBe('SUBMITTED');
          continue;
        }
        await submit(page, page.getByRole('button', { name: 'Yes, approve Confirmed Paws' }));
        expect(await shown(page, '[role=status]')).toMatch(/^Approved: business biz_\S+ is made/);
        expect(await statusOf()).toBe('APPROVED');
      } finally {
        await context.close();
      }
    }

    for (const width of [1280, 390]) {
      const { context, page } = await signedIn(APPLICANT, width);
      try {
        await page.goto(`${server.url}/business/applications/${toApprove.applicationId}`);
        const text = await shown(page);
        expect(await shown(page, '#status')).toMatch(/^Approved/);
        expect(await shown(page, '#next h2')).toBe('What is next');
        expect(text).toContain(`add NogPets to it as an MCP server at ${server.url}/mcp/business.`);
        expect(text).toContain('(business:manage)');
        // The pre-approval words are gone.
        expect(text).not.toContain('Next, for your assistant');
        expect(text).not.toContain('Your assistant fills in what is missing');
        await shoot(page, `application-approved-next-${width}`);
        // A waiting application still shows its checklist and where it stands.
        await page.goto(`${server.url}/business/applications/${waiting.applicationId}`);
        expect(await shown(page, '#next')).toContain('The operator is reviewing the application');
        expect(await shown(page, '#checklist')).toContain('Services and prices');
      } finally {
        await context.close();
      }
    }
  });

  it('names the business in a draft’s sign-in link mail, and greets by the name given', async () => {
    // A draft with its contact's name: the mail names the business and greets the contact.
    const draft = await server.post('/v1/signup-drafts', {
      businessName: 'Greeting Groomers',
      contactName: 'Lindiwe Dlamini',
      email: 'lindiwe@example.com',
      town: 'Stellenbosch',
      country: 'ZA',
      consent: true,
    });
    expect(draft.status).toBe(201);
    expect((await askDraftLink(server, draft.body.draftId)).status).toBe(200);
    const drafted = await mailedLink(server, 'lindiwe@example.com');
    expect(drafted.subject).toBe('Your NogPets application for Greeting Groomers');
    expect(drafted.body).toContain('Hello Lindiwe Dlamini,');
    expect(drafted.body).toContain('a NogPets business application for "Greeting Groomers"');

    // The sign-up form's name.
    const signup = await openForm(server, '/signup');
    const asked = await postForm(
      server,
      '/signup',
      { email: 'sipho@example.com', name: 'Sipho Nkosi' },
      signup,
    );
    expect(asked.status).toBe(200);
    expect((await mailedLink(server, 'sipho@example.com')).body).toContain('Hello Sipho Nkosi,');

    // An account's own name stands: a stranger's sign-up for the address does not rename the greeting.
    const again = await postForm(server, '/signup', { email: OWNER, name: 'Someone Else' }, signup);
    expect(again.status).toBe(200);
    const existing = await mailedLink(server, OWNER);
    expect(existing.subject).toBe('You already have a NogPets account');
    expect(existing.body).toContain('Hello Olwethu Owner,');
    expect(existing.body).not.toContain('Someone Else');

    // An account with no name of its own (as a draft's link makes them): a stranger's sign-up for
    // the address still greets plainly, never by the stranger's words.
    const unnamed = await findOrCreateUser(server.db.sql, 'unnamed@example.com');
    expect(unnamed.name).toBe('');
    expect(
      (
        await postForm(
          server,
          '/signup',
          { email: 'unnamed@example.com', name: 'Pay At Evil Dot Example' },
          signup,
        )
      ).status,
    ).toBe(200);
    const unnamedMail = await mailedLink(server, 'unnamed@example.com');
    expect(unnamedMail.subject).toBe('You already have a NogPets account');
    expect(unnamedMail.body).toContain('Hello,\n');
    expect(unnamedMail.body).not.toContain('Pay At Evil');

    // No name at all: a plain greeting.
    const link = await openForm(server, '/signin/link');
    const nameless = await findOrCreateUser(server.db.sql, 'nameless@example.com');
    expect(nameless.name).toBe('');
    expect((await postForm(server, '/signin/link', { email: 'nameless@example.com' }, link)).status).toBe(
      200,
    );
    expect((await mailedLink(server, 'nameless@example.com')).body).toContain('Hello,\n');
  });
});
