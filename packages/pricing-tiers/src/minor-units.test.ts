import { describe, expect, it } from 'vitest';
import { PricingError } from './errors.js';
import { minorUnits } from './minor-units.js';

describe('minorUnits', () => {
  it.each([
    ['ZAR', 2],
    ['EUR', 2],
    ['USD', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['BHD', 3],
    ['KWD', 3],
    ['CLF', 4],
  ])('reads %s as %i digits from the ISO 4217 data', (code, digits) => {
    expect(minorUnits(code)).toBe(digits);
  });

  it.each([['ZZZ'], ['zar'], ['RAND'], [''], ['XXX'], ['XTS'], ['XAU']])(
    'refuses %j as UNKNOWN_CURRENCY: not a code, lower case, or not money of any place',
    (code) => {
      const refusal = (() => {
        try {
          minorUnits(code);
        } catch (e) {
          return e;
        }
      })();
      expect(refusal).toBeInstanceOf(PricingError);
      expect(refusal).toMatchObject({ code: 'UNKNOWN_CURRENCY', details: { currency: code } });
    },
  );
});
