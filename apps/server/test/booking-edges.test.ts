import { createApiKey, extendSeries } from '@nogpets/operations/testing';
import { type Browser, fixedClock, launchBrowser } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPetOwner, startTestServer, type TestServer } from './harness.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = '2026-11-23T04:00:00Z'; // Monday 06:00 in Johannesburg
const localDay = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Johannesburg' }).format(d);

/** The corners of booking and paying: holds that move, links that stop, retries, series far ahead, the published document. */
describe('bookings at the edges', () => {
  let server: TestServer;
  let browser: Browser;
  const clock = fixedClock(NOW);
  let key: string;
  let petId: string;
  let addressId: string;
  const as = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    browser = await launchBrowser();
    key = (
      await createApiKey(server.db.sql, {
        email: 'naledi@example.com',
        scopes: ['bookings:read', 'bookings:write', 'pets', 'addresses'],
      })
    ).key;
    petId = (await server.post('/v1/pets', { name: 'Kwezi', type: 'DOG', weightKg: 12, coat: 'SHORT' }, as()))
      .body.id;
    addressId = (
      await server.post('/v1/addresses', { label: 'Home', line1: '9 Bird Street', suburb: 'Die Boord' }, as())
    ).body.id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const grooming = () => ({
    category: 'grooming',
    addressId,
    pets: [{ petId, serviceIds: ['groom-dog-bath'] }],
  });
  const walking = () => ({ category: 'walking', addressId, pets: [{ petId, serviceIds: ['walk-solo-30'] }] });
  const state = async (id: string) => (await server.get(`/v1/bookings/${id}`, as())).body;
  async function slots(date: string, body: Record<string, unknown> = grooming()) {
    const res = await server.post('/v1/availability', { ...body, from: date, to: date }, as());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.days[0].slots as { start: string; time: string; resourceId: string }[];
  }
  async function bookCard(
    date: string,
    body: Record<string, unknown> = grooming(),
    extra: Record<string, unknown> = {},
  ) {
    const slot = (await slots(date, body))[0]!;
    const res = await server.post(
      '/v1/bookings',
      { ...body, start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD', ...extra },
      as(),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  it('tells how long an unpaid card booking is held: until it starts when that comes before the 48 hours', async () => {
    const soon = await bookCard('2026-11-24'); // tomorrow, within the link's 48 hours
    const start = new Date(soon.start);
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Africa/Johannesburg',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(start);
    expect(soon.next).toContain(
      `The time is held until it starts (Tue, 24 Nov 2026, ${local}): the person must pay before then.`,
    );
    expect(soon.next).not.toContain('48 hours');
    const later = await bookCard('2026-12-11');
    // Booked at 06:00 on Monday 23 November: the link works until 06:00 on Wednesday.
    expect(later.next).toContain(
      'The time is held for 48 hours, until Wed, 25 Nov 2026, 06:00, while the link works.',
    );
  });

  it('names the date it refuses: a past range on find_reschedule_times, a past start on reschedule_booking', async () => {
    const booked = await bookCard('2026-12-14');
    const times = (body: Record<string, unknown>) =>
      server.post(`/v1/bookings/${booked.bookingId}/times`, body, as());
    const onlyFrom = await times({ from: '2026-11-01' });
    expect(onlyFrom.status).toBe(400);
    expect(onlyFrom.body.error.details.fields).toEqual([
      { field: 'from', message: 'The dates asked for are in the past; today is 2026-11-23.' },
    ]);
    const range = await times({ from: '2026-11-01', to: '2026-11-05' });
    expect(range.body.error.details.fields[0].field).toBe('to');
    // Begun in the past: from today on.
    const begun = await times({ from: '2026-11-20', to: '2026-11-24' });
    expect(begun.status, JSON.stringify(begun.body)).toBe(200);
    expect(begun.body.days[0].date).toBe('2026-11-23');
    // A move to a past time without a resource is refused for its start, as any time that is no slot.
    const moved = await server.post(
      `/v1/bookings/${booked.bookingId}/reschedule`,
      { start: '2026-11-20T08:00:00.000Z' },
      as(),
    );
    expect(moved.status).toBe(400);
    expect(moved.body.error.details.fields[0].field).toBe('start');
  });

  it('keeps an unpaid card booking held until its link expires when it moves later (not until the old start)', async () => {
    const booked = await bookCard('2026-11-24'); // tomorrow: held only until its start
    expect((await state(booked.bookingId)).holdUntil).toBe(booked.start);
    const target = (
      await server.post(
        `/v1/bookings/${booked.bookingId}/times`,
        { from: '2026-12-01', to: '2026-12-01' },
        as(),
      )
    ).body.days[0].slots[0];
    // No resourceId: the booking's own resource if free then, else any free one.
    const moved = await server.post(
      `/v1/bookings/${booked.bookingId}/reschedule`,
      { start: target.start },
      as(),
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.resourceId).toEqual(expect.any(String));
    const after = await state(booked.bookingId);
    expect(after).toMatchObject({
      status: 'PENDING',
      paymentStatus: 'PENDING',
      start: target.start,
      canPay: true,
    });
    expect(after.holdUntil).toBe(new Date(clock.now().getTime() + 48 * HOUR).toISOString());
  });

  it('stops a link for several bookings once one of them is cancelled; the rest get their own links', async () => {
    const walk = walking();
    const open = (await slots('2026-11-24', walk)).find((s) => s.time === '10:00')!;
    const res = await server.post(
      '/v1/bookings',
      {
        ...walk,
        start: open.start,
        resourceId: open.resourceId,
        paymentMethod: 'CARD',
        repeat: { freq: 'WEEKLY', days: ['tue'] },
      },
      as(),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.bookingIds.length).toBeGreaterThan(1);
    const page = await fetch(res.body.payUrl);
    expect(page.status).toBe(200);
    await page.text();
    const cancel = await server.post(
      `/v1/bookings/${res.body.bookingIds[1]}/cancel`,
      { confirm: true },
      as(),
    );
    expect(cancel.status).toBe(200);
    const stale = await fetch(res.body.payUrl);
    expect(stale.status).toBe(410);
    expect(await stale.text()).toContain('expired or was replaced');
    // The first week still waits for payment, and gets its own link for its own price.
    const first = await state(res.body.bookingIds[0]);
    expect(first.canPay).toBe(true);
    const link = await server.post(`/v1/bookings/${res.body.bookingIds[0]}/pay`, {}, as());
    expect(link.status).toBe(200);
    expect(link.body.totalCents).toBe(first.totalCents);
  });

  it('lets a declined card payment be tried again on the same link, in Chromium', async () => {
    const booked = await bookCard('2026-11-27', grooming());
    const page = await browser.newPage();
    await page.goto(booked.payUrl);
    await page.getByRole('button', { name: /Decline/ }).click();
    await page.waitForURL(/\/done$/);
    await expect(page.locator('#outcome').textContent()).resolves.toContain('has not come through');
    await page.getByRole('link', { name: 'Try again' }).click();
    await page.getByRole('button', { name: /Pay R390/ }).click();
    await page.waitForURL(/\/done$/);
    await expect(page.locator('#outcome').textContent()).resolves.toContain('confirmed');
    await page.close();
    expect(await state(booked.bookingId)).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });
  });

  it('finds no saved pet or address of another person, on quote, find_times and book, and books nothing', async () => {
    const other = await newPetOwner(server, {
      email: 'sipho-edges@example.com',
      pet: { name: 'Bongi', weightKg: 20 },
      line1: '3 Ryneveld Street',
    });
    const asOther = { authorization: `Bearer ${other.key}` };
    const before = (await server.db.sql`select count(*)::int as n from bookings`)[0]!.n;
    const slot = (await slots('2026-11-25'))[0]!;
    const cases = [
      { pets: [{ petId, serviceIds: ['groom-dog-bath'] }], addressId: other.addressId, missing: { petId } },
      { pets: [{ petId: other.petId, serviceIds: ['groom-dog-bath'] }], addressId, missing: { addressId } },
    ];
    for (const { pets, addressId: where, missing } of cases) {
      const body = { category: 'grooming', addressId: where, pets };
      for (const [path, extra] of [
        ['/v1/quote', {}],
        ['/v1/availability', {}],
        ['/v1/bookings', { start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD' }],
      ] as const) {
        const res = await server.post(path, { ...body, ...extra }, asOther);
        expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', details: missing });
      }
    }
    // Their own pet at their own address is found.
    const own = await server.post(
      '/v1/quote',
      {
        category: 'grooming',
        addressId: other.addressId,
        pets: [{ petId: other.petId, serviceIds: ['groom-dog-bath'] }],
      },
      asOther,
    );
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.pets[0].name).toBe('Bongi');
    expect((await server.db.sql`select count(*)::int as n from bookings`)[0]!.n).toBe(before);
  });

  it('refuses the same pet twice in one booking, and changes nothing', async () => {
    const slot = (await slots('2026-12-02'))[0]!;
    const before = (await server.db.sql`select count(*)::int as n from bookings`)[0]!.n;
    const res = await server.post(
      '/v1/bookings',
      {
        category: 'grooming',
        addressId,
        pets: [
          { petId, serviceIds: ['groom-dog-bath'] },
          { petId, serviceIds: ['groom-dog-bath'] },
        ],
        start: slot.start,
        resourceId: slot.resourceId,
        paymentMethod: 'CARD',
      },
      as(),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields).toContainEqual(expect.objectContaining({ field: 'pets.1.petId' }));
    expect((await server.db.sql`select count(*)::int as n from bookings`)[0]!.n).toBe(before);
  });

  it('answers cancel with confirm left out as CONFIRM_REQUIRED with the summary to show, on HTTP and MCP, and cancels nothing', async () => {
    const booked = await bookCard('2026-12-04');
    const res = await server.post(`/v1/bookings/${booked.bookingId}/cancel`, {}, as());
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'CONFIRM_REQUIRED',
      details: {
        summary: expect.stringMatching(/^Cancel the booking for .+, \w{3}, \d+ \w{3} 2026, \d\d:\d\d to /),
      },
    });
    const client = await server.mcpAs(key);
    const tool = await client.callTool({
      name: 'cancel_booking',
      arguments: { bookingId: booked.bookingId },
    });
    expect(tool.isError).toBe(true);
    expect(JSON.stringify(tool.content)).toContain('CONFIRM_REQUIRED');
    expect((await state(booked.bookingId)).status).toBe('PENDING');
  });

  it('answers NOT_ACTIVE, not CONFIRM_REQUIRED, for a closed booking asked to cancel without confirm', async () => {
    const booked = await bookCard('2026-12-03');
    await server.post(`/v1/bookings/${booked.bookingId}/cancel`, { confirm: true }, as());
    const res = await server.post(`/v1/bookings/${booked.bookingId}/cancel`, { confirm: false }, as());
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('NOT_ACTIVE');
  });

  it('books a weekly series that starts beyond the 4-week horizon once, and the worker never books its first walk again', async () => {
    const walk = walking();
    const date = '2027-01-05'; // a Tuesday six weeks ahead
    const open = (await slots(date, walk))[0]!;
    const res = await server.post(
      '/v1/bookings',
      {
        ...walk,
        start: open.start,
        resourceId: open.resourceId,
        paymentMethod: 'CASH',
        confirm: true,
        repeat: { freq: 'WEEKLY', days: ['tue'] },
      },
      as(),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.bookingIds).toHaveLength(1);
    const deps = server.service.runtime.deps;
    try {
      for (const weeks of [3, 4, 5, 6]) {
        clock.set(new Date(Date.parse(NOW) + weeks * 7 * DAY));
        await extendSeries(deps);
      }
      const rows = await server.db.sql<
        { start: Date }[]
      >`select starts_at as start from bookings where series_id = ${res.body.seriesId} and status in ('PENDING', 'ACCEPTED') order by starts_at`;
      const starts = rows.map((r) => r.start.toISOString());
      expect(new Set(starts).size).toBe(starts.length);
      expect(starts.filter((s) => s === open.start)).toHaveLength(1);
      expect(starts.length).toBeGreaterThan(1);
    } finally {
      clock.set(NOW);
    }
  });

  it('holds the card weeks the worker adds until their start (no link nobody sees); a link asked for later does not shorten it', async () => {
    const walk = walking();
    const open = (await slots('2026-11-25', walk))[0]!;
    const res = await server.post(
      '/v1/bookings',
      {
        ...walk,
        start: open.start,
        resourceId: open.resourceId,
        paymentMethod: 'CARD',
        repeat: { freq: 'WEEKLY', days: ['wed'] },
      },
      as(),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const deps = server.service.runtime.deps;
    try {
      clock.set(new Date(Date.parse(NOW) + 7 * DAY));
      expect(await extendSeries(deps)).toBeGreaterThan(0);
      const [added] = await server.db.sql<{ id: string; start: Date; hold: Date }[]>`
        select id, starts_at as start, hold_until as hold from bookings where series_id = ${res.body.seriesId} and not (id = any(${res.body.bookingIds})) order by starts_at desc limit 1`;
      expect(added!.hold.toISOString()).toBe(added!.start.toISOString());
      expect(await state(added!.id)).toMatchObject({
        status: 'PENDING',
        paymentStatus: 'PENDING',
        canPay: true,
      });
      // Moved a day later, it is still held until its (new) start.
      const later = localDay(new Date(added!.start.getTime() + DAY));
      const target = (await server.post(`/v1/bookings/${added!.id}/times`, { from: later, to: later }, as()))
        .body.days[0].slots[0];
      expect(
        (
          await server.post(
            `/v1/bookings/${added!.id}/reschedule`,
            { start: target.start, resourceId: target.resourceId },
            as(),
          )
        ).status,
      ).toBe(200);
      expect((await state(added!.id)).holdUntil).toBe(target.start);
      added!.start = new Date(target.start);
      const link = await server.post(`/v1/bookings/${added!.id}/pay`, {}, as());
      expect(link.status).toBe(200);
      expect((await state(added!.id)).holdUntil).toBe(added!.start.toISOString());
    } finally {
      clock.set(NOW);
    }
  });

  it('refuses times that never were slots (past, off the grid, unknown resource) with a 400 and no change, with or without resourceId', async () => {
    const booked = await bookCard('2026-12-08');
    for (const start of [
      '2020-01-01T08:00:00Z',
      '2026-11-23T03:00:00Z',
      '2026-12-08T08:17:00+02:00',
      '2026-12-13T10:00:00+02:00',
    ]) {
      for (const extra of [{}, { resourceId: 'van-1' }, { resourceId: 'nobody' }]) {
        const res = await server.post(
          `/v1/bookings/${booked.bookingId}/reschedule`,
          { start, ...extra },
          as(),
        );
        expect(res.status, `${start} ${JSON.stringify(extra)}: ${JSON.stringify(res.body)}`).toBe(400);
        const made = await server.post(
          '/v1/bookings',
          { ...grooming(), start, resourceId: 'van-1', paymentMethod: 'CARD' },
          as(),
        );
        expect(made.status, JSON.stringify(made.body)).toBe(400);
      }
    }
    expect(await state(booked.bookingId)).toMatchObject({ status: 'PENDING', start: booked.start });
  });

  it('documents bodies as the spec does: none for pay, optional for reschedule times, status enums on results', async () => {
    const doc = (await server.get('/v1/openapi.json')).body;
    expect(doc.paths['/v1/bookings/{bookingId}/pay'].post.requestBody).toBeUndefined();
    expect(doc.paths['/v1/bookings/{bookingId}/times'].post.requestBody.required).toBe(false);
    expect(doc.paths['/v1/bookings'].post.requestBody.required).toBe(true);
    const reschedule =
      doc.paths['/v1/bookings/{bookingId}/reschedule'].post.requestBody.content['application/json'].schema;
    const schema = reschedule.$ref ? doc.components.schemas[reschedule.$ref.split('/').at(-1)] : reschedule;
    expect(schema.required).toEqual(['start']);
    const result = doc.components.schemas.BookResult;
    const statusOf = (s: { $ref?: string; enum?: string[] }) =>
      s.$ref ? doc.components.schemas[s.$ref.split('/').at(-1)!].enum : s.enum;
    expect(statusOf(result.properties.status)).toEqual([
      'PENDING',
      'ACCEPTED',
      'CANCELLED',
      'EXPIRED',
      'DONE',
    ]);
    expect(statusOf(result.properties.paymentStatus)).toContain('CASH_DUE');
  });
});
