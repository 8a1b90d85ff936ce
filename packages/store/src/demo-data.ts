import { readFile } from 'node:fs/promises';
import { listingSearchText, type NewListing } from './directory.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from './sql.js';
import { shareKey } from './bookings.js';
import type { AreaRow, BusinessRow, LineRow, NearbyTownRow, ResourceRow, ServiceRow } from './types.js';

export const DEMO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../demo');

interface OperatorDemo {
  business: BusinessRow;
  areas: Omit<AreaRow, 'status'>[];
  lines: LineRow[];
  services: ServiceRow[];
  nearbyTowns: NearbyTownRow[];
  resources: ResourceRow[];
  publicHolidays: { date: string; name: string }[];
}

// Demo data is the operator's, in Johannesburg, which keeps UTC+2 all year (no DST).
const JOHANNESBURG = '+02:00';

function at(date: string, time: string): string {
  return `${date}T${time}:00${JOHANNESBURG}`;
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * Bookings for the next three weeks from `today`, so that open times look like a working
 * business: both vans full on Saturdays and on one weekday, a morning booking most weekdays, early
 * solo walks, and an afternoon group walk with one place left.
 */
export function demoBookings(today: string): {
  id: string;
  resourceId: string;
  lineId: string;
  start: string;
  end: string;
  groupKey: string | null;
  groupSize: number;
  status: string;
  paymentMethod: string;
  paymentStatus: string;
  totalCents: number;
}[] {
  const out: ReturnType<typeof demoBookings> = [];
  const add = (
    date: string,
    resourceId: string,
    lineId: string,
    from: string,
    to: string,
    extra: Partial<(typeof out)[number]> = {},
  ) =>
    out.push({
      id: `demo-${resourceId}-${date}-${from.replace(':', '')}`,
      resourceId,
      lineId,
      start: at(date, from),
      end: at(date, to),
      groupKey: null,
      groupSize: 1,
      status: 'ACCEPTED',
      paymentMethod: 'CARD',
      paymentStatus: 'PAID',
      totalCents: 38000,
      ...extra,
    });
  for (let i = 1; i <= 21; i++) {
    const date = addDays(today, i);
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay(); // 0 Sunday .. 6 Saturday
    if (weekday === 0) continue;
    const fullDay = weekday === 6 || i === 3;
    for (const van of ['van-1', 'van-2']) {
      if (fullDay)
        add(date, van, 'grooming', '08:00', weekday === 6 ? '13:00' : '17:00', { totalCents: 150000 });
    }
    if (!fullDay)
      add(date, 'van-1', 'grooming', '09:00', '10:30', { paymentMethod: 'CASH', paymentStatus: 'CASH_DUE' });
    add(date, 'walker-1', 'walking', '07:00', '08:00', { totalCents: 20000 });
    if (weekday !== 6) {
      add(date, 'walker-2', 'walking', '15:00', '16:00', {
        groupKey: 'walk-group-60',
        groupSize: 3,
        totalCents: 42000,
      });
    }
  }
  return out;
}

export async function readOperatorDemo(): Promise<OperatorDemo> {
  return JSON.parse(await readFile(path.join(DEMO_DIR, 'operator.json'), 'utf8')) as OperatorDemo;
}

/** The demo directory: invented listings around Stellenbosch and the operator's own. */
export async function readDirectoryDemo(): Promise<{ listings: NewListing[] }> {
  return JSON.parse(await readFile(path.join(DEMO_DIR, 'directory.json'), 'utf8')) as {
    listings: NewListing[];
  };
}

/**
 * Loads the operator's demo data. Idempotent and additive: rows that exist are left alone (an
 * operator's later edits survive restarts); rows the demo gained since are added.
 */
export async function loadDemoData(sql: Sql, now: Date = new Date()): Promise<{ inserted: number }> {
  const demo = await readOperatorDemo();
  const b = demo.business;
  let inserted = 0;
  await sql.begin(async (tx) => {
    // Serialise concurrent loaders (two instances starting together).
    await tx`select pg_advisory_xact_lock(736411903)`;
    const count = (r: { count: number }) => {
      inserted += r.count;
    };
    count(
      await tx`
      insert into businesses (id, name, country, currency, timezone, service_fee_cents, accepts_cash, is_operator)
      values (${b.id}, ${b.name}, ${b.country}, ${b.currency}, ${b.timezone}, ${b.serviceFeeCents}, ${b.acceptsCash}, ${b.isOperator})
      on conflict do nothing`,
    );
    for (const [i, a] of demo.areas.entries()) {
      count(
        await tx`
        insert into service_areas (business_id, id, name, aliases, postal_code, lat, lng, radius_km, zone, town, status, sort)
        values (${b.id}, ${a.id}, ${a.name}, ${a.aliases}, ${a.postalCode}, ${a.lat}, ${a.lng}, ${a.radiusKm}, ${a.zone}, ${a.town}, 'APPROVED', ${i})
        on conflict do nothing`,
      );
    }
    for (const [i, l] of demo.lines.entries()) {
      count(
        await tx`
        insert into service_lines (business_id, id, label, blurb, duration_mode, repeats, sort)
        values (${b.id}, ${l.id}, ${l.label}, ${l.blurb}, ${l.durationMode}, ${l.repeats}, ${i})
        on conflict do nothing`,
      );
      for (const areaId of l.areaIds) {
        count(
          await tx`insert into line_areas (business_id, line_id, area_id) values (${b.id}, ${l.id}, ${areaId}) on conflict do nothing`,
        );
      }
    }
    for (const [i, s] of demo.services.entries()) {
      count(
        await tx`
        insert into services (business_id, id, line_id, name, kind, blurb, pet_types, price_cents, duration_min, group_size, tiers, sort)
        values (${b.id}, ${s.id}, ${s.lineId}, ${s.name}, ${s.kind}, ${s.blurb}, ${s.petTypes}, ${s.priceCents}, ${s.durationMin},
                ${s.groupSize}, ${tx.json(s.tiers as never)}, ${i})
        on conflict do nothing`,
      );
    }
    for (const [i, r] of demo.resources.entries()) {
      count(
        await tx`
        insert into resources (business_id, id, kind, name, week, slot_step_min, travel_buffer_min, sort)
        values (${b.id}, ${r.id}, ${r.kind}, ${r.name}, ${tx.json(r.week as never)}, ${r.slotStepMin ?? 30}, ${r.travelBufferMin ?? null}, ${i})
        on conflict do nothing`,
      );
    }
    for (const h of demo.publicHolidays) {
      count(
        await tx`
        insert into time_off (id, business_id, resource_id, starts_at, ends_at, reason)
        values (${`holiday-${h.date}`}, ${b.id}, null, ${at(h.date, '00:00')}, ${at(addDays(h.date, 1), '00:00')}, ${h.name})
        on conflict do nothing`,
      );
    }
    for (const l of (await readDirectoryDemo()).listings) {
      count(
        await tx`
        insert into directory_listings (id, name, categories, area, town, services, website, phone, email, business_id, fictional, search_text)
        values (${l.id}, ${l.name}, ${l.categories}, ${l.area}, ${l.town}, ${l.services}, ${l.website}, ${l.phone}, ${l.email},
                ${l.businessId}, ${l.fictional}, ${listingSearchText(l)})
        on conflict do nothing`,
      );
    }
    // Demo bookings are made once, relative to the day the demo data is first loaded.
    const [{ n }] =
      (await tx`select count(*)::int as n from bookings where business_id = ${b.id} and id like 'demo-%'`) as unknown as [
        { n: number },
      ];
    if (n === 0) {
      const today = new Date(now.getTime() + 2 * 3600_000).toISOString().slice(0, 10);
      for (const k of demoBookings(today)) {
        count(
          await tx`
          insert into bookings (id, business_id, resource_id, line_id, status, payment_method, payment_status, starts_at, ends_at, group_key, share_key, group_size, total_cents, client_name)
          values (${k.id}, ${b.id}, ${k.resourceId}, ${k.lineId}, ${k.status}, ${k.paymentMethod}, ${k.paymentStatus}, ${k.start}, ${k.end}, ${k.groupKey},
            ${k.groupKey ? shareKey(k.groupKey, new Date(k.start), new Date(k.end)) : null}, ${k.groupSize}, ${k.totalCents}, 'NogPets app')
          on conflict do nothing`,
        );
      }
    }
    for (const t of demo.nearbyTowns) {
      count(
        await tx`
        insert into nearby_towns (business_id, name, country, postal_code, lat, lng)
        values (${b.id}, ${t.name}, ${t.country}, ${t.postalCode}, ${t.lat}, ${t.lng})
        on conflict do nothing`,
      );
    }
  });
  return { inserted };
}
