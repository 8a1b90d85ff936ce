import type { Sql } from './sql.js';
import type { BusyRow, ResourceRow, TimeOffRow } from './types.js';

/** Active resources of a business of one kind (VAN, WALKER, SITTER). */
export async function listResources(
  sql: Sql,
  businessId: string,
  kind?: ResourceRow['kind'],
): Promise<ResourceRow[]> {
  return sql<ResourceRow[]>`
    select id, kind, name, week, slot_step_min as "slotStepMin", travel_buffer_min as "travelBufferMin"
    from resources
    where business_id = ${businessId} and active ${kind ? sql`and kind = ${kind}` : sql``}
    order by sort, id`;
}

/** Live bookings (pending or accepted) of some resources that touch [from, to). */
export async function listBusy(
  sql: Sql,
  businessId: string,
  resourceIds: string[],
  from: Date,
  to: Date,
  exceptBookingIds: string[] = [],
): Promise<BusyRow[]> {
  if (resourceIds.length === 0) return [];
  return sql<BusyRow[]>`
    select resource_id as "resourceId", starts_at as "start", ends_at as "end", group_key as "groupKey", group_size as "size"
    from bookings
    where business_id = ${businessId} and resource_id = any(${resourceIds}) and status in ('PENDING', 'ACCEPTED')
      and starts_at < ${to} and ends_at > ${from} and not (id = any(${exceptBookingIds}))
    order by starts_at`;
}

/** Time off of the business and of some resources that touches [from, to). */
export async function listTimeOff(
  sql: Sql,
  businessId: string,
  resourceIds: string[],
  from: Date,
  to: Date,
): Promise<TimeOffRow[]> {
  return sql<TimeOffRow[]>`
    select resource_id as "resourceId", starts_at as "start", ends_at as "end"
    from time_off
    where business_id = ${businessId} and (resource_id is null or resource_id = any(${resourceIds}))
      and starts_at < ${to} and ends_at > ${from}`;
}
