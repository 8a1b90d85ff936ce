import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjustPrice } from './adjust-price.js';

const currencies = fc.constantFrom(['ZAR', 100], ['EUR', 100], ['JPY', 1], ['BHD', 1000]) as fc.Arbitrary<
  [string, number]
>;

describe('adjustPrice', () => {
  it.each([
    [38000, -10, 'ZAR', 34200],
    [38037, -10, 'ZAR', 34200],
    [45000, -7, 'ZAR', 41900],
    [45000, 5, 'ZAR', 47300],
    [1500, -10, 'EUR', 1400],
    [1250, 20, 'EUR', 1500],
    [1200, -10, 'JPY', 1080],
    [25, -10, 'JPY', 23],
    [5000, -10, 'BHD', 5000],
    [12345, 10, 'BHD', 14000],
    [2500, -10, 'BHD', 2000],
  ])(
    'moves %i by %i%% in %s to %i (half away from zero, whole major unit)',
    (amount, pct, currency, expected) => {
      expect(adjustPrice(amount, pct, currency)).toBe(expected);
    },
  );

  it.each([
    [5000, -100],
    [5000, -150],
  ])('never goes below zero (%i by %i%%)', (amount, pct) => {
    expect(adjustPrice(amount, pct, 'ZAR')).toBe(0);
  });

  it('returns the price unchanged for 0%, whole or not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), currencies, (amount, [currency]) => {
        expect(adjustPrice(amount, 0, currency)).toBe(amount);
      }),
    );
  });

  it('always lands on a whole major unit of the currency', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.double({ min: -100, max: 300, noNaN: true }),
        currencies,
        (amount, pct, [currency, unit]) => {
          // 0% leaves the price exactly as set (tested above), so it is the one case not rounded.
          fc.pre(pct !== 0);
          expect(adjustPrice(amount, pct, currency) % unit).toBe(0);
        },
      ),
    );
  });

  it('never makes a bigger discount dearer', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: -100, max: 300 }),
        fc.integer({ min: -100, max: 300 }),
        currencies,
        (amount, a, b, [currency]) => {
          fc.pre(a !== 0 && b !== 0);
          const [low, high] = a < b ? [a, b] : [b, a];
          expect(adjustPrice(amount, low, currency)).toBeLessThanOrEqual(adjustPrice(amount, high, currency));
        },
      ),
    );
  });

  it('stays within half a major unit of the exact adjusted price', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: -100, max: 300 }),
        currencies,
        (amount, pct, [currency, unit]) => {
          fc.pre(pct !== 0);
          const exact = (amount * (100 + pct)) / 100;
          expect(Math.abs(adjustPrice(amount, pct, currency) - exact)).toBeLessThanOrEqual(unit / 2);
        },
      ),
    );
  });
});
