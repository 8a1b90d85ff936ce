import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PricingError } from './errors.js';
import {
  type CatalogueProduct,
  type DeliveryChoice,
  type DiscountCodeRule,
  type OrderItemInput,
  type PriceOrderInput,
  type Province,
  priceOrder,
} from './order.js';
import { aCatalogue, aDiscount, anOrderInput, someDeliveryOptions } from './test-utils.js';

const ropeL = (qty: number): OrderItemInput => ({ productId: 'rope', variantId: 'rope-l', qty });

describe('priceOrder: lines', () => {
  it('prices each item at its variant price, and a one-variant product needs no variantId', () => {
    const price = priceOrder(anOrderInput({ items: [ropeL(2), { productId: 'bowl', qty: 3 }] }));
    expect(price.problems).toEqual([]);
    expect(price.lines).toEqual([
      {
        productId: 'rope',
        variantId: 'rope-l',
        name: 'Chew rope',
        variant: 'Large',
        qty: 2,
        unitCents: 12000,
        lineCents: 24000,
        available: 5,
      },
      {
        productId: 'bowl',
        variantId: 'bowl-1',
        name: 'Steel bowl',
        variant: 'One size',
        qty: 3,
        unitCents: 15000,
        lineCents: 45000,
        available: 3,
      },
    ]);
    expect(price).toMatchObject({
      subtotalCents: 69000,
      discountCents: 0,
      deliveryFeeCents: 0,
      totalCents: 69000,
    });
  });

  it('says how many are left and what to do when the quantity is more than the stock', () => {
    const price = priceOrder(anOrderInput({ items: [ropeL(7)] }));
    expect(price.lines).toEqual([]);
    expect(price.problems).toEqual([
      {
        index: 0,
        productId: 'rope',
        variantId: 'rope-l',
        code: 'NOT_ENOUGH_STOCK',
        message: 'Only 5 left of Chew rope (Large). Lower the quantity to 5 or choose Small instead.',
        available: 5,
      },
    ]);
  });

  it('offers no other option when none has enough stock', () => {
    const products = aCatalogue();
    products[0]!.variants[0]!.stock = 1;
    const price = priceOrder(anOrderInput({ products, items: [ropeL(6)] }));
    expect(price.problems[0]!.message).toBe('Only 5 left of Chew rope (Large). Lower the quantity to 5.');
  });

  it('calls a variant with no stock sold out, even for one', () => {
    const products = aCatalogue();
    products[0]!.variants[1]!.stock = 0;
    const price = priceOrder(anOrderInput({ products, items: [ropeL(1)] }));
    expect(price.problems).toEqual([
      expect.objectContaining({
        code: 'SOLD_OUT',
        available: 0,
        message: 'Chew rope (Large) is sold out. Choose Small instead, or remove it from the order.',
      }),
    ]);
  });

  it('asks which variant when a product has several, naming them with prices', () => {
    const price = priceOrder(anOrderInput({ items: [{ productId: 'rope', qty: 1 }] }));
    expect(price.problems).toEqual([
      {
        index: 0,
        productId: 'rope',
        variantId: null,
        code: 'VARIANT_REQUIRED',
        message: 'Chew rope comes as Small (R80) or Large (R120): say which one.',
        available: null,
      },
    ]);
  });

  it.each<[string, OrderItemInput, string]>([
    ['an unknown product', { productId: 'ball', qty: 1 }, 'UNKNOWN_PRODUCT'],
    ['an unknown variant', { productId: 'rope', variantId: 'rope-xl', qty: 1 }, 'UNKNOWN_VARIANT'],
  ])('reports %s by the index of the item, and still prices the rest', (_, item, code) => {
    const price = priceOrder(anOrderInput({ items: [ropeL(1), item] }));
    expect(price.problems).toEqual([
      expect.objectContaining({
        index: 1,
        productId: item.productId,
        variantId: item.variantId ?? null,
        code,
      }),
    ]);
    expect(price.lines.map((l) => l.variantId)).toEqual(['rope-l']);
    expect(price.subtotalCents).toBe(12000);
  });

  it('reports the same variant twice on the second, also when one names it and one does not', () => {
    const price = priceOrder(
      anOrderInput({
        items: [{ productId: 'bowl', qty: 1 }, ropeL(1), { productId: 'bowl', variantId: 'bowl-1', qty: 2 }],
      }),
    );
    expect(price.lines.map((l) => [l.variantId, l.qty])).toEqual([
      ['bowl-1', 1],
      ['rope-l', 1],
    ]);
    expect(price.problems).toEqual([
      {
        index: 2,
        productId: 'bowl',
        variantId: 'bowl-1',
        code: 'DUPLICATE_ITEM',
        message: 'Steel bowl is in the order twice. List it once, with the whole quantity.',
        available: 3,
      },
    ]);
  });

  it('refuses a quantity that is not a positive whole number (a caller bug: the edge checks it)', () => {
    expect(() => priceOrder(anOrderInput({ items: [ropeL(0)] }))).toThrow(RangeError);
    expect(() => priceOrder(anOrderInput({ items: [ropeL(1.5)] }))).toThrow(RangeError);
  });

  it('refuses an unknown currency', () => {
    expect(() => priceOrder(anOrderInput({ currency: 'XXX' }))).toThrow(PricingError);
  });
});

