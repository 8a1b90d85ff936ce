// What happens to shop orders after they are made: an operator cancelling a paid order
// puts its money on the refund list, and `refund done` marks it returned; a `visit` add-on whose
// booking is cancelled is released by the worker's rule; a buy refused while the shop was closed
// can be sent again with the same Idempotency-Key once it opens.
import { moveOrder, releaseStrandedVisitOrders, setShopOpenAs } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { expireUnpaidOrders } from '@nogpets/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startTestServer, type TestServer } from './harness.js';
import {
  buyerWithBooking,
  courierOrder,
  DOORS,
  NOW,
  newBuyer,
  payOrderLink,
  type ShopCall,
  shopCaller,
  shopCounts,
  stockNow,
} from './shop-fixture.js';

const clock = fixedClock(NOW);
const OPERATOR = { userId: null, name: 'shop-lifecycle test' };

describe('shop orders after they are made', () => {
  let server: TestServer;
  let call: ShopCall;

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    call = shopCaller(server);
  });
  afterAll(() => server?.stop());

  // One door buys and the other reads: doubling it costs two more CLI processes (over 10 s here).
  it('cancelling a paid order returns its stock and puts its money on the refund list until refunded', async () => {
    const buyer = await newBuyer(server, 'thandi@example.com');
    const before = await stockNow(server);
    const bought = await call('http', 'buy', courierOrder([{ productId: 'cat-brush', qty: 1 }]), {
      key: buyer.key,
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    expect(await payOrderLink(server, bought.body.payUrl)).toBe(303);
    const orderId = bought.body.orderId as string;
    expect((await call('mcp', 'get_order', { orderId }, { key: buyer.key })).body.paymentStatus).toBe('PAID');

    // Delivered orders cannot be cancelled; a confirmed one can.
    const cancelled = await moveOrder(server.service.runtime.deps, orderId, 'CANCEL', OPERATOR, {
      note: 'out of brushes',
    });
    expect(cancelled).toMatchObject({ status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' });
    expect((await stockNow(server))['cat-brush']).toBe(before['cat-brush']);
    const got = await call('http', 'get_order', { orderId }, { key: buyer.key });
    expect(got.body.statusText).toMatch(/refund is on its way/);

    const [payment] = await server.db.sql<{ id: string; status: string }[]>`
      select id, status from payments where order_id = ${orderId}`;
    expect(payment!.status).toBe('REFUND_DUE');
    const list = await cli(server.db.url, ['refund', 'list']);
    expect(list.stdout).toContain(payment!.id);
    const done = await cli(server.db.url, ['refund', 'done', payment!.id, '--note', 'PF refund 991']);
    expect(done.status, done.stderr).toBe(0);
    expect((await call('http', 'get_order', { orderId }, { key: buyer.key })).body).toMatchObject({
      status: 'CANCELLED',
      paymentStatus: 'REFUNDED',
    });
    // A second cancel is refused and changes nothing.
    await expect(moveOrder(server.service.runtime.deps, orderId, 'CANCEL', OPERATOR)).rejects.toMatchObject({
      code: 'NOT_ACTIVE',
    });
    expect((await stockNow(server))['cat-brush']).toBe(before['cat-brush']);
  });

  it.each(DOORS)(
    'releases a cash visit add-on when its booking is cancelled: stock back, nothing owed, over %s',
    async (door) => {
      const person = await buyerWithBooking(server, `bongani.${door}@example.com`, '2026-11-25', 'CASH');
      const before = await stockNow(server);
      const counts = await shopCounts(server);
      const add = {
        items: [{ productId: 'dog-shampoo', qty: 1 }],
        shippingMethod: 'visit',
        bookingId: person.bookingId,
        paymentMethod: 'CASH',
        confirm: true,
        discountCode: 'WELCOME10',
      };
      const bought = await call(door, 'buy', add, { key: person.key });
      expect(bought.status, JSON.stringify(bought.body)).toBe(201);
      expect(bought.body).toMatchObject({
        status: 'CONFIRMED',
        paymentStatus: 'CASH_DUE',
        shippingMethod: 'visit',
      });
      const orderId = bought.body.orderId as string;

      // Nothing to release while the booking is live.
      expect(await releaseStrandedVisitOrders(server.service.runtime.deps)).not.toContain(orderId);
      const cancel = await server.post(
        `/v1/bookings/${person.bookingId}/cancel`,
        { confirm: true },
        { authorization: `Bearer ${person.ownerKey}` },
      );
      expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
      const deps = server.service.runtime.deps;
      // The worker's job and a second run at the same moment release it once.
      const [job, other] = await Promise.all([
        expireUnpaidOrders.run({ sql: deps.sql, now: () => clock.now(), deps }),
        releaseStrandedVisitOrders(deps),
      ]);
      expect((job.released as number) + other.filter((id) => id === orderId).length).toBe(1);
      expect((await call(door, 'get_order', { orderId }, { key: person.key })).body).toMatchObject({
        status: 'CANCELLED',
        paymentStatus: 'NONE',
      });
      expect((await stockNow(server))['dog-shampoo']).toBe(before['dog-shampoo']);
      expect((await shopCounts(server)).uses.WELCOME10).toBe(counts.uses.WELCOME10);
    },
  );

  it.each(DOORS)('refuses a visit add-on to an unpaid card booking (it may lapse), over %s', async (door) => {
    const person = await buyerWithBooking(server, `karin.${door}@example.com`, '2026-11-26', 'CASH');
    // The same person's second booking, by card and left unpaid.
    const owner = { authorization: `Bearer ${person.ownerKey}` };
    const body = {
      category: 'grooming',
      addressId: person.addressId,
      pets: [{ petId: person.petId, serviceIds: ['groom-dog-bath'] }],
    };
    const slots = await server.post(
      '/v1/availability',
      { ...body, from: '2026-11-27', to: '2026-12-03' },
      owner,
    );
    expect(slots.status, JSON.stringify(slots.body)).toBe(200);
    const slot = slots.body.days.find((d: { slots: unknown[] }) => d.slots.length).slots[0];
    const card = await server.post(
      '/v1/bookings',
      { ...body, start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD' },
      owner,
    );
    expect(card.status, JSON.stringify(card.body)).toBe(201);
    const addOn = {
      items: [{ productId: 'dog-shampoo', qty: 1 }],
      shippingMethod: 'visit',
      bookingId: card.body.bookingId,
    };
    const quote = await call(door, 'quote_order', addOn, { key: person.key });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.shippingError).toMatchObject({ code: 'BOOKING_NEEDED' });
    expect(quote.body.shippingError.message).toMatch(/pay this one first/);
    // Buying it is refused with the same words, and nothing is taken.
    const before = await shopCounts(server);
    const stock = await stockNow(server);
    const bought = await call(
      door,
      'buy',
      { ...addOn, paymentMethod: 'CASH', confirm: true },
      { key: person.key },
    );
    expect(bought.status, JSON.stringify(bought.body)).toBe(409);
    expect(bought.body.error.code).toBe('CANNOT_DELIVER');
    expect(bought.body.error.details.shippingError).toMatchObject({ code: 'BOOKING_NEEDED' });
    expect(bought.body.error.details.shippingError.message).toMatch(/pay this one first/);
    expect(await shopCounts(server)).toEqual(before);
    expect((await stockNow(server))['dog-shampoo']).toBe(stock['dog-shampoo']);
  });

  it.each(DOORS)(
    'lets a buy refused while the shop was closed be sent again with the same Idempotency-Key, over %s',
    async (door) => {
      const buyer = await newBuyer(server, `ayanda.${door}@example.com`);
      // Over MCP the key goes as `_meta.idempotencyKey`; each door has its own, so neither replays the other's.
      const idempotencyKey = `shop-off-retry-${door}`;
      const deps = server.service.runtime.deps;
      const order = courierOrder([{ productId: 'cat-wand', qty: 1 }]);
      await setShopOpenAs(deps, false, OPERATOR);
      try {
        const closed = await call(door, 'buy', order, { key: buyer.key, idempotencyKey });
        expect(closed.status).toBe(409);
        expect(closed.body.error.code).toBe('SHOP_OFF');
      } finally {
        await setShopOpenAs(deps, true, OPERATOR);
      }
      const counts = await shopCounts(server);
      const open = await call(door, 'buy', order, { key: buyer.key, idempotencyKey });
      expect(open.status, JSON.stringify(open.body)).toBe(201);
      const again = await call(door, 'buy', order, { key: buyer.key, idempotencyKey });
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      expect(again.body.orderId).toBe(open.body.orderId);
      // One order made by the two sends that succeeded.
      expect((await shopCounts(server)).orders).toBe(counts.orders + 1);
    },
  );
});
