import type { Gazetteer } from './create-gazetteer.js';
import { normalizePlaceText } from './normalize-place-text.js';
import { resolvePoint } from './resolve-point.js';
import type { HomeArea, ResolvedPlace } from './types.js';

/**
 * Where a place another gazetteer of the same country found (one that knows the suburbs and postal
 * codes people type) is among this gazetteer's areas. An area holds it when the area is that suburb
 * (by name or alias), is its postal code alone (or, for a postal code shared by several suburbs, has
 * that code), or has a radius around a point that reaches the place's point; in that order. The place keeps its own suburb, postal code, point and town. A suburb's
 * place is the first area found; a postal code shared by several suburbs is every area that holds
 * any of them. Null when no area holds it, or when the place is not a suburb or postal code.
 *
 * @example
 * // A partner that listed "Die Boord" (no point, no radius); the operator's gazetteer knows Die Boord.
 * placeAmong(partner, resolveText(home, '12 Dorp Street, Die Boord')) // { kind: 'area', suburb: 'Die Boord', area: <the partner's>, ... }
 */
export function placeAmong(g: Gazetteer, place: ResolvedPlace): ResolvedPlace | null {
  if (place.kind !== 'area' && place.kind !== 'postal-code') return null;
  const found: HomeArea[] = [];
  const add = (a: HomeArea | undefined) => {
    if (a && !found.includes(a)) found.push(a);
  };
  for (const a of place.kind === 'area' ? [place.area] : place.areas)
    for (const name of [a.name, ...a.aliases]) add(g.areaPhrases.get(normalizePlaceText(name)));
  // A known suburb is held by a postal code alone of its code, not by another suburb of that code.
  const byCode = place.postalCode ? (g.areasByPostalCode.get(place.postalCode.toUpperCase()) ?? []) : [];
  for (const a of byCode) if (place.kind === 'postal-code' || a.postalCodeOnly) add(a);
  if (place.lat !== null && place.lng !== null) {
    const there = resolvePoint(g, place.lat, place.lng);
    if (there.kind === 'area') add(there.area);
  }
  const first = found[0];
  if (!first) return null;
  if (place.kind === 'area')
    return { ...place, area: first, postalCode: place.postalCode ?? first.postalCode, country: g.country };
  return { ...place, areas: found, country: g.country };
}