describe('priceOrder: discount codes', () => {
  const withCode = (discount: DiscountCodeRule | null, over: Partial<PriceOrderInput> = {}) =>
    priceOrder(anOrderInput({ items: [ropeL(2)], discountCode: 'woof10', discount, ...over }));

  it('takes a percentage off the goods, comparing the code in any case', () => {
    const price = withCode(aDiscount());
    expect(price).toMatchObject({
      subtotalCents: 24000,
      discountCents: 2400,
      totalCents: 21600,
      discount: { code: 'WOOF10', description: '10% off your first order' },
      discountError: null,
    });
  });

  it.each<[string, number, number, number]>([
    // 50 × 29% = 14.5 exactly; 50 * 0.29 in floating point is 14.4999…, which would round down.
    ['ZAR, an exact half rounds up', 50, 29, 15],
    ['ZAR, below half rounds down', 4049, 15, 607],
    ['JPY (no minor units), an exact half rounds up to the yen', 1010, 5, 51],
    ['JPY, below half rounds down', 1009, 5, 50],
  ])('rounds a percentage half up to the minor unit: %s', (_, unitCents, percent, expected) => {
    const currency = _.startsWith('JPY') ? 'JPY' : 'ZAR';
    const price = priceOrder(
      anOrderInput({
        currency,
        products: [
          { id: 'p', name: 'Treats', variants: [{ id: 'v', label: '1', priceCents: unitCents, stock: 9 }] },
        ],
        items: [{ productId: 'p', qty: 1 }],
        discountCode: 'X',
        discount: aDiscount({ code: 'X', percent }),
      }),
    );
    expect(price.discountCents).toBe(expected);
  });

  it('caps a fixed amount at the goods, and never takes it off delivery', () => {
    const price = withCode(aDiscount({ kind: 'FIXED', percent: null, amountCents: 50000 }), {
      delivery: { method: 'courier', province: 'WC' },
    });
    expect(price).toMatchObject({
      subtotalCents: 24000,
      discountCents: 24000,
      deliveryFeeCents: 15000,
      totalCents: 15000,
    });
  });

  it('counts only the priced lines', () => {
    const price = priceOrder(
      anOrderInput({ items: [ropeL(2), ropeL(9)], discountCode: 'WOOF10', discount: aDiscount() }),
    );
    expect(price).toMatchObject({ subtotalCents: 24000, discountCents: 2400 });
  });

  it('gives no discount and no error when no code was typed, whatever row is passed', () => {
    expect(withCode(aDiscount(), { discountCode: null })).toMatchObject({
      discountCents: 0,
      discount: null,
      discountError: null,
    });
    expect(withCode(aDiscount(), { discountCode: '  ' })).toMatchObject({
      discountCents: 0,
      discount: null,
      discountError: null,
    });
  });

  const may1 = new Date('2026-05-01T08:00:00Z');
  it.each<[string, DiscountCodeRule | null, string]>([
    ['no such code', null, 'UNKNOWN_CODE'],
    ['the row of another code', aDiscount({ code: 'MEOW5' }), 'UNKNOWN_CODE'],
    ['a code that starts later', aDiscount({ startsAt: new Date(may1.getTime() + 1) }), 'NOT_STARTED'],
    ['a code that ended at this very moment', aDiscount({ endsAt: may1 }), 'EXPIRED'],
    ['a code used as often as allowed', aDiscount({ maxUses: 3, used: 3 }), 'USED_UP'],
  ])('refuses %s, and the order is priced without it', (_, rule, code) => {
    const price = withCode(rule, { now: may1 });
    expect(price.discountError?.code).toBe(code);
    expect(price.discountError?.message).toMatch(/without it/);
    expect(price).toMatchObject({ discountCents: 0, discount: null, totalCents: 24000 });
  });

  it('accepts a code from its start to just before its end, with uses left', () => {
    const rule = aDiscount({ startsAt: may1, endsAt: new Date(may1.getTime() + 1), maxUses: 3, used: 2 });
    expect(withCode(rule, { now: may1 }).discountCents).toBe(2400);
  });

  it('names the minimum spend and what is missing, comparing the subtotal', () => {
    const short = withCode(aDiscount({ minSpendCents: 24001 }));
    expect(short.discountError).toEqual({
      code: 'MIN_SPEND',
      message:
        'The code WOOF10 needs an order of at least R240.01; this one comes to R240. Add R0.01 more, or order without it.',
      minSpendCents: 24001,
    });
    expect(withCode(aDiscount({ minSpendCents: 24000 })).discountCents).toBe(2400);
  });
});

