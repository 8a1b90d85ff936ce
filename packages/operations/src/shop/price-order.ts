import { canPay, isActive } from '@nogpets/booking-rules';
import { provinceOfPostalCode } from '@nogpets/coverage-geo';
import { type OrderPrice, PROVINCE_NAMES, type Province, priceOrder } from '@nogpets/pricing-tiers';
import { type BookingRow, findBooking, findDiscountCode, findProducts, type Queryable } from '@nogpets/store';
import { z } from 'zod';
import { stateOf } from '../bookings/index.js';
import { type OperationContext, ServiceError } from '../core/index.js';
import {
  type OpenShop,
  PostalCodeSchema,
  ProvinceSchema,
  type ShippingErrorSchema,
  ShippingMethodSchema,
} from './shop-model.js';

/** A `visit` order is packed for the crew: the booking must start at least this long after the order. */
export const VISIT_PACKING_HOURS = 12;

export const OrderItemSchema = z
  .object({
    productId: z.string().min(1).max(64).meta({ description: 'A product id from browse_shop.' }),
    variantId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .meta({ description: 'One of its variants (size, flavour); needed when it has more than one.' }),
    qty: z.int().min(1).max(99),
  })
  .strict();

/** The fields quote_order and buy share: what, how it travels, and a discount code. */
export const OrderRequestShape = {
  items: z.array(OrderItemSchema).min(1).max(30).meta({ description: 'What to buy: 1 to 30 items.' }),
  shippingMethod: ShippingMethodSchema,
  postalCode: PostalCodeSchema.optional().meta({
    description:
      'Where it goes: for `local` delivery (our van delivers to some postal codes only), and for `courier` the ' +
      'province (and so the fee) follows it. South African postal codes have 4 digits.',
  }),
  province: ProvinceSchema.optional().meta({
    description:
      'For a `courier` quote before the postal code is known: the province it goes to. With a postal code the ' +
      'province follows it; a stated province that contradicts the postal code is refused 400 naming both.',
  }),
  bookingId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .meta({ description: "For `visit`: the person's own upcoming booking the order rides with." }),
  discountCode: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .optional()
    .meta({ description: 'A discount code the person has (any case).' }),
};

export interface OrderRequest {
  items: { productId: string; variantId?: string | undefined; qty: number }[];
  shippingMethod: 'courier' | 'local' | 'visit';
  postalCode?: string | undefined;
  province?: Province | undefined;
  bookingId?: string | undefined;
  discountCode?: string | undefined;
}

type ShippingError = z.infer<typeof ShippingErrorSchema>;

export interface PricedOrder {
  price: OrderPrice;
  /** Our own reason the order cannot travel as asked (visit, a place abroad), else the pure rule's. */
  shippingError: ShippingError | null;
  /** The booking a `visit` order rides with, when it can. */
  booking: BookingRow | null;
  province: Province | null;
  postalCode: string | null;
}

/**
 * Why a `visit` order cannot ride with this booking, or null: it must be the person's own, with the
 * shop's business, still live, and far enough off to pack for the crew.
 */
function visitProblem(
  ctx: OperationContext,
  shop: OpenShop,
  bookingId: string | undefined,
  row: BookingRow | null,
): ShippingError | null {
  // Only a credential that may see the person's bookings or buy for them finds the booking.
  if (!ctx.auth || !ctx.auth.scopes.some((s) => s === 'orders:write' || s === 'bookings:read'))
    return {
      code: 'SIGN_IN_NEEDED',
      message:
        "Delivery with a booking needs the person's permission (a credential with orders:write), so we can see " +
        'their bookings. Or choose courier or local delivery.',
    };
  if (!bookingId)
    return {
      code: 'BOOKING_NEEDED',
      message:
        'Say which booking the order rides with: `bookingId` from list_bookings. Or choose courier or local delivery.',
    };
  const earliest = new Date(ctx.deps.clock.now().getTime() + VISIT_PACKING_HOURS * 3600_000);
  if (
    !row ||
    row.userId !== ctx.auth.userId ||
    row.businessId !== shop.business.id ||
    !isActive(stateOf(row)) ||
    // An unpaid card booking may still lapse: the order would have nothing to ride with.
    canPay(stateOf(row)) ||
    row.start < earliest
  )
    return {
      code: 'BOOKING_NEEDED',
      message:
        `Booking ${bookingId} cannot take the order: it must be one of the person's own live ${shop.business.name} ` +
        `bookings, paid or in cash, starting at least ${VISIT_PACKING_HOURS} hours from now. Choose another from ` +
        'list_bookings (or pay this one first), or courier or local delivery.',
    };
  return null;
}

