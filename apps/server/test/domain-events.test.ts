// The domain events of shop orders, applications, staff invitations, payouts, prices and hours:
// each written in the transaction of its change through the real doors (HTTP, the operator's
// functions as the console and the CLI call them, the worker's rule), with its subject, business,
// person, actor and data; a refused call writes none.
import { hash } from '@node-rs/argon2';
import { consoleReviewer } from '@nogpets/operations';
import {
  approveApplication,
  createApiKey,
  expireOrders,
  moveOrder,
  rejectApplication,
  releaseStrandedVisitOrders,
} from '@nogpets/operations/testing';
import { type DomainEventRow, findOrCreateUser, listEvents, setPassword } from '@nogpets/store';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startTestServer, type TestServer } from './harness.js';
import { applicationForReview } from './review-fixture.js';
import {
  buyerWithBooking,
  courierOrder,
  NOW,
  newBuyer,
  payOrderLink,
  type ShopCall,
  shopCaller,
} from './shop-fixture.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const clock = fixedClock(NOW); // Monday 06:00 in Johannesburg
const BIZ = 'biz_boland_paws';
const DAY = 86_400_000;

describe('domain events of orders, applications, invitations, payouts, prices and hours', () => {
  let server: TestServer;
  let call: ShopCall;
  let operator: { name: string; userId: string | null };
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const deps = () => ({ sql: server.db.sql, clock, payments: { publicUrl: () => server.url } });

  /** The last event's number now: what a call writes comes after it. */
  const bookmark = async () =>
    (await server.db.sql<{ seq: number }[]>`select coalesce(max(seq), 0)::int as seq from domain_events`)[0]!
      .seq;
  const since = (seq: number): Promise<DomainEventRow[]> => listEvents(server.db.sql, { afterSeq: seq });
  /** What `action` wrote: its events, and that nothing else was written meanwhile. */
  async function written<T>(action: () => Promise<T>): Promise<{ result: T; events: DomainEventRow[] }> {
    const seq = await bookmark();
    const result = await action();
    return { result, events: await since(seq) };
  }
  async function writesNothing(action: () => Promise<unknown>): Promise<void> {
    const seq = await bookmark();
    await action().catch(() => undefined);
    expect((await since(seq)).map((e) => e.type)).toEqual([]);
  }
  const userIdOf = async (email: string) =>
    (await server.db.sql<{ id: string }[]>`select id from users where lower(email) = lower(${email})`)[0]!.id;
  const orderBusiness = async (orderId: string) =>
    (await server.db.sql<{ b: string }[]>`select business_id as b from orders where id = ${orderId}`)[0]!.b;

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    call = shopCaller(server);
    const ops = await findOrCreateUser(server.db.sql, 'ops@nogpets.example');
    await setPassword(server.db.sql, ops.id, await hash('a long enough password'));
    operator = consoleReviewer(ops);
  }, 120_000);
  afterAll(() => server?.stop());

  it('a cash add-on confirmed at purchase is order.paid by the person; a card order waits for its payment', async () => {
    const person = await buyerWithBooking(server, 'cash.buyer@example.com', '2026-11-25', 'CASH');
    const add = {
      items: [{ productId: 'dog-shampoo', qty: 1 }],
      shippingMethod: 'visit',
      bookingId: person.bookingId,
      paymentMethod: 'CASH',
    };
    // Without the person's yes: refused, nothing written.
    await writesNothing(async () => {
      const refused = await call('http', 'buy', add, { key: person.key });
      expect(refused.status).toBe(409);
    });
    const { result: bought, events } = await written(() =>
      call('http', 'buy', { ...add, confirm: true }, { key: person.key }),
    );
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const orderId = bought.body.orderId as string;
    expect(events.map((e) => e.type)).toEqual(['order.paid']);
    expect(events[0]).toMatchObject({
      subjectKind: 'order',
      subjectId: orderId,
      businessId: await orderBusiness(orderId),
      personId: person.userId,
      actor: { kind: 'person', userId: person.userId },
      operation: 'buy',
    });
    expect(events[0]!.data.order).toMatchObject({
      orderId,
      status: 'CONFIRMED',
      paymentMethod: 'CASH',
      paymentStatus: 'CASH_DUE',
      shippingMethod: 'visit',
      bookingId: person.bookingId,
      total: { amount: bought.body.totalCents, currency: 'ZAR' },
    });

    // A card order to pay is not paid yet: buy writes nothing (its payment is told when it settles).
    const buyer = await newBuyer(server, 'card.waiting@example.com');
    await writesNothing(async () => {
      const card = await call('http', 'buy', courierOrder([{ productId: 'cat-brush', qty: 1 }]), {
        key: buyer.key,
      });
      expect(card.status).toBe(201);
      expect(card.body.status).toBe('PENDING_PAYMENT');
    });
  });

  it('the operator ships and delivers an order: order.shipped with its tracking, order.delivered; refusals write none', async () => {
    const buyer = await newBuyer(server, 'shipped@example.com');
    const bought = await call(
      'http',
      'buy',
      courierOrder([{ productId: 'chew-rope', variantId: 'chew-rope-m', qty: 1 }]),
      {
        key: buyer.key,
      },
    );
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    expect(await payOrderLink(server, bought.body.payUrl)).toBe(303);
    const orderId = bought.body.orderId as string;
    const rt = server.service.runtime.deps;
    // Delivering an order not shipped is refused.
    await writesNothing(async () => {
      await expect(moveOrder(rt, orderId, 'DELIVER', operator)).rejects.toMatchObject({ code: 'NOT_ACTIVE' });
    });
    // Packing is the operator's own step: nobody is told.
    await writesNothing(() => moveOrder(rt, orderId, 'PACK', operator));
    const shipped = await written(() =>
      moveOrder(rt, orderId, 'SHIP', operator, { tracking: 'TCG 123 456' }),
    );
    expect(shipped.events.map((e) => e.type)).toEqual(['order.shipped']);
    expect(shipped.events[0]).toMatchObject({
      subjectId: orderId,
      businessId: await orderBusiness(orderId),
      personId: buyer.userId,
      actor: { kind: 'operator', userId: operator.userId },
      operation: 'moveOrder',
    });
    expect(shipped.events[0]!.data.order).toMatchObject({
      status: 'SHIPPED',
      tracking: 'TCG 123 456',
      paymentStatus: 'PAID',
    });
    const delivered = await written(() => moveOrder(rt, orderId, 'DELIVER', operator));
    expect(delivered.events.map((e) => e.type)).toEqual(['order.delivered']);
    expect(delivered.events[0]).toMatchObject({
      subjectId: orderId,
      personId: buyer.userId,
      actor: { kind: 'operator' },
    });
    expect(delivered.events[0]!.data.order).toMatchObject({ status: 'DELIVERED' });
    // A delivered order cannot be cancelled.
    await writesNothing(async () => {
      await expect(moveOrder(rt, orderId, 'CANCEL', operator)).rejects.toMatchObject({ code: 'NOT_ACTIVE' });
    });
  });

  it('order.cancelled says who and the refund: the operator (paid: the total; unpaid: none) and the system for a stranded add-on', async () => {
    const rt = server.service.runtime.deps;
    const buyer = await newBuyer(server, 'cancelled@example.com');
    const paid = await call('http', 'buy', courierOrder([{ productId: 'cat-brush', qty: 1 }]), {
      key: buyer.key,
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(await payOrderLink(server, paid.body.payUrl)).toBe(303);
    const cancelled = await written(() =>
      moveOrder(rt, paid.body.orderId, 'CANCEL', operator, { note: 'out of brushes' }),
    );
    expect(cancelled.events.map((e) => e.type)).toEqual(['order.cancelled']);
    expect(cancelled.events[0]).toMatchObject({
      subjectId: paid.body.orderId,
      personId: buyer.userId,
      actor: { kind: 'operator', userId: operator.userId },
    });
    expect(cancelled.events[0]!.data).toMatchObject({
      by: 'operator',
      refund: { amount: paid.body.totalCents, currency: 'ZAR' },
      order: { status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' },
    });
    // The refund done is bookkeeping: no event.
    await writesNothing(() => moveOrder(rt, paid.body.orderId, 'REFUNDED', operator));

    const unpaid = await call('http', 'buy', courierOrder([{ productId: 'cat-brush', qty: 1 }]), {
      key: buyer.key,
    });
    expect(unpaid.status).toBe(201);
    const closed = await written(() => moveOrder(rt, unpaid.body.orderId, 'CANCEL', operator));
    expect(closed.events.map((e) => e.type)).toEqual(['order.cancelled']);
    expect(closed.events[0]!.data).toMatchObject({
      by: 'operator',
      refund: null,
      order: { paymentStatus: 'NONE' },
    });

    // A cash add-on whose booking is cancelled: the worker's rule cancels it, by the system, nothing owed.
    const person = await buyerWithBooking(server, 'stranded@example.com', '2026-11-26', 'CASH');
    const add = await call(
      'http',
      'buy',
      {
        items: [{ productId: 'dog-shampoo', qty: 1 }],
        shippingMethod: 'visit',
        bookingId: person.bookingId,
        paymentMethod: 'CASH',
        confirm: true,
      },
      { key: person.key },
    );
    expect(add.status, JSON.stringify(add.body)).toBe(201);
    const cancel = await server.post(
      `/v1/bookings/${person.bookingId}/cancel`,
      { confirm: true },
      as(person.ownerKey),
    );
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const released = await written(() => releaseStrandedVisitOrders(rt));
    expect(released.result).toContain(add.body.orderId);
    const mine = released.events.filter((e) => e.subjectId === add.body.orderId);
    expect(mine.map((e) => e.type)).toEqual(['order.cancelled']);
    expect(mine[0]).toMatchObject({
      personId: person.userId,
      actor: { kind: 'system', userId: null },
      operation: 'expire-unpaid-orders',
    });
    expect(mine[0]!.data).toMatchObject({ by: 'system', refund: null, order: { status: 'CANCELLED' } });
  });

  it('an unpaid card order that closes at its time (EXPIRED) writes no event: there is no type for it', async () => {
    const buyer = await newBuyer(server, 'expiring@example.com');
    const bought = await call('http', 'buy', courierOrder([{ productId: 'cat-brush', qty: 1 }]), {
      key: buyer.key,
    });
    expect(bought.status).toBe(201);
    const later = fixedClock(new Date(clock.now().getTime() + 2 * DAY));
    const expired = await written(() => expireOrders({ sql: server.db.sql, clock: later }));
    expect(expired.result).toContain(bought.body.orderId);
    expect(expired.events).toEqual([]);
  });

  describe('applications, invitations, prices, hours and payouts', () => {
    const FOUNDER = 'founder@events.example';
    const VERIFIED = 'verified.crew@events.example';
    const UNKNOWN = 'new.manager@events.example';
    let businessId: string;
    let applicationId: string;

    it('application.submitted by the applicant, with its facts; a submit without the yes writes none', async () => {
      // The crew member has a verified account; the manager none yet.
      const crew = await findOrCreateUser(server.db.sql, VERIFIED);
      await server.db.sql`update users set email_verified = true where id = ${crew.id}`;
      const app = await applicationForReview(server, FOUNDER, {
        name: 'Events Grooming',
        staff: [VERIFIED, UNKNOWN],
        submit: false,
      });
      applicationId = app.applicationId;
      const submit = (body: Record<string, unknown>) =>
        server.post(`/v1/business/applications/${applicationId}/submit`, body, { authorization: app.auth });
      await writesNothing(async () => expect((await submit({})).status).toBe(409));
      const { result, events } = await written(() => submit({ confirm: true }));
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      expect(events.map((e) => e.type)).toEqual(['application.submitted']);
      const founder = await userIdOf(FOUNDER);
      expect(events[0]).toMatchObject({
        subjectKind: 'application',
        subjectId: applicationId,
        businessId: null,
        personId: founder,
        actor: { kind: 'person', userId: founder },
        operation: 'submitBusinessForReview',
        data: {
          applicationId,
          businessName: 'Events Grooming',
          country: 'ZA',
          category: ['grooming', 'walking'],
        },
      });
      // Sent twice: refused, nothing more.
      await writesNothing(async () => expect((await submit({ confirm: true })).status).toBe(409));
    });

    it('approval writes application.approved, then invitation.sent for each person mailed, by the operator', async () => {
      const { result, events } = await written(() => approveApplication(deps(), applicationId, operator));
      businessId = result.businessId;
      expect(events.map((e) => e.type)).toEqual([
        'application.approved',
        'invitation.sent',
        'invitation.sent',
      ]);
      for (const e of events)
        expect(e).toMatchObject({
          actor: { kind: 'operator', userId: operator.userId },
          operation: 'approveApplication',
          businessId,
        });
      expect(events[0]).toMatchObject({
        subjectId: applicationId,
        personId: await userIdOf(FOUNDER),
        data: { applicationId, businessId, businessName: 'Events Grooming', country: 'ZA', note: null },
      });
      const invitations = await server.db.sql<{ id: string; email: string; role: string }[]>`
        select id, email, role from business_invitations where business_id = ${businessId}`;
      const sent = events
        .slice(1)
        .map((e) => ({ subjectId: e.subjectId, personId: e.personId, data: e.data as Json }));
      expect(sent.sort((a, b) => String(a.data.email).localeCompare(String(b.data.email)))).toEqual(
        [
          { email: UNKNOWN, role: 'manager', personId: null },
          { email: VERIFIED, role: 'crew', personId: await userIdOf(VERIFIED) },
        ].map(({ email, role, personId }) => {
          const id = invitations.find((v) => v.email === email)!.id;
          return {
            subjectId: id,
            personId,
            data: {
              invitationId: id,
              businessName: 'Events Grooming',
              email,
              role,
              expiresAt: new Date(clock.now().getTime() + 14 * DAY).toISOString(),
            },
          };
        }),
      );
      // Approved already: refused, nothing written.
      await writesNothing(async () => {
        await expect(approveApplication(deps(), applicationId, operator)).rejects.toMatchObject({
          code: 'NOT_ACTIVE',
        });
      });
    });

    it('application.rejected with the note; a rejection without a note writes none', async () => {
      const app = await applicationForReview(server, 'rejected@events.example', { name: 'Events Rejected' });
      await writesNothing(async () => {
        await expect(rejectApplication(deps(), app.applicationId, operator, '  ')).rejects.toMatchObject({
          code: 'BAD_REQUEST',
        });
      });
      const { events } = await written(() =>
        rejectApplication(deps(), app.applicationId, operator, 'No proof of the van.'),
      );
      expect(events.map((e) => e.type)).toEqual(['application.rejected']);
      expect(events[0]).toMatchObject({
        subjectId: app.applicationId,
        businessId: null,
        personId: await userIdOf('rejected@events.example'),
        actor: { kind: 'operator', userId: operator.userId },
        operation: 'rejectApplication',
        data: {
          applicationId: app.applicationId,
          businessName: 'Events Rejected',
          note: 'No proof of the van.',
        },
      });
    });

    it('invite_staff_member writes invitation.sent by the owner (staff); accept_invitation writes invitation.accepted', async () => {
      const { key: ownerKey, userId: owner } = await createKey(FOUNDER);
      const invite = (body: Record<string, unknown>) =>
        server.post('/v1/business/staff', { businessId, role: 'crew', ...body }, as(ownerKey));
      await writesNothing(async () =>
        expect((await invite({ email: 'joiner@events.example' })).status).toBe(409),
      );
      // A phone-only invitation is not sent (nobody is mailed): no event.
      await writesNothing(async () =>
        expect((await invite({ phone: '+27 82 555 0199', confirm: true })).status).toBe(201),
      );
      const { result, events } = await written(() =>
        invite({ email: 'joiner@events.example', confirm: true }),
      );
      expect(result.status, JSON.stringify(result.body)).toBe(201);
      const invitationId = result.body.invitation.invitationId as string;
      expect(events.map((e) => e.type)).toEqual(['invitation.sent']);
      expect(events[0]).toMatchObject({
        subjectKind: 'invitation',
        subjectId: invitationId,
        businessId,
        personId: null,
        actor: { kind: 'staff', userId: owner },
        operation: 'inviteStaffMember',
        data: { invitationId, businessName: 'Events Grooming', email: 'joiner@events.example', role: 'crew' },
      });

      // The verified crew member accepts theirs from approval.
      const { key: crewKey, userId: crew } = await createKey(VERIFIED);
      const [v] = await server.db.sql<{ id: string }[]>`
        select id from business_invitations where business_id = ${businessId} and email = ${VERIFIED}`;
      const accept = (body: Record<string, unknown>) =>
        server.post(`/v1/business/invitations/${v!.id}/accept`, body, as(crewKey));
      await writesNothing(async () => expect((await accept({})).status).toBe(409));
      const accepted = await written(() => accept({ confirm: true }));
      expect(accepted.result.status, JSON.stringify(accepted.result.body)).toBe(200);
      expect(accepted.events.map((e) => e.type)).toEqual(['invitation.accepted']);
      expect(accepted.events[0]).toMatchObject({
        subjectId: v!.id,
        businessId,
        personId: crew,
        actor: { kind: 'person', userId: crew },
        operation: 'acceptInvitation',
        data: { invitationId: v!.id, businessName: 'Events Grooming', role: 'crew', userId: crew },
      });
      // Accepted already: refused, nothing more.
      await writesNothing(async () => expect((await accept({ confirm: true })).status).toBe(409));
    });

    it('update_prices writes prices.changed with the services and the change in words; no change or no yes writes none', async () => {
      const { key, userId } = await createKey('manager@partner.example');
      const update = (body: Record<string, unknown>) =>
        server.post('/v1/business/prices', { businessId: BIZ, ...body }, as(key));
      const changes = [{ serviceId: 'bp-groom-bath', priceCents: 33500 }];
      await writesNothing(async () => expect((await update({ changes })).status).toBe(409));
      const { result, events } = await written(() => update({ changes, confirm: true }));
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      expect(events.map((e) => e.type)).toEqual(['prices.changed']);
      expect(events[0]).toMatchObject({
        subjectKind: 'business',
        subjectId: BIZ,
        businessId: BIZ,
        personId: null,
        actor: { kind: 'staff', userId },
        operation: 'updatePrices',
        data: { services: [{ serviceId: 'bp-groom-bath', name: 'Bath & brush' }] },
      });
      expect(events[0]!.data.summary).toBe('Bath & brush: R320 → R335');
      // The same prices again: nothing changed, nothing written.
      await writesNothing(async () => expect((await update({ changes, confirm: true })).status).toBe(200));
    });

    it('hours.changed for hours and time off, listing the bookings flagged to move', async () => {
      const { key } = await createKey('manager@partner.example');
      const post = (path: string, body: Record<string, unknown>) =>
        server.post(path, { businessId: BIZ, ...body }, as(key));
      // A live booking ahead: time off over its day on its resource flags it.
      const [b] = await server.db.sql<{ id: string; resourceId: string; day: string }[]>`
        select id, resource_id as "resourceId", to_char(starts_at at time zone 'Africa/Johannesburg', 'YYYY-MM-DD') as day
        from bookings where business_id = ${BIZ} and status in ('PENDING', 'ACCEPTED') and starts_at > ${clock.now()}
        order by starts_at limit 1`;
      const off = { resourceId: b!.resourceId, start: b!.day, end: b!.day, reason: 'van service' };
      await writesNothing(async () => expect((await post('/v1/business/time-off', off)).status).toBe(409));
      const added = await written(() => post('/v1/business/time-off', { ...off, confirm: true }));
      expect(added.result.status, JSON.stringify(added.result.body)).toBe(201);
      const flagged = added.result.body.toMove.map((j: Json) => j.bookingId);
      expect(flagged).toContain(b!.id);
      expect(added.events.map((e) => e.type)).toEqual(['hours.changed']);
      expect(added.events[0]).toMatchObject({
        subjectId: BIZ,
        businessId: BIZ,
        personId: null,
        actor: { kind: 'staff' },
        operation: 'addTimeOff',
        data: { resourceIds: [b!.resourceId], bookingsToMove: flagged },
      });
      expect(added.events[0]!.data.summary).toMatch(/is off .*: van service\.$/);

      const removed = await written(() =>
        post(`/v1/business/time-off/${added.result.body.timeOff.timeOffId}/remove`, { confirm: true }),
      );
      expect(removed.result.status, JSON.stringify(removed.result.body)).toBe(200);
      expect(removed.events.map((e) => e.type)).toEqual(['hours.changed']);
      expect(removed.events[0]).toMatchObject({
        operation: 'removeTimeOff',
        data: { resourceIds: [b!.resourceId], bookingsToMove: [] },
      });
      expect(removed.events[0]!.data.summary).toMatch(/^Removed .*time off/);

      // Hours of the new business (no bookings): applied at once, nothing to move.
      const { key: ownerKey } = await createKey(FOUNDER);
      const week = { mon: [{ start: '09:00', end: '15:00' }] };
      const set = await written(() => server.post('/v1/business/hours', { businessId, week }, as(ownerKey)));
      expect(set.result.status, JSON.stringify(set.result.body)).toBe(200);
      expect(set.events.map((e) => e.type)).toEqual(['hours.changed']);
      expect(set.events[0]).toMatchObject({
        businessId,
        operation: 'setWorkingHours',
        data: { bookingsToMove: [] },
      });
      expect(set.events[0]!.data.resourceIds).toHaveLength(2);
      expect(set.events[0]!.data.summary).toMatch(/^Set the hours of every resource of Events Grooming to /);
      // The same week again changes nothing anyone would be told about: answered, no event.
      await writesNothing(async () =>
        expect((await server.post('/v1/business/hours', { businessId, week }, as(ownerKey))).status).toBe(
          200,
        ),
      );
      // A week that is not valid: refused, nothing written.
      await writesNothing(async () =>
        expect(
          (
            await server.post(
              '/v1/business/hours',
              { businessId, week: { mon: [{ start: '15:00', end: '09:00' }] } },
              as(ownerKey),
            )
          ).status,
        ).toBe(400),
      );
    });

    it('payout.paid when the operator marks a payout paid (`pnpm cli payout paid`), once', async () => {
      const made = await cli(server.db.url, ['payout', 'create', BIZ, '--to', '2026-11-22']);
      expect(made.status, made.stderr).toBe(0);
      const payoutId = made.lastLine.split('\t')[0]!;
      const [p] = await server.db.sql<{ amount: number; first: string | null; last: string | null }[]>`
        select amount_cents as amount, first_paid_date::text as first, last_paid_date::text as last from payouts where id = ${payoutId}`;
      const paid = await written(() => cli(server.db.url, ['payout', 'paid', payoutId, '--note', 'EFT #42']));
      expect(paid.result.status, paid.result.stderr).toBe(0);
      expect(paid.events.map((e) => e.type)).toEqual(['payout.paid']);
      expect(paid.events[0]).toMatchObject({
        subjectKind: 'payout',
        subjectId: payoutId,
        businessId: BIZ,
        personId: null,
        actor: { kind: 'operator', userId: null },
        operation: 'markPayoutDone',
        data: {
          payoutId,
          amount: { amount: p!.amount, currency: 'ZAR' },
          periodStart: p!.first,
          periodEnd: p!.last,
          reference: 'EFT #42',
        },
      });
      await writesNothing(async () => {
        const again = await cli(server.db.url, ['payout', 'paid', payoutId, '--note', 'EFT #43']);
        expect(again.status).not.toBe(0);
      });
    });
  });

  async function createKey(email: string): Promise<{ key: string; userId: string }> {
    return createApiKey(server.db.sql, { email, scopes: ['business:manage'] });
  }
});
