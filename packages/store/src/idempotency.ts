// Idempotency: the Idempotency-Key locks and the answers kept for (user, key).
import type { Queryable, Sql } from './sql.js';

/**
 * Holds (user, key) for the rest of the transaction; false when another transaction holds it (the
 * first request with the key is still running). The lock ends with the transaction, so a request
 * whose process died frees its key as soon as PostgreSQL sees the connection close.
 */
export async function lockIdempotencyKey(tx: Queryable, userId: string, key: string): Promise<boolean> {
  const [row] = await tx<{ locked: boolean }[]>`
    select pg_try_advisory_xact_lock(${IDEMPOTENCY_LOCK_CLASS}, hashtext(${userId} || ':' || ${key})) as locked`;
  return row?.locked === true;
}

/** The advisory-lock class of Idempotency-Keys (two-key locks never meet the one-key locks of resources). */
const IDEMPOTENCY_LOCK_CLASS = 7_041_101;

export interface IdempotentAnswer {
  operation: string;
  requestHash: string;
  status: number;
  response: unknown;
}

/** The answer kept for (user, key), if its request finished. */
export async function findIdempotentAnswer(
  tx: Queryable,
  userId: string,
  key: string,
): Promise<IdempotentAnswer | null> {
  const [row] = await tx<
    { operation: string; requestHash: string; status: number | null; response: unknown }[]
  >`
    select operation, request_hash as "requestHash", status, response from idempotency_keys where user_id = ${userId} and key = ${key}`;
  if (!row) return null;
  if (row.status === null) {
    // A claim left by the release before answers were kept with their change: nothing answered it.
    await tx`delete from idempotency_keys where user_id = ${userId} and key = ${key} and status is null`;
    return null;
  }
  return {
    operation: row.operation,
    requestHash: row.requestHash,
    status: row.status,
    response: row.response,
  };
}

/** Keeps the answer to (user, key); in the transaction of the change it answers. */
export async function saveIdempotentAnswer(
  tx: Queryable,
  a: {
    userId: string;
    key: string;
    operation: string;
    requestHash: string;
    status: number;
    response: unknown;
    at: Date;
  },
): Promise<void> {
  await tx`insert into idempotency_keys (user_id, key, operation, request_hash, status, response, created_at)
    values (${a.userId}, ${a.key}, ${a.operation}, ${a.requestHash}, ${a.status}, ${tx.json(a.response as never)}, ${a.at})`;
}

export async function purgeIdempotencyKeys(sql: Sql, before: Date): Promise<number> {
  const rows = await sql`delete from idempotency_keys where created_at < ${before} returning 1`;
  return rows.length;
}
