import type { PriceRange, Service } from './types.js';

/**
 * The span of prices a service can have: its own price (the fallback) and every tier's.
 *
 * @example priceRange({ priceCents: 12000, tiers: [{ priceCents: 30000, durationMin: 40 }] }) // { fromCents: 12000, toCents: 30000 }
 */
export function priceRange(service: Pick<Service, 'priceCents' | 'tiers'>): PriceRange {
  let fromCents = service.priceCents;
  let toCents = service.priceCents;
  for (const t of service.tiers) {
    if (t.priceCents < fromCents) fromCents = t.priceCents;
    if (t.priceCents > toCents) toCents = t.priceCents;
  }
  return { fromCents, toCents };
}
