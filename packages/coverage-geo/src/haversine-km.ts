import type { LatLng } from './types.js';

const EARTH_RADIUS_KM = 6371.0088;

/**
 * Great-circle distance in kilometres.
 *
 * @example haversineKm({ lat: -33.9367, lng: 18.8614 }, { lat: -33.9477, lng: 18.8502 }) // ≈ 1.6
 */
export function haversineKm(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
