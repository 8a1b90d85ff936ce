import { formatMoney } from './format-money.js';
import { minorUnits } from './minor-units.js';

/** South African provinces, ISO 3166-2:ZA codes without the `ZA-` prefix. */
export type Province = 'EC' | 'FS' | 'GP' | 'KZN' | 'LP' | 'MP' | 'NC' | 'NW' | 'WC';

/** How a shop order reaches the person: a courier, the shop's own van, or with their next booking. */
export type ShippingMethod = 'courier' | 'local' | 'visit';

/** The shop's delivery offer (its settings). Amounts are in minor units of the shop's currency. */
export interface DeliveryOptions {
  /** Anywhere in the country; the fee depends on the province. */
  courier: {
    label: string;
    days: string;
    feesByProvince: Record<Province, number>;
    freeFromCents: number | null;
  };
  /** The shop's own van; the fee depends on the 4-digit postal code, and only listed codes are served. */
  local: { label: string; days: string; postalCodes: Record<string, number>; freeFromCents: number | null };
  /** Rides with the person's next booking; always free. */
  visit: { label: string; days: string };
}

/** One item asked for. `variantId` may be left out when the product has a single variant. */
export interface OrderItemInput {
  productId: string;
  variantId?: string | undefined;
  qty: number;
}

export interface CatalogueVariant {
  id: string;
  label: string;
  priceCents: number;
  stock: number;
}

export interface CatalogueProduct {
  id: string;
  name: string;
  variants: CatalogueVariant[];
}

/** A discount code as stored (`code` upper case). */
export interface DiscountCodeRule {
  code: string;
  kind: 'PERCENT' | 'FIXED';
  percent: number | null;
  amountCents: number | null;
  minSpendCents: number;
  startsAt: Date | null;
  endsAt: Date | null;
  maxUses: number | null;
  used: number;
  description: string;
}

export type OrderProblemCode =
  | 'UNKNOWN_PRODUCT'
  | 'UNKNOWN_VARIANT'
  | 'VARIANT_REQUIRED'
  | 'SOLD_OUT'
  | 'NOT_ENOUGH_STOCK'
  | 'DUPLICATE_ITEM';

/** Why the item at `index` of the input was not priced. `available` is the variant's stock, when known. */
export interface OrderProblem {
  index: number;
  productId: string;
  variantId: string | null;
  code: OrderProblemCode;
  message: string;
  available: number | null;
}

export type DiscountErrorCode = 'UNKNOWN_CODE' | 'NOT_STARTED' | 'EXPIRED' | 'USED_UP' | 'MIN_SPEND';

/** An item priced: `variant` is the variant's label, `available` its stock before this order. */
export interface PricedLine {
  productId: string;
  variantId: string;
  name: string;
  variant: string;
  qty: number;
  unitCents: number;
  lineCents: number;
  available: number;
}

/**
 * Where the order goes. `province` is resolved by the caller: the postal code's (a stated province
 * that contradicts it is the caller's to refuse), or a stated one when there is no postal code;
 * `courier` reads only `province`, `local` only `postalCode`.
 */
export interface DeliveryChoice {
  method: ShippingMethod;
  province?: Province | null;
  postalCode?: string | null;
}

/** `BOOKING_NEEDED` is reported by the caller (a `visit` needs a booking); `priceOrder` never does. */
export type ShippingErrorCode =
  | 'PROVINCE_NEEDED'
  | 'POSTAL_CODE_NEEDED'
  | 'NOT_LOCAL'
  | 'NOT_IN_COUNTRY'
  | 'BOOKING_NEEDED';

export interface OrderPrice {
  lines: PricedLine[];
  problems: OrderProblem[];
  subtotalCents: number;
  discountCents: number;
  /** null when the delivery cannot be priced (see `shippingError`); the total then excludes it. */
  deliveryFeeCents: number | null;
  totalCents: number;
  discount: { code: string; description: string } | null;
  discountError: { code: DiscountErrorCode; message: string; minSpendCents?: number } | null;
  shippingError: { code: ShippingErrorCode; message: string } | null;
}

