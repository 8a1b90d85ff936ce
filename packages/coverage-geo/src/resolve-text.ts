import type { Gazetteer } from './create-gazetteer.js';
import { normalizePlaceText } from './normalize-place-text.js';
import { parseLatLng } from './parse-lat-lng.js';
import { resolvePoint } from './resolve-point.js';
import { placeOfArea, placeOfAreas } from './resolve-postal-code.js';
import type { ResolvedPlace, Town } from './types.js';

/** Words of addresses that are also the names of some town somewhere: never a town on their own. */
export const ADDRESS_WORDS = new Set(
  (
    'street st road rd avenue ave lane ln drive dr way close crescent cres court ct place pl square sq terrace ' +
    'boulevard blvd highway hwy main park house flat unit apartment apt block building floor suite estate farm ' +
    'north south east west central centre center new old upper lower little great the and of at in on by near ' +
    'rua avenida calle strasse straat weg laan straße via rue chemin po box pobox number no my home work office ' +
    'city town village district suburb province state county region country'
  ).split(' '),
);

/** Towns of a single common word need this many people to be recognised without a country named. */
export const SINGLE_WORD_MIN_POPULATION = 15_000;

/** The towns of a name or another name, most populous first; undefined when none. */
function townsCalled(g: Gazetteer, key: string): readonly Town[] | undefined {
  const own = g.worldByName.get(key);
  const other = g.countryByName.has(key) ? undefined : g.worldByAltName.get(key);
  if (!other) return own;
  if (!own) return other;
  return [...new Set([...own, ...other])].sort((a, b) => (b.population ?? 0) - (a.population ?? 0));
}

interface Match {
  start: number;
  length: number;
}

function phrases(tokens: string[], longest: number): (Match & { key: string })[] {
  const out: (Match & { key: string })[] = [];
  for (let length = Math.min(longest, tokens.length); length >= 1; length--) {
    for (let start = 0; start + length <= tokens.length; start++) {
      out.push({ start, length, key: tokens.slice(start, start + length).join(' ') });
    }
  }
  return out;
}

/** Longest first, then the one nearer the end (addresses end with the town and country). */
function better(a: Match, b: Match | null): boolean {
  if (!b) return true;
  if (a.length !== b.length) return a.length > b.length;
  return a.start > b.start;
}

/**
 * Resolves typed text: "lat,lng", a home suburb or alias, a home postal code, a nearby town, the
 * home town, or a town or country anywhere. Text that names nothing we know is unknown, never a guess.
 *
 * A town is found by its name or any other name people use for it ("Lisboa", "München", "東京"); an
 * address that names its town is placed at that town. With `country` (the country the place is known
 * to be in, as a business's), a town of that country is taken before towns of that name elsewhere
 * unless the text names another country.
 *
 * @example resolveText(g, '12 Dorp Street, Die Boord, Stellenbosch 7600') // { kind: 'area', suburb: 'Die Boord', ... }
 * @example resolveText(g, 'Rua Augusta 100, Lisbon, Portugal') // { kind: 'town', town: 'Lisbon', country: 'PT', ... }
 * @example resolveText(g, 'Praça do Comércio, Lisboa', { country: 'PT' }) // { kind: 'town', town: 'Lisbon', ... }
 */
export function resolveText(g: Gazetteer, text: string, options: { country?: string } = {}): ResolvedPlace {
  const point = parseLatLng(text);
  if (point) return resolvePoint(g, point.lat, point.lng);
  const tokens = normalizePlaceText(text).split(' ').filter(Boolean);
  const all = phrases(tokens, g.longestPhrase);

  // 1. A suburb or locality of the home territory, by name or alias.
  let area: (Match & { key: string }) | null = null;
  for (const p of all) if (g.areaPhrases.has(p.key) && better(p, area)) area = p;
  if (area) return placeOfArea(g, g.areaPhrases.get(area.key)!);

  // 2. A home postal code (the last one given wins: it follows the street number).
  const upper = text
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  for (let i = upper.length - 1; i >= 0; i--) {
    const areas = g.areasByPostalCode.get(upper[i]!);
    if (areas) return placeOfAreas(g, upper[i]!, areas);
  }

  // 3. A town near the territory, by name or postal code.
  let nearby: (Match & { key: string }) | null = null;
  for (const p of all) if (g.nearbyByName.has(p.key) && better(p, nearby)) nearby = p;
  const nearbyTown = nearby
    ? g.nearbyByName.get(nearby.key)!
    : upper.map((t) => g.nearbyByPostalCode.get(t)).find(Boolean);
  if (nearbyTown) {
    return {
      kind: 'town',
      town: nearbyTown.name,
      country: nearbyTown.country,
      lat: nearbyTown.lat,
      lng: nearbyTown.lng,
      postalCode: nearbyTown.postalCode ?? null,
    };
  }

  // 4. Countries named anywhere in the text.
  const countries = new Set<string>();
  for (const p of all) {
    const code = g.countryByName.get(p.key);
    if (code) countries.add(code);
  }

  // 5. The home town alone ("Stellenbosch", "Stellenbosch, South Africa").
  // Only when the home town has a centre and an area there (areas without points have neither).
  const { centreArea, homeCentre } = g;
  if (
    centreArea &&
    homeCentre &&
    tokens.join(' ').includes(g.homeTownKey) &&
    (countries.size === 0 || countries.has(g.country))
  ) {
    const homeMatch = all.find((p) => p.key === g.homeTownKey);
    if (homeMatch) {
      return {
        kind: 'home-town',
        town: g.homeTown,
        centre: centreArea,
        lat: homeCentre.lat,
        lng: homeCentre.lng,
        country: g.country,
      };
    }
  }

  // 6. A town anywhere, by its name or another name (a country's name is the country's, never another
  // name of its capital), preferring towns of a country the text names, else of the given country.
  const given = countries.size === 0 ? options.country : undefined;
  let best: { match: Match; town: Town; inCountry: boolean } | null = null;
  for (const p of all) {
    const towns = townsCalled(g, p.key);
    if (!towns) continue;
    if (p.length === 1 && ADDRESS_WORDS.has(p.key)) continue;
    if (/^\d+$/.test(p.key)) continue;
    const inCountry = towns.find((t) => countries.has(t.country));
    const town = inCountry ?? (given ? towns.find((t) => t.country === given) : undefined) ?? towns[0]!;
    if (!inCountry && countries.size > 0) continue; // the text says which country; a town elsewhere is not it
    // A common word is a small town only where the text names its country (not merely given one).
    if (p.length === 1 && !inCountry && (town.population ?? 0) < SINGLE_WORD_MIN_POPULATION) continue;
    const candidate = { match: p, town, inCountry: Boolean(inCountry) };
    if (
      !best ||
      better(p, best.match) ||
      (p.length === best.match.length &&
        p.start === best.match.start &&
        (town.population ?? 0) > (best.town.population ?? 0))
    ) {
      best = candidate;
    }
  }
  if (best) {
    const t = best.town;
    return {
      kind: 'town',
      town: t.name,
      country: t.country,
      lat: t.lat,
      lng: t.lng,
      postalCode: t.postalCode ?? null,
    };
  }
  if (countries.size === 1) return { kind: 'country', country: [...countries][0]! };
  return { kind: 'unknown', reason: 'NO_PLACE_FOUND', query: text };
}
