import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  type Checkout,
  type NotificationOutcome,
  type PaymentGateway,
  type VerifiedNotification,
  amountToCents,
  centsToAmount,
  formPairs,
} from './gateway.js';

/**
 * The built-in sandbox gateway, the default: the pay page is ours and marked TEST; paying there
 * posts a notification signed with a secret only the service knows (HMAC-SHA256), which the
 * notification endpoint checks like any gateway's.
 */
export function createSandboxGateway(secret: () => Promise<string>): PaymentGateway & {
  sign(fields: {
    paymentId: string;
    gatewayRef: string;
    amountCents: number;
    outcome: NotificationOutcome;
  }): Promise<string>;
} {
  const mac = async (body: string) =>
    createHmac('sha256', await secret())
      .update(body)
      .digest('hex');
  return {
    name: 'sandbox',
    test: true,
    // Its TEST page posts the notification and then shows the outcome: it waits for the check.
    answerFirst: false,
    checkout(): Checkout {
      return { kind: 'sandbox' };
    },
    async sign(fields) {
      const body = new URLSearchParams({
        payment_id: fields.paymentId,
        gateway_ref: fields.gatewayRef,
        amount: centsToAmount(fields.amountCents),
        outcome: fields.outcome,
      }).toString();
      return `${body}&signature=${await mac(body)}`;
    },
    async verify(rawBody): Promise<VerifiedNotification> {
      const at = rawBody.lastIndexOf('&signature=');
      if (at < 0) return { ok: false, reason: 'unsigned', signed: false };
      const body = rawBody.slice(0, at);
      const given = Buffer.from(rawBody.slice(at + '&signature='.length), 'utf8');
      const expected = Buffer.from(await mac(body), 'utf8');
      const fields = Object.fromEntries(formPairs(body));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return {
          ok: false,
          reason: 'bad signature',
          paymentId: fields.payment_id,
          gatewayRef: fields.gateway_ref,
          signed: false,
        };
      }
      const outcome = fields.outcome as NotificationOutcome;
      if (
        !fields.payment_id ||
        !fields.gateway_ref ||
        !['COMPLETE', 'FAILED', 'PENDING', 'CANCELLED'].includes(outcome)
      ) {
        return {
          ok: false,
          reason: 'incomplete',
          paymentId: fields.payment_id,
          gatewayRef: fields.gateway_ref,
          signed: true,
          claimed: outcome,
        };
      }
      return {
        ok: true,
        paymentId: fields.payment_id,
        gatewayRef: fields.gateway_ref,
        amountCents: amountToCents(fields.amount),
        outcome,
      };
    },
  };
}
