import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Province, provinceOfPostalCode } from './province-of-postal-code.js';

describe('provinceOfPostalCode', () => {
  it.each<[string, string, Province]>([
    ['Pretoria', '0002', 'GP'],
    ['Polokwane', '0699', 'LP'],
    ['Mbombela', '1200', 'MP'],
    ['Johannesburg', '2001', 'GP'],
    ['Potchefstroom', '2531', 'NW'],
    ['Newcastle', '2940', 'KZN'],
    ['Durban', '4001', 'KZN'],
    ['Mthatha', '5099', 'EC'],
    ['Gqeberha', '6001', 'EC'],
    ['George', '6529', 'WC'],
    ['Stellenbosch', '7600', 'WC'],
    ['Cape Town', '8001', 'WC'],
    ['Kimberley', '8301', 'NC'],
    ['Bloemfontein', '9301', 'FS'],
  ])('places %s (%s) in %s', (_, code, province) => {
    expect(provinceOfPostalCode(code)).toBe(province);
  });

  it.each<[string, Province]>([
    ['0001', 'GP'],
    ['0299', 'GP'],
    ['0300', 'NW'],
    ['0499', 'NW'],
    ['0500', 'LP'],
    ['0999', 'LP'],
    ['1000', 'MP'],
    ['1399', 'MP'],
    ['1400', 'GP'],
    ['2199', 'GP'],
    ['2200', 'MP'],
    ['2499', 'MP'],
    ['2500', 'NW'],
    ['2899', 'NW'],
    ['2900', 'KZN'],
    ['4730', 'KZN'],
    ['4731', 'EC'],
    ['6499', 'EC'],
    ['6500', 'WC'],
    ['8099', 'WC'],
    ['8100', 'NC'],
    ['8999', 'NC'],
    ['9000', 'FS'],
    ['9999', 'FS'],
  ])('follows the range edge at %s (%s)', (code, province) => {
    expect(provinceOfPostalCode(code)).toBe(province);
  });

  it('ignores spaces around the code', () => {
    expect(provinceOfPostalCode(' 8001 ')).toBe('WC');
  });

  it.each(['', '800', '80011', '80O1', '８００１', '-001', '0x10', '8 001', '0000', '1e3'])(
    'answers null for %j, which is not a street code',
    (code) => {
      expect(provinceOfPostalCode(code)).toBeNull();
    },
  );

  it('places every code from 0001 to 9999 in a province, and nothing else', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const province = provinceOfPostalCode(text);
        const isCode = /^[0-9]{4}$/.test(text.trim()) && text.trim() !== '0000';
        expect(province !== null).toBe(isCode);
      }),
    );
    for (let n = 1; n <= 9999; n++) expect(provinceOfPostalCode(String(n).padStart(4, '0'))).not.toBeNull();
  });
});
