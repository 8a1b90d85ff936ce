// The operator console in real Chromium, at a desktop and a phone width: an operator signs in, reads
// a submitted application's checklist, approves it (or rejects it with a note), approves a proposed
// area; the applicant's status page then says so.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { grantOperatorAccess, CLI_REVIEWER, systemClock } from '@nogpets/operations';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { type Browser, launchBrowser, type Page } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { applicationForReview } from './review-fixture.js';

const PASSWORD = 'a long enough password';
const screens = process.env.PAGE_SCREENS;

describe('the operator console', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    const ops = await findOrCreateUser(server.db.sql, 'ops@nogpets.example');
    await setPassword(server.db.sql, ops.id, await hash(PASSWORD));
    await grantOperatorAccess(
      { sql: server.db.sql, clock: systemClock },
      'ops@nogpets.example',
      CLI_REVIEWER,
    );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signIn(page: Page, email: string, next: string): Promise<void> {
    await page.goto(`${server.url}${next}`);
    await page.waitForURL(/\/signin\?next=/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await Promise.all([
      page.waitForURL(`${server.url}${next}`),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
  }

  async function submit(page: Page, button: ReturnType<Page['locator']>): Promise<void> {
    await Promise.all([page.waitForNavigation(), button.click()]);
  }

  const seen = (page: Page, selector = 'main') => page.locator(selector).innerText();

  async function shoot(page: Page, name: string) {
    if (!screens) return;
    mkdirSync(screens, { recursive: true });
    await page.screenshot({ path: path.join(screens, `${name}.png`), fullPage: true });
  }

  async function applicant(email: string) {
    const user = await findOrCreateUser(server.db.sql, email);
    await setPassword(server.db.sql, user.id, await hash(PASSWORD));
  }

  for (const width of [1280, 390]) {
    it(`approves an application and its area, and rejects another with a note, at ${width} px`, async () => {
      const owner = `groomer-${width}@example.com`;
      const other = `walker-${width}@example.com`;
      await applicant(owner);
      await applicant(other);
      const name = `Boland Bubbles ${width}`;
      const app = await applicationForReview(server, owner, { name });
      const refused = await applicationForReview(server, other, { name: `Kayamandi Walkers ${width}` });

      const context = await browser.newContext({ viewport: { width, height: 900 } });
      try {
        const page = await context.newPage();
        await signIn(page, 'ops@nogpets.example', '/operator');
        const section = page.locator(`#application-${app.applicationId}`);
        const text = await section.innerText();
        expect(text).toContain(name);
        expect(text).toMatch(/Ready: every required part is done/);
        // The checklist in words: its parts and their notes.
        expect(text).toMatch(/Services/);
        expect(text).toContain(`Proposed: ${app.areaNames.radius}`);
        expect(text).toMatch(/Done/);
        expect(await seen(page, '#area-list')).toContain(app.areaNames.postal);
        await shoot(page, `operator-console-${width}`);
        // No markup shows as text.
        expect(await seen(page)).not.toMatch(/<\/?[a-z]+[ >]/);

        await submit(page, page.getByRole('button', { name: `Approve ${name}` }));
        expect(await seen(page, '[role=status]')).toMatch(/^Approved: business biz_\S+ is made/);
        expect(await seen(page, '#applications')).not.toContain(`Approve ${name}`);
        await shoot(page, `operator-console-approved-${width}`);

        // Its area, approved from the console.
        const areaRow = page.locator(`#area-${app.areaIds.radius}`);
        await submit(page, areaRow.getByRole('button', { name: `Approve ${app.areaNames.radius}` }));
        expect(await seen(page, '[role=status]')).toBe(`${app.areaNames.radius}: approved.`);
        const [area] = await server.db.sql`
          select a.status from service_areas a join business_applications b on b.business_id = a.business_id
          where b.id = ${app.applicationId} and a.id = ${app.areaIds.radius}`;
        expect(area!.status).toBe('APPROVED');

        // The other application: a rejection needs a note, which the applicant then reads.
        const other$ = page.locator(`#application-${refused.applicationId}`);
        await other$
          .getByLabel('Why it is rejected')
          .fill('Please add a price list we can check, then apply again.');
        await submit(page, other$.getByRole('button', { name: /^Reject / }));
        expect(await seen(page, '[role=status]')).toMatch(/^Rejected Kayamandi Walkers/);

        // The applicant's status page says it is approved.
        const mine = await browser.newContext({ viewport: { width, height: 900 } });
        try {
          const p = await mine.newPage();
          await signIn(p, owner, `/business/applications/${app.applicationId}`);
          expect(await seen(p, '#status')).toMatch(/^Approved/);
          await shoot(p, `application-approved-${width}`);
        } finally {
          await mine.close();
        }
        const theirs = await browser.newContext({ viewport: { width, height: 900 } });
        try {
          const p = await theirs.newPage();
          await signIn(p, other, `/business/applications/${refused.applicationId}`);
          expect(await seen(p, '#status')).toMatch(/^Not approved/);
          expect(await seen(p)).toContain('Please add a price list we can check, then apply again.');
        } finally {
          await theirs.close();
        }
      } finally {
        await context.close();
      }
    });
  }

  it('shows nothing of the console to a person who is not an operator', async () => {
    await applicant('just.a.person@example.com');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/operator`);
      await page.getByLabel('Email').fill('just.a.person@example.com');
      await page.getByLabel('Password').fill(PASSWORD);
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.url() === `${server.url}/operator`),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      expect(answer.status()).toBe(403);
      expect(await seen(page)).toMatch(/This page is for NogPets operators/);
      expect(await page.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
