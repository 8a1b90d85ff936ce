// Running a business: who may run which business (its members), and what its day and
// its bookings hold.
import type { Queryable } from './sql.js';
import type { BusinessRow, ResourceRow } from './types.js';

export type RunRole = 'owner' | 'manager' | 'crew';

export interface MembershipRow {
  business: BusinessRow;
  role: RunRole;
  jobTitle: string | null;
  resourceIds: string[];
}

/** The businesses a person is on the staff of, with their role: the oldest membership first. */
export async function listMemberships(sql: Queryable, userId: string): Promise<MembershipRow[]> {
  const rows = await sql<(BusinessRow & { role: RunRole; jobTitle: string | null; resourceIds: string[] })[]>`
    select b.id, b.name, b.country, b.currency, b.timezone, b.service_fee_cents as "serviceFeeCents",
      b.accepts_cash as "acceptsCash", b.is_operator as "isOperator",
      m.role, m.job_title as "jobTitle", m.resource_ids as "resourceIds"
    from business_members m join businesses b on b.id = m.business_id
    where m.user_id = ${userId}
    order by m.created_at, b.id`;
  return rows.map(({ role, jobTitle, resourceIds, ...business }) => ({
    business,
    role,
    jobTitle,
    resourceIds,
  }));
}

/** A business's resources (vans, walkers, sitters), in their order, with whether each is active. */
export async function listResources(
  sql: Queryable,
  businessId: string,
): Promise<(ResourceRow & { active: boolean })[]> {
  return sql<(ResourceRow & { active: boolean })[]>`
    select id, kind, name, week, slot_step_min as "slotStepMin", travel_buffer_min as "travelBufferMin", active
    from resources where business_id = ${businessId} order by sort, id`;
}

/** Time off overlapping [from, to): of the given resources or of the whole business. */
export async function listTimeOff(
  sql: Queryable,
  businessId: string,
  from: Date,
  to: Date,
): Promise<{ resourceId: string | null; start: Date; end: Date; reason: string }[]> {
  return sql<{ resourceId: string | null; start: Date; end: Date; reason: string }[]>`
    select resource_id as "resourceId", starts_at as "start", ends_at as "end", reason
    from time_off where business_id = ${businessId} and starts_at < ${to} and ends_at > ${from}
    order by starts_at`;
}

/** A booking as the business sees it: the booking, its client, and the address row it names. */
export interface JobRow {
  id: string;
  resourceId: string;
  lineId: string;
  status: 'PENDING' | 'ACCEPTED' | 'CANCELLED' | 'EXPIRED' | 'DONE';
  paymentMethod: 'CARD' | 'CASH';
  paymentStatus: 'PENDING' | 'PAID' | 'CASH_DUE' | 'REFUND_REQUESTED' | 'REFUNDED' | 'VOID';
  start: Date;
  end: Date;
  groupKey: string | null;
  totalCents: number;
  details: Record<string, unknown>;
  notes: string;
  holdUntil: Date | null;
  createdAt: Date;
  clientId: string | null;
  clientName: string | null;
  clientPhone: string | null;
  clientEmail: string | null;
  /** Who made it when no client is linked (an assistant's name, the operator's app). */
  madeBy: string | null;
  address: {
    line1: string;
    suburb: string | null;
    postalCode: string | null;
    city: string | null;
    notes: string | null;
  } | null;
  /** For an unpaid card booking: when its newest open pay link stops working. */
  openLinkUntil: Date | null;
}

const JOB_SELECT = `
  select b.id, b.resource_id as "resourceId", b.line_id as "lineId", b.status, b.payment_method as "paymentMethod",
    b.payment_status as "paymentStatus", b.starts_at as "start", b.ends_at as "end", b.group_key as "groupKey",
    b.total_cents as "totalCents", b.details, b.notes, b.hold_until as "holdUntil", b.created_at as "createdAt",
    c.id as "clientId", c.name as "clientName", c.phone as "clientPhone", c.email as "clientEmail",
    b.client_name as "madeBy",
    case when a.id is null then null else json_build_object('line1', a.line1, 'suburb', a.suburb,
      'postalCode', a.postal_code, 'city', a.city, 'notes', a.notes) end as address,
    (select max(p.expires_at) from payments p where p.booking_ids @> array[b.id] and p.status = 'OPEN') as "openLinkUntil"
  from bookings b
  left join business_clients c on c.business_id = b.business_id and c.id = b.business_client_id
  left join addresses a on a.id = b.address_id`;

/** A business's live and done bookings overlapping [from, to) (cancelled and lapsed ones left out), by start. */
export async function listDayJobs(
  sql: Queryable,
  businessId: string,
  from: Date,
  to: Date,
  resourceIds: string[] | null,
): Promise<JobRow[]> {
  return sql<JobRow[]>`
    ${sql.unsafe(JOB_SELECT)}
    where b.business_id = ${businessId} and b.starts_at < ${to} and b.ends_at > ${from}
      and b.status in ('PENDING', 'ACCEPTED', 'DONE')
      ${resourceIds ? sql`and b.resource_id = any(${resourceIds}::text[])` : sql``}
    order by b.resource_id, b.starts_at, b.id`;
}

export interface BusinessBookingFilter {
  from: Date;
  to: Date;
  status?: JobRow['status'] | undefined;
  resourceId?: string | undefined;
  clientId?: string | undefined;
  /** Keyset: bookings after this (start, id). */
  after?: { start: Date; id: string } | undefined;
  limit: number;
}

/** A business's bookings starting in [from, to), by (start, id), after the cursor; `limit` rows. */
export async function listBusinessBookings(
  sql: Queryable,
  businessId: string,
  f: BusinessBookingFilter,
): Promise<JobRow[]> {
  return sql<JobRow[]>`
    ${sql.unsafe(JOB_SELECT)}
    where b.business_id = ${businessId} and b.starts_at >= ${f.from} and b.starts_at < ${f.to}
      ${f.status ? sql`and b.status = ${f.status}` : sql``}
      ${f.resourceId ? sql`and b.resource_id = ${f.resourceId}` : sql``}
      ${f.clientId ? sql`and b.business_client_id = ${f.clientId}` : sql``}
      ${f.after ? sql`and (b.starts_at, b.id) > (${f.after.start}, ${f.after.id})` : sql``}
    order by b.starts_at, b.id
    limit ${f.limit}`;
}

export interface PetFactsRow {
  id: string;
  name: string;
  type: 'DOG' | 'CAT';
  breed: string | null;
  weightKg: number;
  coat: 'SHORT' | 'MEDIUM' | 'LONG';
  notes: string | null;
}

/** Saved pets by id (what a booking's pets name): type, weight, coat and notes for the crew. */
export async function findPetFacts(sql: Queryable, ids: string[]): Promise<PetFactsRow[]> {
  if (!ids.length) return [];
  return sql<PetFactsRow[]>`
    select id, name, type, breed, weight_kg::float8 as "weightKg", coat, notes from pets where id = any(${ids}::text[])`;
}

/** Names of a business's services by id. */
export async function serviceNames(sql: Queryable, businessId: string): Promise<Map<string, string>> {
  const rows = await sql<{ id: string; name: string }[]>`
    select id, name from services where business_id = ${businessId}`;
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** These bookings of one business as jobs (another business's ids find nothing), by (start, id). */
export async function findJobs(sql: Queryable, businessId: string, ids: string[]): Promise<JobRow[]> {
  if (!ids.length) return [];
  return sql<JobRow[]>`
    ${sql.unsafe(JOB_SELECT)}
    where b.business_id = ${businessId} and b.id = any(${ids}::text[])
    order by b.starts_at, b.id`;
}
