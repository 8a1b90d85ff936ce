import { createGazetteer, type Gazetteer } from '@nogpets/coverage-geo';
import type { Offer } from '@nogpets/store';
import type { GeoData } from './world-data.js';

// Building the world index takes a moment, so a gazetteer is kept while the offer's places stay the
// same: per offer object (the offer cache hands out the same one while fresh), then by content, one
// per business (the operator's and each partner's).
const byOffer = new WeakMap<Offer, Gazetteer>();
const byBusiness = new Map<string, { key: string; gazetteer: Gazetteer }>();

/** The gazetteer of a business: its areas and nearby towns, plus towns and countries worldwide. */
export function gazetteerFor(offer: Offer, geo: GeoData): Gazetteer {
  const known = byOffer.get(offer);
  if (known) return known;
  const key = JSON.stringify([offer.business.id, offer.areas, offer.nearbyTowns]);
  const cached = byBusiness.get(offer.business.id);
  if (cached?.key === key) {
    byOffer.set(offer, cached.gazetteer);
    return cached.gazetteer;
  }
  const homeTown = offer.areas[0]?.town ?? offer.business.name;
  const gazetteer = createGazetteer({
    country: offer.business.country,
    homeTown,
    // Every kind of area (docs/decisions.md): a radius holds the points within it; a suburb
    // is the place of its own name (its alias: the area's name carries the postal code), also where
    // it has no point; a postal code alone is the places of that code and names no suburb.
    areas: offer.areas.map((a) => ({
      id: a.id,
      name: a.kind === 'SUBURB' ? (a.aliases[0] ?? a.name) : a.name,
      aliases: a.kind === 'SUBURB' ? [...a.aliases.slice(1), a.name] : a.aliases,
      postalCode: a.postalCode,
      lat: a.lat,
      lng: a.lng,
      radiusKm: a.kind === 'RADIUS' ? a.radiusKm : null,
      town: a.town,
      ...(a.kind === 'POSTAL_CODE' ? { postalCodeOnly: true } : {}),
      ...(a.kind === 'SUBURB' ? { postalCodeShared: true } : {}),
    })),
    nearbyTowns: offer.nearbyTowns.map((t) => ({ ...t, population: 0 })),
    worldTowns: geo.worldTowns,
    countries: geo.countries,
  });
  byBusiness.set(offer.business.id, { key, gazetteer });
  byOffer.set(offer, gazetteer);
  return gazetteer;
}
