import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPetOwner, startTestServer, type TestServer } from './harness.js';

const NOW = '2026-11-23T04:00:00Z'; // Monday 06:00 in Johannesburg

/**
 * Moving sitting bookings: a stay is one booking for the sitter's whole span and moves
 * whole, every night re-planned on the new dates (bookings and time off across the span, one sitter
 * throughout); a visit is one booking and moves as its own slot. Dates avoid public holidays.
 */
describe('moving a stay or a visit', () => {
  let server: TestServer;
  const clock = fixedClock(NOW);
  let key: string;
  let petId: string;
  let addressId: string;
  const as = () => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    ({ key, petId, addressId } = await newPetOwner(server, {
      email: 'thandeka@example.com',
      pet: { name: 'Kwezi', weightKg: 12 },
      line1: '9 Bird Street',
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const sitting = (serviceId: string) => ({
    category: 'sitting',
    addressId,
    pets: [{ petId, serviceIds: [serviceId] }],
    paymentMethod: 'CARD',
  });
  async function bookStay(startDate: string, nights: number) {
    const res = await server.post(
      '/v1/bookings',
      { ...sitting('sit-overnight'), stay: { startDate, nights } },
      as(),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return (await server.get(`/v1/bookings/${res.body.bookingId}`, as())).body;
  }
  const times = (id: string, from: string, to: string) =>
    server.post(`/v1/bookings/${id}/times`, { from, to }, as());
  const move = (id: string, body: Record<string, unknown>) =>
    server.post(`/v1/bookings/${id}/reschedule`, body, as());
  const booking = async (id: string) => (await server.get(`/v1/bookings/${id}`, as())).body;
  type Slot = { start: string; time: string; resourceId: string; end?: string; when?: string };
  const slotsOn = (body: { days: { date: string; slots: Slot[] }[] }, date: string) =>
    body.days.find((d) => d.date === date)!.slots;

  it('moves a stay whole to free dates: the same nights, the end moves with it, price and sitter kept', async () => {
    const stay = await bookStay('2027-01-04', 3);
    expect(stay).toMatchObject({ start: '2027-01-04T15:30:00.000Z', end: '2027-01-07T05:30:00.000Z' });
    // One stay, one card fee in its total.
    expect(stay).toMatchObject({ cardFeeCents: 1000, totalCents: 3 * 38000 + 1000 });

    const offered = await times(stay.id, '2027-01-11', '2027-01-11');
    expect(offered.status, JSON.stringify(offered.body)).toBe(200);
    // What each start means for a stay: one night lasts 17:30 to 07:30, and the whole span is said.
    expect(offered.body).toMatchObject({
      bookingId: stay.id,
      durationMin: 840,
      mode: 'STAY',
      stay: { nights: 3, arriveAt: '17:30', leaveAt: '07:30' },
    });
    const slot = slotsOn(offered.body, '2027-01-11').find((s) => s.resourceId === stay.resourceId)!;
    expect(slot).toEqual({
      start: '2027-01-11T15:30:00.000Z',
      time: '17:30',
      resourceId: stay.resourceId,
      end: '2027-01-14T05:30:00.000Z',
      when: 'Mon, 11 Jan 2027 17:30 to Thu, 14 Jan 07:30',
    });

    const moved = await move(stay.id, { start: slot.start });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({
      start: slot.start,
      resourceId: stay.resourceId,
      when: slot.when,
      status: 'PENDING',
    });
    expect(await booking(stay.id)).toMatchObject({
      start: slot.start,
      end: slot.end,
      resourceId: stay.resourceId,
      totalCents: stay.totalCents,
      paymentStatus: 'PENDING',
    });
  });

  it('refuses to move a stay onto dates where the second night is taken on every sitter, and offers only starts where the whole stay fits', async () => {
    const stay = await bookStay('2027-01-18', 3);
    // Both sitters are booked for the night of Tuesday 26 January.
    const blockers = [await bookStay('2027-01-26', 1), await bookStay('2027-01-26', 1)];
    expect(new Set(blockers.map((b) => b.resourceId)).size).toBe(2);

    const offered = await times(stay.id, '2027-01-24', '2027-01-27');
    expect(offered.status, JSON.stringify(offered.body)).toBe(200);
    // Arriving the 24th, 25th or 26th would need a sitter on the night of the 26th.
    for (const date of ['2027-01-24', '2027-01-25', '2027-01-26'])
      expect(slotsOn(offered.body, date), date).toEqual([]);
    expect(
      slotsOn(offered.body, '2027-01-27')
        .map((s) => s.resourceId)
        .sort(),
    ).toEqual(['sitter-1', 'sitter-2']);
    expect(slotsOn(offered.body, '2027-01-27')[0]).toMatchObject({
      time: '17:30',
      end: '2027-01-30T05:30:00.000Z',
    });

    // The first night (the 25th) is free on both sitters: only the second one is taken.
    const refused = await move(stay.id, { start: '2027-01-25T15:30:00.000Z' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.error.code).toBe('NO_AVAILABILITY');
    expect(refused.body.error.message).toMatch(
      /No sitter is free for every night of the stay \(3 nights from 2027-01-25 .*2027-01-28.*\).*find_reschedule_times/,
    );
    expect(refused.body.error.details).toMatchObject({ reason: 'FULLY_BOOKED', alternatives: [] });
    expect(refused.body.error.details.unplanned).toHaveLength(3);
    const named = await move(stay.id, { start: '2027-01-25T15:30:00.000Z', resourceId: stay.resourceId });
    expect(named.status).toBe(409);
    expect(named.body.error.code).toBe('NO_AVAILABILITY');
    expect(await booking(stay.id)).toMatchObject({
      start: stay.start,
      end: stay.end,
      resourceId: stay.resourceId,
      status: 'PENDING',
    });
  });

  it('re-plans a moved stay onto the sitter free for every night when its own is taken on the second', async () => {
    const stay = await bookStay('2027-02-01', 3);
    const blocker = await bookStay('2027-02-09', 1);
    expect(blocker.resourceId).toBe(stay.resourceId);
    const other = stay.resourceId === 'sitter-1' ? 'sitter-2' : 'sitter-1';

    const offered = await times(stay.id, '2027-02-08', '2027-02-08');
    expect(slotsOn(offered.body, '2027-02-08').map((s) => s.resourceId)).toEqual([other]);

    // Asked for its own sitter: that sitter is not free on the 9th, another is.
    const named = await move(stay.id, { start: '2027-02-08T15:30:00.000Z', resourceId: stay.resourceId });
    expect(named.status, JSON.stringify(named.body)).toBe(409);
    expect(named.body.error.code).toBe('SLOT_TAKEN');
    expect(named.body.error.message).toMatch(
      /not free for every night of the stay.*another sitter is.*find_reschedule_times/,
    );
    expect((await booking(stay.id)).start).toBe(stay.start);

    const moved = await move(stay.id, { start: '2027-02-08T15:30:00.000Z' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.resourceId).toBe(other);
    expect(await booking(stay.id)).toMatchObject({
      start: '2027-02-08T15:30:00.000Z',
      end: '2027-02-11T05:30:00.000Z',
      resourceId: other,
    });
  });

  it("checks the sitters' time off across the whole span of a moved stay", async () => {
    const stay = await bookStay('2027-03-01', 3);
    // Both sitters are off the night of Tuesday 9 March (17:00 to 09:00 local), not on the 8th.
    for (const id of ['sitter-1', 'sitter-2']) {
      await server.db.sql`insert into time_off (id, business_id, resource_id, starts_at, ends_at, reason)
        values (${`off-${id}`}, 'nogpets', ${id}, '2027-03-09T15:00:00Z', '2027-03-10T07:00:00Z', 'Away for the test')`;
    }
    try {
      const offered = await times(stay.id, '2027-03-08', '2027-03-10');
      expect(offered.status, JSON.stringify(offered.body)).toBe(200);
      for (const date of ['2027-03-08', '2027-03-09']) expect(slotsOn(offered.body, date), date).toEqual([]);
      expect(slotsOn(offered.body, '2027-03-10')).toHaveLength(2);

      const refused = await move(stay.id, { start: '2027-03-08T15:30:00.000Z' });
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(refused.body.error.code).toBe('NO_AVAILABILITY');
      expect(await booking(stay.id)).toMatchObject({ start: stay.start, end: stay.end });

      // A start that is not an arrival of this stay is not an open time.
      const odd = await move(stay.id, { start: '2027-03-10T08:00:00Z' });
      expect(odd.status).toBe(400);
      expect(odd.body.error.message).toMatch(/arrives at 17:30/);
    } finally {
      await server.db.sql`delete from time_off where id in ('off-sitter-1', 'off-sitter-2')`;
    }
  });

  it('moves one visit as its own slot: its duration, the other visits counted', async () => {
    const res = await server.post(
      '/v1/bookings',
      { ...sitting('sit-dropin-30'), visits: { startDate: '2027-04-05', days: 1, perDay: 2 } },
      as(),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [morning, evening] = await Promise.all(res.body.bookingIds.map(booking));
    expect(morning.resourceId).toBe(evening.resourceId);
    // Visits are one booking for the person: the card fee is in the first visit's total alone.
    expect([morning.cardFeeCents, evening.cardFeeCents]).toEqual([1000, 0]);
    expect(morning.totalCents - evening.totalCents).toBe(1000);
    // Visits stored before the fee was recorded on each still say it once.
    await server.db
      .sql`update bookings set details = details - 'cardFeeCents' where id = any(${res.body.bookingIds})`;
    const stored = await Promise.all(res.body.bookingIds.map(booking));
    expect(stored.map((b: { cardFeeCents: number }) => b.cardFeeCents)).toEqual([1000, 0]);

    const offered = await times(evening.id, '2027-04-05', '2027-04-05');
    expect(offered.status, JSON.stringify(offered.body)).toBe(200);
    expect(offered.body.durationMin).toBe(30);
    expect(offered.body.mode).toBeUndefined();
    const slots = slotsOn(offered.body, '2027-04-05');
    // The morning visit still holds its sitter; the evening visit's own time does not block.
    expect(slots).not.toContainEqual(
      expect.objectContaining({ start: morning.start, resourceId: morning.resourceId }),
    );
    expect(slots).toContainEqual(
      expect.objectContaining({ start: evening.start, resourceId: evening.resourceId }),
    );
    expect(slots.every((s) => s.end === undefined)).toBe(true);

    const clash = await move(evening.id, { start: morning.start, resourceId: morning.resourceId });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('SLOT_TAKEN');

    const target = slots.find((s) => s.time === '12:00' && s.resourceId === evening.resourceId)!;
    const moved = await move(evening.id, { start: target.start, resourceId: target.resourceId });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await booking(evening.id)).toMatchObject({
      start: target.start,
      end: new Date(Date.parse(target.start) + 30 * 60_000).toISOString(),
    });
    expect(await booking(morning.id)).toMatchObject({ start: morning.start, end: morning.end });
  });
});
