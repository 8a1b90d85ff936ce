import { type DeliveryOptions, formatMoney, PROVINCE_NAMES } from '@nogpets/pricing-tiers';
import { searchProducts } from '@nogpets/store';
import { z } from 'zod';
import { defineOperation, READ_ONLY } from '../core/index.js';
import {
  openShop,
  PRODUCT_CATEGORIES,
  PROVINCES,
  ProvinceSchema,
  SHOP_PET_TYPES,
  ShippingMethodSchema,
} from './shop-model.js';

const money = z.string();

const VariantSchema = z.object({
  id: z.string().meta({ description: 'The `variantId` to quote and buy.' }),
  label: z.string().meta({ description: 'The size, flavour or kind.' }),
  priceCents: z.int(),
  price: money,
  stock: z.int().meta({ description: 'How many are left now (0: sold out).' }),
  inStock: z.boolean(),
});

const ProductSchema = z
  .object({
    id: z.string().meta({ description: 'The `productId` to quote and buy.' }),
    name: z.string(),
    blurb: z.string(),
    category: z.enum(PRODUCT_CATEGORIES),
    petTypes: z.array(z.enum(SHOP_PET_TYPES)),
    tags: z.array(z.string()),
    variants: z.array(VariantSchema),
    inStock: z.boolean().meta({ description: 'Whether any variant is left.' }),
    fromPrice: money.meta({ description: 'The lowest price of its variants.' }),
  })
  .meta({ id: 'Product', description: 'A product of the shop with its variants, prices and stock.' });

const FeeSchema = z.object({
  province: ProvinceSchema.optional(),
  provinceName: z.string().optional(),
  postalCode: z.string().optional(),
  feeCents: z.int(),
  fee: money,
});

const DeliveryOptionSchema = z
  .object({
    method: ShippingMethodSchema,
    label: z.string(),
    days: z.string().meta({ description: 'How long it takes.' }),
    fees: z.array(FeeSchema).meta({
      description:
        'courier: the fee per province; local: the fee per postal code; visit: free (one fee of 0).',
    }),
    freeFromCents: z.int().nullable().meta({ description: 'Free when the order comes to at least this.' }),
    freeFrom: money.nullable(),
  })
  .meta({ id: 'DeliveryOption', description: 'A way the shop delivers, with its fees.' });

export const ShopCatalogueSchema = z
  .object({
    currency: z.string(),
    products: z.array(ProductSchema),
    delivery: z.array(DeliveryOptionSchema),
    next: z.string(),
  })
  .meta({ id: 'ShopCatalogue', description: 'Products with variants and stock, and the delivery options.' });

/** The delivery options as shown to buyers (browse_shop), from the shop's settings. */
export function deliveryOptions(
  options: DeliveryOptions,
  currency: string,
): z.infer<typeof DeliveryOptionSchema>[] {
  const m = (cents: number) => formatMoney(cents, currency);
  const free = (cents: number | null) => ({
    freeFromCents: cents,
    freeFrom: cents === null ? null : m(cents),
  });
  return [
    {
      method: 'courier',
      label: options.courier.label,
      days: options.courier.days,
      fees: PROVINCES.filter((p) => options.courier.feesByProvince[p] !== undefined).map((p) => ({
        province: p,
        // The name as a heading reads it ("Western Cape"); sentences keep pricing-tiers' article.
        provinceName: PROVINCE_NAMES[p].replace(/^the /, ''),
        feeCents: options.courier.feesByProvince[p],
        fee: m(options.courier.feesByProvince[p]),
      })),
      ...free(options.courier.freeFromCents),
    },
    {
      method: 'local',
      label: options.local.label,
      days: options.local.days,
      fees: Object.entries(options.local.postalCodes).map(([postalCode, feeCents]) => ({
        postalCode,
        feeCents,
        fee: m(feeCents),
      })),
      ...free(options.local.freeFromCents),
    },
    {
      method: 'visit',
      label: options.visit.label,
      days: options.visit.days,
      fees: [{ feeCents: 0, fee: m(0) }],
      ...free(null),
    },
  ];
}

export const browseShop = defineOperation({
  operationId: 'browseShop',
  toolName: 'browse_shop',
  title: 'Browse the shop',
  tag: 'Shop',
  mcp: 'person',
  method: 'GET',
  path: '/v1/products',
  inputIn: 'query',
  auth: 'public',
  description:
    "The NogPets shop's products (food, toys, beds, accessories, care for dogs and cats) with their variants (sizes, " +
    'flavours), prices and how many are left, and the delivery options with their fees. Filter by `category`, ' +
    '`petType`, or `q` (words from the name, description or tags; spelling mistakes are forgiven; best matches ' +
    'first). Show the person names, variants and prices; say when few are left or something is sold out. Then ' +
    'quote_order for a total with delivery and any discount code, and buy. While the shop is closed every shop tool ' +
    'answers 409 SHOP_OFF: tell the person to try later (bookings are not affected).',
  input: z
    .object({
      category: z.enum(PRODUCT_CATEGORIES).optional(),
      petType: z.enum(SHOP_PET_TYPES).optional(),
      q: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .optional()
        .meta({ description: 'Words to search for, at most 100 characters.' }),
    })
    .strict(),
  output: ShopCatalogueSchema,
  successStatus: 200,
  errors: [
    { status: 400, description: 'A filter outside its values, or `q` longer than 100 characters.' },
    { status: 409, description: 'SHOP_OFF: the shop is closed just now.' },
    { status: 429, description: 'Too many requests.' },
  ],
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const shop = await openShop(ctx.deps.sql);
    const currency = shop.business.currency;
    const rows = await searchProducts(ctx.deps.sql, shop.business.id, input);
    // A product with no variant cannot be bought: it is not shown.
    const products = rows
      .filter((p) => p.variants.length > 0)
      .map((p) => ({
        id: p.id,
        name: p.name,
        blurb: p.blurb,
        category: p.category as (typeof PRODUCT_CATEGORIES)[number],
        petTypes: p.petTypes as (typeof SHOP_PET_TYPES)[number][],
        tags: p.tags,
        variants: p.variants.map((v) => ({
          id: v.id,
          label: v.label,
          priceCents: v.priceCents,
          price: formatMoney(v.priceCents, currency),
          stock: v.stock,
          inStock: v.stock > 0,
        })),
        inStock: p.variants.some((v) => v.stock > 0),
        fromPrice: formatMoney(Math.min(...p.variants.map((v) => v.priceCents)), currency),
      }));
    return {
      currency,
      products,
      delivery: deliveryOptions(shop.delivery, currency),
      next:
        products.length === 0
          ? 'Nothing matches: try other words or fewer filters.'
          : 'quote_order with the items (productId, variantId, qty) and a shipping method for the total; then buy.',
    };
  },
});
