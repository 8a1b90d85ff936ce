import { ORDER_PAYMENT_STATUSES, ORDER_STATUSES } from '@nogpets/booking-rules';
import {
  type DeliveryOptions,
  formatMoney,
  type OrderPrice,
  PROVINCE_NAMES,
  type Province,
  type ShippingMethod,
} from '@nogpets/pricing-tiers';
import {
  type BusinessRow,
  findOperator,
  findShopSettings,
  type OrderRow,
  type Queryable,
  type ShopSettingsRow,
} from '@nogpets/store';
import { z } from 'zod';
import { ServiceError, singleLine, whenText } from '../core/index.js';

export const PRODUCT_CATEGORIES = ['FOOD', 'TOYS', 'BEDS', 'ACCESSORIES', 'CARE'] as const;
export const SHOP_PET_TYPES = ['DOG', 'CAT'] as const;
export const SHIPPING_METHODS = ['courier', 'local', 'visit'] as const satisfies readonly ShippingMethod[];
export const PROVINCES = [
  'EC',
  'FS',
  'GP',
  'KZN',
  'LP',
  'MP',
  'NC',
  'NW',
  'WC',
] as const satisfies readonly Province[];

export const ProvinceSchema = z.enum(PROVINCES).meta({
  id: 'Province',
  description:
    'South African province (ISO 3166-2:ZA without the prefix): EC, FS, GP, KZN, LP, MP, NC, NW, WC.',
});

export const ShippingMethodSchema = z.enum(SHIPPING_METHODS).meta({
  id: 'ShippingMethod',
  description:
    '`courier`: anywhere in South Africa, the fee by province. `local`: the NogPets van, by postal code in and ' +
    "around Stellenbosch. `visit`: free, it rides with one of the person's own upcoming bookings (`bookingId`).",
});

/** The shop of the service: the operator's, while it is open; otherwise 409 SHOP_OFF. */
export interface OpenShop {
  business: BusinessRow;
  settings: ShopSettingsRow;
  delivery: DeliveryOptions;
}

export function shopOff(): ServiceError {
  return new ServiceError(
    'SHOP_OFF',
    'The shop is closed just now. Bookings are not affected; try the shop again later.',
    {},
  );
}

/** The operator's business and its shop settings, open or closed; null when there is no shop. */
export async function findShop(
  q: Queryable,
): Promise<{ business: BusinessRow; settings: ShopSettingsRow; delivery: DeliveryOptions } | null> {
  const business = await findOperator(q);
  const settings = business ? await findShopSettings(q, business.id) : null;
  return business && settings ? { business, settings, delivery: settings.delivery as DeliveryOptions } : null;
}

/** The operator's shop (gathered through the store); 409 SHOP_OFF while it is closed. */
export async function openShop(q: Queryable): Promise<OpenShop> {
  const shop = await findShop(q);
  if (!shop?.settings.open) throw shopOff();
  return shop;
}

/** A postal code as given: South African ones have 4 digits; one from abroad is reported, not refused. */
export const PostalCodeSchema = z
  .string()
  .trim()
  .min(1)
  .max(10)
  .regex(/^[A-Za-z0-9 -]+$/, 'Letters, digits, spaces and hyphens only.');

const money = z.string().meta({ description: 'The amount in words with its currency, e.g. "R 150,00".' });

export const OrderLineSchema = z.object({
  productId: z.string(),
  variantId: z.string(),
  name: z.string(),
  variant: z.string().meta({ description: 'The size, flavour or kind.' }),
  qty: z.int(),
  unitCents: z.int(),
  unitPrice: money,
  totalCents: z.int(),
  total: money,
});

export const OrderProblemSchema = z
  .object({
    index: z.int().meta({ description: 'The position of the item in `items` (0 first).' }),
    productId: z.string(),
    variantId: z.string().nullable(),
    code: z.enum([
      'UNKNOWN_PRODUCT',
      'UNKNOWN_VARIANT',
      'VARIANT_REQUIRED',
      'SOLD_OUT',
      'NOT_ENOUGH_STOCK',
      'DUPLICATE_ITEM',
    ]),
    message: z.string(),
    available: z.int().nullable().meta({ description: 'How many are left, when that is the problem.' }),
  })
  .meta({ id: 'OrderProblem', description: 'An item that cannot be bought as asked, and what to do.' });

