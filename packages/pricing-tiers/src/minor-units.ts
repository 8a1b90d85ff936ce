import cc from 'currency-codes';
import { PricingError } from './errors.js';

// ISO 4217 has fewer than 200 codes: each one's digits are looked up once.
const digitsOf = new Map<string, number>();

/**
 * Digits after the decimal point of an ISO 4217 currency, from the `currency-codes` data
 * (ZAR 2, JPY 0, BHD 3). Codes must be upper case. Codes that ISO lists for no country (gold,
 * silver, bond units, XTS testing, XXX no currency) are refused: nobody prices a walk in them.
 *
 * @example minorUnits('ZAR') // 2
 * @example minorUnits('JPY') // 0
 */
export function minorUnits(currency: string): number {
  const known = digitsOf.get(currency);
  if (known !== undefined) return known;
  const entry = /^[A-Z]{3}$/.test(currency) ? cc.code(currency) : undefined;
  // ISO 4217 names the "ZZ" entity for codes that are not money of any place.
  if (!entry || entry.countries.every((country) => /^zz/i.test(country))) {
    throw new PricingError('UNKNOWN_CURRENCY', `"${currency}" is not an ISO 4217 currency code.`, {
      currency,
    });
  }
  digitsOf.set(currency, entry.digits);
  return entry.digits;
}
