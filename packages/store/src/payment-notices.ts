import { newId } from './ids.js';
import type { Queryable } from './sql.js';

/** A gateway's notification as received, and what became of it (migration 0010). */
export interface PaymentNoticeRow {
  id: string;
  gateway: string;
  sourceIp: string;
  body: string;
  receivedAt: Date;
  state: 'RECEIVED' | 'DONE' | 'PROBLEM' | 'REFUND_DUE' | 'REFUNDED' | 'RESOLVED';
  outcome: string | null;
  paymentId: string | null;
  gatewayRef: string | null;
  amountCents: number | null;
  error: string | null;
  checkedAt: Date | null;
  note: string | null;
  closedAt: Date | null;
}

const NOTICE_COLUMNS = `id, gateway, source_ip as "sourceIp", body, received_at as "receivedAt", state, outcome, payment_id as "paymentId",
  gateway_ref as "gatewayRef", amount_cents as "amountCents", error, checked_at as "checkedAt", note, closed_at as "closedAt"`;

/** Keeps a notification as it came, before anything is answered or checked. */
export async function insertPaymentNotice(
  sql: Queryable,
  n: { gateway: string; sourceIp: string; body: string },
  now: Date,
): Promise<PaymentNoticeRow> {
  const [row] = await sql<PaymentNoticeRow[]>`
    insert into payment_notices (id, gateway, source_ip, body, received_at) values (${newId('ntc')}, ${n.gateway}, ${n.sourceIp}, ${n.body}, ${now})
    returning ${sql.unsafe(NOTICE_COLUMNS)}`;
  return row!;
}

export async function findPaymentNotice(
  sql: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<PaymentNoticeRow | null> {
  const [row] = await sql<
    PaymentNoticeRow[]
  >`select ${sql.unsafe(NOTICE_COLUMNS)} from payment_notices where id = ${id} ${options.forUpdate ? sql`for update` : sql``}`;
  return row ?? null;
}

/** True when this gateway reference is already a refund owed (or made). */
export async function refundNoticeExists(
  sql: Queryable,
  gateway: string,
  gatewayRef: string,
): Promise<boolean> {
  const rows =
    await sql`select 1 from payment_notices where gateway = ${gateway} and gateway_ref = ${gatewayRef} and state in ('REFUND_DUE', 'REFUNDED') limit 1`;
  return rows.length > 0;
}

/** Writes what the check decided; only a notice still RECEIVED changes. */
export async function finishPaymentNotice(
  sql: Queryable,
  id: string,
  f: {
    state: 'DONE' | 'PROBLEM' | 'REFUND_DUE';
    outcome: string;
    paymentId: string | null;
    gatewayRef: string | null;
    amountCents: number | null;
  },
  now: Date,
): Promise<void> {
  await sql`update payment_notices set state = ${f.state}, outcome = ${f.outcome}, payment_id = ${f.paymentId}, gateway_ref = ${f.gatewayRef},
    amount_cents = ${f.amountCents}, error = null, checked_at = ${now} where id = ${id} and state = 'RECEIVED'`;
}

/** The check failed (database, bug): the notice stays RECEIVED with the error, for the operator's list. */
export async function failPaymentNotice(sql: Queryable, id: string, error: string, now: Date): Promise<void> {
  await sql`update payment_notices set error = ${error.slice(0, 2000)}, checked_at = ${now} where id = ${id} and state = 'RECEIVED'`;
}

/**
 * Notices the operator must look at, oldest first: in `states`, plus those still RECEIVED that
 * failed their check or were received before `staleBefore` (the process stopped mid-check).
 */
export async function listPaymentNotices(
  sql: Queryable,
  states: PaymentNoticeRow['state'][],
  options: { staleBefore?: Date; limit?: number } = {},
): Promise<PaymentNoticeRow[]> {
  const stale = options.staleBefore
    ? sql`or (state = 'RECEIVED' and (error is not null or received_at < ${options.staleBefore}))`
    : sql``;
  return sql<PaymentNoticeRow[]>`select ${sql.unsafe(NOTICE_COLUMNS)} from payment_notices
    where state = any(${states}) ${stale} order by received_at, id limit ${options.limit ?? 500}`;
}

/** Closes a notice the operator dealt with: from one of `from` to `to`, with a note. Null if it was not in `from`. */
export async function closePaymentNotice(
  sql: Queryable,
  id: string,
  from: PaymentNoticeRow['state'][],
  to: 'REFUNDED' | 'RESOLVED',
  note: string | null,
  now: Date,
): Promise<PaymentNoticeRow | null> {
  const [row] = await sql<
    PaymentNoticeRow[]
  >`update payment_notices set state = ${to}, note = ${note}, closed_at = ${now}
    where id = ${id} and state = any(${from}) returning ${sql.unsafe(NOTICE_COLUMNS)}`;
  return row ?? null;
}

/**
 * Serialises the checks of notifications with one gateway reference (two copies of one ITN at
 * once), so money owed back is listed once even when no payment row exists to lock.
 */
export async function lockGatewayRef(sql: Queryable, gateway: string, gatewayRef: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`notice/${gateway}/${gatewayRef}`}, 0))`;
}

/**
 * Notices whose check should run again: still RECEIVED after `uncheckedBefore` (the process
 * stopped after answering, or the check failed), and PROBLEMs whose outcome starts with
 * `transientOutcome` (the gateway could not be asked) received since `problemSince` and last
 * checked before `problemCheckedBefore`. Oldest first.
 */
export async function noticesToRecheck(
  sql: Queryable,
  o: {
    uncheckedBefore: Date;
    transientOutcome: string;
    problemSince: Date;
    problemCheckedBefore: Date;
    limit: number;
  },
): Promise<PaymentNoticeRow[]> {
  return sql<PaymentNoticeRow[]>`select ${sql.unsafe(NOTICE_COLUMNS)} from payment_notices
    where (state = 'RECEIVED' and received_at < ${o.uncheckedBefore} and (checked_at is null or checked_at < ${o.uncheckedBefore}))
       or (state = 'PROBLEM' and starts_with(outcome, ${o.transientOutcome}) and received_at > ${o.problemSince} and checked_at < ${o.problemCheckedBefore})
    order by received_at, id limit ${o.limit}`;
}

/** A PROBLEM to be checked again: back to RECEIVED. False if it was not a PROBLEM any more. */
export async function reopenPaymentNotice(sql: Queryable, id: string): Promise<boolean> {
  const rows =
    await sql`update payment_notices set state = 'RECEIVED' where id = ${id} and state = 'PROBLEM' returning id`;
  return rows.length === 1;
}

/**
 * Notices with nothing left to do (DONE: applied, a replay, not money, not the gateway's) received
 * before `before` are removed; problems and money owed back stay until the operator closes them.
 */
export async function purgeDonePaymentNotices(sql: Queryable, before: Date): Promise<number> {
  const rows =
    await sql`delete from payment_notices where state = 'DONE' and received_at < ${before} returning 1`;
  return rows.length;
}
