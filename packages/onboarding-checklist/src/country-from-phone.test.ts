import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countryFromPhone } from './country-from-phone.js';

describe('countryFromPhone', () => {
  it.each([
    ['+351 912 345 678', 'PT', '351'],
    ['+81 3-1234-5678', 'JP', '81'],
    ['+27 21 123 4567', 'ZA', '27'],
    ['+55 11 91234-5678', 'BR', '55'],
    ['+44 20 7946 0958', 'GB', '44'],
    ['00351 912 345 678', 'PT', '351'],
    ['  +81 3 1234 5678 ', 'JP', '81'],
  ])('reads %s as %s from its calling code', (phone, country, callingCode) => {
    const found = countryFromPhone(phone);
    expect(found).toMatchObject({ country, callingCode });
    expect(found.reason).toContain(`+${callingCode}`);
  });

  it('tells the United States from Canada on +1 by the area code, and says when it cannot', () => {
    expect(countryFromPhone('+1 212 555 0123').country).toBe('US');
    expect(countryFromPhone('+1 (416) 555-0123').country).toBe('CA');
    const shared = countryFromPhone('+1 555 555 5555');
    expect(shared).toMatchObject({ country: null, callingCode: '1' });
    expect(shared.reason).toBe(
      '+1 is shared by 25 countries (United States and 24 others) and +1 555 555 5555 does not say which.',
    );
  });

  it('names both countries when a shared code has two', () => {
    expect(countryFromPhone('+7 000 000 0000').reason).toBe(
      '+7 is shared by 2 countries (Russia and Kazakhstan) and +7 000 000 0000 does not say which.',
    );
  });

  it('reads a number without a country code as South African only when it is a valid one (the spec asks for the code elsewhere)', () => {
    expect(countryFromPhone('082 123 4567')).toMatchObject({ country: 'ZA', callingCode: '27' });
    expect(countryFromPhone('0000').country).toBeNull();
    const bare = countryFromPhone('912 345 678');
    expect(bare.country).toBeNull();
    expect(bare.reason).toBe(
      'The phone 912 345 678 has no country code (like +351), so it does not say the country.',
    );
  });

  it('gives no country for a calling code that is no country’s, or for text that is no number', () => {
    expect(countryFromPhone('+800 1234 5678')).toEqual({
      country: null,
      callingCode: '800',
      reason: '+800 is not the calling code of a country.',
    });
    expect(countryFromPhone('hello').country).toBeNull();
    expect(countryFromPhone('+').country).toBeNull();
    expect(countryFromPhone('   ').reason).toBe('No phone number was given.');
  });

  it('never throws, and its reason is one line, for any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^(\+|00|0)?[0-9 ()-]{0,20}$/)), (phone) => {
        const found = countryFromPhone(phone);
        expect(found.reason).not.toMatch(/\n/);
        expect(found.reason.length).toBeGreaterThan(0);
        if (found.country !== null) expect(found.country).toMatch(/^[A-Z]{2}$/);
      }),
      { numRuns: 300 },
    );
  });
});
