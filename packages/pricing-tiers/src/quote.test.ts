import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PricingError } from './errors.js';
import { quote } from './quote.js';
import { grooming, menu, walking } from './test-fixtures.js';
import { aLine, aPet, aQuoteInput, aService } from './test-utils.js';
import type { Coat, QuoteInput } from './types.js';

/** The error `quote` throws for this input, or a failure when it does not throw. */
function refusal(input: QuoteInput): PricingError {
  try {
    quote(input);
  } catch (e) {
    if (e instanceof PricingError) return e;
    throw e;
  }
  throw new Error('quote did not refuse');
}

const onMenu = (over: Partial<QuoteInput>): QuoteInput =>
  aQuoteInput({ services: menu, line: grooming, ...over });

describe('quote', () => {
  it('writes one sentence a person can read, with each pet, the time and both ways to pay', () => {
    const q = quote(
      aQuoteInput({
        pets: [
          aPet({ name: 'Rex' }),
          aPet({ name: 'Mia', type: 'CAT', coat: 'LONG', weightKg: 4, serviceIds: ['cat-bath'] }),
        ],
      }),
    );
    expect(q.summary).toBe(
      'Grooming for Rex (Dog bath, R380) and Mia (Cat bath, R450): about 2 h 15 min, R830 cash or R840 by card.',
    );
  });

  it('adds the pets of a grooming booking one after another, tiers from the real menu, card fee once', () => {
    const q = quote(
      onMenu({
        pets: [
          aPet({ name: 'Rex', weightKg: 12, coat: 'SHORT', serviceIds: ['groom-dog-bath', 'extra-teeth'] }),
          aPet({ name: 'Bo', weightKg: 31, coat: 'MEDIUM', serviceIds: ['groom-dog-full'] }),
          aPet({ name: 'Mia', type: 'CAT', weightKg: 4, coat: 'LONG', serviceIds: ['groom-cat-bath'] }),
        ],
      }),
    );
    expect(q).toMatchObject({
      category: 'grooming',
      durationMin: 60 + 10 + 135 + 75,
      subtotalCents: 38000 + 7000 + 78000 + 55000,
      cardFeeCents: 1000,
      cardTotalCents: 178000 + 1000,
      cashTotalCents: 178000,
      acceptsCash: true,
    });
    expect(q.pets.map((p) => p.items.map((i) => [i.serviceId, i.priceCents, i.durationMin]))).toEqual([
      [
        ['groom-dog-bath', 38000, 60],
        ['extra-teeth', 7000, 10],
      ],
      [['groom-dog-full', 78000, 135]],
      [['groom-cat-bath', 55000, 75]],
    ]);
    expect(q.groupSize).toBeUndefined();
  });

  it('lists the main service first, then the extras in the order asked', () => {
    const q = quote(
      onMenu({ pets: [aPet({ serviceIds: ['extra-teeth', 'extra-nail-grind', 'groom-dog-bath'] })] }),
    );
    expect(q.pets[0]!.items.map((i) => i.kind)).toEqual(['PRIMARY', 'EXTRA', 'EXTRA']);
    expect(q.pets[0]!.items.map((i) => i.serviceId)).toEqual([
      'groom-dog-bath',
      'extra-teeth',
      'extra-nail-grind',
    ]);
  });

  it('takes the longest dog on a walk, as dogs are walked together', () => {
    const q = quote(
      onMenu({
        line: walking,
        pets: [
          aPet({ name: 'Rex', serviceIds: ['walk-solo-60', 'extra-walk-feed'] }),
          aPet({ name: 'Bo', serviceIds: ['walk-solo-30', 'extra-walk-towel'] }),
        ],
      }),
    );
    expect(q.durationMin).toBe(65);
    expect(q.subtotalCents).toBe(20000 + 3000 + 13000 + 4000);
    expect(q.category).toBe('walking');
  });

  it.each([1, 2, 4])('gives a group walk of %i dogs one place per dog', (dogs) => {
    const pets = Array.from({ length: dogs }, (_, n) =>
      aPet({ name: `Dog ${n + 1}`, serviceIds: ['walk-group-30'] }),
    );
    const q = quote(onMenu({ line: walking, pets }));
    expect(q.groupSize).toBe(dogs);
    expect(q.durationMin).toBe(30);
    expect(q.subtotalCents).toBe(9000 * dogs);
  });

  it('refuses more dogs than the group walk takes', () => {
    const pets = Array.from({ length: 5 }, (_, n) =>
      aPet({ name: `Dog ${n + 1}`, serviceIds: ['walk-group-30'] }),
    );
    const e = refusal(onMenu({ line: walking, pets }));
    expect(e).toMatchObject({
      code: 'GROUP_TOO_LARGE',
      details: { serviceId: 'walk-group-30', groupSize: 4, dogs: 5 },
    });
    expect(e.message).toContain('at most 4 dogs');
  });

  it.each([
    ['walk-solo-30', 'Solo walk 30 min'],
    ['walk-group-60', 'Group walk 60 min (per dog)'],
  ])('refuses a group walk booked together with %s', (otherId, otherName) => {
    const e = refusal(
      onMenu({
        line: walking,
        pets: [
          aPet({ name: 'Rex', serviceIds: ['walk-group-30'] }),
          aPet({ name: 'Bo', serviceIds: [otherId] }),
        ],
      }),
    );
    expect(e).toMatchObject({ code: 'MIXED_GROUP_WALK', details: { pet: 'Bo', serviceId: otherId } });
    expect(e.message).toContain(otherName);
  });

  it.each([
    ['an unknown service', [aPet({ serviceIds: ['groom-dog-bath', 'nope'] })], 'UNKNOWN_SERVICE', 'nope'],
    ['a service of another line', [aPet({ serviceIds: ['walk-solo-30'] })], 'WRONG_LINE', 'walk-solo-30'],
    [
      'a dog service for a cat',
      [aPet({ type: 'CAT', serviceIds: ['groom-dog-bath'] })],
      'WRONG_PET_TYPE',
      'groom-dog-bath',
    ],
    [
      'a dog extra for a cat',
      [aPet({ type: 'CAT', serviceIds: ['groom-cat-bath', 'extra-nail-grind'] })],
      'WRONG_PET_TYPE',
      'extra-nail-grind',
    ],
    ['extras without a main service', [aPet({ serviceIds: ['extra-teeth'] })], 'NO_PRIMARY', undefined],
    ['no service at all', [aPet({ serviceIds: [] })], 'NO_PRIMARY', undefined],
    [
      'two main services',
      [aPet({ serviceIds: ['groom-dog-bath', 'groom-dog-full'] })],
      'TOO_MANY_PRIMARY',
      'groom-dog-full',
    ],
    [
      'the same service twice',
      [aPet({ serviceIds: ['groom-dog-bath', 'extra-teeth', 'extra-teeth'] })],
      'DUPLICATE_SERVICE',
      'extra-teeth',
    ],
  ] as const)('refuses %s, naming the pet and the service', (_, pets, code, serviceId) => {
    const input = onMenu({
      pets: [aPet({ name: 'Mia', type: 'CAT', coat: 'SHORT', serviceIds: ['groom-cat-bath'] }), ...pets],
    });
    const e = refusal(input);
    expect(e.code).toBe(code);
    expect(e.details.pet).toBe('Rex');
    expect(e.details.serviceId).toBe(serviceId);
    expect(e.message).toContain('Rex');
  });

  it('names the service in words when it refuses it', () => {
    const e = refusal(onMenu({ pets: [aPet({ name: 'Mia', type: 'CAT', serviceIds: ['groom-dog-bath'] })] }));
    expect(e.message).toBe(
      '"Dog bath, blow-dry & brush-out (incl. nail trim, ear clean)" is not offered for a cat, so not for Mia.',
    );
  });

  it('refuses a booking without pets', () => {
    expect(refusal(aQuoteInput({ pets: [] })).code).toBe('NO_PETS');
  });

  it('leaves cash out when the business takes no cash', () => {
    const q = quote(aQuoteInput({ acceptsCash: false }));
    expect(q.summary).toBe('Grooming for Rex (Dog bath, R380): about 1 h, R390 by card.');
    expect(q).toMatchObject({ acceptsCash: false, cashTotalCents: 38000, cardTotalCents: 39000 });
  });

  it('says "cash or card" once when card costs nothing extra', () => {
    expect(quote(aQuoteInput({ serviceFeeCents: 0 })).summary).toBe(
      'Grooming for Rex (Dog bath, R380): about 1 h, R380 cash or card.',
    );
  });

  it('writes the amounts in the business currency and locale', () => {
    const q = quote(aQuoteInput({ currency: 'EUR', locale: 'de', serviceFeeCents: 150 }));
    expect(q.summary).toBe(
      'Grooming for Rex (Dog bath, 380\u00a0€): about 1 h, 380\u00a0€ cash or 381,50\u00a0€ by card.',
    );
  });

  it('joins the extras of a pet with "+" so the sentence stays readable', () => {
    const q = quote(aQuoteInput({ pets: [aPet({ serviceIds: ['dog-bath', 'teeth'] })] }));
    expect(q.summary).toBe(
      'Grooming for Rex (Dog bath + Teeth brushing, R450): about 1 h 10 min, R450 cash or R460 by card.',
    );
  });

  describe('for any booking of the menu', () => {
    const coat = fc.constantFrom<Coat>('SHORT', 'MEDIUM', 'LONG');
    const dogExtras = fc.subarray([
      'extra-teeth',
      'extra-nail-grind',
      'extra-deshed',
      'extra-flea-treatment',
    ]);
    const dog = fc.record({
      weightKg: fc.double({ min: 0.5, max: 90, noNaN: true }),
      coat,
      primary: fc.constantFrom('groom-dog-bath', 'groom-dog-full', 'groom-nails-only'),
      extras: dogExtras,
    });
    const booking = fc.array(dog, { minLength: 1, maxLength: 6 }).map((dogs) =>
      dogs.map((d, n) =>
        aPet({
          name: `Dog ${n + 1}`,
          weightKg: d.weightKg,
          coat: d.coat,
          serviceIds: [d.primary, ...d.extras],
        }),
      ),
    );
    const fee = fc.integer({ min: 0, max: 5000 });

    it('has a subtotal equal to the sum of its item prices, cash = subtotal, card = subtotal + fee', () => {
      fc.assert(
        fc.property(booking, fee, (pets, serviceFeeCents) => {
          const q = quote(onMenu({ pets, serviceFeeCents }));
          const items = q.pets.flatMap((p) => p.items);
          expect(q.subtotalCents).toBe(items.reduce((s, i) => s + i.priceCents, 0));
          expect(q.cashTotalCents).toBe(q.subtotalCents);
          expect(q.cardTotalCents).toBe(q.subtotalCents + serviceFeeCents);
        }),
      );
    });

    it('takes at least as long with SUM as with MAX, and MAX is the longest pet', () => {
      fc.assert(
        fc.property(booking, (pets) => {
          const sum = quote(onMenu({ pets, line: aLine({ durationMode: 'SUM' }) }));
          const max = quote(onMenu({ pets, line: aLine({ durationMode: 'MAX' }) }));
          const perPet = sum.pets.map((p) => p.items.reduce((s, i) => s + i.durationMin, 0));
          expect(sum.durationMin).toBeGreaterThanOrEqual(max.durationMin);
          expect(sum.durationMin).toBe(perPet.reduce((a, b) => a + b, 0));
          expect(max.durationMin).toBe(Math.max(...perPet));
        }),
      );
    });

    it('prices each pet as it would be priced alone', () => {
      fc.assert(
        fc.property(booking, (pets) => {
          const together = quote(onMenu({ pets }));
          pets.forEach((pet, n) => {
            expect(quote(onMenu({ pets: [pet] })).pets[0]).toEqual(together.pets[n]);
          });
        }),
      );
    });
  });

  it('ignores services of other lines that no pet asked for', () => {
    const services = [aService(), aService({ id: 'x', lineId: 'sitting', kind: 'PRIMARY' })];
    expect(() => quote(aQuoteInput({ services }))).not.toThrow();
  });
});
