import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchTier } from './match-tier.js';
import { menuService } from './test-fixtures.js';
import { aService, aTier } from './test-utils.js';
import type { Coat, PetDescription, PetType, Tier } from './types.js';

const coat = fc.constantFrom<Coat>('SHORT', 'MEDIUM', 'LONG');
const petType = fc.constantFrom<PetType>('DOG', 'CAT');
const pet: fc.Arbitrary<PetDescription> = fc.record({
  type: petType,
  weightKg: fc.double({ min: 0, max: 100, noNaN: true }),
  coat,
});
const tier: fc.Arbitrary<Tier> = fc.record(
  {
    coat,
    petType,
    minKg: fc.integer({ min: 0, max: 60 }),
    maxKg: fc.integer({ min: 1, max: 80 }),
    priceCents: fc.integer({ min: 0, max: 200_000 }),
    durationMin: fc.integer({ min: 0, max: 240 }),
  },
  { requiredKeys: ['priceCents', 'durationMin'] },
);

describe('matchTier', () => {
  const bath = menuService('groom-dog-bath');

  it.each([
    [0, 'SHORT', 30000, 45],
    [9.99, 'SHORT', 30000, 45],
    [10, 'SHORT', 38000, 60],
    [24.9, 'SHORT', 38000, 60],
    [25, 'SHORT', 48000, 75],
    [40, 'SHORT', 60000, 90],
    [80, 'LONG', 72000, 110],
    [12, 'MEDIUM', 43000, 70],
    [45, 'MEDIUM', 68000, 100],
  ] as const)(
    'prices the menu bath for a %s kg %s-coated dog at %i cents, %i min',
    (weightKg, coat, priceCents, durationMin) => {
      expect(matchTier(bath, { type: 'DOG', weightKg, coat })).toMatchObject({ priceCents, durationMin });
    },
  );

  it('treats minKg as inclusive and maxKg as exclusive, so 10 kg is the medium band', () => {
    const match = matchTier(bath, { type: 'DOG', weightKg: 10, coat: 'SHORT' });
    expect(match.tier).toMatchObject({ minKg: 10, maxKg: 25 });
  });

  it.each([
    ['DOG', 30, 25000],
    ['DOG', 24.5, 20000],
    ['CAT', 4, 20000],
  ] as const)(
    'matches a tier without a coat on pet type and weight alone (%s, %s kg)',
    (type, weightKg, priceCents) => {
      expect(
        matchTier(menuService('extra-flea-treatment'), { type, weightKg, coat: 'LONG' }).priceCents,
      ).toBe(priceCents);
    },
  );

  it("falls back to the service's own price and duration when no tier matches", () => {
    const catBath = menuService('groom-cat-bath');
    expect(matchTier(catBath, { type: 'CAT', weightKg: 4, coat: 'MEDIUM' })).toEqual({
      priceCents: 45000,
      durationMin: 60,
      tier: null,
    });
  });

  it('does not give a dog a tier that names cats', () => {
    const service = aService({ tiers: [aTier({ petType: 'CAT', priceCents: 1 })] });
    expect(matchTier(service, { type: 'DOG', weightKg: 5, coat: 'SHORT' }).tier).toBeNull();
  });

  it('lets the first matching tier win over any later one', () => {
    const service = aService({
      tiers: [
        aTier({ coat: 'LONG', priceCents: 1 }),
        aTier({ priceCents: 2 }),
        aTier({ coat: 'LONG', priceCents: 3 }),
      ],
    });
    expect(matchTier(service, { type: 'DOG', weightKg: 5, coat: 'LONG' }).priceCents).toBe(1);
    expect(matchTier(service, { type: 'DOG', weightKg: 5, coat: 'SHORT' }).priceCents).toBe(2);
  });

  it('never changes its answer when tiers are added after the one that matched', () => {
    fc.assert(
      fc.property(
        fc.array(tier, { maxLength: 6 }),
        fc.array(tier, { maxLength: 6 }),
        pet,
        (tiers, later, p) => {
          const before = matchTier(aService({ tiers }), p);
          fc.pre(before.tier !== null);
          expect(matchTier(aService({ tiers: [...tiers, ...later] }), p)).toEqual(before);
        },
      ),
    );
  });

  it('always wins with a catch-all tier unless an earlier tier matched', () => {
    fc.assert(
      fc.property(
        fc.array(tier, { maxLength: 6 }),
        fc.array(tier, { maxLength: 6 }),
        pet,
        (earlier, later, p) => {
          const catchAll = aTier({ priceCents: 123_456, durationMin: 7 });
          const match = matchTier(aService({ tiers: [...earlier, catchAll, ...later] }), p);
          const earlierMatch = matchTier(aService({ tiers: earlier }), p);
          expect(match.tier).toBe(earlierMatch.tier ?? catchAll);
        },
      ),
    );
  });
});
