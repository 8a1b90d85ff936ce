// When the business works: set_working_hours, add_time_off, list_time_off and
// remove_time_off on the demo partner (Boland Paws) over HTTP and MCP: every role, the confirm
// step listing the bookings a change would strand, those bookings then flagged (needsMove) on the
// day plan and the bookings list and unflagged once moved or covered again, hours without stranded
// bookings applied at once and shown by find_business_times and find_times at once, time off
// added, listed and removed, the bounds, and a Lisbon business across the October DST change.
import { createApiKey } from '@nogpets/operations/testing';
import { findSlots, workingIntervals } from '@nogpets/slot-engine';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, toolJson } from './harness.js';
import { insertPartner, LISBON_PARTNER, STELLENBOSCH_PARTNER } from './partner-fixture.js';

type Json = any;

const BIZ = 'biz_boland_paws';
const OTHER = STELLENBOSCH_PARTNER.id;
const LISBON = LISBON_PARTNER.id;
const LX_VAN = LISBON_PARTNER.vanId;
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg
const ASSISTANT = 'Claude (run-hours test)';
const HOUR = 3_600_000;
const SAST = 2 * HOUR; // Johannesburg: UTC+2 all year

type Role = 'owner' | 'manager' | 'crew' | 'other' | 'nobody';
const ROLES: Role[] = ['owner', 'manager', 'crew', 'other', 'nobody'];
const PETS = [{ name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['bp-groom-bath'] }];
const WALK = [{ name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['bp-walk-30'] }];

/** Van 1's week in the demo (partner.json), to restore. */
const VAN1_WEEK = {
  mon: [{ start: '08:00', end: '17:00' }],
  tue: [{ start: '08:00', end: '17:00' }],
  wed: [{ start: '08:00', end: '17:00' }],
  thu: [{ start: '08:00', end: '17:00' }],
  fri: [{ start: '08:00', end: '17:00' }],
  sat: [{ start: '08:00', end: '13:00' }],
};
const WEEKDAYS_ONLY = (start: string, end: string) =>
  Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ start, end }]]));

