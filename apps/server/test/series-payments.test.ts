import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cli,
  notifySandbox,
  openPayment,
  payInSandbox,
  signSandboxNotice,
  newPetOwner,
  startTestServer,
  type TestServer,
} from './harness.js';

const NOW = '2026-11-23T04:00:00Z'; // Monday 06:00 in Johannesburg

/** A weekly series booked by card has one pay link for all its weeks; a week may also be paid through its own link. */
describe('payments of a weekly series', () => {
  let server: TestServer;
  const clock = fixedClock(NOW);
  let key: string;
  let petId: string;
  let addressId: string;
  const as = () => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    ({ key, petId, addressId } = await newPetOwner(server, {
      email: 'thandi@example.com',
      pet: { name: 'Bongo', weightKg: 14 },
      line1: '3 Dorp Street',
    }));
  });
  afterAll(() => server?.stop());

  const walking = () => ({ category: 'walking', addressId, pets: [{ petId, serviceIds: ['walk-solo-30'] }] });
  const state = async (id: string) => (await server.get(`/v1/bookings/${id}`, as())).body;
  const refundsDue = (ids: string[]) =>
    server.db.sql<{ id: string; bookingIds: string[]; amount: number; gatewayRef: string; status: string }[]>`
      select id, booking_ids as "bookingIds", amount_cents as amount, gateway_ref as "gatewayRef", status from payments
      where status in ('REFUND_DUE', 'REFUNDED') and booking_ids && ${ids} order by id`;

  /** A card walk every `day` from `date` (a weekday of that name): its ids (at least 3 weeks), pay link and shared payment. */
  async function series(date: string, day: string) {
    const found = await server.post('/v1/availability', { ...walking(), from: date, to: date }, as());
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    const slot = found.body.days[0].slots[0];
    const res = await server.post(
      '/v1/bookings',
      {
        ...walking(),
        start: slot.start,
        resourceId: slot.resourceId,
        paymentMethod: 'CARD',
        repeat: { freq: 'WEEKLY', days: [day] },
      },
      as(),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const ids = res.body.bookingIds as string[];
    expect(ids.length).toBeGreaterThanOrEqual(3);
    const shared = await openPayment(server, ids[0]!);
    const weeks = await Promise.all(ids.map(state));
    expect(shared.amount).toBe(weeks.reduce((sum, w) => sum + w.totalCents, 0));
    return { ids, weeks, payUrl: res.body.payUrl as string, shared };
  }
  /** The gateway confirms a payment of `shared` (a checkout the person began before): the notify endpoint's status. */
  const payShared = async (shared: { id: string; amount: number }, gatewayRef: string) =>
    notifySandbox(
      server,
      await signSandboxNotice(server, {
        paymentId: shared.id,
        gatewayRef,
        amountCents: shared.amount,
        outcome: 'COMPLETE',
      }),
    );

  it('pays the other weeks when the shared link is paid after one week was paid through its own, and owes back only that week', async () => {
    const { ids, weeks, shared } = await series('2026-11-24', 'tue');
    const own = await server.post(`/v1/bookings/${ids[0]}/pay`, {}, as());
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.totalCents).toBe(weeks[0].totalCents);
    expect(await payInSandbox(server, ids[0]!)).toBe(200);
    expect(await state(ids[0]!)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });

    // The person had begun paying the series' link at the gateway too, and finishes there.
    expect(await payShared(shared, 'sbx_series_tue')).toBe(200);
    for (const id of ids)
      expect(await state(id)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
    expect((await server.db.sql`select status from payments where id = ${shared.id}`)[0]!.status).toBe(
      'PAID',
    );
    const owed = await refundsDue(ids);
    expect(owed).toEqual([
      {
        id: expect.stringMatching(/^pay_/),
        bookingIds: [ids[0]],
        amount: weeks[0].totalCents,
        gatewayRef: 'sbx_series_tue',
        status: 'REFUND_DUE',
      },
    ]);
    const [notice] = await server.db
      .sql`select state, outcome from payment_notices where gateway_ref = 'sbx_series_tue'`;
    expect(notice).toMatchObject({
      state: 'DONE',
      outcome: expect.stringContaining(`owed back as ${owed[0]!.id}`),
    });
    // A replay changes nothing more.
    expect(await payShared(shared, 'sbx_series_tue')).toBe(200);
    expect(await refundsDue(ids)).toHaveLength(1);

    // The operator sees exactly that week's amount against the gateway's reference, and closes it.
    const list = await cli(server.db.url, ['refund', 'list']);
    const line = list.stdout.split('\n').find((l) => l.startsWith(owed[0]!.id));
    expect(line?.split('\t')).toEqual([
      owed[0]!.id,
      'REFUND_DUE',
      weeks[0].total,
      'sandbox sbx_series_tue',
      `paid twice: ${ids[0]}`,
    ]);
    const done = await cli(server.db.url, ['refund', 'done', owed[0]!.id, '--note', 'partial refund 55']);
    expect(done.status, done.stderr).toBe(0);
    expect((await refundsDue(ids))[0]!.status).toBe('REFUNDED');
    for (const id of ids) expect(await state(id)).toMatchObject({ paymentStatus: 'PAID' });
  });

  it('leaves a week cancelled meanwhile to the late-money rule while the others are paid and the week paid twice is owed back', async () => {
    const { ids, weeks, shared } = await series('2026-11-26', 'thu');
    expect((await server.post(`/v1/bookings/${ids[0]}/pay`, {}, as())).status).toBe(200);
    expect(await payInSandbox(server, ids[0]!)).toBe(200);
    expect((await server.post(`/v1/bookings/${ids[1]}/cancel`, { confirm: true }, as())).status).toBe(200);

    expect(await payShared(shared, 'sbx_series_thu')).toBe(200);
    expect(await state(ids[0]!)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
    expect(await state(ids[1]!)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' });
    for (const id of ids.slice(2))
      expect(await state(id)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
    expect(await refundsDue(ids)).toEqual([
      expect.objectContaining({
        bookingIds: [ids[0]],
        amount: weeks[0].totalCents,
        gatewayRef: 'sbx_series_thu',
        status: 'REFUND_DUE',
      }),
    ]);
  });

  it('gives one week of a series a link of its own while the shared link keeps working for the other weeks, without it', async () => {
    const { ids, weeks, payUrl, shared } = await series('2026-11-25', 'wed');
    const holdBefore = (await state(ids[2]!)).holdUntil;
    const own = await server.post(`/v1/bookings/${ids[1]}/pay`, {}, as());
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.totalCents).toBe(weeks[1].totalCents);
    expect(own.body.payUrl).not.toBe(payUrl);
    expect(own.body.next).toContain('still works for them and no longer includes this one');

    // The link the person already has still opens, for the other weeks only.
    const page = await fetch(payUrl);
    expect(page.status).toBe(200);
    const text = await page.text();
    for (const [i, w] of weeks.entries()) {
      if (i === 1) expect(text).not.toContain(w.when);
      else expect(text).toContain(w.when);
    }
    const rest = await openPayment(server, ids[0]!);
    expect(rest.amount).toBe(shared.amount - weeks[1].totalCents);
    expect((await openPayment(server, ids[1]!)).amount).toBe(weeks[1].totalCents);
    expect((await state(ids[2]!)).holdUntil).toBe(holdBefore);

    // Paid through that page (as its TEST button posts), then the week through its own link: nothing twice.
    const posted = await fetch(`${payUrl}/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=pay',
      redirect: 'manual',
    });
    expect(posted.status).toBe(303);
    await posted.body?.cancel();
    for (const [i, id] of ids.entries())
      expect(await state(id)).toMatchObject(
        i === 1
          ? { status: 'PENDING', paymentStatus: 'PENDING', canPay: true }
          : { status: 'ACCEPTED', paymentStatus: 'PAID' },
      );
    expect(await payInSandbox(server, ids[1]!)).toBe(200);
    for (const id of ids)
      expect(await state(id)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
    expect(await refundsDue(ids)).toEqual([]);
    const after = await fetch(payUrl);
    expect(after.status).toBe(200);
    expect(await after.text()).toContain('This is paid');
  });

  it('still settles a checkout begun on the shared link before one week got its own link, for every week it was for', async () => {
    const { ids, shared, weeks } = await series('2026-11-27', 'fri');
    expect((await server.post(`/v1/bookings/${ids[1]}/pay`, {}, as())).status).toBe(200);
    // The gateway echoes the payment and amount of the page the person opened earlier.
    expect(await payShared(shared, 'sbx_series_fri')).toBe(200);
    for (const id of ids)
      expect(await state(id)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
    expect(await refundsDue(ids)).toEqual([]);
    // The week's own link has nothing left to ask for; paid anyway (an open tab), it is owed back whole.
    const week = await openPayment(server, ids[1]!);
    expect(week.amount).toBe(weeks[1].totalCents);
    expect(
      await notifySandbox(
        server,
        await signSandboxNotice(server, {
          paymentId: week.id,
          gatewayRef: 'sbx_week_fri',
          amountCents: week.amount,
          outcome: 'COMPLETE',
        }),
      ),
    ).toBe(200);
    expect(await refundsDue(ids)).toEqual([
      {
        id: week.id,
        bookingIds: [ids[1]],
        amount: weeks[1].totalCents,
        gatewayRef: 'sbx_week_fri',
        status: 'REFUND_DUE',
      },
    ]);
  });
});
