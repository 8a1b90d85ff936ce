import cc from 'currency-codes';
import { PricingError } from './errors.js';

/**
 * Digits after the decimal point of an ISO 4217 currency, from the `currency-codes` data.
 *
 * @example minorUnits('ZAR') // 2
 * @example minorUnits('JPY') // 0
 */
export function minorUnits(currency: string): number {
  const entry = /^[A-Z]{3}$/.test(currency) ? cc.code(currency) : undefined;
  if (!entry || currency === 'XXX') throw new PricingError('UNKNOWN_CURRENCY', `${currency} is not an ISO 4217 currency code.`, { currency });
  return entry.digits;
}
