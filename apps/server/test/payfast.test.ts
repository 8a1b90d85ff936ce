import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiKey } from '@nogpets/operations';
import { type Browser, fixedClock, launchBrowser } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

/**
 * PayFast end to end over HTTP. PayFast's servers are the one part a test stands in for: a
 * loopback server that takes the checkout form at `/eng/process` (checking its signature), posts
 * a signed ITN to our notify URL, sends the browser back, and answers `/eng/query/validate` with
 * VALID only for an ITN it really sent. Its signing is written here from `shared/data/payfast.md`,
 * not borrowed from our gateway, so a mistake in ours shows.
 */

const MERCHANT_ID = '10000100';
const MERCHANT_KEY = '46f0cd694581a';
const PASSPHRASE = 'jt7NOE43FZPn';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
/** PHP urlencode: spaces as +, upper-case hex, only A-Z a-z 0-9 - _ . left alone. */
const urlencode = (v: string) =>
  Array.from(new TextEncoder().encode(v))
    .map((b) => {
      const c = String.fromCharCode(b);
      if (/[A-Za-z0-9\-_.]/.test(c)) return c;
      if (c === ' ') return '+';
      return `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
const paramString = (pairs: [string, string][]) => pairs.map(([k, v]) => `${k}=${urlencode(v)}`).join('&');
const signed = (pairs: [string, string][]) => `${paramString(pairs)}&signature=${md5(`${paramString(pairs)}&passphrase=${urlencode(PASSPHRASE)}`)}`;

const CHECKOUT_ORDER = ['merchant_id', 'merchant_key', 'return_url', 'cancel_url', 'notify_url', 'email_address', 'm_payment_id', 'amount', 'item_name'];

interface StandIn {
  url: string;
  /** Param strings of the ITNs it sent: only these validate. */
  sent: Set<string>;
  checkouts: Record<string, string>[];
  /** The ITN it would send for a checkout, signed; `tweak` changes fields before signing. */
  itn(checkout: Record<string, string>, tweak?: Partial<Record<string, string>>): { body: string; params: string };
  close(): Promise<void>;
}

async function readForm(req: http.IncomingMessage): Promise<[string, string][]> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return [...new URLSearchParams(raw)];
}

async function startPayFastStandIn(): Promise<StandIn> {
  const sent = new Set<string>();
  const checkouts: Record<string, string>[] = [];
  let n = 0;
  const itn = (c: Record<string, string>, tweak: Partial<Record<string, string>> = {}) => {
    const fields: Record<string, string> = {
      m_payment_id: c.m_payment_id!,
      pf_payment_id: String(1_089_250 + n++),
      payment_status: 'COMPLETE',
      item_name: c.item_name!,
      item_description: '',
      amount_gross: c.amount!,
      amount_fee: '-8.97',
      amount_net: (Number(c.amount) - 8.97).toFixed(2),
      custom_str1: '',
      name_first: 'Test',
      name_last: 'Buyer',
      email_address: 'sbtu01@payfast.co.za',
      merchant_id: MERCHANT_ID,
      ...tweak,
    } as Record<string, string>;
    const pairs = Object.entries(fields);
    return { body: signed(pairs), params: paramString(pairs) };
  };
  const server = http.createServer(async (req, res) => {
    const pairs = await readForm(req);
    if (req.url === '/eng/process') {
      const form = Object.fromEntries(pairs);
      const mine = CHECKOUT_ORDER.filter((k) => form[k]).map((k): [string, string] => [k, form[k]!.trim()]);
      const expected = md5(`${paramString(mine)}&passphrase=${urlencode(PASSPHRASE)}`);
      if (form.signature !== expected || form.merchant_id !== MERCHANT_ID || form.merchant_key !== MERCHANT_KEY) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('Generated signature does not match submitted signature.');
        return;
      }
      checkouts.push(form);
      // The buyer paid: PayFast posts the ITN, then sends the browser to return_url.
      const note = itn(form);
      sent.add(note.params);
      const answer = await fetch(form.notify_url!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: note.body });
      await answer.text();
      res.writeHead(302, { location: form.return_url! }).end();
      return;
    }
    if (req.url === '/eng/query/validate') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(sent.has(paramString(pairs)) ? 'VALID' : 'INVALID');
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    checkouts,
    itn,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Posts a notification from a chosen loopback address (so the source check can be tried). */
function notifyFrom(url: string, body: string, localAddress = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', localAddress, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('PayFast: checkout form, ITN checks and confirmation, end to end', () => {
  let payfast: StandIn;
  let server: TestServer;
  let browser: Browser;
  let key: string;
  let petId: string;
  let addressId: string;
  const clock = fixedClock('2026-11-23T04:00:00Z');
  const as = () => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    payfast = await startPayFastStandIn();
    server = await startTestServer({
      clock,
      database: { demoDataAt: clock.now() },
      env: {
        PAYMENT_GATEWAY: 'payfast',
        PAYFAST_MERCHANT_ID: MERCHANT_ID,
        PAYFAST_MERCHANT_KEY: MERCHANT_KEY,
        PAYFAST_PASSPHRASE: PASSPHRASE,
        PAYFAST_URL: payfast.url,
        PAYFAST_SOURCES: '127.0.0.1/32',
      },
    });
    browser = await launchBrowser();
    key = (await createApiKey(server.db.sql, { email: 'lindiwe@example.com', scopes: ['bookings:read', 'bookings:write', 'pets', 'addresses'] })).key;
    petId = (await server.post('/v1/pets', { name: 'Max', type: 'DOG', weightKg: 12, coat: 'SHORT' }, as())).body.id;
    addressId = (await server.post('/v1/addresses', { label: 'Home', line1: '8 Dorp Street', suburb: 'Die Boord' }, as())).body.id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await payfast?.close();
  });

  async function bookCard(date: string) {
    const body = { category: 'grooming', addressId, pets: [{ petId, serviceIds: ['groom-dog-bath'] }] };
    const found = await server.post('/v1/availability', { ...body, from: date, to: date }, as());
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    const slot = found.body.days[0].slots[0];
    const res = await server.post('/v1/bookings', { ...body, start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD' }, as());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { bookingId: string; payUrl: string; totalCents: number };
  }
  const state = async (id: string) => (await server.get(`/v1/bookings/${id}`, as())).body;
  const notifyUrl = () => `${server.url}/payments/payfast/notify`;

  it('pays on PayFast from payUrl in Chromium: a signed checkout form, then a verified ITN confirms the booking', async () => {
    const booked = await bookCard('2026-12-01');
    const page = await browser.newPage();
    await page.goto(booked.payUrl);
    await expect(page.locator('main').textContent()).resolves.toContain('R390');
    await page.getByRole('button', { name: 'Continue to PayFast' }).click();
    await page.waitForURL(/\/done$/);
    await expect(page.locator('#outcome').textContent()).resolves.toContain('confirmed');
    await page.close();
    const checkout = payfast.checkouts.at(-1)!;
    expect(checkout).toMatchObject({ amount: '390.00', notify_url: notifyUrl() });
    expect(await state(booked.bookingId)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
    const [row] = await server.db.sql`select status, gateway_ref from payments where id = ${checkout.m_payment_id!}`;
    expect(row).toMatchObject({ status: 'PAID', gateway_ref: expect.stringMatching(/^10892/) });
  });

  it('changes nothing for a forged, a tampered, an amount-mismatched, a foreign or a replayed ITN', async () => {
    const booked = await bookCard('2026-12-02');
    // The checkout form our pay page would post, read off the page's hidden fields.
    const html = await (await fetch(booked.payUrl)).text();
    const checkout = Object.fromEntries([...html.matchAll(/name="([a-z_]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')]));
    expect(checkout.m_payment_id).toMatch(/^pay_/);
    const unchanged = async () => expect(await state(booked.bookingId)).toMatchObject({ status: 'PENDING', paymentStatus: 'PENDING', canPay: true });

    // Forged: correctly signed (the passphrase leaked, say) but PayFast never sent it.
    const forged = payfast.itn(checkout);
    expect(await notifyFrom(notifyUrl(), forged.body)).toBe(400);
    await unchanged();
    // Tampered: a real one with the amount changed after signing.
    const real = payfast.itn(checkout);
    payfast.sent.add(real.params);
    expect(await notifyFrom(notifyUrl(), real.body.replace('amount_gross=390.00', 'amount_gross=39.00'))).toBe(400);
    await unchanged();
    // Amount mismatch: PayFast really reports less than the booking costs.
    const cheap = payfast.itn(checkout, { amount_gross: '39.00' });
    payfast.sent.add(cheap.params);
    expect(await notifyFrom(notifyUrl(), cheap.body)).toBe(400);
    await unchanged();
    // From an address outside PAYFAST_SOURCES.
    expect(await notifyFrom(notifyUrl(), real.body, '127.0.0.2')).toBe(400);
    await unchanged();

    // The real one applies once; its replay is acknowledged (so PayFast stops retrying) and changes nothing.
    expect(await notifyFrom(notifyUrl(), real.body)).toBe(200);
    expect(await state(booked.bookingId)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
    const cancel = await server.post(`/v1/bookings/${booked.bookingId}/cancel`, { confirm: true }, as());
    expect(cancel.body.refundRequested).toEqual([booked.bookingId]);
    expect(await notifyFrom(notifyUrl(), real.body)).toBe(200);
    expect(await state(booked.bookingId)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' });

    const outcomes = (await server.db.sql<{ outcome: string }[]>`select outcome from payment_notifications where payment_id = ${checkout.m_payment_id!} order by received_at, id`).map((r) => r.outcome);
    expect(outcomes.filter((o) => o === 'APPLIED')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'DUPLICATE')).toHaveLength(1);
    expect(outcomes.filter((o) => o.startsWith('REJECTED') || o.startsWith('AMOUNT_MISMATCH'))).toHaveLength(4);
  });

  it('tells the gateway apart: the sandbox notify endpoint is not served when PayFast is configured', async () => {
    const res = await fetch(`${server.url}/payments/sandbox/notify`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'payment_id=x' });
    expect(res.status).toBe(404);
  });
});
