import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PricingError } from './errors.js';
import { matchTier } from './match-tier.js';
import { quote } from './quote.js';
import { aPet, aService, grooming, services, walking } from './test-utils.js';

const base = { services, serviceFeeCents: 1000, acceptsCash: true, currency: 'ZAR' };

describe('matchTier', () => {
  it.each([
    [{ type: 'DOG', weightKg: 9.99, coat: 'SHORT' }, 30000],
    [{ type: 'DOG', weightKg: 10, coat: 'SHORT' }, 38000],
    [{ type: 'DOG', weightKg: 40, coat: 'SHORT' }, 60000],
    [{ type: 'DOG', weightKg: 80, coat: 'LONG' }, 72000],
    [{ type: 'DOG', weightKg: 12, coat: 'MEDIUM' }, 43000],
    [{ type: 'DOG', weightKg: 30, coat: 'MEDIUM' }, 30000],
  ] as const)('prices %j at %i cents (minKg inclusive, maxKg exclusive, fallback when none match)', (pet, cents) => {
    expect(matchTier(aService(), pet).priceCents).toBe(cents);
  });

  it('lets the first matching tier win', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100, noNaN: true }), fc.constantFrom('SHORT', 'MEDIUM', 'LONG'), (kg, coat) => {
        const service = aService({
          tiers: [
            { coat, priceCents: 1, durationMin: 1 },
            { priceCents: 2, durationMin: 2 },
          ],
        });
        expect(matchTier(service, { type: 'DOG', weightKg: kg, coat }).priceCents).toBe(1);
      }),
    );
  });
});

describe('quote', () => {
  it('adds the pets of a grooming booking one after another and the card fee once', () => {
    const q = quote({
      ...base,
      line: grooming,
      pets: [
        aPet({ serviceIds: ['groom-dog-bath', 'extra-teeth'] }),
        aPet({ name: 'Mia', type: 'CAT', weightKg: 4, coat: 'LONG', serviceIds: ['groom-cat-bath'] }),
      ],
    });
    expect(q).toMatchObject({
      category: 'grooming',
      durationMin: 60 + 10 + 75,
      subtotalCents: 38000 + 7000 + 55000,
      cardFeeCents: 1000,
      cardTotalCents: 101000,
      cashTotalCents: 100000,
      acceptsCash: true,
    });
    expect(q.pets[0]!.items.map((i) => i.serviceId)).toEqual(['groom-dog-bath', 'extra-teeth']);
    expect(q.summary).toBe(
      'Mobile grooming for Rex (Dog bath, blow-dry & brush-out and Teeth brushing) and Mia (Cat bath & brush-out): about 2 h 25 min, R1,000 cash or R1,010 by card.',
    );
  });

  it('takes the longest pet for a walk, as dogs are walked together', () => {
    const q = quote({ ...base, line: walking, pets: [aPet({ serviceIds: ['walk-solo-60'] }), aPet({ name: 'Bo', serviceIds: ['walk-solo-30'] })] });
    expect(q.durationMin).toBe(60);
    expect(q.subtotalCents).toBe(33000);
  });

  it('gives a group walk one place per dog', () => {
    const q = quote({ ...base, line: walking, pets: [aPet({ serviceIds: ['walk-group-30'] }), aPet({ name: 'Bo', serviceIds: ['walk-group-30'] })] });
    expect(q.groupSize).toBe(2);
    expect(q.durationMin).toBe(30);
  });

  it('leaves cash out of the summary when the business takes no cash', () => {
    const q = quote({ ...base, acceptsCash: false, line: grooming, pets: [aPet()] });
    expect(q.summary).toMatch(/R390 by card\.$/);
  });

  it.each([
    [[aPet({ serviceIds: ['nope'] })], 'UNKNOWN_SERVICE', { pet: 'Rex', serviceId: 'nope' }],
    [[aPet({ serviceIds: ['walk-solo-30'] })], 'WRONG_LINE', { pet: 'Rex', serviceId: 'walk-solo-30' }],
    [[aPet({ type: 'CAT', serviceIds: ['groom-dog-bath'] })], 'WRONG_PET_TYPE', { pet: 'Rex', serviceId: 'groom-dog-bath' }],
    [[aPet({ serviceIds: ['extra-teeth'] })], 'NO_PRIMARY', { pet: 'Rex' }],
    [[aPet({ serviceIds: [] })], 'NO_PRIMARY', { pet: 'Rex' }],
    [[aPet({ type: 'CAT', serviceIds: ['groom-cat-bath', 'groom-cat-bath'] })], 'DUPLICATE_SERVICE', { pet: 'Rex' }],
    [[], 'NO_PETS', {}],
  ])('refuses %j with %s naming the pet and the service', (pets, code, details) => {
    try {
      quote({ ...base, line: grooming, pets });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(PricingError);
      expect((err as PricingError).code).toBe(code);
      expect((err as PricingError).details).toMatchObject(details);
    }
  });

  it('refuses two main services for one pet', () => {
    const services2 = [...services, aService({ id: 'groom-dog-full', name: 'Full groom' })];
    expect(() => quote({ ...base, services: services2, line: grooming, pets: [aPet({ serviceIds: ['groom-dog-bath', 'groom-dog-full'] })] })).toThrow(
      expect.objectContaining({ code: 'TOO_MANY_PRIMARY' }),
    );
  });

  it('refuses a group walk mixed with a solo walk, or more dogs than the group takes', () => {
    expect(() =>
      quote({ ...base, line: walking, pets: [aPet({ serviceIds: ['walk-group-30'] }), aPet({ name: 'Bo', serviceIds: ['walk-solo-30'] })] }),
    ).toThrow(expect.objectContaining({ code: 'MIXED_GROUP_WALK' }));
    const five = Array.from({ length: 5 }, (_, i) => aPet({ name: `Dog ${i}`, serviceIds: ['walk-group-30'] }));
    expect(() => quote({ ...base, line: walking, pets: five })).toThrow(expect.objectContaining({ code: 'GROUP_TOO_LARGE' }));
  });

  it('keeps its sums: subtotal is the items, card total adds the fee, SUM is never shorter than MAX', () => {
    const pet = fc.record({
      name: fc.constantFrom('A', 'B', 'C'),
      weightKg: fc.double({ min: 0.5, max: 90, noNaN: true }),
      coat: fc.constantFrom('SHORT' as const, 'MEDIUM' as const, 'LONG' as const),
      teeth: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(pet, { minLength: 1, maxLength: 4 }), (pets) => {
        const asked = pets.map((p) => aPet({ ...p, type: 'DOG', serviceIds: p.teeth ? ['groom-dog-bath', 'extra-teeth'] : ['groom-dog-bath'] }));
        const sum = quote({ ...base, line: grooming, pets: asked });
        const max = quote({ ...base, line: { ...grooming, durationMode: 'MAX' }, pets: asked });
        const items = sum.pets.flatMap((p) => p.items);
        expect(sum.subtotalCents).toBe(items.reduce((s, i) => s + i.priceCents, 0));
        expect(sum.cardTotalCents).toBe(sum.subtotalCents + 1000);
        expect(sum.durationMin).toBeGreaterThanOrEqual(max.durationMin);
      }),
    );
  });
});
