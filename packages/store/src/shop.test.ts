import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData, readShopDemo } from './demo-data.js';
import {
  expireOrderPayments,
  findDiscountCode,
  findOrder,
  findOrderOfPayment,
  findProducts,
  findShopSettings,
  insertOrder,
  insertOrderPayment,
  listExpiredOrderIds,
  listOrdersToPack,
  listUserOrders,
  type NewOrder,
  type OrderLineRow,
  returnDiscountUse,
  returnStock,
  searchProducts,
  setShopOpen,
  takeDiscountUse,
  takeStock,
  updateOrder,
} from './shop.js';
import { createTestDatabase, type TestDatabase } from './testing/index.js';
import { findOrCreateUser } from './users.js';

const SHOP = 'nogpets';
const NOW = new Date('2026-11-23T08:00:00Z');

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** A product of the shop with one variant per stock given, ids `${id}-0`, `${id}-1`… */
async function aProduct(id: string, stocks: number[]): Promise<string[]> {
  await db.sql`insert into products (id, business_id, name, blurb, category, pet_types, search_text)
    values (${id}, ${SHOP}, ${id}, 'test', 'TOYS', '{DOG}', ${id})`;
  const ids = stocks.map((_, i) => `${id}-${i}`);
  for (const [i, stock] of stocks.entries()) {
    await db.sql`insert into product_variants (id, product_id, label, price_cents, stock, sort_order)
      values (${ids[i]!}, ${id}, ${`v${i}`}, 1000, ${stock}, ${i})`;
  }
  return ids;
}

async function stockOf(variantId: string): Promise<number> {
  const [row] = await db.sql<{ stock: number }[]>`select stock from product_variants where id = ${variantId}`;
  return row!.stock;
}

function anOrder(userId: string | null, extra: Partial<NewOrder> = {}): NewOrder {
  return {
    businessId: SHOP,
    userId,
    status: 'CONFIRMED',
    paymentMethod: 'CARD',
    paymentStatus: 'PAID',
    shippingMethod: 'courier',
    shipTo: { line1: '12 Dorp Street', city: 'Stellenbosch', province: 'WC', postalCode: '7600' },
    bookingId: null,
    discountCode: null,
    subtotalCents: 14900,
    discountCents: 0,
    deliveryFeeCents: 8500,
    totalCents: 23400,
    currency: 'ZAR',
    expiresAt: null,
    clientName: 'NogPets app',
    ...extra,
  };
}

const ropeLine: Omit<OrderLineRow, 'lineNo'> = {
  productId: 'chew-rope',
  variantId: 'chew-rope-m',
  name: 'Cotton chew rope',
  variantLabel: 'Medium (40 cm)',
  qty: 1,
  unitCents: 10900,
  lineCents: 10900,
};

