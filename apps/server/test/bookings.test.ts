import { DEFAULT_VAN_BUFFER_MIN } from '@nogpets/slot-engine';
import { createApiKey, expireHolds, extendSeries } from '@nogpets/operations/testing';
import { type Browser, fixedClock, launchBrowser } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newPetOwner,
  notifySandbox,
  openPayment,
  signSandboxNotice,
  startTestServer,
  type TestServer,
  toolJson,
} from './harness.js';

const HOUR = 3_600_000;

describe('booking lifecycle: book, list, get, move, cancel, pay', () => {
  let server: TestServer;
  let browser: Browser;
  const clock = fixedClock('2026-11-23T04:00:00Z'); // Monday 06:00 in Johannesburg
  let key: string;
  let otherKey: string;
  let petId: string;
  let addressId: string;
  const as = (k: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${k}`, ...extra });
  const count = async () =>
    (await server.db.sql`select count(*)::int as n from bookings where user_id is not null`)[0]!.n as number;

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    browser = await launchBrowser();
    key = (
      await createApiKey(server.db.sql, {
        email: 'ayanda@example.com',
        scopes: ['bookings:read', 'bookings:write', 'pets', 'addresses'],
      })
    ).key;
    otherKey = (
      await createApiKey(server.db.sql, {
        email: 'bongani@example.com',
        scopes: ['bookings:read', 'bookings:write'],
      })
    ).key;
    petId = (
      await server.post('/v1/pets', { name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT' }, as(key))
    ).body.id;
    addressId = (
      await server.post(
        '/v1/addresses',
        { label: 'Home', line1: '12 Dorp Street', suburb: 'Die Boord' },
        as(key),
      )
    ).body.id;
    expect(petId && addressId).toBeTruthy();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const groomingOf = (serviceIds = ['groom-dog-bath']) => ({
    category: 'grooming',
    addressId,
    pets: [{ petId, serviceIds }],
  });

  /** Open slots of a local day, as find_times gives them to the person's assistant. */
  async function slots(date: string, body: Record<string, unknown> = groomingOf()) {
    const res = await server.post('/v1/availability', { ...body, from: date, to: date }, as(key));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.days[0].slots as { start: string; time: string; resourceId: string }[];
  }

  async function bookCard(date: string, pick = 0, headers: Record<string, string> = {}) {
    const slot = (await slots(date))[pick]!;
    const res = await server.post(
      '/v1/bookings',
      { ...groomingOf(), start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD' },
      as(key, headers),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { slot, res };
  }

  it('books by card: PENDING and held, with a pay link; the slot is gone from find_times', async () => {
    const { slot, res } = await bookCard('2026-11-25');
    expect(res.body).toMatchObject({
      status: 'PENDING',
      paymentMethod: 'CARD',
      paymentStatus: 'PENDING',
      totalCents: 39000,
      total: 'R390',
      start: slot.start,
      skipped: [],
    });
    expect(res.body.bookingIds).toEqual([res.body.bookingId]);
    expect(res.body.payUrl).toMatch(new RegExp(`^${server.url}/pay/npl_`));
    const got = await server.get(`/v1/bookings/${res.body.bookingId}`, as(key));
    expect(got.body).toMatchObject({
      id: res.body.bookingId,
      status: 'PENDING',
      paymentStatus: 'PENDING',
      canPay: true,
      where: '12 Dorp Street, Die Boord, Stellenbosch',
      pets: [{ petId, name: 'Rex' }],
    });
    // Held until the link expires (48 h) or it starts, whichever is first.
    expect(got.body.holdUntil).toBe(
      new Date(Math.min(clock.now().getTime() + 48 * HOUR, Date.parse(slot.start))).toISOString(),
    );
    expect(
      (await slots('2026-11-25')).some((s) => s.start === slot.start && s.resourceId === slot.resourceId),
    ).toBe(false);
    const list = await server.get('/v1/bookings', as(key));
    expect(list.body.bookings.map((b: { id: string }) => b.id)).toContain(res.body.bookingId);
    // Nobody else sees it.
    expect((await server.get(`/v1/bookings/${res.body.bookingId}`, as(otherKey))).status).toBe(404);
    expect((await server.get('/v1/bookings', as(otherKey))).body.bookings).toEqual([]);
  });

  it('refuses cash without confirm (409 with the summary, nothing booked), then books cash with it', async () => {
    const slot = (await slots('2026-12-10'))[0]!;
    const body = { ...groomingOf(), start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CASH' };
    const before = await count();
    const refused = await server.post('/v1/bookings', body, as(key));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'CONFIRM_REQUIRED',
      details: { totalCents: 38000, total: 'R380' },
    });
    expect(refused.body.error.details.summary).toMatch(/R380 in cash/);
    expect(await count()).toBe(before);
    const booked = await server.post(
      '/v1/bookings',
      { ...body, confirm: true, notes: 'Gate code 1234' },
      as(key),
    );
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({ status: 'PENDING', paymentStatus: 'CASH_DUE', totalCents: 38000 });
    expect(booked.body.payUrl).toBeUndefined();
    const pay = await server.post(`/v1/bookings/${booked.body.bookingId}/pay`, {}, as(key));
    expect(pay.status).toBe(409);
    expect(pay.body.error.code).toBe('NOTHING_TO_PAY');
  });

  it('refuses a time that was never a slot (400), and needs bookings:write (403) and a credential (401)', async () => {
    const res = await server.post(
      '/v1/bookings',
      { ...groomingOf(), start: '2026-11-25T01:13:00Z', resourceId: 'van-1', paymentMethod: 'CARD' },
      as(key),
    );
    expect(res.status).toBe(400);
    const readOnly = (
      await createApiKey(server.db.sql, { email: 'ayanda@example.com', scopes: ['bookings:read'] })
    ).key;
    expect(
      (
        await server.post(
          '/v1/bookings',
          { ...groomingOf(), start: '2026-11-25T06:00:00Z', resourceId: 'van-1', paymentMethod: 'CARD' },
          as(readOnly),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await server.post('/v1/bookings', {
          ...groomingOf(),
          start: '2026-11-25T06:00:00Z',
          resourceId: 'van-1',
          paymentMethod: 'CARD',
        })
      ).status,
    ).toBe(401);
    expect((await server.get('/v1/bookings?limit=51', as(key))).status).toBe(400);
    expect((await server.get('/v1/bookings?limit=0', as(key))).status).toBe(400);
  });

  it('gives one booking to 50 concurrent attempts at one slot; the rest are SLOT_TAKEN', async () => {
    const slot = (await slots('2026-11-27'))[0]!;
    const body = { ...groomingOf(), start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD' };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => server.post('/v1/bookings', body, as(key))),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.error.code === 'SLOT_TAKEN')).toBe(
      true,
    );
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const { n } = (
      await server.db.sql<
        { n: number }[]
      >`select count(*)::int as n from bookings where starts_at = ${slot.start} and resource_id = ${slot.resourceId} and status in ('PENDING', 'ACCEPTED')`
    )[0]!;
    expect(n).toBe(1);
  });

  it('answers people racing for one slot with Idempotency-Keys 201 once and 409 SLOT_TAKEN otherwise, each kept for its key', async () => {
    const slot = (await slots('2026-12-09'))[0]!;
    const people = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        newPetOwner(server, {
          email: `racer-${i}@example.com`,
          pet: { name: `Racer ${i}`, weightKg: 12 },
          line1: `${i + 1} Dorp Street`,
        }),
      ),
    );
    const send = (p: (typeof people)[number], k: string) =>
      server.post(
        '/v1/bookings',
        {
          category: 'grooming',
          addressId: p.addressId,
          pets: [{ petId: p.petId, serviceIds: ['groom-dog-bath'] }],
          start: slot.start,
          resourceId: slot.resourceId,
          paymentMethod: 'CARD',
        },
        as(p.key, { 'idempotency-key': k }),
      );
    const answers = await Promise.all(people.map((p, i) => send(p, `race-${i}`)));
    // Several pass the slot check at once and meet at the exclusion constraint: that refusal is an
    // answer (409), kept with its key in the same transaction, never a 500.
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(7).fill(409)]);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.error.code === 'SLOT_TAKEN')).toBe(
      true,
    );
    const again = await Promise.all(people.map((p, i) => send(p, `race-${i}`)));
    expect(again.map((a) => [a.status, a.body.bookingId ?? a.body.error.code])).toEqual(
      answers.map((a) => [a.status, a.body.bookingId ?? a.body.error.code]),
    );
    const { n } = (
      await server.db.sql<
        { n: number }[]
      >`select count(*)::int as n from bookings where starts_at = ${slot.start} and resource_id = ${slot.resourceId} and status in ('PENDING', 'ACCEPTED')`
    )[0]!;
    expect(n).toBe(1);
  });

  it("keeps a van's travel buffer between two bookings made at the same moment (the database refuses the second)", async () => {
    const { durationMin } = (
      await server.post(
        '/v1/availability',
        { ...groomingOf(), from: '2026-12-01', to: '2026-12-01' },
        as(key),
      )
    ).body;
    for (const date of ['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04']) {
      // Two open slots of one van back to back: each alone is fine, together they leave no travel time.
      const open = await slots(date);
      const first = open.find((a) =>
        open.some(
          (b) =>
            b.resourceId === a.resourceId &&
            Date.parse(b.start) === Date.parse(a.start) + durationMin * 60_000,
        ),
      )!;
      const second = open.find(
        (b) =>
          b.resourceId === first.resourceId &&
          Date.parse(b.start) === Date.parse(first.start) + durationMin * 60_000,
      )!;
      const answers = await Promise.all(
        [first, second].map((slot) =>
          server.post(
            '/v1/bookings',
            { ...groomingOf(), start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD' },
            as(key),
          ),
        ),
      );
      expect(answers.map((a) => a.status).sort(), date).toEqual([201, 409]);
      expect(answers.find((a) => a.status === 409)!.body.error.code).toBe('SLOT_TAKEN');
    }
  });

  it('lets bookings of one van stand exactly a travel buffer apart (the database and the slot engine agree)', async () => {
    const van = (
      await server.db.sql<{ id: string; buffer: number | null }[]>`
      select id, travel_buffer_min as buffer from resources where kind = 'VAN' order by id limit 1`
    )[0]!;
    const buffer = van.buffer ?? DEFAULT_VAN_BUFFER_MIN;
    const insert = (id: string, start: string, end: string) =>
      server.db.sql`
        insert into bookings (id, business_id, user_id, resource_id, line_id, status, payment_method, payment_status,
          starts_at, ends_at, group_size, total_cents, details, notes, created_at, updated_at)
        select ${id}, business_id, user_id, resource_id, line_id, 'PENDING', 'CASH', 'CASH_DUE', ${start}, ${end}, 1, 0,
          '{}', '', now(), now()
        from bookings where resource_id = ${van.id} limit 1`;
    const at = (min: number) => new Date(Date.parse('2027-03-01T06:00:00Z') + min * 60_000).toISOString();
    await insert('bkg_buffer_a', at(0), at(60));
    // One minute short of the buffer: refused by the exclusion constraint.
    await expect(insert('bkg_buffer_b', at(60 + buffer - 1), at(120 + buffer))).rejects.toMatchObject({
      code: '23P01',
    });
    // Exactly the buffer: allowed, as find_times would offer it.
    await insert('bkg_buffer_c', at(60 + buffer), at(120 + buffer));
    await server.db.sql`delete from bookings where id in ('bkg_buffer_a', 'bkg_buffer_c')`;
  });

  it('fills a group walk to exactly its capacity under concurrency', async () => {
    const walk = { category: 'walking', addressId, pets: [{ petId, serviceIds: ['walk-group-60'] }] };
    // walker-2 has 3 dogs on the 15:00 group walk each weekday (capacity 4): one place left.
    const open = (await slots('2026-11-24', walk)).filter(
      (s) => s.time === '15:00' && s.resourceId === 'walker-2',
    );
    expect(open).toHaveLength(1);
    const body = { ...walk, start: open[0]!.start, resourceId: 'walker-2', paymentMethod: 'CARD' };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => server.post('/v1/bookings', body, as(key))),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && a.body.error.code === 'SLOT_TAKEN')).toHaveLength(7);
    const { dogs } = (
      await server.db.sql<
        { dogs: number }[]
      >`select sum(group_size)::int as dogs from bookings where resource_id = 'walker-2' and starts_at = ${open[0]!.start} and status in ('PENDING', 'ACCEPTED')`
    )[0]!;
    expect(dogs).toBe(4);
  });

  it('answers a retry with the same Idempotency-Key once, and refuses the key with another body', async () => {
    const slot = (await slots('2026-11-30'))[0]!;
    const body = { ...groomingOf(), start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD' };
    const first = await server.post('/v1/bookings', body, as(key, { 'idempotency-key': 'retry-1' }));
    const again = await server.post('/v1/bookings', body, as(key, { 'idempotency-key': 'retry-1' }));
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const { n } = (
      await server.db.sql<
        { n: number }[]
      >`select count(*)::int as n from bookings where starts_at = ${slot.start} and resource_id = ${slot.resourceId}`
    )[0]!;
    expect(n).toBe(1);
    const other = await server.post(
      '/v1/bookings',
      { ...body, paymentMethod: 'CASH', confirm: true },
      as(key, { 'idempotency-key': 'retry-1' }),
    );
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // A refusal is kept too: the retry of a CONFIRM_REQUIRED gets the same refusal.
    const cash = { ...body, start: (await slots('2026-11-30'))[0]!.start, paymentMethod: 'CASH' };
    const r1 = await server.post('/v1/bookings', cash, as(key, { 'idempotency-key': 'retry-2' }));
    const r2 = await server.post('/v1/bookings', cash, as(key, { 'idempotency-key': 'retry-2' }));
    expect([r1.status, r2.status]).toEqual([409, 409]);
    expect(r2.body).toEqual(r1.body);
  });

  it('moves a booking more than 12 hours ahead (PENDING again, price and payment unchanged); its own time does not block; later TOO_LATE', async () => {
    const { res } = await bookCard('2026-12-01');
    const id = res.body.bookingId;
    const times = await server.post(
      `/v1/bookings/${id}/times`,
      { from: '2026-12-01', to: '2026-12-01' },
      as(key),
    );
    expect(times.status).toBe(200);
    expect(times.body.days[0].slots.some((s: { start: string }) => s.start === res.body.start)).toBe(true);
    const target = times.body.days[0].slots.find(
      (s: { start: string }) => Date.parse(s.start) >= Date.parse(res.body.start) + 3 * HOUR,
    );
    const moved = await server.post(
      `/v1/bookings/${id}/reschedule`,
      { start: target.start, resourceId: target.resourceId },
      as(key),
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({
      bookingId: id,
      start: target.start,
      resourceId: target.resourceId,
      status: 'PENDING',
      paymentStatus: 'PENDING',
    });
    expect((await server.get(`/v1/bookings/${id}`, as(key))).body.totalCents).toBe(39000);
    // Default range: the next 7 days.
    const week = await server.post(`/v1/bookings/${id}/times`, {}, as(key));
    expect(week.body.days).toHaveLength(7);
    // 12 hours before the start, or later: too late.
    const saved = clock.now();
    clock.set(new Date(Date.parse(target.start) - 12 * HOUR));
    const late = await server.post(
      `/v1/bookings/${id}/reschedule`,
      { start: target.start, resourceId: target.resourceId },
      as(key),
    );
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('TOO_LATE');
    expect((await server.post(`/v1/bookings/${id}/times`, {}, as(key))).body.error.code).toBe('TOO_LATE');
    clock.set(new Date(Date.parse(target.start) - 12 * HOUR - 60_000));
    const times2 = await server.post(`/v1/bookings/${id}/times`, {}, as(key));
    expect(times2.status).toBe(200);
    clock.set(saved);
  });

  it('cancels only with confirm and before the start; a booking of another person is not found', async () => {
    const { res } = await bookCard('2026-12-02');
    const id = res.body.bookingId;
    const noConfirm = await server.post(`/v1/bookings/${id}/cancel`, { confirm: false }, as(key));
    expect(noConfirm.status).toBe(409);
    expect(noConfirm.body.error.code).toBe('CONFIRM_REQUIRED');
    expect(noConfirm.body.error.details.summary).toMatch(/Cancel the booking/);
    expect((await server.post(`/v1/bookings/${id}/cancel`, { confirm: true }, as(otherKey))).status).toBe(
      404,
    );
    const done = await server.post(`/v1/bookings/${id}/cancel`, { confirm: true }, as(key));
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ cancelled: [id], refundRequested: [] });
    expect((await server.get(`/v1/bookings/${id}`, as(key))).body).toMatchObject({
      status: 'CANCELLED',
      paymentStatus: 'VOID',
      canPay: false,
    });
    const again = await server.post(`/v1/bookings/${id}/cancel`, { confirm: true }, as(key));
    expect(again.body.error.code).toBe('NOT_ACTIVE');
    expect((await server.post(`/v1/bookings/${id}/pay`, {}, as(key))).body.error.code).toBe('NOTHING_TO_PAY');

    const { res: started } = await bookCard('2026-12-03');
    const saved = clock.now();
    clock.set(started.body.start);
    const late = await server.post(
      `/v1/bookings/${started.body.bookingId}/cancel`,
      { confirm: true },
      as(key),
    );
    expect(late.body.error.code).toBe('TOO_LATE');
    clock.set(saved);
  });

  it('pays in the sandbox from payUrl to a confirmed booking, in Chromium; a paid cancel asks for a refund', async () => {
    const { res } = await bookCard('2026-12-04');
    const page = await browser.newPage();
    await page.goto(res.body.payUrl);
    await expect(page.locator('.test-banner').textContent()).resolves.toContain('TEST');
    await expect(page.locator('#amount').textContent()).resolves.toBe('R390');
    await page.getByRole('button', { name: /Pay R390 / }).click();
    await page.waitForURL(/\/done$/);
    await expect(page.locator('#outcome').textContent()).resolves.toContain('confirmed');
    const got = (await server.get(`/v1/bookings/${res.body.bookingId}`, as(key))).body;
    expect(got).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID', canPay: false, holdUntil: null });
    // The link now says paid; a new link is refused.
    await page.goto(res.body.payUrl);
    await expect(page.locator('main').textContent()).resolves.toContain('This is paid');
    await page.close();
    expect((await server.post(`/v1/bookings/${res.body.bookingId}/pay`, {}, as(key))).body.error.code).toBe(
      'NOTHING_TO_PAY',
    );
    const cancel = await server.post(`/v1/bookings/${res.body.bookingId}/cancel`, { confirm: true }, as(key));
    expect(cancel.body).toMatchObject({
      cancelled: [res.body.bookingId],
      refundRequested: [res.body.bookingId],
    });
    expect((await server.get(`/v1/bookings/${res.body.bookingId}`, as(key))).body.paymentStatus).toBe(
      'REFUND_REQUESTED',
    );
  });

  it('changes nothing for a forged, a replayed or an amount-mismatched notification', async () => {
    const { res } = await bookCard('2026-12-07');
    const id = res.body.bookingId;
    const payment = await openPayment(server, id);
    const notify = (body: string) => notifySandbox(server, body);
    const state = async () => (await server.get(`/v1/bookings/${id}`, as(key))).body;

    const forged = `payment_id=${payment.id}&gateway_ref=sbx_forged&amount=390.00&outcome=COMPLETE&signature=${'a'.repeat(64)}`;
    expect(await notify(forged)).toBe(400);
    const mismatch = await signSandboxNotice(server, {
      paymentId: payment.id,
      gatewayRef: 'sbx_cheap',
      amountCents: 100,
      outcome: 'COMPLETE',
    });
    expect(await notify(mismatch)).toBe(400);
    expect(await state()).toMatchObject({ status: 'PENDING', paymentStatus: 'PENDING' });

    const real = await signSandboxNotice(server, {
      paymentId: payment.id,
      gatewayRef: 'sbx_real',
      amountCents: payment.amount,
      outcome: 'COMPLETE',
    });
    expect(await notify(real)).toBe(200);
    expect(await state()).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
    // Cancel (refund requested), then replay the same notification: nothing changes back.
    await server.post(`/v1/bookings/${id}/cancel`, { confirm: true }, as(key));
    expect(await notify(real)).toBe(200);
    expect(await state()).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' });
    const outcomes = (
      await server.db.sql<
        { outcome: string }[]
      >`select outcome from payment_notifications where payment_id = ${payment.id} order by received_at, id`
    ).map((r) => r.outcome);
    expect(outcomes.filter((o) => o === 'APPLIED')).toHaveLength(1);
    expect(outcomes.some((o) => o.startsWith('REJECTED'))).toBe(true);
    expect(outcomes.some((o) => o.startsWith('AMOUNT_MISMATCH'))).toBe(true);
    expect(outcomes).toContain('DUPLICATE');
  });

  it('expires an unpaid card hold and frees its time (the worker rule), and is safe to run twice', async () => {
    const { slot, res } = await bookCard('2026-12-08');
    const saved = clock.now();
    clock.set(new Date(clock.now().getTime() + 48 * HOUR + 1000));
    const deps = server.service.runtime.deps;
    const [a, b] = await Promise.all([expireHolds(deps), expireHolds(deps)]);
    expect([...a, ...b].filter((id) => id === res.body.bookingId)).toHaveLength(1);
    expect((await server.get(`/v1/bookings/${res.body.bookingId}`, as(key))).body).toMatchObject({
      status: 'EXPIRED',
      paymentStatus: 'VOID',
      canPay: false,
    });
    clock.set(saved);
    expect(
      (await slots('2026-12-08')).some((s) => s.start === slot.start && s.resourceId === slot.resourceId),
    ).toBe(true);
  });

  it('books weekly walks ahead with skipped weeks, keeps the series booked, and cancels the later weeks with series: true', async () => {
    const walk = { category: 'walking', addressId, pets: [{ petId, serviceIds: ['walk-solo-30'] }] };
    const open = (await slots('2026-11-24', walk)).find((s) => s.time === '09:00')!;
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
      as(key),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.bookingIds.length + res.body.skipped.length).toBeGreaterThanOrEqual(8);
    // The Day of Reconciliation (Wed 16 Dec) is a public holiday: skipped with why.
    expect(res.body.skipped).toContainEqual(
      expect.objectContaining({ date: '2026-12-16', reason: expect.stringMatching(/CLOSED_DAY|TIME_OFF/) }),
    );
    const seriesId = res.body.seriesId;
    const booked = async () =>
      (
        await server.db
          .sql`select count(*)::int as n from bookings where series_id = ${seriesId} and status in ('PENDING', 'ACCEPTED')`
      )[0]!.n as number;
    const first = await booked();
    // A week later the worker books the next week; twice at once books it once.
    const saved = clock.now();
    clock.set(new Date(clock.now().getTime() + 7 * 24 * HOUR));
    const deps = server.service.runtime.deps;
    await Promise.all([extendSeries(deps), extendSeries(deps)]);
    const after = await booked();
    expect(after).toBeGreaterThan(first);
    expect(after - first).toBeLessThanOrEqual(2);
    clock.set(saved);
    const cancel = await server.post(
      `/v1/bookings/${res.body.bookingIds[1]}/cancel`,
      { confirm: true, series: true },
      as(key),
    );
    expect(cancel.status).toBe(200);
    expect(cancel.body.cancelled.length).toBe(after - 1);
    expect(await booked()).toBe(1);
    expect(
      (await server.db.sql`select cancelled_at from booking_series where id = ${seriesId}`)[0]!.cancelled_at,
    ).not.toBeNull();
  });

  it('answers the same over MCP, with the spec annotations', async () => {
    const client = await server.mcpAs(key);
    const { tools } = await client.listTools();
    const ann = (name: string) => tools.find((t) => t.name === name)!.annotations!;
    for (const name of ['list_bookings', 'get_booking', 'find_reschedule_times'])
      expect(ann(name)).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    for (const name of ['reschedule_booking', 'cancel_booking'])
      expect(ann(name)).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(ann('book')).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    const slot = (await slots('2026-12-09'))[0]!;
    const args = { ...groomingOf(), start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CASH' };
    const refused = await client.callTool({ name: 'book', arguments: args });
    expect(refused.isError).toBe(true);
    expect(toolJson(refused).error.code).toBe('CONFIRM_REQUIRED');
    const booked = toolJson(
      await client.callTool({
        name: 'book',
        arguments: { ...args, confirm: true },
        _meta: { idempotencyKey: 'mcp-1' },
      } as never),
    );
    expect(booked).toMatchObject({ status: 'PENDING', paymentStatus: 'CASH_DUE' });
    const retried = toolJson(
      await client.callTool({
        name: 'book',
        arguments: { ...args, confirm: true },
        _meta: { idempotencyKey: 'mcp-1' },
      } as never),
    );
    expect(retried.bookingId).toBe(booked.bookingId);
    const got = toolJson(
      await client.callTool({ name: 'get_booking', arguments: { bookingId: booked.bookingId } }),
    );
    const http = (await server.get(`/v1/bookings/${booked.bookingId}`, as(key))).body;
    expect(got).toEqual(http);
    const cancelled = toolJson(
      await client.callTool({
        name: 'cancel_booking',
        arguments: { bookingId: booked.bookingId, confirm: true },
      }),
    );
    expect(cancelled.cancelled).toEqual([booked.bookingId]);
    const late = toolJson(
      await client.callTool({ name: 'pay_booking', arguments: { bookingId: booked.bookingId } }),
    );
    expect(late.error.code).toBe('NOTHING_TO_PAY');
  });
});
