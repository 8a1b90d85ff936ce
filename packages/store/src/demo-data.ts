import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { listingSearchText, type NewListing } from './directory.js';
import { newId } from './ids.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Queryable, type Sql, transaction } from './sql.js';
import { shareKey } from './bookings.js';
import { paymentInsert, recordNotification, setPaymentStatus } from './payments.js';
import { productSearchText } from './shop.js';
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

/** The Johannesburg wall-clock time HH:MM of an instant. */
function localHhmm(instant: string): string {
  return new Date(Date.parse(instant) + 2 * 3600_000).toISOString().slice(11, 16);
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

/** What a demo business is made of: the business, its areas, lines (with their areas), menu and resources. */
type DemoCatalogue = Pick<OperatorDemo, 'business' | 'areas' | 'lines' | 'services' | 'resources'>;

/** A demo business and its catalogue, once (rows already there are left as they are). Rows inserted. */
async function insertDemoBusiness(tx: Queryable, demo: DemoCatalogue, isOperator: boolean): Promise<number> {
  const b = demo.business;
  let inserted = 0;
  const count = (r: { count: number }) => {
    inserted += r.count;
  };
  count(
    await tx`
    insert into businesses (id, name, country, currency, timezone, service_fee_cents, accepts_cash, is_operator)
    values (${b.id}, ${b.name}, ${b.country}, ${b.currency}, ${b.timezone}, ${b.serviceFeeCents}, ${b.acceptsCash}, ${isOperator})
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
  return inserted;
}

/**
 * Loads the operator's demo data. Idempotent and additive: rows that exist are left alone (an
 * operator's later edits survive restarts); rows the demo gained since are added.
 */
export async function loadDemoData(sql: Sql, now: Date = new Date()): Promise<{ inserted: number }> {
  const demo = await readOperatorDemo();
  const b = demo.business;
  let inserted = 0;
  await transaction(sql, async (tx) => {
    // Serialise concurrent loaders (two instances starting together).
    await tx`select pg_advisory_xact_lock(736411903)`;
    const count = (r: { count: number }) => {
      inserted += r.count;
    };
    inserted += await insertDemoBusiness(tx, demo, b.isOperator);
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
    inserted += await loadPartnerDemo(tx, now);
    inserted += await loadShopDemo(tx, b.id);
  });
  return { inserted };
}

interface ShopDemo {
  open: boolean;
  delivery: unknown;
  products: {
    id: string;
    name: string;
    blurb: string;
    category: string;
    petTypes: string[];
    tags: string[];
    variants: { id: string; label: string; priceCents: number; stock: number }[];
  }[];
  discountCodes: {
    code: string;
    kind: 'PERCENT' | 'FIXED';
    percent: number | null;
    amountCents: number | null;
    minSpendCents: number;
    startsAt: string | null;
    endsAt: string | null;
    maxUses: number | null;
    used: number;
    description: string;
  }[];
}

export async function readShopDemo(): Promise<ShopDemo> {
  return JSON.parse(await readFile(path.join(DEMO_DIR, 'shop.json'), 'utf8')) as ShopDemo;
}

/**
 * The operator's shop: its settings (open on a fresh start; an existing row, opened or
 * closed since, is left alone), catalogue and discount codes. Additive like the rest: stock sold
 * since stays sold. Rows inserted.
 */
async function loadShopDemo(tx: Queryable, businessId: string): Promise<number> {
  const demo = await readShopDemo();
  let inserted = 0;
  const count = (r: { count: number }) => {
    inserted += r.count;
  };
  count(
    await tx`
    insert into shop_settings (business_id, open, delivery) values (${businessId}, ${demo.open}, ${tx.json(demo.delivery as never)})
    on conflict do nothing`,
  );
  for (const [i, p] of demo.products.entries()) {
    count(
      await tx`
      insert into products (id, business_id, name, blurb, category, pet_types, tags, search_text, sort_order)
      values (${p.id}, ${businessId}, ${p.name}, ${p.blurb}, ${p.category}, ${p.petTypes}, ${p.tags}, ${productSearchText(p)}, ${i})
      on conflict do nothing`,
    );
    for (const [j, v] of p.variants.entries()) {
      count(
        await tx`
        insert into product_variants (id, product_id, label, price_cents, stock, sort_order)
        values (${v.id}, ${p.id}, ${v.label}, ${v.priceCents}, ${v.stock}, ${j})
        on conflict do nothing`,
      );
    }
  }
  for (const c of demo.discountCodes) {
    count(
      await tx`
      insert into discount_codes (business_id, code, kind, percent, amount_cents, min_spend_cents, starts_at, ends_at, max_uses, used, description)
      values (${businessId}, ${c.code}, ${c.kind}, ${c.percent}, ${c.amountCents}, ${c.minSpendCents}, ${c.startsAt}::timestamptz,
        ${c.endsAt}::timestamptz, ${c.maxUses}, ${c.used}, ${c.description})
      on conflict do nothing`,
    );
  }
  return inserted;
}

interface PartnerDemo {
  business: BusinessRow;
  areas: Omit<AreaRow, 'status'>[];
  lines: LineRow[];
  services: ServiceRow[];
  resources: ResourceRow[];
  people: {
    email: string;
    name: string;
    role: 'owner' | 'manager' | 'crew';
    jobTitle: string;
    resourceIds: string[];
  }[];
  clients: {
    id: string;
    name: string;
    phone: string;
    email: string;
    address: {
      id: string;
      label: string;
      line1: string;
      suburb: string;
      postalCode: string;
      city: string;
      lat: number;
      lng: number;
      notes: string | null;
    };
    pets: {
      id: string;
      name: string;
      type: 'DOG' | 'CAT';
      breed: string | null;
      weightKg: number;
      coat: 'SHORT' | 'MEDIUM' | 'LONG';
      notes: string | null;
    }[];
    notes: { pet: string | null; text: string }[];
  }[];
  jobs: { resourceId: string; lineId: 'grooming' | 'walking' | 'sitting'; from: string; to: string }[];
  listing: NewListing;
}

export async function readPartnerDemo(): Promise<PartnerDemo> {
  return JSON.parse(await readFile(path.join(DEMO_DIR, 'partner.json'), 'utf8')) as PartnerDemo;
}

const WEEKDAY_KEYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** One booking of the demo partner, as `partnerBookings` lays it out. */
export interface PartnerDemoBooking {
  id: string;
  resourceId: string;
  lineId: string;
  clientId: string;
  start: string;
  end: string;
  status: 'PENDING' | 'ACCEPTED' | 'DONE';
  paymentMethod: 'CARD' | 'CASH';
  paymentStatus: 'PENDING' | 'PAID' | 'CASH_DUE';
  totalCents: number;
  pets: { petId: string; name: string; serviceIds: string[] }[];
  /** When the client made it: one to four days before its start, and before `now`. */
  madeAt: string;
  /** A card booking paid (PAID): when the sandbox gateway settled its pay link, minutes after it was made. */
  paidAt: string | null;
}

/**
 * The demo partner's bookings: 14 days before `today` to 14 after, each job of `jobs` on the days
 * its resource works those hours, most days (a few left open), clients in turn (walks only for
 * dogs). Ended ones are DONE and paid; coming ones are confirmed and paid by card, cash to collect
 * (CASH_DUE), or waiting for the client's card payment (PENDING, PENDING). Each was made one to
 * four days before its start (at the latest half an hour before `now`), a card one paid minutes
 * after; one waiting for payment was made at `now` (its link just sent).
 */
export function partnerBookings(demo: PartnerDemo, today: string, now: Date): PartnerDemoBooking[] {
  const out: PartnerDemoBooking[] = [];
  const services = new Map(demo.services.map((s) => [s.id, s]));
  for (let d = -14; d <= 14; d++) {
    const date = addDays(today, d);
    const weekday = WEEKDAY_KEYS[new Date(`${date}T12:00:00Z`).getUTCDay()]!;
    for (const [j, job] of demo.jobs.entries()) {
      const resource = demo.resources.find((r) => r.id === job.resourceId)!;
      const n = demo.clients.length;
      let client = demo.clients[(((d + j) % n) + n) % n]!;
      if (job.lineId === 'walking') {
        for (let k = 0; k < n && !client.pets.some((p) => p.type === 'DOG'); k++)
          client = demo.clients[(((d + j + k + 1) % n) + n) % n]!;
      }
      const pets = client.pets
        .filter((p) => job.lineId !== 'walking' || p.type === 'DOG')
        .slice(0, job.lineId === 'grooming' ? 1 : 2)
        .map((p, i) => ({
          petId: p.id,
          name: p.name,
          serviceIds:
            job.lineId === 'grooming'
              ? p.type === 'CAT'
                ? ['bp-groom-cat']
                : (d + i) % 2 === 0
                  ? ['bp-groom-full', 'bp-extra-nails']
                  : ['bp-groom-bath']
              : job.lineId === 'walking'
                ? [job.to.slice(3) === job.from.slice(3) ? 'bp-walk-60' : 'bp-walk-30']
                : ['bp-sit-visit'],
        }));
      // As long as the services take, as the tools quote them (pricing-tiers' quote): a line that
      // sums its pets' times (a groom) or takes the longest (a walk, a visit). The jobs' starts
      // leave each resource's travel buffer after the longest of them.
      const perPet = pets.map((p) =>
        p.serviceIds.reduce((m, id) => m + (services.get(id)?.durationMin ?? 0), 0),
      );
      const sums = demo.lines.find((l) => l.id === job.lineId)?.durationMode === 'SUM';
      const minutes = sums ? perPet.reduce((a, b) => a + b, 0) : Math.max(...perPet);
      const start = at(date, job.from);
      const end = new Date(Date.parse(start) + minutes * 60_000).toISOString();
      const until = localHhmm(end);
      const works = (resource.week[weekday] ?? []).some((r) => r.start <= job.from && until <= r.end);
      if (!works || (d * 3 + j) % 5 === 0) continue;
      const ended = Date.parse(end) <= now.getTime();
      const pay = (((d + j) % 7) + 7) % 7;
      const paymentMethod = pay === 0 || pay === 3 ? 'CASH' : 'CARD';
      const unpaid = !ended && pay === 5;
      const subtotal = pets.reduce(
        (sum, p) => sum + p.serviceIds.reduce((s, id) => s + (services.get(id)?.priceCents ?? 0), 0),
        0,
      );
      const i = out.length;
      const paymentStatus = ended
        ? 'PAID'
        : unpaid
          ? 'PENDING'
          : paymentMethod === 'CASH'
            ? 'CASH_DUE'
            : 'PAID';
      const made = unpaid
        ? now.getTime()
        : Math.min(
            Date.parse(start) - (1 + (i % 4)) * 86_400_000 - ((i * 97) % 600) * 60_000,
            now.getTime() - (30 + ((i * 13) % 240)) * 60_000,
          );
      out.push({
        id: `demo-${job.resourceId}-${date}-${job.from.replace(':', '')}`,
        resourceId: job.resourceId,
        lineId: job.lineId,
        clientId: client.id,
        start,
        end,
        status: ended ? 'DONE' : unpaid ? 'PENDING' : 'ACCEPTED',
        paymentMethod,
        paymentStatus,
        totalCents: subtotal + (paymentMethod === 'CARD' ? demo.business.serviceFeeCents : 0),
        pets,
        madeAt: new Date(made).toISOString(),
        paidAt:
          paymentMethod === 'CARD' && paymentStatus === 'PAID'
            ? new Date(made + (2 + (i % 9)) * 60_000).toISOString()
            : null,
      });
    }
  }
  return out;
}

/**
 * The demo partner, Boland Paws: an approved business in Stellenbosch with its lines,
 * menu, vans, walker and sitter, areas, people (owner, manager, crew on Van 1), clients with
 * accounts, pets, addresses and notes, a directory listing, and a month of bookings around `now`
 * (made once). Additive like the operator's demo. Rows inserted.
 */
async function loadPartnerDemo(tx: Queryable, now: Date): Promise<number> {
  const demo = await readPartnerDemo();
  const b = demo.business;
  let inserted = 0;
  const count = (r: { count: number }) => {
    inserted += r.count;
  };
  inserted += await insertDemoBusiness(tx, demo, false);
  const userOf = async (email: string, name: string, phone = '') => {
    await tx`insert into users (id, email, name, phone) values (${newId('usr')}, ${email}, ${name}, ${phone})
      on conflict (lower(email)) do nothing`;
    const [u] = await tx<{ id: string }[]>`select id from users where lower(email) = lower(${email})`;
    return u!.id;
  };
  for (const p of demo.people) {
    const userId = await userOf(p.email, p.name);
    count(
      await tx`
      insert into business_members (business_id, user_id, role, job_title, resource_ids, created_at)
      values (${b.id}, ${userId}, ${p.role}, ${p.jobTitle}, ${p.resourceIds}, ${now})
      on conflict do nothing`,
    );
  }
  const clientUsers = new Map<string, string>();
  for (const c of demo.clients) {
    const userId = await userOf(c.email, c.name, c.phone);
    clientUsers.set(c.id, userId);
    const a = c.address;
    count(
      await tx`
      insert into addresses (id, user_id, label, line1, suburb, postal_code, city, country, lat, lng, notes, client_name, created_at)
      values (${a.id}, ${userId}, ${a.label}, ${a.line1}, ${a.suburb}, ${a.postalCode}, ${a.city}, 'ZA', ${a.lat}, ${a.lng}, ${a.notes}, ${b.name}, ${now})
      on conflict do nothing`,
    );
    for (const p of c.pets) {
      count(
        await tx`
        insert into pets (id, user_id, name, type, breed, weight_kg, coat, notes, client_name, created_at)
        values (${p.id}, ${userId}, ${p.name}, ${p.type}, ${p.breed}, ${p.weightKg}, ${p.coat}, ${p.notes}, ${b.name}, ${now})
        on conflict do nothing`,
      );
    }
    count(
      await tx`
      insert into business_clients (business_id, id, user_id, name, phone, email, created_at)
      values (${b.id}, ${c.id}, ${userId}, ${c.name}, ${c.phone}, ${c.email}, ${now})
      on conflict do nothing`,
    );
    for (const [i, n] of c.notes.entries()) {
      count(
        await tx`
        insert into client_notes (id, business_id, client_id, pet_id, text, author_user_id, author_name, created_at)
        values (${`note_${c.id}_${i}`}, ${b.id}, ${c.id}, ${n.pet}, ${n.text}, null, ${demo.people[0]!.name}, ${now})
        on conflict do nothing`,
      );
    }
  }
  const l = demo.listing;
  count(
    await tx`
    insert into directory_listings (id, name, categories, area, town, services, website, phone, email, business_id, fictional, search_text)
    values (${l.id}, ${l.name}, ${l.categories}, ${l.area}, ${l.town}, ${l.services}, ${l.website}, ${l.phone}, ${l.email},
            ${b.id}, ${l.fictional}, ${listingSearchText(l)})
    on conflict do nothing`,
  );
  // Bookings are made once, relative to the day the demo is first loaded (as the operator's).
  const [{ n }] = (await tx`
    select count(*)::int as n from bookings where business_id = ${b.id} and id like 'demo-%'`) as unknown as [
    { n: number },
  ];
  if (n > 0) return inserted;
  const today = new Date(now.getTime() + 2 * 3600_000).toISOString().slice(0, 10);
  const services = new Map(demo.services.map((s) => [s.id, s]));
  for (const k of partnerBookings(demo, today, now)) {
    const client = demo.clients.find((c) => c.id === k.clientId)!;
    const pets = k.pets.map((p) => ({
      name: p.name,
      items: p.serviceIds.map((id) => {
        const s = services.get(id)!;
        return {
          serviceId: id,
          name: s.name,
          kind: s.kind,
          priceCents: s.priceCents,
          durationMin: s.durationMin,
        };
      }),
    }));
    const subtotalCents = pets.reduce((sum, p) => sum + p.items.reduce((s, i) => s + i.priceCents, 0), 0);
    const details = {
      category: k.lineId,
      quote: {
        category: k.lineId,
        durationMin: (Date.parse(k.end) - Date.parse(k.start)) / 60_000,
        pets,
        subtotalCents,
        cardFeeCents: b.serviceFeeCents,
        cardTotalCents: subtotalCents + b.serviceFeeCents,
        cashTotalCents: subtotalCents,
        acceptsCash: true,
        summary: pets.map((p) => `${p.name}: ${p.items.map((i) => i.name).join(', ')}`).join('; '),
      },
      pets: k.pets,
      address: [client.address.line1, client.address.suburb, client.address.city].join(', '),
      currency: b.currency,
      timeZone: b.timezone,
    };
    const userId = clientUsers.get(k.clientId)!;
    const linkExpires = new Date(now.getTime() + 48 * 3600_000);
    const unpaid = k.paymentMethod === 'CARD' && k.paymentStatus === 'PENDING';
    const holdUntil = unpaid ? new Date(Math.min(linkExpires.getTime(), Date.parse(k.start))) : null;
    count(
      await tx`
      insert into bookings (id, business_id, user_id, resource_id, line_id, status, payment_method, payment_status, starts_at, ends_at,
        group_size, total_cents, details, client_name, address_id, business_client_id, hold_until, created_at, updated_at)
      values (${k.id}, ${b.id}, ${userId}, ${k.resourceId}, ${k.lineId}, ${k.status}, ${k.paymentMethod}, ${k.paymentStatus},
        ${k.start}, ${k.end}, 1, ${k.totalCents}, ${tx.json(details as never)}, ${b.name}, ${client.address.id}, ${k.clientId},
        ${holdUntil}, ${k.madeAt}, ${now})
      on conflict do nothing`,
    );
    if (k.paidAt) {
      // Paid as a real card booking is: its own pay link made with it, then settled by the
      // sandbox gateway's notification (settle.ts): PAID with the gateway's reference, the
      // notification recorded as applied under that reference (a replay of it is a duplicate).
      const paymentId = `pay_${k.id}`;
      const gatewayRef = `sbx_${k.id}`;
      const madeAt = new Date(k.madeAt);
      const paidAt = new Date(k.paidAt);
      const made = await paymentInsert(
        tx,
        {
          id: paymentId,
          businessId: b.id,
          userId,
          bookingIds: [k.id],
          amountCents: k.totalCents,
          currency: b.currency,
          gateway: 'sandbox',
          linkTokenHash: randomBytes(32).toString('hex'),
          expiresAt: new Date(madeAt.getTime() + 48 * 3600_000),
        },
        madeAt,
      );
      inserted += made.length;
      await setPaymentStatus(tx, paymentId, 'PAID', paidAt, gatewayRef);
      await recordNotification(
        tx,
        {
          gateway: 'sandbox',
          gatewayRef,
          paymentId,
          outcome: 'APPLIED',
          // The fields the sandbox posts (unsigned: the demo's, nobody posted it).
          body: new URLSearchParams({
            payment_id: paymentId,
            gateway_ref: gatewayRef,
            amount: (k.totalCents / 100).toFixed(2),
            outcome: 'COMPLETE',
          }).toString(),
        },
        paidAt,
      );
    }
    if (unpaid) {
      // The pay link sent to the client: open for 48 hours (nobody holds its token: a new one is sent when asked).
      count(
        await tx`
        insert into payments (id, business_id, user_id, booking_ids, amount_cents, currency, gateway, status, link_token_hash, expires_at, created_at)
        values (${`pay_${k.id}`}, ${b.id}, ${userId}, ${[k.id]}, ${k.totalCents}, ${b.currency}, 'sandbox', 'OPEN',
          ${randomBytes(32).toString('hex')}, ${linkExpires}, ${now})
        on conflict do nothing`,
      );
    }
  }
  return inserted;
}
