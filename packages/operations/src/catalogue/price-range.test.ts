import { describe, expect, it } from 'vitest';
import { priceRange } from './price-range.js';

describe('priceRange', () => {
  it('is the service price alone when there are no tiers', () => {
    expect(priceRange({ priceCents: 12000, tiers: [] })).toEqual({ fromCents: 12000, toCents: 12000 });
  });

  it('spans the tiers and the fallback price', () => {
    const tiers = [
      { coat: 'LONG' as const, priceCents: 17000, durationMin: 20 },
      { coat: 'LONG' as const, priceCents: 30000, durationMin: 40 },
    ];
    expect(priceRange({ priceCents: 12000, tiers })).toEqual({ fromCents: 12000, toCents: 30000 });
  });
});
