// Confirmations asked of a person on our page, and the MCP sessions that say a client can show one
// (migration 0048).
import { newId } from './ids.js';
import type { Queryable } from './sql.js';

export type ConfirmationStatus = 'pending' | 'confirmed' | 'refused';

export interface ConfirmationRow {
  id: string;
  userId: string;
  operation: string;
  argsHash: string;
  summary: string;
  parts: unknown;
  clientName: string | null;
  status: ConfirmationStatus;
  createdAt: Date;
  expiresAt: Date;
  answeredAt: Date | null;
  usedAt: Date | null;
}

const COLUMNS = (sql: Queryable) => sql`
  id, user_id as "userId", operation, args_hash as "argsHash", summary, parts, client_name as "clientName",
  status, created_at as "createdAt", expires_at as "expiresAt", answered_at as "answeredAt", used_at as "usedAt"`;

/**
 * Asks the person: a pending confirmation of one call, in a statement of its own. An earlier
 * question of the same call still open on the page ends (expires) with it, so only the newest can be
 * answered: the one the call will look for.
 */
export async function insertConfirmation(
  sql: Queryable,
  c: {
    userId: string;
    operation: string;
    argsHash: string;
    summary: string;
    parts: unknown;
    clientName: string | null;
    at: Date;
    expiresAt: Date;
  },
): Promise<ConfirmationRow> {
  await sql`
    update confirmations set expires_at = ${c.at}
    where user_id = ${c.userId} and operation = ${c.operation} and args_hash = ${c.argsHash}
      and used_at is null and status = 'pending' and expires_at > ${c.at}`;
  const [row] = await sql<ConfirmationRow[]>`
    insert into confirmations (id, user_id, operation, args_hash, summary, parts, client_name, created_at, expires_at)
    values (${newId('cfm')}, ${c.userId}, ${c.operation}, ${c.argsHash}, ${c.summary},
      ${sql.json(c.parts as never)}, ${c.clientName}, ${c.at}, ${c.expiresAt})
    returning ${COLUMNS(sql)}`;
  return row!;
}

/**
 * The newest unused confirmation of a person's call (operation and arguments), if any; with
 * `forUpdate`, locked for the rest of the transaction (a second retry waits, then finds it used).
 */
export async function findOpenConfirmation(
  sql: Queryable,
  call: { userId: string; operation: string; argsHash: string },
  options: { forUpdate?: boolean } = {},
): Promise<ConfirmationRow | null> {
  const [row] = options.forUpdate
    ? await sql<ConfirmationRow[]>`
        select ${COLUMNS(sql)} from confirmations
        where user_id = ${call.userId} and operation = ${call.operation} and args_hash = ${call.argsHash}
          and used_at is null
        order by seq desc limit 1 for update`
    : await sql<ConfirmationRow[]>`
        select ${COLUMNS(sql)} from confirmations
        where user_id = ${call.userId} and operation = ${call.operation} and args_hash = ${call.argsHash}
          and used_at is null
        order by seq desc limit 1`;
  return row ?? null;
}

export async function findConfirmation(
  sql: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ConfirmationRow | null> {
  const [row] = options.forUpdate
    ? await sql<ConfirmationRow[]>`select ${COLUMNS(sql)} from confirmations where id = ${id} for update`
    : await sql<ConfirmationRow[]>`select ${COLUMNS(sql)} from confirmations where id = ${id}`;
  return row ?? null;
}

/** The person's answer; only a pending confirmation takes one (false otherwise). */
export async function answerConfirmation(
  sql: Queryable,
  id: string,
  status: 'confirmed' | 'refused',
  at: Date,
): Promise<boolean> {
  const rows = await sql`
    update confirmations set status = ${status}, answered_at = ${at}
    where id = ${id} and status = 'pending'`;
  return rows.count === 1;
}

/**
 * Used by the call it agreed to (or its refusal told): never again. Every other unused
 * confirmation of the same call is used with it, so a second retry waiting on this one's lock
 * cannot take an older one the person also confirmed. False when it already was used.
 */
export async function useConfirmation(sql: Queryable, id: string, at: Date): Promise<boolean> {
  const rows = await sql`
    update confirmations c set used_at = ${at}
    from confirmations this
    where this.id = ${id} and c.user_id = this.user_id and c.operation = this.operation
      and c.args_hash = this.args_hash and c.used_at is null
    returning c.id`;
  return rows.some((r) => r.id === id);
}

/**
 * Whether the person was asked on the page about this very call and the question is still kept (a
 * day past its expiry): such a call is agreed on the page only, whatever door it comes through.
 */
export async function askedOnPage(
  sql: Queryable,
  call: { userId: string; operation: string; argsHash: string },
): Promise<boolean> {
  const rows = await sql`
    select 1 from confirmations
    where user_id = ${call.userId} and operation = ${call.operation} and args_hash = ${call.argsHash}
    limit 1`;
  return rows.length > 0;
}

/** Forgets confirmations expired a day ago (a few at a time, as new ones are asked). */
export async function purgeExpiredConfirmations(sql: Queryable, now: Date): Promise<void> {
  const before = new Date(now.getTime() - 24 * 3600_000);
  await sql`
    delete from confirmations where id in (
      select id from confirmations where expires_at < ${before} order by expires_at limit 20)`;
}

export interface McpSessionRow {
  endpoint: string;
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientName: string | null;
  expiresAt: Date;
}

/** Keeps what a client declared at `initialize`, under its session id's hash; forgets a few expired ones. */
export async function insertMcpSession(
  sql: Queryable,
  s: McpSessionRow & { idHash: string; at: Date },
): Promise<void> {
  await sql`
    insert into mcp_sessions (id_hash, endpoint, protocol_version, capabilities, client_name, created_at, expires_at)
    values (${s.idHash}, ${s.endpoint}, ${s.protocolVersion}, ${sql.json(s.capabilities as never)},
      ${s.clientName}, ${s.at}, ${s.expiresAt})`;
  await sql`
    delete from mcp_sessions where id_hash in (
      select id_hash from mcp_sessions where expires_at < ${s.at} order by expires_at limit 20)`;
}

/** The session of an id hash, expired or not (the caller decides), or null. */
export async function findMcpSession(sql: Queryable, idHash: string): Promise<McpSessionRow | null> {
  const [row] = await sql<McpSessionRow[]>`
    select endpoint, protocol_version as "protocolVersion", capabilities, client_name as "clientName",
      expires_at as "expiresAt"
    from mcp_sessions where id_hash = ${idHash}`;
  return row ?? null;
}

export async function renewMcpSession(sql: Queryable, idHash: string, expiresAt: Date): Promise<void> {
  await sql`update mcp_sessions set expires_at = ${expiresAt} where id_hash = ${idHash}`;
}

/** Ends a session (DELETE with its id); false when there was none. */
export async function deleteMcpSession(sql: Queryable, idHash: string): Promise<boolean> {
  const rows = await sql`delete from mcp_sessions where id_hash = ${idHash}`;
  return rows.count === 1;
}
