// Every date an operation takes has a range: bookings and moves from today to
// two years ahead, the dates searched for open times not past two years ahead, and what a business
// looks back on or plans (day plan, bookings list, time off, earnings) five years back to two years
// ahead. Outside it: 400 BAD_REQUEST with reason DATE_OUT_OF_RANGE and the range in the message,
// nothing written; never a generic 400 or a 500 for year 9999 or year 1. Over HTTP for every date
// field of every operation (the registry's schemas, checked below) and over MCP for a sample.
import { createApiKey } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookFirstCardSlot, newPetOwner, startTestServer, type TestServer, toolJson } from './harness.js';

type Json = any;

const BIZ = 'biz_boland_paws';
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg
const TODAY = '2026-03-11';
const EDGES = {
  '0001-01-01': '0001-01-01',
  '-5y-1d': '2021-03-10',
  '-5y': '2021-03-11',
  yesterday: '2026-03-10',
  today: TODAY,
  '+2y': '2028-03-11',
  '+2y+1d': '2028-03-12',
  '9999-12-31': '9999-12-31',
} as const;
type Edge = keyof typeof EDGES;
type Kind = 'booking' | 'search' | 'records';
/** The edges refused, by kind; the others are not refused for their date (whatever else they answer). */
const REFUSED: Record<Kind, Edge[]> = {
  booking: ['0001-01-01', '-5y-1d', '-5y', 'yesterday', '+2y+1d', '9999-12-31'],
  // A search begun in the past starts today, one wholly past is slot-engine's RANGE_IN_PAST.
  search: ['+2y+1d', '9999-12-31'],
  records: ['0001-01-01', '-5y-1d', '+2y+1d', '9999-12-31'],
};
const RANGE: Record<Kind, string> = {
  booking: 'from today (2026-03-11) to two years ahead (2028-03-11)',
  search: 'from today (2026-03-11) to two years ahead (2028-03-11)',
  records: 'from five years back (2021-03-11) to two years ahead (2028-03-11)',
};
/** 03:00 in Johannesburg on a date, as an instant: never an open time, so a start in range books or moves nothing. */
const at3 = (date: string) => `${date}T01:00:00.000Z`;

interface Case {
  tool: string;
  field: string;
  kind: Kind;
  send: (date: string) => Promise<{ status: number; body: Json }>;
  args: (date: string) => Record<string, unknown>;
  who: () => string;
}

