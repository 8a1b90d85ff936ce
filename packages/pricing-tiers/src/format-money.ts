import { minorUnits } from './minor-units.js';

const formats = new Map<string, Intl.NumberFormat>();
const patternSpaced = new Map<string, boolean>();
// The same few prices are shown over and over (every quote, every slot list): their text is kept,
// up to a bound, since building it from formatToParts' parts is the costly part.
const texts = new Map<string, string>();
const MAX_TEXTS = 4096;

function numberFormat(locale: string, currency: string, minimumFractionDigits: number, digits: number) {
  const key = `${locale}|${currency}|${minimumFractionDigits}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      minimumFractionDigits,
      maximumFractionDigits: digits,
    });
    formats.set(key, format);
  }
  return format;
}

/** Whether the locale's own pattern puts a space between a leading symbol and the number (nl: "€ 12,50"). */
function hasPatternSpace(locale: string): boolean {
  let spaced = patternSpaced.get(locale);
  if (spaced === undefined) {
    const parts = numberFormat(locale, 'EUR', 0, 2).formatToParts(1);
    spaced = parts.some((p) => p.type === 'literal' && p.value.trim() === '');
    patternSpaced.set(locale, spaced);
  }
  return spaced;
}

/**
 * A money amount for people, in the currency's narrow symbol: decimals only when the amount is not
 * whole. A one-letter symbol sits against the number (R380, as South Africans write it) unless the
 * locale's own pattern spaces it; codes such as CHF keep their space.
 *
 * @example formatMoney(38000, 'ZAR')  // 'R380'
 * @example formatMoney(38050, 'ZAR')  // 'R380.50'
 * @example formatMoney(1250, 'EUR')   // '€12.50'
 * @example formatMoney(1200, 'JPY')   // '¥1,200'
 */
export function formatMoney(amountMinor: number, currency: string, locale = 'en'): string {
  // -0 is written "-R0": it gets a key of its own (its template text is "0").
  const key = `${Object.is(amountMinor, -0) ? '-0' : amountMinor}|${currency}|${locale}`;
  const known = texts.get(key);
  if (known !== undefined) return known;
  const text = moneyText(amountMinor, currency, locale);
  if (texts.size >= MAX_TEXTS) texts.clear();
  texts.set(key, text);
  return text;
}

function moneyText(amountMinor: number, currency: string, locale: string): string {
  const digits = minorUnits(currency);
  const value = amountMinor / 10 ** digits;
  const parts = numberFormat(locale, currency, Number.isInteger(value) ? 0 : digits, digits).formatToParts(
    value,
  );
  // CLDR inserts a space after a symbol ending in a letter ("R 380"); drop only that inserted one.
  const symbolAt = parts.findIndex((p) => p.type === 'currency');
  const symbol = parts[symbolAt];
  const gap = parts[symbolAt + 1];
  if (
    symbol?.value.length === 1 &&
    gap?.type === 'literal' &&
    gap.value.trim() === '' &&
    parts[symbolAt + 2]?.type === 'integer' &&
    !hasPatternSpace(locale)
  ) {
    parts.splice(symbolAt + 1, 1);
  }
  return parts.map((p) => p.value).join('');
}
