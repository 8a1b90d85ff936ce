import { createHash, timingSafeEqual } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import {
  type Checkout,
  type CheckoutRequest,
  type NotificationOutcome,
  type PaymentGateway,
  type VerifiedNotification,
  amountToCents,
  centsToAmount,
  formPairs,
} from './gateway.js';
import { cutText } from '../core/index.js';

/** Whether PayFast pays a business in this country: South Africa only. */
export const payFastServes = (country: string | null) => country === 'ZA';

/**
 * PayFast's published ITN source ranges (`../shared/data/payfast.md`, third-party transcription:
 * verify before go-live): the fallback when its hosts cannot be resolved, and the default of
 * `PAYFAST_SOURCES`.
 */
export const PAYFAST_SOURCES = [
  '197.97.145.144/28',
  '41.74.179.192/27',
  '102.216.36.0/28',
  '102.216.36.128/28',
  '144.126.193.139/32',
];

/** The hosts PayFast's SDK resolves to check an ITN's source: whatever they resolve to now is PayFast. */
export const PAYFAST_HOSTS = [
  'www.payfast.co.za',
  'w1w.payfast.co.za',
  'w2w.payfast.co.za',
  'sandbox.payfast.co.za',
];

/** PayFast's public sandbox merchant (its own examples): never one to take real money with. */
export const PAYFAST_SANDBOX_MERCHANT = { id: '10000100', key: '46f0cd694581a' };

/** PayFast's limit on `item_name`, in characters. */
const ITEM_NAME_MAX = 100;

/**
 * Settings of the PayFast gateway that would lose money or leak it, as problems to refuse the
 * start with (empty when fine). Live is any host but PayFast's sandbox; a loopback host is a
 * stand-in (tests, local trials) and may be plain http.
 */
export function payfastSettingProblems(s: {
  baseUrl: string;
  merchantId?: string | undefined;
  merchantKey?: string | undefined;
  publicUrl?: string | undefined;
}): string[] {
  const problems: string[] = [];
  let url: URL;
  try {
    url = new URL(s.baseUrl);
  } catch {
    return [`PAYFAST_URL: not a URL (${s.baseUrl})`];
  }
  const loopback =
    url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  if (url.protocol !== 'https:' && !loopback)
    problems.push(
      `PAYFAST_URL: must be https (${url.origin}); plain http is allowed only for a stand-in on this machine`,
    );
  const live = url.hostname !== 'sandbox.payfast.co.za' && !loopback;
  if (live) {
    if (s.merchantId === PAYFAST_SANDBOX_MERCHANT.id || s.merchantKey === PAYFAST_SANDBOX_MERCHANT.key) {
      problems.push(
        `PAYFAST_MERCHANT_ID: PayFast's sandbox merchant cannot take live payments at ${url.host}; set your own merchant, or PAYFAST_URL=https://sandbox.payfast.co.za`,
      );
    }
    if (!s.publicUrl?.startsWith('https://')) {
      problems.push(
        `PUBLIC_URL: live PayFast payments need the service's public https address (PayFast posts its notifications there); it is ${s.publicUrl ?? 'unset'}`,
      );
    }
  }
  return problems;
}

/**
 * Text PayFast takes in a checkout field: letters, digits, punctuation and spaces, cut at `max`
 * characters (code points, so a character is never split in half). Emoji and other symbols,
 * control and invisible formatting characters are dropped: PayFast refuses fields with
 * characters it does not allow, and half an emoji cannot even be encoded.
 * @example payfastText('Rex 🐶 & "Bella"', 100) // 'Rex & "Bella"'
 */
