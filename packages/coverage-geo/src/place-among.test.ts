import { beforeAll, describe, expect, it } from 'vitest';
import { createGazetteer, type Gazetteer } from './create-gazetteer.js';
import { lineCoverage } from './line-coverage.js';
import { placeAmong } from './place-among.js';
import { resolvePoint } from './resolve-point.js';
import { resolvePostalCode } from './resolve-postal-code.js';
import { resolveText } from './resolve-text.js';
import { countries, nearbyTowns, stellenbosch, worldTowns } from './test-fixtures.js';
import type { HomeArea } from './types.js';

// A business whose areas are only a suburb's name (no point, no radius) and a postal code alone,
// as a sign-up's area form makes them, beside the home territory's gazetteer that knows the suburbs.
const suburb: HomeArea = {
  id: 'p-boord',
  name: 'Die Boord',
  aliases: ['Die Boord (7600)'],
  postalCode: '7600',
  lat: null,
  lng: null,
  radiusKm: null,
  town: 'Stellenbosch',
  postalCodeShared: true,
};
const code: HomeArea = {
  id: 'p-7681',
  name: 'Postal code 7681',
  aliases: [],
  postalCode: '7681',
  lat: null,
  lng: null,
  radiusKm: null,
  town: 'Stellenbosch',
  postalCodeOnly: true,
};
const partnerOf = (areas: HomeArea[]) =>
  createGazetteer({
    country: 'ZA',
    homeTown: 'Stellenbosch',
    areas,
    nearbyTowns,
    worldTowns: worldTowns(),
    countries,
  });

let home: Gazetteer;
let partner: Gazetteer;
beforeAll(() => {
  home = stellenbosch();
  partner = partnerOf([suburb, code]);
});

describe('a gazetteer of areas without points', () => {
  it('is made with no areas at all, and then no place is an area', () => {
    const empty = partnerOf([]);
    expect(empty.centreArea).toBeNull();
    expect(resolveText(empty, 'Die Boord').kind).not.toBe('area');
    expect(resolvePoint(empty, -33.9477, 18.8502).kind).toBe('town');
    expect(resolvePostalCode(empty, '7600').kind).toBe('unknown');
  });

  it('finds a suburb by its name, with no point', () => {
    expect(resolveText(partner, '12 Dorp Street, Die Boord')).toMatchObject({
      kind: 'area',
      area: { id: 'p-boord' },
      suburb: 'Die Boord',
      lat: null,
      lng: null,
    });
  });

  it('says a listed suburb’s postal code alone names no suburb (other suburbs share it)', () => {
    expect(resolvePostalCode(partner, '7600')).toMatchObject({
      kind: 'postal-code',
      areas: [{ id: 'p-boord' }],
    });
  });

  it('finds a postal code alone by its code, naming no suburb, and never by its name', () => {
    expect(resolvePostalCode(partner, '7681')).toMatchObject({
      kind: 'postal-code',
      postalCode: '7681',
      areas: [{ id: 'p-7681' }],
      lat: null,
    });
    expect(resolveText(partner, 'Postal code 7681').kind).not.toBe('area');
  });

  it('never holds a point by distance, and names no nearest area without a point', () => {
    expect(resolvePoint(partner, -33.9477, 18.8502).kind).toBe('town');
    const lines = [{ id: 'grooming', label: 'Grooming', areaIds: ['p-boord', 'p-7681'] }];
    expect(lineCoverage(resolveText(partner, 'Franschhoek'), lines, [suburb, code]).nearest).toBeNull();
  });
});

describe('placeAmong', () => {
  it('puts a suburb the home territory knows in the area of that name, keeping its point', () => {
    const there = placeAmong(partner, resolveText(home, 'Die Boord'));
    expect(there).toMatchObject({
      kind: 'area',
      area: { id: 'p-boord' },
      suburb: 'Die Boord',
      postalCode: '7600',
    });
    expect(there?.kind === 'area' && there.lat).toBeCloseTo(-33.9477, 3);
  });

  it('puts a point of that suburb there too', () => {
    expect(placeAmong(partner, resolvePoint(home, -33.9477, 18.8502))).toMatchObject({
      kind: 'area',
      area: { id: 'p-boord' },
    });
  });

  it('puts a suburb of a listed postal code in the postal code’s area', () => {
    expect(placeAmong(partner, resolveText(home, 'Pniel'))).toMatchObject({
      kind: 'area',
      suburb: 'Pniel',
      postalCode: '7681',
      area: { id: 'p-7681' },
    });
  });

  it('puts a postal code shared by several suburbs among the areas that hold any of them', () => {
    expect(placeAmong(partner, resolvePostalCode(home, '7600'))).toMatchObject({
      kind: 'postal-code',
      postalCode: '7600',
      areas: [{ id: 'p-boord' }],
    });
  });

  it('is null for a suburb none of the areas holds (another suburb of the same code too), and for a town', () => {
    expect(placeAmong(partnerOf([code]), resolveText(home, 'Die Boord'))).toBeNull();
    expect(placeAmong(partner, resolveText(home, 'Dalsig'))).toBeNull();
    expect(placeAmong(partner, resolveText(home, 'Franschhoek'))).toBeNull();
  });

  it('keeps a radius around a point working: the point of the suburb within it', () => {
    const radius: HomeArea = {
      ...suburb,
      id: 'p-r',
      name: '6 km around the salon',
      aliases: [],
      postalCode: null,
      lat: -33.9346,
      lng: 18.8602,
      radiusKm: 6,
    };
    expect(placeAmong(partnerOf([radius]), resolveText(home, 'Die Boord'))).toMatchObject({
      kind: 'area',
      area: { id: 'p-r' },
      suburb: 'Die Boord',
    });
  });
});
