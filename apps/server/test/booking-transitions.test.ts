import { operations } from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payInSandbox, startTestServer, type TestServer, toolJson } from './harness.js';

/**
 * The spec's Booking table (States and transitions), row by row, and the refusals around it, each
 * driven once through HTTP and once through MCP with the same inputs. A row names its trigger, the
 * state it starts from, and the state (or the error code) it must end in; `getBooking` through the
 * same transport reads the state back.
 */

const HOUR = 3_600_000;
const START = '2026-11-23T04:00:00Z'; // Monday 06:00 in Johannesburg

interface Answer {
  ok: boolean;
  /** The HTTP status (HTTP only: MCP answers carry the code). */
  status?: number;
  code?: string;
  body: any;
}

interface Transport {
  name: 'HTTP' | 'MCP';
  call(operationId: string, input: Record<string, unknown>): Promise<Answer>;
}

const byId = new Map(operations.map((op) => [op.operationId, op]));

function httpTransport(server: TestServer, key: string): Transport {
  return {
    name: 'HTTP',
    async call(operationId, input) {
      const op = byId.get(operationId)!;
      const rest: Record<string, unknown> = { ...input };
      const path = op.path.replace(/:([A-Za-z]+)/g, (_, p: string) => {
        const v = String(rest[p]);
        delete rest[p];
        return encodeURIComponent(v);
      });
      const headers = { authorization: `Bearer ${key}` };
      const res =
        op.method === 'GET'
          ? await server.get(
              `${path}?${new URLSearchParams(Object.entries(rest).map(([k, v]): [string, string] => [k, String(v)]))}`,
              headers,
            )
          : await server.post(path, rest, headers);
      return { ok: res.status < 300, status: res.status, code: res.body?.error?.code, body: res.body };
    },
  };
}

async function mcpTransport(server: TestServer, key: string): Promise<Transport> {
  const client = await server.mcpAs(key);
  return {
    name: 'MCP',
    async call(operationId, input) {
      const op = byId.get(operationId)!;
      const answer = await client.callTool({ name: op.toolName, arguments: input });
      const body = toolJson(answer);
      return { ok: !answer.isError, code: body?.error?.code, body };
    },
  };
}

