// When a business works: its resources' weeks, its time off, and the bookings a change
// of either left outside working time, flagged for the business to move (migration 0029).
import { newId } from './ids.js';
import type { Queryable } from './sql.js';
import type { ResourceRow } from './types.js';

type Week = ResourceRow['week'];

/** A live booking as the working-time checks need it. */
export interface LiveBookingRow {
  id: string;
  resourceId: string;
  start: Date;
  end: Date;
}

/**
 * A business's live (pending or accepted) bookings starting after `after`, of these resources
 * (null: every one), overlapping [from, to) when given; by start.
 */
export async function liveBookingsAhead(
  sql: Queryable,
  businessId: string,
  query: { after: Date; resourceIds: string[] | null; from?: Date; to?: Date },
): Promise<LiveBookingRow[]> {
  return sql<LiveBookingRow[]>`
    select id, resource_id as "resourceId", starts_at as "start", ends_at as "end"
    from bookings
    where business_id = ${businessId} and status in ('PENDING', 'ACCEPTED') and starts_at > ${query.after}
      ${query.resourceIds ? sql`and resource_id = any(${query.resourceIds}::text[])` : sql``}
      ${query.from && query.to ? sql`and starts_at < ${query.to} and ends_at > ${query.from}` : sql``}
    order by starts_at, id`;
}

/** Sets the week of these resources of the business (null: every one); the ids changed. */
export async function setResourceWeeks(
  sql: Queryable,
  businessId: string,
  resourceIds: string[] | null,
  week: Week,
): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    update resources set week = ${sql.json(week as never)}
    where business_id = ${businessId}
      ${resourceIds ? sql`and id = any(${resourceIds}::text[])` : sql``}
    returning id`;
  return rows.map((r) => r.id);
}

/** One time off of a business: of one resource, or business-wide (resourceId null). */
export interface TimeOffEntry {
  id: string;
  businessId: string;
  resourceId: string | null;
  start: Date;
  end: Date;
  reason: string;
}

const TIME_OFF_COLUMNS = `id, business_id as "businessId", resource_id as "resourceId", starts_at as "start",
  ends_at as "end", reason`;

export async function insertTimeOff(sql: Queryable, entry: Omit<TimeOffEntry, 'id'>): Promise<TimeOffEntry> {
  const [row] = await sql<TimeOffEntry[]>`
    insert into time_off (id, business_id, resource_id, starts_at, ends_at, reason)
    values (${newId('tof')}, ${entry.businessId}, ${entry.resourceId}, ${entry.start}, ${entry.end}, ${entry.reason})
    returning ${sql.unsafe(TIME_OFF_COLUMNS)}`;
  return row!;
}

/** One time off of this business (another business's is not found), locked when asked. */
export async function findTimeOff(
  sql: Queryable,
  businessId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<TimeOffEntry | null> {
  const rows = await sql<TimeOffEntry[]>`
    select ${sql.unsafe(TIME_OFF_COLUMNS)} from time_off where business_id = ${businessId} and id = ${id}
    ${options.forUpdate ? sql`for update` : sql``}`;
  return rows[0] ?? null;
}

/**
 * A business's time off ending after `from` and starting before `to` (either left out: open), of
 * one resource and the business-wide (resourceId given) or of all; by start, `limit` rows.
 */
export async function listTimeOffEntries(
  sql: Queryable,
  businessId: string,
  query: { from?: Date; to?: Date; resourceId?: string; limit: number },
): Promise<TimeOffEntry[]> {
  return sql<TimeOffEntry[]>`
    select ${sql.unsafe(TIME_OFF_COLUMNS)} from time_off
    where business_id = ${businessId}
      ${query.from ? sql`and ends_at > ${query.from}` : sql``}
      ${query.to ? sql`and starts_at < ${query.to}` : sql``}
      ${query.resourceId ? sql`and (resource_id is null or resource_id = ${query.resourceId})` : sql``}
    order by starts_at, id
    limit ${query.limit}`;
}

/**
 * Deletes a time off of the business; its move flags go with it. Whether there was one, and the
 * bookings that were flagged because of it.
 */
export async function deleteTimeOff(
  sql: Queryable,
  businessId: string,
  id: string,
): Promise<{ deleted: boolean; unflagged: string[] }> {
  const flagged = await sql<{ bookingId: string }[]>`
    select booking_id as "bookingId" from booking_move_flags
    where business_id = ${businessId} and cause = ${id} order by booking_id`;
  const rows = await sql`delete from time_off where business_id = ${businessId} and id = ${id} returning id`;
  return { deleted: rows.length > 0, unflagged: rows.length ? flagged.map((f) => f.bookingId) : [] };
}

/** Why a booking must be moved, for its start and resource as they are now. */
export interface MoveFlag {
  bookingId: string;
  /** 'hours', or the id of the time off. */
  cause: string;
  reason: string;
  resourceId: string;
  start: Date;
}

/** Flags bookings for the business to move (a flag of the same booking and cause is replaced). */
export async function flagBookingsToMove(
  sql: Queryable,
  businessId: string,
  flags: MoveFlag[],
  at: Date,
): Promise<void> {
  for (const f of flags) {
    await sql`
      insert into booking_move_flags (booking_id, cause, business_id, time_off_id, reason, resource_id, starts_at, flagged_at)
      values (${f.bookingId}, ${f.cause}, ${businessId}, ${f.cause === 'hours' ? null : f.cause}, ${f.reason},
              ${f.resourceId}, ${f.start}, ${at})
      on conflict (booking_id, cause) do update
        set reason = excluded.reason, resource_id = excluded.resource_id, starts_at = excluded.starts_at,
            flagged_at = excluded.flagged_at`;
  }
}

/** Drops the hours flags of these resources' bookings (their hours are being set again). */
export async function clearHoursFlags(
  sql: Queryable,
  businessId: string,
  resourceIds: string[],
): Promise<void> {
  await sql`
    delete from booking_move_flags
    where business_id = ${businessId} and cause = 'hours' and resource_id = any(${resourceIds}::text[])`;
}

/** The move flags of these bookings, oldest first. */
export async function findMoveFlags(sql: Queryable, bookingIds: string[]): Promise<MoveFlag[]> {
  if (!bookingIds.length) return [];
  return sql<MoveFlag[]>`
    select booking_id as "bookingId", cause, reason, resource_id as "resourceId", starts_at as "start"
    from booking_move_flags where booking_id = any(${bookingIds}::text[])
    order by flagged_at, cause`;
}
