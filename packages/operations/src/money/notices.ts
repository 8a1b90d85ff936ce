import {
  appendAudit,
  closePaymentNotice,
  failPaymentNotice,
  findPaymentNotice,
  insertPaymentNotice,
  listPaymentNotices,
  noticesToRecheck,
  type PaymentNoticeRow,
  reopenPaymentNotice,
  transaction,
} from '@nogpets/store';
import { type Deps, ServiceError } from '../core/index.js';
import { type Settlement, settleNotification } from './settle.js';

/** A notification kept but not checked for this long is the operator's to look at (the process stopped mid-check). */
export const UNCHECKED_AFTER_MS = 2 * 60_000;

/** The operator's moves need only the database and the clock. */
type OperatorDeps = Pick<Deps, 'sql' | 'clock'>;

/**
 * Keeps a gateway's notification as it came, before it is answered: whatever happens after
 * (PayFast is answered 200 at once), the money it reports is on record.
 */
export function receiveNotification(
  deps: Pick<Deps, 'sql' | 'clock' | 'payments'>,
  rawBody: string,
  from: { ip: string },
): Promise<PaymentNoticeRow> {
  // PostgreSQL text cannot hold NUL; no genuine notification has one (gateways URL-encode), so it is kept visibly replaced.
  const body = rawBody.replaceAll('\0', '\uFFFD');
  return insertPaymentNotice(
    deps.sql,
    { gateway: deps.payments.gateway.name, sourceIp: from.ip, body },
    deps.clock.now(),
  );
}

/**
 * Checks and applies a kept notification (`settleNotification`), writing the decision on it. If
 * the check fails, the error is written on the notice (listed by `paymentProblems`) and rethrown.
 */
export async function checkNotification(
  deps: Deps,
  notice: Pick<PaymentNoticeRow, 'id' | 'body' | 'sourceIp'>,
): Promise<Settlement> {
  try {
    return await settleNotification(deps, notice.body, { ip: notice.sourceIp }, notice.id);
  } catch (err) {
    await failPaymentNotice(
      deps.sql,
      notice.id,
      String((err as Error)?.message ?? err),
      deps.clock.now(),
    ).catch(() => {});
    throw new Error(`checking payment notice ${notice.id} failed`, { cause: err });
  }
}

/** How often, and for how long, a notice the gateway could not be asked about is checked again. */
export const RECHECK_PROBLEM_EVERY_MS = 5 * 60_000;
export const RECHECK_PROBLEM_FOR_MS = 24 * 3600_000;
/** The outcome of a check that could not reach the gateway (payfast.ts): worth another try. */
export const GATEWAY_UNREACHED = 'REJECTED: PayFast could not confirm it';

/**
 * The worker's pass over notices whose check did not finish: kept but never checked (the process
 * stopped after answering 200), a check that failed (the database blinked), or one PayFast's
 * confirmation call could not be made for (every 5 minutes for a day). Each runs the same check as
 * the first time, so money that arrived is applied before the booking's hold lapses.
 */
export async function recheckNotices(deps: Deps): Promise<{ rechecked: number; failed: number }> {
  const now = deps.clock.now().getTime();
  const rows = await noticesToRecheck(deps.sql, {
    uncheckedBefore: new Date(now - UNCHECKED_AFTER_MS / 2),
    transientOutcome: GATEWAY_UNREACHED,
    problemSince: new Date(now - RECHECK_PROBLEM_FOR_MS),
    problemCheckedBefore: new Date(now - RECHECK_PROBLEM_EVERY_MS),
    limit: 100,
  });
  let rechecked = 0;
  let failed = 0;
  for (const row of rows) {
    if (row.state === 'PROBLEM' && !(await reopenPaymentNotice(deps.sql, row.id))) continue;
    try {
      await checkNotification(deps, row);
      rechecked += 1;
    } catch {
      // Written on the notice by checkNotification; it stays on the operator's list and comes round again.
      failed += 1;
    }
  }
  return { rechecked, failed };
}

/**
 * Notifications the operator must look up at the gateway, oldest first: signed ones claiming a
 * payment that were refused before the gateway confirmed them (source, merchant, confirmation),
 * and ones whose check failed or never finished.
 */
export function paymentProblems(deps: OperatorDeps): Promise<PaymentNoticeRow[]> {
  return listPaymentNotices(deps.sql, ['PROBLEM'], {
    staleBefore: new Date(deps.clock.now().getTime() - UNCHECKED_AFTER_MS),
  });
}

/** Money the gateway confirmed that no booking takes (charged twice on one link, unknown payment, other amount): owed back. */
export function chargesToRefund(deps: OperatorDeps): Promise<PaymentNoticeRow[]> {
  return listPaymentNotices(deps.sql, ['REFUND_DUE']);
}

async function closeNotice(
  deps: OperatorDeps,
  id: string,
  from: PaymentNoticeRow['state'][],
  to: 'REFUNDED' | 'RESOLVED',
  by: string,
  note?: string,
): Promise<PaymentNoticeRow> {
  const now = deps.clock.now();
  return transaction(deps.sql, async (q) => {
    const notice = await findPaymentNotice(q, id, { forUpdate: true });
    if (!notice) throw new ServiceError('NOT_FOUND', `No payment notification ${id}.`, { id });
    const closed = await closePaymentNotice(q, id, from, to, note ?? null, now);
    if (!closed) {
      const what = to === 'REFUNDED' ? 'no refund is waiting on it' : 'it is not an open problem';
      throw new ServiceError(
        'NOT_ACTIVE',
        `Payment notification ${id} is ${notice.state.toLowerCase()}: ${what}.`,
        { id, state: notice.state },
      );
    }
    await appendAudit(
      q,
      {
        userId: null,
        clientId: null,
        clientName: by,
        action: `payment_notice.${to.toLowerCase()}`,
        target: id,
        details: {
          ...(note ? { note } : {}),
          from: notice.state,
          gatewayRef: notice.gatewayRef,
          amountCents: notice.amountCents,
        },
      },
      now,
    );
    return closed;
  });
}

/** The operator returned the money of a notification at the gateway: REFUND_DUE becomes REFUNDED. */
export function markNoticeRefunded(
  deps: OperatorDeps,
  id: string,
  by: string,
  note?: string,
): Promise<PaymentNoticeRow> {
  return closeNotice(deps, id, ['REFUND_DUE'], 'REFUNDED', by, note);
}

/** The operator dealt with a problem notification (looked it up at the gateway, refunded or found nothing): RESOLVED. */
export function resolvePaymentProblem(
  deps: OperatorDeps,
  id: string,
  by: string,
  note?: string,
): Promise<PaymentNoticeRow> {
  return closeNotice(deps, id, ['PROBLEM', 'RECEIVED'], 'RESOLVED', by, note);
}
