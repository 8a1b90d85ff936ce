import { randomBytes } from 'node:crypto';
import { ensureDatabase } from '../database.js';
import { loadDemoData } from '../demo-data.js';
import { migrate } from '../migrate.js';
import { createSql, type Sql } from '../sql.js';
import { inject } from 'vitest';
import './provided.js';

export type ServerKind = 'embedded' | 'external';

export interface TestDatabase {
  sql: Sql;
  url: string;
  kind: ServerKind;
  drop(): Promise<void>;
}

/** The servers this run can reach: the machine's (DATABASE_URL) and/or the embedded one. */
export function availableServers(): ServerKind[] {
  const kinds: ServerKind[] = [];
  if (process.env.DATABASE_URL) kinds.push('external');
  if (inject('embeddedServerUrl')) kinds.push('embedded');
  return kinds;
}

/** The server tests use by default: DATABASE_URL when set, as in production; embedded otherwise. */
export function defaultServer(): ServerKind {
  return process.env.DATABASE_URL ? 'external' : 'embedded';
}

function serverUrl(kind: ServerKind): string {
  const url = kind === 'external' ? process.env.DATABASE_URL : inject('embeddedServerUrl');
  if (!url) throw new Error(`No ${kind} PostgreSQL in this test run`);
  return url;
}

export interface TestDatabaseOptions {
  kind?: ServerKind;
  migrate?: boolean;
  demoData?: boolean;
  /** The day demo bookings are laid out from (they are relative to it). */
  demoDataAt?: Date;
}

/** A fresh, uniquely named database on a real server; `drop()` removes it. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const kind = options.kind ?? defaultServer();
  const name = `nogpets_test_${randomBytes(6).toString('hex')}`;
  const url = await ensureDatabase(serverUrl(kind), name);
  const sql = createSql(url, { max: 20, applicationName: 'nogpets-test' });
  if (options.migrate ?? true) await migrate(sql);
  if (options.demoData ?? options.migrate ?? true) await loadDemoData(sql, options.demoDataAt);
  return {
    sql,
    url,
    kind,
    async drop() {
      await sql.end({ timeout: 5 });
      const admin = createSql(serverUrl(kind), { max: 1 });
      try {
        await admin.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await admin.end({ timeout: 5 });
      }
    },
  };
}
