// The sign-up's pages in one journey, in Chromium: an assistant prepares a no-login draft; the person
// opens its continueUrl, signs in by the mailed link, gives what is missing and sends it for review;
// the operator, granted the console with `pnpm cli operator add`, approves it there; the person's
// statusUrl then says it is approved.
import { hash } from '@node-rs/argon2';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { type Browser, launchBrowser, type Page } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, mailedLink, startTestServer, type TestServer } from './harness.js';

const PASSWORD = 'a long enough password';

describe('a draft, finished by the person, approved by the operator, in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  const seen = (page: Page, selector = 'main') => page.locator(selector).innerText();
  const click = (page: Page, name: string | RegExp) =>
    Promise.all([page.waitForNavigation(), page.getByRole('button', { name }).click()]);

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('goes from continueUrl to the console to an approved statusUrl', async () => {
    const made = await server.post('/v1/signup-drafts', {
      businessName: 'Simonsberg Suds',
      contactName: 'Lerato',
      email: 'lerato@example.com',
      phone: '082 555 0123',
      town: 'Stellenbosch',
      categories: ['grooming'],
      mode: 'MOBILE',
      services: [{ name: 'Bath and brush', price: 'R380', category: 'grooming' }],
      consent: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);

    // The person finishes the draft.
    const person = await browser.newContext({ viewport: { width: 390, height: 900 } });
    const page = await person.newPage();
    await page.goto(made.body.continueUrl);
    await click(page, 'Email me a sign-in link');
    await page.goto((await mailedLink(server, 'lerato@example.com')).link);
    await click(page, /Continue as lerato@example.com/);
    await page.waitForURL((u) => u.pathname === `/business/drafts/${made.body.draftId}`);
    expect(await seen(page)).toContain('Finish your application: Simonsberg Suds');
    await page.getByLabel(/Suburbs or neighbourhoods/).fill('Die Boord, 7613');
    await click(page, 'Save the area');
    await click(page, 'Save the hours');
    expect(await seen(page)).toContain('Nothing is missing');
    await click(page, 'Send for review');
    expect(await seen(page)).toContain('Sent for review.');
    const statusUrl = await page.getByRole('link', { name: 'Follow your application' }).getAttribute('href');
    expect(statusUrl).toMatch(/^\/business\/applications\/app_/);
    const applicationId = statusUrl!.split('/').pop()!;

    // The operator: granted from the CLI, signs in, approves in the console.
    const granted = await cli(server.db.url, ['operator', 'add', '--email', 'ops@nogpets.example']);
    expect(granted.status, granted.stderr).toBe(0);
    const ops = await findOrCreateUser(server.db.sql, 'ops@nogpets.example');
    await setPassword(server.db.sql, ops.id, await hash(PASSWORD));
    const operator = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const console$ = await operator.newPage();
    await console$.goto(`${server.url}/operator`);
    await console$.waitForURL(/\/signin\?next=/);
    await console$.getByLabel('Email').fill('ops@nogpets.example');
    await console$.getByLabel('Password').fill(PASSWORD);
    await click(console$, 'Sign in');
    const entry = console$.locator(`#application-${applicationId}`);
    expect(await entry.innerText()).toContain('Simonsberg Suds');
    expect(await entry.innerText()).toMatch(/Ready: every required part is done/);
    await Promise.all([
      console$.waitForNavigation(),
      entry.getByRole('button', { name: 'Approve Simonsberg Suds' }).click(),
    ]);
    // The console asks first.
    await Promise.all([
      console$.waitForNavigation(),
      console$.getByRole('button', { name: 'Yes, approve Simonsberg Suds' }).click(),
    ]);
    expect(await seen(console$, '[role=status]')).toMatch(/^Approved/);
    await operator.close();

    // The person's status page says so.
    await page.goto(`${server.url}${statusUrl}`);
    expect(await seen(page, '#status')).toMatch(/^Approved/);
    await person.close();
    const [row] = await server.db
      .sql`select status, business_id from business_applications where id = ${applicationId}`;
    expect(row).toMatchObject({ status: 'APPROVED', business_id: expect.stringMatching(/^biz_/) });
  });
});
