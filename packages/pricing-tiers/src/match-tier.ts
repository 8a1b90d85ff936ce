import type { PetDescription, Service, Tier, TierMatch } from './types.js';

function matches(tier: Tier, pet: PetDescription): boolean {
  if (tier.coat !== undefined && tier.coat !== pet.coat) return false;
  if (tier.petType !== undefined && tier.petType !== pet.type) return false;
  if (tier.minKg !== undefined && pet.weightKg < tier.minKg) return false;
  if (tier.maxKg !== undefined && pet.weightKg >= tier.maxKg) return false;
  return true;
}

/**
 * The price and duration of a service for a pet: the first matching tier (coat, pet type,
 * `minKg` inclusive, `maxKg` exclusive), else the service's own price and duration.
 *
 * @example matchTier(bath, { type: 'DOG', weightKg: 12, coat: 'SHORT' }) // { priceCents: 38000, durationMin: 60, tier: {...} }
 */
export function matchTier(
  service: Pick<Service, 'priceCents' | 'durationMin' | 'tiers'>,
  pet: PetDescription,
): TierMatch {
  for (const tier of service.tiers) {
    if (matches(tier, pet)) return { priceCents: tier.priceCents, durationMin: tier.durationMin, tier };
  }
  return { priceCents: service.priceCents, durationMin: service.durationMin, tier: null };
}