describe('searchProducts', () => {
  it('lists every active product in sort order without a query, variants in theirs', async () => {
    const demo = await readShopDemo();
    const all = await searchProducts(db.sql, SHOP, {});
    expect(all.map((p) => p.id)).toEqual(demo.products.map((p) => p.id));
    const rope = all.find((p) => p.id === 'chew-rope')!;
    expect(rope.variants).toEqual([
      { id: 'chew-rope-s', productId: 'chew-rope', label: 'Small (25 cm)', priceCents: 7900, stock: 35 },
      { id: 'chew-rope-m', productId: 'chew-rope', label: 'Medium (40 cm)', priceCents: 10900, stock: 20 },
      { id: 'chew-rope-l', productId: 'chew-rope', label: 'Large (60 cm)', priceCents: 14900, stock: 1 },
    ]);
    expect(rope).toMatchObject({ businessId: SHOP, category: 'TOYS', petTypes: ['DOG'] });
  });

  it('filters by category and by pet type', async () => {
    const toys = await searchProducts(db.sql, SHOP, { category: 'TOYS' });
    expect(toys.length).toBeGreaterThan(1);
    expect(toys.every((p) => p.category === 'TOYS')).toBe(true);
    const forCats = await searchProducts(db.sql, SHOP, { petType: 'CAT' });
    expect(forCats.every((p) => p.petTypes.includes('CAT'))).toBe(true);
    // A product for both is found under either.
    expect(forCats.map((p) => p.id)).toContain('lick-mat');
    expect((await searchProducts(db.sql, SHOP, { petType: 'DOG' })).map((p) => p.id)).toContain('lick-mat');
    const catCare = await searchProducts(db.sql, SHOP, { category: 'CARE', petType: 'CAT' });
    expect(catCare.map((p) => p.id)).toEqual(['cat-brush']);
  });

  it('forgives a typo and ranks the closest first', async () => {
    const found = await searchProducts(db.sql, SHOP, { q: 'shampo' });
    expect(found[0]?.id).toBe('dog-shampoo');
    const chew = await searchProducts(db.sql, SHOP, { q: 'Chew ' });
    // The rope has the word itself; "chews" and "chewable" come after it.
    expect(chew[0]?.id).toBe('chew-rope');
    expect(
      chew
        .slice(1, 3)
        .map((p) => p.id)
        .sort(),
    ).toEqual(['dental-treats', 'flea-tick-dog']);
  });

  it('finds a plain substring, takes % and _ literally, and finds nothing for nonsense', async () => {
    expect((await searchProducts(db.sql, SHOP, { q: 'ampoo' })).map((p) => p.id)).toContain('dog-shampoo');
    expect(await searchProducts(db.sql, SHOP, { q: '%' })).toEqual([]);
    expect(await searchProducts(db.sql, SHOP, { q: '_' })).toEqual([]);
    expect(await searchProducts(db.sql, SHOP, { q: 'xylophone' })).toEqual([]);
  });

  it('leaves out inactive products and other businesses', async () => {
    await db.sql`update products set active = false where id = 'cat-wand'`;
    try {
      expect((await searchProducts(db.sql, SHOP, {})).map((p) => p.id)).not.toContain('cat-wand');
      expect(await findProducts(db.sql, SHOP, ['cat-wand'])).toEqual([]);
    } finally {
      await db.sql`update products set active = true where id = 'cat-wand'`;
    }
    expect(await searchProducts(db.sql, 'biz_boland_paws', {})).toEqual([]);
  });
});

describe('findProducts', () => {
  it('answers the known ids and leaves unknown ones out', async () => {
    const found = await findProducts(db.sql, SHOP, ['leash', 'no-such-thing', 'collar']);
    expect(found.map((p) => p.id).sort()).toEqual(['collar', 'leash']);
    expect(await findProducts(db.sql, 'biz_boland_paws', ['leash'])).toEqual([]);
    expect(await findProducts(db.sql, SHOP, [])).toEqual([]);
  });
});

