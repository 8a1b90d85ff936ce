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
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = `id, user_id as "userId", status, name, details, country, currency, timezone, services, area, resources,
  business_hours as "businessHours", staff_invites as "staffInvites", gateway, claim_listing_id as "claimListingId",
  review_note as "reviewNote", created_at as "createdAt", updated_at as "updatedAt"`;

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
