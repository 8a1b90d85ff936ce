import type { Line, PetForQuote, Service } from './types.js';

/** Builders with defaults; the bath tiers are the operator's real menu (CURLY published as MEDIUM). */
export function aService(overrides: Partial<Service> = {}): Service {
  return {
    id: 'groom-dog-bath',
    lineId: 'grooming',
    name: 'Dog bath, blow-dry & brush-out',
    kind: 'PRIMARY',
    petTypes: ['DOG'],
    priceCents: 30000,
    durationMin: 45,
    groupSize: 1,
    tiers: [
      { coat: 'SHORT', petType: 'DOG', minKg: 0, maxKg: 10, priceCents: 30000, durationMin: 45 },
      { coat: 'SHORT', petType: 'DOG', minKg: 10, maxKg: 25, priceCents: 38000, durationMin: 60 },
      { coat: 'SHORT', petType: 'DOG', minKg: 25, maxKg: 40, priceCents: 48000, durationMin: 75 },
      { coat: 'SHORT', petType: 'DOG', minKg: 40, priceCents: 60000, durationMin: 90 },
      { coat: 'LONG', petType: 'DOG', minKg: 0, maxKg: 10, priceCents: 36000, durationMin: 60 },
      { coat: 'LONG', petType: 'DOG', minKg: 10, maxKg: 25, priceCents: 46000, durationMin: 75 },
      { coat: 'LONG', petType: 'DOG', minKg: 25, maxKg: 40, priceCents: 58000, durationMin: 90 },
      { coat: 'LONG', petType: 'DOG', minKg: 40, priceCents: 72000, durationMin: 110 },
      { coat: 'MEDIUM', petType: 'DOG', minKg: 0, maxKg: 10, priceCents: 34000, durationMin: 55 },
      { coat: 'MEDIUM', petType: 'DOG', minKg: 10, maxKg: 25, priceCents: 43000, durationMin: 70 },
    ],
    ...overrides,
  };
}

export const grooming: Line = { id: 'grooming', label: 'Mobile grooming', durationMode: 'SUM' };
export const walking: Line = { id: 'walking', label: 'Dog walking', durationMode: 'MAX' };

export const services: Service[] = [
  aService(),
  aService({
    id: 'groom-cat-bath',
    name: 'Cat bath & brush-out',
    petTypes: ['CAT'],
    priceCents: 45000,
    durationMin: 60,
    tiers: [
      { petType: 'CAT', coat: 'SHORT', priceCents: 45000, durationMin: 60 },
      { petType: 'CAT', coat: 'LONG', priceCents: 55000, durationMin: 75 },
    ],
  }),
  aService({ id: 'extra-teeth', name: 'Teeth brushing', kind: 'EXTRA', petTypes: ['DOG', 'CAT'], priceCents: 7000, durationMin: 10, tiers: [] }),
  aService({ id: 'extra-nail-grind', name: 'Nail grind', kind: 'EXTRA', petTypes: ['DOG'], priceCents: 5000, durationMin: 10, tiers: [] }),
  aService({ id: 'walk-solo-30', lineId: 'walking', name: 'Solo walk 30 min', priceCents: 13000, durationMin: 30, tiers: [] }),
  aService({ id: 'walk-solo-60', lineId: 'walking', name: 'Solo walk 60 min', priceCents: 20000, durationMin: 60, tiers: [] }),
  aService({ id: 'walk-group-30', lineId: 'walking', name: 'Group walk 30 min', priceCents: 9000, durationMin: 30, groupSize: 4, tiers: [] }),
];

export function aPet(overrides: Partial<PetForQuote> = {}): PetForQuote {
  return { name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['groom-dog-bath'], ...overrides };
}
