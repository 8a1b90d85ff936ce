// The operator console in real Chromium, at a desktop and a phone width: an operator signs in, reads
// a submitted application's checklist, approves it (or rejects it with a note), approves a proposed
// area; the applicant's status page then says so.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { CLI_REVIEWER, systemClock } from '@nogpets/operations';
import { grantOperatorAccess } from '@nogpets/operations/testing';
import { findOrCreateUser, insertListing, setPassword } from '@nogpets/store';
import { type Browser, launchBrowser, type Page } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm, signedInForm, startTestServer, type TestServer } from './harness.js';
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
        // The console asks first; nothing is approved until its own button is pressed.
        expect(await seen(page, 'h1')).toBe(`Approve ${name}?`);
        await submit(page, page.getByRole('button', { name: `Yes, approve ${name}` }));
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

  it('shows a claim beside both sides\' contacts with the mismatch, and grants it only when "claim checked" is ticked', async () => {
    const sql = server.db.sql;
    const listing = async (
      id: string,
      name: string,
      contacts: { phone?: string; email?: string; website?: string },
    ) =>
      insertListing(
        sql,
        {
          id,
          name,
          categories: ['MOBILE_GROOMING'],
          area: 'Idas Valley',
          town: 'stellenbosch',
          services: ['mobile grooming'],
          website: contacts.website ?? null,
          phone: contacts.phone ?? null,
          email: contacts.email ?? null,
          businessId: null,
          fictional: false,
        },
        new Date('2026-01-05T08:00:00Z'),
      );
    // One listing whose contacts are not the applicant's, one whose phone is.
    await listing('dir-test-idas-grooming', 'Idas Valley Grooming', {
      phone: '021 555 0177',
      email: 'bookings@idasgrooming.co.za',
      website: 'idasgrooming.co.za',
    });
    await listing('dir-test-simonsberg-grooming', 'Simonsberg Grooming', { phone: '+27 82 555 0101' });
    const unchecked = 'idas.applicant@example.com';
    const checked = 'simonsberg.applicant@example.com';
    await applicant(unchecked);
    await applicant(checked);
    const idas = await applicationForReview(server, unchecked, {
      name: 'Idas Valley Grooming',
      claimListingId: 'dir-test-idas-grooming',
    });
    const simonsberg = await applicationForReview(server, checked, {
      name: 'Simonsberg Grooming',
      claimListingId: 'dir-test-simonsberg-grooming',
    });
    const idasBefore = (await sql`select * from directory_listings where id = 'dir-test-idas-grooming'`)[0];

    // A forged form (no matching token) with "claim checked" is refused and grants nothing.
    const form = await signedInForm(server, 'ops@nogpets.example', PASSWORD);
    const forged = await postForm(
      server,
      `/operator/applications/${simonsberg.applicationId}/approve`,
      { claimChecked: 'yes', confirm: 'yes' },
      { cookie: form.cookie, csrf: 'forged' },
    );
    expect(forged.status).toBe(403);
    const [still] =
      await sql`select status from business_applications where id = ${simonsberg.applicationId}`;
    expect(still!.status).toBe('SUBMITTED');

    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      try {
        const page = await context.newPage();
        await signIn(page, 'ops@nogpets.example', '/operator');
        const claim = await seen(page, `#claim-${idas.applicationId}`);
        expect(claim).toContain('Claims the directory listing Idas Valley Grooming');
        expect(claim).toContain('Mismatch');
        // Both contact sets, as listed and as given.
        for (const text of [
          '021 555 0177',
          'bookings@idasgrooming.co.za',
          'idasgrooming.co.za',
          '+27 82 555 0101',
          `${unchecked} (account)`,
          'differs',
        ])
          expect(claim).toContain(text);
        expect(claim).toMatch(/Mismatch: the listing's phone and email and website differ/);
        const match = await seen(page, `#claim-${simonsberg.applicationId}`);
        expect(match).toContain('Contacts match');
        expect(match).toContain('matches');
        await shoot(page, `operator-console-claim-${width}`);
        if (screens)
          await page
            .locator(`#application-${idas.applicationId}`)
            .screenshot({ path: path.join(screens, `operator-console-claim-block-${width}.png`) });
        if (width === 390) continue;

        // Unticked: approved with a new listing; the claimed one stays as it was.
        const idasSection = page.locator(`#application-${idas.applicationId}`);
        expect(await idasSection.getByLabel(/Claim checked/).isChecked()).toBe(false);
        await submit(page, idasSection.getByRole('button', { name: 'Approve Idas Valley Grooming' }));
        expect(await seen(page, '#confirm-what + ul')).toContain('The claim is not ticked');
        await submit(page, page.getByRole('button', { name: 'Yes, approve Idas Valley Grooming' }));
        expect(await seen(page, '[role=status]')).toContain(
          'the claim of dir-test-idas-grooming is not granted (not checked), so a new directory listing is published',
        );
        expect((await sql`select * from directory_listings where id = 'dir-test-idas-grooming'`)[0]).toEqual(
          idasBefore,
        );

        // Ticked: the listing is the business's.
        const section = page.locator(`#application-${simonsberg.applicationId}`);
        await section.getByLabel(/Claim checked/).check();
        await submit(page, section.getByRole('button', { name: 'Approve Simonsberg Grooming' }));
        expect(await seen(page, '#confirm-what + ul')).toContain('You ticked the claim');
        await submit(page, page.getByRole('button', { name: 'Yes, approve Simonsberg Grooming' }));
        expect(await seen(page, '[role=status]')).toContain(
          'the claim is granted: the listing dir-test-simonsberg-grooming is its own',
        );
        expect(await seen(page, '#other-applications')).toContain(
          'claim of dir-test-simonsberg-grooming granted',
        );
        await shoot(page, `operator-console-claim-approved-${width}`);
      } finally {
        await context.close();
      }
    }
    const [biz] =
      await sql`select business_id from business_applications where id = ${simonsberg.applicationId}`;
    const [l] =
      await sql`select business_id from directory_listings where id = 'dir-test-simonsberg-grooming'`;
    expect(l!.business_id).toBe(biz!.business_id);
    const audits = await sql`
      select target, client_name, details->>'granted' as granted, details->>'reason' as reason
      from audit_log where action = 'listing.claim' order by id`;
    expect(audits).toEqual([
      {
        target: 'dir-test-idas-grooming',
        client_name: 'operator console (ops@nogpets.example)',
        granted: 'false',
        reason: 'NOT_CHECKED',
      },
      {
        target: 'dir-test-simonsberg-grooming',
        client_name: 'operator console (ops@nogpets.example)',
        granted: 'true',
        reason: 'CLAIM_CHECKED',
      },
    ]);

    // Each applicant's status page says whether the claim was granted.
    for (const [email, app, words] of [
      [unchecked, idas, /^Directory listing claimed, Idas Valley Grooming: not granted/],
      [checked, simonsberg, /^Directory listing claimed, Simonsberg Grooming: granted/],
    ] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const p = await context.newPage();
        await signIn(p, email, `/business/applications/${app.applicationId}`);
        expect(await seen(p, '#claim')).toMatch(words);
        await shoot(p, `application-claim-${app === idas ? 'not-granted' : 'granted'}`);
      } finally {
        await context.close();
      }
    }
  });
});