/**
 * The province an order travels to: the postal code's (coverage-geo's `provinceOfPostalCode`) when
 * one is given, so the courier fee follows where the parcel really goes; a stated province that
 * contradicts it is refused 400 naming both. Without a postal code (a quote before the address is
 * known) the stated province prices the quote; buy always has the postal code of `shipTo`.
 * quote_order and buy both come here, so they cannot disagree.
 */
export function destinationProvince(input: Pick<OrderRequest, 'postalCode' | 'province'>): {
  province: Province | null;
  notInCountry: boolean;
} {
  const postalCode = input.postalCode?.trim();
  if (!postalCode) return { province: input.province ?? null, notInCountry: false };
  const fromCode = provinceOfPostalCode(postalCode);
  if (input.province && fromCode && input.province !== fromCode)
    throw new ServiceError(
      'BAD_REQUEST',
      `Postal code ${postalCode} is in ${PROVINCE_NAMES[fromCode]} (${fromCode}), not ${PROVINCE_NAMES[input.province]} (${input.province}) as stated. Check the address with the person: correct the postal code, or leave out the province (it follows the postal code).`,
      {
        fields: [
          {
            field: 'province',
            message: `Postal code ${postalCode} is in ${fromCode}, not ${input.province}; leave the province out or correct the postal code.`,
          },
        ],
        postalCode,
        province: input.province,
        provinceOfPostalCode: fromCode,
      },
    );
  return { province: fromCode, notInCountry: fromCode === null };
}

/**
 * Gathers what an order is priced from (the products asked for, the discount code, the province or
 * the booking it travels with) and hands it to pricing-tiers' `priceOrder`, which decides.
 */
export async function priceOrderRequest(
  ctx: OperationContext,
  q: Queryable,
  shop: OpenShop,
  input: OrderRequest,
): Promise<PricedOrder> {
  const code = input.discountCode?.trim().toUpperCase();
  const [products, discount, bookingRow] = await Promise.all([
    findProducts(q, shop.business.id, [...new Set(input.items.map((i) => i.productId))]),
    code ? findDiscountCode(q, shop.business.id, code) : Promise.resolve(null),
    input.shippingMethod === 'visit' && input.bookingId && ctx.auth
      ? findBooking(q, input.bookingId)
      : Promise.resolve(null),
  ]);
  let shippingError: ShippingError | null = null;
  let province: Province | null = null;
  if (input.shippingMethod === 'visit') {
    shippingError = visitProblem(ctx, shop, input.bookingId, bookingRow);
  } else {
    const place = destinationProvince(input);
    province = place.province;
    if (input.shippingMethod === 'courier' && place.notInCountry)
      shippingError = {
        code: 'NOT_IN_COUNTRY',
        message: `We deliver only in South Africa, and ${input.postalCode?.trim()} is not a South African postal code. Check it.`,
      };
  }
  const price = priceOrder({
    items: input.items,
    products: products.map((p) => ({ id: p.id, name: p.name, variants: p.variants })),
    currency: shop.business.currency,
    discountCode: code ?? null,
    discount,
    delivery: { method: input.shippingMethod, province, postalCode: input.postalCode?.trim() ?? null },
    options: shop.delivery,
    now: ctx.deps.clock.now(),
  });
  return {
    price,
    shippingError: shippingError ?? price.shippingError,
    booking: shippingError || input.shippingMethod !== 'visit' ? null : bookingRow,
    province,
    postalCode: input.postalCode?.trim() ?? null,
  };
}
