// Races: many clients at once on the things only one of them may have. Each part fires
// crowds of different people at one contested thing, round after round, then reads its invariant
// from the database: no resource booked twice (owner side and business side), no group walk over
// its size, no unit of stock sold twice or lost, no booking or invoice paid twice (the rest owed
// back), no sign-up drafts past their limits. Each part prints its figures as a JSON line.
//
// Short form (in `pnpm test`): RACE_ATTEMPTS attempts in all (400 by default).
// Long form: `pnpm races` (10,000). Rounds are counted beforehand, so every run stops by itself.
import { createApiKey } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newPetOwner,
  notifySandbox,
  signSandboxNotice,
  startTestServer,
  type TestServer,
} from './harness.js';
import {
  crowd,
  dayAfter,
  doubleBookings,
  doublePaid,
  overfullGroups,
  type RaceAnswer,
  roundsOf,
  stockOffLedger,
  Tally,
} from './races-fixture.js';
import {
  courierOrder,
  type Door,
  NOW,
  newBuyer,
  payOrderLink,
  type ShopCall,
  shopCaller,
} from './shop-fixture.js';

type Json = any;

const ATTEMPTS = Number(process.env.RACE_ATTEMPTS ?? 400);
/** Each part's share of the attempts. */
const SHARE = { owner: 0.25, business: 0.15, group: 0.1, stock: 0.2, pay: 0.15, signup: 0.15 };
const attemptsOf = (part: keyof typeof SHARE) => Math.round(ATTEMPTS * SHARE[part]);
/** Clients of one round, all sent at once; also the bound on requests in flight. */
const CROWD = 16;
/** A part's time: generous per attempt on two cores, so the long form is not cut short. */
const timeFor = (part: keyof typeof SHARE) => 60_000 + attemptsOf(part) * 400;

const BIZ = 'biz_boland_paws';
const FIRST_DAY = '2026-11-24'; // the day after NOW (Monday 06:00 in Johannesburg)
// The limits prepare_business_signup states (DRAFTS_PER_CALLER_PER_HOUR, DRAFTS_PER_EMAIL_PER_DAY).
const DRAFTS_PER_CALLER = 20;
const DRAFTS_PER_EMAIL = 5;
// Variants of the demo shop raced for; their stock is topped up before each round.
const CONTESTED = [
  { productId: 'cat-food', variantId: 'cat-food-fish' },
  { productId: 'dog-bed', variantId: 'dog-bed-l' },
  { productId: 'harness', variantId: 'harness-l' },
  { productId: 'leash', variantId: 'leash' },
];