describe('takeStock', () => {
  it('takes every line, adding up a variant named twice', async () => {
    const [a, b] = await aProduct('take-all', [5, 5]);
    expect(
      await takeStock(db.sql, [
        { variantId: b!, qty: 2 },
        { variantId: a!, qty: 1 },
        { variantId: b!, qty: 1 },
      ]),
    ).toEqual([]);
    expect([await stockOf(a!), await stockOf(b!)]).toEqual([4, 2]);
    await returnStock(db.sql, [
      { variantId: b!, qty: 3 },
      { variantId: a!, qty: 1 },
    ]);
    expect([await stockOf(a!), await stockOf(b!)]).toEqual([5, 5]);
  });

  it('takes nothing when one line falls short, on a pool and inside a transaction', async () => {
    const [a, b, c] = await aProduct('take-none', [5, 1, 0]);
    const lines = [
      { variantId: a!, qty: 2 },
      { variantId: b!, qty: 2 },
      { variantId: c!, qty: 1 },
    ];
    expect(await takeStock(db.sql, lines)).toEqual([b, c]);
    expect([await stockOf(a!), await stockOf(b!), await stockOf(c!)]).toEqual([5, 1, 0]);
    await db.sql.begin(async (tx) => {
      expect(await takeStock(tx, lines)).toEqual([b, c]);
      // The transaction is still usable and nothing was taken in it.
      const [row] = await tx<{ stock: number }[]>`select stock from product_variants where id = ${a!}`;
      expect(row!.stock).toBe(5);
    });
  });

  it('never oversells: of 10 buyers at once for 3 left, exactly 3 get one', async () => {
    const [last, other] = await aProduct('last-three', [3, 100]);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        db.sql.begin(async (tx) => {
          // Half name the lines the other way round: the id order keeps them from deadlocking.
          const lines = [
            { variantId: last!, qty: 1 },
            { variantId: other!, qty: 1 },
          ];
          const short = await takeStock(tx, i % 2 ? lines : lines.reverse());
          if (short.length > 0) throw new Error(`short: ${short.join(',')}`);
          await tx`select pg_sleep(0.02)`;
        }),
      ),
    );
    const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(failed.map((r) => (r.reason as Error).message)).toEqual(Array(7).fill(`short: ${last}`));
    expect(await stockOf(last!)).toBe(0);
    expect(await stockOf(other!)).toBe(97);
  });
});

describe('discount codes', () => {
  it('finds a code in any case', async () => {
    expect(await findDiscountCode(db.sql, SHOP, ' welcome10')).toMatchObject({
      businessId: SHOP,
      code: 'WELCOME10',
      kind: 'PERCENT',
      percent: 10,
      amountCents: null,
      minSpendCents: 0,
      startsAt: null,
      endsAt: null,
      maxUses: null,
    });
    expect(await findDiscountCode(db.sql, SHOP, 'save50')).toMatchObject({
      kind: 'FIXED',
      amountCents: 5000,
      minSpendCents: 30000,
    });
    expect((await findDiscountCode(db.sql, SHOP, 'WINTER25'))?.endsAt).toEqual(
      new Date('2025-08-31T22:00:00Z'),
    );
    expect(await findDiscountCode(db.sql, SHOP, 'NOPE')).toBeNull();
  });

  it('takes a use while any is left and refuses at the maximum', async () => {
    await db.sql`insert into discount_codes (business_id, code, kind, percent, max_uses, used, description)
      values (${SHOP}, 'TWOUSES', 'PERCENT', 5, 2, 1, 'test')`;
    expect(await takeDiscountUse(db.sql, SHOP, 'twouses')).toBe(true);
    expect(await takeDiscountUse(db.sql, SHOP, 'TWOUSES')).toBe(false);
    expect((await findDiscountCode(db.sql, SHOP, 'TWOUSES'))?.used).toBe(2);
    await returnDiscountUse(db.sql, SHOP, 'TWOUSES');
    expect((await findDiscountCode(db.sql, SHOP, 'TWOUSES'))?.used).toBe(1);
    expect(await takeDiscountUse(db.sql, SHOP, 'LAUNCH100')).toBe(false);
    expect(await takeDiscountUse(db.sql, SHOP, 'NOPE')).toBe(false);
    const before = (await findDiscountCode(db.sql, SHOP, 'WELCOME10'))!.used;
    expect(await takeDiscountUse(db.sql, SHOP, 'WELCOME10')).toBe(true);
    expect((await findDiscountCode(db.sql, SHOP, 'WELCOME10'))?.used).toBe(before + 1);
  });
});

