// Builders with defaults for the tests. Not exported from the package.
import type { Line, PetForQuote, QuoteInput, Service, Tier } from './types.js';

export function aLine(overrides: Partial<Line> = {}): Line {
  return { id: 'grooming', label: 'Grooming', durationMode: 'SUM', ...overrides };
}

export function aTier(overrides: Partial<Tier> = {}): Tier {
  return { priceCents: 40000, durationMin: 60, ...overrides };
}

export function aService(overrides: Partial<Service> = {}): Service {
  return {
    id: 'dog-bath',
    lineId: 'grooming',
    name: 'Dog bath',
    kind: 'PRIMARY',
    petTypes: ['DOG'],
    priceCents: 38000,
    durationMin: 60,
    groupSize: 1,
    tiers: [],
    ...overrides,
  };
}

export function aPet(overrides: Partial<PetForQuote> = {}): PetForQuote {
  return { name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['dog-bath'], ...overrides };
}

export function aQuoteInput(overrides: Partial<QuoteInput> = {}): QuoteInput {
  return {
    line: aLine(),
    services: [
      aService(),
      aService({ id: 'cat-bath', name: 'Cat bath', petTypes: ['CAT'], priceCents: 45000, durationMin: 75 }),
      aService({
        id: 'teeth',
        name: 'Teeth brushing',
        kind: 'EXTRA',
        petTypes: ['DOG', 'CAT'],
        priceCents: 7000,
        durationMin: 10,
      }),
      aService({ id: 'solo-walk', lineId: 'walking', name: 'Solo walk', priceCents: 13000, durationMin: 30 }),
    ],
    pets: [aPet()],
    serviceFeeCents: 1000,
    acceptsCash: true,
    currency: 'ZAR',
    ...overrides,
  };
}
