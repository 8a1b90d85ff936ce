import type { Context } from './context.js';
import { countryName, isCurrency, isTimezone, zoneCountries } from './country-data.js';
import { type Finding, requiredItem } from './item.js';
import { isSet, listWords, MAX_LISTED_ZONES, nameOf } from './text.js';
import type { ChecklistItem } from './types.js';

const fixWith = 'start_business_signup';

/**
 * Details: the business name, the town, the country (given, or from the phone's calling code), what
 * it offers, and the currency and time zone (given, or defaulted from the country when it has
 * exactly one). A value given but not valid needs attention; one neither given nor defaultable is
 * missing, with the country's choices named when there are several.
 */
export function checkDetails({ data, defaults, country, offered }: Context): ChecklistItem {
  const findings: Finding[] = [];
  const missing = (text: string) => findings.push({ text, status: 'MISSING', fixWith });
  const wrong = (text: string) => findings.push({ text, status: 'NEEDS_ATTENTION', fixWith });
  const notes: string[] = [];
  const defaulted: string[] = [];

  if (!isSet(data.businessName)) missing('the business name');
  if (!isSet(data.town)) missing('the town the business works in');

  if (isSet(data.country) && country === null) {
    wrong(`a two-letter ISO country code instead of "${nameOf(data.country, '')}" (like PT or ZA)`);
  } else if (country === null) {
    missing(
      isSet(data.phone)
        ? `the country (a two-letter ISO code like PT): the phone does not tell it`
        : 'the country (a two-letter ISO code like PT), or a phone number with its country code',
    );
  } else if (defaults.sources.country === 'phone') {
    notes.push(`${countryName(country)} (${country}) comes from the phone's calling code.`);
  }

  if (offered.length === 0) missing('what the business offers: grooming, walking or sitting');

  const place = country ? `${countryName(country)} (${country})` : null;
  if (isSet(data.currency)) {
    if (!isCurrency(data.currency.trim().toUpperCase())) {
      wrong(`an ISO 4217 currency code instead of "${nameOf(data.currency, '')}" (like EUR)`);
    }
  } else if (defaults.currency) {
    defaulted.push(`the currency ${defaults.currency}`);
  } else if (defaults.currencyChoices.length > 0) {
    missing(`the currency the prices are in: ${place} uses ${listWords(defaults.currencyChoices, 'or')}`);
  } else {
    missing(
      'the currency the prices are in (an ISO 4217 code like EUR; it follows from the country when the country has one)',
    );
  }

  if (isSet(data.timezone)) {
    const zone = data.timezone.trim();
    if (!isTimezone(zone)) {
      wrong(`an IANA time zone instead of "${nameOf(zone, '')}" (like Europe/Lisbon)`);
    } else if (country && !zoneCountries(zone).includes(country) && zoneCountries(zone).length > 0) {
      // Not refused: a business near a border may keep a neighbour's clock. Worth a second look.
      notes.push(`${zone} is not a time zone of ${place}: check it is the one the business keeps.`);
    }
  } else if (defaults.timezone) {
    defaulted.push(`the time zone ${defaults.timezone}`);
  } else if (defaults.timezoneChoices.length > 0) {
    const choices = defaults.timezoneChoices;
    missing(
      choices.length <= MAX_LISTED_ZONES
        ? `the time zone the business keeps: ${place} has ${choices.length} (${listWords(choices, 'or')})`
        : `the time zone the business keeps: ${place} has ${choices.length}, so ask which city's clock it keeps (an IANA name, Area/City)`,
    );
  } else {
    missing(
      'the time zone the business keeps (an IANA name like Europe/Lisbon; it follows from the country when the country has one)',
    );
  }

  if (defaulted.length > 0) {
    const what = listWords(defaulted);
    notes.push(
      `${what[0]!.toUpperCase()}${what.slice(1)} ${defaulted.length === 1 ? 'follows' : 'follow'} from the country.`,
    );
  }
  return requiredItem('details', findings, fixWith, notes.length > 0 ? notes.join(' ') : null);
}
