// What a service's prices may be, shared by the sign-up (add_business_services), the running
// business's update_prices and the catalogue's answers: the limits, the tier schemas, the shortest
// main service, and a price range in words. A leaf: it imports no operation.
import { formatMoney } from '@nogpets/pricing-tiers';
import { z } from 'zod';
import { CoatSchema, PetTypeSchema } from '../core/index.js';

/** The highest price: 10 000 000 minor units (R100 000, €100 000, ¥10 000 000). */
export const MAX_PRICE = 10_000_000;
export const MAX_TIERS = 24;

/** A price in minor units of the business's currency, 0 to MAX_PRICE. */
export const PriceCentsSchema = z.int().min(0).max(MAX_PRICE);

/** A tier as the sign-up and update_prices take it. */
export const TierInputSchema = z
  .object({
    coat: CoatSchema.optional(),
    petType: PetTypeSchema.optional(),
    minKg: z
      .number()
      .min(0)
      .max(150)
      .optional()
      .meta({ description: 'Inclusive lower bound of the weight.' }),
    maxKg: z
      .number()
      .min(0)
      .max(150)
      .optional()
      .meta({ description: 'Exclusive upper bound of the weight.' }),
    priceCents: PriceCentsSchema,
    durationMin: z.int().min(0).max(1440),
  })
  .strict()
  .refine((t) => t.minKg === undefined || t.maxKg === undefined || t.minKg < t.maxKg, {
    message: 'minKg must be below maxKg',
    path: ['maxKg'],
  });

/** A tier as the answers show it (list_services' `Tier`; list_prices adds its price and pets in words). */
export const TierShape = {
  coat: CoatSchema.optional(),
  petType: PetTypeSchema.optional(),
  minKg: z.number().optional().meta({ description: 'Inclusive lower bound of the pet weight.' }),
  maxKg: z.number().optional().meta({ description: 'Exclusive upper bound of the pet weight.' }),
  priceCents: z.int(),
  durationMin: z.int(),
};

/** A PRIMARY service (one booked on its own), and each of its tiers, takes at least this many minutes. */
export const MIN_PRIMARY_MIN = 5;
export const PRIMARY_TOO_SHORT = `a PRIMARY service takes at least ${MIN_PRIMARY_MIN} minutes`;

/** A price range in words: one price, or "R280 to R380". */
export function rangeWords(fromCents: number, toCents: number, currency: string): string {
  const money = (cents: number) => formatMoney(cents, currency);
  return fromCents === toCents ? money(fromCents) : `${money(fromCents)} to ${money(toCents)}`;
}
