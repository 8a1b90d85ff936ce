import type { ServiceRow } from '@nogpets/store';

/**
 * The price span shown in the catalogue: from the cheapest to the dearest of the tiers and the
 * service's own price (the fallback that applies when no tier matches).
 */
export function priceRange(service: Pick<ServiceRow, 'priceCents' | 'tiers'>): { fromCents: number; toCents: number } {
  const prices = [service.priceCents, ...service.tiers.map((t) => t.priceCents)];
  return { fromCents: Math.min(...prices), toCents: Math.max(...prices) };
}
