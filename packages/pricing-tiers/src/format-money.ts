import { minorUnits } from './minor-units.js';

const formats = new Map<string, Intl.NumberFormat>();

/**
 * A money amount for people: the currency's symbol, no decimals when whole.
 *
 * @example formatMoney(38000, 'ZAR') // 'R380'
 * @example formatMoney(38050, 'ZAR') // 'R380.50'
 */
export function formatMoney(amountMinor: number, currency: string, locale = 'en'): string {
  const digits = minorUnits(currency);
  const value = amountMinor / 10 ** digits;
  const whole = Number.isInteger(value);
  const key = `${locale}|${currency}|${whole}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits: whole ? 0 : digits,
      maximumFractionDigits: digits,
    });
    formats.set(key, format);
  }
  // 'R 380' → 'R380': a one- or two-character symbol sits against the number, as people write it.
  return format.format(value).replace(/\u00a0/g, ' ').replace(/^(-?[^\d\s-]{1,2}) (?=\d)/, '$1');
}
