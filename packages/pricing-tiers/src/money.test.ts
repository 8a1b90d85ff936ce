import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjustPrice } from './adjust-price.js';
import { PricingError } from './errors.js';
import { formatMoney } from './format-money.js';
import { minorUnits } from './minor-units.js';
import { priceRange } from './price-range.js';
import { aService } from './test-utils.js';

describe('minorUnits', () => {
  it.each([
    ['ZAR', 2],
    ['EUR', 2],
    ['JPY', 0],
    ['BHD', 3],
  ])('knows %s has %i', (code, digits) => {
    expect(minorUnits(code)).toBe(digits);
  });

  it.each([['ZZZ'], ['zar'], ['XXX'], ['']])('refuses %j', (code) => {
    expect(() => minorUnits(code)).toThrow(PricingError);
  });
});

describe('adjustPrice', () => {
  it.each([
    [38000, -10, 'ZAR', 34200],
    [45000, -7, 'ZAR', 41900],
    [12345, 0, 'EUR', 12300],
    [1200, -10, 'JPY', 1080],
    [12345, 10, 'BHD', 14000],
    [5000, -100, 'ZAR', 0],
    [5000, -150, 'ZAR', 0],
  ])('moves %i by %i%% in %s to %i', (cents, pct, currency, expected) => {
    expect(adjustPrice(cents, pct, currency)).toBe(expected);
  });

  it('always lands on a whole major unit, and 0% of a whole price changes nothing', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.double({ min: -90, max: 200, noNaN: true }), (cents, pct) => {
        expect(adjustPrice(cents, pct, 'ZAR') % 100).toBe(0);
        expect(adjustPrice(cents * 100, 0, 'ZAR')).toBe(cents * 100);
      }),
    );
  });
});

describe('formatMoney', () => {
  it.each([
    [38000, 'ZAR', 'R380'],
    [38050, 'ZAR', 'R380.50'],
    [101000, 'ZAR', 'R1,010'],
    [1250, 'EUR', '€12.50'],
    [1200, 'JPY', '¥1,200'],
  ])('writes %i %s as %s', (amount, currency, text) => {
    expect(formatMoney(amount, currency)).toBe(text);
  });
});

describe('priceRange', () => {
  it('spans the fallback price and every tier', () => {
    expect(priceRange(aService())).toEqual({ fromCents: 30000, toCents: 72000 });
    expect(priceRange(aService({ priceCents: 12000, tiers: [] }))).toEqual({ fromCents: 12000, toCents: 12000 });
  });
});
