import { MAX_UNPAID_ORDERS, mayOpenUnpaidOrder, orderExpiresAt } from '@nogpets/booking-rules';
import { formatMoney } from '@nogpets/pricing-tiers';
import {
  insertOrder,
  insertOrderPayment,
  listUnpaidOrders,
  lockUnpaidOrdersOf,
  type OrderRow,
  takeDiscountUse,
  takeStock,
  transaction,
} from '@nogpets/store';
import { z } from 'zod';
import {
  actorName,
  auditChange,
  confirmStep,
  defineOperation,
  hashSecret,
  momentText,
  newSecret,
  ServiceError,
} from '../core/index.js';
import { bookingParts, payUrlOf } from '../bookings/index.js';
import { orderFacts, recordEvent, sourceOf } from '../events/index.js';
import { OrderRequestShape, priceOrderRequest } from './price-order.js';
import { type OrderQuote, quoteOf } from './quote-order.js';
import { deliveryText, type OpenShop, OrderSchema, openShop, ShipToSchema, toOrder } from './shop-model.js';

export const BuyRequestSchema = z
  .object({
    ...OrderRequestShape,
    shipTo: ShipToSchema.optional().meta({
      description: 'Where it goes; required unless `shippingMethod` is `visit`.',
    }),
    paymentMethod: z.enum(['CARD', 'CASH']).default('CARD').meta({
      description:
        "CARD (default): a payUrl to pay at. CASH only for a `visit` add-on to the person's own cash booking, with `confirm: true`.",
    }),
    confirm: z.boolean().optional().meta({
      description: 'Required true for CASH, sent only after the person has seen the summary and agreed.',
    }),
  })
  .strict()
  .superRefine((v, c) => {
    if (v.shippingMethod === 'visit') {
      if (v.shipTo)
        c.addIssue({
          code: 'custom',
          path: ['shipTo'],
          message: 'Leave out shipTo: a visit order rides with the booking.',
        });
      if (!v.bookingId)
        c.addIssue({
          code: 'custom',
          path: ['bookingId'],
          message: 'Required for visit: the booking the order rides with.',
        });
    } else {
      if (!v.shipTo)
        c.addIssue({
          code: 'custom',
          path: ['shipTo'],
          message: `Required for ${v.shippingMethod} delivery: where it goes.`,
        });
      if (v.paymentMethod === 'CASH')
        c.addIssue({
          code: 'custom',
          path: ['paymentMethod'],
          message: 'CASH only for visit add-ons to a cash booking; pay by CARD.',
        });
      if (v.postalCode && v.shipTo && v.postalCode.trim() !== v.shipTo.postalCode.trim())
        c.addIssue({
          code: 'custom',
          path: ['postalCode'],
          message: 'Differs from shipTo.postalCode: give one.',
        });
      if (v.province && v.shipTo?.province && v.province !== v.shipTo.province)
        c.addIssue({
          code: 'custom',
          path: ['province'],
          message: 'Differs from shipTo.province: give one.',
        });
    }
  })
  .meta({
    example: {
      items: [{ productId: 'chew-rope', variantId: 'chew-rope-m', qty: 1 }],
      shippingMethod: 'courier',
      shipTo: { line1: '12 Dorp Street', city: 'Stellenbosch', postalCode: '7600' },
      discountCode: 'WELCOME10',
    },
  });

export const BuyResultSchema = OrderSchema.extend({
  payUrl: z.url().optional().meta({
    description: 'Card orders: the order page with its pay button, valid until the order closes (expiresAt).',
  }),
  summary: z.string().meta({ description: 'The order in one sentence, to tell the person.' }),
  next: z.string(),
}).meta({ id: 'OrderResult', description: 'The order as made; card orders carry the payUrl.' });

