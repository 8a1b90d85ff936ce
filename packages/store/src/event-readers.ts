// Readers of the domain events (migration 0040): mails and webhooks are made from events by the
// worker, each reader with its own bookmark, so every event reaches every reader once.
import type { DomainEventRow } from './events.js';
import type { Queryable } from './sql.js';

/** Where a reader stands: after this transaction id (xid8, as text) and sequence number. */
export interface EventReaderPosition {
  tx: string;
  seq: number;
}

/**
 * Makes a reader that starts with the events written from now on (history is not replayed to a new
 * reader: a new channel must not mail last year's bookings). Nothing happens if it exists.
 */
export async function registerEventReader(sql: Queryable, name: string): Promise<void> {
  // Every transaction that wrote an event so far has an id below the horizon or is still running;
  // starting after the newest id given out reads exactly the ones to come.
  await sql`insert into event_readers (name, after_tx, after_seq)
    values (${name}, pg_current_xact_id(), 9223372036854775807) on conflict (name) do nothing`;
}

/**
 * The next events for reader `name`, oldest first, only from transactions that have ended (so none
 * can appear later before them), with the reader's bookmark locked until the transaction ends: call
 * it in a transaction, handle the events there, and `advanceEventReader` to `next` before commit.
 * Two workers at once take turns on the bookmark, so no event is handled twice. Throws for a reader
 * that was never registered.
 */
export async function takeEvents(
  sql: Queryable,
  name: string,
  limit: number,
): Promise<{ events: DomainEventRow[]; next: EventReaderPosition | null }> {
  const [reader] = await sql<{ afterTx: string; afterSeq: string }[]>`
    select after_tx::text as "afterTx", after_seq::text as "afterSeq" from event_readers
    where name = ${name} for update`;
  if (!reader) throw new Error(`no event reader named ${name}`);
  // Ordered by the columns themselves (`e.tx`): a bare `tx` in ORDER BY would name the output
  // column `tx::text as tx`, and as text "999" sorts after "1000", so a batch whose ids cross a
  // power of ten would move the bookmark past events it never read.
  const rows = await sql<(DomainEventRow & { tx: string })[]>`
    select e.seq::int as seq, e.id, e.type, e.version, e.occurred_at as "occurredAt", e.business_id as "businessId",
      e.person_id as "personId", e.subject_kind as "subjectKind", e.subject_id as "subjectId", e.actor, e.data,
      e.operation, e.request_id as "requestId", e.call_id as "callId", e.tx::text as tx
    from domain_events e
    where e.tx < pg_snapshot_xmin(pg_current_snapshot())
      and (e.tx, e.seq) > (${reader.afterTx}::xid8, ${reader.afterSeq}::bigint)
    order by e.tx, e.seq limit ${limit}`;
  const last = rows.at(-1);
  return {
    events: rows.map(({ tx: _tx, ...event }) => event),
    next: last ? { tx: last.tx, seq: last.seq } : null,
  };
}

/** Moves a reader's bookmark past what it handled (in the transaction `takeEvents` ran in). */
export async function advanceEventReader(
  sql: Queryable,
  name: string,
  position: EventReaderPosition,
  now: Date,
): Promise<void> {
  await sql`update event_readers set after_tx = ${position.tx}::xid8, after_seq = ${position.seq}, read_at = ${now}
    where name = ${name}`;
}

/** How far behind each reader is: events written and final that it has not read (console, metrics). */
export async function eventReaderLag(
  sql: Queryable,
): Promise<{ name: string; behind: number; readAt: Date | null }[]> {
  return sql<{ name: string; behind: number; readAt: Date | null }[]>`
    select r.name, r.read_at as "readAt", (select count(*)::int from domain_events e
      where (e.tx, e.seq) > (r.after_tx, r.after_seq)) as behind
    from event_readers r order by r.name`;
}
