import { beforeAll, describe, expect, it } from 'vitest';
import type { Gazetteer } from './create-gazetteer.js';
import { resolveText } from './resolve-text.js';
import { stellenbosch } from './test-fixtures.js';

let g: Gazetteer;
beforeAll(() => {
  g = stellenbosch();
});

describe('resolveText', () => {
  it.each([
    ['Die Boord', 'Die Boord'],
    ['die boord', 'Die Boord'],
    ['  DIE   BOORD ', 'Die Boord'],
    ['Idasvallei', 'Idas Valley'],
    ["Ida's Valley", 'Idas Valley'],
    ['Pniël', 'Pniel'],
    ['Pniel', 'Pniel'],
    ['12 Dorp Street, Die Boord, Stellenbosch 7600', 'Die Boord'],
    ['4 Jonkershoek Road, Jonkershoek Valley', 'Jonkershoek'],
    ['Franschhoek', 'Franschhoek'],
  ])('finds the home suburb in %j', (text, suburb) => {
    expect(resolveText(g, text)).toMatchObject({ kind: 'area', suburb, country: 'ZA' });
  });

  it('reads a postal code several suburbs share as that code, suburb unknown', () => {
    const place = resolveText(g, '7600');
    expect(place).toMatchObject({
      kind: 'postal-code',
      postalCode: '7600',
      town: 'Stellenbosch',
      country: 'ZA',
    });
    expect(place.kind === 'postal-code' && place.areas.length).toBeGreaterThan(10);
  });

  it('reads a postal code only one suburb has as that suburb', () => {
    expect(resolveText(g, 'Main Road 7681')).toMatchObject({ kind: 'area', suburb: 'Pniel' });
  });

  it.each([['Somerset West'], ['7130'], ['5 Main Road, Somerset West 7130']])(
    'finds the nearby town in %j',
    (text) => {
      expect(resolveText(g, text)).toMatchObject({
        kind: 'town',
        town: 'Somerset West',
        country: 'ZA',
        postalCode: '7130',
      });
    },
  );

  it('takes the home town named alone as the town, suburb unknown', () => {
    expect(resolveText(g, 'Stellenbosch')).toMatchObject({
      kind: 'home-town',
      town: 'Stellenbosch',
      country: 'ZA',
    });
    expect(resolveText(g, 'Stellenbosch, South Africa')).toMatchObject({ kind: 'home-town' });
  });

  it.each([
    ['Rua Augusta 100, Lisbon, Portugal', 'Lisbon', 'PT'],
    ['Lisbon', 'Lisbon', 'PT'],
    ['London', 'London', 'GB'],
    ['London, Canada', 'London', 'CA'],
    ['Paris, France', 'Paris', 'FR'],
    ['Paris', 'Paris', 'FR'],
    ['221B Baker Street, London', 'London', 'GB'],
    ['Johannesburg', 'Johannesburg', 'ZA'],
  ])('finds the town abroad in %j', (text, town, country) => {
    expect(resolveText(g, text)).toMatchObject({ kind: 'town', town, country });
  });

  it('answers a country named alone as the country', () => {
    expect(resolveText(g, 'Portugal')).toEqual({ kind: 'country', country: 'PT' });
  });

  it.each([
    ['asdfgh'],
    ['asdfgh qwerty'],
    ['12 Main Road'],
    ['the house on the corner'],
    ['Flat 4, 12 North Street'],
  ])('does not guess a place in %j', (text) => {
    expect(resolveText(g, text)).toMatchObject({ kind: 'unknown', reason: 'NO_PLACE_FOUND', query: text });
  });

  it('reads "lat,lng" text as a point', () => {
    expect(resolveText(g, '-33.9477, 18.8502')).toMatchObject({ kind: 'area', suburb: 'Die Boord' });
    expect(resolveText(g, '38.7223,-9.1393')).toMatchObject({ kind: 'town', country: 'PT' });
  });
});
