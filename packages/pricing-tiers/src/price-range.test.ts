import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchTier } from './match-tier.js';
import { priceRange } from './price-range.js';
import { menu, menuService } from './test-fixtures.js';
import { aService, aTier } from './test-utils.js';
import type { Coat, PetType } from './types.js';

describe('priceRange', () => {
  it.each([
    ['groom-dog-bath', 30000, 72000],
    ['groom-dog-full', 42000, 98000],
    ['groom-cat-bath', 45000, 55000],
    ['walk-group-30', 9000, 9000],
  ])('spans the menu %s from %i to %i cents', (id, fromCents, toCents) => {
    expect(priceRange(menuService(id))).toEqual({ fromCents, toCents });
  });

  it("includes the service's own price even when every tier is dearer", () => {
    const service = aService({
      priceCents: 10000,
      tiers: [aTier({ priceCents: 30000 }), aTier({ priceCents: 50000 })],
    });
    expect(priceRange(service)).toEqual({ fromCents: 10000, toCents: 50000 });
  });

  it('holds every price matchTier can give for any pet', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...menu),
        fc.constantFrom<PetType>('DOG', 'CAT'),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.constantFrom<Coat>('SHORT', 'MEDIUM', 'LONG'),
        (service, type, weightKg, coat) => {
          const { fromCents, toCents } = priceRange(service);
          const { priceCents } = matchTier(service, { type, weightKg, coat });
          expect(priceCents).toBeGreaterThanOrEqual(fromCents);
          expect(priceCents).toBeLessThanOrEqual(toCents);
        },
      ),
    );
  });
});