describe(`races: ${ATTEMPTS} attempts on contested things`, () => {
  let server: TestServer;
  const clock = fixedClock(NOW);
  const people: { key: string; petId: string; addressId: string }[] = [];
  let ownerKey: string;
  const as = (key: string, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${key}`,
    ...extra,
  });
  const bookingCount = async () =>
    Number((await server.db.sql`select count(*)::int as n from bookings`)[0]!.n);
  /** The people of round `r`: CROWD different ones, turning through the pool. */
  const crowdOf = (r: number) =>
    Array.from({ length: CROWD }, (_, i) => people[(r * CROWD + i) % people.length]!);

  beforeAll(async () => {
    server = await startTestServer({
      clock,
      database: { demoDataAt: clock.now() },
      // Every client comes from 127.0.0.1: the general limit must not be what refuses them. Sign-up
      // callers are told apart by the address a trusted proxy (loopback here) forwards.
      env: { RATE_LIMIT_POINTS: '10000000', TRUST_PROXY: 'loopback' },
    });
    for (let i = 0; i < 2 * CROWD; i++)
      people.push(
        await newPetOwner(server, {
          email: `racer-${i}@example.com`,
          pet: { name: `Racer ${i}`, weightKg: 14 },
          line1: `${i + 1} Dorp Street`,
        }),
      );
    ownerKey = (
      await createApiKey(server.db.sql, { email: 'owner@partner.example', scopes: ['business:manage'] })
    ).key;
  }, 120_000);
  afterAll(() => server?.stop());

  /** The first open grooming slots at the operator from `day` on, for a racer's dog: the day and its slots. */
  async function groomingSlots(day: string, person = people[0]!) {
    for (let d = 0; d < 60; d++) {
      const date = dayAfter(day, d);
      const found = await server.post(
        '/v1/availability',
        {
          category: 'grooming',
          addressId: person.addressId,
          pets: [{ petId: person.petId, serviceIds: ['groom-dog-bath'] }],
          from: date,
          to: date,
        },
        as(person.key),
      );
      // A day with nothing open is answered NO_AVAILABILITY (with the next open times).
      if (found.status === 409 && found.body.error?.code === 'NO_AVAILABILITY') continue;
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      const slots = found.body.days?.[0]?.slots as { start: string; resourceId: string }[] | undefined;
      if (slots?.length) return { day: date, slots };
    }
    throw new Error(`no grooming slot in 60 days from ${day}`);
  }

  it(
    'owner side: racers booking the same few grooming slots never book one van twice',
    async () => {
      const tally = new Tally('owner-bookings');
      const before = await bookingCount();
      const rounds = roundsOf(attemptsOf('owner'), CROWD);
      let day = FIRST_DAY;
      const won: { id: string; start: string; resourceId: string }[] = [];
      for (let r = 0; r < rounds; r++) {
        // Three slots at once, mostly overlapping ones of one van (30-minute steps, 60-minute baths).
        const open = await groomingSlots(day);
        day = open.day;
        const contested = open.slots.slice(0, 3);
        const answers = await crowd(
          crowdOf(r).map((p, i) => () => {
            const slot = contested[i % contested.length]!;
            return server.post(
              '/v1/bookings',
              {
                category: 'grooming',
                addressId: p.addressId,
                pets: [{ petId: p.petId, serviceIds: ['groom-dog-bath'] }],
                start: slot.start,
                resourceId: slot.resourceId,
                paymentMethod: 'CARD',
              },
              as(p.key),
            );
          }),
          CROWD,
        );
        answers.forEach((a, i) => {
          tally.add(a, a.status === 201);
          const slot = contested[i % contested.length]!;
          if (a.status === 201) won.push({ id: a.body.bookingId, ...slot });
        });
      }
      const doubles = await doubleBookings(server);
      const made = (await bookingCount()) - before;
      // Every booking answered 201 is in the database at the slot asked, and no other was made.
      const rows = await server.db.sql<{ id: string; start: Date; resourceId: string; status: string }[]>`
        select id, starts_at as start, resource_id as "resourceId", status from bookings where id = any(${won.map((w) => w.id)})`;
      tally.report(doubles.length, { made });
      expect(doubles).toEqual([]);
      expect(made).toBe(tally.successes);
      expect(rows).toHaveLength(won.length);
      for (const w of won)
        expect(rows.find((row) => row.id === w.id)).toMatchObject({
          start: new Date(w.start),
          resourceId: w.resourceId,
          status: 'PENDING',
        });
      tally.expectOnlyRefused('SLOT_TAKEN');
      expect(tally.successes).toBeGreaterThan(0);
    },
    timeFor('owner'),
  );

  it(
    'business side: the owner booking for clients and racers booking the same partner slots never book one van twice',
    async () => {
      const tally = new Tally('business-bookings');
      const before = await bookingCount();
      const rounds = roundsOf(attemptsOf('business'), CROWD);
      const rex = { name: 'Rex', type: 'DOG', weightKg: 14, coat: 'SHORT', serviceIds: ['bp-groom-bath'] };
      let day = FIRST_DAY;
      const bySide = { forClient: 0, byOwner: 0 };
      for (let r = 0; r < rounds; r++) {
        let slots: { start: string; resourceId: string }[] = [];
        for (let d = 0; d < 60 && !slots.length; d++) {
          const found = await server.post(
            '/v1/business/times',
            { pets: [rex], from: day, to: day },
            as(ownerKey),
          );
          const full = found.status === 409 && found.body.error?.code === 'NO_AVAILABILITY';
          if (!full) expect(found.status, JSON.stringify(found.body)).toBe(200);
          slots = full ? [] : (found.body.days?.[0]?.slots ?? []);
          if (!slots.length) day = dayAfter(day, 1);
        }
        const contested = slots.slice(0, 2);
        const n = r * CROWD;
        const answers = await crowd(
          crowdOf(r).map((p, i) => () => {
            const slot = contested[i % contested.length]!;
            // Half the crowd is the business's owner booking walk-in clients, half pet owners booking it.
            return i % 2
              ? server.post(
                  '/v1/business/bookings',
                  {
                    client: {
                      name: `Race Client ${n + i}`,
                      phone: `+27 82 ${String(1_000_000 + n + i).slice(-7)}`,
                    },
                    pets: [rex],
                    address: { line1: '12 Dorp Street', suburb: 'Die Boord', city: 'Stellenbosch' },
                    start: slot.start,
                    resourceId: slot.resourceId,
                    paymentMethod: 'CASH',
                    confirm: true,
                  },
                  as(ownerKey),
                )
              : server.post(
                  '/v1/bookings',
                  {
                    businessId: BIZ,
                    category: 'grooming',
                    addressId: p.addressId,
                    pets: [{ petId: p.petId, serviceIds: ['bp-groom-bath'] }],
                    start: slot.start,
                    resourceId: slot.resourceId,
                    paymentMethod: 'CARD',
                  },
                  as(p.key),
                );
          }),
          CROWD,
        );
        answers.forEach((a, i) => {
          tally.add(a, a.status === 201);
          if (a.status === 201) bySide[i % 2 ? 'forClient' : 'byOwner']++;
        });
      }
      const doubles = await doubleBookings(server);
      const made = (await bookingCount()) - before;
      tally.report(doubles.length, { made, ...bySide });
      expect(doubles).toEqual([]);
      expect(made).toBe(tally.successes);
      tally.expectOnlyRefused('SLOT_TAKEN');
    },
    timeFor('business'),
  );

  it(
    'group walks: racers filling one walk never put more dogs on it than its size',
    async () => {
      const tally = new Tally('group-walks');
      const before = await bookingCount();
      const rounds = roundsOf(attemptsOf('group'), CROWD);
      let underfilled = 0;
      let day = FIRST_DAY;
      for (let r = 0; r < rounds; r++) {
        const walk = (p: (typeof people)[number]) => ({
          category: 'walking',
          addressId: p.addressId,
          pets: [{ petId: p.petId, serviceIds: ['walk-group-60'] }],
        });
        // The day's 15:00 group walk of walker-2 where there is one (3 of 4 places taken on the
        // demo's weekdays), else its first group walk with a place.
        let found: { start: string; resourceId: string; time: string } | undefined;
        // Each round takes the next day's walk (the loop moves past the day it found).
        for (let d = 0; d < 60 && !found; d++, day = dayAfter(day, 1)) {
          const res = await server.post(
            '/v1/availability',
            { ...walk(people[0]!), from: day, to: day },
            as(people[0]!.key),
          );
          const full = res.status === 409 && res.body.error?.code === 'NO_AVAILABILITY';
          if (!full) expect(res.status, JSON.stringify(res.body)).toBe(200);
          const slots = (full ? [] : (res.body.days?.[0]?.slots ?? [])) as {
            start: string;
            resourceId: string;
            time: string;
          }[];
          found = slots.find((s) => s.time === '15:00' && s.resourceId === 'walker-2') ?? slots[0];
        }
        if (!found) throw new Error('no group walk with a place in 60 days');
        const slot = found;
        const dogs = async () =>
          Number(
            (
              await server.db.sql`
                select coalesce(sum(group_size), 0)::int as n from bookings
                where resource_id = ${slot.resourceId} and starts_at = ${slot.start}
                  and group_key = 'walk-group-60' and status in ('PENDING', 'ACCEPTED')`
            )[0]!.n,
          );
        const had = await dogs();
        const answers = await crowd(
          crowdOf(r).map(
            (p) => () =>
              server.post(
                '/v1/bookings',
                { ...walk(p), start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD' },
                as(p.key),
              ),
          ),
          CROWD,
        );
        for (const a of answers) tally.add(a, a.status === 201);
        const has = await dogs();
        expect(has - had).toBe(answers.filter((a) => a.status === 201).length);
        if (has < 4) underfilled++;
      }
      const overfull = await overfullGroups(server);
      const doubles = await doubleBookings(server);
      const made = (await bookingCount()) - before;
      tally.report(overfull.length + doubles.length, { made, rounds, underfilled });
      expect(overfull).toEqual([]);
      expect(doubles).toEqual([]);
      expect(made).toBe(tally.successes);
      tally.expectOnlyRefused('SLOT_TAKEN');
    },
    timeFor('group'),
  );

  it(
    'stock: buyers racing for the last few of a variant never take more than there is, and none is lost',
    async () => {
      const tally = new Tally('stock');
      const call: ShopCall = shopCaller(server);
      const buyers = [];
      for (let i = 0; i < CROWD; i++) buyers.push(await newBuyer(server, `race-buyer-${i}@example.com`));
      const ids = CONTESTED.map((c) => c.variantId);
      // What each variant holds: its stock and the units its live orders took, plus what is added.
      const ledger = new Map(
        (
          await server.db.sql<{ id: string; total: number }[]>`
            select v.id, (v.stock + coalesce((select sum(l.qty) from order_lines l join orders o on o.id = l.order_id
              where l.variant_id = v.id and o.status not in ('CANCELLED', 'EXPIRED')), 0))::int as total
            from product_variants v where v.id = any(${ids})`
        ).map((r) => [r.id, r.total]),
      );
      expect(ledger.size).toBe(CONTESTED.length);
      /** Sets a variant's stock to `to`, as the shop's operator would count it in; the ledger follows. */
      const restock = async (variantId: string, to: number) => {
        const [row] = await server.db.sql<{ stock: number }[]>`
          select stock from product_variants where id = ${variantId}`;
        await server.db.sql`update product_variants set stock = ${to} where id = ${variantId}`;
        ledger.set(variantId, ledger.get(variantId)! + to - row!.stock);
      };
      const stockOf = async (variantId: string) =>
        (
          await server.db.sql<{ stock: number }[]>`select stock from product_variants where id = ${variantId}`
        )[0]!.stock;
      const rounds = roundsOf(attemptsOf('stock'), CROWD);
      const unsold: Json[] = [];
      for (let r = 0; r < rounds; r++) {
        const a = CONTESTED[r % CONTESTED.length]!;
        const b = CONTESTED[(r + 1) % CONTESTED.length]!;
        const single = r % 2 === 0;
        const left = 1 + (r % 3);
        await restock(a.variantId, left);
        if (!single) await restock(b.variantId, 2);
        // Even rounds: everyone wants one of `a`. Odd rounds: one of `a`, two of `b`, or one of
        // each in one order (taken whole or not at all).
        const items = (i: number) =>
          single || i % 3 === 0
            ? [{ ...a, qty: 1 }]
            : i % 3 === 1
              ? [{ ...b, qty: 2 }]
              : [
                  { ...a, qty: 1 },
                  { ...b, qty: 1 },
                ];
        const answers = await crowd(
          buyers.map(
            (buyer, i) => () =>
              call((i % 2 ? 'mcp' : 'http') as Door, 'buy', courierOrder(items(i)), { key: buyer.key }),
          ),
          CROWD,
        );
        for (const answer of answers) tally.add(answer, answer.status === 201);
        // The winners pay, as people do: a person may hold only two unpaid orders at once,
        // and every round's buyers are the same people. Paid orders keep the units they took.
        for (const answer of answers.filter((x) => x.status === 201))
          expect(await payOrderLink(server, answer.body.payUrl)).toBe(303);
        // With every buyer wanting one, and more buyers than units, the last units all go.
        if (single) {
          const sold = answers.filter((x) => x.status === 201).length;
          const after = await stockOf(a.variantId);
          if (sold !== left || after !== 0) unsold.push({ round: r, ...a, left, sold, after });
        }
      }
      const off = await stockOffLedger(server, ledger);
      tally.report(off.length + unsold.length, { rounds, unsold: unsold.length });
      expect(off).toEqual([]);
      expect(unsold).toEqual([]);
      tally.expectOnlyRefused('OUT_OF_STOCK');
    },
    timeFor('stock'),
  );

  it(
    'pay links and invoices: many charges at once on one link pay it once; the rest are owed back',
    async () => {
      const tally = new Tally('pay-links');
      const rounds = roundsOf(attemptsOf('pay'), CROWD);
      // Twelve gateway references among sixteen notifications: some are the gateway's replays.
      const REFS = 12;
      let day = '2027-03-01'; // away from the days the booking races filled
      const targets: { kind: 'booking' | 'invoice'; id: string; paymentId: string }[] = [];
      for (let r = 0; r < rounds; r++) {
        let target: (typeof targets)[number];
        if (r % 2 === 0) {
          const p = people[r % people.length]!;
          const open = await groomingSlots(day, p);
          day = open.day;
          const slot = open.slots[0]!;
          const booked = await server.post(
            '/v1/bookings',
            {
              category: 'grooming',
              addressId: p.addressId,
              pets: [{ petId: p.petId, serviceIds: ['groom-dog-bath'] }],
              start: slot.start,
              resourceId: slot.resourceId,
              paymentMethod: 'CARD',
            },
            as(p.key),
          );
          expect(booked.status, JSON.stringify(booked.body)).toBe(201);
          const [payment] = await server.db.sql<{ id: string }[]>`
            select id from payments where ${booked.body.bookingId} = any(booking_ids) and status = 'OPEN'`;
          target = { kind: 'booking', id: booked.body.bookingId, paymentId: payment!.id };
        } else {
          const made = await server.post(
            '/v1/business/invoices',
            { amountCents: 25000, description: `Race invoice ${r}`, confirm: true },
            as(ownerKey),
          );
          expect(made.status, JSON.stringify(made.body)).toBe(201);
          const [payment] = await server.db.sql<{ id: string }[]>`
            select id from payments where invoice_id = ${made.body.invoiceId}`;
          target = { kind: 'invoice', id: made.body.invoiceId, paymentId: payment!.id };
        }
        targets.push(target);
        const [{ amount }] = (await server.db.sql`
          select amount_cents as amount from payments where id = ${target.paymentId}`) as unknown as [
          { amount: number },
        ];
        const bodies = await Promise.all(
          Array.from({ length: CROWD }, (_, i) =>
            signSandboxNotice(server, {
              paymentId: target.paymentId,
              gatewayRef: `sbx_race_${r}_${i % REFS}`,
              amountCents: amount,
              outcome: 'COMPLETE',
            }),
          ),
        );
        const answers = await crowd(
          bodies.map(
            (body) => async (): Promise<RaceAnswer> => ({
              status: await notifySandbox(server, body),
              body: null,
            }),
          ),
          CROWD,
        );
        for (const a of answers) tally.add(a, a.status === 200);
      }
      // Per link: paid once, its booking or invoice paid, and every other reference owed back once.
      const broken: Json[] = [];
      let owedBack = 0;
      for (const t of targets) {
        const [link] = await server.db.sql<
          { status: string }[]
        >`select status from payments where id = ${t.paymentId}`;
        const [paid] =
          t.kind === 'booking'
            ? await server.db.sql<
                { state: string }[]
              >`select payment_status as state from bookings where id = ${t.id}`
            : await server.db.sql<
                { state: string }[]
              >`select status as state from invoices where id = ${t.id}`;
        const notices = await server.db.sql<{ state: string; n: number; refs: number }[]>`
          select state, count(*)::int as n, count(distinct gateway_ref)::int as refs from payment_notices
          where payment_id = ${t.paymentId} group by state order by state`;
        const refunds = notices.find((n) => n.state === 'REFUND_DUE');
        owedBack += refunds?.n ?? 0;
        const ok =
          link?.status === 'PAID' &&
          paid?.state === 'PAID' &&
          refunds?.n === REFS - 1 &&
          refunds.refs === REFS - 1 &&
          notices.every((n) => n.state === 'REFUND_DUE' || n.state === 'DONE');
        if (!ok) broken.push({ ...t, link, paid, notices });
      }
      const twice = await doublePaid(server);
      tally.report(broken.length + twice.length, { links: targets.length, owedBack });
      expect(broken).toEqual([]);
      expect(twice).toEqual([]);
      tally.expectOnlyRefused();
    },
    timeFor('pay'),
  );

  it(
    'sign-up drafts: many at once for one email or from one caller save no more than the limits',
    async () => {
      const tally = new Tally('signup-drafts');
      let address = 0;
      /** A caller address never used before: 10.x.y.z from a counter. */
      const newCaller = () => {
        address++;
        return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
      };
      const draft = (caller: string, body: Record<string, unknown>) =>
        server.post(
          '/v1/signup-drafts',
          { businessName: 'Race Grooming', town: 'Stellenbosch', consent: true, ...body },
          { 'x-forwarded-for': caller },
        );
      const counted = async (where: 'email' | 'caller', value: string) =>
        Number(
          (
            await server.db.sql`
              select count(*)::int as n from signup_drafts where ${server.db.sql(where)} = ${value}`
          )[0]!.n,
        );
      // Email rounds: CROWD callers for one new email. Caller rounds: 28 drafts from one new caller.
      const PER_CALLER_CROWD = 28;
      const emailRounds = roundsOf(attemptsOf('signup') / 2, CROWD);
      const callerRounds = roundsOf(attemptsOf('signup') / 2, PER_CALLER_CROWD);
      const wrong: Json[] = [];
      for (let r = 0; r < Math.max(emailRounds, callerRounds); r++) {
        if (r < emailRounds) {
          const email = `race-draft-${r}@example.com`;
          const answers = await crowd(
            Array.from({ length: CROWD }, () => () => draft(newCaller(), { email })),
            CROWD,
          );
          for (const a of answers) tally.add(a, a.status === 201);
          const saved = await counted('email', email);
          const won = answers.filter((a) => a.status === 201).length;
          if (saved !== DRAFTS_PER_EMAIL || won !== saved) wrong.push({ email, saved, won });
        }
        if (r < callerRounds) {
          const caller = newCaller();
          const answers = await crowd(
            Array.from(
              { length: PER_CALLER_CROWD },
              (_, i) => () => draft(caller, { businessName: `Race ${r}-${i}` }),
            ),
            PER_CALLER_CROWD,
          );
          for (const a of answers) tally.add(a, a.status === 201);
          // The caller is kept as the address it came from.
          const [row] = await server.db.sql<{ caller: string; n: number }[]>`
            select caller, count(*)::int as n from signup_drafts where caller like ${`%${caller}`} group by caller`;
          const won = answers.filter((a) => a.status === 201).length;
          if (row?.n !== DRAFTS_PER_CALLER || won !== row.n) wrong.push({ caller, saved: row, won });
        }
      }
      // Over the whole table: no email past its limit, no caller past its own.
      const overLimit = await server.db.sql<Json[]>`
        select 'email' as by, email as who, count(*)::int as n from signup_drafts where email is not null
        group by email having count(*) > ${DRAFTS_PER_EMAIL}
        union all
        select 'caller', caller, count(*)::int from signup_drafts group by caller having count(*) > ${DRAFTS_PER_CALLER}`;
      tally.report(overLimit.length + wrong.length, { emailRounds, callerRounds });
      expect(overLimit).toEqual([]);
      expect(wrong).toEqual([]);
      tally.expectOnlyRefused('RateLimited');
    },
    timeFor('signup'),
  );

  it('holds every invariant over the whole database at the end', async () => {
    expect(await doubleBookings(server)).toEqual([]);
    expect(await overfullGroups(server)).toEqual([]);
    expect(await doublePaid(server)).toEqual([]);
    const [{ negative }] = (await server.db.sql`
      select count(*)::int as negative from product_variants where stock < 0`) as unknown as [
      { negative: number },
    ];
    expect(negative).toBe(0);
  });
});
