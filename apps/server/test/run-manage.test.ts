// The business acts on its bookings: accept_booking, decline_booking, move_booking and
// cancel_business_booking on the demo partner (Boland Paws) over HTTP and MCP: every role, the
// confirm step, another business's booking, the refund rules, the slot checks (a taken slot; no
// 12-hour cut-off for the business), what the client reads on get_booking, a Lisbon business, and
// the audit trail with the assistant's name.
import { hash } from '@node-rs/argon2';
import { createApiKey } from '@nogpets/operations/testing';
import { setPassword } from '@nogpets/store';
import { fixedClock, launchBrowser } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, toolJson } from './harness.js';
import { insertPartner, LISBON_PARTNER, STELLENBOSCH_PARTNER } from './partner-fixture.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const BIZ = 'biz_boland_paws';
const OTHER = STELLENBOSCH_PARTNER.id;
const LISBON = LISBON_PARTNER.id;
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg
const ASSISTANT = 'Claude (run-manage test)';
const DAY = 86_400_000;

type Role = 'owner' | 'manager' | 'crew' | 'other' | 'nobody';
type Op = 'accept_booking' | 'decline_booking' | 'move_booking' | 'cancel_business_booking';

const PATH: Record<Op, string> = {
  accept_booking: 'accept',
  decline_booking: 'decline',
  move_booking: 'move',
  cancel_business_booking: 'cancel',
};

/** What each role gets from each operation on a Boland Paws booking (confirmed). */
const EXPECTED: Record<Role, number> = { owner: 200, manager: 200, crew: 403, other: 404, nobody: 403 };
const CODE: Record<number, string> = { 403: 'FORBIDDEN', 404: 'NOT_FOUND' };

