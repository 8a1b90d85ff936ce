import postgres from 'postgres';

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;
/** A pool or a transaction: store functions take either, so callers can group writes. */
export type Queryable = postgres.Sql | postgres.TransactionSql;

/**
 * `work` in a transaction of its own (`begin` … `commit`; a throw rolls it back and passes on),
 * handed the transaction as the `Queryable` every store function takes, and answering what `work`
 * answered, typed as it is: postgres.js's own `begin` types its answer as `UnwrapPromiseArray<T>`,
 * which code generic in `T` could only use with a cast (and its `tx` is a `TransactionSql`, already
 * a `Queryable`: no cast is needed for that).
 */
export async function transaction<T>(sql: Sql, work: (q: Queryable) => Promise<T>): Promise<T> {
  let answer!: T;
  await sql.begin(async (tx) => {
    answer = await work(tx);
  });
  return answer;
}

/**
 * Runs `work` so that its failure leaves an enclosing transaction usable: inside a transaction, in
 * a savepoint (a refusal such as an exclusion violation then undoes only `work`, and the caller can
 * still record an answer); on a pool, as it is (one statement is atomic by itself, and costs no
 * BEGIN or COMMIT).
 */
export async function atomically<T>(sql: Queryable, work: (q: Queryable) => Promise<T>): Promise<T> {
  const tx = sql as Partial<Pick<TransactionSql, 'savepoint'>>;
  return typeof tx.savepoint === 'function' ? ((await tx.savepoint((q) => work(q))) as T) : work(sql);
}

export interface SqlOptions {
  max?: number;
  applicationName?: string;
  /** Seconds a new connection may take to open before its queries fail with CONNECT_TIMEOUT. */
  connectTimeoutSec?: number;
  /** Milliseconds one statement may run before PostgreSQL cancels it (57014); 0 for no limit. */
  statementTimeoutMs?: number;
}

/** How long a connection may take to open: PostgreSQL away answers within this, not never. */
export const CONNECT_TIMEOUT_SEC = 5;
/** The longest statement the service runs; a stuck one becomes an error the client may retry. */
export const STATEMENT_TIMEOUT_MS = 30_000;
/** How long a session may sit idle inside a transaction before PostgreSQL ends it. */
export const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;
/** The longest wait before a closed connection tries again: back within a second of PostgreSQL. */
const MAX_RECONNECT_DELAY_SEC = 1;

/**
 * The one way the service opens a pool: postgres.js, quiet notices, UTC sessions. Bounded so that
 * while PostgreSQL is away a query fails within seconds (refused, CONNECT_TIMEOUT, or cancelled by
 * statement_timeout) instead of hanging, and so that it reconnects within a second of its return
 * (postgres.js's own backoff grows to 20 s between attempts).
 */
export function createSql(url: string, options: SqlOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    idle_timeout: 30,
    connect_timeout: options.connectTimeoutSec ?? CONNECT_TIMEOUT_SEC,
    backoff: (retries) => Math.min(MAX_RECONNECT_DELAY_SEC, 0.05 * 2 ** retries),
    onnotice: () => {},
    connection: {
      application_name: options.applicationName ?? 'nogpets',
      TimeZone: 'UTC',
      statement_timeout: options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS,
      // A transaction left waiting (its process stalled, or waiting on something that never comes)
      // is ended by PostgreSQL, its locks and Idempotency-Keys freed, rather than held for good.
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    types: {
      // numeric comes back as a JS number: we keep money in integer cents and kg/km as small decimals.
      numeric: {
        to: 1700,
        from: [1700],
        serialize: (x: number) => String(x),
        parse: (x: string) => Number(x),
      },
    },
  });
}