export const DiscountErrorSchema = z
  .object({
    code: z.enum(['UNKNOWN_CODE', 'NOT_STARTED', 'EXPIRED', 'USED_UP', 'MIN_SPEND']),
    message: z.string(),
    minSpendCents: z.int().optional(),
  })
  .meta({ id: 'DiscountError', description: 'Why the discount code does not apply.' });

export const ShippingErrorSchema = z
  .object({
    code: z.enum([
      'PROVINCE_NEEDED',
      'POSTAL_CODE_NEEDED',
      'NOT_LOCAL',
      'NOT_IN_COUNTRY',
      'BOOKING_NEEDED',
      'SIGN_IN_NEEDED',
    ]),
    message: z.string(),
  })
  .meta({ id: 'ShippingError', description: 'Why the order cannot go this way, and what to do instead.' });

export const ShipToSchema = z
  .object({
    line1: singleLine(200, 1).meta({ description: 'Street and number.' }),
    suburb: singleLine(100).optional(),
    city: singleLine(100, 1),
    province: ProvinceSchema.optional().meta({
      description:
        'Optional: the province follows the postal code (the courier fee with it); one that contradicts the postal code is refused 400.',
    }),
    postalCode: PostalCodeSchema,
    notes: singleLine(300).optional().meta({ description: 'For the driver: gate code, where to leave it.' }),
  })
  .strict()
  .meta({ id: 'ShipTo', description: 'Where the order goes (courier or local delivery).' });

export const OrderSchema = z
  .object({
    orderId: z.string(),
    status: z.enum(ORDER_STATUSES).meta({
      description:
        'PENDING_PAYMENT (card, waiting for payment; closes 24 hours after it was made), CONFIRMED (paid, or a cash ' +
        'add-on accepted), PACKED, SHIPPED (handed to the courier or driver, or to the crew for the booking), ' +
        'DELIVERED, CANCELLED, EXPIRED (not paid in time). `statusText` says it in words, with any refund.',
    }),
    statusText: z.string().meta({ description: 'The status in words, to tell the person.' }),
    paymentMethod: z.enum(['CARD', 'CASH']),
    paymentStatus: z.enum(ORDER_PAYMENT_STATUSES),
    canPay: z.boolean().meta({ description: 'True while a card order waits for payment at its payUrl.' }),
    lines: z.array(OrderLineSchema),
    subtotalCents: z.int(),
    subtotal: money,
    discountCode: z.string().nullable(),
    discountCents: z.int(),
    discount: money,
    deliveryFeeCents: z.int(),
    deliveryFee: money,
    totalCents: z.int(),
    total: money,
    currency: z.string(),
    shippingMethod: ShippingMethodSchema,
    delivery: z.string().meta({ description: 'How and where it is delivered, in words.' }),
    shipTo: ShipToSchema.nullable(),
    bookingId: z.string().nullable().meta({ description: 'The booking a `visit` order rides with.' }),
    tracking: z.string().nullable().meta({ description: "The courier's reference, once shipped." }),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable().meta({ description: 'An unpaid card order closes then.' }),
    paidAt: z.iso.datetime().nullable(),
    shippedAt: z.iso.datetime().nullable(),
    deliveredAt: z.iso.datetime().nullable(),
  })
  .meta({
    id: 'Order',
    description: 'An order from the shop: what, how it is delivered, what it costs, its status.',
  });

export type Order = z.infer<typeof OrderSchema>;

const STATUS_TEXT: Record<OrderRow['status'], string> = {
  PENDING_PAYMENT: 'Waiting for payment',
  CONFIRMED: 'Paid and confirmed; being packed',
  PACKED: 'Packed, waiting to go out',
  SHIPPED: 'On its way',
  DELIVERED: 'Delivered',
  CANCELLED: 'Cancelled',
  EXPIRED: 'Closed: it was not paid within 24 hours',
};

