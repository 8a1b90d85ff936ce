import { minorUnits } from './minor-units.js';

/**
 * A price moved by a percentage (e.g. -10 for 10% less), rounded half away from zero to a whole
 * major unit of the currency (R342, not R342.37; ¥ and other currencies without minor units to the
 * unit). Never below zero.
 *
 * @example adjustPrice(38000, -10, 'ZAR') // 34200
 * @example adjustPrice(45000, -7, 'ZAR')  // 41900 (R418.50 rounds up to R419)
 */
export function adjustPrice(amountMinor: number, pct: number, currency: string): number {
  const unit = 10 ** minorUnits(currency);
  const exact = (amountMinor * (100 + pct)) / 100;
  const units = Math.sign(exact) * Math.round(Math.abs(exact) / unit);
  return Math.max(0, units * unit);
}
