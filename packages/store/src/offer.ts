import type { Queryable, Sql } from './sql.js';
import type { AreaRow, BusinessRow, LineRow, NearbyTownRow, Offer, ServiceRow } from './types.js';

const BUSINESS_COLUMNS = `id, name, country, currency, timezone, service_fee_cents as "serviceFeeCents",
           accepts_cash as "acceptsCash", is_operator as "isOperator"`;

export async function findOperator(sql: Queryable): Promise<BusinessRow | null> {
  const rows = await sql<
    BusinessRow[]
  >`select ${sql.unsafe(BUSINESS_COLUMNS)} from businesses where is_operator`;
  return rows[0] ?? null;
}

/** One business by its id (the operator's own or a partner's), or null. */
export async function findBusiness(sql: Queryable, id: string): Promise<BusinessRow | null> {
  const rows = await sql<
    BusinessRow[]
  >`select ${sql.unsafe(BUSINESS_COLUMNS)} from businesses where id = ${id}`;
  return rows[0] ?? null;
}

/** The businesses of these ids that exist, in no particular order. */
export async function findBusinesses(sql: Sql, ids: string[]): Promise<BusinessRow[]> {
  if (!ids.length) return [];
  return sql<
    BusinessRow[]
  >`select ${sql.unsafe(BUSINESS_COLUMNS)} from businesses where id = any(${ids}::text[])`;
}

/** How to reach a business directly: its directory listing's phone, website and email (the first listing linked to it). */
export async function findBusinessContact(
  sql: Sql,
  businessId: string,
): Promise<{ phone: string | null; website: string | null; email: string | null } | null> {
  const rows = await sql<{ phone: string | null; website: string | null; email: string | null }[]>`
    select phone, website, email from directory_listings where business_id = ${businessId} order by id limit 1`;
  return rows[0] ?? null;
}

/**
 * Loads a business's lines, services, approved areas (every kind: a suburb or postal code without a
 * centre or radius too) and nearby towns (four queries, one snapshot).
 */
export async function loadOffer(sql: Sql, business: BusinessRow): Promise<Offer> {
  return sql.begin('isolation level repeatable read read only', async (tx) => {
    const areas = await tx<AreaRow[]>`
      select id, name, kind, aliases, postal_code as "postalCode", lat, lng, radius_km as "radiusKm", zone, town, status
      from service_areas where business_id = ${business.id} and status = 'APPROVED'
      order by sort, name`;
    const lines = await tx<LineRow[]>`
      select l.id, l.label, l.blurb, l.duration_mode as "durationMode", l.repeats,
             coalesce(array_agg(la.area_id order by la.area_id) filter (where la.area_id is not null and a.status = 'APPROVED'), '{}') as "areaIds"
      from service_lines l
      left join line_areas la on la.business_id = l.business_id and la.line_id = l.id
      left join service_areas a on a.business_id = la.business_id and a.id = la.area_id
      where l.business_id = ${business.id}
      group by l.business_id, l.id order by l.sort, l.id`;
    const services = await tx<ServiceRow[]>`
      select id, line_id as "lineId", name, kind, blurb, pet_types as "petTypes", price_cents as "priceCents",
             duration_min as "durationMin", group_size as "groupSize", tiers
      from services where business_id = ${business.id} order by sort, id`;
    const nearbyTowns = await tx<NearbyTownRow[]>`
      select name, country, postal_code as "postalCode", lat, lng
      from nearby_towns where business_id = ${business.id} order by name`;
    return {
      business,
      areas,
      lines: lines.map((l) => ({ ...l, services: services.filter((s) => s.lineId === l.id) })),
      nearbyTowns,
    };
  });
}