/** Refuses an order that a quote shows cannot be bought, with the quote's own words and figures. */
function refuseUnbuyable(quote: OrderQuote): void {
  const stock = quote.problems.filter((p) => p.code === 'SOLD_OUT' || p.code === 'NOT_ENOUGH_STOCK');
  if (stock.length)
    throw new ServiceError('OUT_OF_STOCK', stock.map((p) => p.message).join(' '), {
      problems: quote.problems,
      next: 'Change the items as the problems say (browse_shop shows what is left), then quote_order again.',
    });
  if (quote.problems.length)
    throw new ServiceError('BAD_REQUEST', quote.problems.map((p) => p.message).join(' '), {
      problems: quote.problems,
      fields: quote.problems.map((p) => ({ field: `items.${p.index}`, message: p.message })),
    });
  if (quote.discountError)
    throw new ServiceError('DISCOUNT_NOT_VALID', quote.discountError.message, {
      discountError: quote.discountError,
      next: 'Buy without the code, or with another one.',
    });
  if (quote.shippingError)
    throw new ServiceError('CANNOT_DELIVER', quote.shippingError.message, {
      shippingError: quote.shippingError,
    });
}

/**
 * The refusal of a third unpaid card order: the open ones, each with its total, until when it can be
 * paid and how (pay_order, the account page), and that an unpaid order closes by itself.
 */
function tooManyUnpaid(shop: OpenShop, unpaid: OrderRow[]): ServiceError {
  const orders = unpaid.map((o) => ({
    orderId: o.id,
    what: o.lines.map((l) => `${l.qty} × ${l.name} (${l.variantLabel})`).join(', '),
    totalCents: o.totalCents,
    total: formatMoney(o.totalCents, o.currency),
    expiresAt: o.expiresAt!.toISOString(),
    expires: momentText(o.expiresAt!, shop.business.timezone),
  }));
  const list = orders
    .map((o) => `${o.orderId} (${o.what}, ${o.total}, payable until ${o.expires})`)
    .join('; ');
  return new ServiceError(
    'TOO_MANY_UNPAID_ORDERS',
    `The person already has ${orders.length} unpaid orders waiting for payment, the most at once (${MAX_UNPAID_ORDERS}): ${list}. ` +
      'Pay one first (pay_order gives a fresh pay link; the Pay button on the account page does the same), or wait ' +
      'for it to close unpaid at the time shown (its items go back on the shelf); then buy again.',
    {
      limit: MAX_UNPAID_ORDERS,
      unpaidOrders: orders,
      next: 'Offer to pay one of unpaidOrders with pay_order (orderId), then buy again.',
    },
  );
}

function orderSummary(shop: OpenShop, quote: OrderQuote, delivery: string, card: boolean): string {
  const what = quote.lines.map((l) => `${l.qty} × ${l.name} (${l.variant})`).join(', ');
  const discount = quote.discountCents > 0 ? `, less ${quote.discount} (${quote.discountCode})` : '';
  return (
    `${what} from the ${shop.business.name} shop; ${delivery}` +
    `${discount}: ${quote.total} ${card ? 'by card' : 'in cash to the crew at the visit'}.`
  );
}

