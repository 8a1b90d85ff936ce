/**
 * A payment gateway: it makes the checkout the person is sent to, and verifies the notifications
 * it sends back. Money never passes through the service; card data never reaches it.
 */
export interface CheckoutRequest {
  /** Our payment id: the reference the gateway echoes back (PayFast `m_payment_id`). */
  paymentId: string;
  amountCents: number;
  currency: string;
  itemName: string;
  email?: string;
  returnUrl: string;
  cancelUrl: string;
  notifyUrl: string;
}

/** Either our own TEST page (sandbox) or a form the browser posts to the gateway. */
export type Checkout = { kind: 'sandbox' } | { kind: 'form'; action: string; fields: [string, string][] };

export type NotificationOutcome = 'COMPLETE' | 'FAILED' | 'PENDING' | 'CANCELLED';

export type VerifiedNotification =
  | { ok: true; paymentId: string; gatewayRef: string; amountCents: number; outcome: NotificationOutcome }
  | {
      ok: false;
      reason: string;
      paymentId?: string | undefined;
      gatewayRef?: string | undefined;
      /** The signature was ours (so the fields are what the gateway, or someone with our secret, wrote). */
      signed: boolean;
      /** What a signed notification says happened (a refused COMPLETE may be money that arrived). */
      claimed?: NotificationOutcome | undefined;
      amountCents?: number | undefined;
    };

export interface PaymentGateway {
  name: 'sandbox' | 'payfast';
  /** True when no real money moves (the pay page says TEST). */
  test: boolean;
  /**
   * Answer the notification at once and check it after (PayFast: it wants a quick 200 and retries
   * otherwise); false when the caller waits for the outcome (the sandbox's own pay page shows it).
   */
  answerFirst: boolean;
  checkout(request: CheckoutRequest): Checkout;
  /** Checks a notification as received (raw body, the caller's address): authentic, untampered, from the gateway. */
  verify(rawBody: string, from: { ip: string }): Promise<VerifiedNotification>;
}

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
