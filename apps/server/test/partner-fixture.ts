// A partner business as approval leaves one: a `businesses` row that is not the
// operator, a grooming line with one PRIMARY service, a van with a week, one approved service area,
// and its directory listing linked to it. Written with SQL here so the booking tests do not wait
// on the approval code; the shape is the one packages/store/src/demo-data.ts gives the operator.
import type { Sql } from '@nogpets/store';

export interface PartnerFixture {
  id: string;
  name: string;
  country: string;
  currency: string;
  timezone: string;
  /** The centre of its one service area and the radius around it. */
  center: { lat: number; lng: number };
  radiusKm: number;
  town: string;
  /** Its PRIMARY grooming service's id and its price, in the currency's minor units. */
  serviceId: string;
  priceCents: number;
  durationMin: number;
  vanId: string;
  listing: { id: string; town: string; phone: string | null; website: string | null };
}

/** A mobile groomer around Stellenbosch (ZA, rand, Johannesburg time). */
export const STELLENBOSCH_PARTNER: PartnerFixture = {
  id: 'biz_boland_groom',
  name: 'Boland Mobile Grooming',
  country: 'ZA',
  currency: 'ZAR',
  timezone: 'Africa/Johannesburg',
  // Central Stellenbosch; 6 km reaches Die Boord and the suburbs around it.
  center: { lat: -33.9346, lng: 18.8602 },
  radiusKm: 6,
  town: 'Stellenbosch',
  serviceId: 'svc_boland_wash',
  priceCents: 33000,
  durationMin: 50,
  vanId: 'res_boland_van',
  listing: {
    id: 'dir-boland-groom',
    town: 'stellenbosch',
    phone: '+27 21 555 0140',
    website: 'https://boland-groom.example',
  },
};

/** A groomer in Lisbon (PT, euro, Lisbon time): on the service, but not bookable through it. */
export const LISBON_PARTNER: PartnerFixture = {
  id: 'biz_lisboa_tosquias',
  name: 'Tosquias da Graça',
  country: 'PT',
  currency: 'EUR',
  timezone: 'Europe/Lisbon',
  center: { lat: 38.7169, lng: -9.1306 },
  radiusKm: 4,
  town: 'Lisboa',
  serviceId: 'svc_lisboa_banho',
  priceCents: 3500,
  durationMin: 60,
  vanId: 'res_lisboa_carrinha',
  listing: {
    id: 'dir-lisboa-tosquias',
    town: 'lisboa',
    phone: '+351 21 555 0199',
    website: 'https://tosquias-graca.example',
  },
};

const WEEKDAYS = { start: '08:00', end: '17:00' };

/** Inserts the partner with its catalogue, van, area and listing. */
export async function insertPartner(sql: Sql, p: PartnerFixture): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`
      insert into businesses (id, name, country, currency, timezone, service_fee_cents, accepts_cash, is_operator)
      values (${p.id}, ${p.name}, ${p.country}, ${p.currency}, ${p.timezone}, 800, false, false)`;
    await tx`
      insert into service_areas (business_id, id, name, aliases, postal_code, lat, lng, radius_km, zone, town, status, sort)
      values (${p.id}, ${`area_${p.id}`}, ${`${p.town} and around`}, '{}', null, ${p.center.lat}, ${p.center.lng},
              ${p.radiusKm}, 'core', ${p.town}, 'APPROVED', 0)`;
    await tx`
      insert into service_lines (business_id, id, label, blurb, duration_mode, repeats, sort)
      values (${p.id}, 'grooming', 'Mobile grooming', ${`${p.name} comes to your door.`}, 'SUM', false, 0)`;
    await tx`insert into line_areas (business_id, line_id, area_id) values (${p.id}, 'grooming', ${`area_${p.id}`})`;
    await tx`
      insert into services (business_id, id, line_id, name, kind, blurb, pet_types, price_cents, duration_min, group_size, tiers, sort)
      values (${p.id}, ${p.serviceId}, 'grooming', 'Wash and brush', 'PRIMARY', 'A bath, blow-dry and brush-out.',
              ${['DOG']}, ${p.priceCents}, ${p.durationMin}, 1, '[]', 0)`;
    const week = { mon: [WEEKDAYS], tue: [WEEKDAYS], wed: [WEEKDAYS], thu: [WEEKDAYS], fri: [WEEKDAYS] };
    await tx`
      insert into resources (business_id, id, kind, name, week, slot_step_min, travel_buffer_min, sort)
      values (${p.id}, ${p.vanId}, 'VAN', 'The van', ${tx.json(week)}, 30, null, 0)`;
    await tx`
      insert into directory_listings (id, name, categories, area, town, services, website, phone, email, business_id, fictional, search_text)
      values (${p.listing.id}, ${p.name}, ${['MOBILE_GROOMING']}, ${p.town}, ${p.listing.town}, ${['mobile grooming']},
              ${p.listing.website}, ${p.listing.phone}, null, ${p.id}, false, ${`${p.name} mobile grooming ${p.town}`.toLowerCase()})`;
  });
}
