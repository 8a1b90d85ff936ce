import {
  appendAudit,
  closePaymentNotice,
  failPaymentNotice,
  findPaymentNotice,
  insertPaymentNotice,
  listPaymentNotices,
  type PaymentNoticeRow,
  type Queryable,
} from '@nogpets/store';
import type { Deps } from '../context.js';
import { ServiceError } from '../errors.js';
import { type Settlement, settleNotification } from './settle.js';

/** A notification kept but not checked for this long is the operator's to look at (the process stopped mid-check). */
export const UNCHECKED_AFTER_MS = 2 * 60_000;

/** The operator's moves need only the database and the clock. */
type OperatorDeps = Pick<Deps, 'sql' | 'clock'>;

/**
 * Keeps a gateway's notification as it came, before it is answered: whatever happens after
 * (PayFast is answered 200 at once), the money it reports is on record.
 */
export function receiveNotification(deps: Pick<Deps, 'sql' | 'clock' | 'payments'>, rawBody: string, from: { ip: string }): Promise<PaymentNoticeRow> {
  // PostgreSQL text cannot hold NUL; no genuine notification has one (gateways URL-encode), so it is kept visibly replaced.
  const body = rawBody.replaceAll('\0', '\uFFFD');
  return insertPaymentNotice(deps.sql, { gateway: deps.payments.gateway.name, sourceIp: from.ip, body }, deps.clock.now());
}

/**
 * Checks and applies a kept notification (`settleNotification`), writing the decision on it. If
 * the check fails, the error is written on the notice (listed by `paymentProblems`) and rethrown.
 */
export async function checkNotification(deps: Deps, notice: Pick<PaymentNoticeRow, 'id' | 'body' | 'sourceIp'>): Promise<Settlement> {
  try {
    return await settleNotification(deps, notice.body, { ip: notice.sourceIp }, notice.id);
  } catch (err) {
    await failPaymentNotice(deps.sql, notice.id, String((err as Error)?.message ?? err), deps.clock.now()).catch(() => {});
    throw new Error(`checking payment notice ${notice.id} failed`, { cause: err });
  }
}

/**
 * Notifications the operator must look up at the gateway, oldest first: signed ones claiming a
 * payment that were refused before the gateway confirmed them (source, merchant, confirmation),
 * and ones whose check failed or never finished.
 */
export function paymentProblems(deps: OperatorDeps): Promise<PaymentNoticeRow[]> {
  return listPaymentNotices(deps.sql, ['PROBLEM'], { staleBefore: new Date(deps.clock.now().getTime() - UNCHECKED_AFTER_MS) });
}

/** Money the gateway confirmed that no booking takes (charged twice on one link, unknown payment, other amount): owed back. */
export function chargesToRefund(deps: OperatorDeps): Promise<PaymentNoticeRow[]> {
  return listPaymentNotices(deps.sql, ['REFUND_DUE']);
}

async function closeNotice(deps: OperatorDeps, id: string, from: PaymentNoticeRow['state'][], to: 'REFUNDED' | 'RESOLVED', by: string, note?: string): Promise<PaymentNoticeRow> {
  const now = deps.clock.now();
  return deps.sql.begin(async (tx) => {
    const q = tx as unknown as Queryable;
    const notice = await findPaymentNotice(q, id, { forUpdate: true });
    if (!notice) throw new ServiceError('NOT_FOUND', `No payment notification ${id}.`, { id });
    const closed = await closePaymentNotice(q, id, from, to, note ?? null, now);
    if (!closed) {
      const what = to === 'REFUNDED' ? 'no refund is waiting on it' : 'it is not an open problem';
      throw new ServiceError('NOT_ACTIVE', `Payment notification ${id} is ${notice.state.toLowerCase()}: ${what}.`, { id, state: notice.state });
    }
    await appendAudit(q, { userId: null, clientId: null, clientName: by, action: `payment_notice.${to.toLowerCase()}`, target: id, details: { ...(note ? { note } : {}), from: notice.state, gatewayRef: notice.gatewayRef, amountCents: notice.amountCents } }, now);
    return closed;
  });
}

/** The operator returned the money of a notification at the gateway: REFUND_DUE becomes REFUNDED. */
export function markNoticeRefunded(deps: OperatorDeps, id: string, by: string, note?: string): Promise<PaymentNoticeRow> {
  return closeNotice(deps, id, ['REFUND_DUE'], 'REFUNDED', by, note);
}

/** The operator dealt with a problem notification (looked it up at the gateway, refunded or found nothing): RESOLVED. */
export function resolvePaymentProblem(deps: OperatorDeps, id: string, by: string, note?: string): Promise<PaymentNoticeRow> {
  return closeNotice(deps, id, ['PROBLEM', 'RECEIVED'], 'RESOLVED', by, note);
}