export const buy = defineOperation({
  operationId: 'buy',
  confirmKind: 'visitOrder',
  toolName: 'buy',
  title: 'Buy from the shop',
  tag: 'Shop',
  mcp: 'person',
  method: 'POST',
  path: '/v1/orders',
  inputIn: 'body',
  auth: { scope: 'orders:write' },
  description:
    'Buys from the shop: the same fields as quote_order, plus `shipTo` (`line1`, `city`, `postalCode`, optional ' +
    '`suburb`, `province`, `notes`) unless `shippingMethod` is `visit`. Quote first and show the person the total. ' +
    'CARD (the default) answers PENDING_PAYMENT with a `payUrl`: give it to the person; the items are kept for them ' +
    'until they pay, for 24 hours, then the order closes. CASH is only for a `visit` add-on to their own cash booking ' +
    'and needs `confirm: true` after they agreed to the summary (without it: 409 CONFIRM_REQUIRED with the summary). ' +
    'Refusals say what to change: 409 OUT_OF_STOCK (details.problems), DISCOUNT_NOT_VALID (details.discountError), ' +
    'CANNOT_DELIVER (details.shippingError), TOO_MANY_UNPAID_ORDERS (a person holds at most 2 unpaid card orders: ' +
    'details.unpaidOrders; pay one with pay_order first). Send an `Idempotency-Key` so a retry never buys twice.',
  input: BuyRequestSchema,
  output: BuyResultSchema,
  successStatus: 201,
  errors: [
    {
      status: 400,
      description:
        'Malformed input, shipTo missing, unknown items, CASH outside a visit add-on, or a province that contradicts the postal code.',
    },
    { status: 401, description: 'No or an invalid credential.' },
    { status: 403, description: 'The credential lacks orders:write.' },
    {
      status: 409,
      description:
        'SHOP_OFF, OUT_OF_STOCK, DISCOUNT_NOT_VALID, CANNOT_DELIVER, CONFIRM_REQUIRED (cash without confirm), CASH_NOT_ALLOWED, ' +
        'TOO_MANY_UNPAID_ORDERS (already 2 unpaid card orders: details.unpaidOrders, pay one with pay_order).',
    },
    { status: 429, description: 'Too many requests.' },
  ],
  events: ['order.paid'],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async handler(ctx, input) {
    const shop = await openShop(ctx.deps.sql);
    const request = {
      ...input,
      postalCode: input.shipTo?.postalCode ?? input.postalCode,
      province: input.shipTo?.province ?? input.province,
    };
    const priced = await priceOrderRequest(ctx, ctx.deps.sql, shop, request);
    const quote = quoteOf(shop, input, priced);
    refuseUnbuyable(quote);
    const card = input.paymentMethod === 'CARD';
    if (!card && priced.booking?.paymentMethod !== 'CASH')
      throw new ServiceError(
        'CASH_NOT_ALLOWED',
        'Cash is only for add-ons to a booking paid in cash; this booking is paid by card. Buy with CARD.',
        { bookingId: input.bookingId ?? null },
      );
    const delivery = deliveryText(
      input.shippingMethod,
      shop.delivery,
      input.shippingMethod === 'visit' ? null : (input.shipTo ?? null),
      priced.booking
        ? { start: priced.booking.start, end: priced.booking.end, timeZone: shop.business.timezone }
        : null,
    );
    const summary = orderSummary(shop, quote, delivery, card);
    if (!card) {
      // Cash rides with the person's own cash booking (checked above): its visit is the when and where.
      const visit = priced.booking!;
      const { when, place } = bookingParts([visit], shop.business);
      const discount = quote.discountCents > 0 ? `, less ${quote.discount} (${quote.discountCode})` : '';
      confirmStep(
        ctx,
        input.confirm,
        {
          kind: 'visitOrder',
          what:
            `Buy ${quote.lines.map((l) => `${l.qty} × ${l.name} (${l.variant})`).join(', ')} from the ` +
            `${shop.business.name} shop${discount}, brought by the crew to the visit`,
          when,
          place,
          pets: null,
          amount: { cents: quote.totalCents, currency: quote.currency },
          money: 'in cash to the crew at the visit',
        },
        {
          message: `Confirm with the person first: ${summary}`,
          details: { totalCents: quote.totalCents, total: quote.total, paymentMethod: 'CASH' },
        },
      );
    }
    const now = ctx.deps.clock.now();
    // A card order with something to pay waits for it; one a discount made free is confirmed at once.
    const pending = card && quote.totalCents > 0;
    const expiresAt = pending ? orderExpiresAt(now) : null;
    const token = pending ? newSecret('npl') : null;
    const order = await transaction(ctx.deps.sql, async (q) => {
      if (pending) {
        // Under the person's lock, so two purchases at once both count the other's order.
        await lockUnpaidOrdersOf(q, ctx.auth!.userId);
        const unpaid = await listUnpaidOrders(q, ctx.auth!.userId, now);
        if (!mayOpenUnpaidOrder(unpaid.length)) throw tooManyUnpaid(shop, unpaid);
      }
      // Stock is taken for every line or none: a buyer who finds too few left changes nothing.
      const short = await takeStock(
        q,
        priced.price.lines.map((l) => ({ variantId: l.variantId, qty: l.qty })),
      );
      if (short.length) {
        // Someone bought the last ones since the quote: the refusal says what is left now.
        const again = quoteOf(shop, input, await priceOrderRequest(ctx, q, shop, request));
        refuseUnbuyable(again);
        throw new ServiceError('OUT_OF_STOCK', 'Some items sold out just now. Quote again.', {
          problems: [],
        });
      }
      if (priced.price.discount && !(await takeDiscountUse(q, shop.business.id, priced.price.discount.code)))
        throw new ServiceError(
          'DISCOUNT_NOT_VALID',
          `The code ${priced.price.discount.code} has just been used up.`,
          {
            discountError: {
              code: 'USED_UP',
              message: `The code ${priced.price.discount.code} has been used up.`,
            },
            next: 'Buy without the code, or with another one.',
          },
        );
      const row = await insertOrder(
        q,
        {
          businessId: shop.business.id,
          userId: ctx.auth!.userId,
          status: pending ? 'PENDING_PAYMENT' : 'CONFIRMED',
          paymentMethod: input.paymentMethod,
          // A free card order owes nothing (NONE): cancelled, it has nothing to refund.
          paymentStatus: pending ? 'PENDING' : card ? 'NONE' : 'CASH_DUE',
          shippingMethod: input.shippingMethod,
          shipTo: input.shippingMethod === 'visit' ? null : (input.shipTo ?? null),
          bookingId: input.shippingMethod === 'visit' ? (priced.booking?.id ?? null) : null,
          discountCode: priced.price.discount?.code ?? null,
          subtotalCents: quote.subtotalCents,
          discountCents: quote.discountCents,
          deliveryFeeCents: quote.deliveryFeeCents ?? 0,
          totalCents: quote.totalCents,
          currency: quote.currency,
          expiresAt,
          clientName: actorName(ctx),
        },
        priced.price.lines.map((l) => ({
          productId: l.productId,
          variantId: l.variantId,
          name: l.name,
          variantLabel: l.variant,
          qty: l.qty,
          unitCents: l.unitCents,
          lineCents: l.lineCents,
        })),
        now,
      );
      if (token && expiresAt)
        await insertOrderPayment(
          q,
          {
            orderId: row.id,
            businessId: shop.business.id,
            userId: ctx.auth!.userId,
            amountCents: row.totalCents,
            currency: row.currency,
            gateway: ctx.deps.payments.gateway.name,
            linkTokenHash: hashSecret(token),
            expiresAt,
          },
          now,
        );
      await auditChange(ctx, q, 'order.create', row.id, {
        totalCents: row.totalCents,
        paymentMethod: row.paymentMethod,
        shippingMethod: row.shippingMethod,
        lines: row.lines.map((l) => ({ variantId: l.variantId, qty: l.qty })),
        discountCode: row.discountCode,
      });
      // Confirmed at once (a cash add-on, or a card order a discount made free): it is paid, as
      // far as anyone waits for it. A card order to pay is told when its payment settles.
      if (row.status === 'CONFIRMED') {
        const [order] = await orderFacts(q, [row.id]);
        await recordEvent(q, sourceOf(ctx, 'person'), {
          type: 'order.paid',
          businessId: row.businessId,
          personId: row.userId,
          subjectId: row.id,
          data: { order: order!.facts },
        });
      }
      return row;
    });
    const payUrl = token ? payUrlOf(ctx, token) : undefined;
    return {
      ...toOrder(order, shop.delivery),
      ...(payUrl ? { payUrl } : {}),
      summary,
      next: payUrl
        ? `Give the person the payUrl to pay ${formatMoney(order.totalCents, order.currency)}. The items are kept for them until ${order.expiresAt?.toISOString()}; unpaid, the order closes then.`
        : card
          ? 'Nothing to pay: the order is confirmed.'
          : 'Confirmed: the items come with the crew at the visit, paid in cash then.',
    };
  },
});