describe('orders', () => {
  it('keeps an order and its lines as written, and finds it by its payment', async () => {
    const user = await findOrCreateUser(db.sql, 'shop-buyer@example.com', 'Buyer');
    const order = await insertOrder(
      db.sql,
      anOrder(user.id, {
        status: 'PENDING_PAYMENT',
        paymentStatus: 'PENDING',
        discountCode: 'WELCOME10',
        subtotalCents: 28700,
        discountCents: 2870,
        totalCents: 34330,
        expiresAt: new Date(NOW.getTime() + 24 * 3600_000),
      }),
      [
        ropeLine,
        {
          productId: 'cat-food',
          variantId: 'cat-food-fish',
          name: 'Adult cat food pouches',
          variantLabel: 'Ocean fish, 12 × 85 g',
          qty: 2,
          unitCents: 8900,
          lineCents: 17800,
        },
      ],
      NOW,
    );
    expect(order.id).toMatch(/^ord_[0-9a-z]{20}$/);
    expect(order.lines.map((l) => [l.lineNo, l.variantId, l.qty])).toEqual([
      [1, 'chew-rope-m', 1],
      [2, 'cat-food-fish', 2],
    ]);
    expect(await findOrder(db.sql, order.id)).toEqual(order);
    const { paymentId } = await insertOrderPayment(
      db.sql,
      {
        orderId: order.id,
        businessId: SHOP,
        userId: user.id,
        amountCents: order.totalCents,
        currency: 'ZAR',
        gateway: 'sandbox',
        linkTokenHash: `hash-${order.id}`,
        expiresAt: order.expiresAt!,
      },
      NOW,
    );
    expect(paymentId).toMatch(/^pay_/);
    expect(await db.sql.begin((tx) => findOrderOfPayment(tx, paymentId, { forUpdate: true }))).toEqual(order);
    expect(await findOrderOfPayment(db.sql, 'pay_nothing')).toBeNull();
    await expireOrderPayments(db.sql, order.id, NOW);
    const [payment] = await db.sql`select status, booking_ids from payments where id = ${paymentId}`;
    expect(payment).toEqual({ status: 'EXPIRED', booking_ids: [] });
    expect(await findOrder(db.sql, 'ord_nothing')).toBeNull();
  });

  it('updates only what the patch names', async () => {
    const order = await insertOrder(
      db.sql,
      anOrder(null, { status: 'PENDING_PAYMENT', paymentStatus: 'PENDING', expiresAt: NOW }),
      [ropeLine],
      NOW,
    );
    const paidAt = new Date(NOW.getTime() + 60_000);
    await updateOrder(
      db.sql,
      order.id,
      { status: 'CONFIRMED', paymentStatus: 'PAID', paidAt, expiresAt: null },
      NOW,
    );
    await updateOrder(db.sql, order.id, {}, NOW);
    expect(await findOrder(db.sql, order.id)).toEqual({
      ...order,
      status: 'CONFIRMED',
      paymentStatus: 'PAID',
      paidAt,
      expiresAt: null,
    });
    await updateOrder(db.sql, order.id, { tracking: 'TCG123' }, NOW);
    expect(await findOrder(db.sql, order.id)).toMatchObject({
      status: 'CONFIRMED',
      tracking: 'TCG123',
      paidAt,
    });
  });

  it('pages a person’s orders newest first with a keyset, ties broken by id', async () => {
    const user = await findOrCreateUser(db.sql, 'shop-pages@example.com');
    const times = [0, 1, 1, 2, 3].map((h) => new Date(NOW.getTime() + h * 3600_000));
    const made = [];
    for (const t of times) made.push(await insertOrder(db.sql, anOrder(user.id), [ropeLine], t));
    const expected = [...made]
      .sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime() || (x.id < y.id ? 1 : -1))
      .map((o) => o.id);
    const seen: string[] = [];
    let after: { createdAt: Date; id: string } | undefined;
    for (;;) {
      const page = await listUserOrders(db.sql, user.id, { limit: 2, after });
      seen.push(...page.map((o) => o.id));
      if (page.length < 2) break;
      const last = page.at(-1)!;
      after = { createdAt: last.createdAt, id: last.id };
    }
    expect(seen).toEqual(expected);
    expect((await listUserOrders(db.sql, user.id, { limit: 1 }))[0]?.lines).toEqual([
      { ...ropeLine, lineNo: 1 },
    ]);
  });

  it('lists the unpaid orders whose time is up, oldest first, and the ones to pack', async () => {
    const at = (h: number) => new Date(NOW.getTime() + h * 3600_000);
    const pending = (expiresAt: Date) =>
      insertOrder(
        db.sql,
        anOrder(null, { status: 'PENDING_PAYMENT', paymentStatus: 'PENDING', expiresAt }),
        [ropeLine],
        NOW,
      );
    const late = await pending(at(-2));
    const later = await pending(at(-1));
    const due = await pending(at(0));
    await pending(at(1));
    const paid = await insertOrder(db.sql, anOrder(null, { expiresAt: at(-3) }), [ropeLine], at(-30));
    const before = await listExpiredOrderIds(db.sql, at(0), 100);
    expect(before.filter((id) => [late.id, later.id, due.id, paid.id].includes(id))).toEqual([
      late.id,
      later.id,
      due.id,
    ]);
    expect(await listExpiredOrderIds(db.sql, at(0), 1)).toHaveLength(1);
    const toPack = await listOrdersToPack(db.sql, SHOP, 100);
    expect(toPack.every((o) => o.status === 'CONFIRMED' || o.status === 'PACKED')).toBe(true);
    expect(toPack[0]?.id).toBe(paid.id);
  });
});

