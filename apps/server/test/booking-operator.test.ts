import { completeBookings, createApiKey } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { startWorker, type Worker } from '@nogpets/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cli,
  notifySandbox,
  openPayment,
  payInSandbox,
  signSandboxNotice,
  startTestServer,
  type TestServer,
} from './harness.js';

const HOUR = 3_600_000;
const silent = { info() {}, error() {} };

/** What the operator and the worker do to bookings: the CLI's moves, and the timed rules run from the job queue. */
describe('bookings: the operator CLI and the worker', () => {
  let server: TestServer;
  const clock = fixedClock('2026-11-23T04:00:00Z');
  let key: string;
  let petId: string;
  let addressId: string;
  const as = () => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    key = (
      await createApiKey(server.db.sql, {
        email: 'pieter@example.com',
        scopes: ['bookings:read', 'bookings:write', 'pets', 'addresses'],
      })
    ).key;
    petId = (
      await server.post('/v1/pets', { name: 'Fluffy', type: 'DOG', weightKg: 12, coat: 'SHORT' }, as())
    ).body.id;
    addressId = (
      await server.post(
        '/v1/addresses',
        { label: 'Home', line1: '5 Andringa Street', suburb: 'Die Boord' },
        as(),
      )
    ).body.id;
  });
  afterAll(() => server?.stop());

  async function book(date: string, paymentMethod: 'CARD' | 'CASH') {
    const body = { category: 'grooming', addressId, pets: [{ petId, serviceIds: ['groom-dog-bath'] }] };
    const found = await server.post('/v1/availability', { ...body, from: date, to: date }, as());
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    const slot = found.body.days[0].slots[0];
    const res = await server.post(
      '/v1/bookings',
      { ...body, start: slot.start, resourceId: slot.resourceId, paymentMethod, confirm: true },
      as(),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.bookingId as string, slot };
  }
  const state = async (id: string) => (await server.get(`/v1/bookings/${id}`, as())).body;
  const pay = async (id: string) => expect(await payInSandbox(server, id)).toBe(200);
  const audit = async (id: string) =>
    server.db.sql<
      { action: string; client_name: string; details: Record<string, unknown> }[]
    >`select action, client_name, details from audit_log where target = ${id} order by at, id`;

  it('accepts a pending booking for the business (`booking accept`), and refuses a closed or unknown one', async () => {
    const { id } = await book('2026-12-01', 'CASH');
    expect(await state(id)).toMatchObject({ status: 'PENDING', paymentStatus: 'CASH_DUE' });
    const accepted = await cli(server.db.url, ['booking', 'accept', id]);
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(accepted.lastLine.split('\t').slice(0, 3)).toEqual([id, 'ACCEPTED', 'CASH_DUE']);
    expect(await state(id)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'CASH_DUE' });
    expect((await audit(id)).at(-1)).toMatchObject({
      action: 'booking.accept',
      client_name: 'operator (CLI)',
    });

    await server.post(`/v1/bookings/${id}/cancel`, { confirm: true }, as());
    const closed = await cli(server.db.url, ['booking', 'accept', id]);
    expect(closed.status).toBe(1);
    expect(closed.stderr).toMatch(/cancelled, so it cannot be accepted/);
    expect(await state(id)).toMatchObject({ status: 'CANCELLED' });
    const unknown = await cli(server.db.url, ['booking', 'accept', 'bkg_nope']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/No booking bkg_nope/);
  });

  it('lists refunds owed (`refund list`) and marks one made (`refund done`), once', async () => {
    expect((await cli(server.db.url, ['refund', 'list'])).stdout).toContain('No refunds are owed.');
    const { id } = await book('2026-12-02', 'CARD');
    await pay(id);
    await server.post(`/v1/bookings/${id}/cancel`, { confirm: true }, as());
    expect(await state(id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' });

    const list = await cli(server.db.url, ['refund', 'list']);
    expect(list.status).toBe(0);
    expect(list.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^${id}\tCANCELLED\tREFUND_REQUESTED\tR390\t`)),
    ]);

    const done = await cli(server.db.url, ['refund', 'done', id, '--note', 'PayFast refund 77812']);
    expect(done.status, done.stderr).toBe(0);
    expect(await state(id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUNDED' });
    expect((await audit(id)).at(-1)).toMatchObject({
      action: 'booking.refunded',
      details: {
        note: 'PayFast refund 77812',
        from: ['CANCELLED', 'REFUND_REQUESTED'],
        to: ['CANCELLED', 'REFUNDED'],
      },
    });
    expect((await cli(server.db.url, ['refund', 'list'])).stdout).toContain('No refunds are owed.');

    const twice = await cli(server.db.url, ['refund', 'done', id]);
    expect(twice.status).toBe(1);
    expect(twice.stderr).toMatch(/No refund is waiting/);
    expect(await state(id)).toMatchObject({ paymentStatus: 'REFUNDED' });
  });

  it('keeps money paid twice (an older link paid after a newer one) as a refund owed, and the booking as it was', async () => {
    const { id } = await book('2026-12-07', 'CARD');
    const older = await openPayment(server, id);
    const fresh = await server.post(`/v1/bookings/${id}/pay`, {}, as());
    expect(fresh.status).toBe(200);
    await pay(id); // through the new link
    expect(await state(id)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
    // The person still had the old link open at the gateway, and paid there too.
    const late = await signSandboxNotice(server, {
      paymentId: older.id,
      gatewayRef: 'sbx_second',
      amountCents: older.amount,
      outcome: 'COMPLETE',
    });
    expect(await notifySandbox(server, late)).toBe(200);
    expect(await notifySandbox(server, late)).toBe(200); // its replay changes nothing more
    expect(await state(id)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
    const [row] = await server.db.sql`select status from payments where id = ${older.id}`;
    expect(row!.status).toBe('REFUND_DUE');
    // Told once (the replay wrote nothing more): the whole payment is owed back to its person.
    const owed = await server.db.sql`select type, subject_id, person_id, data from domain_events
      where type = 'payment.refund_due' and subject_id = ${older.id}`;
    expect(owed).toHaveLength(1);
    expect(owed[0]).toMatchObject({
      person_id: expect.stringMatching(/^usr_/),
      data: {
        paymentId: older.id,
        reason: 'paid_twice',
        refund: { amount: older.amount },
        orderId: null,
        bookingIds: [id],
      },
    });

    const list = await cli(server.db.url, ['refund', 'list']);
    expect(list.stdout).toMatch(
      new RegExp(`^${older.id}\tREFUND_DUE\tR390\tsandbox sbx_second\tpaid twice: ${id}$`, 'm'),
    );
    const done = await cli(server.db.url, ['refund', 'done', older.id, '--note', 'reversed']);
    expect(done.status, done.stderr).toBe(0);
    expect((await server.db.sql`select status from payments where id = ${older.id}`)[0]!.status).toBe(
      'REFUNDED',
    );
    expect((await cli(server.db.url, ['refund', 'list'])).stdout).not.toContain(older.id);
    const again = await cli(server.db.url, ['refund', 'done', older.id]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/no refund is waiting/);
    expect(await state(id)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
  });

  it('marks bookings whose time is over DONE (not an unpaid card hold), once however many run it; DONE is closed', async () => {
    const cash = await book('2026-12-04', 'CASH');
    expect((await cli(server.db.url, ['booking', 'accept', cash.id])).status).toBe(0);
    const unpaid = await book('2026-12-04', 'CARD');
    const deps = server.service.runtime.deps;
    const end = Date.parse((await state(cash.id)).end);
    try {
      clock.set(new Date(end - 60_000));
      expect(await completeBookings(deps)).not.toContain(cash.id);
      expect((await state(cash.id)).status).toBe('ACCEPTED');
      clock.set(new Date(end));
      const [a, b] = await Promise.all([completeBookings(deps), completeBookings(deps)]);
      expect([...a, ...b].filter((id) => id === cash.id)).toHaveLength(1);
      expect([...a, ...b]).not.toContain(unpaid.id);
      expect(await state(cash.id)).toMatchObject({ status: 'DONE', paymentStatus: 'CASH_DUE' });
      expect(
        (await server.get('/v1/bookings', as())).body.bookings.map((x: { id: string }) => x.id),
      ).not.toContain(cash.id);
      expect(
        (await server.post(`/v1/bookings/${cash.id}/cancel`, { confirm: true }, as())).body.error.code,
      ).toBe('NOT_ACTIVE');
      expect((await audit(cash.id)).filter((x) => x.action === 'booking.done')).toHaveLength(1);
    } finally {
      clock.set('2026-11-23T04:00:00Z');
    }
  });

  it('expires a lapsed hold when the job comes off the pg-boss queue, with two workers sharing it', async () => {
    const { id, slot } = await book('2026-12-03', 'CARD');
    const deps = server.service.runtime.deps;
    const workers: Worker[] = await Promise.all([
      startWorker({ databaseUrl: server.db.url, sql: server.db.sql, logger: silent, deps }),
      startWorker({ databaseUrl: server.db.url, sql: server.db.sql, logger: silent, deps }),
    ]);
    try {
      // The schedules fire too, so each job sent here is followed by its own id.
      const completed = (jobId: string | null) =>
        expect
          .poll(
            async () => (await server.db.sql`select state from pgboss.job where id = ${jobId}`)[0]?.state,
            { timeout: 15_000 },
          )
          .toBe('completed');
      // Not yet lapsed: the job runs and leaves it held.
      await completed(await workers[0]!.runNow('expire-unpaid-holds'));
      expect(await state(id)).toMatchObject({ status: 'PENDING', paymentStatus: 'PENDING' });

      clock.set(new Date(clock.now().getTime() + 48 * HOUR + 60_000));
      const jobIds = await Promise.all([
        workers[0]!.runNow('expire-unpaid-holds'),
        workers[1]!.runNow('expire-unpaid-holds'),
      ]);
      for (const jobId of jobIds) await completed(jobId);
      expect(await state(id)).toMatchObject({ status: 'EXPIRED', paymentStatus: 'VOID', canPay: false });
      // Expired once, however many runs saw it.
      expect((await audit(id)).filter((a) => a.action === 'booking.expire')).toHaveLength(1);
      const free = await server.post(
        '/v1/availability',
        {
          category: 'grooming',
          addressId,
          pets: [{ petId, serviceIds: ['groom-dog-bath'] }],
          from: '2026-12-03',
          to: '2026-12-03',
        },
        as(),
      );
      expect(
        free.body.days[0].slots.some(
          (s: { start: string; resourceId: string }) =>
            s.start === slot.start && s.resourceId === slot.resourceId,
        ),
      ).toBe(true);
    } finally {
      clock.set('2026-11-23T04:00:00Z');
      await Promise.all(workers.map((w) => w.stop()));
    }
  });
});
