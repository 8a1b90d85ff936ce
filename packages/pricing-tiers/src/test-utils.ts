// Builders with defaults for the tests. Not exported from the package.
import type {
  CatalogueProduct,
  CatalogueVariant,
  DeliveryOptions,
  DiscountCodeRule,
  PriceOrderInput,
} from './order.js';
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

export function aVariant(overrides: Partial<CatalogueVariant> = {}): CatalogueVariant {
  return { id: 'rope-l', label: 'Large', priceCents: 12000, stock: 5, ...overrides };
}

/** A chew rope in Small (R80, 10 left) and Large (R120, 5 left), and a one-size bowl (R150, 3 left). */
export function aCatalogue(): CatalogueProduct[] {
  return [
    {
      id: 'rope',
      name: 'Chew rope',
      variants: [aVariant({ id: 'rope-s', label: 'Small', priceCents: 8000, stock: 10 }), aVariant()],
    },
    {
      id: 'bowl',
      name: 'Steel bowl',
      variants: [aVariant({ id: 'bowl-1', label: 'One size', priceCents: 15000, stock: 3 })],
    },
  ];
}

export function aDiscount(overrides: Partial<DiscountCodeRule> = {}): DiscountCodeRule {
  return {
    code: 'WOOF10',
    kind: 'PERCENT',
    percent: 10,
    amountCents: null,
    minSpendCents: 0,
    startsAt: null,
    endsAt: null,
    maxUses: null,
    used: 0,
    description: '10% off your first order',
    ...overrides,
  };
}

/** Courier R99 in Gauteng, R150 elsewhere, free from R1,000; the van R50 to two Pretoria codes, free from R500. */
export function someDeliveryOptions(): DeliveryOptions {
  return {
    courier: {
      label: 'Courier',
      days: '2 to 4 working days',
      feesByProvince: {
        EC: 15000,
        FS: 15000,
        GP: 9900,
        KZN: 15000,
        LP: 15000,
        MP: 15000,
        NC: 15000,
        NW: 15000,
        WC: 15000,
      },
      freeFromCents: 100000,
    },
    local: {
      label: 'Our van',
      days: 'next working day',
      postalCodes: { '0081': 5000, '0181': 5000 },
      freeFromCents: 50000,
    },
    visit: { label: 'With your next visit', days: 'on the day of your booking' },
  };
}

export function anOrderInput(overrides: Partial<PriceOrderInput> = {}): PriceOrderInput {
  return {
    items: [{ productId: 'rope', variantId: 'rope-l', qty: 1 }],
    products: aCatalogue(),
    currency: 'ZAR',
    discountCode: null,
    discount: null,
    delivery: { method: 'visit' },
    options: someDeliveryOptions(),
    now: new Date('2026-05-01T08:00:00Z'),
    ...overrides,
  };
}
