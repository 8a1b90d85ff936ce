import type { Sql } from './sql.js';
import type { BusyRow, ResourceRow, TimeOffRow } from './types.js';

/** A business's schedule over [from, to): its active resources of one kind, their live bookings and time off. */
export interface ScheduleRows {
  resources: ResourceRow[];
  busy: BusyRow[];
  timeOff: TimeOffRow[];
}

interface ScheduleJson {
  resources: ResourceRow[];
  busy: (Omit<BusyRow, 'start' | 'end'> & { start: string; end: string })[];
  timeOff: (Omit<TimeOffRow, 'start' | 'end'> & { start: string; end: string })[];
}

/**
 * The schedule of [from, to) in one round trip: the business's active resources of `kind` (only
 * `resourceId` when given) in their order, their live (pending or accepted) bookings touching the
 * range other than `except`, and the time off touching it (the business's own and theirs). Bookings
 * are found through the no-double-booking constraint's range index, so the cost follows the range
 * asked for, not the resource's history.
 */
export async function readSchedule(
  sql: Sql,
  query: {
    businessId: string;
    kind: ResourceRow['kind'];
    resourceId?: string | undefined;
    from: Date;
    to: Date;
    except?: string[] | undefined;
  },
): Promise<ScheduleRows> {
  const { businessId, kind, from, to } = query;
  const [row] = await sql<ScheduleJson[]>`
    with r as (
      select id, kind, name, week, slot_step_min, travel_buffer_min, sort
      from resources
      where business_id = ${businessId} and active and kind = ${kind}
        ${query.resourceId === undefined ? sql`` : sql`and id = ${query.resourceId}`}
    )
    select
      (select coalesce(json_agg(json_build_object('id', id, 'kind', kind, 'name', name, 'week', week,
          'slotStepMin', slot_step_min, 'travelBufferMin', travel_buffer_min) order by sort, id), '[]')
        from r) as resources,
      (select coalesce(json_agg(json_build_object('resourceId', resource_id, 'start', starts_at, 'end', ends_at,
          'groupKey', group_key, 'size', group_size) order by starts_at), '[]')
        from bookings
        where business_id = ${businessId} and resource_id in (select id from r)
          and status in ('PENDING', 'ACCEPTED')
          and blocked && tstzrange(${from}, ${to})
          and not (id = any(${query.except ?? []}))) as busy,
      (select coalesce(json_agg(json_build_object('resourceId', resource_id, 'start', starts_at, 'end', ends_at)), '[]')
        from time_off
        where business_id = ${businessId} and (resource_id is null or resource_id in (select id from r))
          and starts_at < ${to} and ends_at > ${from}) as "timeOff"`;
  const json = row!;
  return {
    resources: json.resources,
    busy: json.busy.map((b) => ({ ...b, start: new Date(b.start), end: new Date(b.end) })),
    timeOff: json.timeOff.map((t) => ({ ...t, start: new Date(t.start), end: new Date(t.end) })),
  };
}