export function payfastText(value: string, max: number): string {
  const kept = Array.from(value.normalize('NFC'))
    .map((ch) => (/^[\s\p{Z}]$/u.test(ch) ? ' ' : ch))
    .filter(
      (ch) =>
        /^[\p{L}\p{Mn}\p{Mc}\p{N}\p{P} $+<=>^`|~]$/u.test(ch) &&
        !/^[\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]$/u.test(ch),
    )
    .join('')
    .replace(/ {2,}/g, ' ')
    .trim();
  return cutText(kept, max).trim();
}

/** Looks a host name up: its addresses. */
export type LookupHost = (host: string) => Promise<string[]>;

const systemLookup: LookupHost = async (host) => (await dnsLookup(host, { all: true })).map((a) => a.address);

/**
 * The addresses PayFast's hosts resolve to, looked up at most once per `ttlMs` (and a failed
 * look-up again after `retryMs`), each host keeping the addresses it last had when a look-up
 * fails. Never throws: without DNS the configured ranges alone decide.
 */
function payfastHostAddresses(
  hosts: string[],
  lookup: LookupHost,
  ttlMs: number,
  retryMs: number,
  timeoutMs: number,
) {
  const known = new Map<string, string[]>();
  let freshUntil = 0;
  let pending: Promise<string[]> | null = null;
  const within = <T>(p: Promise<T>) =>
    Promise.race([
      p,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('DNS look-up timed out')), timeoutMs).unref(),
      ),
    ]);
  const all = () => [...known.values()].flat();
  return (): Promise<string[]> => {
    if (Date.now() < freshUntil) return Promise.resolve(all());
    pending ??= (async () => {
      const results = await Promise.allSettled(
        hosts.map((h) => within(Promise.resolve().then(() => lookup(h)))),
      );
      let failed = false;
      results.forEach((r, i) => {
        if (r.status === 'fulfilled' && r.value.length) known.set(hosts[i]!, r.value);
        else failed = true;
      });
      freshUntil = Date.now() + (failed ? retryMs : ttlMs);
      return all();
    })()
      .catch(() => all())
      .finally(() => {
        pending = null;
      });
    return pending;
  };
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

function parseRange(cidr: string): Range {
  return ipaddr.parseCIDR(cidr.includes('/') ? cidr : `${cidr}/${cidr.includes(':') ? 128 : 32}`);
}

/** The address as ipaddr sees it (IPv4-mapped IPv6 as IPv4), or null if it is not one. */
function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!ipaddr.isValid(ip)) return null;
  const addr = ipaddr.parse(ip);
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()
    ? (addr as ipaddr.IPv6).toIPv4Address()
    : addr;
}

const inRanges = (addr: ipaddr.IPv4 | ipaddr.IPv6, ranges: Range[]) =>
  ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));

/** The checkout fields in PayFast's documented order: the signature follows this order, not the object's. */
const FIELD_ORDER = [
  'merchant_id',
  'merchant_key',
  'return_url',
  'cancel_url',
  'notify_url',
  'notify_method',
  'name_first',
  'name_last',
  'email_address',
  'cell_number',
  'm_payment_id',
  'amount',
  'item_name',
  'item_description',
  'custom_int1',
  'custom_int2',
  'custom_int3',
  'custom_int4',
  'custom_int5',
  'custom_str1',
  'custom_str2',
  'custom_str3',
  'custom_str4',
  'custom_str5',
  'email_confirmation',
  'confirmation_address',
  'currency',
  'payment_method',
  'subscription_type',
  'billing_date',
  'recurring_amount',
  'frequency',
  'cycles',
  'subscription_notify_email',
  'subscription_notify_webhook',
  'subscription_notify_buyer',
];

/** PHP's urlencode, which PayFast's signatures use: spaces as `+`, upper-case hex, `~!'()*` encoded. */
export function phpUrlencode(value: string): string {
  return encodeURIComponent(value)
    .replace(/%20/g, '+')
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** The checkout signature: documented field order, empty values skipped (0 kept), passphrase last. */
export function checkoutSignature(
  fields: Record<string, string | number | undefined>,
  passphrase?: string,
): string {
  const parts = FIELD_ORDER.filter((k) => fields[k] !== undefined && String(fields[k]).trim() !== '').map(
    (k) => `${k}=${phpUrlencode(String(fields[k]).trim())}`,
  );
  if (passphrase) parts.push(`passphrase=${phpUrlencode(passphrase.trim())}`);
  return md5(parts.join('&'));
}

/** The ITN's parameter string: the fields as received, up to the signature, empty values included. */
export function itnParamString(pairs: [string, string][]): string {
  const out: string[] = [];
  for (const [k, v] of pairs) {
    if (k === 'signature') break;
    out.push(`${k}=${phpUrlencode(v)}`);
  }
  return out.join('&');
}

export interface PayFastOptions {
  merchantId: string;
  merchantKey: string;
  passphrase?: string;
  /** `https://www.payfast.co.za` (live) or `https://sandbox.payfast.co.za`. */
  baseUrl: string;
  /** Addresses notifications may come from (CIDR), besides what PayFast's hosts resolve to. */
  allowedSources: string[];
  /** Hosts whose addresses are PayFast's (default PAYFAST_HOSTS). */
  sourceHosts?: string[];
  /** DNS look-up of those hosts (default the system resolver); injectable for tests. */
  lookup?: LookupHost;
  /** How long resolved addresses are used before they are looked up again (default 5 minutes). */
  lookupTtlMs?: number;
  /** How long PayFast's `/eng/query/validate` may take to answer (default 10 s). */
  validateTimeoutMs?: number;
  fetch?: typeof fetch;
}

const OUTCOMES: NotificationOutcome[] = ['COMPLETE', 'FAILED', 'PENDING', 'CANCELLED'];

/**
 * PayFast's redirect integration with ITN (`../shared/data/payfast.md`): a signed checkout form,
 * and the four checks on every notification — signature, source address, our merchant and the
 * amount (the amount against the payment, by the caller), and PayFast's own confirmation that it
 * sent it (`/eng/query/validate` answers VALID).
 */
export function createPayFastGateway(options: PayFastOptions): PaymentGateway {
  const doFetch = options.fetch ?? fetch;
  const ranges = options.allowedSources.map(parseRange);
  const hostAddresses = payfastHostAddresses(
    options.sourceHosts ?? PAYFAST_HOSTS,
    options.lookup ?? systemLookup,
    options.lookupTtlMs ?? 5 * 60_000,
    60_000,
    5_000,
  );
  // The configured ranges first (no look-up needed); then whatever PayFast's hosts resolve to.
  const fromPayFast = async (ip: string) => {
    const addr = parseAddress(ip);
    if (!addr) return false;
    if (inRanges(addr, ranges)) return true;
    const resolved = (await hostAddresses()).map(parseAddress).filter((a) => a !== null);
    return resolved.some(
      (a) => a.kind() === addr.kind() && a.toNormalizedString() === addr.toNormalizedString(),
    );
  };
  return {
    name: 'payfast',
    test: options.baseUrl.includes('sandbox'),
    // PayFast wants a quick 200 and retries otherwise (its SDK answers before checking).
    answerFirst: true,
    checkout(request: CheckoutRequest): Checkout {
      const fields: Record<string, string> = {
        merchant_id: options.merchantId,
        merchant_key: options.merchantKey,
        return_url: request.returnUrl,
        cancel_url: request.cancelUrl,
        notify_url: request.notifyUrl,
        ...(request.email ? { email_address: request.email } : {}),
        m_payment_id: request.paymentId,
        amount: centsToAmount(request.amountCents),
        item_name: payfastText(request.itemName, ITEM_NAME_MAX) || 'NogPets',
      };
      const ordered = FIELD_ORDER.filter((k) => fields[k] !== undefined).map((k): [string, string] => [
        k,
        fields[k]!,
      ]);
      ordered.push(['signature', checkoutSignature(fields, options.passphrase)]);
      return { kind: 'form', action: `${options.baseUrl}/eng/process`, fields: ordered };
    },
    async verify(rawBody, from): Promise<VerifiedNotification> {
      const pairs = formPairs(rawBody);
      const data = Object.fromEntries(pairs);
      const ids = { paymentId: data.m_payment_id, gatewayRef: data.pf_payment_id };
      const params = itnParamString(pairs);
      const expected = Buffer.from(
        md5(options.passphrase ? `${params}&passphrase=${phpUrlencode(options.passphrase.trim())}` : params),
        'utf8',
      );
      // Compared as bytes: 32 characters of text may be more than 32 bytes (timingSafeEqual throws on unequal lengths).
      const given = Buffer.from(String(data.signature ?? ''), 'utf8');
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        return { ok: false, reason: 'bad signature', signed: false, ...ids };
      // Signed with our passphrase: what it claims is worth keeping if it is refused from here on.
      const outcome = data.payment_status as NotificationOutcome;
      // Without a passphrase this MD5 needs no secret, so a forgery can land on the operator's
      // list too; listing it is still better than losing a genuine ITN from an unlisted address.
      const signed = {
        signed: true,
        claimed: OUTCOMES.includes(outcome) ? outcome : undefined,
        amountCents: amountToCents(data.amount_gross),
        ...ids,
      };
      if (!(await fromPayFast(from.ip)))
        return { ok: false, reason: `not from PayFast (${from.ip})`, ...signed };
      if (data.merchant_id !== options.merchantId)
        return { ok: false, reason: `another merchant (${data.merchant_id ?? 'none'})`, ...signed };
      if (!data.m_payment_id || !data.pf_payment_id || !OUTCOMES.includes(outcome))
        return { ok: false, reason: 'incomplete', ...signed };
      let valid = false;
      try {
        const res = await doFetch(`${options.baseUrl}/eng/query/validate`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: params,
          signal: AbortSignal.timeout(options.validateTimeoutMs ?? 10_000),
        });
        valid = res.ok && (await res.text()).trim() === 'VALID';
      } catch (err) {
        const why = (err as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable';
        return { ok: false, reason: `PayFast could not confirm it (validate ${why})`, ...signed };
      }
      if (!valid) return { ok: false, reason: 'PayFast did not confirm it', ...signed };
      return {
        ok: true,
        paymentId: data.m_payment_id,
        gatewayRef: data.pf_payment_id,
        amountCents: amountToCents(data.amount_gross),
        outcome,
      };
    },
  };
}
