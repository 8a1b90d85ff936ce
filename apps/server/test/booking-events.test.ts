// The booking events (and a shop order's order.paid) written with each change, read from
// domain_events through the real HTTP API: the person books, pays, moves and cancels; the worker
// keeps a weekly series booked; the business books for a client, accepts, declines, moves, cancels
// and books again; the operator accepts from the CLI. Each event names its booking, business and
// person, who acted and the facts as committed; a refused call or a retry with the same
// Idempotency-Key writes none.
import { jobOperations, runOperation } from '@nogpets/operations';
import { createApiKey, extendSeries } from '@nogpets/operations/testing';
import { type DomainEventRow, listEvents } from '@nogpets/store';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, newPetOwner, payInSandbox, startTestServer, type TestServer } from './harness.js';
import { courierOrder, newBuyer, payOrderLink } from './shop-fixture.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const HOUR = 3_600_000;
const BP = 'biz_boland_paws';
const ASSISTANT = 'Claude (booking-events test)';

describe('booking events', () => {
  let server: TestServer;
  const clock = fixedClock('2026-11-23T04:00:00Z'); // Monday 06:00 in Johannesburg
  let person: { key: string; userId: string; petId: string; addressId: string };
  let stranger: { key: string; petId: string; addressId: string };
  let owner: { key: string; userId: string };
  let aneleId: string;
  const as = (key: string, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${key}`,
    'x-client-name': ASSISTANT,
    ...extra,
  });

  /** The sequence number of the newest event: what a test wrote is what comes after it. */
  const mark = async () =>
    (await server.db.sql<{ seq: number }[]>`select coalesce(max(seq), 0)::int as seq from domain_events`)[0]!
      .seq;
  /** Events as a reader takes them: `data` read as JSON. */
  type Event = Omit<DomainEventRow, 'data'> & { data: Json };
  const since = async (seq: number): Promise<Event[]> => listEvents(server.db.sql, { afterSeq: seq });
  const eventsOf = async (subjectId: string): Promise<Event[]> => listEvents(server.db.sql, { subjectId });
  const typesOf = (events: Event[]) => events.map((e) => `${e.type} ${e.subjectId}`);
  /** Whose booking it is and at which business, as the bookings table says. */
  const ownerOf = async (bookingId: string) =>
    (
      await server.db.sql<{ businessId: string; userId: string | null; totalCents: number }[]>`
        select business_id as "businessId", user_id as "userId", total_cents as "totalCents"
        from bookings where id = ${bookingId}`
    )[0]!;

  const grooming = () => ({
    category: 'grooming',
    addressId: person.addressId,
    pets: [{ petId: person.petId, serviceIds: ['groom-dog-bath'] }],
  });
  const strangerGrooming = () => ({
    category: 'grooming',
    addressId: stranger.addressId,
    pets: [{ petId: stranger.petId, serviceIds: ['groom-dog-bath'] }],
  });
  async function slots(key: string, date: string, body: Record<string, unknown>) {
    const res = await server.post('/v1/availability', { ...body, from: date, to: date }, as(key));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.days[0].slots as { start: string; time: string; resourceId: string }[];
  }
  async function bookCard(date: string, headers: Record<string, string> = {}) {
    const slot = (await slots(person.key, date, grooming()))[0]!;
    const res = await server.post(
      '/v1/bookings',
      { ...grooming(), start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD' },
      as(person.key, headers),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { slot, id: res.body.bookingId as string, body: res.body };
  }

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    const p = await newPetOwner(server, {
      email: 'events-ayanda@example.com',
      pet: { name: 'Rex', weightKg: 12 },
      line1: '12 Dorp Street',
    });
    const [u] = await server.db.sql<{ id: string }[]>`
      select id from users where email = 'events-ayanda@example.com'`;
    person = { ...p, userId: u!.id };
    stranger = await newPetOwner(server, {
      email: 'events-bongani@example.com',
      pet: { name: 'Spot', weightKg: 10 },
      line1: '5 Dorp Street',
    });
    owner = await createApiKey(server.db.sql, {
      email: 'owner@partner.example',
      scopes: ['business:manage'],
    });
    const [anele] = await server.db.sql<{ userId: string }[]>`
      select user_id as "userId" from business_clients where id = 'cli_bp_anele'`;
    aneleId = anele!.userId;
    expect(aneleId).toBeTruthy();
  }, 60_000);
  afterAll(() => server?.stop());

  it('booking by card, paying and cancelling: created, paid, then cancelled with refund_due, each of the booking, business and person', async () => {
    const at = await mark();
    const { slot, id } = await bookCard('2026-11-25');
    const { businessId, totalCents } = await ownerOf(id);
    expect(totalCents).toBe(39000);
    const [created, ...none] = await since(at);
    expect(none).toEqual([]);
    expect(created).toMatchObject({
      type: 'booking.created',
      version: 1,
      subjectKind: 'booking',
      subjectId: id,
      businessId,
      personId: person.userId,
      actor: { kind: 'person', userId: person.userId, clientName: ASSISTANT },
      operation: 'book',
      data: {
        by: 'client',
        booking: {
          bookingId: id,
          businessId,
          status: 'PENDING',
          paymentMethod: 'CARD',
          paymentStatus: 'PENDING',
          resourceId: slot.resourceId,
          total: { amount: 39000, currency: 'ZAR' },
          timeZone: 'Africa/Johannesburg',
          seriesId: null,
        },
      },
    });
    expect(Date.parse(created!.data.booking.start)).toBe(Date.parse(slot.start));

    // The card payment settles: paid, for the booking's total, from the gateway's notification.
    const paidAt = await mark();
    expect(await payInSandbox(server, id)).toBe(200);
    const [paid, ...more] = await since(paidAt);
    expect(more).toEqual([]);
    expect(paid).toMatchObject({
      type: 'booking.paid',
      subjectId: id,
      businessId,
      personId: person.userId,
      actor: { kind: 'system', userId: null },
      data: {
        paid: { amount: 39000, currency: 'ZAR' },
        booking: { status: 'ACCEPTED', paymentStatus: 'PAID' },
      },
    });

    // Cancelled after paying: the money is owed back, said beside the cancellation.
    const cancelAt = await mark();
    const cancelled = await server.post(`/v1/bookings/${id}/cancel`, { confirm: true }, as(person.key));
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const after = await since(cancelAt);
    expect(typesOf(after)).toEqual([`booking.cancelled ${id}`, `booking.refund_due ${id}`]);
    for (const e of after)
      expect(e).toMatchObject({
        businessId,
        personId: person.userId,
        actor: { kind: 'person', userId: person.userId },
        operation: 'cancelBooking',
        data: { booking: { status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' } },
      });
    expect(after[0]!.data).toMatchObject({
      by: 'client',
      message: null,
      refund: { amount: 39000, currency: 'ZAR' },
    });
    expect(after[1]!.data.refund).toEqual({ amount: 39000, currency: 'ZAR' });
    // All four, in order, for the booking.
    expect((await eventsOf(id)).map((e) => e.type)).toEqual([
      'booking.created',
      'booking.paid',
      'booking.cancelled',
      'booking.refund_due',
    ]);
  });

  it('a refused call writes nothing: no confirm, a taken slot, another person’s booking, a closed booking', async () => {
    const { slot, id } = await bookCard('2026-11-27');
    const at = await mark();
    // Cash without confirm.
    const cash = { ...grooming(), start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CASH' };
    const other = (await slots(person.key, '2026-11-27', grooming()))[0]!;
    const asked = await server.post(
      '/v1/bookings',
      { ...cash, start: other.start, resourceId: other.resourceId },
      as(person.key),
    );
    expect(asked.body.error?.code).toBe('CONFIRM_REQUIRED');
    // The time just booked, by someone else: SLOT_TAKEN.
    const taken = await server.post(
      '/v1/bookings',
      {
        ...strangerGrooming(),
        start: slot.start,
        resourceId: slot.resourceId,
        paymentMethod: 'CARD',
      },
      as(stranger.key),
    );
    expect([taken.status, taken.body.error?.code]).toEqual([409, 'SLOT_TAKEN']);
    // Someone else's booking: not theirs to cancel or move.
    const foreign = await server.post(`/v1/bookings/${id}/cancel`, { confirm: true }, as(stranger.key));
    expect(foreign.status).toBe(404);
    const foreignMove = await server.post(
      `/v1/bookings/${id}/reschedule`,
      { start: other.start, resourceId: other.resourceId },
      as(stranger.key),
    );
    expect(foreignMove.status).toBe(404);
    // Cancelling without confirm, then twice.
    const unconfirmed = await server.post(`/v1/bookings/${id}/cancel`, {}, as(person.key));
    expect(unconfirmed.body.error?.code).toBe('CONFIRM_REQUIRED');
    expect(await since(at)).toEqual([]);
    expect((await server.post(`/v1/bookings/${id}/cancel`, { confirm: true }, as(person.key))).status).toBe(
      200,
    );
    const once = await mark();
    const again = await server.post(`/v1/bookings/${id}/cancel`, { confirm: true }, as(person.key));
    expect(again.body.error?.code).toBe('NOT_ACTIVE');
    // A cancelled booking cannot be declined or accepted by a business either (not its booking: 404).
    const declined = await server.post(
      `/v1/business/bookings/${id}/decline`,
      { reason: 'No.', confirm: true },
      as(owner.key),
    );
    expect(declined.status).toBe(404);
    expect(await since(once)).toEqual([]);
    // Unpaid card cancelled: nothing owed back, so no refund_due.
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(['booking.created', 'booking.cancelled']);
    expect((await eventsOf(id))[1]!.data.refund).toBeNull();
  });

  it('a retry with the same Idempotency-Key writes no second event', async () => {
    const at = await mark();
    const first = await bookCard('2026-11-30', { 'idempotency-key': 'events-book-1' });
    const slot = first.slot;
    const again = await server.post(
      '/v1/bookings',
      { ...grooming(), start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD' },
      as(person.key, { 'idempotency-key': 'events-book-1' }),
    );
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(typesOf(await since(at))).toEqual([`booking.created ${first.id}`]);
    const cancelAt = await mark();
    const cancel = () =>
      server.post(
        `/v1/bookings/${first.id}/cancel`,
        { confirm: true },
        as(person.key, { 'idempotency-key': 'events-cancel-1' }),
      );
    const c1 = await cancel();
    const c2 = await cancel();
    expect([c1.status, c2.status]).toEqual([200, 200]);
    expect(c2.body).toEqual(c1.body);
    expect(typesOf(await since(cancelAt))).toEqual([`booking.cancelled ${first.id}`]);
  });

  it('the person moves a booking: moved, with where it was and where it is now', async () => {
    const { slot, id } = await bookCard('2026-12-01');
    const before = (await eventsOf(id))[0]!.data.booking;
    const times = await server.post(
      `/v1/bookings/${id}/times`,
      { from: '2026-12-01', to: '2026-12-01' },
      as(person.key),
    );
    const target = times.body.days[0].slots.find(
      (s: Json) => Date.parse(s.start) >= Date.parse(slot.start) + 3 * HOUR,
    );
    const at = await mark();
    const moved = await server.post(
      `/v1/bookings/${id}/reschedule`,
      { start: target.start, resourceId: target.resourceId },
      as(person.key),
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const [event, ...none] = await since(at);
    expect(none).toEqual([]);
    const { businessId } = await ownerOf(id);
    expect(event).toMatchObject({
      type: 'booking.moved',
      subjectId: id,
      businessId,
      personId: person.userId,
      actor: { kind: 'person', userId: person.userId },
      operation: 'rescheduleBooking',
      data: {
        by: 'client',
        message: null,
        from: { start: before.start, end: before.end, resourceId: slot.resourceId },
        booking: { status: 'PENDING', paymentStatus: 'PENDING', resourceId: target.resourceId },
      },
    });
    expect(Date.parse(event!.data.booking.start)).toBe(Date.parse(target.start));
    expect(Date.parse(event!.data.from.start)).toBe(Date.parse(slot.start));
    // A time someone else holds: refused, nothing written.
    const theirs = (await slots(stranger.key, '2026-12-02', strangerGrooming()))[0]!;
    const held = await server.post(
      '/v1/bookings',
      { ...strangerGrooming(), start: theirs.start, resourceId: theirs.resourceId, paymentMethod: 'CARD' },
      as(stranger.key),
    );
    expect(held.status).toBe(201);
    const busyAt = await mark();
    const busy = await server.post(
      `/v1/bookings/${id}/reschedule`,
      { start: theirs.start, resourceId: theirs.resourceId },
      as(person.key),
    );
    expect([400, 409]).toContain(busy.status);
    expect(await since(busyAt)).toEqual([]);
  });

  it('weekly walks: one created per week, the worker’s weeks from the system, and one cancelled per week cancelled', async () => {
    const walk = {
      category: 'walking',
      addressId: person.addressId,
      pets: [{ petId: person.petId, serviceIds: ['walk-solo-30'] }],
    };
    const open = (await slots(person.key, '2026-11-24', walk)).find((s) => s.time === '09:00')!;
    const at = await mark();
    const res = await server.post(
      '/v1/bookings',
      {
        ...walk,
        start: open.start,
        resourceId: open.resourceId,
        paymentMethod: 'CASH',
        confirm: true,
        repeat: { freq: 'WEEKLY', days: ['tue', 'wed'] },
      },
      as(person.key),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const seriesId = res.body.seriesId;
    const ids: string[] = res.body.bookingIds;
    expect(ids.length).toBeGreaterThan(3);
    const made = await since(at);
    expect(typesOf(made)).toEqual(ids.map((id) => `booking.created ${id}`));
    for (const e of made)
      expect(e).toMatchObject({
        personId: person.userId,
        actor: { kind: 'person' },
        data: { by: 'client', booking: { seriesId, paymentStatus: 'CASH_DUE' } },
      });

    const workerAt = await mark();
    const saved = clock.now();
    clock.set(new Date(saved.getTime() + 7 * 24 * HOUR));
    try {
      expect(await extendSeries(server.service.runtime.deps)).toBeGreaterThan(0);
    } finally {
      clock.set(saved);
    }
    const later = await since(workerAt);
    const weeks = await server.db.sql<{ id: string }[]>`
      select id from bookings where series_id = ${seriesId} and id <> all(${ids}) order by starts_at`;
    expect(weeks.length).toBeGreaterThan(0);
    expect(typesOf(later)).toEqual(weeks.map((w) => `booking.created ${w.id}`));
    for (const e of later)
      expect(e).toMatchObject({
        personId: person.userId,
        actor: { kind: 'system', userId: null },
        operation: 'keep-series-booked',
        data: { by: 'client', booking: { seriesId, status: 'PENDING' } },
      });

    const cancelAt = await mark();
    const cancel = await server.post(
      `/v1/bookings/${ids[1]}/cancel`,
      { confirm: true, series: true },
      as(person.key),
    );
    expect(cancel.status).toBe(200);
    const cancelled = await since(cancelAt);
    expect(typesOf(cancelled)).toEqual(cancel.body.cancelled.map((id: string) => `booking.cancelled ${id}`));
    for (const e of cancelled)
      expect(e.data).toMatchObject({ by: 'client', refund: null, booking: { status: 'CANCELLED' } });
  });

  it('visits write one created per visit, of the one person', async () => {
    const at = await mark();
    const res = await server.post(
      '/v1/bookings',
      {
        category: 'sitting',
        addressId: person.addressId,
        pets: [{ petId: person.petId, serviceIds: ['sit-dropin-30'] }],
        visits: { startDate: '2026-12-01', days: 3, perDay: 2 },
        paymentMethod: 'CASH',
        confirm: true,
      },
      as(person.key),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.bookingIds).toHaveLength(6);
    const made = await since(at);
    expect(typesOf(made)).toEqual(res.body.bookingIds.map((id: string) => `booking.created ${id}`));
    for (const e of made)
      expect(e).toMatchObject({
        personId: person.userId,
        actor: { kind: 'person', userId: person.userId },
        data: { by: 'client', booking: { status: 'PENDING', paymentStatus: 'CASH_DUE' } },
      });
  });

  it('a lapsed hold writes booking.expired (by the system, through its job); money arriving after it is owed back (refund_due, not paid)', async () => {
    const { id } = await bookCard('2026-12-08');
    const at = await mark();
    const saved = clock.now();
    clock.set(new Date(saved.getTime() + 48 * HOUR + 1000));
    let expiredIds: string[] = [];
    try {
      // The worker's way: the job's internal operation, whose events the events check holds to its list.
      const ran = await runOperation(
        jobOperations.expireUnpaidHolds,
        {
          deps: server.service.runtime.deps,
          requestId: 'expire-test',
          clientName: null,
          auth: null,
          log: { info() {}, warn() {}, error() {} },
          principal: { kind: 'system', job: 'expire-unpaid-holds' },
        },
        {},
      );
      expect(ran.expired).toContain(id);
      expiredIds = ran.expired;
    } finally {
      clock.set(saved);
    }
    // Every hold that lapsed by then expires (earlier tests' too): one booking.expired each, nothing else.
    const lapsed = await since(at);
    expect(new Set(lapsed.map((e) => e.type))).toEqual(new Set(['booking.expired']));
    expect(lapsed.map((e) => e.subjectId).sort()).toEqual([...expiredIds].sort());
    const [expired, ...others] = lapsed.filter((e) => e.subjectId === id);
    expect(others).toEqual([]);
    expect(expired).toMatchObject({
      type: 'booking.expired',
      subjectId: id,
      personId: person.userId,
      actor: { kind: 'system', userId: null },
      operation: 'expire-unpaid-holds',
      data: { booking: { bookingId: id, status: 'EXPIRED', paymentStatus: 'VOID' } },
    });
    expect(expired!.callId).toEqual(expect.any(String));
    const afterExpiry = await mark();
    expect(await payInSandbox(server, id)).toBe(200);
    const [late, ...none] = await since(afterExpiry);
    expect(none).toEqual([]);
    expect(late).toMatchObject({
      type: 'booking.refund_due',
      subjectId: id,
      personId: person.userId,
      actor: { kind: 'system' },
      data: {
        refund: { amount: 39000, currency: 'ZAR' },
        booking: { status: 'EXPIRED', paymentStatus: 'REFUND_REQUESTED' },
      },
    });
  });

  describe('the business', () => {
    const times = async (date: string, resourceId = 'bp-van-2') => {
      const res = await server.post(
        '/v1/business/times',
        {
          pets: [{ petId: 'pet_bp_bongo', serviceIds: ['bp-groom-bath'] }],
          clientId: 'cli_bp_anele',
          from: date,
          to: date,
          resourceId,
        },
        as(owner.key),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.days[0].slots as { start: string; resourceId: string }[];
    };
    const act = (id: string, what: string, body: Record<string, unknown>) =>
      server.post(`/v1/business/bookings/${id}/${what}`, { ...body, confirm: true }, as(owner.key));
    const staff = () => ({ kind: 'staff', userId: owner.userId, clientName: ASSISTANT });

    it('books for a client, accepts, moves, cancels and books again: each its event, by the business, of the client', async () => {
      const [slot] = await times('2026-11-26');
      const at = await mark();
      const body = {
        client: { clientId: 'cli_bp_anele' },
        pets: [{ petId: 'pet_bp_bongo', serviceIds: ['bp-groom-bath'] }],
        address: { addressId: 'adr_bp_anele' },
        start: slot!.start,
        resourceId: slot!.resourceId,
        paymentMethod: 'CASH',
      };
      expect((await server.post('/v1/business/bookings', body, as(owner.key))).status).toBe(409);
      expect(await since(at)).toEqual([]);
      const made = await server.post('/v1/business/bookings', { ...body, confirm: true }, as(owner.key));
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const id = made.body.booking.bookingId;
      const [created, ...none] = await since(at);
      expect(none).toEqual([]);
      expect(created).toMatchObject({
        type: 'booking.created',
        subjectId: id,
        businessId: BP,
        personId: aneleId,
        actor: staff(),
        operation: 'bookForClient',
        data: {
          by: 'business',
          booking: {
            businessId: BP,
            status: 'PENDING',
            paymentMethod: 'CASH',
            paymentStatus: 'CASH_DUE',
          },
        },
      });

      // The same slot again: SLOT_TAKEN, nothing written.
      const takenAt = await mark();
      const taken = await server.post('/v1/business/bookings', { ...body, confirm: true }, as(owner.key));
      expect(taken.body.error?.code).toBe('SLOT_TAKEN');
      expect(await since(takenAt)).toEqual([]);

      const acceptAt = await mark();
      expect((await act(id, 'accept', {})).status).toBe(200);
      const [accepted] = await since(acceptAt);
      expect(accepted).toMatchObject({
        type: 'booking.accepted',
        subjectId: id,
        businessId: BP,
        personId: aneleId,
        actor: staff(),
        data: { message: null, booking: { status: 'ACCEPTED', paymentStatus: 'CASH_DUE' } },
      });
      // Accepting again changes nothing and writes nothing.
      const twiceAt = await mark();
      expect((await act(id, 'accept', {})).status).toBe(200);
      expect(await since(twiceAt)).toEqual([]);

      const [to] = await times('2026-11-27');
      const moveAt = await mark();
      const moved = await act(id, 'move', {
        start: to!.start,
        resourceId: to!.resourceId,
        reason: 'The van is in for service.',
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      const [move, ...noMore] = await since(moveAt);
      expect(noMore).toEqual([]);
      expect(move).toMatchObject({
        type: 'booking.moved',
        subjectId: id,
        businessId: BP,
        personId: aneleId,
        actor: staff(),
        operation: 'moveBooking',
        data: {
          by: 'business',
          message: 'The van is in for service.',
          from: {
            start: created!.data.booking.start,
            end: created!.data.booking.end,
            resourceId: 'bp-van-2',
          },
          booking: { status: 'ACCEPTED', resourceId: to!.resourceId },
        },
      });
      expect(Date.parse(move!.data.booking.start)).toBe(Date.parse(to!.start));

      const cancelAt = await mark();
      expect((await act(id, 'cancel', { reason: 'Our groomer is ill.' })).status).toBe(200);
      const cancelled = await since(cancelAt);
      expect(typesOf(cancelled)).toEqual([`booking.cancelled ${id}`]);
      expect(cancelled[0]).toMatchObject({
        businessId: BP,
        personId: aneleId,
        actor: staff(),
        data: {
          by: 'business',
          message: 'Our groomer is ill.',
          refund: null,
          booking: { status: 'CANCELLED', paymentStatus: 'VOID' },
        },
      });

      const [again] = await times('2026-12-03');
      const rebookAt = await mark();
      const rebooked = await act(id, 'rebook', { start: again!.start });
      expect(rebooked.status, JSON.stringify(rebooked.body)).toBe(201);
      const newId = rebooked.body.booking.bookingId;
      const [re, ...rest] = await since(rebookAt);
      expect(rest).toEqual([]);
      expect(re).toMatchObject({
        type: 'booking.created',
        subjectId: newId,
        businessId: BP,
        personId: aneleId,
        actor: staff(),
        operation: 'rebookBooking',
        data: { by: 'business', booking: { status: 'PENDING', paymentMethod: 'CASH' } },
      });

      // NogPets' operator accepts it from the CLI: accepted, by the operator.
      const cliAt = await mark();
      const done = await cli(server.db.url, ['booking', 'accept', newId]);
      expect(done.status, done.stderr).toBe(0);
      const [byOperator, ...noOther] = await since(cliAt);
      expect(noOther).toEqual([]);
      expect(byOperator).toMatchObject({
        type: 'booking.accepted',
        subjectId: newId,
        businessId: BP,
        personId: aneleId,
        actor: { kind: 'operator', userId: null },
        operation: 'booking.accept',
        data: { message: null, booking: { status: 'ACCEPTED' } },
      });
    });

    it('declines a paid booking: declined with the reason and the refund, and refund_due beside it', async () => {
      const [row] = await server.db.sql<{ id: string; totalCents: number; userId: string | null }[]>`
        select id, total_cents as "totalCents", user_id as "userId" from bookings
        where business_id = ${BP} and status = 'ACCEPTED' and payment_method = 'CARD' and payment_status = 'PAID'
          and starts_at > ${new Date(clock.now().getTime() + 24 * HOUR)}
        order by starts_at, id limit 1`;
      // As when its client moved it: waiting for the business again.
      await server.db.sql`update bookings set status = 'PENDING' where id = ${row!.id}`;
      const at = await mark();
      const res = await act(row!.id, 'decline', { reason: 'Both vans are in for service.' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const events = await since(at);
      expect(typesOf(events)).toEqual([`booking.declined ${row!.id}`, `booking.refund_due ${row!.id}`]);
      const refund = { amount: row!.totalCents, currency: 'ZAR' };
      for (const e of events)
        expect(e).toMatchObject({
          businessId: BP,
          personId: row!.userId,
          actor: staff(),
          operation: 'declineBooking',
          data: { refund, booking: { status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' } },
        });
      expect(events[0]!.data.message).toBe('Both vans are in for service.');
      // Declining it again is refused and writes nothing.
      const again = await mark();
      expect((await act(row!.id, 'decline', { reason: 'Again.' })).status).toBe(409);
      expect(await since(again)).toEqual([]);
    });
  });

  it("a shop order's card payment settles: order.paid, of the order and its buyer", async () => {
    const buyer = await newBuyer(server, 'events-buyer@example.com');
    const bought = await server.post(
      '/v1/orders',
      courierOrder([{ productId: 'dental-treats', qty: 1 }]),
      as(buyer.key),
    );
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const orderId = bought.body.orderId;
    const [order] = await server.db.sql<{ businessId: string }[]>`
      select business_id as "businessId" from orders where id = ${orderId}`;
    const at = await mark();
    expect(await payOrderLink(server, bought.body.payUrl)).toBe(303);
    const [paid, ...none] = await since(at);
    expect(none).toEqual([]);
    expect(paid).toMatchObject({
      type: 'order.paid',
      subjectKind: 'order',
      subjectId: orderId,
      businessId: order!.businessId,
      personId: buyer.userId,
      actor: { kind: 'system' },
      data: { order: { orderId, paymentMethod: 'CARD', paymentStatus: 'PAID', total: { currency: 'ZAR' } } },
    });
  });
});
