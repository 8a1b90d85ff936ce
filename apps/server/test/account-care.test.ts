// The pet owner's account page, used in real Chromium at a desktop and a phone width: bookings
// (pay, cancel with its confirm step, until when movable), pets and addresses. Every change runs
// the operation an assistant would call, is audited, and refuses forms from elsewhere.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { type Browser, fixedClock, launchBrowser, type Page } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookFirstCardSlot,
  newPetOwner,
  postForm,
  signedInForm,
  startTestServer,
  type TestServer,
} from './harness.js';

const NOW = '2026-11-23T04:00:00Z'; // Monday 06:00 in Johannesburg
const PASSWORD = 'a long enough password';
const screens = process.env.PAGE_SCREENS;

describe('the account page for a pet owner', () => {
  let server: TestServer;
  let browser: Browser;
  const clock = fixedClock(NOW);

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A person with a password, a saved pet and address, a card booking on Wednesday and a cancelled one. */
  async function personWithBookings(email: string) {
    const user = await findOrCreateUser(server.db.sql, email, 'Ayanda Dube');
    await setPassword(server.db.sql, user.id, await hash(PASSWORD));
    const owner = await newPetOwner(server, {
      email,
      pet: { name: 'Rex', weightKg: 12 },
      line1: '12 Dorp Street',
    });
    const as = { authorization: `Bearer ${owner.key}` };
    const wednesday = await bookFirstCardSlot(server, owner, '2026-11-25');
    const friday = await bookFirstCardSlot(server, owner, '2026-11-27');
    const upcoming = wednesday.bookingId;
    const cancelled = friday.bookingId;
    const gone = await server.post(`/v1/bookings/${cancelled}/cancel`, { confirm: true }, as);
    expect(gone.status).toBe(200);
    return { ...owner, userId: user.id, upcoming, cancelled, when: wednesday.when, start: wednesday.start };
  }

  async function signIn(page: Page, email: string): Promise<void> {
    await page.goto(`${server.url}/signin?next=%2Faccount`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/account`);
  }

  /** Clicks a form's button and waits for the page it answers with. */
  async function submit(page: Page, button: ReturnType<Page['locator']>): Promise<void> {
    await Promise.all([page.waitForNavigation(), button.click()]);
  }

  const seen = (page: Page, selector = 'body') => page.locator(selector).innerText();

  async function shoot(page: Page, name: string) {
    if (!screens) return;
    mkdirSync(screens, { recursive: true });
    await page.screenshot({ path: path.join(screens, `${name}.png`), fullPage: true });
  }

  for (const width of [1280, 390]) {
    it(`shows, pays and cancels bookings, and keeps pets and addresses, at ${width} px`, async () => {
      const email = `owner-${width}@example.com`;
      const person = await personWithBookings(email);
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      try {
        await signIn(page, email);
        // Upcoming: what, when (local), where, status and payment in words, total, until when movable.
        const row = await seen(page, `#booking-${person.upcoming}`);
        expect(row).toMatch(/Rex: Dog bath/);
        expect(row).toContain(person.when);
        expect(person.when).toMatch(/^Wed, 25 Nov 2026, /);
        expect(row).toMatch(/12 Dorp Street/);
        expect(row).toMatch(/Waiting for payment/);
        expect(row).toMatch(/Not paid yet \(card\)/);
        expect(row).toMatch(/R390/);
        // Until 12 hours before the start, in Johannesburg time (UTC+2).
        const deadline = new Date(Date.parse(person.start) - 12 * 3_600_000 + 2 * 3_600_000);
        expect(row).toContain(`Until Tue, 24 Nov 2026, ${deadline.toISOString().slice(11, 16)}`);
        // Earlier: the cancelled one, without buttons.
        const earlier = await seen(page, '#earlier');
        expect(earlier).toMatch(/Fri, 27 Nov 2026[\s\S]*Cancelled[\s\S]*Nothing to pay/);
        await expect(page.locator(`#booking-${person.cancelled} button`).count()).resolves.toBe(0);
        await shoot(page, `account-bookings-${width}`);

        // A pet in a booking still to come is kept.
        await submit(page, page.getByRole('button', { name: 'Remove Rex' }));
        expect(await seen(page, '[role=status]')).toMatch(
          /in a booking still to come or a weekly repeat, so it stays/,
        );
        await expect(page.locator(`#pet-${person.petId}`).count()).resolves.toBe(1);

        // Pay: to our pay page, pay there (sandbox), and onward back to the booking.
        await page.getByRole('button', { name: 'Pay R390' }).click();
        await page.waitForURL(/\/pay\/npl_/);
        expect(await seen(page)).toMatch(
          /12 Dorp Street[\s\S]*Total: R390, which includes the card fee of R10/,
        );
        await page.getByRole('button', { name: 'Pay R390 (test)' }).click();
        await page.waitForURL(/\/done$/);
        expect(await seen(page)).toMatch(/Payment received/);
        await shoot(page, `pay-done-${width}`);
        await page.getByRole('link', { name: 'See your booking on your account page' }).click();
        await page.waitForURL(`${server.url}/account#booking-${person.upcoming}`);
        expect(await seen(page, `#booking-${person.upcoming}`)).toMatch(/Confirmed[\s\S]*Paid by card/);

        // Cancel: the same confirm step and refund words as the API.
        await page.locator(`#booking-${person.upcoming}`).getByRole('button', { name: 'Cancel' }).click();
        const summary = await seen(page, '#summary');
        expect(summary).toBe(
          `Cancel the booking for Rex at 12 Dorp Street, Die Boord, Stellenbosch, ${person.when}. R390 paid by card ` +
            'is refunded to the card in 5 to 7 working days.',
        );
        await shoot(page, `account-cancel-${width}`);
        await submit(page, page.getByRole('button', { name: 'Yes, cancel it' }));
        expect(await seen(page, '[role=status]')).toBe(
          'Cancelled the booking. The payment is refunded to the card in 5 to 7 working days.',
        );
        expect(await seen(page)).toMatch(/No upcoming bookings/);
        expect(await seen(page, `#booking-${person.upcoming}`)).toMatch(
          /Cancelled[\s\S]*Being refunded to the card \(5 to 7 working days\)/,
        );

        // Pets: add, change notes, remove one no live booking uses.
        await page.getByText('Add a pet').click();
        await page.getByLabel('Name', { exact: true }).fill('Bella <3');
        await page.getByLabel('Dog or cat').selectOption('CAT');
        await page.getByLabel('Weight in kg').fill('4.5');
        await page.getByLabel('Coat', { exact: true }).selectOption('LONG');
        await submit(page, page.getByRole('button', { name: 'Save pet' }));
        expect(await seen(page, '[role=status]')).toBe('Saved Bella <3.');
        expect(await seen(page, '#pet-list')).toMatch(/Bella <3\s+Cat, 4\.5 kg, long coat/);
        await page.getByLabel('Notes for Rex').fill('Nervous of clippers');
        await submit(page, page.locator(`#pet-${person.petId}`).getByRole('button', { name: 'Save notes' }));
        expect(await seen(page, '[role=status]')).toBe('Saved the notes.');
        await expect(page.getByLabel('Notes for Rex').inputValue()).resolves.toBe('Nervous of clippers');
        await submit(page, page.getByRole('button', { name: 'Remove Rex' }));
        expect(await seen(page, '[role=status]')).toBe('Removed Rex.');
        await expect(page.locator(`#pet-${person.petId}`).count()).resolves.toBe(0);

        // Addresses: a place we do not know is refused with what to do; a known one is saved.
        await page.getByText('Add an address').click();
        await page.getByLabel('Label (Home, Work)').fill('Work');
        await page.getByLabel('Street and number').fill('1 Nowhere Lane');
        await page.getByLabel('Suburb', { exact: true }).fill('Qwxzv Plorp');
        await submit(page, page.getByRole('button', { name: 'Save address' }));
        expect(await seen(page, '[role=status]')).toMatch(/We don't recognise the suburb or postal code/);
        await page.getByText('Add an address').click();
        await page.getByLabel('Label (Home, Work)').fill('Work');
        await page.getByLabel('Street and number').fill('5 Bird Street');
        await page.getByLabel('Suburb', { exact: true }).fill('Die Boord');
        await submit(page, page.getByRole('button', { name: 'Save address' }));
        expect(await seen(page, '[role=status]')).toBe('Saved Work.');
        await page.getByLabel('Notes for Home').fill('Gate code 1234');
        await submit(
          page,
          page.locator(`#address-${person.addressId}`).getByRole('button', { name: 'Save notes' }),
        );
        await expect(page.getByLabel('Notes for Home').inputValue()).resolves.toBe('Gate code 1234');
        await shoot(page, `account-saved-${width}`);
        // Nothing runs off the side of the screen.
        const overflow = Number(
          await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'),
        );
        expect(overflow).toBeLessThanOrEqual(0);
      } finally {
        await context.close();
      }

      // The API sees what the page did, and the audit log says the account page did it.
      const as = { authorization: `Bearer ${person.key}` };
      const pets = (await server.get('/v1/pets', as)).body.pets;
      expect(pets.map((p: { name: string }) => p.name)).toEqual(['Bella <3']);
      const home = (await server.get('/v1/addresses', as)).body.addresses.find(
        (a: { id: string }) => a.id === person.addressId,
      );
      expect(home.notes).toBe('Gate code 1234');
      const audit = await server.db.sql<{ action: string }[]>`
        select action from audit_log where user_id = ${person.userId} and client_name = 'NogPets account page'
        order by at, id`;
      expect(audit.map((a) => a.action)).toEqual([
        'booking.paylink',
        'booking.cancel',
        'pet.add',
        'pet.notes',
        'pet.remove',
        'address.add',
        'address.notes',
      ]);
    });
  }

  it('refuses forms without the page’s token or from another site, and other people’s bookings, changing nothing', async () => {
    const person = await personWithBookings('careful@example.com');
    const other = await personWithBookings('other@example.com');
    const form = await signedInForm(server, 'careful@example.com', PASSWORD);

    const statusOf = async (id: string, key: string) =>
      (await server.get(`/v1/bookings/${id}`, { authorization: `Bearer ${key}` })).body.status;
    // No token: refused.
    const noToken = await postForm(
      server,
      `/account/bookings/${person.upcoming}/cancel`,
      {
        confirm: 'yes',
        series: 'no',
        csrf: 'forged',
      },
      { cookie: form.cookie, csrf: 'forged' },
    );
    expect(noToken.status).toBe(403);
    // From another site's page: refused before anything runs.
    const crossSite = await postForm(server, `/account/pets/${person.petId}/remove`, {}, form, {
      'sec-fetch-site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    // Someone else's booking and pet: not found, as the API says.
    const theirs = await postForm(
      server,
      `/account/bookings/${other.upcoming}/cancel`,
      { confirm: 'yes', series: 'no' },
      form,
    );
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).toMatch(/No booking/);
    const theirPet = await postForm(server, `/account/pets/${other.petId}/remove`, {}, form);
    expect(theirPet.status).toBe(404);
    // Notes too long for the pet: a 400 saying the limit.
    const long = await postForm(
      server,
      `/account/pets/${person.petId}/notes`,
      { notes: 'x'.repeat(501) },
      form,
    );
    expect(long.status).toBe(400);
    expect(await long.text()).toMatch(/notes: .*500 characters/);

    expect(await statusOf(person.upcoming, person.key)).toBe('PENDING');
    expect(await statusOf(other.upcoming, other.key)).toBe('PENDING');
    const pets = (await server.get('/v1/pets', { authorization: `Bearer ${other.key}` })).body.pets;
    expect(pets).toHaveLength(1);
    const mine = (await server.get('/v1/pets', { authorization: `Bearer ${person.key}` })).body.pets;
    expect(mine[0].notes).toBeNull();
  });

  it('takes notes as typed (line breaks as one character), and refuses notes sent twice or not at all, and numbers not in decimal', async () => {
    const person = await personWithBookings('forms@example.com');
    const { cookie, csrf } = await signedInForm(server, 'forms@example.com', PASSWORD);
    const post = (path: string, body: string) =>
      fetch(server.url + path, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: `csrf=${encodeURIComponent(csrf)}&${body}`,
      });
    const notesOf = async () =>
      (await server.get('/v1/pets', { authorization: `Bearer ${person.key}` })).body.pets[0].notes;
    // 500 characters as a browser counts them (ten lines), sent with CRLF line breaks: 509 bytes of text.
    const lines = Array.from({ length: 10 }, () => 'x'.repeat(49)).join('\r\n');
    expect(
      (await post(`/account/pets/${person.petId}/notes`, `notes=${encodeURIComponent(lines)}`)).status,
    ).toBe(200);
    expect(await notesOf()).toBe(lines.replaceAll('\r\n', '\n'));
    // Sent twice, or not at all: refused, nothing joined or cleared.
    const twice = await post(`/account/pets/${person.petId}/notes`, 'notes=a&notes=b');
    expect(twice.status).toBe(400);
    expect(await twice.text()).toMatch(/send the notes once, as text/);
    expect((await post(`/account/pets/${person.petId}/notes`, '')).status).toBe(400);
    expect(await notesOf()).toBe(lines.replaceAll('\r\n', '\n'));
    // A weight in hex is not a weight.
    const hex = await post('/account/pets', 'name=Hexa&type=DOG&weightKg=0x10&coat=SHORT');
    expect(hex.status).toBe(400);
    expect(await hex.text()).toMatch(/weightKg/);
    const pets = (await server.get('/v1/pets', { authorization: `Bearer ${person.key}` })).body.pets;
    expect(pets.map((p: { name: string }) => p.name)).toEqual(['Rex']);
  });

  it('says a booking that has started can no longer be moved or cancelled here, and offers no button for it', async () => {
    const person = await personWithBookings('started@example.com');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      clock.set(new Date(Date.parse(person.start) + 10 * 60_000));
      await signIn(page, 'started@example.com');
      const row = await seen(page, `#booking-${person.upcoming}`);
      expect(row).toMatch(/can no longer be moved here; please phone the operator/);
      await expect(page.locator(`#booking-${person.upcoming} button`).count()).resolves.toBe(
        // Still payable (canPay) until it ends; no cancel.
        1,
      );
      await expect(
        page.locator(`#booking-${person.upcoming}`).getByRole('button', { name: 'Cancel' }).count(),
      ).resolves.toBe(0);
    } finally {
      clock.set(NOW);
      await context.close();
    }
  });
});
