import { countryFromPhone } from './country-from-phone.js';
import { countryName, currenciesOf, isCountry, zonesOf } from './country-data.js';
import { listWords, MAX_LISTED_ZONES } from './text.js';
import type { Defaults, DefaultsInput } from './types.js';

/**
 * The country, currency and time zone a new application starts with, as far as ISO data can tell.
 * The country is the one given (an ISO 3166 two-letter code, any case) or, when none is given, the
 * one the phone's calling code implies. The currency is the country's when it has exactly one in
 * everyday use; the time zone the country's when it has exactly one (so the United States, Brazil,
 * Australia, Russia and Canada, and also Portugal with the Azores and Spain with the Canaries, leave
 * it to the person, with the choices listed). Every field comes with a reason in plain words.
 *
 * @example defaultsFor({ phone: '+81 3-1234-5678' }) // { country: 'JP', currency: 'JPY', timezone: 'Asia/Tokyo', … }
 * @example defaultsFor({ country: 'us' })             // { country: 'US', currency: 'USD', timezone: null, timezoneChoices: [29 zones], … }
 */
export function defaultsFor(input: DefaultsInput): Defaults {
  const phone =
    typeof input.phone === 'string' && input.phone.trim() !== '' ? countryFromPhone(input.phone) : null;
  const given = typeof input.country === 'string' ? input.country.trim() : '';

  let country: string | null = null;
  let countrySource: Defaults['sources']['country'] = null;
  let countryReason: string;
  if (given !== '') {
    const code = given.toUpperCase();
    const phoneHint =
      phone?.country && phone.country !== code
        ? ` The phone's +${phone.callingCode} is ${countryName(phone.country)}'s (${phone.country}).`
        : '';
    if (isCountry(code)) {
      country = code;
      countrySource = 'given';
      countryReason = `${countryName(code)} (${code}), as given.${phoneHint}`;
    } else {
      countryReason = `"${given.slice(0, 40)}" is not a two-letter ISO 3166 country code (like PT).${phoneHint}`;
    }
  } else if (phone?.country) {
    country = phone.country;
    countrySource = 'phone';
    countryReason = phone.reason;
  } else {
    countryReason = phone
      ? `No country was given, and ${phone.reason.replace(/^The /, 'the ')}`
      : 'No country was given, and no phone number to tell it from.';
  }

  const defaults: Defaults = {
    country,
    currency: null,
    timezone: null,
    sources: { country: countrySource, currency: null, timezone: null },
    currencyChoices: [],
    timezoneChoices: [],
    reasons: {
      country: countryReason,
      currency: 'No currency without the country.',
      timezone: 'No time zone without the country.',
    },
  };
  if (country === null) return defaults;

  const name = `${countryName(country)} (${country})`;
  const currencies = currenciesOf(country);
  if (currencies.length === 1) {
    defaults.currency = currencies[0]!;
    defaults.sources.currency = 'country';
    defaults.reasons.currency = `${name} has one currency, ${currencies[0]}.`;
  } else if (currencies.length > 1) {
    defaults.currencyChoices = currencies;
    defaults.reasons.currency = `${name} uses ${currencies.length} currencies (${listWords(currencies, 'or')}): the person says which the prices are in.`;
  } else {
    defaults.reasons.currency = `The ISO data has no currency for ${name}: the person says which.`;
  }

  const zones = zonesOf(country);
  if (zones.length === 1) {
    defaults.timezone = zones[0]!;
    defaults.sources.timezone = 'country';
    defaults.reasons.timezone = `${name} has one time zone, ${zones[0]}.`;
  } else if (zones.length > 1) {
    defaults.timezoneChoices = zones;
    const listed = zones.length <= MAX_LISTED_ZONES ? ` (${listWords(zones, 'or')})` : '';
    defaults.reasons.timezone = `${name} has ${zones.length} time zones${listed}: the person says which the business keeps.`;
  } else {
    defaults.reasons.timezone = `The IANA data has no time zone for ${name}: the person says which.`;
  }
  return defaults;
}
