import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { availableServers, createTestDatabase, type TestDatabase } from './testing/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { loadDemoData, readOperatorDemo } from './demo-data.js';
import { countLeads, insertLead, listLeads } from './leads.js';
import { migrate } from './migrate.js';
import { findOperator, loadOffer } from './offer.js';
import { createSql } from './sql.js';
import { insertBookingWithLink, isSavedRowGone, isSlotConflict } from './bookings.js';
import { insertPet } from './pets.js';
import { removeSavedUnlessInUse } from './saved.js';
import { findOrCreateUser } from './users.js';

const servers = availableServers();

it('runs against every server this machine offers', () => {
  // Embedded always; the machine's PostgreSQL too when DATABASE_URL is set.
  expect(servers).toContain('embedded');
  if (process.env.DATABASE_URL) expect(servers).toContain('external');
});

describe.each(servers)('store on %s PostgreSQL', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ kind, migrate: false });
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('applies every migration once and skips them on the next start', async () => {
    const first = await migrate(db.sql);
    expect(first.applied.length).toBeGreaterThan(0);
    expect(first.skipped).toEqual([]);
    const second = await migrate(db.sql);
    expect(second.applied).toEqual([]);
    expect(second.skipped).toEqual(first.applied);
    const [ext] =
      await db.sql`select count(*)::int as n from pg_extension where extname in ('btree_gist', 'pg_trgm')`;
    expect(ext?.n).toBe(2);
  });

  it('lets two instances migrate one fresh database at the same time', async () => {
    const fresh = await createTestDatabase({ kind, migrate: false });
    const other = createSql(fresh.url, { max: 2 });
    try {
      const [a, b] = await Promise.all([migrate(fresh.sql), migrate(other)]);
      // Exactly one of them applied the files; the other waited on the lock and found them done.
      expect([...a.applied, ...b.applied].sort()).toEqual([...a.applied, ...a.skipped].sort());
      const rows = await fresh.sql`select name from schema_migrations`;
      expect(rows.length).toBe(a.applied.length + a.skipped.length);
    } finally {
      await other.end();
      await fresh.drop();
    }
  });

  it('loads the demo data once, and a second load changes nothing', async () => {
    const first = await loadDemoData(db.sql);
    expect(first.inserted).toBeGreaterThan(50);
    await db.sql`update services set price_cents = 31000 where id = 'groom-dog-bath'`;
    const again = await loadDemoData(db.sql);
    expect(again.inserted).toBe(0);
    const [svc] = await db.sql`select price_cents from services where id = 'groom-dog-bath'`;
    expect(svc?.price_cents).toBe(31000);
    await db.sql`update services set price_cents = 30000 where id = 'groom-dog-bath'`;
  });

  it('reads the operator offer: three lines, walkers covering fewer areas than vans', async () => {
    const operator = await findOperator(db.sql);
    expect(operator).toMatchObject({
      id: 'nogpets',
      currency: 'ZAR',
      timezone: 'Africa/Johannesburg',
      isOperator: true,
    });
    const offer = await loadOffer(db.sql, operator!);
    const demo = await readOperatorDemo();
    expect(offer.lines.map((l) => l.id)).toEqual(['grooming', 'walking', 'sitting']);
    const walking = offer.lines.find((l) => l.id === 'walking')!;
    const grooming = offer.lines.find((l) => l.id === 'grooming')!;
    expect(walking.areaIds.length).toBeLessThan(grooming.areaIds.length);
    expect(offer.lines.flatMap((l) => l.services).length).toBe(demo.services.length);
    const bath = grooming.services.find((s) => s.id === 'groom-dog-bath')!;
    expect(bath.tiers[0]).toEqual({
      coat: 'SHORT',
      petType: 'DOG',
      minKg: 0,
      maxKg: 10,
      priceCents: 30000,
      durationMin: 45,
    });
    expect(offer.areas.find((a) => a.id === 'die-boord')).toMatchObject({
      postalCode: '7600',
      radiusKm: 1.5,
    });
    expect(offer.nearbyTowns.map((t) => t.name)).toContain('Somerset West');
    const kinds = (
      await db.sql`select kind, count(*)::int as n from resources where business_id = 'nogpets' group by kind order by kind`
    ).map((r) => `${r.kind}:${r.n}`);
    expect(kinds).toEqual(['SITTER:2', 'VAN:2', 'WALKER:2']);
    const holidays =
      await db.sql`select reason from time_off where resource_id is null and (starts_at at time zone 'Africa/Johannesburg')::date = '2026-12-16'`;
    expect(holidays.map((h) => h.reason)).toEqual(['Day of Reconciliation']);
    const demoBooked = await db.sql`select count(*)::int as n from bookings where id like 'demo-%'`;
    expect(demoBooked[0]?.n).toBeGreaterThan(30);
  });

  it('keeps leads with what was asked and why', async () => {
    const before = await countLeads(db.sql);
    const id = await insertLead(
      db.sql,
      {
        businessId: 'nogpets',
        operation: 'checkCoverage',
        reason: 'NO_COVERAGE',
        query: { address: 'Rua Augusta 100, Lisbon' },
        place: { town: 'Lisbon', country: 'PT' },
      },
      new Date('2026-11-23T08:00:00Z'),
    );
    expect(id).toMatch(/^lead_[0-9a-z]{20}$/);
    expect(await countLeads(db.sql)).toBe(before + 1);
    const [lead] = await listLeads(db.sql, 'nogpets', 1);
    expect(lead).toMatchObject({
      id,
      reason: 'NO_COVERAGE',
      query: { address: 'Rua Augusta 100, Lisbon' },
      status: 'NEW',
    });
  });

  it('refuses a double booking of a resource in the database itself, travel buffer included, but not a cancelled one', async () => {
    const book = (id: string, from: string, to: string, status = 'PENDING') =>
      db.sql`insert into bookings (id, business_id, resource_id, line_id, status, starts_at, ends_at)
             values (${id}, 'nogpets', 'van-2', 'grooming', ${status}, ${from}, ${to})`;
    await book('t1', '2030-01-07T08:00:00Z', '2030-01-07T09:00:00Z');
    await expect(book('t2', '2030-01-07T08:30:00Z', '2030-01-07T09:30:00Z')).rejects.toThrow(
      /bookings_no_double_booking/,
    );
    await book('t3', '2030-01-07T08:30:00Z', '2030-01-07T09:30:00Z', 'CANCELLED');
    // A van keeps its travel buffer (15 minutes) clear: right after is refused, 15 minutes later is not.
    await expect(book('t4', '2030-01-07T09:00:00Z', '2030-01-07T10:00:00Z')).rejects.toThrow(
      /bookings_no_double_booking/,
    );
    await book('t5', '2030-01-07T09:15:00Z', '2030-01-07T10:15:00Z');
    await db.sql`delete from bookings where id in ('t1', 't3', 't5')`;
  });

  it('writes a booking, its audit record and its pay link together, or none of them when the time is taken', async () => {
    const now = new Date('2030-01-01T10:00:00Z');
    const booking = (id: string, start: string, end: string) => ({
      id,
      businessId: 'nogpets',
      userId: null,
      resourceId: 'van-1',
      lineId: 'grooming',
      status: 'PENDING' as const,
      paymentMethod: 'CARD' as const,
      paymentStatus: 'PENDING' as const,
      start: new Date(start),
      end: new Date(end),
      groupKey: null,
      groupSize: 1,
      totalCents: 39000,
      details: { note: 'test' },
      clientName: 'Tester',
      clientId: null,
      addressId: null,
      seriesId: null,
      notes: '',
      holdUntil: new Date('2030-01-03T10:00:00Z'),
    });
    const audit = (target: string) => ({
      userId: null,
      clientId: null,
      clientName: 'Tester',
      action: 'booking.create',
      target,
      details: {},
    });
    const link = (id: string) => ({
      id,
      amountCents: 39000,
      currency: 'ZAR',
      gateway: 'sandbox',
      linkTokenHash: `hash-${id}`,
      expiresAt: new Date('2030-01-03T10:00:00Z'),
    });
    const row = await insertBookingWithLink(
      db.sql,
      booking('w1', '2030-01-08T08:00:00Z', '2030-01-08T09:00:00Z'),
      audit('w1'),
      link('pay_w1'),
      now,
    );
    expect(row).toMatchObject({
      id: 'w1',
      resourceId: 'van-1',
      totalCents: 39000,
      details: { note: 'test' },
    });
    expect(row.start.toISOString()).toBe('2030-01-08T08:00:00.000Z');
    const [pay] =
      await db.sql`select booking_ids, amount_cents, status, business_id from payments where id = 'pay_w1'`;
    expect(pay).toEqual({ booking_ids: ['w1'], amount_cents: 39000, status: 'OPEN', business_id: 'nogpets' });
    const [logged] = await db.sql`select count(*)::int as n from audit_log where target = 'w1'`;
    expect(logged?.n).toBe(1);

    // The same van half an hour later: refused by the constraint, and nothing of it was written.
    await expect(
      insertBookingWithLink(
        db.sql,
        booking('w2', '2030-01-08T08:30:00Z', '2030-01-08T09:30:00Z'),
        audit('w2'),
        link('pay_w2'),
        now,
      ),
    ).rejects.toSatisfy(isSlotConflict);
    const [left] = await db.sql`
      select (select count(*) from bookings where id = 'w2')::int as bookings,
             (select count(*) from payments where id = 'pay_w2')::int as payments,
             (select count(*) from audit_log where target = 'w2')::int as audits`;
    expect(left).toEqual({ bookings: 0, payments: 0, audits: 0 });

    // Cash: no link.
    await insertBookingWithLink(
      db.sql,
      booking('w3', '2030-01-09T08:00:00Z', '2030-01-09T09:00:00Z'),
      audit('w3'),
      null,
      now,
    );
    const [none] = await db.sql`select count(*)::int as n from payments where 'w3' = any(booking_ids)`;
    expect(none?.n).toBe(0);
    await db.sql`delete from payments where id = 'pay_w1'`;
    await db.sql`delete from bookings where id in ('w1', 'w3')`;
  });

  it('never lets a removal and a booking of the same saved pet cross: whichever writes first decides', async () => {
    const user = await findOrCreateUser(db.sql, 'race@example.com');
    const pet = () =>
      insertPet(
        db.sql,
        user.id,
        { name: 'Rex', type: 'DOG', breed: null, weightKg: 12, coat: 'SHORT', birthYear: null, notes: null },
        null,
      );
    const now = new Date('2030-01-01T10:00:00Z');
    const booking = (id: string, petId: string, day: number) => ({
      id,
      businessId: 'nogpets',
      userId: user.id,
      resourceId: 'van-2',
      lineId: 'grooming',
      status: 'PENDING' as const,
      paymentMethod: 'CASH' as const,
      paymentStatus: 'CASH_DUE' as const,
      start: new Date(`2030-02-${String(day).padStart(2, '0')}T08:00:00Z`),
      end: new Date(`2030-02-${String(day).padStart(2, '0')}T09:00:00Z`),
      groupKey: null,
      groupSize: 1,
      totalCents: 38000,
      details: { pets: [{ petId, name: 'Rex', serviceIds: ['groom-dog-bath'] }] },
      clientName: null,
      clientId: null,
      addressId: null,
      savedPetIds: [petId],
      seriesId: null,
      notes: '',
      holdUntil: null,
    });
    const audit = (target: string) => ({
      userId: user.id,
      clientId: null,
      clientName: null,
      action: 'booking.create',
      target,
      details: {},
    });

    // The booking writes first and has not committed: the removal waits for it, then finds it in use.
    const first = await pet();
    let releaseBooking!: () => void;
    const bookingHeld = new Promise<void>((r) => (releaseBooking = r));
    let booked!: () => void;
    const bookingWritten = new Promise<void>((r) => (booked = r));
    const bookingTx = db.sql.begin(async (tx) => {
      await insertBookingWithLink(tx, booking('race1', first.id, 4), audit('race1'), null, now);
      booked();
      await bookingHeld;
    });
    await bookingWritten;
    const removal = db.sql.begin((tx) => removeSavedUnlessInUse(tx, user.id, 'pet', first.id, now));
    await new Promise((r) => setTimeout(r, 200));
    releaseBooking();
    await bookingTx;
    expect(await removal).toEqual({ result: 'IN_USE' });

    // The removal writes first and has not committed: the booking waits for it, then is refused.
    const second = await pet();
    let releaseRemoval!: () => void;
    const removalHeld = new Promise<void>((r) => (releaseRemoval = r));
    let removed!: () => void;
    const removalWritten = new Promise<void>((r) => (removed = r));
    const removalTx = db.sql.begin(async (tx) => {
      const outcome = await removeSavedUnlessInUse(tx, user.id, 'pet', second.id, now);
      removed();
      await removalHeld;
      return outcome;
    });
    await removalWritten;
    const late = insertBookingWithLink(
      db.sql,
      booking('race2', second.id, 5),
      audit('race2'),
      null,
      now,
    ).then(
      () => null,
      (err: unknown) => err,
    );
    await new Promise((r) => setTimeout(r, 200));
    releaseRemoval();
    expect(await removalTx).toEqual({ result: 'REMOVED', name: 'Rex' });
    expect(isSavedRowGone(await late)).toBe(true);
    const [left] = await db.sql`
      select (select count(*) from bookings where id = 'race2')::int as bookings,
             (select count(*) from audit_log where target = 'race2')::int as audits`;
    expect(left).toEqual({ bookings: 0, audits: 0 });
    await db.sql`delete from bookings where id = 'race1'`;
  });

  it('refuses rows that break the rules the schema keeps', async () => {
    await expect(
      db.sql`insert into service_areas (business_id, id, name, lat, lng, radius_km, town) values ('nogpets', 'x', 'X', 91, 0, 1, 'T')`,
    ).rejects.toThrow(/check/);
    await expect(
      db.sql`insert into businesses (id, name, country, currency, timezone, is_operator) values ('b2', 'B', 'ZA', 'ZAR', 'Africa/Johannesburg', true)`,
    ).rejects.toThrow(/businesses_one_operator/);
  });
});

describe('openDatabase with no DATABASE_URL', () => {
  it('starts an embedded PostgreSQL under the data directory and reuses its data on the next start', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'nogpets-open-'));
    await chmod(dir, 0o755);
    try {
      const first = await openDatabase({ dataDir: dir });
      expect(first.kind).toBe('embedded');
      await migrate(first.sql);
      await first.sql`insert into businesses (id, name, country, currency, timezone) values ('kept', 'Kept', 'PT', 'EUR', 'Europe/Lisbon')`;
      await first.close();

      const second = await openDatabase({ dataDir: dir });
      const again = await migrate(second.sql);
      expect(again.applied).toEqual([]);
      const rows = await second.sql`select name from businesses where id = 'kept'`;
      expect(rows[0]?.name).toBe('Kept');
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