describe('the business accepts, declines, moves and cancels its bookings', () => {
  let server: TestServer;
  const keys = {} as Record<Role | 'lisbon', string>;
  const as = (key: string) => ({ authorization: `Bearer ${key}`, 'x-client-name': ASSISTANT });
  const key = async (email: string, scopes = ['business:manage']) =>
    (await createApiKey(server.db.sql, { email, scopes })).key;
  const used = new Set<string>();
  /** The booking declined with its client's email and the reason, for the account page. */
  let declined: { id: string; email: string; reason: string } | undefined;
  /** Weekdays 20 days on and later, where the demo has no bookings: free targets for moves. */
  let freeDay = 0;
  const nextFreeStart = () => {
    for (;;) {
      const date = new Date(clock.now().getTime() + (20 + freeDay++) * DAY);
      if (date.getUTCDay() >= 1 && date.getUTCDay() <= 5)
        return `${date.toISOString().slice(0, 10)}T08:30:00+02:00`;
    }
  };

  /**
   * A confirmed demo booking of Boland Paws not used yet, starting a day or more from now; `pending`:
   * made to wait for the business (PENDING), as a new cash booking or a time its client moved it to.
   */
  async function take(kind: 'pending' | 'paid' | 'any' = 'any'): Promise<{ id: string; resourceId: string }> {
    const rows = await server.db.sql<{ id: string; resourceId: string }[]>`
      select id, resource_id as "resourceId" from bookings
      where business_id = ${BIZ} and id like 'demo-%' and status = 'ACCEPTED'
        and starts_at > ${new Date(clock.now().getTime() + DAY)}
        ${kind === 'paid' ? server.db.sql`and payment_method = 'CARD' and payment_status = 'PAID'` : server.db.sql``}
        and id <> all(${[...used, '']}::text[])
      order by starts_at, id limit 1`;
    const row = rows[0]!;
    used.add(row.id);
    if (kind === 'pending') await server.db.sql`update bookings set status = 'PENDING' where id = ${row.id}`;
    return row;
  }

  const state = async (id: string) =>
    (
      await server.db.sql<{ status: string; paymentStatus: string; start: Date; resourceId: string }[]>`
        select status, payment_status as "paymentStatus", starts_at as "start", resource_id as "resourceId"
        from bookings where id = ${id}`
    )[0]!;
  /** The email of the pet owner a booking is for. */
  const emailOf = async (bookingId: string) =>
    (
      await server.db.sql<{ email: string }[]>`
        select u.email from bookings b join users u on u.id = b.user_id where b.id = ${bookingId}`
    )[0]!.email;
  const messages = async (id: string) =>
    server.db.sql<{ kind: string; text: string; byName: string }[]>`
      select kind, text, by_name as "byName" from booking_messages where booking_id = ${id} order by at, id`;
  const audits = async (id: string) =>
    server.db.sql<{ action: string; clientName: string | null; details: Json }[]>`
      select action, client_name as "clientName", details from audit_log where target = ${id} order by id`;

  const http = (op: Op, who: string, bookingId: string, body: Record<string, unknown>) =>
    server.post(`/v1/business/bookings/${bookingId}/${PATH[op]}`, body, as(who));
  const mcp = async (op: Op, who: string, args: Record<string, unknown>) => {
    const client = await server.mcpAs(who);
    const answer = (await client.callTool({ name: op, arguments: args })) as { isError?: boolean };
    return { isError: answer.isError === true, body: toolJson(answer) };
  };

  /** The input each operation takes for this booking (the move goes to a free time on its own van). */
  const inputFor = (op: Op, b: { id: string; resourceId: string }) => ({
    bookingId: b.id,
    ...(op === 'decline_booking' || op === 'cancel_business_booking'
      ? { reason: 'The van is in for repairs.' }
      : {}),
    ...(op === 'move_booking' ? { start: nextFreeStart(), resourceId: b.resourceId } : {}),
  });
  const bookingFor = (op: Op) =>
    take(op === 'accept_booking' || op === 'decline_booking' ? 'pending' : 'any');

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    await insertPartner(server.db.sql, STELLENBOSCH_PARTNER);
    await insertPartner(server.db.sql, LISBON_PARTNER);
    keys.owner = await key('owner@partner.example');
    keys.manager = await key('manager@partner.example');
    keys.crew = await key('crew@partner.example');
    keys.other = await key('other-owner@example.com');
    keys.nobody = await key('nobody@example.com');
    keys.lisbon = await key('dona@tosquias.example');
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${OTHER}, id, 'owner', now() from users where email = 'other-owner@example.com'`;
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${LISBON}, id, 'owner', now() from users where email = 'dona@tosquias.example'`;
    await server.db.sql`
      insert into bookings (id, business_id, resource_id, line_id, status, payment_method, payment_status, starts_at, ends_at, total_cents, client_name)
      values ('bkg_other_van', ${OTHER}, ${STELLENBOSCH_PARTNER.vanId}, 'grooming', 'PENDING', 'CASH', 'CASH_DUE',
          '2026-03-13T08:00:00Z', '2026-03-13T09:00:00Z', 33000, 'test'),
        ('bkg_lisboa_1', ${LISBON}, ${LISBON_PARTNER.vanId}, 'grooming', 'PENDING', 'CASH', 'CASH_DUE',
          '2026-03-13T10:00:00Z', '2026-03-13T11:00:00Z', 3500, 'test'),
        ('bkg_lisboa_2', ${LISBON}, ${LISBON_PARTNER.vanId}, 'grooming', 'ACCEPTED', 'CASH', 'CASH_DUE',
          '2026-03-16T10:00:00Z', '2026-03-16T11:00:00Z', 3500, 'test')`;
  }, 60_000);
  afterAll(() => server?.stop());

  describe('roles', () => {
    for (const op of Object.keys(PATH) as Op[]) {
      for (const role of Object.keys(EXPECTED) as Role[]) {
        const status = EXPECTED[role];
        it(`${op} for ${role}: ${status} over HTTP and MCP, never another business's booking`, async () => {
          const viaHttp = await bookingFor(op);
          // A refusal changes nothing: one booking serves both.
          const viaMcp = status === 200 ? await bookingFor(op) : viaHttp;
          const before = [await state(viaHttp.id), await state(viaMcp.id)];
          const res = await http(op, keys[role], viaHttp.id, { ...inputFor(op, viaHttp), confirm: true });
          expect(res.status, JSON.stringify(res.body)).toBe(status);
          const overMcp = await mcp(op, keys[role], { ...inputFor(op, viaMcp), confirm: true });
          if (status === 200) {
            expect(overMcp.isError, JSON.stringify(overMcp.body)).toBe(false);
            for (const [body, b] of [
              [res.body, viaHttp],
              [overMcp.body, viaMcp],
            ] as const) {
              expect(body.booking.bookingId).toBe(b.id);
              expect(body.message).toMatch(/\w/);
              expect(body.toldClient).toContain('Boland Paws');
              expect((await messages(b.id)).length).toBe(1);
            }
            const after = await state(viaHttp.id);
            if (op === 'accept_booking' || op === 'move_booking') expect(after.status).toBe('ACCEPTED');
            else expect(after.status).toBe('CANCELLED');
          } else {
            expect(res.body.error.code).toBe(CODE[status]);
            expect(overMcp.isError).toBe(true);
            expect(overMcp.body.error.code).toBe(CODE[status]);
            expect(overMcp.body.error.message).toBe(res.body.error.message);
            if (status === 404)
              expect(res.body.error.message).toBe(
                `No booking ${viaHttp.id} at ${STELLENBOSCH_PARTNER.name}.`,
              );
            expect([await state(viaHttp.id), await state(viaMcp.id)]).toEqual(before);
            expect(await messages(viaHttp.id)).toEqual([]);
            expect(JSON.stringify(res.body)).not.toMatch(/Anele|Pieter|Fatima|Lerato|Steyn/);
          }
        });
      }
    }
  });

  it("another business's booking is 404 in the same words as a missing one, and stays as it was", async () => {
    for (const op of Object.keys(PATH) as Op[]) {
      const foreign = await http(op, keys.owner, 'bkg_other_van', {
        ...inputFor(op, { id: 'bkg_other_van', resourceId: STELLENBOSCH_PARTNER.vanId }),
        confirm: true,
      });
      const missing = await http(op, keys.owner, 'bkg_no_such', {
        ...inputFor(op, { id: 'bkg_no_such', resourceId: 'bp-van-1' }),
        confirm: true,
      });
      expect(foreign.status).toBe(404);
      expect(missing.status).toBe(404);
      expect(foreign.body.error.message.replace('bkg_other_van', 'X')).toBe(
        missing.body.error.message.replace('bkg_no_such', 'X'),
      );
      expect(JSON.stringify(foreign.body)).not.toContain(STELLENBOSCH_PARTNER.name);
    }
    expect((await state('bkg_other_van')).status).toBe('PENDING');
    expect(await messages('bkg_other_van')).toEqual([]);
  });

  it('asks to confirm (409 with a summary, nothing changed) and acts on the same input with confirm', async () => {
    for (const op of Object.keys(PATH) as Op[]) {
      const b = await bookingFor(op);
      const before = await state(b.id);
      const input = inputFor(op, b);
      const asked = await http(op, keys.owner, b.id, input);
      expect(asked.status, JSON.stringify(asked.body)).toBe(409);
      expect(asked.body.error.code).toBe('CONFIRM_REQUIRED');
      expect(asked.body.error.details.summary).toMatch(/^(Accept|Decline|Move|Cancel) \S+ \S+'s booking/);
      expect(asked.body.error.details.bookingId).toBe(b.id);
      const overMcp = await mcp(op, keys.manager, input);
      expect(overMcp.isError).toBe(true);
      expect(overMcp.body.error.code).toBe('CONFIRM_REQUIRED');
      expect(overMcp.body.error.details.summary).toBe(asked.body.error.details.summary);
      expect(await state(b.id)).toEqual(before);
      expect(await messages(b.id)).toEqual([]);
      expect((await audits(b.id)).filter((a) => a.action.startsWith('business.'))).toEqual([]);
      const done = await http(op, keys.owner, b.id, { ...input, confirm: true });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
    }
  });

  it('accepts a pending booking as the CLI does; an accepted one is left as it is; a cancelled one is refused', async () => {
    const b = await take('pending');
    const res = await http('accept_booking', keys.owner, b.id, { bookingId: b.id, confirm: true });
    expect(res.status).toBe(200);
    expect(res.body.booking.status).toBe('ACCEPTED');
    expect(res.body.booking.statusWords).toBe('Confirmed');
    expect(res.body.toldClient).toMatch(/^Boland Paws confirmed your booking of /);
    const again = await http('accept_booking', keys.owner, b.id, { bookingId: b.id });
    expect(again.status).toBe(200);
    expect(again.body.toldClient).toBeNull();
    expect(again.body.message).toMatch(/already confirmed/);
    expect((await messages(b.id)).length).toBe(1);
    const c = await take('any');
    await server.db.sql`update bookings set status = 'CANCELLED', payment_status = 'VOID' where id = ${c.id}`;
    const closed = await http('accept_booking', keys.owner, c.id, { bookingId: c.id, confirm: true });
    expect(closed.status).toBe(409);
    expect(closed.body.error.code).toBe('NOT_ACTIVE');
  });

  it('a paid booking the client moved is declined: REFUND_REQUESTED, and the client reads why on get_booking', async () => {
    const b = await take('paid');
    const email = await emailOf(b.id);
    const client = await key(email, ['bookings:read', 'bookings:write']);
    const bearer = { authorization: `Bearer ${client}` };
    // The client moves it: it waits for the business (PENDING), still paid.
    const moved = await server.post(
      `/v1/bookings/${b.id}/reschedule`,
      { start: nextFreeStart(), resourceId: b.resourceId },
      bearer,
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ status: 'PENDING', paymentStatus: 'PAID' });
    const reason = 'We no longer groom on that day; please pick another.';
    const asked = await http('decline_booking', keys.owner, b.id, { bookingId: b.id, reason });
    expect(asked.body.error.details.summary).toMatch(/is refunded to the card in 5 to 7 working days/);
    const res = await http('decline_booking', keys.owner, b.id, { bookingId: b.id, reason, confirm: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' });
    expect(res.body.refundRequested).toEqual([b.id]);
    expect(await state(b.id)).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' });
    const seen = await server.get(`/v1/bookings/${b.id}`, bearer);
    expect(seen.status).toBe(200);
    expect(seen.body.status).toBe('CANCELLED');
    expect(seen.body.fromBusiness).toHaveLength(1);
    expect(seen.body.fromBusiness[0].kind).toBe('DECLINED');
    expect(seen.body.fromBusiness[0].text).toContain(reason);
    expect(seen.body.fromBusiness[0].text).toMatch(/refunded to your card in 5 to 7 working days/);
    declined = { id: b.id, email, reason };
    // A confirmed booking is not declined: it is cancelled.
    const accepted = await take('any');
    const refused = await http('decline_booking', keys.owner, accepted.id, {
      bookingId: accepted.id,
      reason,
      confirm: true,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('NOT_ACTIVE');
    expect(refused.body.error.message).toMatch(/cancel_business_booking/);
  });

  it('declines an unpaid card booking: nothing owed, its pay link stops working', async () => {
    const [b] = await server.db.sql<{ id: string }[]>`
      select id from bookings where business_id = ${BIZ} and status = 'PENDING' and payment_method = 'CARD'
        and payment_status = 'PENDING' and starts_at > ${clock.now()} and id <> all(${[...used, '']}::text[])
      order by starts_at limit 1`;
    used.add(b!.id);
    const open = async () =>
      (
        await server.db.sql<{ n: number }[]>`
          select count(*)::int as n from payments where booking_ids @> array[${b!.id}] and status = 'OPEN'`
      )[0]!.n;
    expect(await open()).toBe(1);
    const res = await http('decline_booking', keys.manager, b!.id, {
      bookingId: b!.id,
      reason: 'Fully booked that morning.',
      confirm: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking).toMatchObject({ status: 'CANCELLED', paymentStatus: 'VOID' });
    expect(res.body.refundRequested).toEqual([]);
    expect(res.body.toldClient).toMatch(/Nothing is owed\.$/);
    expect(await open()).toBe(0);
  });

  it('accepting or moving an unpaid card booking tells the client it is still to be paid, and by when', async () => {
    const unpaid = async () => {
      const [row] = await server.db.sql<{ id: string; resourceId: string; holdUntil: Date }[]>`
        select id, resource_id as "resourceId", hold_until as "holdUntil" from bookings
        where business_id = ${BIZ} and status = 'PENDING' and payment_method = 'CARD' and payment_status = 'PENDING'
          and hold_until > ${clock.now()} and starts_at > ${clock.now()} and id <> all(${[...used, '']}::text[])
        order by starts_at limit 1`;
      expect(row, 'an unpaid card booking of the demo').toBeDefined();
      used.add(row!.id);
      return row!;
    };
    const a = await unpaid();
    const accepted = await http('accept_booking', keys.owner, a.id, { bookingId: a.id, confirm: true });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.booking).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PENDING' });
    // The hold still lapses unpaid (booking-rules' HOLD_EXPIRED): the client must not read only "confirmed".
    expect(accepted.body.toldClient).toMatch(/still to be paid by card/);
    expect(accepted.body.toldClient).toMatch(
      /by card by \w{3}, \d+ \w{3} \d{4}, \d\d:\d\d, or the time is released\.$/,
    );
    const [seen] = await messages(a.id);
    expect(seen!.text).toBe(accepted.body.toldClient);
    const m = await unpaid();
    const moved = await http('move_booking', keys.owner, m.id, {
      bookingId: m.id,
      start: nextFreeStart(),
      resourceId: m.resourceId,
      confirm: true,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.toldClient).toMatch(/still to be paid by card/);
  });

  it('a booking that has started (still active) is too late to decline, move or cancel: nothing changed', async () => {
    const [row] = await server.db.sql<{ id: string; resourceId: string }[]>`
      select id, resource_id as "resourceId" from bookings
      where business_id = ${BIZ} and status = 'DONE' and starts_at < ${clock.now()}
        and id <> all(${[...used, '']}::text[])
      order by starts_at desc limit 1`;
    used.add(row!.id);
    await server.db.sql`update bookings set status = 'PENDING' where id = ${row!.id}`;
    const before = await state(row!.id);
    for (const op of ['decline_booking', 'move_booking', 'cancel_business_booking'] as Op[]) {
      const res = await http(op, keys.owner, row!.id, { ...inputFor(op, row!), confirm: true });
      expect(res.status, `${op} ${JSON.stringify(res.body)}`).toBe(409);
      expect(res.body.error.code).toBe('TOO_LATE');
    }
    expect(await state(row!.id)).toEqual(before);
    expect(await messages(row!.id)).toEqual([]);
  });

  it('moves a booking onto a taken slot: 409 SLOT_TAKEN, nothing changed', async () => {
    const b = await take('any');
    const [taken] = await server.db.sql<{ id: string; start: Date }[]>`
      select id, starts_at as "start" from bookings
      where business_id = ${BIZ} and resource_id = ${b.resourceId} and status in ('PENDING', 'ACCEPTED')
        and id <> ${b.id} and starts_at > ${new Date(clock.now().getTime() + DAY)}
      order by starts_at limit 1`;
    const before = await state(b.id);
    const res = await http('move_booking', keys.owner, b.id, {
      bookingId: b.id,
      start: taken!.start.toISOString(),
      resourceId: b.resourceId,
      confirm: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.code).toBe('SLOT_TAKEN');
    expect(await state(b.id)).toEqual(before);
    expect(await messages(b.id)).toEqual([]);
  });

  it('moves a booking starting within 12 hours (the business has no cut-off): ACCEPTED, the client reads where', async () => {
    const [b] = await server.db.sql<{ id: string; resourceId: string; userId: string; status: string }[]>`
      select id, resource_id as "resourceId", user_id as "userId", status from bookings
      where business_id = ${BIZ} and line_id = 'grooming' and status in ('PENDING', 'ACCEPTED')
        and starts_at > ${clock.now()} and starts_at < ${new Date(clock.now().getTime() + 12 * 3_600_000)}
        and id <> all(${[...used, '']}::text[])
      order by starts_at limit 1`;
    expect(b, 'a demo booking within 12 hours').toBeDefined();
    used.add(b!.id);
    const email = await emailOf(b!.id);
    const client = await key(email, ['bookings:read', 'bookings:write']);
    // The client may not move it any more…
    const late = await server.post(
      `/v1/bookings/${b!.id}/reschedule`,
      { start: nextFreeStart(), resourceId: b!.resourceId },
      { authorization: `Bearer ${client}` },
    );
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('TOO_LATE');
    // …the business may.
    const start = nextFreeStart();
    const reason = 'Our first appointment ran long.';
    const res = await http('move_booking', keys.owner, b!.id, {
      bookingId: b!.id,
      start,
      resourceId: b!.resourceId,
      reason,
      confirm: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking.status).toBe('ACCEPTED');
    expect(res.body.booking.start).toBe(new Date(start).toISOString());
    expect(res.body.booking.startLocal).toBe('08:30');
    const after = await state(b!.id);
    expect(after.start.toISOString()).toBe(new Date(start).toISOString());
    const seen = await server.get(`/v1/bookings/${b!.id}`, { authorization: `Bearer ${client}` });
    expect(seen.body.status).toBe('ACCEPTED');
    expect(seen.body.fromBusiness[0]).toMatchObject({ kind: 'MOVED' });
    expect(seen.body.fromBusiness[0].text).toContain(reason);
    expect(seen.body.fromBusiness[0].text).toMatch(/^Boland Paws moved your booking from .* to /);
    const list = await server.get('/v1/bookings', { authorization: `Bearer ${client}` });
    const listed = list.body.bookings.find((x: Json) => x.id === b!.id);
    expect(listed.fromBusiness[0].kind).toBe('MOVED');
    // Audited with the assistant's name and the reason.
    const audit = (await audits(b!.id)).find((a) => a.action === 'business.booking.move')!;
    expect(audit.clientName).toBe(ASSISTANT);
    expect(audit.details).toMatchObject({ businessId: BIZ, reason, to: new Date(start).toISOString() });
    const [msg] = await messages(b!.id);
    expect(msg!.byName).toBe('Marelize Botha (Boland Paws)');
  });

  it('names the van a booking moves to as the business calls it, not by its id', async () => {
    const [b] = await server.db.sql<{ id: string }[]>`
      select id from bookings where business_id = ${BIZ} and resource_id = 'bp-van-1'
        and status in ('PENDING', 'ACCEPTED') and starts_at > ${clock.now()}
        and id <> all(${[...used, '']}::text[])
      order by starts_at limit 1`;
    const asked = await http('move_booking', keys.owner, b!.id, {
      bookingId: b!.id,
      start: nextFreeStart(),
      resourceId: 'bp-van-2',
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(409);
    expect(asked.body.error.details.summary).toContain(' on Van 2 (Nomsa)');
    expect(asked.body.error.details.summary).not.toContain('bp-van-2');
  });

  it('moves a walk to within the two hours of notice only with ignoreNotice', async () => {
    const [w] = await server.db.sql<{ id: string }[]>`
      select id from bookings where business_id = ${BIZ} and resource_id = 'bp-walker' and status = 'ACCEPTED'
        and starts_at > ${new Date(clock.now().getTime() + DAY)} and id <> all(${[...used, '']}::text[])
      order by starts_at limit 1`;
    used.add(w!.id);
    const input = {
      bookingId: w!.id,
      start: '2026-03-11T07:00:00+02:00',
      resourceId: 'bp-walker',
      confirm: true,
    };
    const soon = await http('move_booking', keys.owner, w!.id, input);
    expect(soon.status, JSON.stringify(soon.body)).toBe(400);
    const res = await http('move_booking', keys.owner, w!.id, { ...input, ignoreNotice: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking.startLocal).toBe('07:00');
  });

  it('cancels a paid booking with the refund rules; a started one is too late', async () => {
    const b = await take('paid');
    const res = await http('cancel_business_booking', keys.owner, b.id, {
      bookingId: b.id,
      reason: 'Our groomer is ill.',
      confirm: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' });
    expect(res.body.cancelled).toEqual([b.id]);
    expect(res.body.refundRequested).toEqual([b.id]);
    const [msg] = await messages(b.id);
    expect(msg).toMatchObject({ kind: 'CANCELLED' });
    expect(msg!.text).toMatch(/Our groomer is ill.*refunded to your card/);
    const audit = (await audits(b.id)).find((a) => a.action === 'business.booking.cancel')!;
    expect(audit.clientName).toBe(ASSISTANT);
    expect(audit.details).toMatchObject({
      businessId: BIZ,
      reason: 'Our groomer is ill.',
      paymentStatus: 'REFUND_REQUESTED',
    });
    const [started] = await server.db.sql<{ id: string }[]>`
      select id from bookings where business_id = ${BIZ} and status = 'DONE' order by starts_at desc limit 1`;
    const past = await http('cancel_business_booking', keys.owner, started!.id, {
      bookingId: started!.id,
      reason: 'x',
      confirm: true,
    });
    expect(past.status).toBe(409);
    expect(past.body.error.code).toBe('NOT_ACTIVE');
  });

  it('cancels the later weeks of a weekly repeat with series: true, each client told', async () => {
    const [a, c] = [await take('any'), await take('any')];
    // Two bookings of one weekly repeat, the second later.
    await server.db
      .sql`update bookings set series_id = 'ser_run_manage' where id = any(${[a.id, c.id]}::text[])`;
    const asked = await mcp('cancel_business_booking', keys.manager, {
      bookingId: a.id,
      reason: 'We stop the Wednesday round.',
      series: true,
    });
    expect(asked.body.error.details.summary).toMatch(/^Cancel .+'s 2 bookings for .+ and 1 later booking\./);
    const res = await mcp('cancel_business_booking', keys.manager, {
      bookingId: a.id,
      reason: 'We stop the Wednesday round.',
      series: true,
      confirm: true,
    });
    expect(res.isError, JSON.stringify(res.body)).toBe(false);
    expect(res.body.cancelled).toEqual([a.id, c.id]);
    for (const id of [a.id, c.id]) {
      expect((await state(id)).status).toBe('CANCELLED');
      expect((await messages(id)).map((m) => m.kind)).toEqual(['CANCELLED']);
    }
  });

  it("the client's account page shows why the business declined (Chromium)", async () => {
    expect(declined).toBeDefined();
    const { id, email, reason } = declined!;
    const [user] = await server.db.sql<{ id: string }[]>`select id from users where email = ${email}`;
    await setPassword(server.db.sql, user!.id, await hash('a long enough password'));
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${server.url}/signin?next=%2Faccount`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('a long enough password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${server.url}/account`);
      const row = await page.locator(`#booking-${id}`).innerText();
      expect(row).toContain(`Boland Paws declined your booking of`);
      expect(row).toContain(reason);
      expect(row).toContain('Cancelled');
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('a Lisbon business: moving is NOT_AVAILABLE_IN_COUNTRY, accepting and cancelling work in euro', async () => {
    const moved = await http('move_booking', keys.lisbon, 'bkg_lisboa_1', {
      bookingId: 'bkg_lisboa_1',
      start: '2026-03-20T10:00:00Z',
      confirm: true,
    });
    expect(moved.status).toBe(409);
    expect(moved.body.error.code).toBe('NOT_AVAILABLE_IN_COUNTRY');
    const overMcp = await mcp('move_booking', keys.lisbon, {
      bookingId: 'bkg_lisboa_1',
      start: '2026-03-20T10:00:00Z',
      confirm: true,
    });
    expect(overMcp.body.error.code).toBe('NOT_AVAILABLE_IN_COUNTRY');
    const accepted = await http('accept_booking', keys.lisbon, 'bkg_lisboa_1', {
      bookingId: 'bkg_lisboa_1',
      confirm: true,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.booking.status).toBe('ACCEPTED');
    expect(accepted.body.booking.startLocal).toBe('10:00'); // Lisbon is on UTC in March
    expect(accepted.body.toldClient).toMatch(/^Tosquias da Graça confirmed/);
    const cancelled = await mcp('cancel_business_booking', keys.lisbon, {
      bookingId: 'bkg_lisboa_2',
      reason: 'A carrinha avariou.',
      confirm: true,
    });
    expect(cancelled.isError, JSON.stringify(cancelled.body)).toBe(false);
    expect(cancelled.body.booking.total).toMatch(/€/);
    expect(cancelled.body.booking.status).toBe('CANCELLED');
  });
});