describe('the Booking table of the spec, through HTTP and through MCP', () => {
  let server: TestServer;
  const clock = fixedClock(START);
  let key: string;
  let petId: string;
  let addressId: string;
  const transports: Record<string, Transport> = {};

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    key = (
      await createApiKey(server.db.sql, {
        email: 'thandi@example.com',
        scopes: ['bookings:read', 'bookings:write', 'pets', 'addresses'],
      })
    ).key;
    const as = { authorization: `Bearer ${key}` };
    petId = (await server.post('/v1/pets', { name: 'Bella', type: 'DOG', weightKg: 9, coat: 'SHORT' }, as))
      .body.id;
    addressId = (
      await server.post(
        '/v1/addresses',
        { label: 'Home', line1: '3 Ryneveld Street', suburb: 'Die Boord' },
        as,
      )
    ).body.id;
    for (const from of ['2026-11-30', '2026-12-31']) {
      const to = new Date(Date.parse(from) + 30 * 24 * HOUR).toISOString().slice(0, 10);
      const found = await server.post('/v1/availability', { ...grooming(), from, to }, as);
      openDays.push(
        ...found.body.days
          .filter((d: { slots: unknown[] }) => d.slots.length >= 6)
          .map((d: { date: string }) => d.date),
      );
    }
    expect(openDays.length).toBeGreaterThanOrEqual(26);
    transports.HTTP = httpTransport(server, key);
    transports.MCP = await mcpTransport(server, key);
  });
  afterAll(() => server?.stop());

  const grooming = () => ({
    category: 'grooming',
    addressId,
    pets: [{ petId, serviceIds: ['groom-dog-bath'] }],
  });
  const rows = async () =>
    (
      await server.db.sql<{ n: number }[]>`select count(*)::int as n from bookings where user_id is not null`
    )[0]!.n;

  /** Grooming days with room, found as an assistant would; each transport books on its own, so the two never compete. */
  const openDays: string[] = [];
  const day = (t: Transport, n: number) => openDays[2 * (n - 1) + (t.name === 'MCP' ? 1 : 0)]!;

  async function openSlot(t: Transport, date: string, pick = 0) {
    const found = await t.call('findTimes', { ...grooming(), from: date, to: date });
    expect(found.ok, JSON.stringify(found.body)).toBe(true);
    const slot = found.body.days[0].slots[pick];
    expect(slot, `an open slot on ${date}`).toBeTruthy();
    return slot as { start: string; resourceId: string };
  }

  async function book(t: Transport, date: string, paymentMethod: 'CARD' | 'CASH', pick = 0) {
    const slot = await openSlot(t, date, pick);
    const res = await t.call('book', {
      ...grooming(),
      start: slot.start,
      resourceId: slot.resourceId,
      paymentMethod,
      ...(paymentMethod === 'CASH' ? { confirm: true } : {}),
    });
    expect(res.ok, JSON.stringify(res.body)).toBe(true);
    return { slot, id: res.body.bookingId as string, res };
  }

  async function stateOf(t: Transport, id: string) {
    const got = await t.call('getBooking', { bookingId: id });
    expect(got.ok, JSON.stringify(got.body)).toBe(true);
    return got.body as {
      status: string;
      paymentStatus: string;
      start: string;
      resourceId: string;
      totalCents: number;
      canPay: boolean;
    };
  }

  /** The gateway reports the card payment: a signed sandbox notification, as its pay page sends. */
  async function payAtGateway(id: string) {
    expect(await payInSandbox(server, id)).toBe(200);
  }

  /** Runs `fn` with the clock at `at`, then puts it back. */
  async function at<T>(instant: Date | string, fn: () => Promise<T>): Promise<T> {
    const saved = clock.now();
    clock.set(instant);
    try {
      return await fn();
    } finally {
      clock.set(saved);
    }
  }

  /** A refusal: the error code everywhere, and on HTTP the status as decided in docs/decisions.md. */
  function expectRefused(answer: Answer, code: string, status: number) {
    expect(answer.ok, JSON.stringify(answer.body)).toBe(false);
    expect(answer.code).toBe(code);
    expect(answer.body.error.message).toEqual(expect.any(String));
    if (answer.status !== undefined) expect(answer.status).toBe(status);
  }

  for (const name of ['HTTP', 'MCP'] as const) {
    describe(`through ${name}`, () => {
      const t = () => transports[name]!;

      it('(none) → book CARD → PENDING / PENDING with payUrl; the time is held', async () => {
        const { slot, id, res } = await book(t(), day(t(), 1), 'CARD');
        expect(res.body).toMatchObject({
          status: 'PENDING',
          paymentStatus: 'PENDING',
          paymentMethod: 'CARD',
        });
        expect(res.body.payUrl).toMatch(/\/pay\/npl_/);
        expect(await stateOf(t(), id)).toMatchObject({
          status: 'PENDING',
          paymentStatus: 'PENDING',
          canPay: true,
        });
        const again = await t().call('findTimes', { ...grooming(), from: day(t(), 1), to: day(t(), 1) });
        expect(
          again.body.days[0].slots.some(
            (s: { start: string; resourceId: string }) =>
              s.start === slot.start && s.resourceId === slot.resourceId,
          ),
        ).toBe(false);
      });

      it('(none) → book CASH with confirm → PENDING / CASH_DUE, no payUrl', async () => {
        const { id, res } = await book(t(), day(t(), 2), 'CASH');
        expect(res.body).toMatchObject({ status: 'PENDING', paymentStatus: 'CASH_DUE' });
        expect(res.body.payUrl).toBeUndefined();
        expect(await stateOf(t(), id)).toMatchObject({
          status: 'PENDING',
          paymentStatus: 'CASH_DUE',
          canPay: false,
        });
      });

      it('(none) → book CASH without confirm → no booking, CONFIRM_REQUIRED with the summary', async () => {
        const slot = await openSlot(t(), day(t(), 2));
        const before = await rows();
        const res = await t().call('book', {
          ...grooming(),
          start: slot.start,
          resourceId: slot.resourceId,
          paymentMethod: 'CASH',
        });
        expectRefused(res, 'CONFIRM_REQUIRED', 409);
        expect(res.body.error.details.summary).toMatch(/in cash/);
        expect(await rows()).toBe(before);
      });

      it('card booking, unpaid → payment made at the gateway → confirmed (ACCEPTED / PAID)', async () => {
        const { id } = await book(t(), day(t(), 3), 'CARD');
        await payAtGateway(id);
        expect(await stateOf(t(), id)).toMatchObject({
          status: 'ACCEPTED',
          paymentStatus: 'PAID',
          canPay: false,
        });
      });

      it('active booking → reschedule more than 12 hours ahead → PENDING; price and payment unchanged', async () => {
        const { id, slot } = await book(t(), day(t(), 4), 'CARD');
        await payAtGateway(id);
        const before = await stateOf(t(), id);
        const times = await t().call('rescheduleTimes', {
          bookingId: id,
          from: day(t(), 5),
          to: day(t(), 5),
        });
        expect(times.ok, JSON.stringify(times.body)).toBe(true);
        const target = times.body.days[0].slots[0];
        const moved = await t().call('rescheduleBooking', {
          bookingId: id,
          start: target.start,
          resourceId: target.resourceId,
        });
        expect(moved.ok, JSON.stringify(moved.body)).toBe(true);
        expect(moved.body).toMatchObject({
          bookingId: id,
          start: target.start,
          status: 'PENDING',
          paymentStatus: 'PAID',
        });
        const after = await stateOf(t(), id);
        expect(after).toMatchObject({
          status: 'PENDING',
          paymentStatus: 'PAID',
          start: target.start,
          totalCents: before.totalCents,
        });
        // The old time is free again.
        const old = await t().call('findTimes', { ...grooming(), from: day(t(), 4), to: day(t(), 4) });
        expect(
          old.body.days[0].slots.some(
            (s: { start: string; resourceId: string }) =>
              s.start === slot.start && s.resourceId === slot.resourceId,
          ),
        ).toBe(true);
      });

      it('active booking → reschedule 12 hours or less before start → unchanged, TOO_LATE', async () => {
        const { id, slot } = await book(t(), day(t(), 6), 'CASH');
        const target = await openSlot(t(), day(t(), 7));
        for (const before of [12 * HOUR, 2 * HOUR]) {
          const res = await at(new Date(Date.parse(slot.start) - before), () =>
            t().call('rescheduleBooking', {
              bookingId: id,
              start: target.start,
              resourceId: target.resourceId,
            }),
          );
          expectRefused(res, 'TOO_LATE', 409);
        }
        expect(await stateOf(t(), id)).toMatchObject({
          status: 'PENDING',
          paymentStatus: 'CASH_DUE',
          start: slot.start,
        });
      });

      it('active booking → reschedule onto a time someone holds → unchanged, SLOT_TAKEN', async () => {
        const a = await book(t(), day(t(), 8), 'CASH', 0);
        const b = await book(t(), day(t(), 8), 'CASH', 0);
        const res = await t().call('rescheduleBooking', {
          bookingId: a.id,
          start: b.slot.start,
          resourceId: b.slot.resourceId,
        });
        expectRefused(res, 'SLOT_TAKEN', 409);
        expect((await stateOf(t(), a.id)).start).toBe(a.slot.start);
      });

      it('active booking → cancel with confirm before it starts → CANCELLED; nothing owed', async () => {
        const { id } = await book(t(), day(t(), 9), 'CARD');
        const res = await t().call('cancelBooking', { bookingId: id, confirm: true });
        expect(res.ok, JSON.stringify(res.body)).toBe(true);
        expect(res.body).toMatchObject({ cancelled: [id], refundRequested: [] });
        expect(await stateOf(t(), id)).toMatchObject({
          status: 'CANCELLED',
          paymentStatus: 'VOID',
          canPay: false,
        });
      });

      it('paid booking → cancel → CANCELLED / REFUND_REQUESTED', async () => {
        const { id } = await book(t(), day(t(), 10), 'CARD');
        await payAtGateway(id);
        const res = await t().call('cancelBooking', { bookingId: id, confirm: true });
        expect(res.body).toMatchObject({ cancelled: [id], refundRequested: [id] });
        expect(res.body.message).toMatch(/5 to 7 working days/);
        expect(await stateOf(t(), id)).toMatchObject({
          status: 'CANCELLED',
          paymentStatus: 'REFUND_REQUESTED',
        });
      });

      it('refuses a cancel with confirm false or left out (CONFIRM_REQUIRED), at or after the start (TOO_LATE), and twice (NOT_ACTIVE)', async () => {
        const { id, slot } = await book(t(), day(t(), 11), 'CASH');
        expectRefused(
          await t().call('cancelBooking', { bookingId: id, confirm: false }),
          'CONFIRM_REQUIRED',
          409,
        );
        // The spec: `confirm` other than true, left out included, is CONFIRM_REQUIRED with the summary.
        const missing = await t().call('cancelBooking', { bookingId: id });
        expectRefused(missing, 'CONFIRM_REQUIRED', 409);
        expect(missing.body.error.details.summary).toMatch(
          /^Cancel the booking for .+, \w{3}, \d+ \w{3} 2026, \d\d:\d\d to /,
        );
        expectRefused(
          await at(slot.start, () => t().call('cancelBooking', { bookingId: id, confirm: true })),
          'TOO_LATE',
          409,
        );
        expect(await stateOf(t(), id)).toMatchObject({ status: 'PENDING', paymentStatus: 'CASH_DUE' });
        expect((await t().call('cancelBooking', { bookingId: id, confirm: true })).ok).toBe(true);
        expectRefused(await t().call('cancelBooking', { bookingId: id, confirm: true }), 'NOT_ACTIVE', 409);
        const target = await openSlot(t(), day(t(), 12));
        expectRefused(
          await t().call('rescheduleBooking', {
            bookingId: id,
            start: target.start,
            resourceId: target.resourceId,
          }),
          'NOT_ACTIVE',
          409,
        );
        expectRefused(await t().call('rescheduleTimes', { bookingId: id }), 'NOT_ACTIVE', 409);
        expect(await stateOf(t(), id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'VOID' });
      });

      it('gives a fresh pay link only for an unpaid card booking; NOTHING_TO_PAY otherwise', async () => {
        const card = await book(t(), day(t(), 12), 'CARD', 1);
        const link = await t().call('payBooking', { bookingId: card.id });
        expect(link.ok, JSON.stringify(link.body)).toBe(true);
        expect(link.body.payUrl).not.toBe(card.res.body.payUrl);
        expect(Date.parse(link.body.expiresAt) - clock.now().getTime()).toBe(48 * HOUR);
        await payAtGateway(card.id);
        expectRefused(await t().call('payBooking', { bookingId: card.id }), 'NOTHING_TO_PAY', 409);
        const cash = await book(t(), day(t(), 13), 'CASH');
        expectRefused(await t().call('payBooking', { bookingId: cash.id }), 'NOTHING_TO_PAY', 409);
      });

      it('answers NOT_FOUND for a booking that is not there, and SLOT_TAKEN for a held time', async () => {
        expectRefused(await t().call('getBooking', { bookingId: 'bkg_nope' }), 'NOT_FOUND', 404);
        const { slot } = await book(t(), day(t(), 13), 'CARD', 2);
        const before = await rows();
        const res = await t().call('book', {
          ...grooming(),
          start: slot.start,
          resourceId: slot.resourceId,
          paymentMethod: 'CARD',
        });
        expectRefused(res, 'SLOT_TAKEN', 409);
        expect(await rows()).toBe(before);
      });
    });
  }
});
