// What every rule needs to know about an application, worked out once. Not exported from the package.
import { isCurrency } from './country-data.js';
import { defaultsFor } from './defaults-for.js';
import type { ApplicationData, Category, Defaults } from './types.js';

export const CATEGORIES: readonly Category[] = ['grooming', 'walking', 'sitting'];

export interface Context {
  data: ApplicationData;
  defaults: Defaults;
  /** The country the application is in: as given, or from the phone. Null when unknown or not valid. */
  country: string | null;
  /** The currency prices are in: as given when valid, else the country's default. */
  currency: string | null;
  /** The lines offered, each once, in the order grooming, walking, sitting. */
  offered: Category[];
}

/** The array, or an empty one for null, absent or anything that is not an array. */
export function arrayOf<T>(value: readonly T[] | null | undefined): readonly T[] {
  return Array.isArray(value) ? value : [];
}

export function contextOf(data: ApplicationData): Context {
  const defaults = defaultsFor({ country: data.country ?? null, phone: data.phone ?? null });
  const given = typeof data.currency === 'string' ? data.currency.trim().toUpperCase() : '';
  const currency = isCurrency(given) ? given : given === '' ? defaults.currency : null;
  const categories = arrayOf(data.categories);
  return {
    data,
    defaults,
    country: defaults.country,
    currency,
    offered: CATEGORIES.filter((category) => categories.includes(category)),
  };
}
