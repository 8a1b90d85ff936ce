import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { countryName } from './country-data.js';

export interface PhoneCountry {
  /** ISO 3166-1 alpha-2, or null when the number does not tell. */
  country: string | null;
  /** The calling code read, without "+": "351". Null when none was read. */
  callingCode: string | null;
  /** One plain sentence: which country and why, or why none. */
  reason: string;
}

/** The phone as it may be quoted back: one line, at most 40 characters. */
export function quotePhone(phone: string): string {
  const line = phone.replace(/\s+/g, ' ').trim();
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}

/**
 * The country a phone number belongs to, from its calling code (libphonenumber-js). The spec asks
 * for the country code everywhere but South Africa, so a number written the South African way
 * (0 then 9 digits, "082 123 4567") is South African when it is a valid one; any other number
 * without "+" or "00" says nothing. A calling code shared by several countries (+1, +7, +44) gives
 * the country the number's own digits point to, or none when they do not tell.
 *
 * @example countryFromPhone('+351 912 345 678').country // 'PT'
 * @example countryFromPhone('+1 212 555 0123').country  // 'US' (the 212 area code is New York's)
 * @example countryFromPhone('+1 555 555 5555').country  // null: +1 is shared and 555 is no area code
 */
export function countryFromPhone(phone: string): PhoneCountry {
  const quoted = quotePhone(phone);
  if (quoted === '') return { country: null, callingCode: null, reason: 'No phone number was given.' };
  const international = /^(\+|00)/.test(quoted);
  if (!international && !quoted.startsWith('0')) {
    return {
      country: null,
      callingCode: null,
      reason: `The phone ${quoted} has no country code (like +351), so it does not say the country.`,
    };
  }
  // "00" is the international prefix in South Africa (and most of the world): read it as "+". Only
  // a number without either is read as a South African one.
  const parsed = international
    ? parsePhoneNumberFromString(quoted.replace(/^00/, '+'))
    : parsePhoneNumberFromString(quoted, 'ZA');
  if (!parsed) {
    return { country: null, callingCode: null, reason: `${quoted} is not a phone number that can be read.` };
  }
  const callingCode = parsed.countryCallingCode;
  if (!international) {
    return parsed.country === 'ZA' && parsed.isValid()
      ? {
          country: 'ZA',
          callingCode,
          reason: `The phone ${quoted} has no country code, which only South African numbers may leave out.`,
        }
      : {
          country: null,
          callingCode: null,
          reason: `The phone ${quoted} has no country code (like +351) and is not a South African number.`,
        };
  }
  const possible = parsed.getPossibleCountries();
  const country = parsed.country ?? (possible.length === 1 ? possible[0] : undefined);
  if (country) {
    return {
      country,
      callingCode,
      reason: `${countryName(country)} (${country}), from the phone's calling code +${callingCode}.`,
    };
  }
  if (possible.length > 1) {
    const others = possible.length - 1;
    const named = `${countryName(possible[0]!)} and ${others === 1 ? countryName(possible[1]!) : `${others} others`}`;
    return {
      country: null,
      callingCode,
      reason: `+${callingCode} is shared by ${possible.length} countries (${named}) and ${quoted} does not say which.`,
    };
  }
  return { country: null, callingCode, reason: `+${callingCode} is not the calling code of a country.` };
}