export interface PriceOrderInput {
  items: OrderItemInput[];
  products: CatalogueProduct[];
  currency: string;
  /** The code the person typed (any case), or nothing. */
  discountCode?: string | null;
  /** The stored row found for `discountCode`, or null when there is none. */
  discount: DiscountCodeRule | null;
  delivery: DeliveryChoice;
  options: DeliveryOptions;
  now: Date;
}

/** Each province's name as it reads in a sentence ("to the Western Cape", "to Gauteng"). */
export const PROVINCE_NAMES: Readonly<Record<Province, string>> = {
  EC: 'the Eastern Cape',
  FS: 'the Free State',
  GP: 'Gauteng',
  KZN: 'KwaZulu-Natal',
  LP: 'Limpopo',
  MP: 'Mpumalanga',
  NC: 'the Northern Cape',
  NW: 'North West',
  WC: 'the Western Cape',
};

/** A record's own entry: JSON from the settings must not answer `constructor` or `toString`. */
function own<V>(record: Record<string, V>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function listInWords(items: string[], last = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`;
}

/**
 * Prices a shop order: each item against the catalogue and its stock, then the discount code on
 * the subtotal of the priced lines, then delivery. Never throws for the person's choices: items
 * that cannot be sold are listed in `problems` (in input order, with a message saying what to do)
 * and left out of `lines`; a discount or delivery that does not apply is reported in
 * `discountError` / `shippingError`. Throws a `PricingError` (`UNKNOWN_CURRENCY`) for an unknown
 * currency and a `RangeError` for a quantity that is not a positive whole number (the edge checks
 * both). Amounts are minor units of `currency` (cents; yen for JPY).
 *
 * `totalCents = subtotalCents - discountCents + (deliveryFeeCents ?? 0)`.
 *
 * @example
 * priceOrder({
 *   items: [{ productId: 'rope', variantId: 'rope-l', qty: 2 }],
 *   products: [{ id: 'rope', name: 'Chew rope', variants: [{ id: 'rope-l', label: 'Large', priceCents: 12000, stock: 5 }] }],
 *   currency: 'ZAR', discountCode: 'woof10', discount: woof10, // PERCENT 10
 *   delivery: { method: 'courier', province: 'GP' }, options, now,
 * });
 * // { subtotalCents: 24000, discountCents: 2400, deliveryFeeCents: 9900, totalCents: 31500, ... }
 */
export function priceOrder(input: PriceOrderInput): OrderPrice {
  // Fails fast on a currency nobody can format, before any message needs it.
  minorUnits(input.currency);
  const money = (cents: number) => formatMoney(cents, input.currency);

  const { lines, problems } = priceItems(input.items, input.products, money);
  const subtotalCents = lines.reduce((sum, line) => sum + line.lineCents, 0);

  const discounted = applyDiscount(input, subtotalCents, money);
  const discountCents = discounted.ok ? discounted.cents : 0;
  const shipping = deliveryFee(input.delivery, input.options, subtotalCents - discountCents, money);
  const deliveryFeeCents = shipping.ok ? shipping.cents : null;

  return {
    lines,
    problems,
    subtotalCents,
    discountCents,
    deliveryFeeCents,
    totalCents: subtotalCents - discountCents + (deliveryFeeCents ?? 0),
    discount: discounted.ok ? discounted.discount : null,
    discountError: discounted.ok ? null : discounted.error,
    shippingError: shipping.ok ? null : shipping.error,
  };
}

function priceItems(
  items: OrderItemInput[],
  products: CatalogueProduct[],
  money: (cents: number) => string,
): { lines: PricedLine[]; problems: OrderProblem[] } {
  const byId = new Map(products.map((p) => [p.id, p]));
  const seen = new Set<string>();
  const lines: PricedLine[] = [];
  const problems: OrderProblem[] = [];

  items.forEach((item, index) => {
    if (!Number.isSafeInteger(item.qty) || item.qty < 1) {
      throw new RangeError(`Item ${index}: qty must be a whole number of at least 1 (got ${item.qty}).`);
    }
    const problem = (
      code: OrderProblemCode,
      message: string,
      variant: CatalogueVariant | null = null,
    ): void => {
      problems.push({
        index,
        productId: item.productId,
        variantId: variant?.id ?? item.variantId ?? null,
        code,
        message,
        available: variant ? variant.stock : null,
      });
    };

    const product = byId.get(item.productId);
    if (!product) {
      problem(
        'UNKNOWN_PRODUCT',
        `The shop has no product "${item.productId}" (it may have been taken off the shelf). Remove it from the order or search the shop again.`,
      );
      return;
    }
    const options = () =>
      listInWords(
        product.variants.map((v) => `${v.label} (${money(v.priceCents)})`),
        'or',
      );
    let variant: CatalogueVariant | undefined;
    if (item.variantId != null) {
      variant = product.variants.find((v) => v.id === item.variantId);
      if (!variant) {
        problem(
          'UNKNOWN_VARIANT',
          product.variants.length > 0
            ? `${product.name} has no option "${item.variantId}". Choose ${options()}.`
            : `${product.name} is not available at the moment; remove it from the order.`,
        );
        return;
      }
    } else if (product.variants.length === 1) {
      variant = product.variants[0]!;
    } else if (product.variants.length === 0) {
      // A product with nothing to choose from is as good as sold out.
      problem('SOLD_OUT', `${product.name} is sold out; remove it from the order.`);
      return;
    } else {
      problem('VARIANT_REQUIRED', `${product.name} comes as ${options()}: say which one.`);
      return;
    }

    const name = product.variants.length > 1 ? `${product.name} (${variant.label})` : product.name;
    if (seen.has(variant.id)) {
      problem(
        'DUPLICATE_ITEM',
        `${name} is in the order twice. List it once, with the whole quantity.`,
        variant,
      );
      return;
    }
    seen.add(variant.id);

    const chosen = variant;
    const others = product.variants
      .filter((v) => v.id !== chosen.id && v.stock >= item.qty)
      .map((v) => v.label);
    const instead = others.length > 0 ? ` or choose ${listInWords(others, 'or')} instead` : '';
    if (variant.stock <= 0) {
      problem(
        'SOLD_OUT',
        others.length > 0
          ? `${name} is sold out. Choose ${listInWords(others, 'or')} instead, or remove it from the order.`
          : `${name} is sold out; remove it from the order.`,
        variant,
      );
      return;
    }
    if (item.qty > variant.stock) {
      problem(
        'NOT_ENOUGH_STOCK',
        `Only ${variant.stock} left of ${name}. Lower the quantity to ${variant.stock}${instead}.`,
        variant,
      );
      return;
    }
    lines.push({
      productId: product.id,
      variantId: variant.id,
      name: product.name,
      variant: variant.label,
      qty: item.qty,
      unitCents: variant.priceCents,
      lineCents: variant.priceCents * item.qty,
      available: variant.stock,
    });
  });
  return { lines, problems };
}

type Discounted =
  | { ok: true; cents: number; discount: OrderPrice['discount'] }
  | { ok: false; error: NonNullable<OrderPrice['discountError']> };

function applyDiscount(
  input: PriceOrderInput,
  subtotalCents: number,
  money: (cents: number) => string,
): Discounted {
  const typed = input.discountCode?.trim().toUpperCase() ?? '';
  if (typed === '') return { ok: true, cents: 0, discount: null };
  const rule = input.discount;
  const fail = (code: DiscountErrorCode, message: string, minSpendCents?: number): Discounted => ({
    ok: false,
    error: minSpendCents === undefined ? { code, message } : { code, message, minSpendCents },
  });
  // Codes are stored upper case and typed in any case.
  if (!rule || rule.code.toUpperCase() !== typed) {
    return fail(
      'UNKNOWN_CODE',
      `"${typed}" is not a discount code of this shop. Check the spelling, or order without it.`,
    );
  }
  const now = input.now.getTime();
  if (rule.startsAt && now < rule.startsAt.getTime()) {
    return fail(
      'NOT_STARTED',
      `The code ${rule.code} can be used from ${rule.startsAt.toISOString().slice(0, 10)}; order without it or wait until then.`,
    );
  }
  // `endsAt` is the first moment the code no longer works.
  if (rule.endsAt && now >= rule.endsAt.getTime()) {
    return fail('EXPIRED', `The code ${rule.code} has expired; order without it.`);
  }
  if (rule.maxUses !== null && rule.used >= rule.maxUses) {
    return fail('USED_UP', `The code ${rule.code} has been used up; order without it.`);
  }
  if (subtotalCents < rule.minSpendCents) {
    return fail(
      'MIN_SPEND',
      `The code ${rule.code} needs an order of at least ${money(rule.minSpendCents)}; this one comes to ${money(subtotalCents)}. Add ${money(rule.minSpendCents - subtotalCents)} more, or order without it.`,
      rule.minSpendCents,
    );
  }
  const cents =
    rule.kind === 'PERCENT'
      ? // Half up, in whole minor units, with integers only (exact: no 0.1 floating error).
        Math.floor((subtotalCents * (rule.percent ?? 0) + 50) / 100)
      : (rule.amountCents ?? 0);
  // A discount never goes below zero nor above what the goods cost; it never touches delivery.
  return {
    ok: true,
    cents: Math.min(Math.max(cents, 0), subtotalCents),
    discount: { code: rule.code, description: rule.description },
  };
}

type Shipping = { ok: true; cents: number } | { ok: false; error: NonNullable<OrderPrice['shippingError']> };

function deliveryFee(
  delivery: DeliveryChoice,
  options: DeliveryOptions,
  goodsCents: number,
  money: (cents: number) => string,
): Shipping {
  const fail = (code: ShippingErrorCode, message: string): Shipping => ({
    ok: false,
    error: { code, message },
  });
  // Free delivery is earned by what the goods cost after the discount.
  const fee = (cents: number, freeFromCents: number | null): Shipping => ({
    ok: true,
    cents: freeFromCents !== null && goodsCents >= freeFromCents ? 0 : cents,
  });
  switch (delivery.method) {
    case 'visit':
      return { ok: true, cents: 0 };
    case 'courier': {
      const province = delivery.province;
      if (province == null) {
        return fail(
          'PROVINCE_NEEDED',
          `${options.courier.label} is priced by province: give the province or the postal code of the delivery address.`,
        );
      }
      const cents = own(options.courier.feesByProvince, province);
      if (cents === undefined) {
        return fail(
          'NOT_IN_COUNTRY',
          `"${province}" is not a South African province; ${options.courier.label} delivers only within South Africa.`,
        );
      }
      return fee(cents, options.courier.freeFromCents);
    }
    case 'local': {
      const postalCode = delivery.postalCode?.trim() ?? '';
      if (postalCode === '') {
        return fail(
          'POSTAL_CODE_NEEDED',
          `${options.local.label} goes by postal code: give the postal code of the delivery address.`,
        );
      }
      const cents = own(options.local.postalCodes, postalCode);
      if (cents === undefined) {
        const courier = options.courier;
        const province = delivery.province;
        const courierCents = province == null ? undefined : own(courier.feesByProvince, province);
        const courierFee =
          province != null && courierCents !== undefined
            ? `, ${money(courierCents)} to ${own(PROVINCE_NAMES, province) ?? province}`
            : '';
        return fail(
          'NOT_LOCAL',
          `${options.local.label} does not reach postal code ${postalCode}. Choose courier instead: ${courier.label}, ${courier.days}${courierFee}.`,
        );
      }
      return fee(cents, options.local.freeFromCents);
    }
  }
}
