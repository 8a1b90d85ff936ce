import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from './sql.js';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

// Any constant works; it only has to be the same for every instance of the service.
const MIGRATION_LOCK_KEY = 736_411_902;

export interface MigrationResult {
  applied: string[];
  skipped: string[];
}

/**
 * Applies `migrations/*.sql` in name order, each in its own transaction, under a session advisory
 * lock, so that instances starting together on one database serialise instead of racing.
 */
export async function migrate(sql: Sql, dir = MIGRATIONS_DIR): Promise<MigrationResult> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const reserved = await sql.reserve();
  try {
    await reserved`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await reserved`
      create table if not exists schema_migrations (
        name text primary key,
        checksum text not null,
        applied_at timestamptz not null default now()
      )`;
    const done = new Map(
      (
        await reserved<{ name: string; checksum: string }[]>`select name, checksum from schema_migrations`
      ).map((r) => [r.name, r.checksum]),
    );
    const result: MigrationResult = { applied: [], skipped: [] };
    for (const file of files) {
      const text = await readFile(path.join(dir, file), 'utf8');
      const checksum = createHash('sha256').update(text).digest('hex');
      const previous = done.get(file);
      if (previous) {
        if (previous !== checksum) {
          throw new Error(`Migration ${file} was changed after it was applied; add a new migration instead.`);
        }
        result.skipped.push(file);
        continue;
      }
      // A reserved connection has no begin(); the transaction is spelled out.
      await reserved`begin`;
      try {
        await reserved.unsafe(text);
        await reserved`insert into schema_migrations (name, checksum) values (${file}, ${checksum})`;
        await reserved`commit`;
      } catch (err) {
        await reserved`rollback`.catch(() => {});
        throw new Error(`Migration ${file} failed: ${(err as Error).message}`, { cause: err });
      }
      result.applied.push(file);
    }
    return result;
  } finally {
    await reserved`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.catch(() => {});
    reserved.release();
  }
}
