// A business's prices: its services with their lines, read and changed for the Run
// tools list_prices and update_prices. Bookings keep the total they were made at (total_cents):
// nothing here touches them.
import type { Queryable } from './sql.js';
import type { ServiceRow, TierRow } from './types.js';

/** A service as the price list shows it: with its line's label, in the catalogue's order. */
export interface PriceServiceRow extends ServiceRow {
  lineLabel: string;
}

const SERVICE_COLUMNS = `s.id, s.line_id as "lineId", s.name, s.kind, s.blurb, s.pet_types as "petTypes",
  s.price_cents as "priceCents", s.duration_min as "durationMin", s.group_size as "groupSize", s.tiers,
  l.label as "lineLabel"`;

/** Every service of the business, line by line as the catalogue orders them (line sort, service sort). */
export async function listPriceServices(sql: Queryable, businessId: string): Promise<PriceServiceRow[]> {
  return sql<PriceServiceRow[]>`
    select ${sql.unsafe(SERVICE_COLUMNS)}
    from services s join service_lines l on l.business_id = s.business_id and l.id = s.line_id
    where s.business_id = ${businessId}
    order by l.sort, l.id, s.sort, s.id`;
}

/** The business's services of these ids, locked for a change (another business's ids are not found). */
export async function lockPriceServices(
  sql: Queryable,
  businessId: string,
  ids: string[],
): Promise<PriceServiceRow[]> {
  if (!ids.length) return [];
  return sql<PriceServiceRow[]>`
    select ${sql.unsafe(SERVICE_COLUMNS)}
    from services s join service_lines l on l.business_id = s.business_id and l.id = s.line_id
    where s.business_id = ${businessId} and s.id = any(${ids}::text[])
    order by s.id
    for update of s`;
}

/** Sets a service's price and tiers. */
export async function setServicePrice(
  sql: Queryable,
  businessId: string,
  id: string,
  price: { priceCents: number; tiers: TierRow[] },
): Promise<void> {
  await sql`
    update services set price_cents = ${price.priceCents}, tiers = ${sql.json(price.tiers as never)}
    where business_id = ${businessId} and id = ${id}`;
}

/**
 * How many live bookings (PENDING or ACCEPTED) of the business still to come take any of these
 * services for a pet: they keep the price they were booked at.
 */
export async function countComingBookingsWith(
  sql: Queryable,
  businessId: string,
  serviceIds: string[],
  now: Date,
): Promise<number> {
  if (!serviceIds.length) return 0;
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from bookings b
    where b.business_id = ${businessId} and b.status in ('PENDING', 'ACCEPTED') and b.starts_at > ${now}
      and exists (
        select 1 from jsonb_array_elements(case when jsonb_typeof(b.details->'pets') = 'array' then b.details->'pets' else '[]' end) p,
                      jsonb_array_elements_text(case when jsonb_typeof(p->'serviceIds') = 'array' then p->'serviceIds' else '[]' end) s
        where s = any(${serviceIds}::text[]))`;
  return row?.n ?? 0;
}

/**
 * How many open weekly series of the business (not cancelled) book any of these services for a
 * pet: the worker books their weeks not yet made at the price of the day (they are new bookings).
 */
export async function countOpenSeriesWith(
  sql: Queryable,
  businessId: string,
  serviceIds: string[],
): Promise<number> {
  if (!serviceIds.length) return 0;
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from booking_series s
    where s.business_id = ${businessId} and s.cancelled_at is null
      and exists (
        select 1 from jsonb_array_elements(case when jsonb_typeof(s.template->'pets') = 'array' then s.template->'pets' else '[]' end) p,
                      jsonb_array_elements_text(case when jsonb_typeof(p->'serviceIds') = 'array' then p->'serviceIds' else '[]' end) x
        where x = any(${serviceIds}::text[]))`;
  return row?.n ?? 0;
}
