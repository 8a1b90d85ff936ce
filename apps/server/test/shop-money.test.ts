// Money and stock in the shop, over HTTP and MCP: the courier fee follows the
// postal code's province (a stated province that contradicts it is refused, naming both, by
// quote_order and buy alike); one person holds at most 2 unpaid card orders, also when buying
// several at once; pay_order makes a fresh link for the person's own unpaid order; and the account
// page's Pay button, in real Chromium, reaches the sandbox's pay page, its form refused without its
// token or from another site.
import { mkdirSync } from 'node:fs';
import { hash } from '@node-rs/argon2';
import { createApiKey } from '@nogpets/operations/testing';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { type Browser, fixedClock, launchBrowser, type Page } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm, signedInForm, startTestServer, type TestServer } from './harness.js';
import {
  courierOrder,
  DOORS,
  type Door,
  NOW,
  newBuyer,
  payOrderLink,
  type ShopCall,
  shopCaller,
  shopCounts,
  stockNow,
} from './shop-fixture.js';

type Json = any;

const HOUR = 3_600_000;
const PASSWORD = 'a long enough password';
const SHOTS = '/tmp/shots';
const treats = (qty = 1) => [{ productId: 'dental-treats', qty }];
/** An address in Polokwane: postal code 0700 is in Limpopo, whose courier fee is R130 (the Western Cape's R85). */
const POLOKWANE = { line1: '8 Landdros Mare Street', city: 'Polokwane', postalCode: '0700' };

