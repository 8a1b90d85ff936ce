// A sign-up draft made with only the required fields is finished on its page in
// Chromium, for every category, up to SUBMITTED: services (NogPets' usual menu or typed in, main
// and extra), how many do the work, where and when, then sent. Also: the tool's `next` names what
// the checklist still misses, and a refused form on the page answers with a redirect and says why.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, fixedClock, launchBrowser, type Page } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedLink, startTestServer, type TestServer } from './harness.js';

const screens = process.env.PAGE_SCREENS ?? '/tmp/screens';
/** A page journey of a dozen posts in Chromium: room for a loaded machine (alone it takes ~10 s). */
const BROWSER_STEPS_MS = 150_000;

describe('a draft with only the required fields is finished on its page', () => {
  let server: TestServer;
  let browser: Browser;
  const clock = fixedClock('2026-11-23T08:00:00Z');
  const seen = (page: Page) => page.locator('main').innerText();
  const shoot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(screens, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(screens, { recursive: true });
    server = await startTestServer({ clock });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A draft of only the required fields (and its categories), opened and signed in by the mailed link. */
  async function openDraft(page: Page, name: string, email: string, categories?: string[]) {
    const made = await server.post('/v1/signup-drafts', {
      businessName: name,
      town: 'Paarl',
      ...(categories ? { categories } : {}),
      consent: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await page.goto(made.body.continueUrl);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.goto((await mailedLink(server, email)).link);
    await page.getByRole('button', { name: new RegExp(`Continue as ${email}`) }).click();
    await page.waitForURL((u) => u.pathname === `/business/drafts/${made.body.draftId}`);
    const first = await seen(page);
    expect(first).toContain(`Finish your application: ${name}`);
    // The country was not given: the page asks for it (South Africa has one time zone).
    await page.getByLabel(/^Country/).fill('ZA');
    await page.getByRole('button', { name: 'Save the country and zone' }).click();
    expect(await seen(page)).toContain('The country and time zone are saved.');
    return made.body.draftId as string;
  }

  /** Area and hours (with who works them, as the form starts), then the summary and the button. */
  async function finish(page: Page, draftId: string, shot: string, beforeHours?: () => Promise<void>) {
    await page.getByLabel(/Suburbs or neighbourhoods/).fill('Paarl Central, 7646');
    await page.getByRole('button', { name: 'Save the area' }).click();
    expect(await seen(page)).toContain('Where you work is saved');
    await beforeHours?.();
    await page.getByRole('button', { name: 'Save the hours' }).click();
    expect(await seen(page)).toContain('Your hours are saved.');
    const ready = await seen(page);
    expect(ready).toContain('Nothing is missing');
    expect(ready).toContain('Read it through');
    await shoot(page, `${shot}-ready`);
    await page.getByRole('button', { name: 'Send for review' }).click();
    expect(await seen(page)).toContain('Sent for review.');
    const [row] = await server.db.sql`
      select a.status, a.resources from signup_drafts d join business_applications a on a.id = d.application_id
      where d.id = ${draftId}`;
    expect(row!.status).toBe('SUBMITTED');
    return row!.resources as { kind: string; name: string }[];
  }

  /** Adds a service by hand on the page. */
  async function addByHand(
    page: Page,
    s: { name: string; price: string; minutes: string; kind?: 'Extra'; cats?: boolean; line?: string },
  ) {
    if (s.line) await page.getByLabel('Which line').selectOption({ label: s.line });
    if (s.kind) await page.getByLabel('Main service or extra').selectOption('EXTRA');
    await page.getByLabel('Name', { exact: true }).fill(s.name);
    await page.getByLabel(/^Price \(/).fill(s.price);
    await page.getByLabel('How long it takes (minutes)').fill(s.minutes);
    if (s.cats) await page.getByLabel('Cats').check();
    await page.getByRole('button', { name: 'Add the service' }).click();
    expect(await seen(page)).toContain('The services are saved.');
  }

  it(
    'sitting: the missing services and sitter each have a form, and it is sent',
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const page = await context.newPage();
        const draftId = await openDraft(page, 'Karoo Kennels', 'karoo@example.com', ['sitting']);
        const before = await seen(page);
        // What is missing is a list, one line each, in plain words.
        const missing = await page.locator('#missing > li').allInnerTexts();
        expect(missing.some((m) => m.startsWith('Services and prices'))).toBe(true);
        expect(missing.some((m) => m.includes('a sitter for sitting'))).toBe(true);
        expect(before).not.toMatch(/resource|kind SITTER|add_resources|add_business_services/);
        expect(await page.getByRole('button', { name: 'Send for review' }).count()).toBe(0);
        expect(await page.getByLabel('Sitters: how many work these hours').inputValue()).toBe('1');
        await shoot(page, 'draft-sitting-missing');
        // The application's own page says what comes next in the same words, without the tools' names.
        await page.getByRole('link', { name: "The application's status page" }).click();
        const status = await seen(page);
        expect(status).toContain('Next: Services and prices: a main sitting service');
        expect(status).not.toMatch(/add_|start_business_signup|resource/);
        await page.goBack();

        // A refused service: said at the top after a redirect; reloading does not post again.
        await page.getByLabel('Name', { exact: true }).fill('Overnight stay');
        await page.getByLabel(/^Price \(/).fill('about R400');
        await page.getByLabel('How long it takes (minutes)').fill('720');
        const posted: string[] = [];
        page.on('request', (r) => {
          if (r.isNavigationRequest()) posted.push(r.method());
        });
        const answer = page.waitForResponse((r) => r.url().endsWith('/services'));
        await page.getByRole('button', { name: 'Add the service' }).click();
        expect((await answer).status()).toBe(303);
        const refused = await page.getByRole('alert').innerText();
        expect(refused).toContain('The price "about R400" could not be read');
        await shoot(page, 'draft-sitting-refused');
        posted.length = 0;
        await page.reload();
        expect(posted).toEqual(['GET']);
        expect(await page.getByRole('alert').count()).toBe(0);

        await addByHand(page, { name: 'Overnight stay', price: 'R400', minutes: '720', cats: true });
        await addByHand(page, { name: 'Plant watering', price: 'R50', minutes: '15', kind: 'Extra' });
        const services = await page.locator('#services-now').innerText();
        expect(services).toMatch(/Overnight stay: main service, R\s?400, 720 minutes, for dogs and cats/);
        expect(services).toMatch(/Plant watering: extra, R\s?50, 15 minutes, for dogs/);
        await shoot(page, 'draft-sitting-services');
        const resources = await finish(page, draftId, 'draft-sitting');
        expect(resources.map((r) => [r.kind, r.name])).toEqual([['SITTER', 'Sitter 1']]);
      } finally {
        await context.close();
      }
    },
    BROWSER_STEPS_MS,
  );

  it(
    "grooming: NogPets' usual services, and a salon's tables are not vans",
    async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
      try {
        const page = await context.newPage();
        const draftId = await openDraft(page, 'Paarl Poodle Parlour', 'parlour@example.com', ['grooming']);
        expect(await seen(page)).toContain('a van or salon table for grooming');
        await page.getByRole('button', { name: "Add NogPets' usual services" }).click();
        expect(await seen(page)).toContain('The services are saved.');
        expect(await page.locator('#services-now li').count()).toBeGreaterThan(0);
        expect(await page.locator('#services-now').innerText()).toMatch(/main service, R\s?\d/);
        await shoot(page, 'draft-grooming-services');
        const resources = await finish(page, draftId, 'draft-grooming', async () => {
          // Neither van nor salon said: both asked, vans starting at one; this salon has two tables.
          expect(await page.getByLabel('Vans: how many work these hours').inputValue()).toBe('1');
          await page.getByLabel('Vans: how many work these hours').fill('0');
          await page.getByLabel('Salon tables: how many work these hours').fill('2');
        });
        expect(resources.map((r) => [r.kind, r.name])).toEqual([
          ['VAN', 'Table 1'],
          ['VAN', 'Table 2'],
        ]);
      } finally {
        await context.close();
      }
    },
    BROWSER_STEPS_MS,
  );

  it(
    'walking: a walk typed in, one walker, sent',
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const page = await context.newPage();
        const draftId = await openDraft(page, 'Drakenstein Dog Walks', 'walks@example.com', ['walking']);
        expect(await seen(page)).toContain('a walker for walks');
        await addByHand(page, { name: 'Hour walk', price: '150', minutes: '60' });
        const resources = await finish(page, draftId, 'draft-walking');
        expect(resources.map((r) => [r.kind, r.name])).toEqual([['WALKER', 'Walker 1']]);
      } finally {
        await context.close();
      }
    },
    BROWSER_STEPS_MS,
  );

  it(
    'no categories at all: the page asks what the business offers, then a service for each line',
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const page = await context.newPage();
        const draftId = await openDraft(page, 'Boland Pet Help', 'boland@example.com');
        expect(await seen(page)).toContain('What the business offers');
        await page.getByLabel('Walking').check();
        await page.getByLabel('Sitting').check();
        await page.getByRole('button', { name: 'Save what the business offers' }).click();
        expect(await seen(page)).toContain('What the business offers is saved.');
        await addByHand(page, { name: 'Group walk', price: 'R120', minutes: '60', line: 'Walking' });
        await addByHand(page, { name: 'House sit', price: 'R350', minutes: '480', line: 'Sitting' });
        const resources = await finish(page, draftId, 'draft-two-lines');
        expect(resources.map((r) => r.kind).sort()).toEqual(['SITTER', 'WALKER']);
      } finally {
        await context.close();
      }
    },
    BROWSER_STEPS_MS,
  );

  it("the tool's next names what the checklist still misses, never that nothing is needed", async () => {
    for (const category of ['grooming', 'walking', 'sitting']) {
      const made = await server.post('/v1/signup-drafts', {
        businessName: 'Karoo Kennels',
        town: 'Paarl',
        categories: [category],
        consent: true,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const { next, message } = made.body as { next: string; message: string };
      expect(next).not.toContain('Nothing more is needed');
      expect(next).toContain('Services and prices');
      expect(next).toContain(`a main ${category} service`);
      expect(next).toContain('Vans, walkers, sitters and hours');
      expect(next).toContain({ grooming: 'a van', walking: 'a walker', sitting: 'a sitter' }[category]);
      expect(next).toContain('Service area');
      expect(next).toContain('the country');
      expect(message).toContain('your services and their prices');
      expect(message).toContain('who does the work and your hours');
    }
    // With a priced service and the country, services are no longer named; the rest still is.
    const priced = await server.post('/v1/signup-drafts', {
      businessName: 'Priced Walks',
      town: 'Paarl',
      country: 'ZA',
      categories: ['walking'],
      services: [{ name: 'Walk', price: 'R100' }],
      consent: true,
    });
    expect(priced.body.next).not.toContain('Services and prices');
    expect(priced.body.next).not.toContain('the country');
    expect(priced.body.next).toContain('a walker for walks');
    expect(priced.body.message).not.toContain('your services');
  });
});
