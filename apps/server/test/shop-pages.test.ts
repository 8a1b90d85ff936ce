// The shop's pages and operator tasks, in real Chromium: an order's pay page (its lines,
// discount, delivery and total, then the sandbox's pay button), the person's orders on the account
// page, the console's Shop section (open or close it; mark orders packed and shipped), `pnpm cli
// shop|order`, and the worker's expire-unpaid-orders closing an order left unpaid for 24 hours; then
// markup typed by a buyer or the operator shown as text, and the console's shop forms refused
// without their token or from another site.
import { mkdirSync } from 'node:fs';
import { hash } from '@node-rs/argon2';
import { type Order } from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { type Browser, fixedClock, launchBrowser, type Page } from '@nogpets/test-utils';
import { expireUnpaidOrders } from '@nogpets/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, postForm, signedInForm, startTestServer, type TestServer } from './harness.js';
import { payOrderLink } from './shop-fixture.js';

const NOW = '2026-11-23T04:00:00Z'; // Monday 06:00 in Johannesburg
const PASSWORD = 'a long enough password';
const SHOTS = '/tmp/shots';
const BUYER = 'lindiwe.buyer@example.com';
const OPERATOR = 'shop.operator@example.com';
/** Markup that runs script if any page puts it in unescaped. */
const PROBE = '<script>alert(1)</script><img src=x onerror=alert(2)>';

/** Two chew ropes and dental treats by courier to Stellenbosch, 10% off with WELCOME10. */
const ORDER = {
  items: [
    { productId: 'chew-rope', variantId: 'chew-rope-m', qty: 2 },
    { productId: 'dental-treats', qty: 1 },
  ],
  shippingMethod: 'courier',
  shipTo: { line1: '12 Dorp Street', suburb: 'Die Boord', city: 'Stellenbosch', postalCode: '7600' },
  discountCode: 'welcome10',
};

