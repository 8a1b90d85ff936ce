import postgres from 'postgres';

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;
/** A pool or a transaction: store functions take either, so callers can group writes. */
export type Queryable = postgres.Sql | postgres.TransactionSql;

export interface SqlOptions {
  max?: number;
  applicationName?: string;
}

/** The one way the service opens a pool: postgres.js, quiet notices, UTC sessions. */
export function createSql(url: string, options: SqlOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
    connection: { application_name: options.applicationName ?? 'nogpets', TimeZone: 'UTC' },
    types: {
      // numeric comes back as a JS number: we keep money in integer cents and kg/km as small decimals.
      numeric: { to: 1700, from: [1700], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
    },
  });
}
