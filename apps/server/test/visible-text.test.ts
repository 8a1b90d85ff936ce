import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, fixedClock, launchBrowser, type Page } from '@nogpets/test-utils';
import { hash } from '@node-rs/argon2';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { createApiKey } from '@nogpets/operations/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookFirstCardSlot, newPetOwner, startTestServer, type TestServer } from './harness.js';

const NOW = '2026-11-23T04:00:00Z'; // Monday 06:00 in Johannesburg
const WIDTHS = [1280, 390] as const;
// Screenshots of every page at both widths, to look at, when PAGE_SCREENS names a folder.
const screens = process.env.PAGE_SCREENS;

/** What people typed, markup-like on purpose: shown as text, never run as markup. */
const TYPED = [
  'Ayanda <b>Dube</b>',
  'Rex <i>the brave</i>',
  'Tablet <em>kitchen</em>',
  'Dube <u>Grooming</u>',
];

/** Markup a person would see as text: a tag, an entity left unresolved. */
const SHOWN_MARKUP = /<\/?[a-z][a-z0-9-]*(\s[^<>]*)?\/?>|&(lt|gt|amp|quot|#\d+);/i;

/**
 * Every page a person opens, read as they read it: the rendered page's visible text (not the HTML
 * source) holds no markup, at a desktop and a phone width.
 */
describe('what people see on every page', () => {
  let server: TestServer;
  let browser: Browser;
  const clock = fixedClock(NOW);
  let payUrl: string;
  let statusUrl: string;

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    browser = await launchBrowser();
    const user = await findOrCreateUser(server.db.sql, 'ayanda@example.com', 'Ayanda <b>Dube</b>');
    await setPassword(server.db.sql, user.id, await hash('a long enough password'));
    const owner = await newPetOwner(server, {
      email: 'ayanda@example.com',
      pet: { name: 'Rex <i>the brave</i>', weightKg: 12 },
      line1: '12 Dorp Street',
    });
    payUrl = (await bookFirstCardSlot(server, owner, '2026-11-25')).payUrl;
    const { key } = await createApiKey(server.db.sql, {
      email: 'ayanda@example.com',
      scopes: ['business:write'],
    });
    const application = await server.post(
      '/v1/business/applications',
      { businessName: 'Dube <u>Grooming</u>', town: 'Stellenbosch', country: 'ZA', categories: ['grooming'] },
      { authorization: `Bearer ${key}` },
    );
    expect(application.status, JSON.stringify(application.body)).toBe(201);
    statusUrl = application.body.statusUrl;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signIn(page: Page): Promise<void> {
    await page.goto(`${server.url}/signin?next=%2Faccount`);
    await page.getByLabel('Email').fill('ayanda@example.com');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/account`);
  }

  /** Each page: how to reach it, and words it must show (so an empty page cannot pass). */
  const pages: { name: string; signedIn?: boolean; open: (page: Page) => Promise<unknown>; shows: RegExp }[] =
    [
      { name: 'sign-in', open: (p) => p.goto(`${server.url}/signin`), shows: /Sign in/ },
      {
        name: 'sign-in-refused',
        open: async (p) => {
          await p.goto(`${server.url}/signin`);
          await p.getByLabel('Email').fill('ayanda@example.com');
          await p.getByLabel('Password').fill('not the password');
          await p.getByRole('button', { name: 'Sign in' }).click();
          await p.waitForLoadState();
        },
        shows: /do not match/,
      },
      { name: 'sign-up', open: (p) => p.goto(`${server.url}/signup`), shows: /Create your account/ },
      {
        name: 'sign-up-refused',
        open: async (p) => {
          await p.goto(`${server.url}/signup`);
          await p.getByLabel('Your name').fill('Ayanda');
          await p.getByLabel('Email').fill('ayanda@example.com');
          // The browser's own check would stop an address it can tell is malformed; this one it cannot.
          await p.getByLabel('Email').evaluate((e) => e.removeAttribute('type'));
          await p.getByLabel('Email').fill('not an address');
          await p.getByRole('button', { name: 'Create account' }).click();
          await p.waitForLoadState();
        },
        shows: /email/i,
      },
      { name: 'sign-in-link', open: (p) => p.goto(`${server.url}/signin/link`), shows: /link/i },
      {
        name: 'sign-in-link-spent',
        open: (p) => p.goto(`${server.url}/signin/email?token=nsl_not_a_real_one`),
        shows: /expired or was already used/,
      },
      {
        name: 'account',
        signedIn: true,
        open: (p) => p.goto(`${server.url}/account`),
        shows: /Signed in as/,
      },
      {
        name: 'account-new-key',
        signedIn: true,
        open: async (p) => {
          await p.goto(`${server.url}/account`);
          await p.getByLabel('New key name').fill('Tablet <em>kitchen</em>');
          await p.getByLabel('See your name, email and phone').check();
          await p.getByRole('button', { name: 'Create key' }).click();
          await p.waitForLoadState();
        },
        shows: /shown this once/,
      },
      {
        name: 'consent-expired',
        signedIn: true,
        open: (p) => p.goto(`${server.url}/oauth/consent?request=nope`),
        shows: /expired or was already answered/,
      },
      {
        name: 'pay',
        open: (p) => p.goto(payUrl),
        // What, when, where, and that the card fee is part of the total.
        shows:
          /Rex <i>the brave<\/i>: Dog bath[\s\S]*12 Dorp Street[\s\S]*Total: R390, which includes the card fee of R10/,
      },
      { name: 'pay-unknown', open: (p) => p.goto(`${server.url}/pay/npl_unknown`), shows: /link/i },
      {
        name: 'business-application',
        signedIn: true,
        open: (p) => p.goto(statusUrl),
        // The checklist in words: what is missing, and what comes next (no tool names: those are the assistant's).
        shows: /Being filled in[\s\S]*Next: [\s\S]*Services and prices\s+Missing/,
      },
      {
        name: 'business-applications',
        signedIn: true,
        open: (p) => p.goto(`${server.url}/business/applications`),
        shows: /Dube <u>Grooming<\/u>\s+Being filled in/,
      },
      {
        name: 'business-application-unknown',
        signedIn: true,
        open: (p) => p.goto(`${server.url}/business/applications/app_not_mine`),
        shows: /No application app_not_mine of yours/,
      },
      {
        name: 'pay-not-yet',
        open: (p) => p.goto(`${payUrl}/done`),
        shows: /not come through[\s\S]*See your booking on your account page/,
      },
      {
        name: 'cancel-confirm',
        signedIn: true,
        open: async (p) => {
          await p.goto(`${server.url}/account`);
          await Promise.all([
            p.waitForNavigation(),
            p.getByRole('button', { name: 'Cancel', exact: true }).click(),
          ]);
        },
        shows: /Cancel the booking for .*2026/,
      },
    ];

  it("has an icon: /favicon.ico and the pages' own link answer an image a browser draws", async () => {
    for (const route of ['/favicon.ico', '/favicon.svg']) {
      const res = await fetch(server.url + route);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    }
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/signin`);
      const href = await page.locator('link[rel=icon]').getAttribute('href');
      expect(href).toBe('/favicon.svg');
      // Drawn as an image: it has a size, which a broken or non-image answer would not have.
      const size = (await page.evaluate(
        `(async () => { const img = new Image(); img.src = '/favicon.ico'; await img.decode(); return [img.naturalWidth, img.naturalHeight]; })()`,
      )) as number[];
      expect(size[0]).toBeGreaterThan(0);
      if (screens) {
        await page.goto(`${server.url}/favicon.svg`);
        await page.screenshot({ path: path.join(screens, 'favicon.png') });
      }
    } finally {
      await page.close();
    }
  });

  for (const width of WIDTHS) {
    it.each(pages)(
      `shows no markup as text at ${width} px: $name`,
      async ({ name, signedIn, open, shows }) => {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        try {
          if (signedIn) await signIn(page);
          await open(page);
          const text = await page.locator('body').innerText();
          expect(text).toMatch(shows);
          // Text people typed is shown as they typed it, as text; apart from it, no markup shows.
          if (name.startsWith('account')) expect(text).toContain('Ayanda <b>Dube</b>');
          const ours = TYPED.reduce((t, typed) => t.replaceAll(typed, ''), text);
          expect(ours, `${name} shows markup as text`).not.toMatch(SHOWN_MARKUP);
          // Nothing runs off the side: the page is no wider than the screen.
          const overflow = Number(
            await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'),
          );
          expect(overflow, `${name} is wider than ${width} px`).toBeLessThanOrEqual(0);
          if (screens) {
            mkdirSync(screens, { recursive: true });
            await page.screenshot({ path: path.join(screens, `${name}-${width}.png`), fullPage: true });
          }
        } finally {
          await context.close();
        }
      },
    );
  }
});