describe('the shop pages, console and CLI', () => {
  let server: TestServer;
  let browser: Browser;
  let buyerKey: string;
  const clock = fixedClock(NOW);
  const run = (...args: string[]) => cli(server.db.url, args);
  const as = () => ({ authorization: `Bearer ${buyerKey}` });

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    browser = await launchBrowser();
    mkdirSync(SHOTS, { recursive: true });
    for (const email of [BUYER, OPERATOR]) {
      const user = await findOrCreateUser(
        server.db.sql,
        email,
        email === BUYER ? 'Lindiwe Mokoena' : 'Shop Ops',
      );
      await setPassword(server.db.sql, user.id, await hash(PASSWORD));
    }
    ({ key: buyerKey } = await createApiKey(server.db.sql, { email: BUYER, scopes: ['orders:write'] }));
    const made = await run('operator', 'add', '--email', OPERATOR);
    expect(made.status, made.stderr).toBe(0);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function buy(body: Record<string, unknown> = ORDER) {
    const answer = await server.post('/v1/orders', body, as());
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({ status: 'PENDING_PAYMENT', canPay: true });
    return answer.body as Order & { payUrl: string };
  }

  const order = async (id: string) => (await server.get(`/v1/orders/${id}`, as())).body;

  async function signIn(page: Page, email: string, next: string): Promise<void> {
    await page.goto(`${server.url}/signin?next=${encodeURIComponent(next)}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}${next}`);
  }

  /** Clicks a form's button and waits for the page it answers with. */
  async function submit(page: Page, button: ReturnType<Page['locator']>): Promise<void> {
    await Promise.all([page.waitForNavigation(), button.click()]);
  }

  const seen = (page: Page, selector = 'body') => page.locator(selector).innerText();
  const shoot = (page: Page, name: string) =>
    page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

  let paidOrderId = '';

  it('shows an order on its pay page, takes the payment, and lists it on the account page', async () => {
    const bought = await buy();
    // 2 × R109 + R129 = R347; 10% off = R34.70; courier to the Western Cape R85.
    expect(bought).toMatchObject({
      subtotalCents: 34_700,
      discountCents: 3_470,
      discountCode: 'WELCOME10',
      deliveryFeeCents: 8_500,
      totalCents: 39_730,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(bought.payUrl);
      const text = await seen(page);
      expect(text).toContain('Your NogPets shop order');
      const rows = (await page.locator('#order tr').allInnerTexts()).map((r) =>
        r.replace(/\s+/g, ' ').trim(),
      );
      expect(rows).toContain(`Cotton chew rope Medium (40 cm) 2 ${bought.lines[0]!.total}`);
      expect(rows).toContain(`Dental treats Pack of 7 1 ${bought.lines[1]!.total}`);
      expect(rows).toContain(`Discount (WELCOME10) −${bought.discount}`);
      expect(bought.delivery).toMatch(
        /^Courier \(The Courier Guy\) to 12 Dorp Street, Die Boord, Stellenbosch 7600/,
      );
      expect(rows).toContain(`Delivery: ${bought.delivery} ${bought.deliveryFee}`);
      expect(rows).toContain(`Total ${bought.total}`);
      expect(text).toContain('Waiting for payment');
      await shoot(page, 'pay-order');
      await page.setViewportSize({ width: 390, height: 800 });
      await shoot(page, 'pay-order-phone');
      await page.setViewportSize({ width: 1280, height: 900 });

      await page.getByRole('button', { name: `Pay ${bought.total} (test)` }).click();
      await page.waitForURL(/\/done$/);
      expect(await seen(page, '#outcome')).toBe('Paid. Thank you: your order is confirmed and being packed.');
      await shoot(page, 'pay-order-done');
      expect(await order(bought.orderId)).toMatchObject({
        status: 'CONFIRMED',
        paymentStatus: 'PAID',
        canPay: false,
      });
      // The link now says it is paid, without a second pay button.
      await page.goto(bought.payUrl);
      expect(await seen(page, '#outcome')).toBe('Paid. Thank you: your order is confirmed and being packed.');
      await expect(page.getByRole('button', { name: /Pay/ }).count()).resolves.toBe(0);

      // Onward to the account page (sign-in first), where the order is listed with its status.
      await page.getByRole('link', { name: 'See your orders on your account page' }).click();
      await page.getByLabel('Email').fill(BUYER);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/account/);
      const listed = await seen(page, `#order-${bought.orderId}`);
      expect(listed).toContain('2 × Cotton chew rope (Medium (40 cm)), 1 × Dental treats (Pack of 7)');
      expect(listed).toContain('Mon, 23 Nov 2026');
      expect(listed).toContain('Courier (The Courier Guy) to 12 Dorp Street');
      expect(listed).toContain('Paid and confirmed; being packed');
      expect(listed).toContain(bought.total);
      expect(await seen(page, '#orders')).toBe('Shop orders');
      await page.locator('#orders').scrollIntoViewIfNeeded();
      await shoot(page, 'account-orders');
    } finally {
      await context.close();
    }
    paidOrderId = bought.orderId;
  });

  it('lets the operator close and open the shop and ship an order from the console', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      await signIn(page, OPERATOR, '/operator');
      expect(await seen(page, '#shop-state')).toMatch(/^The shop is open\./);
      const row = await seen(page, `#order-${paidOrderId}`);
      expect(row).toContain('2 × Cotton chew rope (Medium (40 cm))');
      expect(row).toContain('12 Dorp Street, Die Boord, Stellenbosch 7600');
      expect(row).toContain('Paid by card');
      expect(row).toContain('Paid and confirmed; being packed');
      await shoot(page, 'console-shop');

      await submit(page, page.getByRole('button', { name: 'Close the shop' }));
      expect(await seen(page, '[role=status]')).toBe('The shop is now closed.');
      expect(await seen(page, '#shop-state')).toMatch(/^The shop is closed\./);
      const closed = await server.get('/v1/products');
      expect(closed.status).toBe(409);
      expect(closed.body.error.code).toBe('SHOP_OFF');
      // A person still sees their own orders while it is closed.
      expect((await order(paidOrderId)).status).toBe('CONFIRMED');
      await shoot(page, 'console-shop-closed');

      await submit(page, page.getByRole('button', { name: 'Open the shop' }));
      expect(await seen(page, '[role=status]')).toBe('The shop is now open.');
      expect((await server.get('/v1/products')).status).toBe(200);
      const audit = await server.db.sql`
        select action, client_name from audit_log where action like 'shop.%' order by id`;
      expect(audit).toEqual([
        { action: 'shop.close', client_name: `operator console (${OPERATOR})` },
        { action: 'shop.open', client_name: `operator console (${OPERATOR})` },
      ]);

      await submit(page, page.locator(`#order-${paidOrderId}`).getByRole('button', { name: 'Mark packed' }));
      expect(await seen(page, '[role=status]')).toBe(`${paidOrderId} is packed.`);
      expect(await seen(page, `#order-${paidOrderId}`)).toContain('Packed, waiting to go out');
      await page.locator(`#tracking-${paidOrderId}`).fill('TCG 123456789');
      await submit(page, page.locator(`#order-${paidOrderId}`).getByRole('button', { name: 'Mark shipped' }));
      expect(await seen(page, '[role=status]')).toBe(`${paidOrderId} is shipped (tracking TCG 123456789).`);
      // Shipped, it is no longer one to pack.
      await expect(page.locator(`#order-${paidOrderId}`).count()).resolves.toBe(0);
      expect(await order(paidOrderId)).toMatchObject({ status: 'SHIPPED', tracking: 'TCG 123456789' });

      // A refused move (shipping it again) is said in the section, with its status; nothing changes.
      const again = await page.request.post(`${server.url}/operator/orders/${paidOrderId}/ship`, {
        form: { csrf: await page.locator('input[name=csrf]').first().inputValue() },
      });
      expect(again.status()).toBe(409);
      expect(await again.text()).toContain('This order is already on its way, so it cannot be shipped.');
      expect(await order(paidOrderId)).toMatchObject({ status: 'SHIPPED', tracking: 'TCG 123456789' });

      // The buyer sees the tracking reference on the account page.
      const buyer = await browser.newContext();
      const buyerPage = await buyer.newPage();
      await signIn(buyerPage, BUYER, '/account');
      expect(await seen(buyerPage, `#order-${paidOrderId}`)).toMatch(
        /On its way[\s\S]*Tracking: TCG 123456789/,
      );
      await buyer.close();
      // The operator has bought nothing.
      await page.goto(`${server.url}/account`);
      expect(await seen(page, '#orders + p')).toBe('No shop orders yet.');
    } finally {
      await context.close();
    }
  });

  it('runs the shop from the CLI: open, close, status, list, pack, ship, deliver, cancel, refunded', async () => {
    const closed = await run('shop', 'close');
    expect(closed.status, closed.stderr).toBe(0);
    expect(closed.stdout).toBe('The shop is now closed.\n');
    expect((await run('shop', 'close')).stdout).toBe('The shop was already closed.\n');
    // The CLI runs on the system clock.
    expect((await run('shop', 'status')).stdout).toMatch(
      /^The shop is closed \(since \d{4}-\d\d-\d\d \d\d:\d\d UTC\)\.\n$/,
    );
    expect((await server.get('/v1/products')).status).toBe(409);
    expect((await run('shop', 'open')).stdout).toBe('The shop is now open.\n');
    expect((await server.get('/v1/products')).status).toBe(200);

    const bought = await buy({
      items: [{ productId: 'cat-wand', qty: 1 }],
      shippingMethod: 'local',
      shipTo: { line1: '4 Ryneveld Street', city: 'Stellenbosch', postalCode: '7600' },
    });
    // Unpaid, it is not one to pack.
    expect((await run('order', 'list')).stdout).not.toContain(bought.orderId);
    const page = await browser.newPage();
    await page.goto(bought.payUrl);
    await page.getByRole('button', { name: `Pay ${bought.total} (test)` }).click();
    await page.waitForURL(/\/done$/);
    await page.close();

    const listed = await run('order', 'list');
    expect(listed.status, listed.stderr).toBe(0);
    const line = listed.stdout.split('\n').find((l) => l.startsWith(bought.orderId));
    expect(line?.split('\t')).toEqual([
      bought.orderId,
      '2026-11-23 04:00 UTC',
      bought.total,
      'local',
      'CONFIRMED',
      'PAID',
      '1 × Feather cat wand (One size)',
      bought.delivery,
    ]);

    const delivered = await run('order', 'deliver', bought.orderId);
    expect(delivered.status).not.toBe(0);
    // The order's own refusal, in its words (not a stack or a generic failure).
    expect(delivered.stderr).toBe(
      'This order is confirmed but not yet packed, so it cannot be marked delivered.\n',
    );
    expect((await order(bought.orderId)).status).toBe('CONFIRMED');

    const packed = await run('order', 'pack', bought.orderId);
    expect(packed.stdout).toBe(`${bought.orderId}\tPACKED\tPAID\t${bought.total}\tlocal\n`);
    const shipped = await run('order', 'ship', bought.orderId, '--tracking', 'VAN-7');
    expect(shipped.stdout).toBe(`${bought.orderId}\tSHIPPED\tPAID\t${bought.total}\tlocal\ttracking VAN-7\n`);
    expect((await run('order', 'list')).stdout).not.toContain(bought.orderId);
    expect((await run('order', 'deliver', bought.orderId)).stdout).toMatch(/\tDELIVERED\tPAID\t/);
    expect(await order(bought.orderId)).toMatchObject({ status: 'DELIVERED', tracking: 'VAN-7' });

    const unknown = await run('order', 'ship', 'ord_nope');
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toBe('No order ord_nope.\n');
    // A paid order cancelled: the money is owed back, then marked refunded.
    const second = await buy({
      items: [{ productId: 'lick-mat', qty: 1 }],
      shippingMethod: 'local',
      shipTo: { line1: '4 Ryneveld Street', city: 'Stellenbosch', postalCode: '7600' },
    });
    const payPage = await browser.newPage();
    await payPage.goto(second.payUrl);
    await payPage.getByRole('button', { name: `Pay ${second.total} (test)` }).click();
    await payPage.waitForURL(/\/done$/);
    await payPage.close();
    const cancelled = await run('order', 'cancel', second.orderId, '--note', 'out of lick mats after all');
    expect(cancelled.stdout).toBe(`${second.orderId}\tCANCELLED\tREFUND_REQUESTED\t${second.total}\tlocal\n`);
    const refunded = await run('order', 'refunded', second.orderId, '--note', 'PF refund 991');
    expect(refunded.stdout).toBe(`${second.orderId}\tCANCELLED\tREFUNDED\t${second.total}\tlocal\n`);
    expect(await order(second.orderId)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUNDED' });
    const [note] = await server.db.sql`
      select details from audit_log where target = ${second.orderId} and action = 'order.cancel'`;
    expect(note!.details.note).toBe('out of lick mats after all');

    // The CLI's moves are audited as the operator's, the refused one not at all.
    const audit = await server.db.sql`
      select action from audit_log where target = ${bought.orderId} and client_name = 'operator (CLI)' order by id`;
    expect(audit.map((a) => a.action)).toEqual(['order.pack', 'order.ship', 'order.deliver']);
  }, 240_000); // about fifteen CLI runs, each a process that opens the database

  it('closes an order left unpaid for 24 hours (the worker job), and its pay page says so', async () => {
    const bought = await buy({
      items: [{ productId: 'chew-rope', variantId: 'chew-rope-l', qty: 1 }],
      shippingMethod: 'courier',
      shipTo: { line1: '9 Long Street', city: 'Cape Town', postalCode: '8001' },
    });
    const stock = async () =>
      (await server.get('/v1/products?q=chew rope')).body.products
        .find((p: { id: string }) => p.id === 'chew-rope')
        .variants.find((v: { id: string }) => v.id === 'chew-rope-l').stock;
    expect(await stock()).toBe(0);
    const deps = server.service.runtime.deps;
    const expire = () => expireUnpaidOrders.run({ sql: server.db.sql, now: clock.now, deps });
    clock.advance(24 * 3_600_000 - 60_000);
    expect(await expire()).toMatchObject({ expired: 0 });
    expect((await order(bought.orderId)).status).toBe('PENDING_PAYMENT');
    // Past its 24 hours (and the short grace for a payment already under way), it closes once.
    clock.advance(3_600_000);
    expect(await expire()).toMatchObject({ expired: 1 });
    expect(await expire()).toMatchObject({ expired: 0 });
    expect(await order(bought.orderId)).toMatchObject({ status: 'EXPIRED', paymentStatus: 'NONE' });
    expect(await stock()).toBe(1);

    const page = await browser.newPage();
    const answer = await page.goto(bought.payUrl);
    expect(answer?.status()).toBe(410);
    expect(await seen(page, '#outcome')).toBe(
      'This order closed unpaid after 24 hours; nothing was charged. Ask your assistant to order again.',
    );
    await expect(page.getByRole('button', { name: /Pay/ }).count()).resolves.toBe(0);
    await shoot(page, 'pay-order-closed');
    await page.close();
  });

  it("shows a buyer's address and notes and the operator's tracking as text, never as markup", async () => {
    const bought = await buy({
      items: [{ productId: 'lick-mat', qty: 1 }],
      shippingMethod: 'courier',
      shipTo: { line1: PROBE, suburb: PROBE, city: 'Stellenbosch', postalCode: '7600', notes: PROBE },
    });
    const dialogs: string[] = [];
    const buyerContext = await browser.newContext();
    const operatorContext = await browser.newContext();
    // Any alert, confirm or prompt is script that ran: noted (and dismissed) to fail the test.
    const watched = (page: Page) => {
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      return page;
    };
    const noMarkup = async (page: Page) => {
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      expect(dialogs).toEqual([]);
    };
    try {
      const buyerPage = watched(await buyerContext.newPage());
      await buyerPage.goto(bought.payUrl);
      expect(await seen(buyerPage, '#order-delivery')).toContain(`to ${PROBE}, ${PROBE}, Stellenbosch 7600`);
      await noMarkup(buyerPage);
      await buyerPage.getByRole('button', { name: `Pay ${bought.total} (test)` }).click();
      await buyerPage.waitForURL(/\/done$/);
      await noMarkup(buyerPage);

      const operatorPage = watched(await operatorContext.newPage());
      await signIn(operatorPage, OPERATOR, '/operator');
      const row = await seen(operatorPage, `#order-${bought.orderId}`);
      expect(row).toContain(`to ${PROBE}, ${PROBE}, Stellenbosch 7600`);
      // The driver's notes, under the address.
      expect(await seen(operatorPage, `#order-${bought.orderId} td[data-label=Delivery] .muted`)).toBe(PROBE);
      await noMarkup(operatorPage);
      await operatorPage.locator(`#tracking-${bought.orderId}`).fill(PROBE);
      await submit(
        operatorPage,
        operatorPage.locator(`#order-${bought.orderId}`).getByRole('button', { name: 'Mark shipped' }),
      );
      expect(await seen(operatorPage, '[role=status]')).toBe(
        `${bought.orderId} is shipped (tracking ${PROBE}).`,
      );
      await noMarkup(operatorPage);
      expect(await order(bought.orderId)).toMatchObject({ status: 'SHIPPED', tracking: PROBE });

      await signIn(buyerPage, BUYER, '/account');
      const listed = await seen(buyerPage, `#order-${bought.orderId}`);
      expect(listed).toContain(`to ${PROBE}, ${PROBE}, Stellenbosch 7600`);
      expect(listed).toContain(`Tracking: ${PROBE}`);
      await noMarkup(buyerPage);
      // The paid pay page, shown again, still shows the address as text.
      await buyerPage.goto(bought.payUrl);
      expect(await seen(buyerPage, '#order-delivery')).toContain(`to ${PROBE}, ${PROBE}, Stellenbosch 7600`);
      await noMarkup(buyerPage);
    } finally {
      await buyerContext.close();
      await operatorContext.close();
    }
  });

  it("refuses the console's shop forms without their token or from another site, changing nothing", async () => {
    const bought = await buy({
      items: [{ productId: 'lick-mat', qty: 1 }],
      shippingMethod: 'local',
      shipTo: { line1: '4 Ryneveld Street', city: 'Stellenbosch', postalCode: '7600' },
    });
    expect(await payOrderLink(server, bought.payUrl)).toBe(303);
    expect((await order(bought.orderId)).status).toBe('CONFIRMED');
    const form = await signedInForm(server, OPERATOR, PASSWORD);
    const audited = async () =>
      (
        await server.db.sql`
        select count(*)::int as n from audit_log where action like 'shop.%' or target = ${bought.orderId}`
      )[0]!.n;
    const auditBefore = await audited();
    const posts: [string, Record<string, string>][] = [
      ['/operator/shop', { open: 'no' }],
      [`/operator/orders/${bought.orderId}/pack`, {}],
      [`/operator/orders/${bought.orderId}/ship`, { tracking: 'FORGED-1' }],
    ];
    const foreign: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const [path, fields] of posts) {
      const noToken = await postForm(server, path, fields, undefined, { cookie: form.cookie });
      expect(noToken.status, `${path} without a token`).toBe(403);
      const wrongToken = await postForm(server, path, fields, { cookie: form.cookie, csrf: 'forged' });
      expect(wrongToken.status, `${path} with a forged token`).toBe(403);
      for (const headers of foreign) {
        const res = await postForm(server, path, fields, form, headers);
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    expect((await server.get('/v1/products')).status).toBe(200);
    expect(await order(bought.orderId)).toMatchObject({ status: 'CONFIRMED', tracking: null });
    expect(await audited()).toBe(auditBefore);
    // The same session's token, from the console itself, is taken: the refusals above were the token's and the site's.
    const same = await postForm(server, '/operator/shop', { open: 'yes' }, form, { origin: server.url });
    expect(same.status).toBe(200);
    expect(await same.text()).toContain('The shop was already open.');
  });
});
