// Audit: the append-only log of every change.
import type { Queryable as Sql } from './sql.js';

export interface AuditEntry {
  userId: string | null;
  clientId: string | null;
  clientName: string | null;
  action: string;
  target: string | null;
  details?: Record<string, unknown>;
}

/** Every change lands here: who, through which client, what, when. The table refuses edits. */
export async function appendAudit(sql: Sql, entry: AuditEntry, at: Date): Promise<void> {
  await sql`${auditInsert(sql, entry, at)}`;
}

/** The insert of one audit record: a statement alone, or a step of a larger one. */
export function auditInsert(sql: Sql, entry: AuditEntry, at: Date) {
  return sql`
    insert into audit_log (at, user_id, client_id, client_name, action, target, details)
    values (${at}, ${entry.userId}, ${entry.clientId}, ${entry.clientName}, ${entry.action}, ${entry.target}, ${sql.json((entry.details ?? {}) as never)})`;
}
