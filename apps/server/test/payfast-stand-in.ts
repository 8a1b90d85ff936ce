import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { TestServer } from './harness.js';

/**
 * PayFast's servers, the one part PayFast tests stand in for: a loopback server that takes the
 * checkout form at `/eng/process` (checking its signature), posts a signed ITN to our notify URL,
 * sends the browser back, and answers `/eng/query/validate` with VALID only for an ITN it really
 * sent. Its signing is written here from `shared/data/payfast.md`, not borrowed from our gateway,
 * so a mistake in ours shows.
 */

export const MERCHANT_ID = '10000100';
export const MERCHANT_KEY = '46f0cd694581a';
export const PASSPHRASE = 'jt7NOE43FZPn';

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

const CHECKOUT_ORDER = [
  'merchant_id',
  'merchant_key',
  'return_url',
  'cancel_url',
  'notify_url',
  'email_address',
  'm_payment_id',
  'amount',
  'item_name',
];

/** The server's settings for PayFast through the stand-in at `url` (its notifications come from loopback). */
export function payFastEnv(url: string): Record<string, string> {
  return {
    PAYMENT_GATEWAY: 'payfast',
    PAYFAST_MERCHANT_ID: MERCHANT_ID,
    PAYFAST_MERCHANT_KEY: MERCHANT_KEY,
    PAYFAST_PASSPHRASE: PASSPHRASE,
    PAYFAST_URL: url,
    PAYFAST_SOURCES: '127.0.0.1/32',
  };
}

export interface StandIn {
  url: string;
  /** Param strings of the ITNs it sent: only these validate. */
  sent: Set<string>;
  checkouts: Record<string, string>[];
  /** `reset`: the confirmation call's connection is dropped (PayFast unreachable). */
  validate: 'answer' | 'reset';
  /** The ITN it would send for a checkout, signed; `tweak` changes fields before signing. */
  itn(
    checkout: Record<string, string>,
    tweak?: Partial<Record<string, string>>,
  ): { body: string; params: string };
  close(): Promise<void>;
}

async function readForm(req: http.IncomingMessage): Promise<[string, string][]> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return [...new URLSearchParams(raw)];
}

/** PayFast's servers on loopback; `passphrase` null for an account without one. */
export async function startPayFastStandIn(passphrase: string | null = PASSPHRASE): Promise<StandIn> {
  const sent = new Set<string>();
  const checkouts: Record<string, string>[] = [];
  let n = 0;
  const sign = (params: string) =>
    md5(passphrase === null ? params : `${params}&passphrase=${urlencode(passphrase)}`);
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
    const params = paramString(Object.entries(fields));
    return { body: `${params}&signature=${sign(params)}`, params };
  };
  const standIn: StandIn = {
    url: '',
    sent,
    checkouts,
    validate: 'answer',
    itn,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer(async (req, res) => {
    const pairs = await readForm(req);
    if (req.url === '/eng/process') {
      const form = Object.fromEntries(pairs);
      const mine = CHECKOUT_ORDER.filter((k) => form[k]).map((k): [string, string] => [k, form[k]!.trim()]);
      if (
        form.signature !== sign(paramString(mine)) ||
        form.merchant_id !== MERCHANT_ID ||
        form.merchant_key !== MERCHANT_KEY
      ) {
        res
          .writeHead(400, { 'content-type': 'text/plain' })
          .end('Generated signature does not match submitted signature.');
        return;
      }
      checkouts.push(form);
      // The buyer paid: PayFast posts the ITN, then sends the browser to return_url.
      const note = itn(form);
      sent.add(note.params);
      const answer = await fetch(form.notify_url!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: note.body,
      });
      await answer.text();
      res.writeHead(302, { location: form.return_url! }).end();
      return;
    }
    if (req.url === '/eng/query/validate') {
      if (standIn.validate === 'reset') {
        req.socket.destroy();
        return;
      }
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(sent.has(paramString(pairs)) ? 'VALID' : 'INVALID');
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}

/** Posts a notification from a chosen loopback address (so the source check can be tried); the HTTP status. */
export function notifyFrom(
  url: string,
  body: string,
  localAddress = '127.0.0.1',
  headers: Record<string, string> = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        localAddress,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface Notice {
  id: string;
  state: string;
  outcome: string | null;
  gateway_ref: string | null;
  amount_cents: number | null;
  error: string | null;
}

/** Waits (polling the database) until the notification kept as `id` has been checked. */
export async function checked(server: TestServer, id: string): Promise<Notice> {
  for (let i = 0; i < 400; i++) {
    const [row] = await server.db.sql<
      Notice[]
    >`select id, state, outcome, gateway_ref, amount_cents, error from payment_notices where id = ${id}`;
    if (row && row.state !== 'RECEIVED') return row;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`notification ${id} was not checked within 10 s`);
}

/** Posts a notification as PayFast does: answered 200 at once; then waits for its check. */
export async function notifyAndCheck(
  server: TestServer,
  body: string,
  localAddress = '127.0.0.1',
  headers: Record<string, string> = {},
): Promise<Notice> {
  const before = new Set(
    (await server.db.sql<{ id: string }[]>`select id from payment_notices where body = ${body}`).map(
      (r) => r.id,
    ),
  );
  expect(await notifyFrom(`${server.url}/payments/payfast/notify`, body, localAddress, headers)).toBe(200);
  // Kept before the answer: it is there now.
  const kept = (
    await server.db.sql<{ id: string }[]>`select id from payment_notices where body = ${body}`
  ).filter((r) => !before.has(r.id));
  expect(kept).toHaveLength(1);
  return checked(server, kept[0]!.id);
}

const unescapeHtml = (s: string) =>
  s.replace(
    /&(amp|quot|#39|lt|gt|#96);/g,
    (_, e: string) => ({ amp: '&', quot: '"', '#39': "'", lt: '<', gt: '>', '#96': '`' })[e]!,
  );

/** The checkout form our pay page would post, read off the page's hidden fields. */
export async function checkoutForm(payUrl: string): Promise<Record<string, string>> {
  const html = await (await fetch(payUrl)).text();
  return Object.fromEntries(
    [...html.matchAll(/name="([a-z_]+)" value="([^"]*)"/g)].map((m) => [m[1]!, unescapeHtml(m[2]!)]),
  );
}