function statusText(row: OrderRow): string {
  // Money that reached us after the order closed goes back.
  if (row.status === 'EXPIRED' && row.paymentStatus === 'REFUND_REQUESTED')
    return 'Closed: it was not paid within 24 hours. A payment that arrived after that is being refunded (5 to 7 working days)';
  if (row.paymentStatus === 'REFUNDED' && (row.status === 'EXPIRED' || row.status === 'CANCELLED'))
    return `${row.status === 'EXPIRED' ? 'Closed' : 'Cancelled'}; the money was refunded`;
  if (row.status === 'CONFIRMED' && row.paymentStatus === 'NONE')
    return 'Confirmed (nothing to pay); being packed';
  if (row.paymentMethod === 'CASH' && row.status === 'CONFIRMED')
    return 'Confirmed; to be paid in cash to the crew at the visit';
  if (row.status === 'SHIPPED' && row.shippingMethod === 'visit') return 'With the crew for the visit';
  if (row.status === 'CANCELLED' && row.paymentStatus === 'REFUND_REQUESTED')
    return 'Cancelled; the refund is on its way (5 to 7 working days)';
  return STATUS_TEXT[row.status];
}

/** How the order travels, in words: the way, where to (an address, else the province or postal code), how long. */
export function deliveryText(
  method: ShippingMethod,
  delivery: DeliveryOptions | null,
  shipTo: z.infer<typeof ShipToSchema> | null,
  booking?: { start: Date; end: Date; timeZone: string } | null,
  destination?: { province?: Province | null; postalCode?: string | null },
): string {
  const option = delivery?.[method];
  const label = option?.label ?? method;
  const days = option?.days ? `, ${option.days}` : '';
  if (method === 'visit')
    return booking ? `${label}: ${whenText(booking.start, booking.end, booking.timeZone)}` : label;
  if (shipTo) {
    const place = [shipTo.line1, shipTo.suburb, `${shipTo.city} ${shipTo.postalCode}`]
      .filter(Boolean)
      .join(', ');
    return `${label} to ${place}${days}`;
  }
  if (method === 'courier' && destination?.province)
    return `${label} to ${PROVINCE_NAMES[destination.province]}${days}`;
  if (method === 'local' && destination?.postalCode) return `${label} to ${destination.postalCode}${days}`;
  return `${label}${days}`;
}

export function toOrder(row: OrderRow, delivery: DeliveryOptions | null = null): Order {
  const m = (cents: number) => formatMoney(cents, row.currency);
  return {
    orderId: row.id,
    status: row.status,
    statusText: statusText(row),
    paymentMethod: row.paymentMethod,
    paymentStatus: row.paymentStatus,
    canPay: row.status === 'PENDING_PAYMENT' && row.paymentMethod === 'CARD',
    lines: row.lines.map((l) => ({
      productId: l.productId,
      variantId: l.variantId,
      name: l.name,
      variant: l.variantLabel,
      qty: l.qty,
      unitCents: l.unitCents,
      unitPrice: m(l.unitCents),
      totalCents: l.lineCents,
      total: m(l.lineCents),
    })),
    subtotalCents: row.subtotalCents,
    subtotal: m(row.subtotalCents),
    discountCode: row.discountCode,
    discountCents: row.discountCents,
    discount: m(row.discountCents),
    deliveryFeeCents: row.deliveryFeeCents,
    deliveryFee: m(row.deliveryFeeCents),
    totalCents: row.totalCents,
    total: m(row.totalCents),
    currency: row.currency,
    shippingMethod: row.shippingMethod,
    delivery: deliveryText(row.shippingMethod, delivery, row.shipTo as z.infer<typeof ShipToSchema> | null),
    shipTo: row.shipTo as z.infer<typeof ShipToSchema> | null,
    bookingId: row.bookingId,
    tracking: row.tracking,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.status === 'PENDING_PAYMENT' && row.expiresAt ? row.expiresAt.toISOString() : null,
    paidAt: row.paidAt?.toISOString() ?? null,
    shippedAt: row.shippedAt?.toISOString() ?? null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  };
}

/** A priced order's lines as shown (quote and buy). */
export function linesOf(price: OrderPrice, currency: string): z.infer<typeof OrderLineSchema>[] {
  return price.lines.map((l) => ({
    productId: l.productId,
    variantId: l.variantId,
    name: l.name,
    variant: l.variant,
    qty: l.qty,
    unitCents: l.unitCents,
    unitPrice: formatMoney(l.unitCents, currency),
    totalCents: l.lineCents,
    total: formatMoney(l.lineCents, currency),
  }));
}
