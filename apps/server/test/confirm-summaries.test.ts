// Every confirm step says what, when, where and how much: each operation of the registry
// that takes `confirm` is called without it over HTTP, with the demo data (Boland Paws, its owner,
// its bookings; a pet owner of the operator's; an applicant), and its 409 CONFIRM_REQUIRED must
// carry, in `details.summary` and `details.parts`, each part its kind of step declares: the local
// day and time (checked against the instant the test sent or the booking holds), the place, the
// pets, the amount and what happens to the money; the parts that do not apply are null.
import { CONFIRM_KINDS, type ConfirmPartsOut, type Operation, operations } from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookFirstCardSlot, newPetOwner, startTestServer, type TestServer } from './harness.js';
import { applicationForReview } from './review-fixture.js';
import { buyerWithBooking } from './shop-fixture.js';

type Json = any;

const BIZ = 'biz_boland_paws';
const TZ = 'Africa/Johannesburg';
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg
const DAY = 86_400_000;

/** The operations that can answer CONFIRM_REQUIRED: every one whose input takes `confirm`. */
const CONFIRMING = operations.filter((op) => 'confirm' in op.input.shape);

/** What the test knows independently of the answer: the instant, place, pets and amount it expects. */
interface Expected {
  start?: Date;
  place?: string;
  pets?: string[];
  amountCents?: number;
  /** Further text the summary must hold. */
  texts?: string[];
}
interface Trigger {
  params?: Record<string, string>;
  body: Record<string, unknown>;
  key: string;
  expected: Expected;
}

/** Local "HH:MM" and "30 Nov 2026" of an instant, made here with Intl (not the service's helpers). */
const localTime = (at: Date) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: TZ,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
const localDay = (at: Date) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: TZ, day: 'numeric', month: 'short', year: 'numeric' }).format(
    at,
  );

