import { bench, describe } from 'vitest';
import { type CatalogueProduct, type OrderItemInput, priceOrder } from './order.js';
import { aDiscount, someDeliveryOptions } from './test-utils.js';

// A shop of 200 products with 3 variants each, and a full basket of 20 items (two with problems).
const products: CatalogueProduct[] = Array.from({ length: 200 }, (_, p) => ({
  id: `p${p}`,
  name: `Product ${p}`,
  variants: ['Small', 'Medium', 'Large'].map((label, n) => ({
    id: `p${p}-${n}`,
    label,
    priceCents: 5000 + 2500 * n + p,
    stock: (p + n) % 7,
  })),
}));
const items: OrderItemInput[] = Array.from({ length: 20 }, (_, i) => ({
  productId: `p${i * 9}`,
  variantId: `p${i * 9}-${i % 3}`,
  qty: 1 + (i % 3),
}));

describe('pricing a shop order', () => {
  bench('20 items of 200 products, a percentage code, courier', () => {
    priceOrder({
      items,
      products,
      currency: 'ZAR',
      discountCode: 'woof10',
      discount: aDiscount({ minSpendCents: 20000 }),
      delivery: { method: 'courier', province: 'KZN' },
      options: someDeliveryOptions(),
      now: new Date('2026-05-01T08:00:00Z'),
    });
  });
});
