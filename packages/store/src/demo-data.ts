import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from './sql.js';
import type { AreaRow, BusinessRow, LineRow, NearbyTownRow, ServiceRow } from './types.js';

export const DEMO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../demo');

interface OperatorDemo {
  business: BusinessRow;
  areas: Omit<AreaRow, 'status'>[];
  lines: LineRow[];
  services: ServiceRow[];
  nearbyTowns: NearbyTownRow[];
}

export async function readOperatorDemo(): Promise<OperatorDemo> {
  return JSON.parse(await readFile(path.join(DEMO_DIR, 'operator.json'), 'utf8')) as OperatorDemo;
}

/**
 * Loads the operator's demo data. Idempotent and additive: rows that exist are left alone (an
 * operator's later edits survive restarts); rows the demo gained since are added.
 */
export async function loadDemoData(sql: Sql): Promise<{ inserted: number }> {
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
