import { bench, describe } from 'vitest';
import { checklist } from './checklist.js';
import { defaultsFor } from './defaults-for.js';
import { aResource, anApplication, aService } from './test-utils.js';
import type { ApplicationData } from './types.js';

// A busy day of sign-ups: every step answers with a fresh checklist. 1,000 applications across
// five countries, half complete, half with prices, hours or the zone still missing.
const PHONES = [
  '+27 21 123 4567',
  '+351 912 345 678',
  '+81 3-1234-5678',
  '+1 212 555 0123',
  '+55 11 91234-5678',
];
const applications: ApplicationData[] = Array.from({ length: 1_000 }, (_, i) =>
  anApplication({
    country: null,
    phone: PHONES[i % PHONES.length]!,
    timezone: i % 2 === 0 ? null : 'Europe/Lisbon',
    categories: ['grooming', 'walking'],
    services: [
      aService({ name: `Groom ${i}` }),
      aService({ id: 'w', category: 'walking', name: `Walk ${i}`, priceCents: i % 2 === 0 ? null : 9000 }),
      ...Array.from({ length: 8 }, (_, n) =>
        aService({ id: `x${n}`, kind: 'EXTRA', name: `Extra ${n}`, needsPrice: i % 2 === 0 && n % 3 === 0 }),
      ),
    ],
    resources: [aResource(), aResource({ id: 'w1', kind: 'WALKER', name: 'Sam' })],
    businessHours: i % 4 === 0 ? null : (anApplication().businessHours ?? null),
    possibleListingsCount: i % 3,
  }),
);
// The workload the names below promise.
const ready = applications.filter((a) => checklist(a).readyToSubmit).length;
if (ready === 0 || ready === applications.length)
  throw new Error(`expected a mix of ready and not, got ${ready}`);

describe('checklist', () => {
  bench('1,000 applications (10 services, 2 resources each; 5 countries)', () => {
    for (const data of applications) checklist(data);
  });
});

describe('defaultsFor', () => {
  bench('1,000 phone numbers to country, currency and zone', () => {
    for (let i = 0; i < 1_000; i++) defaultsFor({ phone: PHONES[i % PHONES.length]! });
  });
});
