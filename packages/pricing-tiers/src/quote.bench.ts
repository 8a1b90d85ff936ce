import { bench } from 'vitest';
import { quote } from './quote.js';
import { aPet, grooming, services } from './test-utils.js';

const pets = [
  aPet({ serviceIds: ['groom-dog-bath', 'extra-teeth'] }),
  aPet({ name: 'Bo', weightKg: 31, coat: 'LONG' }),
  aPet({ name: 'Mia', type: 'CAT', weightKg: 4, coat: 'LONG', serviceIds: ['groom-cat-bath'] }),
  aPet({ name: 'Kat', type: 'CAT', weightKg: 3, coat: 'SHORT', serviceIds: ['groom-cat-bath', 'extra-teeth'] }),
];

bench('quote 4 pets with extras', () => {
  quote({ line: grooming, services, pets, serviceFeeCents: 1000, acceptsCash: true, currency: 'ZAR' });
});
