import { minorUnits } from './minor-units.js';

/**
 * A price moved by a percentage (`-10` is 10% cheaper), rounded half away from zero to a whole
 * major unit of the currency: R342, not R342.37; ¥ and other currencies without minor units to the
 * unit; BHD to the whole dinar. A `pct` of 0 returns the price unchanged, and the result is never
 * below zero.
 *
 * @example adjustPrice(38000, -10, 'ZAR') // 34200 (R342)
 * @example adjustPrice(45000, -7, 'ZAR')  // 41900 (R418.50 rounds up to R419)
 * @example adjustPrice(1250, 10, 'JPY')   // 1375 (¥1,375)
 */
export function adjustPrice(amountMinor: number, pct: number, currency: string): number {
  const unit = 10 ** minorUnits(currency);
  // Nothing to adjust, so nothing to round: a template price stays exactly as the operator set it.
  if (pct === 0) return amountMinor;
  // One division of integers (for whole pct) is correctly rounded, so an exact half stays exact.
  const units = (amountMinor * (100 + pct)) / (100 * unit);
  const rounded = Math.sign(units) * Math.round(Math.abs(units));
  return Math.max(0, rounded * unit);
}
