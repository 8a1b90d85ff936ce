// The continueUrl of a sign-up draft, in Chromium: a groomer's draft made over HTTP, finished by the
// person on its page (signed in by the mailed link): prices, area, hours and who works, the summary,
// then sent for review. And a draft made without an email, kept by whoever signs in on its page.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, fixedClock, launchBrowser, type Page } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followDraftLink } from './draft-link.js';
import { mailedLink, postForm, signedInForm, startTestServer, type TestServer } from './harness.js';

const screens = '/tmp/screens';

describe('the sign-up draft page (continueUrl)', () => {
  let server: TestServer;
  let browser: Browser;
  const clock = fixedClock('2026-11-23T08:00:00Z');
  let thandisPage = '';
  const seen = (page: Page) => page.locator('main').innerText();
  const shoot = async (page: Page, name: string) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: path.join(screens, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
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

  it('a groomer finishes the draft: signs in by the mailed link, gives prices, area and hours, and sends it', async () => {
    const made = await server.post('/v1/signup-drafts', {
      businessName: 'Thandi se Hondewas',
      contactName: 'Thandi',
      email: 'thandi@example.com',
      country: 'ZA',
      town: 'Stellenbosch',
      categories: ['grooming'],
      mode: 'MOBILE',
      vans: 1,
      services: [
        { name: 'Full groom', price: 'R450' },
        { name: 'Nail clip', price: 'depends' },
      ],
      consent: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    thandisPage = made.body.continueUrl;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(made.body.continueUrl);
      // Not signed in: the page offers a link to the draft's email, shown only in part.
      expect(await seen(page)).toContain('we email to t•••@example.com');
      expect(await seen(page)).not.toContain('thandi@example.com');
      await shoot(page, 'draft-signin');
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      expect(await seen(page)).toContain('We have sent a sign-in link to t•••@example.com');

      const mail = await mailedLink(server, 'thandi@example.com');
      expect(mail.subject).toBe('Your NogPets application for Thandi se Hondewas');
      await page.goto(mail.link);
      await page.getByRole('button', { name: /Continue as thandi@example.com/ }).click();
      await page.waitForURL((u) => u.pathname === `/business/drafts/${made.body.draftId}`);

      // Signed in: what is missing, in words, and a field for the price the draft could not read.
      const first = await seen(page);
      expect(first).toContain('Finish your application: Thandi se Hondewas');
      expect(first).toContain('What is missing');
      expect(first).toMatch(/Nail clip/);
      expect(await page.getByRole('button', { name: 'Send for review' }).count()).toBe(0); // not before it is ready
      expect(await page.getByLabel('Price of Full groom').count()).toBe(0);
      await shoot(page, 'draft-missing');

      // A price it cannot read is said so, and nothing changes.
      await page.getByLabel('Price of Nail clip (ZAR)').fill('about R80');
      await page.getByRole('button', { name: 'Save the prices' }).click();
      expect(await seen(page)).toContain('These prices could not be read: Nail clip ("about R80")');
      await page.getByLabel('Price of Nail clip (ZAR)').fill('R80');
      await page.getByRole('button', { name: 'Save the prices' }).click();
      expect(await seen(page)).toContain('The prices are saved.');
      expect(await page.getByLabel('Price of Nail clip (ZAR)').count()).toBe(0);

      await page.getByLabel(/Suburbs or neighbourhoods/).fill('Die Boord, 7613\nParadyskloof, 7600');
      await page.getByRole('button', { name: 'Save the area' }).click();
      expect(await seen(page)).toContain('Where you work is saved');
      expect(await seen(page)).toMatch(/Now: .*Die Boord/);

      // The week is filled in with usual hours; Saturday shorter, Sunday off.
      await page.getByLabel('Saturday to').fill('12:00');
      await page.getByRole('button', { name: 'Save the hours' }).click();
      expect(await seen(page)).toContain('Your hours are saved.');

      const ready = await seen(page);
      expect(ready).toContain('Nothing is missing');
      expect(ready).toContain('Read it through');
      expect(ready).toMatch(/Full groom R\s?450/);
      expect(ready).toMatch(/Nail clip R\s?80/);
      expect(ready).toMatch(/Sat 08:00-12:00/);
      await shoot(page, 'draft-ready');

      await page.getByRole('button', { name: 'Send for review' }).click();
      const sent = await seen(page);
      expect(sent).toContain('Sent for review.');
      await shoot(page, 'draft-sent');
      const [row] = await server.db.sql`
        select a.status from signup_drafts d join business_applications a on a.id = d.application_id where d.id = ${made.body.draftId}`;
      expect(row!.status).toBe('SUBMITTED');
    } finally {
      await context.close();
    }
  });

  it('a groomer in Lisbon is asked which of Portugal’s time zones the hours are in', async () => {
    const made = await server.post('/v1/signup-drafts', {
      businessName: 'Banho & Tosquia',
      email: 'ines@example.com',
      phone: '+351 912 345 678',
      town: 'Lisboa',
      categories: ['grooming'],
      services: [{ name: 'Banho', price: '€30' }],
      consent: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(made.body.continueUrl);
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await page.goto((await mailedLink(server, 'ines@example.com')).link);
      await page.getByRole('button', { name: /Continue as ines@example.com/ }).click();
      await page.waitForURL((u) => u.pathname === `/business/drafts/${made.body.draftId}`);
      expect(await seen(page)).toContain('Country and time zone');
      const zones = await page.getByLabel('Time zone your hours are in').locator('option').allInnerTexts();
      expect(zones).toEqual(expect.arrayContaining(['Europe/Lisbon', 'Atlantic/Madeira', 'Atlantic/Azores']));
      // Saved without a choice: said so, nothing changes.
      await page.getByRole('button', { name: 'Save the country and zone' }).click();
      expect(await seen(page)).toContain('Choose the time zone your hours are in.');
      await page.getByLabel('Time zone your hours are in').selectOption('Europe/Lisbon');
      await page.getByRole('button', { name: 'Save the country and zone' }).click();
      const after = await seen(page);
      expect(after).toContain('The country and time zone are saved.');
      expect(after).not.toContain('Time zone your hours are in');
      expect(after).toContain('Local time (Europe/Lisbon)');
      await shoot(page, 'draft-zone-saved');
      const [row] = await server.db.sql`
        select a.timezone from signup_drafts d join business_applications a on a.id = d.application_id where d.id = ${made.body.draftId}`;
      expect(row!.timezone).toBe('Europe/Lisbon');
    } finally {
      await context.close();
    }
  });

  it('a draft without an email asks for it, and whoever signs in keeps it', async () => {
    const made = await server.post('/v1/signup-drafts', {
      businessName: 'Kloof Dog Walks',
      town: 'Stellenbosch',
      phone: '021 808 1234',
      categories: ['walking'],
      services: [{ name: 'Group walk', price: 'R120' }],
      consent: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(made.body.continueUrl);
      expect(await seen(page)).toContain('First, your email');
      await page.getByLabel('Email').fill('sipho@example.com');
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      expect(await seen(page)).toContain('We have sent a sign-in link to sipho@example.com');
      const mail = await mailedLink(server, 'sipho@example.com');
      await page.goto(mail.link);
      await page.getByRole('button', { name: /Continue as sipho@example.com/ }).click();
      await page.waitForURL((u) => u.pathname === `/business/drafts/${made.body.draftId}`);
      // The link mailed from the draft's page attached it: the page is the owner's at once.
      expect(await seen(page)).toContain('Finish your application: Kloof Dog Walks');
      const [row] = await server.db.sql`
        select u.email, a.name, a.services->0->>'priceCents' as price, d.data from signup_drafts d
        join business_applications a on a.id = d.application_id join users u on u.id = d.user_id where d.id = ${made.body.draftId}`;
      expect(row).toEqual({
        email: 'sipho@example.com',
        name: 'Kloof Dog Walks',
        price: '12000',
        data: null,
      });
      // Another draft without an email, opened signed in: kept by a click.
      const other = await server.post('/v1/signup-drafts', {
        businessName: 'Kloof Cat Sitting',
        town: 'Stellenbosch',
        categories: ['sitting'],
        consent: true,
      });
      expect(other.status, JSON.stringify(other.body)).toBe(201);
      await page.goto(other.body.continueUrl);
      expect(await seen(page)).toContain('was made without an email');
      await page.getByRole('button', { name: 'Keep it in my account' }).click();
      const kept = await seen(page);
      expect(kept).toContain('The draft is now in your account.');
      expect(kept).toContain('Finish your application: Kloof Cat Sitting');
      // Signed in as someone else, another's draft is not shown.
      const theirs = await page.goto(thandisPage);
      expect(theirs?.status()).toBe(403);
      expect(await seen(page)).toContain(
        'This draft was made for another email address than sipho@example.com.',
      );
      expect(await seen(page)).not.toContain('Thandi se Hondewas');
    } finally {
      await context.close();
    }
    // An unknown (or purged) draft is a plain 404 page.
    const other = await fetch(`${server.url}/business/drafts/drf_nosuchdraft0000000000`);
    expect(other.status).toBe(404);
  });

  /** A draft for `email` and its owner signed in (a password set for the test), as forms post. */
  async function ownersForm(email: string, extra: Record<string, unknown> = {}) {
    const made = await server.post('/v1/signup-drafts', {
      businessName: 'Form Post Grooming',
      email,
      country: 'ZA',
      town: 'Stellenbosch',
      categories: ['grooming'],
      services: [{ name: 'Full groom', price: 'R450' }],
      consent: true,
      ...extra,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    // The draft joins the account by its link; a password is chosen on the link's page.
    await followDraftLink(server, made.body.draftId, email, { password: 'a long enough password' });
    const form = await signedInForm(server, email, 'a long enough password');
    const [app] = await server.db.sql`
      select a.id from signup_drafts d join business_applications a on a.id = d.application_id where d.id = ${made.body.draftId}`;
    return { draftId: made.body.draftId as string, applicationId: app!.id as string, form };
  }
  const visible = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');

  it('refused hours add nobody: the vans are added only with hours that are saved', async () => {
    const { draftId, applicationId, form } = await ownersForm('hours.refused@example.com');
    const stored = async () =>
      (
        await server.db
          .sql`select resources, business_hours from business_applications where id = ${applicationId}`
      )[0]!;
    const before = await stored();
    const refused = await postForm(
      server,
      `/business/drafts/${draftId}/hours`,
      { start_mon: '17:00', end_mon: '08:00', count_grooming: '2' },
      form,
    );
    // Refused: answered with a redirect back to the page (a reload does not post again), which says why once.
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe(`/business/drafts/${draftId}#top`);
    expect(await stored()).toEqual(before);
    const refusal = refused.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const shown = await fetch(`${server.url}/business/drafts/${draftId}`, {
      headers: { cookie: `${form.cookie}; ${refusal}` },
    });
    expect(shown.status).toBe(200);
    expect(await shown.text()).toMatch(/<p id="top" class="error" role="alert">[^<]*mon/i);
    // The same form with hours that make sense saves both.
    const saved = await postForm(
      server,
      `/business/drafts/${draftId}/hours`,
      { start_mon: '08:00', end_mon: '17:00', count_grooming: '2' },
      form,
    );
    expect(saved.status).toBe(303);
    const after = await stored();
    expect((after.resources as { kind: string }[]).map((r) => r.kind)).toEqual(['VAN', 'VAN']);
    expect(after.business_hours).toEqual({ mon: [{ start: '08:00', end: '17:00' }] });
  });

  it('says a refusal even when the typed price is long: it is quoted short and the cookie stays small', async () => {
    const { draftId, form } = await ownersForm('long.price@example.com');
    // 1,000 characters of a three-byte script (3 KB): past the form's maxlength, as a script can send.
    const typed = '価'.repeat(1000);
    const refused = await postForm(
      server,
      `/business/drafts/${draftId}/services`,
      { category: 'grooming', kind: 'PRIMARY', name: 'Wash', price: typed, durationMin: '60', pet_DOG: '1' },
      form,
    );
    expect(refused.status).toBe(303);
    const cookies = refused.headers.getSetCookie();
    const refusal = cookies.map((c) => c.split(';')[0]).join('; ');
    // Browsers drop a cookie over 4 KB, and with it the message.
    for (const c of cookies) expect(c.length).toBeLessThan(4000);
    const shown = await fetch(`${server.url}/business/drafts/${draftId}`, {
      headers: { cookie: `${form.cookie}; ${refusal}` },
    });
    const text = visible(await shown.text()).replaceAll('&quot;', '"');
    expect(text).toContain(`The price "${'価'.repeat(40)}…" could not be read`);
  });

  it('refuses odd text and numbers on every form of the page with a page, never a 5xx, and changes nothing', async () => {
    const { draftId, applicationId, form } = await ownersForm('odd.forms@example.com');
    const stored = async () =>
      (
        await server.db.sql`
          select * 
          from business_applications where id = ${applicationId}`
      )[0]!;
    const before = await stored();
    const [service] = before.services as { id: string }[];
    // What each form with fields to type sends, every field set to the probe (the offer form has only
    // checkboxes, where any value is a tick). A lone surrogate is sent as the browser would: U+FFFD.
    const forms: Record<string, string[]> = {
      place: ['country', 'timezone'],
      prices: [`price_${service!.id}`],
      area: ['suburbs', 'radiusKm', 'centerAddress'],
      hours: ['start_mon', 'end_mon', 'count_grooming', 'count_tables'],
      services: ['category', 'kind', 'name', 'price', 'durationMin', 'pet_DOG'],
    };
    const probes = [
      'a\u0000b',
      '\ud800',
      '0.001',
      '-1',
      '1e309',
      '99999999999999999999',
      'NaN',
      ' ',
      'x'.repeat(5000),
    ];
    const answers: string[] = [];
    for (const [name, fields] of Object.entries(forms)) {
      for (const probe of probes) {
        const res = await postForm(
          server,
          `/business/drafts/${draftId}/${name}`,
          Object.fromEntries(fields.map((f) => [f, probe])),
          form,
        );
        answers.push(`${name} ${JSON.stringify(probe.slice(0, 12))}: ${res.status}`);
        expect(res.status, `${name} with ${JSON.stringify(probe.slice(0, 12))}`).toBeLessThan(500);
        // Refused: a 400 page, or the redirect that carries the refusal to the page.
        const refused =
          res.status >= 400 || res.headers.getSetCookie().some((c) => c.startsWith('nogpets_refused='));
        expect(refused, `${name} with ${JSON.stringify(probe.slice(0, 12))}: ${res.status}`).toBe(true);
      }
    }
    expect(await stored()).toEqual(before);
    expect(answers.length).toBe(Object.keys(forms).length * probes.length);
  });

  it('says only its own notices, whatever `done` names', async () => {
    const { draftId, form } = await ownersForm('notices@example.com');
    for (const done of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const res = await fetch(`${server.url}/business/drafts/${draftId}?done=${done}`, {
        headers: { cookie: form.cookie },
      });
      expect(res.status).toBe(200);
      const text = visible(await res.text());
      expect(text).not.toMatch(/native code|\[object Object\]|function /);
    }
  });
});
