import { type Gazetteer, pointOf } from './create-gazetteer.js';
import { haversineKm } from './haversine-km.js';
import type { HomeArea, ResolvedPlace } from './types.js';

/** How far from any town a point may be and still be said to be "in" it. */
export const MAX_TOWN_DISTANCE_KM = 100;

/**
 * Where a point is: the home area whose centroid is nearest, when within that area's radius (areas
 * without a point or radius never hold a point); otherwise the nearest town within 100 km; otherwise unknown.
 *
 * @example resolvePoint(g, -33.9477, 18.8502) // { kind: 'area', suburb: 'Die Boord', ... }
 */
export function resolvePoint(g: Gazetteer, lat: number, lng: number): ResolvedPlace {
  const point = { lat, lng };
  let best: HomeArea | null = null;
  let bestKm = Number.POSITIVE_INFINITY;
  for (const area of g.areas) {
    // An area known only by its name or postal code holds no point by distance.
    const at = pointOf(area);
    if (!at || area.radiusKm === null) continue;
    const d = haversineKm(point, at);
    if (d <= area.radiusKm && d < bestKm) {
      best = area;
      bestKm = d;
    }
  }
  if (best) {
    return {
      kind: 'area',
      area: best,
      suburb: best.name,
      postalCode: best.postalCode,
      lat,
      lng,
      town: best.town,
      country: g.country,
    };
  }
  const town = g.grid.nearest(point, MAX_TOWN_DISTANCE_KM);
  if (town) {
    return {
      kind: 'town',
      town: town.town.name,
      country: town.town.country,
      lat,
      lng,
      postalCode: town.town.postalCode ?? null,
    };
  }
  return { kind: 'unknown', reason: 'FAR_FROM_ANY_TOWN', query: `${lat},${lng}` };
}
