// The gateway port (what a gateway does) is declared in core/ports.ts, which the context's deps name;
// here are the helpers the gateways (payfast.ts, sandbox.ts) share.
export type {
  Checkout,
  CheckoutRequest,
  NotificationOutcome,
  PaymentGateway,
  VerifiedNotification,
} from '../core/index.js';

/** Decodes an application/x-www-form-urlencoded body keeping the order of its fields. */
export function formPairs(rawBody: string): [string, string][] {
  if (!rawBody) return [];
  return rawBody.split('&').map((part) => {
    const i = part.indexOf('=');
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return s;
      }
    };
    return i < 0 ? [decode(part), ''] : [decode(part.slice(0, i)), decode(part.slice(i + 1))];
  });
}

/** Rand amount with two decimals from cents: 45000 → "450.00". */
export function centsToAmount(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** Cents from a decimal amount string, or NaN. */
export function amountToCents(amount: string | undefined): number {
  if (!amount || !/^\d+(\.\d{1,2})?$/.test(amount.trim())) return Number.NaN;
  return Math.round(Number(amount) * 100);
}