describe('every confirm step says what, when, where and how much', () => {
  let server: TestServer;
  const keys = {} as Record<'owner' | 'manager', string>;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const manageKey = async (email: string) =>
    (await createApiKey(server.db.sql, { email, scopes: ['business:manage'] })).key;
  const userId = async (email: string) =>
    (await server.db.sql`select id from users where lower(email) = lower(${email})`)[0]!.id as string;
  const used = new Set<string>();

  /** A live demo booking of Boland Paws a day or more ahead, not used yet; `pending` makes it wait for the business. */
  async function take(kind: 'pending' | 'any' | 'unpaid' = 'any') {
    const rows = await server.db.sql<
      { id: string; resourceId: string; start: Date; totalCents: number; details: Json }[]
    >`
      select id, resource_id as "resourceId", starts_at as "start", total_cents as "totalCents", details
      from bookings
      where business_id = ${BIZ} and status in ('PENDING', 'ACCEPTED')
        and starts_at > ${new Date(clock.now().getTime() + DAY)}
        ${
          kind === 'unpaid'
            ? server.db.sql`and payment_method = 'CARD' and payment_status = 'PENDING'`
            : server.db.sql`and status = 'ACCEPTED'`
        }
        and id <> all(${[...used, '']}::text[])
      order by starts_at, id limit 1`;
    const row = rows[0]!;
    used.add(row.id);
    if (kind === 'pending') await server.db.sql`update bookings set status = 'PENDING' where id = ${row.id}`;
    return row;
  }
  /** What a booking row lets the test expect. */
  const fromRow = (row: { start: Date; totalCents: number; details: Json }): Expected => ({
    start: row.start,
    place: row.details.address,
    pets: row.details.pets.map((p: Json) => p.name),
    amountCents: row.totalCents,
  });
  /** Weekdays 20 days on and later, where the demo has no bookings. */
  let freeDay = 0;
  const nextFreeStart = () => {
    for (;;) {
      const date = new Date(clock.now().getTime() + (20 + freeDay++) * DAY);
      if (date.getUTCDay() >= 1 && date.getUTCDay() <= 5)
        return `${date.toISOString().slice(0, 10)}T08:30:00+02:00`;
    }
  };
  const REX = { name: 'Rex', type: 'DOG', weightKg: 14, coat: 'SHORT', serviceIds: ['bp-groom-bath'] };

  /** How to reach each operation's confirm step with realistic data; the registry says which must be here. */
  const TRIGGERS: Record<string, () => Promise<Trigger>> = {
    async book() {
      const owner = await newPetOwner(server, {
        email: 'confirm-book@example.com',
        pet: { name: 'Rex', weightKg: 12 },
        line1: '12 Dorp Street',
      });
      const body = {
        category: 'grooming',
        addressId: owner.addressId,
        pets: [{ petId: owner.petId, serviceIds: ['groom-dog-bath'] }],
      };
      const found = await server.post(
        '/v1/availability',
        { ...body, from: '2026-03-16', to: '2026-03-20' },
        as(owner.key),
      );
      const slot = found.body.days.find((d: Json) => d.slots.length).slots[0];
      return {
        key: owner.key,
        body: { ...body, start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CASH' },
        expected: {
          start: new Date(slot.start),
          place: 'Home',
          pets: ['Rex'],
          texts: [slot.time, 'in cash'],
        },
      };
    },
    async cancelBooking() {
      const owner = await newPetOwner(server, {
        email: 'confirm-cancel@example.com',
        pet: { name: 'Bella', weightKg: 9 },
        line1: '4 Dorp Street',
      });
      const booked = await bookFirstCardSlot(server, owner, '2026-03-17');
      const [row] = await server.db.sql`
        select starts_at as "start", total_cents as "totalCents", details from bookings where id = ${booked.bookingId}`;
      return {
        key: owner.key,
        params: { bookingId: booked.bookingId },
        body: {},
        expected: { ...fromRow(row as never), pets: ['Bella'] },
      };
    },
    async buy() {
      const buyer = await buyerWithBooking(server, 'confirm-buy@example.com', '2026-03-18', 'CASH');
      const [row] = await server.db.sql`
        select starts_at as "start", details from bookings where id = ${buyer.bookingId}`;
      return {
        key: buyer.key,
        body: {
          items: [{ productId: 'cat-wand', qty: 1 }],
          shippingMethod: 'visit',
          bookingId: buyer.bookingId,
          paymentMethod: 'CASH',
        },
        expected: { start: row!.start, place: row!.details.address, texts: ['in cash'] },
      };
    },
    async submitBusinessForReview() {
      const app = await applicationForReview(server, 'confirm-applicant@example.com', {
        name: 'Confirm Paws',
        submit: false,
      });
      const key = app.auth.replace(/^Bearer /, '');
      return {
        key,
        params: { applicationId: app.applicationId },
        body: {},
        expected: { place: 'Stellenbosch', texts: ['PayFast'] },
      };
    },
    async acceptBooking() {
      const row = await take('pending');
      return {
        key: keys.owner,
        params: { bookingId: row.id },
        body: { businessId: BIZ },
        expected: fromRow(row),
      };
    },
    async declineBooking() {
      const row = await take('pending');
      return {
        key: keys.owner,
        params: { bookingId: row.id },
        body: { businessId: BIZ, reason: 'The van is in for repairs.' },
        expected: fromRow(row),
      };
    },
    async moveBooking() {
      const row = await take();
      const start = nextFreeStart();
      return {
        key: keys.owner,
        params: { bookingId: row.id },
        body: { businessId: BIZ, start, resourceId: row.resourceId },
        // The step tells the new time; the old one is said too.
        expected: { ...fromRow(row), start: new Date(start), texts: [localTime(row.start)] },
      };
    },
    async cancelBusinessBooking() {
      const row = await take();
      return {
        key: keys.owner,
        params: { bookingId: row.id },
        body: { businessId: BIZ, reason: 'Both vans are in for service that day.' },
        expected: fromRow(row),
      };
    },
    async sendPaymentLink() {
      const row = await take('unpaid');
      return {
        key: keys.owner,
        params: { bookingId: row.id },
        body: { businessId: BIZ },
        expected: fromRow(row),
      };
    },
    async bookForClient() {
      const found = await server.post(
        '/v1/business/times',
        { businessId: BIZ, pets: [REX], from: '2026-03-12', to: '2026-03-12', resourceId: 'bp-van-2' },
        as(keys.owner),
      );
      const slot = found.body.days[0].slots[0];
      return {
        key: keys.owner,
        body: {
          businessId: BIZ,
          client: { name: 'Thandi Walk-in', phone: '+27 82 555 0101' },
          pets: [REX],
          start: slot.start,
          resourceId: slot.resourceId,
          address: { line1: '12 Dorp Street', suburb: 'Die Boord', city: 'Stellenbosch' },
          paymentMethod: 'CASH',
        },
        expected: { start: new Date(slot.start), place: '12 Dorp Street', pets: ['Rex'], amountCents: 32000 },
      };
    },
    async rebookBooking() {
      const [old] = await server.db.sql`
        select id, details, business_client_id from bookings
        where business_id = ${BIZ} and resource_id = 'bp-van-1' and status = 'DONE' and starts_at < '2026-03-10T00:00:00Z'
        order by starts_at desc limit 1`;
      const pets = (old!.details as Json).pets;
      const found = await server.post(
        '/v1/business/times',
        {
          businessId: BIZ,
          clientId: old!.business_client_id,
          pets: pets.map((p: Json) => ({ petId: p.petId, serviceIds: p.serviceIds })),
          from: '2026-03-16',
          to: '2026-03-20',
          resourceId: 'bp-van-1',
        },
        as(keys.owner),
      );
      const slot = found.body.days.flatMap((d: Json) => d.slots)[0];
      return {
        key: keys.owner,
        params: { bookingId: old!.id },
        body: { businessId: BIZ, start: slot.start },
        expected: { start: new Date(slot.start), pets: pets.map((p: Json) => p.name) },
      };
    },
    async createInvoiceLink() {
      return {
        key: keys.owner,
        body: { businessId: BIZ, amountCents: 18000, description: 'Extra brushing' },
        expected: { amountCents: 18000, texts: ['Extra brushing', 'by card'] },
      };
    },
    async updatePrices() {
      return {
        key: keys.owner,
        body: { businessId: BIZ, changes: [{ serviceId: 'bp-groom-bath', priceCents: 35000 }] },
        expected: { texts: ['R350', 'keep'] },
      };
    },
    async setWorkingHours() {
      const [row] = await server.db.sql`
        select starts_at as "start" from bookings where business_id = ${BIZ} and resource_id = 'bp-van-1'
          and status in ('PENDING', 'ACCEPTED') and starts_at > ${clock.now()} order by starts_at limit 1`;
      return {
        key: keys.owner,
        body: {
          businessId: BIZ,
          resourceIds: ['bp-van-1'],
          week: { sun: [{ start: '08:00', end: '09:00' }] },
        },
        // No day of its own: the bookings it strands are told with their local times.
        expected: { texts: [localDay(row!.start), localTime(row!.start)] },
      };
    },
    async addTimeOff() {
      const [row] = await server.db.sql`
        select starts_at as "start" from bookings where business_id = ${BIZ} and resource_id = 'bp-van-1'
          and status in ('PENDING', 'ACCEPTED') and starts_at > ${new Date(clock.now().getTime() + DAY)}
        order by starts_at limit 1`;
      const date = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(row!.start);
      return {
        key: keys.owner,
        body: {
          businessId: BIZ,
          resourceId: 'bp-van-1',
          start: `${date}T07:00`,
          end: `${date}T18:00`,
          reason: 'Van service',
        },
        expected: {
          start: new Date(`${date}T07:00:00+02:00`),
          texts: ['07:00', '18:00', localTime(row!.start)],
        },
      };
    },
    async removeTimeOff() {
      const made = await server.post(
        '/v1/business/time-off',
        {
          businessId: BIZ,
          resourceId: 'bp-sitter',
          start: '2026-04-21T13:00',
          end: '2026-04-22',
          confirm: true,
        },
        as(keys.owner),
      );
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return {
        key: keys.owner,
        params: { timeOffId: made.body.timeOff.timeOffId },
        body: { businessId: BIZ },
        expected: { start: new Date('2026-04-21T13:00:00+02:00'), texts: ['13:00', '21 Apr 2026'] },
      };
    },
    async proposeServiceArea() {
      return {
        key: keys.owner,
        body: { businessId: BIZ, suburbs: [{ name: 'Kayamandi', postalCode: '7600' }] },
        expected: { place: 'Kayamandi' },
      };
    },
    async inviteStaffMember() {
      return {
        key: keys.owner,
        body: { businessId: BIZ, email: 'new-walker@example.com', role: 'crew' },
        expected: { texts: ['new-walker@example.com', 'crew'] },
      };
    },
    async changeStaffRole() {
      return {
        key: keys.owner,
        params: { staffId: await userId('manager@partner.example') },
        body: { businessId: BIZ, role: 'crew' },
        expected: { texts: ['crew', 'instead of manager'] },
      };
    },
    async removeStaffMember() {
      return {
        key: keys.owner,
        params: { staffId: await userId('crew@partner.example') },
        body: { businessId: BIZ },
        expected: { texts: ['Remove', 'crew'] },
      };
    },
    async acceptInvitation() {
      const email = 'confirm-joiner@example.com';
      const invited = await server.post(
        '/v1/business/staff',
        { businessId: BIZ, email, role: 'crew', confirm: true },
        as(keys.owner),
      );
      expect(invited.status, JSON.stringify(invited.body)).toBeLessThan(300);
      const key = await manageKey(email);
      await server.db.sql`update users set email_verified = true where lower(email) = lower(${email})`;
      const [inv] = await server.db.sql`
        select id from business_invitations where business_id = ${BIZ} and lower(email) = lower(${email})`;
      return {
        key,
        params: { invitationId: inv!.id },
        body: {},
        expected: { texts: ['Join the staff of Boland Paws'] },
      };
    },
    async leaveBusiness() {
      return {
        key: keys.manager,
        body: { businessId: BIZ },
        expected: { texts: ['Leave the staff of Boland Paws'] },
      };
    },
  };

  /** The operation's own HTTP route, from its definition. */
  const call = (op: Operation, t: Trigger) =>
    server.post(
      op.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(t.params?.[name] ?? '')),
      t.body,
      as(t.key),
    );

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    keys.owner = await manageKey('owner@partner.example');
    keys.manager = await manageKey('manager@partner.example');
  }, 120_000);
  afterAll(() => server?.stop());

  it('knows how to reach the confirm step of every operation that takes confirm, and each says its kind', () => {
    expect(CONFIRMING.length).toBeGreaterThanOrEqual(20);
    expect(CONFIRMING.map((op) => op.operationId).filter((id) => !TRIGGERS[id])).toEqual([]);
    for (const op of CONFIRMING) expect(Object.keys(CONFIRM_KINDS), op.operationId).toContain(op.confirmKind);
  });

  it("names the partner business in a cash booking's summary; the operator's own bookings name none", async () => {
    const owner = await newPetOwner(server, {
      email: 'confirm-partner@example.com',
      pet: { name: 'Rex', weightKg: 12 },
      line1: '12 Dorp Street',
    });
    const summaryOf = async (businessId: string | undefined, serviceId: string) => {
      const body = {
        ...(businessId ? { businessId } : {}),
        category: 'grooming',
        addressId: owner.addressId,
        pets: [{ petId: owner.petId, serviceIds: [serviceId] }],
      };
      const found = await server.post(
        '/v1/availability',
        { ...body, from: '2026-03-16', to: '2026-03-20' },
        { authorization: `Bearer ${owner.key}` },
      );
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      const slot = found.body.days.find((d: Json) => d.slots.length).slots[0];
      const asked = await server.post(
        '/v1/bookings',
        { ...body, start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CASH' },
        { authorization: `Bearer ${owner.key}` },
      );
      expect(asked.status, JSON.stringify(asked.body)).toBe(409);
      return asked.body.error.details.summary as string;
    };
    expect(await summaryOf(BIZ, 'bp-groom-bath')).toMatch(
      /^Book mobile grooming with Boland Paws for Rex at Home, /,
    );
    expect(await summaryOf(undefined, 'groom-dog-bath')).toMatch(/^Book mobile grooming for Rex at Home, /);
  });

  for (const op of CONFIRMING) {
    it(`${op.toolName}: the summary carries each part of a ${op.confirmKind} step`, async () => {
      const t = await TRIGGERS[op.operationId]!();
      const res = await call(op, t);
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.error.code).toBe('CONFIRM_REQUIRED');
      const summary: string = res.body.error.details.summary;
      const parts: ConfirmPartsOut = res.body.error.details.parts;
      const label = `${op.toolName}: ${summary}`;
      if (process.env.SHOW_SUMMARIES) console.log(`SUMMARY ${label}`);
      expect(parts.kind, label).toBe(op.confirmKind);
      const wanted = new Set<string>(CONFIRM_KINDS[op.confirmKind!]);
      for (const name of ['when', 'place', 'pets', 'amount', 'money'] as const)
        if (wanted.has(name)) expect(parts[name], `${label} (${name})`).toBeTruthy();
        else expect(parts[name], `${label} (${name} does not apply)`).toBeNull();
      expect(summary.startsWith(parts.what), label).toBe(true);

      const e = t.expected;
      if (parts.when) {
        expect(summary, label).toContain(parts.when.text);
        expect(summary, label).toContain(parts.when.time);
        expect(summary, label).toContain(parts.when.endTime);
        if (e.start) {
          expect(parts.when.time, label).toBe(localTime(e.start));
          expect(summary, label).toContain(localTime(e.start));
          expect(summary, label).toContain(localDay(e.start));
        }
      }
      if (parts.place) {
        expect(summary, label).toContain(parts.place);
        if (e.place) expect(parts.place, label).toContain(e.place);
      }
      if (parts.pets) {
        expect(parts.pets.length, label).toBeGreaterThan(0);
        for (const pet of parts.pets) expect(summary, label).toContain(pet);
        if (e.pets) expect(parts.pets, label).toEqual(e.pets);
      }
      if (parts.amount) {
        expect(parts.amount.text, label).toMatch(/^R[\d,. ]+$/);
        expect(summary, label).toContain(parts.amount.text);
        if (e.amountCents !== undefined) expect(parts.amount.cents, label).toBe(e.amountCents);
      }
      if (parts.money) expect(summary.toLowerCase(), label).toContain(parts.money.toLowerCase());
      for (const text of e.texts ?? []) expect(summary, label).toContain(text);
    });
  }
});