describe('priceOrder: delivery', () => {
  const deliver = (delivery: DeliveryChoice, over: Partial<PriceOrderInput> = {}) =>
    priceOrder(anOrderInput({ items: [ropeL(2)], delivery, ...over }));

  it('prices the courier by province', () => {
    expect(deliver({ method: 'courier', province: 'GP' })).toMatchObject({
      deliveryFeeCents: 9900,
      totalCents: 33900,
    });
    expect(deliver({ method: 'courier', province: 'WC', postalCode: '0081' }).deliveryFeeCents).toBe(15000);
  });

  it('needs a province for the courier', () => {
    const price = deliver({ method: 'courier', postalCode: '8001' });
    expect(price.shippingError).toEqual({
      code: 'PROVINCE_NEEDED',
      message: 'Courier is priced by province: give the province or the postal code of the delivery address.',
    });
    expect(price).toMatchObject({ deliveryFeeCents: null, totalCents: 24000 });
  });

  it('refuses a province that is not South African', () => {
    const price = deliver({ method: 'courier', province: 'toString' as Province });
    expect(price.shippingError?.code).toBe('NOT_IN_COUNTRY');
    expect(price.deliveryFeeCents).toBeNull();
  });

  it('prices the van by postal code', () => {
    expect(deliver({ method: 'local', postalCode: ' 0081 ' })).toMatchObject({
      deliveryFeeCents: 5000,
      shippingError: null,
    });
  });

  it('needs a postal code for the van', () => {
    expect(deliver({ method: 'local', province: 'GP' }).shippingError?.code).toBe('POSTAL_CODE_NEEDED');
    expect(deliver({ method: 'local', postalCode: '' }).shippingError?.code).toBe('POSTAL_CODE_NEEDED');
  });

  it('sends a person outside the van area to the courier, with its fee when the province is known', () => {
    expect(deliver({ method: 'local', postalCode: '8001', province: 'WC' }).shippingError).toEqual({
      code: 'NOT_LOCAL',
      message:
        'Our van does not reach postal code 8001. Choose courier instead: Courier, 2 to 4 working days, R150 to the Western Cape.',
    });
    expect(deliver({ method: 'local', postalCode: 'constructor' })).toMatchObject({
      deliveryFeeCents: null,
      shippingError: { code: 'NOT_LOCAL' },
    });
  });

  it('brings a visit order free', () => {
    expect(deliver({ method: 'visit' })).toMatchObject({
      deliveryFeeCents: 0,
      shippingError: null,
      totalCents: 24000,
    });
  });

  it('delivers free from the threshold, measured after the discount', () => {
    const options = someDeliveryOptions();
    options.courier.freeFromCents = 21600;
    const gp: DeliveryChoice = { method: 'courier', province: 'GP' };
    // 24000 less 10% is 21600: exactly the threshold.
    expect(deliver(gp, { options, discountCode: 'WOOF10', discount: aDiscount() }).deliveryFeeCents).toBe(0);
    options.courier.freeFromCents = 21601;
    expect(deliver(gp, { options, discountCode: 'WOOF10', discount: aDiscount() }).deliveryFeeCents).toBe(
      9900,
    );
    // Without the code the goods are above it.
    expect(deliver(gp, { options }).deliveryFeeCents).toBe(0);
  });

  it('never makes the van free when it has no threshold', () => {
    const options = someDeliveryOptions();
    options.local.freeFromCents = null;
    expect(
      deliver({ method: 'local', postalCode: '0181' }, { options, items: [ropeL(5)] }).deliveryFeeCents,
    ).toBe(5000);
  });
});

