import type { LatLng } from './types.js';

const PAIR = /^\s*([+-]?\d{1,3}(?:\.\d+)?)\s*,\s*([+-]?\d{1,3}(?:\.\d+)?)\s*$/;

/**
 * Reads "lat,lng" text (decimal degrees). Null when the text is not that form or out of range.
 *
 * @example parseLatLng('-33.9477, 18.8502') // { lat: -33.9477, lng: 18.8502 }
 */
export function parseLatLng(text: string): LatLng | null {
  const m = PAIR.exec(text);
  if (!m) return null;
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180)
    return null;
  return { lat, lng };
}
