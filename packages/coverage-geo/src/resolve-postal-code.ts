import type { Gazetteer } from './create-gazetteer.js';
import type { HomeArea, ResolvedPlace } from './types.js';

function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

/** The place of one home area: the suburb itself. */
export function placeOfArea(g: Gazetteer, a: HomeArea): ResolvedPlace {
  return {
    kind: 'area',
    area: a,
    suburb: a.name,
    postalCode: a.postalCode,
    lat: a.lat,
    lng: a.lng,
    town: a.town,
    country: g.country,
  };
}

/** The place of a set of areas sharing a postal code: one area, or the code with their mean centre. */
export function placeOfAreas(g: Gazetteer, code: string, areas: readonly HomeArea[]): ResolvedPlace {
  if (areas.length === 1) return placeOfArea(g, areas[0]!);
  const towns = new Set(areas.map((a) => a.town));
  return {
    kind: 'postal-code',
    postalCode: code,
    areas: [...areas],
    // Mean of the centroids, to the 4 decimals (~11 m) the data has.
    lat: round4(areas.reduce((s, a) => s + a.lat, 0) / areas.length),
    lng: round4(areas.reduce((s, a) => s + a.lng, 0) / areas.length),
    town: towns.size === 1 ? [...towns][0]! : null,
    country: g.country,
  };
}

/**
 * A postal code: a home code (one area, or several sharing it), a nearby town's code, or unknown.
 * Postal codes elsewhere in the world are not in offline data, so they are unknown, not guessed.
 *
 * @example resolvePostalCode(g, '7600') // { kind: 'postal-code', areas: [...], ... }
 */
export function resolvePostalCode(g: Gazetteer, code: string): ResolvedPlace {
  const key = code.trim().toUpperCase();
  const areas = g.areasByPostalCode.get(key);
  if (areas) return placeOfAreas(g, key, areas);
  const town = g.nearbyByPostalCode.get(key);
  if (town)
    return {
      kind: 'town',
      town: town.name,
      country: town.country,
      lat: town.lat,
      lng: town.lng,
      postalCode: key,
    };
  return { kind: 'unknown', reason: 'UNKNOWN_POSTAL_CODE', query: code };
}
