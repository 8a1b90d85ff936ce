import { createHash, timingSafeEqual } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { type Checkout, type CheckoutRequest, type NotificationOutcome, type PaymentGateway, type VerifiedNotification, amountToCents, centsToAmount, formPairs } from './gateway.js';

/** PayFast's published ITN source ranges (`../shared/data/payfast.md`, third-party transcription: verify before go-live). */
export const PAYFAST_SOURCES = ['197.97.145.144/28', '41.74.179.192/27', '102.216.36.0/28', '102.216.36.128/28', '144.126.193.139/32'];

/** The checkout fields in PayFast's documented order: the signature follows this order, not the object's. */
const FIELD_ORDER = [
  'merchant_id', 'merchant_key', 'return_url', 'cancel_url', 'notify_url', 'notify_method', 'name_first', 'name_last',
  'email_address', 'cell_number', 'm_payment_id', 'amount', 'item_name', 'item_description',
  'custom_int1', 'custom_int2', 'custom_int3', 'custom_int4', 'custom_int5',
  'custom_str1', 'custom_str2', 'custom_str3', 'custom_str4', 'custom_str5',
  'email_confirmation', 'confirmation_address', 'currency', 'payment_method', 'subscription_type', 'billing_date',
  'recurring_amount', 'frequency', 'cycles', 'subscription_notify_email', 'subscription_notify_webhook', 'subscription_notify_buyer',
];

/** PHP's urlencode, which PayFast's signatures use: spaces as `+`, upper-case hex, `~!'()*` encoded. */
export function phpUrlencode(value: string): string {
  return encodeURIComponent(value)
    .replace(/%20/g, '+')
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** The checkout signature: documented field order, empty values skipped (0 kept), passphrase last. */
export function checkoutSignature(fields: Record<string, string | number | undefined>, passphrase?: string): string {
  const parts = FIELD_ORDER.filter((k) => fields[k] !== undefined && String(fields[k]).trim() !== '').map((k) => `${k}=${phpUrlencode(String(fields[k]).trim())}`);
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
  /** Addresses notifications may come from (CIDR). */
  allowedSources: string[];
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
  const ranges = options.allowedSources.map((c) => ipaddr.parseCIDR(c.includes('/') ? c : `${c}/${c.includes(':') ? 128 : 32}`));
  const fromPayFast = (ip: string) => {
    if (!ipaddr.isValid(ip)) return false;
    let addr = ipaddr.parse(ip);
    if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
    return ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
  };
  return {
    name: 'payfast',
    test: options.baseUrl.includes('sandbox'),
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
        item_name: request.itemName.slice(0, 100),
      };
      const ordered = FIELD_ORDER.filter((k) => fields[k] !== undefined).map((k): [string, string] => [k, fields[k]!]);
      ordered.push(['signature', checkoutSignature(fields, options.passphrase)]);
      return { kind: 'form', action: `${options.baseUrl}/eng/process`, fields: ordered };
    },
    async verify(rawBody, from): Promise<VerifiedNotification> {
      const pairs = formPairs(rawBody);
      const data = Object.fromEntries(pairs);
      const ids = { paymentId: data.m_payment_id, gatewayRef: data.pf_payment_id };
      const params = itnParamString(pairs);
      const expected = md5(options.passphrase ? `${params}&passphrase=${phpUrlencode(options.passphrase.trim())}` : params);
      const given = String(data.signature ?? '');
      if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) return { ok: false, reason: 'bad signature', ...ids };
      if (!fromPayFast(from.ip)) return { ok: false, reason: `not from PayFast (${from.ip})`, ...ids };
      if (data.merchant_id !== options.merchantId) return { ok: false, reason: 'another merchant', ...ids };
      const outcome = data.payment_status as NotificationOutcome;
      if (!data.m_payment_id || !data.pf_payment_id || !OUTCOMES.includes(outcome)) return { ok: false, reason: 'incomplete', ...ids };
      let valid = false;
      try {
        const res = await doFetch(`${options.baseUrl}/eng/query/validate`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: params,
          signal: AbortSignal.timeout(10_000),
        });
        valid = res.ok && (await res.text()).trim() === 'VALID';
      } catch {
        return { ok: false, reason: 'PayFast could not confirm it (validate unreachable)', ...ids };
      }
      if (!valid) return { ok: false, reason: 'PayFast did not confirm it', ...ids };
      return { ok: true, paymentId: data.m_payment_id, gatewayRef: data.pf_payment_id, amountCents: amountToCents(data.amount_gross), outcome };
    },
  };
}
