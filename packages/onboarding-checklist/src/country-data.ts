// ISO data behind the defaults, read from well-kept packages rather than a hand list:
// countries-list (ISO 3166 countries, their names and ISO 4217 currencies), country-to-currency
// (each country's default currency) and countries-and-timezones (the IANA zones of each country).
import ct from 'countries-and-timezones';
import { countries } from 'countries-list';
import { currencies } from 'countries-list/currencies';
import countryToCurrency from 'country-to-currency';

type CountryCode = keyof typeof countries;

// ISO 4217 also lists funds and units of account (USN, CHE, CLF, UYI…) beside a country's money.
// A code that is no country's default currency is not money anybody prices a walk in.
const everydayCurrencies = new Set<string>(Object.values(countryToCurrency));

// The IANA areas of place-named zones (not legacy names such as US/Pacific or Etc/GMT+2).
const PLACE_ZONE =
  /^(Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific)\/[A-Za-z]/;

const allZones = ct.getAllTimezones({ deprecated: true });

function has<T extends object>(record: T, key: string): key is Extract<keyof T, string> {
  return Object.hasOwn(record, key);
}

/** True for an ISO 3166-1 alpha-2 code the data knows, upper case. */
export function isCountry(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && has(countries, code);
}

/** The country's English name ("Portugal"), or the code itself when the data has none. */
export function countryName(code: string): string {
  return has(countries, code) ? countries[code as CountryCode].name : code;
}

/** True for an ISO 4217 code the data knows, upper case. */
export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && has(currencies, code);
}

/** The currencies in everyday use in a country, in the data's order (Panama: PAB, USD). */
export function currenciesOf(country: string): string[] {
  if (!has(countries, country)) return [];
  const listed = countries[country as CountryCode].currency.filter((code) => everydayCurrencies.has(code));
  if (listed.length > 0) return [...new Set(listed)];
  const fallback = has(countryToCurrency, country) ? countryToCurrency[country] : undefined;
  return fallback ? [fallback] : [];
}

/** True for any IANA zone name the data knows, links included ("Europe/Amsterdam", "US/Pacific"). */
export function isTimezone(name: string): boolean {
  return has(allZones, name);
}

// Fewer than 260 countries: each one's zones are worked out once.
const zonesByCountry = new Map<string, string[]>();

/**
 * The country's time zones as IANA counts them (one per region whose clocks have agreed since
 * 1970), each under the name the country itself uses: Europe/Amsterdam for the Netherlands, whose
 * clocks tzdata keeps under Europe/Brussels.
 */
export function zonesOf(country: string): string[] {
  let zones = zonesByCountry.get(country);
  if (!zones) {
    zones = ct.getCountry(country)?.timezones.map((zone) => localName(country, zone)) ?? [];
    zonesByCountry.set(country, zones);
  }
  return [...zones];
}

/** Every zone name that is the country's, links included: what a defaulted zone must be one of. */
export function allZonesOf(country: string): string[] {
  return ct.getCountry(country, { deprecated: true })?.timezones ?? [];
}

// Place-named links by the zone they point to, sorted by name, built once.
const linksTo = new Map<string, { name: string; countries: readonly string[] }[]>();
for (const zone of Object.values(allZones).sort((a, b) => (a.name < b.name ? -1 : 1))) {
  if (!zone.aliasOf || !PLACE_ZONE.test(zone.name)) continue;
  const links = linksTo.get(zone.aliasOf) ?? [];
  links.push({ name: zone.name, countries: zone.countries ?? [] });
  linksTo.set(zone.aliasOf, links);
}

/** A zone's own name when the country comes first in its list, else the country's own link to it. */
function localName(country: string, zone: string): string {
  if (ct.getTimezone(zone)?.countries?.[0] === country) return zone;
  return linksTo.get(zone)?.find((link) => link.countries.includes(country))?.name ?? zone;
}

/** A zone's country list (for notes such as "not a time zone of South Africa"). */
export function zoneCountries(name: string): string[] {
  return has(allZones, name) ? [...(allZones[name].countries ?? [])] : [];
}
