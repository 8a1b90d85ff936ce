import { pointOf } from './create-gazetteer.js';
import { haversineKm } from './haversine-km.js';
import type { HomeArea, LineAreas, LineCoverage, ResolvedPlace } from './types.js';

function areasOf(place: ResolvedPlace): HomeArea[] {
  switch (place.kind) {
    case 'area':
      return [place.area];
    case 'postal-code':
      return place.areas;
    case 'home-town':
      return [place.centre];
    default:
      return [];
  }
}

/**
 * Which lines serve a place. An area is served by a line that lists it; a postal code shared by
 * several areas by a line that serves any of them; the home town by the lines serving its centre.
 * Towns, countries and unknown places are never served. When nothing serves a place with
 * coordinates, `nearest` is the closest area with a point any line serves (0.1 km).
 *
 * @example lineCoverage(resolveText(g, 'Jonkershoek'), lines, areas).lines
 * // [{ id: 'grooming', covered: true }, { id: 'walking', covered: false }, ...]
 */
export function lineCoverage(
  place: ResolvedPlace,
  lines: readonly LineAreas[],
  areas: readonly HomeArea[],
): LineCoverage {
  const ids = new Set(areasOf(place).map((a) => a.id));
  const result = lines.map((l) => ({
    id: l.id,
    label: l.label,
    covered: l.areaIds.some((id) => ids.has(id)),
  }));
  const covered = result.some((l) => l.covered);
  let nearest: LineCoverage['nearest'] = null;
  const at =
    'lat' in place && place.lat !== null && place.lng !== null ? { lat: place.lat, lng: place.lng } : null;
  if (!covered && at) {
    const served = new Set(lines.flatMap((l) => l.areaIds));
    for (const a of areas) {
      const point = pointOf(a);
      if (!served.has(a.id) || !point) continue;
      const d = haversineKm(at, point);
      if (!nearest || d < nearest.distanceKm) nearest = { name: a.name, distanceKm: d };
    }
    if (nearest) nearest = { name: nearest.name, distanceKm: Math.round(nearest.distanceKm * 10) / 10 };
  }
  return { covered, lines: result, nearest };
}
