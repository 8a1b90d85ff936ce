// A booking racing a change of working hours or time off: whichever commits
// first, a booking left outside working time is flagged to move (booking_move_flags, migration
// 0029), never stranded unflagged. Both orders are held open on a real second connection: the
// test's transaction holds the resource's lock (lockResource, as set_working_hours and
// add_time_off take it), the other side is seen waiting for it in pg_locks, then it commits.
import { createApiKey } from '@nogpets/operations/testing';
import { liveBookingsAhead, lockResource, setResourceWeeks } from '@nogpets/store';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

type Json = any;

const BIZ = 'biz_boland_paws';
const VAN = 'bp-van-2';
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg
const REX = { name: 'Rex', type: 'DOG', weightKg: 14, coat: 'SHORT', serviceIds: ['bp-groom-bath'] };
/** Van 2 on Mondays only: every Thursday booking is outside it. */
const MONDAYS = { mon: [{ start: '08:00', end: '17:00' }] };
const FULL_WEEK = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ start: '08:00', end: '17:00' }]]),
);

describe('a booking racing a change of hours or time off', () => {
  let server: TestServer;
  let key: string;
  const as = () => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    key = (await createApiKey(server.db.sql, { email: 'owner@partner.example', scopes: ['business:manage'] }))
      .key;
  }, 60_000);
  afterAll(() => server?.stop());

  /** Van 2's first open slot on a date. */
  const slotOn = async (date: string) => {
    const res = await server.post(
      '/v1/business/times',
      { businessId: BIZ, pets: [REX], from: date, to: date, resourceId: VAN },
      as(),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.days[0].slots[0] as { start: string; resourceId: string };
  };
  const bookFor = (slot: { start: string; resourceId: string }, name: string) =>
    server.post(
      '/v1/business/bookings',
      {
        businessId: BIZ,
        client: { name, phone: '+27 82 555 0199' },
        pets: [REX],
        address: { line1: '12 Dorp Street', suburb: 'Die Boord', city: 'Stellenbosch' },
        start: slot.start,
        resourceId: slot.resourceId,
        paymentMethod: 'CASH',
        confirm: true,
      },
      as(),
    );
  const flagsOf = async (bookingId: string) =>
    server.db.sql<{ cause: string; reason: string }[]>`
      select cause, reason from booking_move_flags where booking_id = ${bookingId} order by cause`;
  /** Backends of this database waiting for an advisory lock. */
  const waiting = async () =>
    (
      await server.db.sql<{ n: number }[]>`
        select count(*)::int as n from pg_locks
        where locktype = 'advisory' and not granted
          and database = (select oid from pg_database where datname = current_database())`
    )[0]!.n;
  /** Until `n` backends wait for a lock, or `answered` settles first (a writer that takes no lock). */
  const untilWaiting = async (n: number, answered: Promise<unknown>[]) => {
    let settled = false;
    for (const p of answered) p.then(() => (settled = true));
    for (;;) {
      if ((await waiting()) >= n) return 'waiting';
      if (settled) return 'answered';
      // Waits on PostgreSQL itself (no timer): a round trip between looks.
      await server.db.sql`select 1`;
    }
  };
  /** A transaction on a connection of its own, held open until `commit`. */
  const openTransaction = async () => {
    const conn = await server.db.sql.reserve();
    await conn`begin`;
    return {
      q: conn,
      commit: async () => {
        await conn`commit`;
        conn.release();
      },
    };
  };
  const restoreVan = () => server.db.sql`
    update resources set week = ${server.db.sql.json(FULL_WEEK as never)} where business_id = ${BIZ} and id = ${VAN}`;

  it('hours first: a booking checked against the old hours, committed after the change, is flagged', async () => {
    await restoreVan();
    const slot = await slotOn('2026-03-12'); // Thursday
    // The hours change as set_working_hours makes it, in a transaction held open after its writes:
    // the resource's lock, the live bookings it would flag (none yet), the new week.
    const change = await openTransaction();
    await lockResource(change.q, BIZ, VAN);
    await liveBookingsAhead(change.q, BIZ, { after: clock.now(), resourceIds: [VAN] });
    await setResourceWeeks(change.q, BIZ, [VAN], MONDAYS);
    // The booking reads the committed (old) week, so the slot is open to it.
    const booking = bookFor(slot, 'Hours First');
    const seen = await untilWaiting(1, [booking]);
    await change.commit();
    const res = await booking;
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const flags = await flagsOf(res.body.booking.bookingId);
    expect(flags).toEqual([
      { cause: 'hours', reason: expect.stringContaining('no longer works on Thursdays') },
    ]);
    // It waited for the change's lock, and was then read against the new week.
    expect(seen).toBe('waiting');
    // And the business sees it as needing a move.
    const listed = await server.get(
      `/v1/business/bookings?businessId=${BIZ}&from=2026-03-12&to=2026-03-12`,
      as(),
    );
    const mine = listed.body.bookings.find((b: Json) => b.bookingId === res.body.booking.bookingId);
    expect(mine.needsMove, JSON.stringify(mine)).toBeTruthy();
  });

  it('booking first: the change waits for the booking, then lists and flags it', async () => {
    await restoreVan();
    const slot = await slotOn('2026-03-19'); // Thursday a week on
    const holder = await openTransaction();
    await lockResource(holder.q, BIZ, VAN);
    const booking = bookFor(slot, 'Booking First');
    const bookingSeen = await untilWaiting(1, [booking]);
    const hours = server.post(
      '/v1/business/hours',
      { businessId: BIZ, resourceIds: [VAN], week: MONDAYS, confirm: true },
      as(),
    );
    await untilWaiting(bookingSeen === 'waiting' ? 2 : 1, [hours]);
    await holder.commit();
    const [made, changed] = await Promise.all([booking, hours]);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.toMove.map((j: Json) => j.bookingId)).toContain(made.body.booking.bookingId);
    expect(await flagsOf(made.body.booking.bookingId)).toEqual([
      { cause: 'hours', reason: expect.stringContaining('no longer works on Thursdays') },
    ]);
  });

  it('time off first: a booking committed after add_time_off in its time is flagged for that time off', async () => {
    await restoreVan();
    const slot = await slotOn('2026-03-26');
    const change = await openTransaction();
    await lockResource(change.q, BIZ, VAN);
    const [off] = await change.q<{ id: string }[]>`
      insert into time_off (id, business_id, resource_id, starts_at, ends_at, reason)
      values ('tof_race', ${BIZ}, ${VAN}, '2026-03-25T22:00:00Z', '2026-03-26T22:00:00Z', 'Van in for service')
      returning id`;
    const booking = bookFor(slot, 'Time Off First');
    const seen = await untilWaiting(1, [booking]);
    await change.commit();
    const res = await booking;
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await flagsOf(res.body.booking.bookingId)).toEqual([
      { cause: off!.id, reason: expect.stringMatching(/is off .*: Van in for service\.$/) },
    ]);
    expect(seen).toBe('waiting');
  });

  it('a booking with no change meanwhile is not flagged', async () => {
    await restoreVan();
    const res = await bookFor(await slotOn('2026-03-13'), 'No Race');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await flagsOf(res.body.booking.bookingId)).toEqual([]);
  });
});
