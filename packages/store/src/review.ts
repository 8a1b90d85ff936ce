// The operator's review: operator accounts, applications as the operator sees them, the decision,
// and the rows an approved application becomes (a business with its catalogue, people and listing).
import type { ApplicationRow, ApplicationStatus } from './applications.js';
import { listingSearchText, type NewListing } from './directory.js';
import { newId } from './ids.js';
import type { Queryable as Sql } from './sql.js';
import type { AreaKind, TierRow } from './types.js';

// ---------------------------------------------------------------------------------------------
// Operator accounts

/** Makes the account an operator (console access); false when it already was. */
export async function grantOperator(sql: Sql, userId: string, by: string, now: Date): Promise<boolean> {
  const rows = await sql`
    insert into operators (user_id, granted_at, granted_by) values (${userId}, ${now}, ${by})
    on conflict (user_id) do nothing returning user_id`;
  return rows.length > 0;
}

/** Takes the console away from an account; false when it was not an operator. */
export async function revokeOperator(sql: Sql, userId: string): Promise<boolean> {
  const rows = await sql`delete from operators where user_id = ${userId} returning user_id`;
  return rows.length > 0;
}

export async function isOperatorAccount(sql: Sql, userId: string): Promise<boolean> {
  const [row] = await sql<{ ok: boolean }[]>`
    select exists (select 1 from operators where user_id = ${userId}) as ok`;
  return row!.ok;
}

// ---------------------------------------------------------------------------------------------
// Applications as the operator sees them

export interface ReviewedApplicationRow extends ApplicationRow {
  /** The applicant's email. */
  email: string;
  businessId: string | null;
  reviewedAt: Date | null;
  reviewedBy: string | null;
}

const REVIEW_COLUMNS = `a.id, a.user_id as "userId", a.status, a.name, a.details, a.country, a.currency, a.timezone,
  a.services, a.area, a.resources, a.business_hours as "businessHours", a.staff_invites as "staffInvites", a.gateway,
  a.claim_listing_id as "claimListingId", a.review_note as "reviewNote", a.submitted_at as "submittedAt",
  a.created_at as "createdAt",
  a.updated_at as "updatedAt", u.email, a.business_id as "businessId", a.reviewed_at as "reviewedAt",
  a.reviewed_by as "reviewedBy"`;

/**
 * Applications for the operator: SUBMITTED first (the longest waiting first), then the others,
 * the most recently changed first. `statuses` narrows the list.
 */
export async function listApplicationsForReview(
  sql: Sql,
  options: { limit?: number; statuses?: ApplicationStatus[] } = {},
): Promise<ReviewedApplicationRow[]> {
  const statuses = options.statuses ?? ['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED'];
  return sql<ReviewedApplicationRow[]>`
    select ${sql.unsafe(REVIEW_COLUMNS)}
    from business_applications a join users u on u.id = a.user_id
    where a.status = any(${statuses}::text[])
    order by (a.status = 'SUBMITTED') desc,
      case when a.status = 'SUBMITTED' then coalesce(a.submitted_at, a.updated_at) end asc,
      a.updated_at desc, a.id
    limit ${options.limit ?? 200}`;
}

