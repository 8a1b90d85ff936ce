import { describe, expect, it } from 'vitest';
import { formatMoney } from './format-money.js';

describe('formatMoney', () => {
  it.each([
    [38000, 'ZAR', 'R380'],
    [38050, 'ZAR', 'R380.50'],
    [101000, 'ZAR', 'R1,010'],
    [-38000, 'ZAR', '-R380'],
    [1250, 'EUR', '€12.50'],
    [1200, 'EUR', '€12'],
    [1200, 'JPY', '¥1,200'],
    [1234, 'BHD', 'BHD\u00a01.234'],
    [300, 'CHF', 'CHF\u00a03'],
    [500, 'USD', '$5'],
  ])('writes %i minor units of %s as %j, decimals only when not whole', (amount, currency, text) => {
    expect(formatMoney(amount, currency)).toBe(text);
  });

  it.each([
    [1250, 'EUR', 'de', '12,50\u00a0€'],
    [1250, 'EUR', 'nl', '€\u00a012,50'],
    [38050, 'ZAR', 'en-ZA', 'R380,50'],
  ])('follows the locale: %i %s in %s is %j', (amount, currency, locale, text) => {
    expect(formatMoney(amount, currency, locale)).toBe(text);
  });

  it('writes the same text for an amount asked again, in whichever currency and locale, past the texts it keeps', () => {
    // More distinct amounts than the kept texts, each asked twice with another currency between.
    for (let rand = 1; rand <= 5000; rand++) {
      expect(formatMoney(rand * 100, 'ZAR')).toBe(`R${rand.toLocaleString('en')}`);
      expect(formatMoney(rand * 100, 'JPY')).toBe(`¥${(rand * 100).toLocaleString('en')}`);
      expect(formatMoney(rand * 100, 'ZAR', 'de')).toBe(`${rand.toLocaleString('de')}\u00a0R`);
      expect(formatMoney(rand * 100, 'ZAR')).toBe(`R${rand.toLocaleString('en')}`);
    }
  });

  it('does not give zero the text of minus zero asked before it', () => {
    const minusZero = formatMoney(-0, 'EUR');
    expect(formatMoney(0, 'EUR')).toBe('€0');
    expect(formatMoney(-0, 'EUR')).toBe(minusZero);
  });

  it('refuses an unknown currency', () => {
    expect(() => formatMoney(100, 'ZZZ')).toThrow(expect.objectContaining({ code: 'UNKNOWN_CURRENCY' }));
  });
});