describe('working hours and time off', () => {
  let server: TestServer;
  const keys = {} as Record<Role | 'lisbon', string>;
  const as = (key: string) => ({ authorization: `Bearer ${key}`, 'x-client-name': ASSISTANT });
  const key = async (email: string) =>
    (await createApiKey(server.db.sql, { email, scopes: ['business:manage'] })).key;

  const post = (path: string, who: string, body: Record<string, unknown>) => server.post(path, body, as(who));
  const get = (path: string, who: string, query: Record<string, string> = {}) => {
    const qs = new URLSearchParams(query).toString();
    return server.get(`${path}${qs ? `?${qs}` : ''}`, as(who));
  };
  const mcp = async (who: string, tool: string, args: Record<string, unknown>) => {
    const client = await server.mcpAs(who);
    const answer = (await client.callTool({ name: tool, arguments: args })) as { isError?: boolean };
    return { isError: answer.isError === true, body: toolJson(answer) };
  };
  const weekOf = async (resourceId: string, businessId = BIZ) =>
    (
      await server.db.sql<{ week: Json }[]>`
        select week from resources where business_id = ${businessId} and id = ${resourceId}`
    )[0]!.week;
  const flags = async () =>
    server.db.sql<{ bookingId: string; cause: string }[]>`
      select booking_id as "bookingId", cause from booking_move_flags order by booking_id`;
  const timeOffCount = async (businessId = BIZ) =>
    (
      await server.db.sql<
        { n: number }[]
      >`select count(*)::int as n from time_off where business_id = ${businessId}`
    )[0]!.n;
  /** A resource's live bookings starting after now, with their Johannesburg local times. */
  const liveOf = async (resourceId: string) =>
    (
      await server.db.sql<{ id: string; start: Date; end: Date }[]>`
        select id, starts_at as "start", ends_at as "end" from bookings
        where business_id = ${BIZ} and resource_id = ${resourceId} and status in ('PENDING', 'ACCEPTED')
          and starts_at > ${clock.now()} order by starts_at, id`
    ).map((b) => {
      const local = new Date(b.start.getTime() + SAST);
      const localEnd = new Date(b.end.getTime() + SAST);
      return {
        ...b,
        date: local.toISOString().slice(0, 10),
        weekday: local.getUTCDay(),
        from: local.toISOString().slice(11, 16),
        to: localEnd.toISOString().slice(11, 16),
      };
    });
  /** Every booking of a range of Boland Paws' list, by id. */
  const listed = async (who: string, from: string, to: string) => {
    const out = new Map<string, Json>();
    let cursor: string | undefined;
    do {
      const res = await get('/v1/business/bookings', who, {
        from,
        to,
        limit: '50',
        ...(cursor ? { cursor } : {}),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      for (const b of res.body.bookings) out.set(b.bookingId, b);
      cursor = res.body.next ?? undefined;
    } while (cursor);
    return out;
  };
  const businessTimes = async (who: string, date: string, resourceId?: string, pets = PETS) =>
    post('/v1/business/times', who, {
      businessId: BIZ,
      pets,
      from: date,
      to: date,
      ...(resourceId ? { resourceId } : {}),
    });

  /** Open times of one day: an empty day is 409 NO_AVAILABILITY with why (time off is told as CLOSED_DAY). */
  const openOn = async (res: { status: number; body: Json }) => {
    if (res.status === 409) {
      expect(res.body.error.code, JSON.stringify(res.body)).toBe('NO_AVAILABILITY');
      return { slots: [] as Json[], why: res.body.error.details.reason as string };
    }
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { slots: res.body.days[0].slots as Json[], why: null };
  };
  const timesOn = async (date: string, resourceId?: string, pets = PETS) =>
    openOn(await businessTimes(keys.owner, date, resourceId, pets));

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
      insert into time_off (id, business_id, resource_id, starts_at, ends_at, reason)
      values ('tof_seed', ${BIZ}, 'bp-walker', '2026-04-20T05:00:00Z', '2026-04-20T08:00:00Z', 'Dentist'),
             ('tof_other', ${OTHER}, null, '2026-04-20T05:00:00Z', '2026-04-20T08:00:00Z', 'Closed')`;
    // Lisbon: either side of the change of 2026-10-25 (summer time UTC+1 before, UTC+0 after).
    await server.db.sql`
      insert into bookings (id, business_id, resource_id, line_id, status, payment_method, payment_status, starts_at, ends_at, total_cents, client_name)
      values ('lx_sat_in', ${LISBON}, ${LX_VAN}, 'grooming', 'ACCEPTED', 'CASH', 'CASH_DUE',
          '2026-10-24T08:00:00Z', '2026-10-24T09:00:00Z', 3500, 'Cliente A'),
        ('lx_sat_out', ${LISBON}, ${LX_VAN}, 'grooming', 'ACCEPTED', 'CASH', 'CASH_DUE',
          '2026-10-24T16:00:00Z', '2026-10-24T17:00:00Z', 3500, 'Cliente B'),
        ('lx_mon_in', ${LISBON}, ${LX_VAN}, 'grooming', 'ACCEPTED', 'CASH', 'CASH_DUE',
          '2026-10-26T16:00:00Z', '2026-10-26T17:00:00Z', 3500, 'Cliente C'),
        ('lx_mon_out', ${LISBON}, ${LX_VAN}, 'grooming', 'ACCEPTED', 'CASH', 'CASH_DUE',
          '2026-10-26T08:00:00Z', '2026-10-26T09:00:00Z', 3500, 'Cliente D')`;
  }, 60_000);
  afterAll(() => server?.stop());

  describe('roles', () => {
    // Well-formed calls that change nothing: each change would affect bookings, or needs confirming.
    const CALLS: [string, 'GET' | 'POST', string, Record<string, unknown>][] = [
      [
        'set_working_hours',
        'POST',
        '/v1/business/hours',
        { resourceIds: ['bp-van-1'], week: { sun: [{ start: '09:00', end: '10:00' }] } },
      ],
      [
        'add_time_off',
        'POST',
        '/v1/business/time-off',
        { resourceId: 'bp-van-1', start: '2026-03-12', end: '2026-03-20' },
      ],
      ['list_time_off', 'GET', '/v1/business/time-off', {}],
      ['remove_time_off', 'POST', '/v1/business/time-off/tof_seed/remove', { timeOffId: 'tof_seed' }],
    ];
    const WANT: Record<Role, number> = { owner: 409, manager: 409, crew: 403, other: 404, nobody: 403 };

    for (const role of ROLES) {
      it(`${role}: ${WANT[role]} on every change (list: ${WANT[role] === 409 ? 200 : WANT[role]}), HTTP and MCP alike`, async () => {
        const before = { week: await weekOf('bp-van-1'), off: await timeOffCount() };
        for (const [tool, method, path, args] of CALLS) {
          const body = { businessId: BIZ, ...args };
          const { timeOffId: _id, ...rest } = body as Record<string, unknown>;
          const res =
            method === 'GET'
              ? await get(path, keys[role], { businessId: BIZ })
              : await post(path, keys[role], tool === 'remove_time_off' ? rest : body);
          const want = WANT[role] === 409 && method === 'GET' ? 200 : WANT[role];
          const label = `${tool} as ${role}: ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`;
          expect(res.status, label).toBe(want);
          const overMcp = await mcp(keys[role], tool, body);
          if (want === 200) {
            expect(overMcp.isError, label).toBe(false);
            expect(res.body.timeOff.map((t: Json) => t.timeOffId)).toContain('tof_seed');
            expect(overMcp.body).toEqual(res.body);
          } else {
            const code = { 409: 'CONFIRM_REQUIRED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' }[want]!;
            expect(res.body.error.code, label).toBe(code);
            expect(overMcp.body.error.code, label).toBe(code);
            if (want === 409) expect(res.body.error.details.summary, label).toMatch(/\w/);
            else expect(JSON.stringify(res.body), label).not.toMatch(/Van 1|Dentist/);
          }
        }
        expect({ week: await weekOf('bp-van-1'), off: await timeOffCount() }).toEqual(before);
        expect(await flags()).toEqual([]);
      });
    }

    it("another business's time off is 404 in the same words as a missing one", async () => {
      const foreign = await post('/v1/business/time-off/tof_other/remove', keys.owner, { confirm: true });
      const missing = await post('/v1/business/time-off/tof_nope/remove', keys.owner, { confirm: true });
      expect(foreign.status).toBe(404);
      expect(missing.status).toBe(404);
      expect(foreign.body.error.message.replace('tof_other', 'X')).toBe(
        missing.body.error.message.replace('tof_nope', 'X'),
      );
      expect(await timeOffCount(OTHER)).toBe(1);
    });
  });

  it('hours that strand bookings: listed with confirm required, nothing changed; confirmed, flagged to move, shown on the day plan and the list; a moved one and hours that cover them again unflag them', async () => {
    const week = WEEKDAYS_ONLY('08:00', '12:00');
    const live = await liveOf('bp-van-1');
    const stranded = live.filter(
      (b) => b.weekday === 6 || b.weekday === 0 || b.to > '12:00' || b.from < '08:00',
    );
    const kept = live.filter((b) => !stranded.includes(b));
    expect(stranded.length).toBeGreaterThan(2);
    expect(kept.length).toBeGreaterThan(2);
    const strandedIds = stranded.map((b) => b.id).sort();

    const ask = await post('/v1/business/hours', keys.owner, { resourceIds: ['bp-van-1'], week });
    expect(ask.status, JSON.stringify(ask.body)).toBe(409);
    expect(ask.body.error.code).toBe('CONFIRM_REQUIRED');
    const details = ask.body.error.details;
    expect(details.bookings.map((b: Json) => b.bookingId).sort()).toEqual(strandedIds);
    expect(details.summary).toContain('Van 1 (Johan)');
    expect(details.summary).toContain(`${stranded.length} bookings fall outside working time`);
    for (const b of details.bookings)
      expect(b.reason).toMatch(/outside Van 1 \(Johan\)'s new hours|no longer works/);
    expect(details.bookings.find((b: Json) => b.bookingId === stranded[0]!.id).when).toMatch(/\d\d:\d\d/);
    expect(await weekOf('bp-van-1')).toEqual(VAN1_WEEK);
    expect(await flags()).toEqual([]);

    const done = await post('/v1/business/hours', keys.owner, {
      resourceIds: ['bp-van-1'],
      week,
      confirm: true,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.toMove.map((j: Json) => j.bookingId).sort()).toEqual(strandedIds);
    for (const j of done.body.toMove) {
      expect(j.needsMove).toBe(true);
      expect(j.moveReason).toMatch(/Van 1/);
      expect(['PENDING', 'ACCEPTED']).toContain(j.status); // kept, not dropped
    }
    expect(done.body.resources).toEqual([
      {
        resourceId: 'bp-van-1',
        name: 'Van 1 (Johan)',
        week,
        hours: 'Mon 08:00-12:00; Tue 08:00-12:00; Wed 08:00-12:00; Thu 08:00-12:00; Fri 08:00-12:00',
      },
    ]);
    expect(await weekOf('bp-van-1')).toEqual(week);
    const [audit] = await server.db.sql<{ clientName: string; details: Json }[]>`
      select client_name as "clientName", details from audit_log where action = 'business.hours.set' order by id desc limit 1`;
    expect(audit!.clientName).toBe(ASSISTANT);
    expect(audit!.details.toMove.sort()).toEqual(strandedIds);

    // The list flags exactly those; the crew on Van 1 see it on their day plan.
    const last = live.at(-1)!.date;
    const list = await listed(keys.manager, '2026-03-11', last);
    for (const b of live) expect(list.get(b.id)?.needsMove, b.id).toBe(strandedIds.includes(b.id));
    for (const b of list.values()) if (b.resourceId !== 'bp-van-1') expect(b.needsMove).toBe(false);
    const first = stranded[0]!;
    const plan = await get('/v1/business/day-plan', keys.crew, { date: first.date });
    expect(plan.status).toBe(200);
    const van = plan.body.resources.find((r: Json) => r.resourceId === 'bp-van-1');
    const job = van.jobs.find((j: Json) => j.bookingId === first.id);
    expect(job.needsMove).toBe(true);
    expect(job.moveReason).toMatch(/Van 1/);
    const overMcp = await mcp(keys.crew, 'get_day_plan', { date: first.date });
    expect(overMcp.body).toEqual(plan.body);

    // Moving a flagged booking inside the new hours clears its flag.
    const moved = stranded.find((b) => b.weekday >= 1 && b.weekday <= 5)!;
    const move = await post(`/v1/business/bookings/${moved.id}/move`, keys.manager, {
      start: '2026-04-01T08:00:00+02:00',
      confirm: true,
    });
    expect(move.status, JSON.stringify(move.body)).toBe(200);
    expect(move.body.booking.needsMove).toBe(false);
    expect((await listed(keys.manager, '2026-04-01', '2026-04-01')).get(moved.id)?.needsMove).toBe(false);
    const still = stranded.find((b) => b.id !== moved.id)!;
    expect((await listed(keys.manager, still.date, still.date)).get(still.id)?.needsMove).toBe(true);

    // Hours that hold every booking again: applied at once, no flag left.
    const back = await mcp(keys.manager, 'set_working_hours', { resourceIds: ['bp-van-1'], week: VAN1_WEEK });
    expect(back.isError, JSON.stringify(back.body)).toBe(false);
    expect(back.body.toMove).toEqual([]);
    expect(await weekOf('bp-van-1')).toEqual(VAN1_WEEK);
    expect(await flags()).toEqual([]);
    const again = await listed(keys.owner, '2026-03-11', last);
    expect([...again.values()].filter((b) => b.needsMove)).toEqual([]);
  });

  it('hours without stranded bookings apply at once, and find_business_times and find_times offer them at once', async () => {
    const saturday = '2026-03-14';
    expect(await timesOn(saturday, 'bp-van-2')).toEqual({ slots: [], why: 'CLOSED_DAY' });
    const publicAsk = {
      businessId: BIZ,
      category: 'grooming',
      lat: -33.9367,
      lng: 18.8614,
      pets: PETS,
      from: saturday,
      to: saturday,
    };
    const publicBefore = await openOn(await server.post('/v1/availability', publicAsk));
    expect(publicBefore.slots.filter((s: Json) => s.resourceId === 'bp-van-2')).toEqual([]);

    const week = { ...WEEKDAYS_ONLY('08:00', '17:00'), sat: [{ start: '14:00', end: '18:00' }] };
    const set = await mcp(keys.manager, 'set_working_hours', { resourceIds: ['bp-van-2'], week });
    expect(set.isError, JSON.stringify(set.body)).toBe(false);
    expect(set.body.toMove).toEqual([]);
    expect(set.body.message).toMatch(/Van 2/);

    const { slots } = await timesOn(saturday, 'bp-van-2');
    expect(slots.length).toBeGreaterThan(0);
    expect(slots[0]).toMatchObject({
      time: '14:00',
      resourceId: 'bp-van-2',
      start: '2026-03-14T12:00:00.000Z',
    });
    expect(slots.at(-1).time).toBe('17:00'); // a 60-minute bath ends by 18:00
    const publicAfter = await openOn(await server.post('/v1/availability', publicAsk));
    const van2 = publicAfter.slots.filter((s: Json) => s.resourceId === 'bp-van-2');
    expect(van2[0]).toMatchObject({ time: '14:00', start: '2026-03-14T12:00:00.000Z' });

    // Business hours (no resourceIds) give every resource the week; Van 2's own week is back to the demo's after.
    const restore = await post('/v1/business/hours', keys.owner, {
      resourceIds: ['bp-van-2'],
      week: WEEKDAYS_ONLY('08:00', '17:00'),
    });
    expect(restore.status, JSON.stringify(restore.body)).toBe(200);
    expect((await timesOn(saturday, 'bp-van-2')).slots).toEqual([]);
  });

  it('business hours (no resourceIds) set every resource, and list what they strand across all of them', async () => {
    const week = { sun: [{ start: '10:00', end: '11:00' }] };
    const ask = await post('/v1/business/hours', keys.owner, { week });
    expect(ask.status).toBe(409);
    const resources = new Set(ask.body.error.details.bookings.map((b: Json) => b.resourceId));
    expect(resources).toEqual(new Set(['bp-van-1', 'bp-van-2', 'bp-walker', 'bp-sitter']));
    expect(ask.body.error.details.summary).toContain('every resource of Boland Paws');
    expect(await weekOf('bp-walker')).not.toEqual(week);
  });

  it('time off: affected bookings listed and confirmed, flagged, listed, closed to booking; removed with confirm, unflagged and open again', async () => {
    const live = await liveOf('bp-van-2');
    const date = live.find((b) => b.date > '2026-03-12')!.date;
    const thatDay = live.filter((b) => b.date === date).map((b) => b.id);
    expect(thatDay.length).toBeGreaterThan(0);
    const input = { resourceId: 'bp-van-2', start: date, end: date, reason: 'Van service' };

    const ask = await post('/v1/business/time-off', keys.owner, input);
    expect(ask.status, JSON.stringify(ask.body)).toBe(409);
    expect(ask.body.error.code).toBe('CONFIRM_REQUIRED');
    expect(ask.body.error.details.bookings.map((b: Json) => b.bookingId)).toEqual(thatDay);
    expect(ask.body.error.details.summary).toMatch(/Time off for Van 2 \(Nomsa\)/);
    expect(await timeOffCount()).toBe(1);

    const added = await mcp(keys.manager, 'add_time_off', { ...input, confirm: true });
    expect(added.isError, JSON.stringify(added.body)).toBe(false);
    const off = added.body.timeOff;
    expect(off).toMatchObject({
      resourceId: 'bp-van-2',
      resourceName: 'Van 2 (Nomsa)',
      startLocal: `${date} 00:00`,
      hours: 24,
      reason: 'Van service',
      start: new Date(Date.parse(`${date}T00:00:00Z`) - SAST).toISOString(),
    });
    expect(added.body.toMove.map((j: Json) => j.bookingId)).toEqual(thatDay);
    for (const j of added.body.toMove) {
      expect(j.needsMove).toBe(true);
      expect(j.moveReason).toContain('Van service');
    }
    const [audit] = await server.db.sql<{ clientName: string | null }[]>`
      select client_name as "clientName" from audit_log where action = 'business.time_off.add' and target = ${off.timeOffId}`;
    expect(audit).toBeDefined();

    // Closed to booking at once; on the day plan; listed.
    expect(await timesOn(date, 'bp-van-2')).toEqual({ slots: [], why: 'CLOSED_DAY' });
    const plan = await get('/v1/business/day-plan', keys.owner, { date });
    const van = plan.body.resources.find((r: Json) => r.resourceId === 'bp-van-2');
    expect(van.timeOff).toEqual([{ from: off.start, to: off.end, reason: 'Van service' }]);
    expect(van.jobs.every((j: Json) => j.needsMove)).toBe(true);
    const list = await get('/v1/business/time-off', keys.manager, { from: date, to: date });
    expect(list.status).toBe(200);
    expect(list.body.timeOff).toEqual([off]);
    const ofVan1 = await mcp(keys.owner, 'list_time_off', { resourceId: 'bp-van-1' });
    expect(ofVan1.body.timeOff.map((t: Json) => t.timeOffId)).not.toContain(off.timeOffId);
    const ofVan2 = await mcp(keys.owner, 'list_time_off', { resourceId: 'bp-van-2' });
    expect(ofVan2.body.timeOff.map((t: Json) => t.timeOffId)).toEqual([off.timeOffId]);
    const all = await get('/v1/business/time-off', keys.owner);
    expect(all.body.timeOff.map((t: Json) => t.timeOffId)).toEqual([off.timeOffId, 'tof_seed']);

    // Removing asks first, then opens the day again and unflags its bookings.
    const path = `/v1/business/time-off/${off.timeOffId}/remove`;
    const notYet = await post(path, keys.owner, {});
    expect(notYet.status).toBe(409);
    expect(notYet.body.error.details.summary).toMatch(/Remove Van 2 \(Nomsa\)'s time off .*Van service/);
    expect(await timeOffCount()).toBe(2);
    const removed = await post(path, keys.owner, { confirm: true });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.removed).toEqual(off);
    expect(removed.body.unflagged).toEqual([...thatDay].sort());
    expect(await timeOffCount()).toBe(1);
    expect(await flags()).toEqual([]);
    expect((await timesOn(date, 'bp-van-2')).slots.length).toBeGreaterThan(0);
    const after = await listed(keys.owner, date, date);
    for (const id of thatDay) expect(after.get(id).needsMove).toBe(false);
    const gone = await post(path, keys.owner, { confirm: true });
    expect(gone.status).toBe(404);
  });

  it('business-wide time off with no bookings in it applies at once and closes every resource', async () => {
    const day = '2026-04-06'; // a Monday past the demo's bookings
    expect((await timesOn(day)).slots.length).toBeGreaterThan(0);
    const added = await post('/v1/business/time-off', keys.owner, {
      start: day,
      end: day,
      reason: 'Family Day',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.timeOff).toMatchObject({
      resourceId: null,
      resourceName: 'the whole business',
      hours: 24,
    });
    expect(added.body.toMove).toEqual([]);
    expect(await timesOn(day)).toEqual({ slots: [], why: 'CLOSED_DAY' });
    expect(await timesOn(day, 'bp-walker', WALK)).toEqual({ slots: [], why: 'CLOSED_DAY' });
    // A part of a day, local: 15:00 to 17:00 is two hours.
    const part = await mcp(keys.owner, 'add_time_off', {
      resourceId: 'bp-walker',
      start: '2026-04-07T15:00',
      end: '2026-04-07T17:00',
    });
    expect(part.isError, JSON.stringify(part.body)).toBe(false);
    expect(part.body.timeOff).toMatchObject({
      start: '2026-04-07T13:00:00.000Z',
      end: '2026-04-07T15:00:00.000Z',
      hours: 2,
      endLocal: '2026-04-07 17:00',
    });
    const open = (await timesOn('2026-04-07', 'bp-walker', WALK)).slots.map((s: Json) => s.time);
    expect(open).toContain('17:00');
    expect(open).toContain('07:00');
    expect(open).not.toContain('15:00');
    expect(open).not.toContain('16:30');
  });

  describe('bounds', () => {
    const range = (start: string, end: string) => ({ start, end });
    const BAD_WEEKS: [string, Json][] = [
      ['7 ranges a day', { mon: Array.from({ length: 7 }, (_, i) => range(`0${i + 1}:00`, `0${i + 1}:30`)) }],
      ['25:00', { mon: [range('09:00', '25:00')] }],
      ['an end before its start', { mon: [range('17:00', '09:00')] }],
      ['overlapping ranges', { mon: [range('09:00', '12:00'), range('11:00', '13:00')] }],
      ['no working time', {}],
      ['a day not mon..sun', { monday: [range('09:00', '17:00')] }],
    ];
    for (const [what, week] of BAD_WEEKS) {
      it(`hours with ${what}: 400 on HTTP and MCP, nothing changed`, async () => {
        const res = await post('/v1/business/hours', keys.owner, {
          resourceIds: ['bp-van-1'],
          week,
          confirm: true,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.error.code).toBe('BAD_REQUEST');
        const overMcp = await mcp(keys.owner, 'set_working_hours', {
          resourceIds: ['bp-van-1'],
          week,
          confirm: true,
        });
        expect(overMcp.isError).toBe(true);
        expect(await weekOf('bp-van-1')).toEqual(VAN1_WEEK);
      });
    }

    it('6 ranges a day are fine (a resource with no bookings that day)', async () => {
      const week = {
        sun: Array.from({ length: 6 }, (_, i) => range(`0${i + 1}:00`, `0${i + 1}:30`)),
        ...VAN1_WEEK,
      };
      const res = await post('/v1/business/hours', keys.owner, { resourceIds: ['bp-van-1'], week });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.resources[0].week.sun).toHaveLength(6);
      await post('/v1/business/hours', keys.owner, { resourceIds: ['bp-van-1'], week: VAN1_WEEK });
      expect(await weekOf('bp-van-1')).toEqual(VAN1_WEEK);
    });

    const BAD_OFF: [string, Record<string, unknown>, number][] = [
      ['an end before its start', { start: '2026-04-10T12:00', end: '2026-04-10T09:00' }, 400],
      ['an end equal to its start', { start: '2026-04-10T12:00', end: '2026-04-10T12:00' }, 400],
      ['an end before its start (dates)', { start: '2026-04-10', end: '2026-04-09' }, 400],
      ['a time already over', { start: '2026-03-01', end: '2026-03-10' }, 400],
      ['more than 366 days', { start: '2026-04-10', end: '2027-05-10' }, 400],
      ['no such date', { start: '2026-02-30', end: '2026-03-31' }, 400],
      ['25:00', { start: '2026-04-10T25:00', end: '2026-04-11' }, 400],
      ['an offset', { start: '2026-04-10T09:00+02:00', end: '2026-04-11' }, 400],
      ['a reason too long', { start: '2026-04-10', end: '2026-04-10', reason: 'x'.repeat(201) }, 400],
      ['a resource not of the business', { resourceId: LX_VAN, start: '2026-04-10', end: '2026-04-10' }, 404],
    ];
    for (const [what, input, status] of BAD_OFF) {
      it(`time off with ${what}: ${status}, nothing added`, async () => {
        const before = await timeOffCount();
        const res = await post('/v1/business/time-off', keys.owner, { ...input, confirm: true });
        expect(res.status, JSON.stringify(res.body)).toBe(status);
        const overMcp = await mcp(keys.owner, 'add_time_off', { ...input, confirm: true });
        expect(overMcp.body.error.code).toBe(res.body.error.code);
        expect(await timeOffCount()).toBe(before);
      });
    }

    it('hours for a resource not of the business: 404, and list_time_off asks for a range in order', async () => {
      const res = await post('/v1/business/hours', keys.owner, {
        resourceIds: ['bp-van-1', LX_VAN],
        week: VAN1_WEEK,
        confirm: true,
      });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toContain(LX_VAN);
      const list = await get('/v1/business/time-off', keys.owner, { from: '2026-04-10', to: '2026-04-01' });
      expect(list.status).toBe(400);
    });
  });

  describe('a business in Lisbon across the October DST change (2026-10-25)', () => {
    it('09:00-17:00 on the Saturday before and the Monday after are their own UTC instants: the bookings outside are listed, then flagged; the slot engine offers the same hours', async () => {
      const week = { sat: [{ start: '09:00', end: '17:00' }], mon: [{ start: '09:00', end: '17:00' }] };
      const ask = await post('/v1/business/hours', keys.lisbon, { week });
      expect(ask.status, JSON.stringify(ask.body)).toBe(409);
      // Saturday 17:00-18:00 summer time (16:00Z) and Monday 08:00-09:00 winter time (08:00Z) fall outside;
      // Saturday 09:00 (08:00Z) and Monday 16:00 (16:00Z) inside.
      expect(ask.body.error.details.bookings.map((b: Json) => b.bookingId)).toEqual([
        'lx_sat_out',
        'lx_mon_out',
      ]);
      expect(ask.body.error.details.bookings[0].when).toMatch(/17:00 to 18:00/);
      expect(ask.body.error.details.bookings[1].when).toMatch(/08:00 to 09:00/);
      const done = await mcp(keys.lisbon, 'set_working_hours', { week, confirm: true });
      expect(done.isError, JSON.stringify(done.body)).toBe(false);
      expect(done.body.timezone).toBe('Europe/Lisbon');
      expect(done.body.toMove.map((j: Json) => [j.bookingId, j.startLocal])).toEqual([
        ['lx_sat_out', '17:00'],
        ['lx_mon_out', '08:00'],
      ]);

      const plan = await get('/v1/business/day-plan', keys.lisbon, { date: '2026-10-24' });
      expect(plan.status, JSON.stringify(plan.body)).toBe(200);
      expect(plan.body.currency).toBe('EUR');
      const van = plan.body.resources[0];
      expect(van.hours).toEqual(['09:00-17:00']);
      expect(van.jobs.map((j: Json) => [j.bookingId, j.startLocal, j.needsMove])).toEqual([
        ['lx_sat_in', '09:00', false],
        ['lx_sat_out', '17:00', true],
      ]);

      // The week as stored, through the slot engine: summer time on Saturday, winter time on Monday.
      const stored = await weekOf(LX_VAN, LISBON);
      expect(workingIntervals(stored, '2026-10-24', 'Europe/Lisbon')).toEqual([
        { start: Date.parse('2026-10-24T08:00:00Z'), end: Date.parse('2026-10-24T16:00:00Z') },
      ]);
      expect(workingIntervals(stored, '2026-10-26', 'Europe/Lisbon')).toEqual([
        { start: Date.parse('2026-10-26T09:00:00Z'), end: Date.parse('2026-10-26T17:00:00Z') },
      ]);
      const { days } = findSlots({
        resources: [{ id: LX_VAN, kind: 'VAN', week: stored, slotStepMin: 60 }],
        durationMin: 60,
        timeZone: 'Europe/Lisbon',
        now: clock.now().toISOString(),
        from: '2026-10-24',
        to: '2026-10-26',
      });
      expect(days.map((d) => [d.date, d.slots[0]?.start, d.slots.at(-1)?.start])).toEqual([
        ['2026-10-24', '2026-10-24T08:00:00.000Z', '2026-10-24T15:00:00.000Z'],
        ['2026-10-25', undefined, undefined],
        ['2026-10-26', '2026-10-26T09:00:00.000Z', '2026-10-26T16:00:00.000Z'],
      ]);
    });

    it('time off given in local time across the change lasts the hours the clocks say', async () => {
      const evening = await post('/v1/business/time-off', keys.lisbon, {
        start: '2026-10-24T20:00',
        end: '2026-10-25T20:00',
        reason: 'Festa',
      });
      expect(evening.status, JSON.stringify(evening.body)).toBe(201);
      expect(evening.body.timeOff).toMatchObject({
        start: '2026-10-24T19:00:00.000Z',
        end: '2026-10-25T20:00:00.000Z',
        startLocal: '2026-10-24 20:00',
        endLocal: '2026-10-25 20:00',
        hours: 25,
        resourceName: 'the whole business',
      });
      const wholeDay = await mcp(keys.lisbon, 'add_time_off', {
        resourceId: LX_VAN,
        start: '2026-10-25',
        end: '2026-10-25',
      });
      expect(wholeDay.body.timeOff).toMatchObject({
        start: '2026-10-24T23:00:00.000Z',
        end: '2026-10-26T00:00:00.000Z',
        hours: 25,
      });
      const spring = await post('/v1/business/time-off', keys.lisbon, {
        resourceId: LX_VAN,
        start: '2026-03-29',
        end: '2026-03-29',
      });
      expect(spring.body.timeOff).toMatchObject({
        start: '2026-03-29T00:00:00.000Z',
        end: '2026-03-29T23:00:00.000Z',
        hours: 23,
      });
      // 01:30 on the spring day never shows on a Lisbon clock.
      const gap = await post('/v1/business/time-off', keys.lisbon, {
        start: '2026-03-29T01:30',
        end: '2026-03-29T05:00',
      });
      expect(gap.status).toBe(400);
      expect(gap.body.error.message).toMatch(/does not exist in Europe\/Lisbon/);
      const list = await get('/v1/business/time-off', keys.lisbon, { from: '2026-10-24', to: '2026-10-25' });
      expect(list.body.timeOff.map((t: Json) => t.hours)).toEqual([25, 25]);
      // Neither touched a booking; Boland Paws' people see none of it.
      expect(evening.body.toMove).toEqual([]);
      const theirs = await get('/v1/business/time-off', keys.owner, { businessId: LISBON });
      expect(theirs.status).toBe(404);
    });
  });
});
