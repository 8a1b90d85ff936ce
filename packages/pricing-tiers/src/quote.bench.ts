import { bench, describe } from 'vitest';
import { quote } from './quote.js';
import { grooming, menu } from './test-fixtures.js';
import { aPet } from './test-utils.js';

const pets = [
  aPet({ name: 'Rex', weightKg: 12, coat: 'SHORT', serviceIds: ['groom-dog-bath', 'extra-teeth'] }),
  aPet({
    name: 'Bo',
    weightKg: 31,
    coat: 'LONG',
    serviceIds: ['groom-dog-full', 'extra-deshed', 'extra-nail-grind'],
  }),
  aPet({ name: 'Mia', type: 'CAT', weightKg: 4, coat: 'LONG', serviceIds: ['groom-cat-bath'] }),
  aPet({
    name: 'Kat',
    type: 'CAT',
    weightKg: 3,
    coat: 'SHORT',
    serviceIds: ['groom-cat-bath', 'extra-teeth'],
  }),
];

describe('quoting against the real menu', () => {
  bench('4 pets with extras, grooming (SUM)', () => {
    quote({
      line: grooming,
      services: menu,
      pets,
      serviceFeeCents: 1000,
      acceptsCash: true,
      currency: 'ZAR',
    });
  });
});
