// The day-before reminder: the worker's remind-bookings job writes `booking.reminder_due` for a
// confirmed booking at 18:00 in the business's zone the evening before, once per start (a booking
// moved to another day is reminded again), never for an unpaid, cancelled or freshly made one; a
// person who turned reminders off is not mailed one, yet still gets a cancellation by the business.
import { accountPageContext, jobOperations, pageOperations, runOperation } from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { appendEvents, eventReaderLag, findUserByEmail, listEvents } from '@nogpets/store';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, newPetOwner, payInSandbox, startTestServer, type TestServer } from './harness.js';
import { courierOrder, newBuyer } from './shop-fixture.js';

const HOUR = 3_600_000;

describe('the day-before reminder', () => {
  let server: TestServer;
  const clock = fixedClock('2026-11-23T04:00:00Z'); // Monday 06:00 in Johannesburg
  let person: { key: string; petId: string; addressId: string };
  const as = () => ({ authorization: `Bearer ${person.key}` });
  const grooming = () => ({
    category: 'grooming',
    addressId: person.addressId,
    pets: [{ petId: person.petId, serviceIds: ['groom-dog-bath'] }],
  });

  async function slot(date: string, nth = 0) {
    const res = await server.post('/v1/availability', { ...grooming(), from: date, to: date }, as());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.days[0].slots[nth] as { start: string; resourceId: string };
  }
  async function book(date: string, nth = 0, pay = true) {
    const s = await slot(date, nth);
    const res = await server.post(
      '/v1/bookings',
      { ...grooming(), start: s.start, resourceId: s.resourceId, paymentMethod: 'CARD' },
      as(),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.bookingId as string;
    if (pay) expect(await payInSandbox(server, id)).toBe(200);
    return { id, start: s.start };
  }
  /** The worker's job, run as the worker runs it. */
  const remind = async () =>
    (
      await runOperation(
        jobOperations.remindBookingsDue,
        {
          deps: server.service.runtime.deps,
          requestId: 'reminders-test',
          clientName: null,
          auth: null,
          log: { info() {}, warn() {}, error() {} },
          principal: { kind: 'system', job: 'remind-bookings' },
        },
        {},
      )
    ).reminded;
  /** The worker's pass that makes mails of the events. */
  const dispatch = () =>
    runOperation(
      jobOperations.dispatchNotices,
      {
        deps: server.service.runtime.deps,
        requestId: 'reminders-test',
        clientName: null,
        auth: null,
        log: { info() {}, warn() {}, error() {} },
        principal: { kind: 'system', job: 'dispatch-notices' },
      },
      {},
    );
  const mailsOf = (to: string, kind: string) =>
    server.db.sql<{ subject: string; optional: boolean; headers: Record<string, string>; body: string }[]>`
      select subject, optional, headers, body from mail_outbox where to_address = ${to} and kind = ${kind}`;
  const remindersOf = (id: string) =>
    listEvents(server.db.sql, { subjectId: id, types: ['booking.reminder_due'] });

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    person = await newPetOwner(server, {
      email: 'reminders-lindiwe@example.com',
      pet: { name: 'Bobo', weightKg: 9 },
      line1: '3 Andringa Street',
    });
  }, 60_000);
  afterAll(() => server?.stop());

  it('reminds a paid booking at 18:00 Johannesburg time the evening before, once, with until when it can change', async () => {
    const paid = await book('2026-11-25');
    const unpaid = await book('2026-11-25', 1, false);
    const cancelled = await book('2026-11-25', 2);
    expect((await server.post(`/v1/bookings/${cancelled.id}/cancel`, { confirm: true }, as())).status).toBe(
      200,
    );
    // The demo's own bookings due now are reminded; none of these yet.
    expect(await remind()).not.toEqual(expect.arrayContaining([paid.id]));
    // Tuesday 17:59 in Johannesburg: not yet.
    clock.set(new Date('2026-11-24T15:59:00Z'));
    expect(await remind()).not.toContain(paid.id);
    clock.set(new Date('2026-11-24T16:00:00Z'));
    // Two workers at once: one reminder.
    const [one, two] = await Promise.all([remind(), remind()]);
    const mine = [paid.id, unpaid.id, cancelled.id];
    expect([...one, ...two].filter((id) => mine.includes(id))).toEqual([paid.id]);
    expect(await remind()).toEqual([]);
    const [event, ...more] = await remindersOf(paid.id);
    expect(more).toEqual([]);
    const start = new Date(paid.start);
    expect(event).toMatchObject({
      type: 'booking.reminder_due',
      actor: { kind: 'system' },
      operation: 'remind-bookings',
      data: {
        booking: {
          bookingId: paid.id,
          status: 'ACCEPTED',
          paymentStatus: 'PAID',
          timeZone: 'Africa/Johannesburg',
        },
        changeUntil: new Date(start.getTime() - 12 * HOUR).toISOString(),
      },
    });
    expect(await remindersOf(unpaid.id)).toEqual([]);
    expect(await remindersOf(cancelled.id)).toEqual([]);
    // The mail made of it: one, to the person, optional with a one-click unsubscribe.
    // The pass reads an event once every transaction older than its own has ended (another test's
    // open one may hold it back a moment): wait for the mail, then pass again (nothing more comes).
    await expect
      .poll(
        async () => {
          await dispatch();
          return (await mailsOf('reminders-lindiwe@example.com', 'booking_reminder')).length;
        },
        { timeout: 60_000 },
      )
      .toBe(1);
    await dispatch();
    const [mail, ...others] = await mailsOf('reminders-lindiwe@example.com', 'booking_reminder');
    expect(others).toEqual([]);
    expect(mail!.subject).toMatch(/^Tomorrow: .* with .*, Wed/);
    expect(mail!.optional).toBe(true);
    expect(mail!.headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(mail!.body).toMatch(/until .* \(Africa\/Johannesburg time\)/);
  });

  it('reminds a booking moved to another day again, for its new start', async () => {
    clock.set(new Date('2026-11-24T16:30:00Z'));
    const booked = await book('2026-11-27');
    clock.set(new Date('2026-11-26T16:00:00Z'));
    expect(await remind()).toContain(booked.id);
    const to = await slot('2026-12-01');
    const moved = await server.post(
      `/v1/bookings/${booked.id}/reschedule`,
      { start: to.start, resourceId: to.resourceId },
      as(),
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    // Moved, it waits for the business to accept the new time: no reminder while it is not confirmed.
    expect(moved.body.status).toBe('PENDING');
    clock.set(new Date('2026-11-30T16:00:00Z'));
    expect(await remind()).not.toContain(booked.id);
    const accepted = await cli(server.db.url, ['booking', 'accept', booked.id]);
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(await remind()).toContain(booked.id);
    expect(
      (await remindersOf(booked.id)).map((e) => (e.data as { booking: { start: string } }).booking.start),
    ).toEqual([new Date(booked.start).toISOString(), new Date(to.start).toISOString()]);
  });

  it('does not remind a booking made in the six hours before its reminder time', async () => {
    clock.set(new Date('2026-12-01T11:00:00Z')); // Tuesday 13:00: the reminder would be at 18:00
    const late = await book('2026-12-02');
    clock.set(new Date('2026-12-01T16:00:00Z'));
    expect(await remind()).not.toContain(late.id);
    expect(await remindersOf(late.id)).toEqual([]);
  });

  it('tells the person 6 hours before an unpaid card booking or order lapses, once per deadline', async () => {
    const remindPay = async () =>
      runOperation(
        jobOperations.remindUnpaidLinks,
        {
          deps: server.service.runtime.deps,
          requestId: 'reminders-test',
          clientName: null,
          auth: null,
          log: { info() {}, warn() {}, error() {} },
          principal: { kind: 'system', job: 'remind-payments' },
        },
        {},
      );
    clock.set(new Date('2026-12-01T16:00:00Z'));
    const unpaid = await book('2026-12-04', 0, false); // its link lapses in 48 hours: 3 December 16:00 UTC
    const paid = await book('2026-12-04', 1);
    const buyer = await newBuyer(server, 'reminders-buyer@example.com');
    const bought = await server.post('/v1/orders', courierOrder([{ productId: 'cat-brush', qty: 1 }]), {
      authorization: `Bearer ${buyer.key}`,
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const orderId = bought.body.orderId as string; // its link lapses in 24 hours: 2 December 16:00 UTC
    expect(await remindPay()).toEqual({ bookings: [], orders: [] });
    clock.set(new Date('2026-12-02T09:59:00Z'));
    expect(await remindPay()).toEqual({ bookings: [], orders: [] });
    clock.set(new Date('2026-12-02T10:00:00Z'));
    const [a, b] = await Promise.all([remindPay(), remindPay()]);
    expect([...a.orders, ...b.orders]).toEqual([orderId]);
    expect([...a.bookings, ...b.bookings]).toEqual([]);
    clock.set(new Date('2026-12-03T10:00:00Z'));
    expect(await remindPay()).toEqual({ bookings: [unpaid.id], orders: [] });
    expect(await remindPay()).toEqual({ bookings: [], orders: [] });
    const [event] = await listEvents(server.db.sql, { subjectId: unpaid.id, types: ['booking.payment_due'] });
    expect(event).toMatchObject({
      personId: expect.stringMatching(/^usr_/),
      data: {
        payUntil: '2026-12-03T16:00:00.000Z',
        booking: { bookingId: unpaid.id, paymentStatus: 'PENDING' },
      },
    });
    // Nothing about the pay link itself is in the event (a business's webhook reads it too).
    expect(JSON.stringify(event!.data)).not.toMatch(/token|\/pay\//);
    expect(await listEvents(server.db.sql, { subjectId: paid.id, types: ['booking.payment_due'] })).toEqual(
      [],
    );
    const [told] = await listEvents(server.db.sql, { subjectId: orderId, types: ['order.payment_due'] });
    expect(told).toMatchObject({ data: { payUntil: '2026-12-02T16:00:00.000Z', order: { orderId } } });
    await expect
      .poll(
        async () => {
          await dispatch();
          return (await mailsOf('reminders-buyer@example.com', 'order_pay_soon')).length;
        },
        { timeout: 60_000 },
      )
      .toBe(1);
    await expect
      .poll(
        async () => {
          await dispatch();
          return (await mailsOf('reminders-lindiwe@example.com', 'booking_pay_soon')).length;
        },
        { timeout: 60_000 },
      )
      .toBe(1);
    expect(
      (await mailsOf('reminders-lindiwe@example.com', 'booking_pay_soon')).map((m) => m.subject),
    ).toEqual([expect.stringMatching(/^Pay by .*18:00 \(Africa\/Johannesburg time\) to keep your booking/)]);
  });

  it('an event no template can render is skipped and counted; the pass goes on and the next event is mailed', async () => {
    const [mine] = await server.db.sql<{ id: string }[]>`
      select id from users where email = 'reminders-lindiwe@example.com'`;
    const first = (
      await listEvents(server.db.sql, { types: ['booking.reminder_due'], personId: mine!.id })
    )[0];
    const { businessId } = first!;
    const [row] = await server.db.sql<{ timezone: string }[]>`
      select timezone from businesses where id = ${businessId}`;
    const timezone = row!.timezone;
    // A zone Intl does not know: every time in the mail throws.
    await server.db.sql`update businesses set timezone = 'Mars/Olympus' where id = ${businessId}`;
    try {
      await appendEvents(server.db.sql, [{ ...first!, id: undefined, callId: null }]);
      await expect
        .poll(async () => (await dispatch()).skipped, { timeout: 60_000 })
        .toBeGreaterThanOrEqual(1);
    } finally {
      await server.db.sql`update businesses set timezone = ${timezone} where id = ${businessId}`;
    }
    // The reader moved past it: an event written after it is mailed.
    const before = (await mailsOf('reminders-lindiwe@example.com', 'booking_reminder')).length;
    await appendEvents(server.db.sql, [{ ...first!, id: undefined, callId: null }]);
    await expect
      .poll(
        async () => (
          await dispatch(), (await mailsOf('reminders-lindiwe@example.com', 'booking_reminder')).length
        ),
        {
          timeout: 60_000,
        },
      )
      .toBe(before + 1);
  }, 150_000);

  it('a person who turned reminders off gets none, yet a cancellation by the business still reaches them', async () => {
    const email = 'reminders-off-sipho@example.com';
    clock.set(new Date('2026-12-14T04:00:00Z'));
    const sipho = await newPetOwner(server, {
      email,
      pet: { name: 'Kwezi', weightKg: 12 },
      line1: '9 Dorp Street',
    });
    const user = (await findUserByEmail(server.db.sql, email))!;
    const call = { requestId: 'reminders-off', log: { info() {}, warn() {}, error() {} } };
    // As the /account page's Mail section does it.
    await runOperation(
      pageOperations.setNoticeChoices,
      accountPageContext(server.service.runtime.deps, user.id, call),
      { choices: { booking_reminder: false } },
    );
    const own = () => ({ authorization: `Bearer ${sipho.key}` });
    // At Boland Paws (the demo's partner, with an owner who accepts and cancels), paid cash.
    const owner = await createApiKey(server.db.sql, {
      email: 'owner@partner.example',
      scopes: ['business:manage'],
    });
    const byOwner = (path: string, body: Record<string, unknown>) =>
      server.post(
        `/v1/business/bookings/${path}`,
        { ...body, confirm: true },
        { authorization: `Bearer ${owner.key}` },
      );
    const body = {
      businessId: 'biz_boland_paws',
      category: 'grooming',
      addressId: sipho.addressId,
      pets: [{ petId: sipho.petId, serviceIds: ['bp-groom-bath'] }],
    };
    const times = await server.post(
      '/v1/availability',
      { ...body, from: '2026-12-17', to: '2026-12-17' },
      own(),
    );
    expect(times.status, JSON.stringify(times.body)).toBe(200);
    const s = times.body.days[0].slots[0] as { start: string; resourceId: string };
    const made = await server.post(
      '/v1/bookings',
      { ...body, start: s.start, resourceId: s.resourceId, paymentMethod: 'CASH', confirm: true },
      own(),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.bookingId as string;
    const accepted = await byOwner(`${id}/accept`, {});
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    // The evening before: the reminder is due and written as an event all the same.
    clock.set(new Date('2026-12-16T16:00:00Z'));
    expect(await remind()).toContain(id);
    const [due] = await remindersOf(id);
    expect(due).toBeDefined();
    /** The job until every event written so far is read (each pass also delivers what it made). */
    const readAll = async () =>
      expect
        .poll(
          async () => {
            await dispatch();
            return (await eventReaderLag(server.db.sql)).find((r) => r.name === 'notices')?.behind;
          },
          { timeout: 60_000, interval: 100 },
        )
        .toBe(0);
    await readAll();
    const ofEvent = async (eventId: string) =>
      server.db.sql<{ kind: string; to: string }[]>`
        select kind, to_address as to from mail_outbox where event_id = ${eventId}`;
    expect(await ofEvent(due!.id)).toEqual([]);
    // The business cancels it: that mail must go, reminders off or not.
    const cancelled = await byOwner(`${id}/cancel`, { reason: 'The van is in for repairs.' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const [cancel] = await listEvents(server.db.sql, { subjectId: id, types: ['booking.cancelled'] });
    expect(cancel).toBeDefined();
    await readAll();
    expect(await ofEvent(cancel!.id)).toEqual([{ kind: 'booking_cancelled', to: email }]);
  });
});
