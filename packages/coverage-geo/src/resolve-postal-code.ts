import { type Gazetteer, pointOf } from './create-gazetteer.js';
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

/**
 * The place of a set of areas sharing a postal code: one suburb, or the code with their mean centre
 * (a postal code alone names no suburb; areas without a point leave it out, or null when none has one).
 */
export function placeOfAreas(g: Gazetteer, code: string, areas: readonly HomeArea[]): ResolvedPlace {
  const only = areas.length === 1 ? areas[0]! : null;
  if (only && !only.postalCodeOnly && !only.postalCodeShared) return placeOfArea(g, only);
  const towns = new Set(areas.map((a) => a.town));
  const points = areas.flatMap((a) => pointOf(a) ?? []);
  return {
    kind: 'postal-code',
    postalCode: code,
    areas: [...areas],
    // Mean of the centroids, to the 4 decimals (~11 m) the data has.
    lat: points.length ? round4(points.reduce((s, p) => s + p.lat, 0) / points.length) : null,
    lng: points.length ? round4(points.reduce((s, p) => s + p.lng, 0) / points.length) : null,
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
