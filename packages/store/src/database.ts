import path from 'node:path';
import { type EmbeddedServer, runningEmbedded, startEmbeddedPostgres } from './embedded.js';
import { createSql, type Sql } from './sql.js';

export interface Database {
  sql: Sql;
  /** Connection string in use (embedded or external). */
  url: string;
  kind: 'embedded' | 'external';
  /** Closes the pool, then stops the embedded server if we started one. */
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** An external server; without it an embedded PostgreSQL is started under `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir?: string;
  embeddedPort?: number;
  poolMax?: number;
  applicationName?: string;
  log?: (line: string) => void;
  /** What starting the embedded server did that an operator should know. */
  notice?: (line: string) => void;
  /** Use the embedded cluster another process already runs on this data directory, if any. */
  attach?: boolean;
}

const EMBEDDED_DATABASE = 'nogpets';

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const sql = createSql(options.databaseUrl, {
      max: options.poolMax,
      applicationName: options.applicationName,
    });
    await sql`select 1`;
    return {
      sql,
      url: options.databaseUrl,
      kind: 'external',
      close: () => sql.end({ timeout: 5 }),
    };
  }
  if (options.attach) {
    const running = await runningEmbedded(path.join(options.dataDir ?? '.data', 'pg'));
    if (running) {
      const url = await ensureDatabase(running.url, EMBEDDED_DATABASE);
      const sql = createSql(url, { max: options.poolMax, applicationName: options.applicationName });
      // Not ours to stop: closing only closes the pool.
      return { sql, url, kind: 'embedded', close: () => sql.end({ timeout: 5 }) };
    }
  }
  const server: EmbeddedServer = await startEmbeddedPostgres({
    dataDir: path.join(options.dataDir ?? '.data', 'pg'),
    port: options.embeddedPort,
    log: options.log,
    notice: options.notice,
  });
  try {
    const url = await ensureDatabase(server.url, EMBEDDED_DATABASE);
    const sql = createSql(url, { max: options.poolMax, applicationName: options.applicationName });
    return {
      sql,
      url,
      kind: 'embedded',
      async close() {
        await sql.end({ timeout: 5 });
        await server.stop();
      },
    };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

/** Creates `name` on the server of `serverUrl` if it is missing; returns the URL of that database. */
export async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = createSql(serverUrl, { max: 1 });
  try {
    const found = await admin`select 1 from pg_database where datname = ${name}`;
    if (found.length === 0) {
      await admin
        .unsafe(`create database "${name.replaceAll('"', '""')}"`)
        .catch((err: { code?: string }) => {
          // 42P04: another instance created it between our check and our create.
          if (err.code !== '42P04') throw err;
        });
    }
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
