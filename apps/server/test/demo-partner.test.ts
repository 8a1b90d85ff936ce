// The demo partner: on a fresh start with demo data, Boland Paws' people get keys from the
// CLI, and the day plan and the business's bookings say what is true of its demo bookings; its
// bookings paid by card were settled through the sandbox gateway, so its earnings, payouts still to
// come and the operator's `payout create` have that money to show.
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startTestServer, type TestServer, toolJson } from './harness.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const BIZ = 'biz_boland_paws';
// Wednesday 11 March 2026, 06:00 in Johannesburg.
const clock = fixedClock('2026-03-11T04:00:00Z');

describe('the demo partner Boland Paws', () => {
  let server: TestServer;
  let ownerKey: string;
  let crewKey: string;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    const keyFor = async (email: string) => {
      const made = await cli(server.db.url, [
        'key',
        'create',
        '--email',
        email,
        '--scopes',
        'business:manage',
      ]);
      expect(made.status, made.stderr).toBe(0);
      return made.lastLine;
    };
    ownerKey = await keyFor('owner@partner.example');
    crewKey = await keyFor('crew@partner.example');
  }, 60_000);
  afterAll(() => server?.stop());

  /** A day this week when Van 1 has several jobs and the business has cash to collect and an unpaid card booking. */
  async function busyDay(): Promise<string> {
    const [day] = await server.db.sql<{ date: string }[]>`
      select to_char(starts_at at time zone 'Africa/Johannesburg', 'YYYY-MM-DD') as date from bookings
      where business_id = ${BIZ} and starts_at >= ${clock.now()} and status in ('PENDING', 'ACCEPTED')
      group by 1
      having count(*) filter (where resource_id = 'bp-van-1') >= 2
        and count(*) filter (where payment_status = 'CASH_DUE') >= 1
        and count(*) filter (where payment_method = 'CARD' and payment_status = 'PENDING') >= 1
      order by 1 limit 1`;
    expect(day, 'the demo lays out such a day').toBeDefined();
    return day!.date;
  }

  it("shows a van's jobs in time order with the travel buffer between them, and the client, pets, cash and unpaid facts of the demo bookings", async () => {
    const date = await busyDay();
    const res = await server.get(`/v1/business/day-plan?date=${date}`, as(ownerKey));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const plan = res.body as Json;
    expect(plan).toMatchObject({
      businessId: BIZ,
      businessName: 'Boland Paws',
      role: 'owner',
      date,
      currency: 'ZAR',
    });
    expect(plan.resources.map((r: Json) => r.resourceId)).toEqual(
      expect.arrayContaining(['bp-van-1', 'bp-van-2', 'bp-walker', 'bp-sitter']),
    );
    const van = plan.resources.find((r: Json) => r.resourceId === 'bp-van-1');
    expect(van).toMatchObject({
      name: 'Van 1 (Johan)',
      kind: 'VAN',
      travelBufferMin: 20,
      hours: ['08:00-17:00'],
    });

    // The same jobs as the database holds for Van 1 that day, in time order.
    const rows = await server.db.sql<Json[]>`
      select b.id, b.starts_at, b.ends_at, b.total_cents, b.payment_status, b.payment_method, c.name, c.phone,
        b.details->'pets' as pets, a.notes as access
      from bookings b join business_clients c on c.id = b.business_client_id join addresses a on a.id = b.address_id
      where b.business_id = ${BIZ} and b.resource_id = 'bp-van-1' and b.status in ('PENDING', 'ACCEPTED', 'DONE')
        and (b.starts_at at time zone 'Africa/Johannesburg')::date = ${date}::date
      order by b.starts_at`;
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(van.jobs.map((j: Json) => j.bookingId)).toEqual(rows.map((r) => r.id));
    for (const [i, job] of (van.jobs as Json[]).entries()) {
      const row = rows[i];
      expect(job.start).toBe(row.starts_at.toISOString());
      expect(job.startLocal).toBe(
        new Date(row.starts_at.getTime() + 2 * 3600_000).toISOString().slice(11, 16),
      );
      expect(job.client).toMatchObject({ name: row.name, phone: row.phone });
      expect(job.accessNotes).toBe(row.access);
      expect(job.pets.map((p: Json) => p.name)).toEqual(row.pets.map((p: Json) => p.name));
      for (const pet of job.pets) {
        const [saved] = await server.db.sql<Json[]>`
          select type, weight_kg::float8 as kg, coat, notes from pets where id = ${pet.petId}`;
        expect(pet).toMatchObject({
          type: saved.type,
          weightKg: saved.kg,
          coat: saved.coat,
          notes: saved.notes,
        });
      }
      expect(job.services.length).toBeGreaterThan(0);
      if (i > 0) expect(job.start > van.jobs[i - 1].start).toBe(true);
      const next = van.jobs[i + 1];
      if (next) {
        const gap = (Date.parse(next.start) - Date.parse(job.end)) / 60_000;
        expect(job.gapAfterMin).toBe(gap);
        expect(job.gapAfterMin).toBeGreaterThanOrEqual(van.travelBufferMin);
      } else expect(job.gapAfterMin).toBeNull();
      expect(job.cashToCollect !== null).toBe(row.payment_status === 'CASH_DUE');
    }

    // Cash to collect and unpaid card payments of the whole day, as the database has them.
    const [money] = await server.db.sql<{ cash: number; unpaid: number; n: number; until: Date | null }[]>`
      select coalesce(sum(total_cents) filter (where payment_status = 'CASH_DUE'), 0)::int as cash,
        coalesce(sum(total_cents) filter (where payment_method = 'CARD' and payment_status = 'PENDING'), 0)::int as unpaid,
        (count(*) filter (where payment_method = 'CARD' and payment_status = 'PENDING'))::int as n,
        min(p.expires_at) as until
      from bookings b left join payments p on b.id = any(p.booking_ids) and p.status = 'OPEN'
      where b.business_id = ${BIZ} and b.status in ('PENDING', 'ACCEPTED', 'DONE')
        and (b.starts_at at time zone 'Africa/Johannesburg')::date = ${date}::date`;
    expect(plan.totals).toMatchObject({
      cashToCollectCents: money!.cash,
      unpaidCardCents: money!.unpaid,
      unpaidCardJobs: money!.n,
    });
    expect(plan.totals.cashToCollect).toMatch(/^R[\d ,.]+$/);
    const unpaid = plan.resources.flatMap((r: Json) => r.jobs).filter((j: Json) => j.unpaidCard);
    expect(unpaid.length).toBe(money!.n);
    expect(unpaid[0]).toMatchObject({
      status: 'PENDING',
      paymentStatus: 'PENDING',
      unpaidCard: { linkOpenUntil: new Date(clock.now().getTime() + 48 * 3600_000).toISOString() },
    });

    // The same over MCP.
    const client = await server.mcpAs(ownerKey);
    const overMcp = toolJson(await client.callTool({ name: 'get_day_plan', arguments: { date } }));
    expect(overMcp).toEqual(plan);
  });

  it("gives the crew key Van 1's day only", async () => {
    const date = await busyDay();
    const res = await server.get(`/v1/business/day-plan?date=${date}`, as(crewKey));
    expect(res.status).toBe(200);
    expect(res.body.role).toBe('crew');
    expect(res.body.resources.map((r: Json) => r.resourceId)).toEqual(['bp-van-1']);
    expect(res.body.resources[0].jobs.every((j: Json) => j.resourceId === 'bp-van-1')).toBe(true);
    const other = await server.get(`/v1/business/day-plan?date=${date}&resourceId=bp-van-2`, as(crewKey));
    expect(other.status).toBe(403);
    expect(other.body.error.message).toMatch(/crew/);
    const list = await server.get('/v1/business/bookings', as(crewKey));
    expect(list.status).toBe(403);
    expect(list.body.error.message).toMatch(/get_day_plan/);
  });

  it('pages the business’s bookings with the cursor, oldest first, none twice, as the database has them', async () => {
    const from = '2026-03-01';
    const to = '2026-03-20';
    const seen: Json[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const qs: string = new URLSearchParams({
        from,
        to,
        limit: '7',
        ...(cursor ? { cursor } : {}),
      }).toString();
      const res = await server.get(`/v1/business/bookings?${qs}`, as(ownerKey));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.bookings.length).toBeLessThanOrEqual(7);
      seen.push(...res.body.bookings);
      cursor = res.body.next;
      pages++;
    } while (cursor && pages < 50);
    const rows = await server.db.sql<{ id: string }[]>`
      select id from bookings where business_id = ${BIZ}
        and starts_at >= '2026-03-01T00:00:00+02:00' and starts_at < '2026-03-21T00:00:00+02:00'
      order by starts_at, id`;
    expect(rows.length).toBeGreaterThan(14);
    expect(seen.map((b) => b.bookingId)).toEqual(rows.map((r) => r.id));
    expect(pages).toBe(Math.ceil(rows.length / 7));
    // Filters: one resource, one status, one client.
    const cash = await server.get(
      `/v1/business/bookings?from=${from}&to=${to}&resourceId=bp-van-2&status=ACCEPTED&limit=50`,
      as(ownerKey),
    );
    expect(cash.status).toBe(200);
    expect(cash.body.bookings.length).toBeGreaterThan(0);
    expect(
      cash.body.bookings.every((b: Json) => b.resourceId === 'bp-van-2' && b.status === 'ACCEPTED'),
    ).toBe(true);
    const anele = await server.get(
      `/v1/business/bookings?from=${from}&to=${to}&clientId=cli_bp_anele&limit=50`,
      as(ownerKey),
    );
    expect(anele.body.bookings.length).toBeGreaterThan(0);
    expect(anele.body.bookings.every((b: Json) => b.client?.name === 'Anele Dlamini')).toBe(true);
    // Bounds.
    const tooLong = await server.get('/v1/business/bookings?from=2026-01-01&to=2026-06-30', as(ownerKey));
    expect(tooLong.status).toBe(400);
    const badCursor = await server.get('/v1/business/bookings?cursor=bm9wZQ', as(ownerKey));
    expect(badCursor.status).toBe(400);
  });

  it('has a settled sandbox payment for every card booking it paid: earnings, payouts to come and a payout show that money', async () => {
    // Every card booking the demo marks paid was paid as a real one is: a PAID sandbox payment of
    // its own, for its total, with the gateway's reference, settled after it was made and before it began.
    const paid = await server.db.sql<Json[]>`
      select b.id, b.total_cents as total, b.starts_at as start, b.created_at as made,
        (b.details->'quote'->>'cardFeeCents')::int as fee,
        array(select p.id from payments p where b.id = any(p.booking_ids) and p.status = 'PAID') as payments
      from bookings b
      where b.business_id = ${BIZ} and b.payment_method = 'CARD'
        and b.payment_status in ('PAID', 'REFUND_REQUESTED', 'REFUNDED')
      order by b.starts_at, b.id`;
    expect(paid.length).toBeGreaterThan(10);
    expect(paid.filter((b) => b.start < clock.now()).length).toBeGreaterThan(3);
    const payments = await server.db.sql<Json[]>`
      select id, booking_ids as "bookingIds", amount_cents as amount, currency, gateway, gateway_ref as ref,
        paid_at as "paidAt", created_at as created, expires_at as expires
      from payments where business_id = ${BIZ} and status = 'PAID'`;
    const byId = new Map(payments.map((p) => [p.id, p]));
    for (const b of paid) {
      expect(b.payments, b.id).toHaveLength(1);
      const p = byId.get(b.payments[0])!;
      expect(p, b.id).toMatchObject({
        bookingIds: [b.id],
        amount: b.total,
        currency: 'ZAR',
        gateway: 'sandbox',
      });
      expect(p.ref).toMatch(/^sbx_/);
      expect(p.paidAt < b.start && p.paidAt <= clock.now() && p.created <= p.paidAt, b.id).toBe(true);
      expect(p.paidAt < p.expires).toBe(true);
      expect(b.made.getTime()).toBe(p.created.getTime());
    }
    // No settled payment of the demo is for anything but those bookings.
    expect(payments.map((p) => p.id).sort()).toEqual(paid.map((b) => b.payments[0]).sort());
    // Each reference is recorded as a notification applied once, as the gateway's own would be.
    const [applied] = await server.db.sql<{ n: number }[]>`
      select count(distinct n.gateway_ref)::int as n from payment_notifications n
      join payments p on p.id = n.payment_id and p.gateway_ref = n.gateway_ref
      where p.business_id = ${BIZ} and p.status = 'PAID' and n.gateway = 'sandbox' and n.outcome = 'APPLIED'`;
    expect(applied!.n).toBe(payments.length);

    // The past 14 days' earnings: the card money settled then, to the cent with the payments table and the bookings.
    const from = '2026-02-26';
    const to = '2026-03-11';
    const local = (d: Date) => new Date(d.getTime() + 2 * 3600_000).toISOString().slice(0, 10);
    const inPeriod = paid.filter((b) => {
      const d = local(byId.get(b.payments[0])!.paidAt);
      return d >= from && d <= to;
    });
    expect(inPeriod.length).toBeGreaterThan(5);
    const [table] = await server.db.sql<{ cents: number; n: number }[]>`
      select coalesce(sum(amount_cents), 0)::int as cents, count(*)::int as n from payments
      where business_id = ${BIZ} and status = 'PAID'
        and (paid_at at time zone 'Africa/Johannesburg')::date between ${from}::date and ${to}::date`;
    const sum = (rows: Json[], f: (b: Json) => number) => rows.reduce((s, b) => s + f(b), 0);
    expect(table!.cents).toBe(sum(inPeriod, (b) => b.total));
    const res = await server.get(`/v1/business/earnings?from=${from}&to=${to}`, as(ownerKey));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const e = res.body as Json;
    expect(e.totals).toMatchObject({
      cardCents: table!.cents,
      cardPayments: table!.n,
      cardBookings: inPeriod.length,
      cardFeesCents: sum(inPeriod, (b) => b.fee),
      refundsCents: 0,
    });
    expect(e.totals.cardCents).toBeGreaterThan(0);
    expect(e.summary).toContain(`${e.totals.card} by card in ${table!.n} payments`);
    const client = await server.mcpAs(ownerKey);
    const overMcp = toolJson(await client.callTool({ name: 'get_earnings', arguments: { from, to } }));
    expect(overMcp.totals).toEqual(e.totals);

    // Nothing paid out yet: all of it is still to come, less its card fees.
    const list = await server.get('/v1/business/payouts', as(ownerKey));
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const card = sum(paid, (b) => b.total);
    const fees = sum(paid, (b) => b.fee);
    expect(list.body.payouts).toEqual([]);
    expect(list.body.stillToCome).toMatchObject({
      cardCents: card,
      feesCents: fees,
      refundsCents: 0,
      amountCents: card - fees,
      payments: paid.length,
      refunds: 0,
    });
    expect(list.body.stillToCome.amountCents).toBeGreaterThan(0);

    // The operator's payout through today holds all of it: card less fees and refunds.
    const made = await cli(server.db.url, ['payout', 'create', BIZ, '--to', to]);
    expect(made.status, made.stderr).toBe(0);
    const payoutId = made.lastLine.split('\t')[0]!;
    expect(made.lastLine).toMatch(/^pout_\w+\tCREATED\tbiz_boland_paws\tthrough 2026-03-11\t/);
    const [row] = await server.db.sql<Json[]>`
      select card_cents as card, fee_cents as fees, refund_cents as refunds, amount_cents as amount,
        (select count(*)::int from payout_items i where i.payout_id = o.id and i.kind = 'CARD') as items
      from payouts o where id = ${payoutId}`;
    expect(row).toEqual({ card, fees, refunds: 0, amount: card - fees - 0, items: paid.length });
    const after = await server.get('/v1/business/payouts', as(ownerKey));
    expect(after.body.payouts.map((p: Json) => [p.payoutId, p.status, p.amountCents])).toEqual([
      [payoutId, 'CREATED', card - fees],
    ]);
    expect(after.body.onTheWayCents).toBe(card - fees);
    expect(after.body.stillToCome).toMatchObject({ amountCents: 0, payments: 0 });
  });

  it('is listed in the directory as a partner', async () => {
    const res = await server.get('/v1/directory?q=Boland%20Paws');
    expect(res.status).toBe(200);
    expect(res.body.listings[0]).toMatchObject({ name: 'Boland Paws', partner: true, businessId: BIZ });
  });
});