// Properties over random catalogues, orders, codes and delivery choices.
const provinces: Province[] = ['EC', 'FS', 'GP', 'KZN', 'LP', 'MP', 'NC', 'NW', 'WC'];

const catalogueArb = fc
  .array(
    fc.array(
      fc.record({ priceCents: fc.integer({ min: 1, max: 500_000 }), stock: fc.integer({ min: 0, max: 20 }) }),
      { minLength: 0, maxLength: 3 },
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((products): CatalogueProduct[] =>
    products.map((variants, p) => ({
      id: `p${p}`,
      name: `Product ${p}`,
      variants: variants.map((v, n) => ({ id: `p${p}-v${n}`, label: `Size ${n}`, ...v })),
    })),
  );

/** Items over distinct products (some unknown, some without a variant): no duplicates, whose priced line depends on order. */
const itemsArb = fc.uniqueArray(
  fc.record({
    product: fc.integer({ min: 0, max: 7 }),
    variant: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    qty: fc.integer({ min: 1, max: 25 }),
  }),
  { selector: (i) => i.product, maxLength: 8 },
);

const discountArb = fc.option(
  fc.oneof(
    fc.integer({ min: 1, max: 100 }).map((percent) => aDiscount({ percent })),
    fc
      .integer({ min: 1, max: 2_000_000 })
      .map((amountCents) => aDiscount({ kind: 'FIXED', percent: null, amountCents })),
  ),
  { nil: null },
);

const deliveryArb: fc.Arbitrary<DeliveryChoice> = fc.oneof(
  fc.record({
    method: fc.constant('courier' as const),
    province: fc.option(fc.constantFrom(...provinces), { nil: null }),
  }),
  fc.record({
    method: fc.constant('local' as const),
    postalCode: fc.option(fc.constantFrom('0081', '0181', '8001'), { nil: null }),
  }),
  fc.constant({ method: 'visit' as const }),
);

const orderArb = fc
  .record({
    products: catalogueArb,
    items: itemsArb,
    discount: discountArb,
    minSpendCents: fc.integer({ min: 0, max: 200_000 }),
    delivery: deliveryArb,
    currency: fc.constantFrom('ZAR', 'JPY', 'BHD'),
  })
  .map(
    ({ products, items, discount, minSpendCents, delivery, currency }): PriceOrderInput =>
      anOrderInput({
        products,
        currency,
        items: items.map((i) => ({
          productId: `p${i.product}`,
          variantId: i.variant === undefined ? undefined : `p${i.product}-v${i.variant}`,
          qty: i.qty,
        })),
        discountCode: discount ? 'woof10' : null,
        discount: discount ? { ...discount, minSpendCents } : null,
        delivery,
      }),
  );

describe('priceOrder: properties', () => {
  it('totals the goods less the discount plus any known delivery fee', () => {
    fc.assert(
      fc.property(orderArb, (input) => {
        const p = priceOrder(input);
        expect(p.totalCents).toBe(p.subtotalCents - p.discountCents + (p.deliveryFeeCents ?? 0));
        expect(p.subtotalCents).toBe(p.lines.reduce((s, l) => s + l.unitCents * l.qty, 0));
        expect(p.deliveryFeeCents === null).toBe(p.shippingError !== null);
      }),
    );
  });

  it('keeps the discount between zero and the subtotal', () => {
    fc.assert(
      fc.property(orderArb, (input) => {
        const p = priceOrder(input);
        expect(p.discountCents).toBeGreaterThanOrEqual(0);
        expect(p.discountCents).toBeLessThanOrEqual(p.subtotalCents);
        if (p.discountError) expect(p.discountCents).toBe(0);
      }),
    );
  });

  it('prices an item if and only if it has no problem', () => {
    fc.assert(
      fc.property(orderArb, (input) => {
        const p = priceOrder(input);
        const problemAt = new Set(p.problems.map((q) => q.index));
        expect(problemAt.size).toBe(p.problems.length);
        const pricedAt = input.items.flatMap((_, i) => (problemAt.has(i) ? [] : [i]));
        expect(p.lines.map((l) => [l.productId, l.qty])).toEqual(
          pricedAt.map((i) => [input.items[i]!.productId, input.items[i]!.qty]),
        );
        for (const line of p.lines) expect(line.qty).toBeLessThanOrEqual(line.available);
      }),
    );
  });

  it('gives the same totals whatever the order of the items', () => {
    fc.assert(
      fc.property(orderArb, fc.integer(), (input, seed) => {
        const shuffled = [...input.items]
          .map((item, n) => ({ item, key: Math.imul(n + 1, seed | 1) ^ (seed >>> 3) }))
          .sort((a, b) => a.key - b.key)
          .map((x) => x.item);
        const a = priceOrder(input);
        const b = priceOrder({ ...input, items: shuffled });
        const totals = (p: typeof a) => [p.subtotalCents, p.discountCents, p.deliveryFeeCents, p.totalCents];
        expect(totals(b)).toEqual(totals(a));
        expect(b.problems.map((q) => q.code).sort()).toEqual(a.problems.map((q) => q.code).sort());
      }),
    );
  });

  it('rounds a percentage half up in whole minor units', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9_999_999 }),
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom('ZAR', 'JPY'),
        (unitCents, percent, currency) => {
          const p = priceOrder(
            anOrderInput({
              currency,
              products: [
                { id: 'p', name: 'P', variants: [{ id: 'v', label: 'v', priceCents: unitCents, stock: 1 }] },
              ],
              items: [{ productId: 'p', qty: 1 }],
              discountCode: 'x',
              discount: aDiscount({ code: 'X', percent }),
            }),
          );
          // Exact in integers: discount d is half up of unitCents × percent / 100 iff
          // 100·d − 50 ≤ unitCents × percent < 100·d + 50.
          const hundredths = unitCents * percent;
          expect(Number.isInteger(p.discountCents)).toBe(true);
          expect(100 * p.discountCents - 50).toBeLessThanOrEqual(hundredths);
          expect(hundredths).toBeLessThan(100 * p.discountCents + 50);
        },
      ),
    );
  });
});