describe('shop settings and the demo shop', () => {
  it('opens the demo shop on a fresh start and keeps it closed after a restart', async () => {
    const settings = await findShopSettings(db.sql, SHOP);
    expect(settings).toMatchObject({ businessId: SHOP, open: true, changedAt: null, changedBy: null });
    expect(settings?.delivery).toMatchObject({
      courier: { feesByProvince: { WC: 8500, NC: 13000 }, freeFromCents: 75000 },
      local: { postalCodes: { '7600': 3500, '7681': 5500, '7690': 8500 }, freeFromCents: 40000 },
      visit: { label: 'With your next booking' },
    });
    const closed = await setShopOpen(db.sql, SHOP, false, null, NOW);
    expect(closed).toMatchObject({ open: false, changedAt: NOW });
    expect(await setShopOpen(db.sql, 'biz_boland_paws', true, null, NOW)).toBeNull();
    expect((await loadDemoData(db.sql)).inserted).toBe(0);
    expect((await findShopSettings(db.sql, SHOP))?.open).toBe(false);
    await setShopOpen(db.sql, SHOP, true, null, NOW);
  });

  it('loads the demo shop once, with exactly one product sold out', async () => {
    const fresh = await createTestDatabase({ migrate: true, demoData: false });
    try {
      const first = await loadDemoData(fresh.sql);
      expect(first.inserted).toBeGreaterThan(0);
      await fresh.sql`update product_variants set stock = 7 where id = 'leash'`;
      expect((await loadDemoData(fresh.sql)).inserted).toBe(0);
      expect(await stockIn(fresh, 'leash')).toBe(7);
      const products = await searchProducts(fresh.sql, SHOP, {});
      expect(products.length).toBeGreaterThanOrEqual(14);
      const soldOut = products.filter((p) => p.variants.every((v) => v.stock === 0));
      expect(soldOut.map((p) => p.id)).toEqual(['ball-launcher']);
      const [codes] = await fresh.sql<
        { n: number }[]
      >`select count(*)::int as n from discount_codes where business_id = ${SHOP}`;
      expect(codes!.n).toBe(6);
    } finally {
      await fresh.drop();
    }
  });
});

async function stockIn(database: TestDatabase, variantId: string): Promise<number> {
  const [row] = await database.sql<
    { stock: number }[]
  >`select stock from product_variants where id = ${variantId}`;
  return row!.stock;
}
