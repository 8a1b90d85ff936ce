import { countries } from 'countries-list';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allZonesOf, currenciesOf, zonesOf } from './country-data.js';
import { defaultsFor } from './defaults-for.js';

const COUNTRY_CODES = Object.keys(countries);

describe('defaultsFor', () => {
  it('a Lisbon number: Portugal and the euro, but no zone, since Portugal has three (the Azores keep another clock)', () => {
    const lisbon = defaultsFor({ phone: '+351 912 345 678' });
    expect(lisbon).toMatchObject({
      country: 'PT',
      currency: 'EUR',
      timezone: null,
      sources: { country: 'phone', currency: 'country', timezone: null },
      timezoneChoices: ['Atlantic/Azores', 'Atlantic/Madeira', 'Europe/Lisbon'],
    });
    expect(lisbon.reasons).toEqual({
      country: "Portugal (PT), from the phone's calling code +351.",
      currency: 'Portugal (PT) has one currency, EUR.',
      timezone:
        'Portugal (PT) has 3 time zones (Atlantic/Azores, Atlantic/Madeira or Europe/Lisbon): the person says which the business keeps.',
    });
  });

  it('a Tokyo number: Japan, yen and Asia/Tokyo', () => {
    expect(defaultsFor({ phone: '+81 3-1234-5678' })).toMatchObject({
      country: 'JP',
      currency: 'JPY',
      timezone: 'Asia/Tokyo',
      sources: { country: 'phone', currency: 'country', timezone: 'country' },
      timezoneChoices: [],
    });
  });

  it('a Stellenbosch number: South Africa, rand and Africa/Johannesburg', () => {
    const za = defaultsFor({ phone: '+27 21 123 4567' });
    expect(za).toMatchObject({ country: 'ZA', currency: 'ZAR', timezone: 'Africa/Johannesburg' });
    expect(za.reasons.timezone).toBe('South Africa (ZA) has one time zone, Africa/Johannesburg.');
  });

  it.each([
    ['US', 'USD', 29],
    ['BR', 'BRL', 16],
    ['AU', 'AUD', 13],
    ['RU', 'RUB', 27],
    ['CA', 'CAD', 23],
  ])('%s: %s, and the zone left to the person among %i', (country, currency, zones) => {
    const found = defaultsFor({ country });
    expect(found).toMatchObject({ country, currency, timezone: null });
    expect(found.timezoneChoices).toHaveLength(zones);
    expect(found.reasons.timezone).toMatch(new RegExp(`has ${zones} time zones: the person says which`));
  });

  it('takes the country in any case and with spaces', () => {
    expect(defaultsFor({ country: ' us ' })).toMatchObject({ country: 'US', sources: { country: 'given' } });
  });

  it('names a shared zone the way the country does: Europe/Amsterdam, not Europe/Brussels, for the Netherlands', () => {
    expect(defaultsFor({ country: 'NL' }).timezone).toBe('Europe/Amsterdam');
    expect(defaultsFor({ country: 'NO' }).timezone).toBe('Europe/Oslo');
    expect(defaultsFor({ country: 'BE' }).timezone).toBe('Europe/Brussels');
  });

  it('leaves out ISO funds and units of account: the United States is USD, Switzerland CHF, Chile CLP', () => {
    expect(defaultsFor({ country: 'US' }).currency).toBe('USD');
    expect(defaultsFor({ country: 'CH' }).currency).toBe('CHF');
    expect(defaultsFor({ country: 'CL' }).currency).toBe('CLP');
  });

  it('leaves the currency to the person where two are in everyday use (Panama)', () => {
    const panama = defaultsFor({ country: 'PA' });
    expect(panama).toMatchObject({
      currency: null,
      currencyChoices: ['PAB', 'USD'],
      timezone: 'America/Panama',
    });
    expect(panama.reasons.currency).toBe(
      'Panama (PA) uses 2 currencies (PAB or USD): the person says which the prices are in.',
    );
  });

  it('keeps the country given over the phone’s, and says the phone points elsewhere', () => {
    const found = defaultsFor({ country: 'ZA', phone: '+351 912 345 678' });
    expect(found).toMatchObject({ country: 'ZA', currency: 'ZAR' });
    expect(found.reasons.country).toBe("South Africa (ZA), as given. The phone's +351 is Portugal's (PT).");
  });

  it('refuses a country that is not an ISO code rather than guessing from the phone', () => {
    const found = defaultsFor({ country: 'Portugal', phone: '+351 912 345 678' });
    expect(found).toMatchObject({ country: null, currency: null, timezone: null });
    expect(found.reasons.country).toBe(
      `"Portugal" is not a two-letter ISO 3166 country code (like PT). The phone's +351 is Portugal's (PT).`,
    );
  });

  it('says why there is no country when nothing tells it', () => {
    expect(defaultsFor({}).reasons).toEqual({
      country: 'No country was given, and no phone number to tell it from.',
      currency: 'No currency without the country.',
      timezone: 'No time zone without the country.',
    });
    expect(defaultsFor({ phone: '+1 555 555 5555' }).reasons.country).toBe(
      'No country was given, and +1 is shared by 25 countries (United States and 24 others) and +1 555 555 5555 does not say which.',
    );
    expect(defaultsFor({ phone: '912 345 678' }).reasons.country).toBe(
      'No country was given, and the phone 912 345 678 has no country code (like +351), so it does not say the country.',
    );
  });

  describe('for every country the data knows', () => {
    const every = fc.constantFrom(...COUNTRY_CODES);

    it('defaults a zone only when the country has exactly one, and always one of that country', () => {
      fc.assert(
        fc.property(every, (country) => {
          const found = defaultsFor({ country });
          const zones = zonesOf(country);
          if (found.timezone !== null) {
            expect(zones).toHaveLength(1);
            expect(allZonesOf(country)).toContain(found.timezone);
            expect(
              Intl.DateTimeFormat(undefined, { timeZone: found.timezone }).resolvedOptions().timeZone,
            ).toBeTruthy();
          } else {
            expect(zones).not.toHaveLength(1);
            expect(found.timezoneChoices).toEqual(zones.length > 1 ? zones : []);
          }
        }),
        { numRuns: COUNTRY_CODES.length * 2 },
      );
    });

    it('defaults a currency only when the country has exactly one in everyday use', () => {
      fc.assert(
        fc.property(every, (country) => {
          const found = defaultsFor({ country });
          const currencies = currenciesOf(country);
          expect(found.currency).toBe(currencies.length === 1 ? currencies[0] : null);
          expect(found.currencyChoices).toEqual(currencies.length > 1 ? currencies : []);
        }),
        { numRuns: COUNTRY_CODES.length * 2 },
      );
    });
  });

  it('never throws, and gives one-line reasons, for any input', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            country: fc.option(fc.oneof(fc.string(), fc.constantFrom(...COUNTRY_CODES)), { nil: null }),
            phone: fc.option(fc.oneof(fc.string(), fc.stringMatching(/^\+[1-9][0-9 ]{4,14}$/)), {
              nil: null,
            }),
          },
          { requiredKeys: [] },
        ),
        (input) => {
          const before = structuredClone(input);
          const found = defaultsFor(input);
          expect(input).toEqual(before);
          for (const reason of Object.values(found.reasons)) {
            expect(reason).toMatch(/^\S/);
            expect(reason).not.toMatch(/\n/);
          }
          if (found.country === null) expect(found.currency ?? found.timezone).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });
});
