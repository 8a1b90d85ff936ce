// A shop order paid through PayFast, against the stand-in for PayFast's servers: the
// order's pay page posts a signed checkout naming the order and its total; a verified ITN confirms
// the order once; an ITN for a different amount is owed back and leaves the order waiting.
import { type Browser, fixedClock, launchBrowser } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import {
  checkoutForm,
  MERCHANT_ID,
  notifyAndCheck,
  payFastEnv,
  type StandIn,
  startPayFastStandIn,
} from './payfast-stand-in.js';
import { courierOrder, NOW, newBuyer, type ShopCall, shopCaller } from './shop-fixture.js';

/** PayFast's amount: rands with two decimals and a point, no currency sign. */
const payfastAmount = (cents: number) => (cents / 100).toFixed(2);

describe('a shop order paid on PayFast', () => {
  let payfast: StandIn;
  let server: TestServer;
  let browser: Browser;
  let call: ShopCall;
  let key: string;
  const clock = fixedClock(NOW);

  beforeAll(async () => {
    payfast = await startPayFastStandIn();
    server = await startTestServer({
      clock,
      database: { demoDataAt: clock.now() },
      env: payFastEnv(payfast.url),
    });
    browser = await launchBrowser();
    call = shopCaller(server);
    ({ key } = await newBuyer(server, 'sipho.payfast@example.com'));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await payfast?.close();
  });

  async function buyByCard(items: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
    const bought = await call('http', 'buy', courierOrder(items, extra), { key });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    expect(bought.body).toMatchObject({ status: 'PENDING_PAYMENT', paymentStatus: 'PENDING' });
    return bought.body as { orderId: string; payUrl: string; totalCents: number; total: string };
  }
  const order = async (orderId: string) => (await call('http', 'get_order', { orderId }, { key })).body;

  it('posts a checkout naming the order and its total, and a verified ITN confirms it once', async () => {
    // 2 × R99 less 10% + R85 courier to the Western Cape: R263.20, a trailing zero PayFast's format keeps.
    const bought = await buyByCard([{ productId: 'cat-wand', qty: 2 }], { discountCode: 'WELCOME10' });
    expect(bought.totalCents).toBe(26_320);
    const page = await browser.newPage();
    let form: { action: string; fields: Record<string, string> };
    try {
      await page.goto(bought.payUrl);
      expect(await page.locator('main').textContent()).toContain(bought.total);
      const checkout = page.locator('form', {
        has: page.getByRole('button', { name: 'Continue to PayFast' }),
      });
      const fields: Record<string, string> = {};
      for (const input of await checkout.locator('input[type=hidden]').all())
        fields[(await input.getAttribute('name'))!] = (await input.inputValue()) ?? '';
      form = { action: (await checkout.getAttribute('action'))!, fields };
    } finally {
      await page.close();
    }
    expect(form.action).toBe(`${payfast.url}/eng/process`);
    expect(form.fields).toMatchObject({
      merchant_id: MERCHANT_ID,
      item_name: `NogPets shop order ${bought.orderId}`,
      amount: payfastAmount(bought.totalCents),
      notify_url: `${server.url}/payments/payfast/notify`,
    });
    expect(form.fields.amount).toBe('263.20');
    expect(form.fields.m_payment_id).toMatch(/^pay_/);

    const paid = payfast.itn(form.fields);
    payfast.sent.add(paid.params);
    expect(await notifyAndCheck(server, paid.body)).toMatchObject({ state: 'DONE', outcome: 'APPLIED' });
    expect(await order(bought.orderId)).toMatchObject({
      status: 'CONFIRMED',
      paymentStatus: 'PAID',
      canPay: false,
    });
    const [payment] = await server.db.sql<{ status: string; order_id: string }[]>`
      select status, order_id from payments where id = ${form.fields.m_payment_id!}`;
    expect(payment).toEqual({ status: 'PAID', order_id: bought.orderId });

    // The same ITN again: noted as a duplicate, the order unchanged, no money owed back.
    const replay = await notifyAndCheck(server, paid.body);
    expect(replay).toMatchObject({ state: 'DONE', outcome: 'DUPLICATE' });
    expect(await order(bought.orderId)).toMatchObject({ status: 'CONFIRMED', paymentStatus: 'PAID' });
    const owed = await server.db.sql`
      select id from payment_notices where state = 'REFUND_DUE' and payment_id = ${form.fields.m_payment_id!}`;
    expect(owed).toHaveLength(0);
  });

  it('owes back an ITN for another amount and leaves the order waiting for its payment', async () => {
    const bought = await buyByCard([{ productId: 'lick-mat', qty: 1 }]);
    const checkout = await checkoutForm(bought.payUrl);
    expect(checkout.amount).toBe(payfastAmount(bought.totalCents));
    const cheap = payfast.itn(checkout, { amount_gross: '2.14' });
    payfast.sent.add(cheap.params);
    expect(await notifyAndCheck(server, cheap.body)).toMatchObject({
      state: 'REFUND_DUE',
      outcome: `AMOUNT_MISMATCH: 214 for ${bought.totalCents}`,
      amount_cents: 214,
    });
    expect(await order(bought.orderId)).toMatchObject({
      status: 'PENDING_PAYMENT',
      paymentStatus: 'PENDING',
      canPay: true,
    });
    // The right amount afterwards still pays it.
    const right = payfast.itn(checkout);
    payfast.sent.add(right.params);
    expect(await notifyAndCheck(server, right.body)).toMatchObject({ state: 'DONE', outcome: 'APPLIED' });
    expect(await order(bought.orderId)).toMatchObject({ status: 'CONFIRMED', paymentStatus: 'PAID' });
  });
});