describe('money and stock in the shop', () => {
  let server: TestServer;
  let call: ShopCall;
  const clock = fixedClock(NOW);
  let people = 0;
  /** A buyer of their own (each holds at most 2 unpaid orders), with an orders:write key. */
  const someone = () => newBuyer(server, `money-${++people}@example.com`);

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    call = shopCaller(server);
  });
  afterAll(() => server?.stop());

  const paymentsOf = async (orderId: string) =>
    (await server.db.sql`select count(*)::int as n from payments where order_id = ${orderId}`)[0]!.n;

  describe('the courier fee follows the postal code', () => {
    it.each(DOORS)(
      'refuses a stated province that contradicts the postal code, naming both, in quote and buy (%s)',
      async (door) => {
        const buyer = await someone();
        const before = { stock: await stockNow(server), counts: await shopCounts(server) };
        const asked = [
          ['quote_order', { items: treats(), shippingMethod: 'courier', postalCode: '0700', province: 'WC' }],
          ['buy', courierOrder(treats(), { shipTo: { ...POLOKWANE, province: 'WC' } })],
          ['buy', courierOrder(treats(), { shipTo: POLOKWANE, province: 'WC' })],
          ['quote_order', { items: treats(), shippingMethod: 'local', postalCode: '7600', province: 'GP' }],
        ] as const;
        for (const [tool, args] of asked) {
          const res = await call(door, tool, args, { key: buyer.key });
          expect([res.status, res.body.error?.code], `${tool} ${JSON.stringify(args)}`).toEqual([
            400,
            'BAD_REQUEST',
          ]);
        }
        const res = await call(door, 'buy', asked[1][1], { key: buyer.key });
        expect(res.body.error.message).toBe(
          'Postal code 0700 is in Limpopo (LP), not the Western Cape (WC) as stated. Check the address with the ' +
            'person: correct the postal code, or leave out the province (it follows the postal code).',
        );
        expect(res.body.error.details).toMatchObject({
          postalCode: '0700',
          province: 'WC',
          provinceOfPostalCode: 'LP',
          fields: [{ field: 'province' }],
        });
        expect(await stockNow(server)).toEqual(before.stock);
        expect(await shopCounts(server)).toEqual(before.counts);
      },
    );

    it.each(DOORS)('prices quote and buy alike from the postal code, stated or not (%s)', async (door) => {
      const buyer = await someone();
      const quoted = await call(door, 'quote_order', {
        items: treats(),
        shippingMethod: 'courier',
        postalCode: '0700',
      });
      expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
      expect(quoted.body).toMatchObject({ deliveryFeeCents: 13_000, canBuy: true });
      expect(quoted.body.delivery).toMatch(/to Limpopo/);
      for (const shipTo of [POLOKWANE, { ...POLOKWANE, province: 'LP' }]) {
        const bought = await call(door, 'buy', courierOrder(treats(), { shipTo }), { key: buyer.key });
        expect(bought.status, JSON.stringify(bought.body)).toBe(201);
        expect(bought.body).toMatchObject({
          deliveryFeeCents: quoted.body.deliveryFeeCents,
          totalCents: quoted.body.totalCents,
        });
        expect(await payOrderLink(server, bought.body.payUrl)).toBe(303);
      }
      // Before the address is known, a province alone still prices a quote.
      const byProvince = await call(door, 'quote_order', {
        items: treats(),
        shippingMethod: 'courier',
        province: 'LP',
      });
      expect(byProvince.body).toMatchObject({ deliveryFeeCents: 13_000 });
    });
  });

  describe('unpaid orders per person', () => {
    it.each(DOORS)(
      'refuses a third unpaid order with the two open ones and how to pay them, then takes it once one is paid (%s)',
      async (door) => {
        const buyer = await someone();
        const made: Json[] = [];
        for (const qty of [1, 2]) {
          const res = await call(door, 'buy', courierOrder(treats(qty)), { key: buyer.key });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          expect(res.body.status).toBe('PENDING_PAYMENT');
          made.push(res.body);
        }
        const before = { stock: await stockNow(server), counts: await shopCounts(server) };
        const third = await call(door, 'buy', courierOrder(treats(3)), { key: buyer.key });
        expect([third.status, third.body.error?.code]).toEqual([409, 'TOO_MANY_UNPAID_ORDERS']);
        const { message, details } = third.body.error;
        for (const o of made) {
          expect(message).toContain(o.orderId);
          expect(message).toContain(o.total);
        }
        expect(message).toContain('payable until Tue, 24 Nov 2026, 06:00'); // 24 hours after NOW, Johannesburg time
        expect(message).toMatch(/pay_order/);
        expect(message).toMatch(/wait for it to close unpaid/);
        expect(details.limit).toBe(2);
        // Both were made at the same (fixed) instant: their order in the list is not asserted.
        const byId = (a: { orderId: string }, b: { orderId: string }) => a.orderId.localeCompare(b.orderId);
        expect([...details.unpaidOrders].sort(byId)).toEqual(
          [...made].sort(byId).map((o) => ({
            orderId: o.orderId,
            what: `${o.lines[0].qty} × Dental treats (Pack of 7)`,
            totalCents: o.totalCents,
            total: o.total,
            expiresAt: o.expiresAt,
            expires: expect.any(String),
          })),
        );
        // Nothing was taken or made by the refusal.
        expect(await stockNow(server)).toEqual(before.stock);
        expect(await shopCounts(server)).toEqual(before.counts);

        // Paying one (through pay_order's fresh link) makes room for the next.
        const link = await call(door, 'pay_order', { orderId: made[0].orderId }, { key: buyer.key });
        expect(link.status, JSON.stringify(link.body)).toBe(200);
        expect(await payOrderLink(server, link.body.payUrl)).toBe(303);
        const again = await call(door, 'buy', courierOrder(treats(3)), { key: buyer.key });
        expect(again.status, JSON.stringify(again.body)).toBe(201);
        const fourth = await call(door, 'buy', courierOrder(treats(1)), { key: buyer.key });
        expect(fourth.body.error?.code).toBe('TOO_MANY_UNPAID_ORDERS');
      },
    );

    it('lets no one past 2 unpaid orders by buying several at once (3 rounds of 6 buys each)', async () => {
      for (let round = 0; round < 3; round++) {
        const buyer = await someone();
        // The MCP session is opened first, so the six calls go out together.
        expect((await call('mcp', 'list_orders', {}, { key: buyer.key })).status).toBe(200);
        const doors: Door[] = ['http', 'mcp', 'http', 'mcp', 'http', 'mcp'];
        const answers = await Promise.all(
          doors.map((door) => call(door, 'buy', courierOrder(treats()), { key: buyer.key })),
        );
        const outcomes = answers.map((a) => (a.status === 201 ? 'MADE' : a.body.error?.code)).sort();
        expect(outcomes, JSON.stringify(answers.map((a) => a.body.error ?? a.status))).toEqual([
          'MADE',
          'MADE',
          'TOO_MANY_UNPAID_ORDERS',
          'TOO_MANY_UNPAID_ORDERS',
          'TOO_MANY_UNPAID_ORDERS',
          'TOO_MANY_UNPAID_ORDERS',
        ]);
        const [{ n }] = (await server.db.sql`
          select count(*)::int as n from orders where user_id = ${buyer.userId} and status = 'PENDING_PAYMENT'`) as unknown as [
          { n: number },
        ];
        expect(n).toBe(2);
      }
    });
  });

  describe('pay_order', () => {
    it.each(DOORS)(
      "makes a fresh link until the order closes, stops the old one, and refuses paid or others' orders (%s)",
      async (door) => {
        const buyer = await someone();
        const stranger = await someone();
        const bought = await call(door, 'buy', courierOrder(treats()), { key: buyer.key });
        expect(bought.status).toBe(201);
        const { orderId } = bought.body;

        // Another person's order is answered as one that does not exist, and gets no link.
        for (const id of [orderId, 'ord_nope']) {
          const foreign = await call(door, 'pay_order', { orderId: id }, { key: stranger.key });
          expect([foreign.status, foreign.body.error?.code], id).toEqual([404, 'NOT_FOUND']);
          expect(foreign.body.error.message).toBe(`No order ${id} of the person. list_orders shows theirs.`);
        }
        expect(await paymentsOf(orderId)).toBe(1);

        const link = await call(door, 'pay_order', { orderId }, { key: buyer.key });
        expect(link.status, JSON.stringify(link.body)).toBe(200);
        expect(link.body).toMatchObject({
          orderId,
          totalCents: bought.body.totalCents,
          total: bought.body.total,
          // The order's own time: a new link never keeps the items longer.
          expiresAt: bought.body.expiresAt,
        });
        expect(link.body.payUrl).toMatch(new RegExp(`^${server.url}/pay/npl_`));
        expect(link.body.payUrl).not.toBe(bought.body.payUrl);
        expect(link.body.next).toContain(bought.body.total);
        const old = await fetch(bought.body.payUrl);
        expect(old.status).toBe(410);
        await old.body?.cancel();
        const fresh = await fetch(link.body.payUrl);
        expect(fresh.status).toBe(200);
        expect(await fresh.text()).toContain('Your NogPets shop order');

        expect(await payOrderLink(server, link.body.payUrl)).toBe(303);
        const got = await call(door, 'get_order', { orderId }, { key: buyer.key });
        expect(got.body).toMatchObject({ status: 'CONFIRMED', paymentStatus: 'PAID', canPay: false });
        const paid = await call(door, 'pay_order', { orderId }, { key: buyer.key });
        expect([paid.status, paid.body.error?.code]).toEqual([409, 'NOTHING_TO_PAY']);
        expect(paid.body.error.message).toMatch(/already paid/);
        expect(await paymentsOf(orderId)).toBe(2);
      },
    );

    it('refuses an order whose 24 hours are over (NOTHING_TO_PAY), and it no longer counts as unpaid', async () => {
      const buyer = await someone();
      const first = await call('http', 'buy', courierOrder(treats()), { key: buyer.key });
      const second = await call('http', 'buy', courierOrder(treats()), { key: buyer.key });
      expect([first.status, second.status]).toEqual([201, 201]);
      try {
        clock.set(new Date(Date.parse(NOW) + 24 * HOUR + 60_000));
        for (const door of DOORS) {
          const late = await call(door, 'pay_order', { orderId: first.body.orderId }, { key: buyer.key });
          expect([late.status, late.body.error?.code]).toEqual([409, 'NOTHING_TO_PAY']);
          expect(late.body.error.message).toMatch(/not paid within 24 hours.*Buy again/);
        }
        const next = await call('http', 'buy', courierOrder(treats()), { key: buyer.key });
        expect(next.status, JSON.stringify(next.body)).toBe(201);
      } finally {
        clock.set(NOW);
      }
      expect(await paymentsOf(first.body.orderId)).toBe(1);
    });

    it('needs a credential (401) with orders:write (403)', async () => {
      const buyer = await someone();
      const bought = await call('http', 'buy', courierOrder(treats()), { key: buyer.key });
      const orderId = bought.body.orderId;
      expect((await call('http', 'pay_order', { orderId })).status).toBe(401);
      const { key } = await createApiKey(server.db.sql, {
        email: `money-${people}@example.com`,
        scopes: ['bookings:read'],
      });
      const narrow = await call('http', 'pay_order', { orderId }, { key });
      expect(narrow.status).toBe(403);
      expect(await paymentsOf(orderId)).toBe(1);
    });
  });

  describe('the account page', () => {
    let browser: Browser;
    const email = 'thandi.payer@example.com';
    let key = '';

    beforeAll(async () => {
      browser = await launchBrowser();
      mkdirSync(SHOTS, { recursive: true });
      const user = await findOrCreateUser(server.db.sql, email, 'Thandi Nkosi');
      await setPassword(server.db.sql, user.id, await hash(PASSWORD));
      ({ key } = await createApiKey(server.db.sql, { email, scopes: ['orders:write'] }));
    });
    afterAll(() => browser?.close());

    async function signIn(page: Page): Promise<void> {
      await page.goto(`${server.url}/signin?next=${encodeURIComponent('/account')}`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${server.url}/account`);
    }

    it('shows a Pay button for an unpaid order that leads to the pay page, and pays it', async () => {
      const bought = await call('http', 'buy', courierOrder(treats(2)), { key });
      expect(bought.status, JSON.stringify(bought.body)).toBe(201);
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      try {
        await signIn(page);
        const row = page.locator(`#order-${bought.body.orderId}`);
        const listed = await row.innerText();
        expect(listed).toContain('2 × Dental treats (Pack of 7)');
        expect(listed).toContain('Waiting for payment');
        expect(listed).toContain('Pay by Tue, 24 Nov 2026, 06:00; unpaid, the order closes then.');
        await row.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/account-order-pay.png`, fullPage: true });

        await Promise.all([
          page.waitForURL(/\/pay\/npl_/),
          row.getByRole('button', { name: `Pay ${bought.body.total}` }).click(),
        ]);
        expect(page.url()).not.toBe(bought.body.payUrl);
        const text = await page.locator('body').innerText();
        expect(text).toContain('Your NogPets shop order');
        expect(text).toContain('Waiting for payment');
        await page.screenshot({ path: `${SHOTS}/account-order-pay-page.png`, fullPage: true });
        await page.getByRole('button', { name: `Pay ${bought.body.total} (test)` }).click();
        await page.waitForURL(/\/done$/);
        expect(await page.locator('#outcome').innerText()).toBe(
          'Paid. Thank you: your order is confirmed and being packed.',
        );

        await page.goto(`${server.url}/account`);
        const after = page.locator(`#order-${bought.body.orderId}`);
        expect(await after.innerText()).toContain('Paid and confirmed; being packed');
        expect(await after.getByRole('button').count()).toBe(0);
      } finally {
        await context.close();
      }
    });

    it("refuses the Pay form without its token, from another site, or for another person's order", async () => {
      const bought = await call('http', 'buy', courierOrder(treats()), { key });
      expect(bought.status).toBe(201);
      const { orderId } = bought.body;
      const path = `/account/orders/${orderId}/pay`;
      const form = await signedInForm(server, email, PASSWORD);
      expect((await postForm(server, path, {}, undefined, { cookie: form.cookie })).status).toBe(403);
      expect((await postForm(server, path, {}, { cookie: form.cookie, csrf: 'forged' })).status).toBe(403);
      const foreignHeaders: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { 'sec-fetch-site': 'cross-site' },
      ];
      for (const headers of foreignHeaders) {
        expect((await postForm(server, path, {}, form, headers)).status, JSON.stringify(headers)).toBe(403);
      }
      expect(await paymentsOf(orderId)).toBe(1);

      // Another person's order, from their own account page: as if it did not exist.
      const strangerEmail = 'sipho.stranger@example.com';
      const stranger = await findOrCreateUser(server.db.sql, strangerEmail, 'Sipho');
      await setPassword(server.db.sql, stranger.id, await hash(PASSWORD));
      const theirs = await signedInForm(server, strangerEmail, PASSWORD);
      const foreign = await postForm(server, path, {}, theirs, { origin: server.url });
      expect(foreign.status).toBe(404);
      expect(await foreign.text()).toContain(`No order ${orderId} of the person.`);
      expect(await paymentsOf(orderId)).toBe(1);

      // The page's own form, from the page: a fresh link, and the browser sent to it.
      const own = await postForm(server, path, {}, form, { origin: server.url });
      expect(own.status).toBe(303);
      expect(own.headers.get('location')).toMatch(new RegExp(`^${server.url}/pay/npl_`));
      expect(await paymentsOf(orderId)).toBe(2);
    });
  });
});
