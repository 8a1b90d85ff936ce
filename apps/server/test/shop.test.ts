// The shop over HTTP and MCP alike, on the demo catalogue: browse_shop's filters and
// bounds, quote_order's lines, problems, discount codes and delivery, buy's card and cash orders
// and every refusal (none of which changes stock, orders or code uses), list_orders and get_order,
// the shop closed, and an unpaid order closing after 24 hours.
import { ORDER_PAYMENT_GRACE_MS } from '@nogpets/operations';
import { createApiKey, expireOrders } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, notifySandbox, signSandboxNotice, startTestServer, type TestServer } from './harness.js';
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

type Json = any;

const HOUR = 3_600_000;
const clock = fixedClock(NOW);

describe('the shop over HTTP and MCP', () => {
  let server: TestServer;
  let call: ShopCall;
  let buyer: { key: string; userId: string };
  let other: { key: string; userId: string };

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    call = shopCaller(server);
    buyer = await newBuyer(server, 'lerato@example.com');
    other = await newBuyer(server, 'pieter@example.com');
  });
  afterAll(() => server?.stop());

  describe('browse_shop', () => {
    it.each(DOORS)(
      'filters by each category and pet type, and without filters shows all 16 (%s)',
      async (door) => {
        const all = await call(door, 'browse_shop', {});
        expect(all.status, JSON.stringify(all.body)).toBe(200);
        expect(all.body.currency).toBe('ZAR');
        expect(all.body.products).toHaveLength(16);
        const counts = { FOOD: 3, TOYS: 4, BEDS: 2, ACCESSORIES: 4, CARE: 3 };
        for (const [category, n] of Object.entries(counts)) {
          const res = await call(door, 'browse_shop', { category });
          expect(res.status).toBe(200);
          expect(res.body.products).toHaveLength(n);
          for (const p of res.body.products) expect(p.category).toBe(category);
        }
        const cats = await call(door, 'browse_shop', { petType: 'CAT' });
        expect(cats.body.products.map((p: Json) => p.id).sort()).toEqual(
          ['cat-brush', 'cat-cave', 'cat-food', 'cat-wand', 'lick-mat'].sort(),
        );
        const dogs = await call(door, 'browse_shop', { petType: 'DOG' });
        expect(dogs.body.products).toHaveLength(12);
        for (const p of dogs.body.products) expect(p.petTypes).toContain('DOG');
        // Both filters at once: dog beds only.
        const both = await call(door, 'browse_shop', { category: 'BEDS', petType: 'DOG' });
        expect(both.body.products.map((p: Json) => p.id)).toEqual(['dog-bed']);
      },
    );

    it.each(DOORS)('forgives a spelling mistake and ranks the best match first (%s)', async (door) => {
      const res = await call(door, 'browse_shop', { q: 'shampo' });
      expect(res.status).toBe(200);
      expect(res.body.products[0]?.id).toBe('dog-shampoo');
      const harness = await call(door, 'browse_shop', { q: 'harnes' });
      expect(harness.body.products[0]?.id).toBe('harness');
      // A word from the tags, inside a category.
      const kibble = await call(door, 'browse_shop', { q: 'kibble', category: 'FOOD' });
      expect(kibble.body.products.map((p: Json) => p.id)).toEqual(['dry-dog-food']);
      const none = await call(door, 'browse_shop', { q: 'zzqqxxvvkk' });
      expect(none.status).toBe(200);
      expect(none.body.products).toEqual([]);
      expect(none.body.next).toMatch(/Nothing matches/);
    });

    it.each(DOORS)(
      'takes q of 100 characters, refuses 101 and an unknown category or pet type (%s)',
      async (door) => {
        expect((await call(door, 'browse_shop', { q: 'x'.repeat(100) })).status).toBe(200);
        for (const bad of [{ q: 'x'.repeat(101) }, { category: 'TREATS' }, { petType: 'HORSE' }, { q: '' }]) {
          const res = await call(door, 'browse_shop', bad);
          expect(res.status, JSON.stringify(bad)).toBe(400);
          expect(res.body.error.code).toBe('BAD_REQUEST');
        }
      },
    );

    it.each(DOORS)(
      'shows how many are left, the few-left and sold-out items, and the delivery fees (%s)',
      async (door) => {
        const res = await call(door, 'browse_shop', {});
        const product = (id: string) => res.body.products.find((p: Json) => p.id === id);
        expect(product('ball-launcher')).toMatchObject({
          inStock: false,
          variants: [{ id: 'ball-launcher', stock: 0, inStock: false }],
        });
        expect(product('dry-dog-food').variants).toEqual([
          expect.objectContaining({ id: 'dry-dog-food-2kg', priceCents: 28900, stock: 24, inStock: true }),
          expect.objectContaining({ id: 'dry-dog-food-8kg', priceCents: 89900, stock: 2, inStock: true }),
        ]);
        expect(product('dry-dog-food').fromPrice).toMatch(/^R\s?289/);
        expect(product('chew-rope').variants.map((v: Json) => [v.id, v.stock])).toEqual([
          ['chew-rope-s', 35],
          ['chew-rope-m', 20],
          ['chew-rope-l', 1],
        ]);
        const [courier, local, visit] = res.body.delivery;
        expect(courier).toMatchObject({ method: 'courier', freeFromCents: 75000 });
        expect(courier.fees).toHaveLength(9);
        expect(courier.fees).toContainEqual(
          expect.objectContaining({ province: 'WC', provinceName: 'Western Cape', feeCents: 8500 }),
        );
        expect(courier.fees).toContainEqual(expect.objectContaining({ province: 'GP', feeCents: 9900 }));
        expect(local).toMatchObject({ method: 'local', label: 'NogPets van', freeFromCents: 40000 });
        expect(local.fees.map((f: Json) => [f.postalCode, f.feeCents])).toEqual([
          ['7600', 3500],
          ['7681', 5500],
          ['7690', 8500],
        ]);
        expect(visit).toMatchObject({ method: 'visit', fees: [{ feeCents: 0 }], freeFromCents: null });
      },
    );
  });

  describe('quote_order', () => {
    const quote = (door: (typeof DOORS)[number], body: Record<string, unknown>, key?: string) =>
      call(door, 'quote_order', body, { key });
    const basket = [
      { productId: 'dental-treats', qty: 2 },
      { productId: 'chew-rope', variantId: 'chew-rope-m', qty: 1 },
    ];

    it.each(DOORS)('prices the lines and adds them up with the courier fee (%s)', async (door) => {
      const res = await quote(door, { items: basket, shippingMethod: 'courier', province: 'WC' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.lines).toEqual([
        expect.objectContaining({ variantId: 'dental-treats', qty: 2, unitCents: 12900, totalCents: 25800 }),
        expect.objectContaining({ variantId: 'chew-rope-m', qty: 1, unitCents: 10900, totalCents: 10900 }),
      ]);
      expect(res.body).toMatchObject({
        subtotalCents: 36700,
        discountCents: 0,
        deliveryFeeCents: 8500,
        totalCents: 45200,
        currency: 'ZAR',
        problems: [],
        discountError: null,
        shippingError: null,
        canBuy: true,
      });
      // Nothing was taken by quoting.
      expect((await stockNow(server))['dental-treats']).toBe(40);
    });

    it.each(DOORS)('reports each item problem, prices only the rest, and cannot buy (%s)', async (door) => {
      const res = await quote(door, {
        items: [
          { productId: 'ball-launcher', qty: 1 },
          { productId: 'dry-dog-food', variantId: 'dry-dog-food-8kg', qty: 3 },
          { productId: 'no-such-thing', qty: 1 },
          { productId: 'dog-bed', variantId: 'dog-bed-xl', qty: 1 },
          { productId: 'dog-bed', qty: 1 },
          { productId: 'leash', qty: 1 },
          { productId: 'leash', qty: 2 },
        ],
        shippingMethod: 'courier',
        province: 'GP',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.problems.map((p: Json) => [p.index, p.code, p.available])).toEqual([
        [0, 'SOLD_OUT', expect.anything()],
        [1, 'NOT_ENOUGH_STOCK', 2],
        [2, 'UNKNOWN_PRODUCT', null],
        [3, 'UNKNOWN_VARIANT', null],
        [4, 'VARIANT_REQUIRED', null],
        [6, 'DUPLICATE_ITEM', expect.any(Number)],
      ]);
      for (const p of res.body.problems) expect(p.message.length).toBeGreaterThan(10);
      expect(res.body.lines.map((l: Json) => l.variantId)).toEqual(['leash']);
      expect(res.body).toMatchObject({ subtotalCents: 19900, deliveryFeeCents: 9900, totalCents: 29800 });
      expect(res.body.canBuy).toBe(false);
    });

    // Subtotals: basket 36700; one pack of treats 12900; a small bed and treats 57800.
    const discounts: [string, Json[], string, Json][] = [
      [
        'WELCOME10 (percent)',
        basket,
        'WELCOME10',
        { discountCode: 'WELCOME10', discountCents: 3670, totalCents: 36700 - 3670 + 8500 },
      ],
      ['lower case', basket, 'welcome10', { discountCode: 'WELCOME10', discountCents: 3670 }],
      [
        'SAVE50, minimum spend met',
        basket,
        'SAVE50',
        { discountCode: 'SAVE50', discountCents: 5000, totalCents: 36700 - 5000 + 8500 },
      ],
      [
        'TREATS15 over R500',
        [
          { productId: 'dog-bed', variantId: 'dog-bed-s', qty: 1 },
          { productId: 'dental-treats', qty: 1 },
        ],
        'TREATS15',
        { subtotalCents: 57800, discountCents: 8670, totalCents: 57800 - 8670 + 8500 },
      ],
      [
        'SAVE50, minimum spend not met',
        [{ productId: 'dental-treats', qty: 1 }],
        'SAVE50',
        { discountCents: 0, discountError: { code: 'MIN_SPEND', minSpendCents: 30000 } },
      ],
      ['WINTER25 ended', basket, 'WINTER25', { discountCents: 0, discountError: { code: 'EXPIRED' } }],
      ['LAUNCH100 used up', basket, 'LAUNCH100', { discountCents: 0, discountError: { code: 'USED_UP' } }],
      [
        'SUMMER27 not begun',
        basket,
        'SUMMER27',
        { discountCents: 0, discountError: { code: 'NOT_STARTED' } },
      ],
      ['an unknown code', basket, 'FREEBIES', { discountCents: 0, discountError: { code: 'UNKNOWN_CODE' } }],
    ];
    it.each(DOORS.flatMap((door) => discounts.map((d) => [door, ...d] as const)))(
      '%s: %s',
      async (door, _name, items, discountCode, expected) => {
        const res = await quote(door, { items, shippingMethod: 'courier', province: 'WC', discountCode });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject(expected);
        expect(res.body.canBuy).toBe(!expected.discountError);
        if (!expected.discountError) expect(res.body.discountError).toBeNull();
        else expect(res.body.discountCode).toBeNull();
      },
    );

    it.each(DOORS)(
      'prices courier, local and visit delivery, and says why one cannot go (%s)',
      async (door) => {
        const items = [{ productId: 'dental-treats', qty: 1 }];
        const cases: [Record<string, unknown>, number | null, string | null][] = [
          [{ shippingMethod: 'courier', province: 'GP' }, 9900, null],
          [{ shippingMethod: 'courier', province: 'KZN' }, 11000, null],
          // The province from the postal code: 7600 is Stellenbosch, Western Cape.
          [{ shippingMethod: 'courier', postalCode: '7600' }, 8500, null],
          [{ shippingMethod: 'courier', postalCode: '2196' }, 9900, null],
          [{ shippingMethod: 'courier' }, null, 'PROVINCE_NEEDED'],
          [{ shippingMethod: 'courier', postalCode: '10115' }, null, 'NOT_IN_COUNTRY'],
          [{ shippingMethod: 'local', postalCode: '7600' }, 3500, null],
          [{ shippingMethod: 'local', postalCode: '7690' }, 8500, null],
          [{ shippingMethod: 'local', postalCode: '2000' }, null, 'NOT_LOCAL'],
          [{ shippingMethod: 'local' }, null, 'POSTAL_CODE_NEEDED'],
          [{ shippingMethod: 'visit' }, null, 'SIGN_IN_NEEDED'],
          [{ shippingMethod: 'visit', bookingId: 'bkg_whatever' }, null, 'SIGN_IN_NEEDED'],
        ];
        for (const [delivery, fee, error] of cases) {
          const res = await quote(door, { items, ...delivery });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect(
            [res.body.deliveryFeeCents, res.body.shippingError?.code ?? null],
            JSON.stringify(delivery),
          ).toEqual([fee, error]);
          // The total leaves out a fee it cannot know.
          expect(res.body.totalCents).toBe(12900 + (fee ?? 0));
          expect(res.body.canBuy).toBe(error === null);
          if (error) expect(res.body.shippingError.message.length).toBeGreaterThan(10);
        }
      },
    );

    it.each(DOORS)(
      'makes delivery free from its threshold, counted after the discount (%s)',
      async (door) => {
        const bed = [{ productId: 'dog-bed', variantId: 'dog-bed-s', qty: 1 }]; // 44900
        const food = [{ productId: 'dry-dog-food', variantId: 'dry-dog-food-8kg', qty: 1 }]; // 89900
        const local = { shippingMethod: 'local', postalCode: '7600' };
        expect((await quote(door, { items: bed, ...local })).body).toMatchObject({
          deliveryFeeCents: 0,
          totalCents: 44900,
        });
        // 10% off still leaves 40410, over the van's R400.
        expect((await quote(door, { items: bed, ...local, discountCode: 'WELCOME10' })).body).toMatchObject({
          discountCents: 4490,
          deliveryFeeCents: 0,
          totalCents: 40410,
        });
        // R50 off leaves 39900, under it: the van's fee is due again.
        expect((await quote(door, { items: bed, ...local, discountCode: 'SAVE50' })).body).toMatchObject({
          discountCents: 5000,
          deliveryFeeCents: 3500,
          totalCents: 39900 + 3500,
        });
        expect(
          (await quote(door, { items: bed, shippingMethod: 'courier', province: 'WC' })).body
            .deliveryFeeCents,
        ).toBe(8500);
        expect(
          (await quote(door, { items: food, shippingMethod: 'courier', province: 'LP' })).body,
        ).toMatchObject({
          deliveryFeeCents: 0,
          totalCents: 89900,
        });
      },
    );

    it('rides free with the person’s own booking, not with someone else’s (HTTP and MCP)', async () => {
      const mine = await buyerWithBooking(server, 'naledi@example.com', '2026-11-25', 'CASH');
      const theirs = await buyerWithBooking(server, 'johan@example.com', '2026-11-25', 'CARD');
      const items = [{ productId: 'dental-treats', qty: 1 }];
      for (const door of DOORS) {
        const own = await quote(
          door,
          { items, shippingMethod: 'visit', bookingId: mine.bookingId },
          mine.key,
        );
        expect(own.status, JSON.stringify(own.body)).toBe(200);
        expect(own.body).toMatchObject({
          deliveryFeeCents: 0,
          totalCents: 12900,
          shippingError: null,
          canBuy: true,
        });
        expect(own.body.delivery).toMatch(/^With your next booking: /);
        const foreign = await quote(
          door,
          { items, shippingMethod: 'visit', bookingId: theirs.bookingId },
          mine.key,
        );
        expect(foreign.body.shippingError.code).toBe('BOOKING_NEEDED');
        expect(foreign.body.canBuy).toBe(false);
        const none = await quote(door, { items, shippingMethod: 'visit' }, mine.key);
        expect(none.body.shippingError.code).toBe('BOOKING_NEEDED');
        const unknown = await quote(
          door,
          { items, shippingMethod: 'visit', bookingId: 'bkg_nope' },
          mine.key,
        );
        expect(unknown.body.shippingError.code).toBe('BOOKING_NEEDED');
      }
    });

    it.each(DOORS)('refuses malformed orders with 400 (%s)', async (door) => {
      const item = { productId: 'dental-treats', qty: 1 };
      const courier = { shippingMethod: 'courier', province: 'WC' };
      const bad: Record<string, unknown>[] = [
        { items: [], ...courier },
        { ...courier },
        { items: [{ ...item, qty: 0 }], ...courier },
        { items: [{ ...item, qty: 100 }], ...courier },
        { items: [{ ...item, qty: 1.5 }], ...courier },
        { items: Array.from({ length: 31 }, () => item), ...courier },
        { items: [item], shippingMethod: 'drone' },
        { items: [item], shippingMethod: 'COURIER', province: 'WC' },
        { items: [item], shippingMethod: 'courier', province: 'ZZ' },
        { items: [item], ...courier, discountCode: 'x'.repeat(41) },
        { items: [item], ...courier, surprise: true },
      ];
      for (const body of bad) {
        const res = await quote(door, body);
        expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
        expect(res.body.error.code).toBe('BAD_REQUEST');
      }
      // 30 items is the most, and fine (the same product 30 times is a duplicate, not a 400).
      const thirty = await quote(door, { items: Array.from({ length: 30 }, () => item), ...courier });
      expect(thirty.status).toBe(200);
      expect(thirty.body.problems).toHaveLength(29);
    });
  });

  describe('buy', () => {
    const treats = (qty: number) => [{ productId: 'dental-treats', qty }];

    it.each(DOORS)(
      'takes a card order: PENDING_PAYMENT with a pay link for 24 hours, the stock held (%s)',
      async (door) => {
        const before = await stockNow(server);
        const res = await call(door, 'buy', courierOrder(treats(2)), { key: buyer.key });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body).toMatchObject({
          orderId: expect.stringMatching(/^ord_/),
          status: 'PENDING_PAYMENT',
          paymentMethod: 'CARD',
          paymentStatus: 'PENDING',
          canPay: true,
          shippingMethod: 'courier',
          subtotalCents: 25800,
          deliveryFeeCents: 8500,
          totalCents: 34300,
          payUrl: expect.stringMatching(new RegExp(`^${server.url}/pay/npl_`)),
        });
        expect(Date.parse(res.body.expiresAt) - clock.now().getTime()).toBe(24 * HOUR);
        expect(res.body.summary).toContain('2 × Dental treats');
        expect((await stockNow(server))['dental-treats']).toBe(before['dental-treats']! - 2);

        // Paid on the sandbox's page, the order is confirmed.
        expect(await payOrderLink(server, res.body.payUrl)).toBe(303);
        const got = await call(door, 'get_order', { orderId: res.body.orderId }, { key: buyer.key });
        expect(got.status, JSON.stringify(got.body)).toBe(200);
        expect(got.body).toMatchObject({
          orderId: res.body.orderId,
          status: 'CONFIRMED',
          paymentStatus: 'PAID',
          canPay: false,
          expiresAt: null,
          paidAt: clock.now().toISOString(),
        });
        const page = await fetch(res.body.payUrl);
        expect(page.status).toBe(200);
        expect(await page.text()).toMatch(/paid/i);
        const list = await call(door, 'list_orders', {}, { key: buyer.key });
        expect(list.status).toBe(200);
        expect(list.body.orders.find((o: Json) => o.orderId === res.body.orderId)).toMatchObject({
          status: 'CONFIRMED',
          paymentStatus: 'PAID',
        });
        // Paid is not paid back: the stock stays taken.
        expect((await stockNow(server))['dental-treats']).toBe(before['dental-treats']! - 2);
      },
    );

    it.each(DOORS)('lists the person’s own orders newest first, a page at a time (%s)', async (door) => {
      const person = await newBuyer(server, `pages-${door}@example.com`);
      const ids: string[] = [];
      try {
        for (const minutes of [1, 2, 3]) {
          clock.set(new Date(Date.parse(NOW) + minutes * 60_000));
          const res = await call(door, 'buy', courierOrder(treats(1)), { key: person.key });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          ids.push(res.body.orderId);
          // Paid, so the next is not a third unpaid order.
          expect(await payOrderLink(server, res.body.payUrl)).toBe(303);
        }
      } finally {
        clock.set(NOW);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 3; page++) {
        const res = await call(
          door,
          'list_orders',
          { limit: 1, ...(cursor ? { cursor } : {}) },
          { key: person.key },
        );
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.orders).toHaveLength(1);
        seen.push(res.body.orders[0].orderId);
        cursor = res.body.next ?? undefined;
        expect(Boolean(cursor)).toBe(page < 2);
      }
      expect(seen).toEqual([...ids].reverse());
      const all = await call(door, 'list_orders', {}, { key: person.key });
      expect(all.body).toMatchObject({ next: null });
      expect(all.body.orders.map((o: Json) => o.orderId)).toEqual([...ids].reverse());
      for (const bad of [{ limit: 0 }, { limit: 51 }, { cursor: 'not-a-cursor' }])
        expect((await call(door, 'list_orders', bad, { key: person.key })).status, JSON.stringify(bad)).toBe(
          400,
        );
      // Another person sees none of them, and gets 404 for each.
      const theirs = await call(door, 'list_orders', {}, { key: other.key });
      expect(theirs.body.orders.map((o: Json) => o.orderId)).not.toContain(ids[0]);
      const foreign = await call(door, 'get_order', { orderId: ids[0] }, { key: other.key });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.code).toBe('NOT_FOUND');
      expect((await call(door, 'get_order', { orderId: 'ord_nope' }, { key: person.key })).status).toBe(404);
    });

    it.each(DOORS)(
      'answers a retry with the same Idempotency-Key with the same order, stock taken once (%s)',
      async (door) => {
        const before = await stockNow(server);
        const { orders } = await shopCounts(server);
        const body = courierOrder([{ productId: 'leash', qty: 3 }]);
        const idempotencyKey = `shop-retry-${door}`;
        const first = await call(door, 'buy', body, { key: buyer.key, idempotencyKey });
        const again = await call(door, 'buy', body, { key: buyer.key, idempotencyKey });
        expect(first.status, JSON.stringify(first.body)).toBe(201);
        expect(again.status).toBe(201);
        expect(again.body.orderId).toBe(first.body.orderId);
        expect(again.body).toEqual(first.body);
        expect((await stockNow(server)).leash).toBe(before.leash! - 3);
        expect((await shopCounts(server)).orders).toBe(orders + 1);
        const changed = await call(
          door,
          'buy',
          { ...body, discountCode: 'WELCOME10' },
          { key: buyer.key, idempotencyKey },
        );
        expect(changed.status).toBe(422);
        expect(changed.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
        expect((await stockNow(server)).leash).toBe(before.leash! - 3);
        expect((await shopCounts(server)).orders).toBe(orders + 1);
      },
    );

    it('refuses, changing no stock, order or code use, and says why (HTTP and MCP)', async () => {
      const cash = await buyerWithBooking(server, 'sipho@example.com', '2026-11-26', 'CASH');
      const card = await buyerWithBooking(server, 'anna@example.com', '2026-11-26', 'CARD');
      const visit = (bookingId: string, extra: Record<string, unknown> = {}) => ({
        items: [{ productId: 'cat-wand', qty: 1 }],
        shippingMethod: 'visit',
        bookingId,
        discountCode: 'WELCOME10',
        ...extra,
      });
      const shipTo = { line1: '1 Long Street', city: 'Johannesburg', postalCode: '2000' };
      const refusals: [string, string, Record<string, unknown>, number, string, (d: Json) => void][] = [
        [
          'a sold-out item',
          buyer.key,
          courierOrder(
            [
              { productId: 'ball-launcher', qty: 1 },
              { productId: 'cat-wand', qty: 1 },
            ],
            { discountCode: 'WELCOME10' },
          ),
          409,
          'OUT_OF_STOCK',
          (d) => expect(d.problems).toEqual([expect.objectContaining({ index: 0, code: 'SOLD_OUT' })]),
        ],
        [
          'more than are left',
          buyer.key,
          courierOrder([{ productId: 'collar', variantId: 'collar-l', qty: 3 }]),
          409,
          'OUT_OF_STOCK',
          (d) =>
            expect(d.problems).toEqual([expect.objectContaining({ code: 'NOT_ENOUGH_STOCK', available: 2 })]),
        ],
        [
          'an ended code',
          buyer.key,
          courierOrder([{ productId: 'cat-wand', qty: 1 }], { discountCode: 'winter25' }),
          409,
          'DISCOUNT_NOT_VALID',
          (d) => expect(d.discountError.code).toBe('EXPIRED'),
        ],
        [
          'a place the van does not go',
          buyer.key,
          {
            items: [{ productId: 'cat-wand', qty: 1 }],
            shippingMethod: 'local',
            shipTo,
            discountCode: 'WELCOME10',
          },
          409,
          'CANNOT_DELIVER',
          (d) => expect(d.shippingError.code).toBe('NOT_LOCAL'),
        ],
        [
          'no shipTo for courier',
          buyer.key,
          { items: [{ productId: 'cat-wand', qty: 1 }], shippingMethod: 'courier', province: 'WC' },
          400,
          'BAD_REQUEST',
          (d) => expect(JSON.stringify(d.fields)).toContain('shipTo'),
        ],
        [
          "a line break hidden in the address (it would forge a row of the operator's order list)",
          buyer.key,
          courierOrder([{ productId: 'cat-wand', qty: 1 }], {
            shipTo: { line1: '1 Main St\nord_fake\tR 0\tlocal', city: 'Stellenbosch', postalCode: '7600' },
          }),
          400,
          'BAD_REQUEST',
          (d) => expect(JSON.stringify(d.fields)).toContain('shipTo.line1'),
        ],
        [
          'CASH for courier',
          buyer.key,
          courierOrder([{ productId: 'cat-wand', qty: 1 }], { paymentMethod: 'CASH', confirm: true }),
          400,
          'BAD_REQUEST',
          (d) => expect(JSON.stringify(d.fields)).toContain('paymentMethod'),
        ],
        [
          'an unknown product',
          buyer.key,
          courierOrder([{ productId: 'no-such-thing', qty: 1 }]),
          400,
          'BAD_REQUEST',
          (d) => expect(d.problems[0].code).toBe('UNKNOWN_PRODUCT'),
        ],
        [
          'CASH with a card booking',
          card.key,
          visit(card.bookingId, { paymentMethod: 'CASH', confirm: true }),
          409,
          'CASH_NOT_ALLOWED',
          () => {},
        ],
        [
          'a visit with someone else’s booking',
          buyer.key,
          visit(cash.bookingId),
          409,
          'CANNOT_DELIVER',
          (d) => expect(d.shippingError.code).toBe('BOOKING_NEEDED'),
        ],
        [
          'CASH without confirm',
          cash.key,
          visit(cash.bookingId, { paymentMethod: 'CASH' }),
          409,
          'CONFIRM_REQUIRED',
          (d) => {
            expect(d.summary).toMatch(/1 × Feather cat wand/);
            expect(d.summary).toMatch(/in cash to the crew at the visit/);
            expect(d.totalCents).toBe(9900 - 990);
          },
        ],
      ];
      for (const door of DOORS) {
        for (const [name, key, body, status, code, check] of refusals) {
          const [stock, counts] = [await stockNow(server), await shopCounts(server)];
          const res = await call(door, 'buy', body, { key });
          expect([res.status, res.body.error?.code], `${door}: ${name} ${JSON.stringify(res.body)}`).toEqual([
            status,
            code,
          ]);
          check(res.body.error.details);
          expect(await stockNow(server), `${door}: ${name}`).toEqual(stock);
          expect(await shopCounts(server), `${door}: ${name}`).toEqual(counts);
        }
      }

      // With confirm, the cash add-on is confirmed at once: stock and the code's use are taken.
      for (const door of DOORS) {
        const [stock, counts] = [await stockNow(server), await shopCounts(server)];
        const res = await call(door, 'buy', visit(cash.bookingId, { paymentMethod: 'CASH', confirm: true }), {
          key: cash.key,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body).toMatchObject({
          status: 'CONFIRMED',
          paymentMethod: 'CASH',
          paymentStatus: 'CASH_DUE',
          canPay: false,
          shippingMethod: 'visit',
          bookingId: cash.bookingId,
          shipTo: null,
          discountCode: 'WELCOME10',
          deliveryFeeCents: 0,
          totalCents: 8910,
          expiresAt: null,
        });
        expect(res.body.payUrl).toBeUndefined();
        expect((await stockNow(server))['cat-wand']).toBe(stock['cat-wand']! - 1);
        const after = await shopCounts(server);
        expect(after.orders).toBe(counts.orders + 1);
        expect(after.uses.WELCOME10).toBe(counts.uses.WELCOME10! + 1);
      }
    });

    it.each(DOORS)('needs a credential with orders:write (%s)', async (door) => {
      const body = courierOrder(treats(1));
      const { key: readOnly } = await createApiKey(server.db.sql, {
        email: 'lerato@example.com',
        scopes: ['bookings:read', 'bookings:write'],
      });
      const counts = await shopCounts(server);
      const anonymous = await call(door, 'buy', body);
      expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
      const forbidden = await call(door, 'buy', body, { key: readOnly });
      expect([forbidden.status, forbidden.body.error.code]).toEqual([403, 'FORBIDDEN']);
      for (const [tool, args] of [
        ['list_orders', {}],
        ['get_order', { orderId: 'ord_x' }],
      ] as const) {
        expect((await call(door, tool, args)).status).toBe(401);
        expect((await call(door, tool, args, { key: readOnly })).status).toBe(403);
      }
      expect(await shopCounts(server)).toEqual(counts);
    });
  });

  describe('the shop closed', () => {
    const shopCli = async (command: 'open' | 'close') => {
      const out = await cli(server.db.url, ['shop', command]);
      expect(out.status, out.stderr).toBe(0);
      return out.lastLine;
    };

    it('answers SHOP_OFF to browse, quote and buy after `shop close`, still shows the person’s orders, and opens again (HTTP and MCP)', async () => {
      // A buyer of their own: one person holds at most 2 unpaid orders.
      const shopper = await newBuyer(server, 'shop-off@example.com');
      const made = await call('http', 'buy', courierOrder([{ productId: 'lick-mat', qty: 1 }]), {
        key: shopper.key,
      });
      expect(made.status).toBe(201);
      const counts = await shopCounts(server);
      expect(await shopCli('close')).toBe('The shop is now closed.');
      try {
        for (const door of DOORS) {
          for (const [tool, args] of [
            ['browse_shop', {}],
            ['browse_shop', { q: 'rope' }],
            [
              'quote_order',
              { items: [{ productId: 'lick-mat', qty: 1 }], shippingMethod: 'courier', province: 'WC' },
            ],
            ['buy', courierOrder([{ productId: 'lick-mat', qty: 1 }])],
          ] as const) {
            const res = await call(door, tool, args, { key: shopper.key });
            expect([res.status, res.body.error?.code], `${door} ${tool}`).toEqual([409, 'SHOP_OFF']);
            expect(res.body.error.message).toMatch(/closed/);
          }
          const list = await call(door, 'list_orders', {}, { key: shopper.key });
          expect(list.status).toBe(200);
          expect(list.body.orders.map((o: Json) => o.orderId)).toContain(made.body.orderId);
          const got = await call(door, 'get_order', { orderId: made.body.orderId }, { key: shopper.key });
          expect(got.status).toBe(200);
          expect(got.body.status).toBe('PENDING_PAYMENT');
        }
        // An order made before is still paid while the shop is closed.
        expect(await payOrderLink(server, made.body.payUrl)).toBe(303);
        const paid = await call('http', 'get_order', { orderId: made.body.orderId }, { key: shopper.key });
        expect(paid.body.status).toBe('CONFIRMED');
        expect(await shopCounts(server)).toEqual(counts);
      } finally {
        expect(await shopCli('open')).toBe('The shop is now open.');
      }
      for (const door of DOORS) {
        expect((await call(door, 'browse_shop', {})).status).toBe(200);
        const quoted = await call(door, 'quote_order', {
          items: [{ productId: 'lick-mat', qty: 1 }],
          shippingMethod: 'courier',
          province: 'WC',
        });
        expect(quoted.status).toBe(200);
      }
    });
  });

  describe('an unpaid order after 24 hours', () => {
    it('closes (EXPIRED), gives back its stock and code use, stops its link, and money paid late is owed back', async () => {
      const deps = server.service.runtime.deps;
      const late = await newBuyer(server, 'late-payer@example.com');
      const before = await stockNow(server);
      const counts = await shopCounts(server);
      const res = await call(
        'mcp',
        'buy',
        courierOrder([{ productId: 'harness', variantId: 'harness-m', qty: 2 }], {
          discountCode: 'WELCOME10',
        }),
        { key: late.key },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const orderId = res.body.orderId as string;
      expect((await stockNow(server))['harness-m']).toBe(before['harness-m']! - 2);
      expect((await shopCounts(server)).uses.WELCOME10).toBe(counts.uses.WELCOME10! + 1);
      const [payment] = await server.db.sql<{ id: string; amount: number }[]>`
        select id, amount_cents as amount from payments where order_id = ${orderId}`;
      expect(payment!.amount).toBe(res.body.totalCents);

      try {
        // A minute before its time nothing closes.
        clock.set(new Date(Date.parse(NOW) + 24 * HOUR - 60_000));
        expect(await expireOrders(deps)).not.toContain(orderId);
        // Its link stops at 24 hours, but a payment begun just before has a grace to be confirmed.
        clock.set(new Date(Date.parse(NOW) + 24 * HOUR + 60_000));
        expect(await expireOrders(deps)).not.toContain(orderId);
        // Its page does not say "nothing was charged": a payment begun in time may still arrive.
        const closing = await fetch(res.body.payUrl);
        expect(closing.status).toBe(410);
        const closingText = await closing.text();
        expect(closingText).toContain(
          'If you have just paid, your order is confirmed as soon as the payment reaches us',
        );
        expect(closingText).not.toContain('nothing was charged');
        clock.set(new Date(Date.parse(NOW) + 24 * HOUR + ORDER_PAYMENT_GRACE_MS + 60_000));
        const [a, b] = await Promise.all([expireOrders(deps), expireOrders(deps)]);
        expect([...a, ...b].filter((id) => id === orderId)).toHaveLength(1);
        for (const door of DOORS) {
          const got = await call(door, 'get_order', { orderId }, { key: late.key });
          expect(got.body).toMatchObject({
            status: 'EXPIRED',
            paymentStatus: 'NONE',
            canPay: false,
            expiresAt: null,
          });
        }
        expect((await stockNow(server))['harness-m']).toBe(before['harness-m']);
        expect((await shopCounts(server)).uses.WELCOME10).toBe(counts.uses.WELCOME10);

        // The link is closed: its page says so, and its TEST button pays nothing.
        const page = await fetch(res.body.payUrl);
        expect(page.status).toBe(410);
        await page.body?.cancel();
        expect(await payOrderLink(server, res.body.payUrl)).toBe(303);
        expect((await server.db.sql`select status from payments where id = ${payment!.id}`)[0]!.status).toBe(
          'EXPIRED',
        );
        // A checkout begun before it closed completes at the gateway now: that money is owed back.
        const notice = await signSandboxNotice(server, {
          paymentId: payment!.id,
          gatewayRef: 'sbx_late_order',
          amountCents: payment!.amount,
          outcome: 'COMPLETE',
        });
        expect(await notifySandbox(server, notice)).toBe(200);
        expect((await server.db.sql`select status from payments where id = ${payment!.id}`)[0]!.status).toBe(
          'REFUND_DUE',
        );
        // The person is told the money is coming back; it is on the operator's refund list.
        const got = await call('http', 'get_order', { orderId }, { key: late.key });
        expect(got.body).toMatchObject({ status: 'EXPIRED', paymentStatus: 'REFUND_REQUESTED' });
        expect(got.body.statusText).toMatch(/being refunded/);
        const refunds = await cli(server.db.url, ['refund', 'list']);
        expect(refunds.stdout).toContain(payment!.id);
        const done = await cli(server.db.url, [
          'refund',
          'done',
          payment!.id,
          '--note',
          'returned at PayFast',
        ]);
        expect(done.status, done.stderr).toBe(0);
        const after = await call('http', 'get_order', { orderId }, { key: late.key });
        expect(after.body).toMatchObject({ status: 'EXPIRED', paymentStatus: 'REFUNDED' });
        expect((await stockNow(server))['harness-m']).toBe(before['harness-m']);
      } finally {
        clock.set(NOW);
      }
    });
  });
});