describe('date ranges of every operation', () => {
  let server: TestServer;
  let owner: { key: string; petId: string; addressId: string };
  let bizKey: string;
  let myBooking: string;
  let bizBooking: string;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const qs = (q: Record<string, unknown>) =>
    new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const counts = async () =>
    (
      await server.db.sql<{ b: number; t: number; h: string }[]>`
        select (select count(*)::int from bookings) as b, (select count(*)::int from time_off) as t,
          (select string_agg(id || starts_at::text, ',' order by id) from bookings) as h`
    )[0]!;

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    owner = await newPetOwner(server, {
      email: 'dates@example.com',
      pet: { name: 'Kwezi', weightKg: 12 },
      line1: '9 Bird Street',
    });
    myBooking = (await bookFirstCardSlot(server, owner, '2026-03-13')).bookingId;
    bizKey = (
      await createApiKey(server.db.sql, { email: 'owner@partner.example', scopes: ['business:manage'] })
    ).key;
    bizBooking = (
      await server.db.sql<{ id: string }[]>`
        select id from bookings where business_id = ${BIZ} and status in ('PENDING', 'ACCEPTED')
          and starts_at > ${clock.now()} and resource_id = 'bp-van-2' order by starts_at limit 1`
    )[0]!.id;
  }, 60_000);
  afterAll(() => server?.stop());

  const grooming = () => ({
    category: 'grooming',
    addressId: owner.addressId,
    pets: [{ petId: owner.petId, serviceIds: ['groom-dog-bath'] }],
  });
  const sitting = (serviceId: string) => ({
    category: 'sitting',
    addressId: owner.addressId,
    pets: [{ petId: owner.petId, serviceIds: [serviceId] }],
  });
  const REX = { name: 'Rex', type: 'DOG', weightKg: 14, coat: 'SHORT', serviceIds: ['bp-groom-bath'] };
  const me = () => owner.key;
  const biz = () => bizKey;
  const post =
    (path: string, who: () => string, body: (d: string) => Record<string, unknown>) => (d: string) =>
      server.post(path, body(d), as(who()));
  const get =
    (path: string, who: () => string, query: (d: string) => Record<string, unknown>) => (d: string) =>
      server.get(`${path}?${qs(query(d))}`, as(who()));

  const CASES: Case[] = [];
  const add = (
    tool: string,
    field: string,
    kind: Kind,
    who: () => string,
    args: (d: string) => Record<string, unknown>,
    send: (d: string) => Promise<{ status: number; body: Json }>,
  ) => CASES.push({ tool, field, kind, who, args, send });
  const bodyCase = (
    tool: string,
    path: (() => string) | string,
    field: string,
    kind: Kind,
    who: () => string,
    args: (d: string) => Record<string, unknown>,
  ) =>
    add(tool, field, kind, who, args, (d) =>
      post(typeof path === 'string' ? path : path(), who, (x) => {
        const { bookingId: _b, ...rest } = args(x);
        return rest;
      })(d),
    );
  const queryCase = (
    tool: string,
    path: string,
    field: string,
    kind: Kind,
    args: (d: string) => Record<string, unknown>,
  ) => add(tool, field, kind, biz, args, get(path, biz, args));

  bodyCase('find_times', '/v1/availability', 'from', 'search', me, (d) => ({ ...grooming(), from: d }));
  bodyCase('find_times', '/v1/availability', 'to', 'search', me, (d) => ({ ...grooming(), to: d }));
  bodyCase('find_times', '/v1/availability', 'stay.startDate', 'booking', me, (d) => ({
    ...sitting('sit-overnight'),
    stay: { startDate: d, nights: 2 },
  }));
  bodyCase('find_times', '/v1/availability', 'visits.startDate', 'booking', me, (d) => ({
    ...sitting('sit-dropin-30'),
    visits: { startDate: d, days: 2, perDay: 1 },
  }));
  bodyCase('book', '/v1/bookings', 'start', 'booking', me, (d) => ({
    ...grooming(),
    start: at3(d),
    resourceId: 'van-1',
    paymentMethod: 'CARD',
  }));
  bodyCase('book', '/v1/bookings', 'stay.startDate', 'booking', me, (d) => ({
    ...sitting('sit-overnight'),
    stay: { startDate: d, nights: 2 },
    paymentMethod: 'CARD',
  }));
  bodyCase('book', '/v1/bookings', 'visits.startDate', 'booking', me, (d) => ({
    ...sitting('sit-dropin-30'),
    visits: { startDate: d, days: 2, perDay: 1 },
    paymentMethod: 'CARD',
  }));
  for (const field of ['from', 'to'])
    bodyCase(
      'find_reschedule_times',
      () => `/v1/bookings/${myBooking}/times`,
      field,
      'search',
      me,
      (d) => ({
        bookingId: myBooking,
        [field]: d,
      }),
    );
  bodyCase(
    'reschedule_booking',
    () => `/v1/bookings/${myBooking}/reschedule`,
    'start',
    'booking',
    me,
    (d) => ({ bookingId: myBooking, start: at3(d) }),
  );
  queryCase('get_day_plan', '/v1/business/day-plan', 'date', 'records', (d) => ({
    businessId: BIZ,
    date: d,
  }));
  for (const field of ['from', 'to']) {
    queryCase('list_business_bookings', '/v1/business/bookings', field, 'records', (d) => ({
      businessId: BIZ,
      [field]: d,
    }));
    bodyCase('find_business_times', '/v1/business/times', field, 'search', biz, (d) => ({
      businessId: BIZ,
      pets: [REX],
      [field]: d,
    }));
    queryCase('list_time_off', '/v1/business/time-off', field, 'records', (d) => ({
      businessId: BIZ,
      [field]: d,
    }));
    queryCase('get_earnings', '/v1/business/earnings', field, 'records', (d) => ({
      businessId: BIZ,
      [field]: d,
    }));
  }
  bodyCase('book_for_client', '/v1/business/bookings', 'start', 'booking', biz, (d) => ({
    businessId: BIZ,
    client: { name: 'Walk In', phone: '+27 82 555 0101' },
    pets: [REX],
    address: { line1: '12 Dorp Street', suburb: 'Die Boord', city: 'Stellenbosch' },
    start: at3(d),
    resourceId: 'bp-van-2',
    paymentMethod: 'CASH',
  }));
  bodyCase(
    'rebook_booking',
    () => `/v1/business/bookings/${bizBooking}/rebook`,
    'start',
    'booking',
    biz,
    (d) => ({ businessId: BIZ, bookingId: bizBooking, start: at3(d) }),
  );
  bodyCase(
    'move_booking',
    () => `/v1/business/bookings/${bizBooking}/move`,
    'start',
    'booking',
    biz,
    (d) => ({ businessId: BIZ, bookingId: bizBooking, start: at3(d), confirm: true }),
  );
  bodyCase('add_time_off', '/v1/business/time-off', 'start', 'records', biz, (d) => ({
    businessId: BIZ,
    resourceId: 'bp-sitter',
    start: d,
    end: '2026-03-20',
  }));
  bodyCase('add_time_off', '/v1/business/time-off', 'end', 'records', biz, (d) => ({
    businessId: BIZ,
    resourceId: 'bp-sitter',
    start: '2026-03-20',
    end: `${d}T12:00`,
  }));

  it('covers every date field of every tool (MCP tools/list of both endpoints)', async () => {
    const fields = new Set<string>();
    const tools = [
      ...(await (await server.mcp(undefined, 'person')).listTools()).tools,
      ...(await (await server.mcp(undefined, 'business')).listTools()).tools,
    ];
    for (const tool of tools) {
      const walk = (s: Json, path: string): void => {
        if (!s || typeof s !== 'object') return;
        if (s.type === 'string' && (s.format === 'date-time' || /\\d\{4\}/.test(String(s.pattern ?? ''))))
          fields.add(`${tool.name} ${path.slice(1)}`);
        for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${path}.${k}`);
        for (const k of ['anyOf', 'oneOf', 'allOf']) for (const x of s[k] ?? []) walk(x, path);
      };
      walk(tool.inputSchema, '');
    }
    // create_invoice_link's dueDate has its own range (today to the link's last day), tested in run-money.
    fields.delete('create_invoice_link dueDate');
    expect([...new Set(CASES.map((c) => `${c.tool} ${c.field}`))].sort()).toEqual([...fields].sort());
  });

  for (const c of [
    'find_times from',
    'find_times to',
    'find_times stay.startDate',
    'find_times visits.startDate',
    'book start',
    'book stay.startDate',
    'book visits.startDate',
    'find_reschedule_times from',
    'find_reschedule_times to',
    'reschedule_booking start',
    'get_day_plan date',
    'list_business_bookings from',
    'list_business_bookings to',
    'find_business_times from',
    'find_business_times to',
    'list_time_off from',
    'list_time_off to',
    'get_earnings from',
    'get_earnings to',
    'book_for_client start',
    'rebook_booking start',
    'move_booking start',
    'add_time_off start',
    'add_time_off end',
  ]) {
    it(`${c}: refused outside its range with the range in the message, never a 500`, async () => {
      const found = CASES.find((x) => `${x.tool} ${x.field}` === c)!;
      for (const [edge, date] of Object.entries(EDGES) as [Edge, string][]) {
        const before = await counts();
        const res = await found.send(date);
        const label = `${c} = ${date} (${edge}): ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`;
        expect(res.status, label).toBeLessThan(500);
        const outOfRange = res.status === 400 && res.body.error?.details?.reason === 'DATE_OUT_OF_RANGE';
        if (REFUSED[found.kind].includes(edge)) {
          expect(outOfRange, label).toBe(true);
          expect(res.body.error.code).toBe('BAD_REQUEST');
          expect(res.body.error.message, label).toContain(RANGE[found.kind]);
          expect(res.body.error.details.fields, label).toEqual([
            { field: found.field, message: expect.stringContaining(RANGE[found.kind]) },
          ]);
          expect(await counts(), label).toEqual(before);
        } else expect(outOfRange, label).toBe(false);
      }
    });
  }

  it('answers the same over MCP (a sample): the range in the message, nothing written', async () => {
    const sample: [string, string, string][] = [
      ['book start', '9999-12-31', 'booking'],
      ['move_booking start', '2099-01-01', 'booking'],
      ['add_time_off start', '9999-12-31', 'records'],
      ['get_earnings from', '0001-01-01', 'records'],
      ['find_times to', '2028-03-12', 'search'],
    ];
    for (const [name, date, kind] of sample) {
      const c = CASES.find((x) => `${x.tool} ${x.field}` === name)!;
      const before = await counts();
      const client = await server.mcpAs(c.who());
      const answer = (await client.callTool({ name: c.tool, arguments: c.args(date) })) as {
        isError?: boolean;
      };
      const body = toolJson(answer);
      expect(answer.isError, JSON.stringify(body)).toBe(true);
      expect(body.error.code).toBe('BAD_REQUEST');
      expect(body.error.details.reason).toBe('DATE_OUT_OF_RANGE');
      expect(body.error.message).toContain(RANGE[kind as Kind]);
      expect((await c.send(date)).body).toEqual(body);
      expect(await counts()).toEqual(before);
    }
  });

  it("reads an instant's date in the business's zone: 00:30 SAST is today though UTC says yesterday", async () => {
    const book = (start: string) =>
      server.post(
        '/v1/bookings',
        { ...grooming(), start, resourceId: 'van-1', paymentMethod: 'CARD' },
        as(owner.key),
      );
    const lateYesterday = await book('2026-03-10T21:30:00.000Z'); // 23:30 on 10 March in Johannesburg
    expect(lateYesterday.status).toBe(400);
    expect(lateYesterday.body.error.details.reason).toBe('DATE_OUT_OF_RANGE');
    expect(lateYesterday.body.error.details.fields[0].message).toMatch(/^2026-03-10 is out of range/);
    const earlyToday = await book('2026-03-10T22:30:00.000Z'); // 00:30 on 11 March: past, but in range
    expect(earlyToday.status).toBeLessThan(500);
    expect(earlyToday.body.error?.details?.reason).not.toBe('DATE_OUT_OF_RANGE');
  });
});
