// Business applications: what a pet business gathers, step by step, before the operator reviews it.
import { newId } from './ids.js';
import type { Queryable as Sql } from './sql.js';

export type ApplicationStatus = 'DRAFT' | 'SUBMITTED' | 'APPROVED' | 'REJECTED';

export interface ApplicationRow {
  id: string;
  userId: string;
  status: ApplicationStatus;
  name: string;
  details: Record<string, unknown>;
  country: string | null;
  currency: string | null;
  timezone: string | null;
  services: unknown[];
  area: unknown[];
  resources: unknown[];
  businessHours: Record<string, unknown> | null;
  staffInvites: unknown[];
  gateway: Record<string, unknown> | null;
  claimListingId: string | null;
  reviewNote: string | null;
  /** When it was sent for review (null while a DRAFT). */
  submittedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = `id, user_id as "userId", status, name, details, country, currency, timezone, services, area, resources,
  business_hours as "businessHours", staff_invites as "staffInvites", gateway, claim_listing_id as "claimListingId",
  review_note as "reviewNote", submitted_at as "submittedAt", created_at as "createdAt", updated_at as "updatedAt"`;

export type ApplicationDetails = Pick<
  ApplicationRow,
  'name' | 'details' | 'country' | 'currency' | 'timezone' | 'claimListingId'
>;

export async function insertApplication(
  sql: Sql,
  userId: string,
  a: ApplicationDetails,
  now: Date,
): Promise<ApplicationRow> {
  const [row] = await sql<ApplicationRow[]>`
    insert into business_applications (id, user_id, name, details, country, currency, timezone, claim_listing_id, created_at, updated_at)
    values (${newId('app')}, ${userId}, ${a.name}, ${sql.json(a.details as never)}, ${a.country}, ${a.currency}, ${a.timezone},
            ${a.claimListingId}, ${now}, ${now})
    returning ${sql.unsafe(COLUMNS)}`;
  return row!;
}

export async function updateApplicationDetails(
  sql: Sql,
  id: string,
  a: ApplicationDetails,
  now: Date,
): Promise<ApplicationRow> {
  const [row] = await sql<ApplicationRow[]>`
    update business_applications set name = ${a.name}, details = ${sql.json(a.details as never)}, country = ${a.country},
      currency = ${a.currency}, timezone = ${a.timezone}, claim_listing_id = ${a.claimListingId}, updated_at = ${now}
    where id = ${id}
    returning ${sql.unsafe(COLUMNS)}`;
  return row!;
}

/** The person's application, or null when it is not theirs (or there is none). */
export async function findOwnApplication(
  sql: Sql,
  userId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ApplicationRow | null> {
  const [row] = await sql<ApplicationRow[]>`
    select ${sql.unsafe(COLUMNS)} from business_applications where id = ${id} and user_id = ${userId}
    ${options.forUpdate ? sql`for update` : sql``}`;
  return row ?? null;
}

/** The person's applications, newest first. */
export async function listOwnApplications(sql: Sql, userId: string, limit = 50): Promise<ApplicationRow[]> {
  return sql<ApplicationRow[]>`
    select ${sql.unsafe(COLUMNS)} from business_applications where user_id = ${userId}
    order by created_at desc, id desc limit ${limit}`;
}

/**
 * Directory listings that may be this business: a name like it (trigram similarity), in its town
 * when one is given, not already a business on the service; the closest first.
 */
export async function findPossibleListings(
  sql: Sql,
  name: string,
  town: string | null,
  limit = 5,
): Promise<{ id: string; name: string; town: string; area: string | null; similarity: number }[]> {
  return sql`
    select id, name, town, area, similarity(lower(name), ${name.toLowerCase()})::float as similarity
    from directory_listings
    where business_id is null and similarity(lower(name), ${name.toLowerCase()}) >= 0.3
      ${town ? sql`and town = ${town}` : sql``}
    order by similarity desc, name, id limit ${limit}`;
}

/** Whether a directory listing may be claimed: it exists and is not already a business on the service. */
export async function listingClaimable(sql: Sql, id: string): Promise<boolean> {
  const [row] = await sql<{ ok: boolean }[]>`
    select exists (select 1 from directory_listings where id = ${id} and business_id is null) as ok`;
  return row!.ok;
}

/** The parts the sign-up steps after the details set, each replaced whole when given. */
export interface ApplicationParts {
  services?: unknown[];
  area?: unknown[];
  resources?: unknown[];
  businessHours?: Record<string, unknown> | null;
  staffInvites?: unknown[];
  gateway?: Record<string, unknown> | null;
}

/** Replaces the parts given (services, area, resources, hours, staff invitations, gateway); the rest stays. */
export async function updateApplicationParts(
  sql: Sql,
  id: string,
  parts: ApplicationParts,
  now: Date,
): Promise<ApplicationRow> {
  const json = (v: unknown) => (v === null ? null : sql.json(v as never));
  const [row] = await sql<ApplicationRow[]>`
    update business_applications set
      services = ${parts.services === undefined ? sql`services` : json(parts.services)},
      area = ${parts.area === undefined ? sql`area` : json(parts.area)},
      resources = ${parts.resources === undefined ? sql`resources` : json(parts.resources)},
      business_hours = ${parts.businessHours === undefined ? sql`business_hours` : json(parts.businessHours)},
      staff_invites = ${parts.staffInvites === undefined ? sql`staff_invites` : json(parts.staffInvites)},
      gateway = ${parts.gateway === undefined ? sql`gateway` : json(parts.gateway)},
      updated_at = ${now}
    where id = ${id}
    returning ${sql.unsafe(COLUMNS)}`;
  return row!;
}

/** A DRAFT sent for review: SUBMITTED, with when. Null when it was not a DRAFT any more. */
export async function submitApplication(sql: Sql, id: string, now: Date): Promise<ApplicationRow | null> {
  const [row] = await sql<ApplicationRow[]>`
    update business_applications set status = 'SUBMITTED', submitted_at = ${now}, updated_at = ${now}
    where id = ${id} and status = 'DRAFT'
    returning ${sql.unsafe(COLUMNS)}`;
  return row ?? null;
}

/** A service of the operator's own menu, as `useTemplate` copies it. */
export interface TemplateService {
  category: 'grooming' | 'walking' | 'sitting';
  kind: 'PRIMARY' | 'EXTRA';
  name: string;
  blurb: string;
  petTypes: string[];
  priceCents: number;
  durationMin: number;
  groupSize: number;
  tiers: Record<string, unknown>[];
}

/** The operator's own menu (the business marked is_operator), line by line in its order. */
export async function operatorMenu(sql: Sql): Promise<{ currency: string; services: TemplateService[] }> {
  const rows = await sql<(TemplateService & { currency: string })[]>`
    select s.line_id as category, s.kind, s.name, s.blurb, s.pet_types as "petTypes", s.price_cents as "priceCents",
      s.duration_min as "durationMin", s.group_size as "groupSize", s.tiers, b.currency
    from services s
    join businesses b on b.id = s.business_id and b.is_operator
    join service_lines l on l.business_id = s.business_id and l.id = s.line_id
    order by l.sort, l.id, s.sort, s.id`;
  return {
    currency: rows[0]?.currency ?? 'ZAR',
    services: rows.map(({ currency: _c, ...s }) => s),
  };
}

/** An approved service area of a business on the service, for telling an applicant where others already work. */
export interface ServedArea {
  businessId: string;
  businessName: string;
  /** The business's country: postal codes are compared within one country only. */
  country: string;
  name: string;
  postalCode: string | null;
  /** Null for an area known only by its postal code or name. */
  lat: number | null;
  lng: number | null;
  radiusKm: number | null;
}

/**
 * Every approved area of every business (the operator's included) but the business an application
 * became: the one holding any of `ownAreaIds` (approval copies the application's areas with their ids).
 */
export async function approvedServiceAreas(sql: Sql, ownAreaIds: string[] = []): Promise<ServedArea[]> {
  return sql<ServedArea[]>`
    select a.business_id as "businessId", b.name as "businessName", b.country, a.name, a.postal_code as "postalCode",
      a.lat, a.lng, a.radius_km::float as "radiusKm"
    from service_areas a join businesses b on b.id = a.business_id
    where a.status = 'APPROVED'
      and a.business_id not in (select o.business_id from service_areas o where o.id = any(${ownAreaIds}::text[]))
    order by b.is_operator desc, b.name, a.sort, a.id`;
}