/** Any application by id (the operator reads them all); `forUpdate` locks its row. */
export async function findApplicationForReview(
  sql: Sql,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ReviewedApplicationRow | null> {
  const [row] = await sql<ReviewedApplicationRow[]>`
    select ${sql.unsafe(REVIEW_COLUMNS)}
    from business_applications a join users u on u.id = a.user_id
    where a.id = ${id} ${options.forUpdate ? sql`for update of a` : sql``}`;
  return row ?? null;
}

/** The application proposing the area with this id (area ids are unique), or null. */
export async function findApplicationByArea(
  sql: Sql,
  areaId: string,
  options: { forUpdate?: boolean } = {},
): Promise<ReviewedApplicationRow | null> {
  const [row] = await sql<ReviewedApplicationRow[]>`
    select ${sql.unsafe(REVIEW_COLUMNS)}
    from business_applications a join users u on u.id = a.user_id
    where a.area @> ${sql.json([{ id: areaId }] as never)}
    order by a.created_at desc limit 1
    ${options.forUpdate ? sql`for update of a` : sql``}`;
  return row ?? null;
}

/** Rewrites an application's proposed areas (the operator's decision on one of them). */
export async function setApplicationAreas(sql: Sql, id: string, area: unknown[], now: Date): Promise<void> {
  await sql`update business_applications set area = ${sql.json(area as never)}, updated_at = ${now} where id = ${id}`;
}

/** The decision: APPROVED (with the business it became) or REJECTED (with the note), and who made it. */
export async function recordReview(
  sql: Sql,
  id: string,
  review: {
    status: 'APPROVED' | 'REJECTED';
    reviewNote: string | null;
    businessId: string | null;
    by: string;
  },
  now: Date,
): Promise<void> {
  await sql`
    update business_applications set status = ${review.status}, review_note = ${review.reviewNote},
      business_id = ${review.businessId}, reviewed_at = ${now}, reviewed_by = ${review.by}, updated_at = ${now}
    where id = ${id}`;
}

/** A business's service area's status (an area approved after the business was made). */
export async function setServiceAreaStatus(
  sql: Sql,
  businessId: string,
  areaId: string,
  status: 'PENDING' | 'APPROVED' | 'REJECTED',
): Promise<boolean> {
  const rows = await sql`
    update service_areas set status = ${status} where business_id = ${businessId} and id = ${areaId} returning id`;
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// What an approved application becomes

export interface NewBusiness {
  business: {
    id: string;
    name: string;
    country: string;
    currency: string;
    timezone: string;
    /** The card fee added to a booking paid by card, in minor units. */
    serviceFeeCents: number;
  };
  lines: {
    id: 'grooming' | 'walking' | 'sitting';
    label: string;
    blurb: string;
    durationMode: 'SUM' | 'MAX';
    repeats: boolean;
  }[];
  services: {
    id: string;
    lineId: string;
    name: string;
    kind: 'PRIMARY' | 'EXTRA';
    blurb: string;
    petTypes: string[];
    priceCents: number;
    durationMin: number;
    groupSize: number;
    tiers: TierRow[];
  }[];
  resources: {
    id: string;
    kind: 'VAN' | 'WALKER' | 'SITTER';
    name: string;
    week: Record<string, unknown>;
    slotStepMin: number;
    travelBufferMin: number | null;
  }[];
  areas: {
    id: string;
    name: string;
    kind: AreaKind;
    /** Other names it is found by: a suburb's own name. */
    aliases: string[];
    postalCode: string | null;
    lat: number | null;
    lng: number | null;
    radiusKm: number | null;
    town: string;
    status: 'PENDING' | 'APPROVED' | 'REJECTED';
  }[];
  /** Which line covers which area. */
  lineAreas: { lineId: string; areaId: string }[];
  members: {
    userId: string;
    role: 'owner' | 'manager' | 'crew';
    jobTitle: string | null;
    resourceIds: string[];
  }[];
  invitations: {
    email: string | null;
    phone: string | null;
    role: 'manager' | 'crew';
    jobTitle: string | null;
    resourceIds: string[];
    expiresAt: Date;
  }[];
}

/** Writes a new business and everything it is made of. Run inside the approval's transaction. */
export async function insertBusiness(sql: Sql, b: NewBusiness, now: Date): Promise<void> {
  const biz = b.business;
  await sql`
    insert into businesses (id, name, country, currency, timezone, service_fee_cents, is_operator, created_at)
    values (${biz.id}, ${biz.name}, ${biz.country}, ${biz.currency}, ${biz.timezone}, ${biz.serviceFeeCents}, false, ${now})`;
  for (const [i, l] of b.lines.entries()) {
    await sql`
      insert into service_lines (business_id, id, label, blurb, duration_mode, repeats, sort)
      values (${biz.id}, ${l.id}, ${l.label}, ${l.blurb}, ${l.durationMode}, ${l.repeats}, ${i})`;
  }
  for (const [i, s] of b.services.entries()) {
    await sql`
      insert into services (business_id, id, line_id, name, kind, blurb, pet_types, price_cents, duration_min, group_size, tiers, sort)
      values (${biz.id}, ${s.id}, ${s.lineId}, ${s.name}, ${s.kind}, ${s.blurb}, ${s.petTypes}, ${s.priceCents}, ${s.durationMin},
              ${s.groupSize}, ${sql.json(s.tiers as never)}, ${i})`;
  }
  for (const [i, r] of b.resources.entries()) {
    await sql`
      insert into resources (business_id, id, kind, name, week, slot_step_min, travel_buffer_min, sort)
      values (${biz.id}, ${r.id}, ${r.kind}, ${r.name}, ${sql.json(r.week as never)}, ${r.slotStepMin}, ${r.travelBufferMin}, ${i})`;
  }
  for (const [i, a] of b.areas.entries()) {
    await sql`
      insert into service_areas (business_id, id, name, kind, aliases, postal_code, lat, lng, radius_km, town, status, sort)
      values (${biz.id}, ${a.id}, ${a.name}, ${a.kind}, ${a.aliases}, ${a.postalCode}, ${a.lat}, ${a.lng}, ${a.radiusKm},
              ${a.town}, ${a.status}, ${i})`;
  }
  for (const la of b.lineAreas) {
    await sql`insert into line_areas (business_id, line_id, area_id) values (${biz.id}, ${la.lineId}, ${la.areaId})`;
  }
  for (const m of b.members) {
    await sql`
      insert into business_members (business_id, user_id, role, job_title, resource_ids, created_at)
      values (${biz.id}, ${m.userId}, ${m.role}, ${m.jobTitle}, ${m.resourceIds}, ${now})`;
  }
  for (const v of b.invitations) {
    await sql`
      insert into business_invitations (id, business_id, email, phone, role, job_title, resource_ids, created_at, expires_at)
      values (${newId('binv')}, ${biz.id}, ${v.email}, ${v.phone}, ${v.role}, ${v.jobTitle}, ${v.resourceIds}, ${now}, ${v.expiresAt})`;
  }
}

/** A claimed listing as the operator checks it: its own contacts, and the business it is already, if any. */
export interface ClaimedListingRow {
  id: string;
  name: string;
  town: string;
  area: string | null;
  phone: string | null;
  email: string | null;
  website: string | null;
  businessId: string | null;
}

/** The listings with these ids (those that exist), for the claims the operator reviews. */
export async function findClaimedListings(sql: Sql, ids: string[]): Promise<ClaimedListingRow[]> {
  if (!ids.length) return [];
  return sql<ClaimedListingRow[]>`
    select id, name, town, area, phone, email, website, business_id as "businessId"
    from directory_listings where id = any(${ids}::text[])`;
}

/** Links a directory listing no business has yet to this business; false when it is gone or taken. */
export async function linkListing(sql: Sql, listingId: string, businessId: string): Promise<boolean> {
  const rows = await sql`
    update directory_listings set business_id = ${businessId} where id = ${listingId} and business_id is null
    returning id`;
  return rows.length > 0;
}

/** Publishes a new listing in the directory. */
export async function insertListing(sql: Sql, l: NewListing, now: Date): Promise<void> {
  await sql`
    insert into directory_listings (id, name, categories, area, town, services, website, phone, email, business_id, fictional, search_text, created_at)
    values (${l.id}, ${l.name}, ${l.categories}, ${l.area}, ${l.town}, ${l.services}, ${l.website}, ${l.phone}, ${l.email},
            ${l.businessId}, ${l.fictional}, ${listingSearchText(l)}, ${now})`;
}

export interface MemberRow {
  businessId: string;
  userId: string;
  email: string;
  role: 'owner' | 'manager' | 'crew';
  jobTitle: string | null;
  resourceIds: string[];
}

/** The people of a business, the owner first. */
export async function listMembers(sql: Sql, businessId: string): Promise<MemberRow[]> {
  return sql<MemberRow[]>`
    select m.business_id as "businessId", m.user_id as "userId", u.email, m.role, m.job_title as "jobTitle",
      m.resource_ids as "resourceIds"
    from business_members m join users u on u.id = m.user_id
    where m.business_id = ${businessId}
    order by (m.role = 'owner') desc, (m.role = 'manager') desc, u.email`;
}
