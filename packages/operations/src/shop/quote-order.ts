import { formatMoney } from '@nogpets/pricing-tiers';
import { z } from 'zod';
import { defineOperation, READ_ONLY } from '../core/index.js';
import { OrderRequestShape, type PricedOrder, priceOrderRequest } from './price-order.js';
import {
  DiscountErrorSchema,
  deliveryText,
  linesOf,
  OrderLineSchema,
  OrderProblemSchema,
  type OpenShop,
  openShop,
  ShippingErrorSchema,
  ShippingMethodSchema,
} from './shop-model.js';

const money = z.string();

export const OrderQuoteSchema = z
  .object({
    lines: z.array(OrderLineSchema).meta({ description: 'The items that can be bought as asked, priced.' }),
    subtotalCents: z.int(),
    subtotal: money,
    discountCode: z.string().nullable().meta({ description: 'The code as applied (upper case), or null.' }),
    discountCents: z.int(),
    discount: money,
    discountText: z.string().nullable().meta({ description: 'What the applied code gives, in words.' }),
    shippingMethod: ShippingMethodSchema,
    deliveryFeeCents: z
      .int()
      .nullable()
      .meta({ description: 'Null while the delivery cannot be priced (see shippingError).' }),
    deliveryFee: money.nullable(),
    delivery: z.string().meta({ description: 'How it travels, in words.' }),
    totalCents: z.int().meta({ description: 'Subtotal less discount plus the delivery fee (when known).' }),
    total: money,
    currency: z.string(),
    problems: z.array(OrderProblemSchema).meta({
      description:
        'Items that cannot be bought as asked (sold out, too few left, unknown); empty when all can.',
    }),
    discountError: DiscountErrorSchema.nullable().meta({
      description: 'Why the code does not apply; null when it does or none was given.',
    }),
    shippingError: ShippingErrorSchema.nullable().meta({
      description: 'Why it cannot be delivered this way; null when it can.',
    }),
    canBuy: z.boolean().meta({ description: 'True when buy would take this order as it is.' }),
    next: z.string(),
  })
  .meta({
    id: 'OrderQuote',
    description:
      'What an order would cost: lines, delivery fee, discount and total, with every problem reported rather than refused.',
  });

export type OrderQuote = z.infer<typeof OrderQuoteSchema>;

/** A priced order as the person is shown it (quote_order, and buy's refusals and summary). */
export function quoteOf(
  shop: OpenShop,
  input: { shippingMethod: 'courier' | 'local' | 'visit' },
  priced: PricedOrder,
): OrderQuote {
  const { price, shippingError } = priced;
  const currency = shop.business.currency;
  const m = (cents: number) => formatMoney(cents, currency);
  const fee = shippingError ? null : price.deliveryFeeCents;
  const totalCents = price.subtotalCents - price.discountCents + (fee ?? 0);
  const canBuy =
    price.problems.length === 0 && !price.discountError && !shippingError && price.lines.length > 0;
  const fixes = [
    price.problems.length ? 'change or drop the items in `problems`' : '',
    price.discountError ? 'drop or correct the discount code' : '',
    shippingError ? 'see `shippingError` for the delivery' : '',
  ].filter(Boolean);
  return {
    lines: linesOf(price, currency),
    subtotalCents: price.subtotalCents,
    subtotal: m(price.subtotalCents),
    discountCode: price.discount?.code ?? null,
    discountCents: price.discountCents,
    discount: m(price.discountCents),
    discountText: price.discount?.description ?? null,
    shippingMethod: input.shippingMethod,
    deliveryFeeCents: fee,
    deliveryFee: fee === null ? null : m(fee),
    delivery: deliveryText(
      input.shippingMethod,
      shop.delivery,
      null,
      priced.booking
        ? { start: priced.booking.start, end: priced.booking.end, timeZone: shop.business.timezone }
        : null,
      { province: priced.province, postalCode: priced.postalCode },
    ),
    totalCents,
    total: m(totalCents),
    currency,
    problems: price.problems,
    discountError: price.discountError,
    shippingError,
    canBuy,
    next: canBuy
      ? `Show the person the lines, the delivery fee and the total of ${m(totalCents)}; buy when they agree.`
      : `Before buying: ${fixes.join('; ')}. Then quote again.`,
  };
}

export const quoteOrder = defineOperation({
  operationId: 'quoteOrder',
  toolName: 'quote_order',
  title: 'Quote a shop order',
  tag: 'Shop',
  mcp: 'person',
  method: 'POST',
  path: '/v1/orders/quote',
  inputIn: 'body',
  auth: 'public',
  description:
    'What an order from the shop would cost, without buying: the lines, the delivery fee, the discount and the total. ' +
    '`items` from browse_shop (`productId`, `variantId` when the product has several, `qty`), a `shippingMethod` ' +
    '(`courier` anywhere in South Africa: give `postalCode`, whose province sets the fee, or only `province` before ' +
    'the address is known; `local`: give `postalCode`; `visit`: free ' +
    "with one of the person's upcoming bookings, give `bookingId`, needs their credential), and a `discountCode` if " +
    'they have one. It never refuses for stock, a bad code or a place we cannot deliver to: it reports them in ' +
    '`problems`, `discountError` and `shippingError`, with what to do. `canBuy` says whether buy would take it.',
  input: z.object(OrderRequestShape).strict(),
  output: OrderQuoteSchema,
  successStatus: 200,
  errors: [
    {
      status: 400,
      description:
        'Malformed items, an unknown method, a bound passed, or a province that contradicts the postal code.',
    },
    { status: 409, description: 'SHOP_OFF: the shop is closed just now.' },
    { status: 429, description: 'Too many requests.' },
  ],
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const shop = await openShop(ctx.deps.sql);
    return quoteOf(shop, input, await priceOrderRequest(ctx, ctx.deps.sql, shop, input));
  },
});
