import { describe, expect, it } from 'vitest';
import { createGazetteer } from './create-gazetteer.js';
import { normalizePlaceText } from './normalize-place-text.js';
import { resolveText } from './resolve-text.js';
import { areas, countries, nearbyTowns } from './test-fixtures.js';
import type { Town } from './types.js';

// A few towns as the GeoNames data gives them: a name, and the other names people use (a sample).
const towns: Town[] = [
  {
    name: 'Lisbon',
    country: 'PT',
    lat: 38.71667,
    lng: -9.13333,
    population: 517802,
    altNames: ['LIS', 'Lisabon', 'Lisboa', 'Lissabon', 'Lisbonne', 'Лиссабон', 'リスボン'],
  },
  {
    name: 'Munich',
    country: 'DE',
    lat: 48.13743,
    lng: 11.57549,
    population: 1260391,
    altNames: ['München', 'Monaco di Baviera', 'MUC'],
  },
  {
    name: 'Rome',
    country: 'IT',
    lat: 41.89193,
    lng: 12.51133,
    population: 2318895,
    altNames: ['Roma', 'Rom', 'Rzym'],
  },
  // A small town whose own name is Rome's local name.
  { name: 'Roma', country: 'AU', lat: -26.5733, lng: 148.7869, population: 6848 },
  {
    name: 'Tokyo',
    country: 'JP',
    lat: 35.6895,
    lng: 139.69171,
    population: 9733276,
    altNames: ['東京', 'Tokio', 'TYO'],
  },
  {
    name: 'Moscow',
    country: 'RU',
    lat: 55.75222,
    lng: 37.61556,
    population: 10381222,
    altNames: ['Москва', 'Moskau'],
  },
  {
    name: 'Mexico City',
    country: 'MX',
    lat: 19.42847,
    lng: -99.12766,
    population: 12294193,
    altNames: ['Ciudad de México', 'México', 'Mexico'],
  },
  // Same name in two countries: Porto in Portugal, and a larger Porto elsewhere by another name.
  { name: 'Porto', country: 'PT', lat: 41.14961, lng: -8.61099, population: 249633 },
  {
    name: 'Porto Velho',
    country: 'BR',
    lat: -8.76194,
    lng: -63.90389,
    population: 428527,
    altNames: ['Porto'],
  },
  { name: 'Stellenbosch', country: 'ZA', lat: -33.93462, lng: 18.86676, population: 77476 },
  { name: 'Franschhoek', country: 'ZA', lat: -33.91327, lng: 19.12161, population: 17500 },
];

const world = createGazetteer({
  country: 'ZA',
  homeTown: 'Stellenbosch',
  areas,
  nearbyTowns,
  worldTowns: towns,
  countries: [
    ...countries,
    { code: 'MX', names: ['Mexico', 'México'] },
    { code: 'AU', names: ['Australia'] },
    { code: 'BR', names: ['Brazil', 'Brasil'] },
  ],
});

const townOf = (text: string, options?: { country?: string }) => {
  const place = resolveText(world, text, options);
  return place.kind === 'town' ? `${place.town}, ${place.country}` : place.kind;
};

describe('towns by the names people write', () => {
  it.each([
    ['Lisboa', 'Lisbon, PT'],
    ['LISBOA', 'Lisbon, PT'],
    ['lisboa', 'Lisbon, PT'],
    ['Lissabon', 'Lisbon, PT'],
    ['Лиссабон', 'Lisbon, PT'],
    ['リスボン', 'Lisbon, PT'],
    ['München', 'Munich, DE'],
    ['Munchen', 'Munich, DE'],
    ['Monaco di Baviera', 'Munich, DE'],
    ['東京', 'Tokyo, JP'],
    ['Москва', 'Moscow, RU'],
    ['МОСКВА', 'Moscow, RU'],
    ['Ciudad de México', 'Mexico City, MX'],
    ['ciudad de mexico', 'Mexico City, MX'],
  ])('finds %s as %s', (text, town) => {
    expect(townOf(text)).toBe(town);
  });

  it('places an address at the town it names', () => {
    expect(townOf('Praça do Comércio, Lisboa')).toBe('Lisbon, PT');
    expect(townOf('Praca do Comercio, 1100-148 Lisboa, Portugal')).toBe('Lisbon, PT');
    expect(townOf('Marienplatz 1, 80331 München')).toBe('Munich, DE');
  });

  it('takes the most populous town of a name, whether its own name or another', () => {
    expect(townOf('Roma')).toBe('Rome, IT');
    // Unless the text names the small town's country.
    expect(townOf('Roma, Australia')).toBe('Roma, AU');
  });

  it('never finds a town by a code (an airport’s) or a country’s name', () => {
    expect(townOf('LIS')).toBe('unknown');
    expect(townOf('MUC')).toBe('unknown');
    expect(townOf('Mexico')).toBe('country');
  });

  it('takes a town of the country given before a larger one elsewhere, unless the text names another', () => {
    expect(townOf('Porto')).toBe('Porto Velho, BR');
    expect(townOf('Porto', { country: 'PT' })).toBe('Porto, PT');
    expect(townOf('Porto, Brazil', { country: 'PT' })).toBe('Porto Velho, BR');
  });

  it('keeps the home territory first: suburbs, nearby towns and the home town as before', () => {
    expect(resolveText(world, '12 Dorp Street, Die Boord, Stellenbosch 7600')).toMatchObject({
      kind: 'area',
      suburb: 'Die Boord',
    });
    expect(resolveText(world, 'Stellenbosch')).toMatchObject({ kind: 'home-town', town: 'Stellenbosch' });
    expect(resolveText(world, 'Somerset West')).toMatchObject({ kind: 'town', town: 'Somerset West' });
    expect(resolveText(world, 'the blue house behind the school').kind).toBe('unknown');
  });

  it('folds case, accents and punctuation the same way for every script', () => {
    expect(normalizePlaceText('Ciudad de MÉXICO')).toBe('ciudad de mexico');
    expect(normalizePlaceText('Zürich')).toBe(normalizePlaceText('ZURICH'));
    expect(normalizePlaceText('Kraków')).toBe('krakow');
    expect(normalizePlaceText('São Paulo')).toBe('sao paulo');
    expect(normalizePlaceText('Москва')).toBe('москва');
  });
});
