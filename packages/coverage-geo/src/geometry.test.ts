import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { haversineKm } from './haversine-km.js';
import { normalizePlaceText } from './normalize-place-text.js';
import { parseLatLng } from './parse-lat-lng.js';

const point = fc.record({
  lat: fc.double({ min: -90, max: 90, noNaN: true }),
  lng: fc.double({ min: -180, max: 180, noNaN: true }),
});

describe('haversineKm', () => {
  it('measures Stellenbosch Central to Die Boord as about 1.6 km', () => {
    expect(haversineKm({ lat: -33.9367, lng: 18.8614 }, { lat: -33.9477, lng: 18.8502 })).toBeCloseTo(1.6, 1);
  });

  it('is symmetric, zero to itself, and keeps the triangle inequality', () => {
    fc.assert(
      fc.property(point, point, point, (a, b, c) => {
        expect(haversineKm(a, a)).toBe(0);
        expect(haversineKm(a, b)).toBeCloseTo(haversineKm(b, a), 9);
        // Near antipodal points asin(√h) is ill-conditioned: the formula is good to about 0.1 m
        // there (R·√ε), so the inequality holds to a metre, not to a millimetre.
        expect(haversineKm(a, c)).toBeLessThanOrEqual(haversineKm(a, b) + haversineKm(b, c) + 1e-3);
        expect(haversineKm(a, b)).toBeLessThanOrEqual(20_016);
      }),
    );
  });
});

describe('parseLatLng', () => {
  it.each([
    ['-33.9477, 18.8502', { lat: -33.9477, lng: 18.8502 }],
    ['90,180', { lat: 90, lng: 180 }],
    ['-90 , -180', { lat: -90, lng: -180 }],
    ['+1.5,2', { lat: 1.5, lng: 2 }],
  ])('reads %j', (text, expected) => {
    expect(parseLatLng(text)).toEqual(expected);
  });

  it.each([['90.0001,0'], ['0,180.0001'], ['12 34'], ['Die Boord'], ['1,2,3'], [''], ['-33.9 18.8']])(
    'refuses %j',
    (text) => {
      expect(parseLatLng(text)).toBeNull();
    },
  );
});

describe('normalizePlaceText', () => {
  it.each([
    ["Ida's Valley", 'idas valley'],
    ['PNIËL', 'pniel'],
    ['Onder-Papegaaiberg', 'onder papegaaiberg'],
    ['  Die   Boord,  7600 ', 'die boord 7600'],
  ])('folds %j to %j', (text, expected) => {
    expect(normalizePlaceText(text)).toBe(expected);
  });
});
