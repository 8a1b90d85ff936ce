import { haversineKm } from './haversine-km.js';
import { normalizePlaceText } from './normalize-place-text.js';
import type { CountryName, GazetteerInput, HomeArea, LatLng, Town } from './types.js';

/** Built once from the data; holds the indexes every lookup uses. Opaque to callers. */
export interface Gazetteer {
  readonly country: string;
  readonly homeTown: string;
  readonly homeTownKey: string;
  readonly areas: readonly HomeArea[];
  /** Normalised area name or alias → area. */
  readonly areaPhrases: ReadonlyMap<string, HomeArea>;
  /** Street postal code → the areas that share it. */
  readonly areasByPostalCode: ReadonlyMap<string, readonly HomeArea[]>;
  readonly nearbyByName: ReadonlyMap<string, Town>;
  readonly nearbyByPostalCode: ReadonlyMap<string, Town>;
  /** Normalised town name → towns of that name, most populous first. */
  readonly worldByName: ReadonlyMap<string, readonly Town[]>;
  /**
   * Normalised other name of a town (`Town.altNames`) → towns so called, most populous first. Built on
   * first use (a place at home never needs it), once per list of world towns.
   */
  readonly worldByAltName: ReadonlyMap<string, readonly Town[]>;
  /** Normalised country name → ISO code. */
  readonly countryByName: ReadonlyMap<string, string>;
  /**
   * Where the home town is (its centre) and the area (with a point and radius) at its centre; null
   * when there is none (the home town named alone is then not an area).
   */
  readonly homeCentre: LatLng | null;
  readonly centreArea: HomeArea | null;
  /** Spatial index of nearby and world towns. */
  readonly grid: TownGrid;
  readonly longestPhrase: number;
}

/** 1° cells: a lookup within 100 km reads a handful of cells instead of every town. */
export class TownGrid {
  private readonly cells = new Map<number, Town[]>();

  constructor(towns: Iterable<Town>) {
    for (const t of towns) {
      const key = TownGrid.key(Math.floor(t.lat), Math.floor(t.lng));
      const cell = this.cells.get(key);
      if (cell) cell.push(t);
      else this.cells.set(key, [t]);
    }
  }

  private static key(latCell: number, lngCell: number): number {
    return (latCell + 90) * 360 + (((lngCell % 360) + 540) % 360);
  }

  /** The nearest town within `maxKm`, or null. */
  nearest(point: LatLng, maxKm: number): { town: Town; distanceKm: number } | null {
    const latSpan = Math.ceil(maxKm / 111);
    const cos = Math.max(Math.cos((point.lat * Math.PI) / 180), 0.01);
    const lngSpan = Math.min(180, Math.ceil(maxKm / (111 * cos)));
    const latCell = Math.floor(point.lat);
    const lngCell = Math.floor(point.lng);
    let best: { town: Town; distanceKm: number } | null = null;
    for (let dy = -latSpan; dy <= latSpan; dy++) {
      const y = latCell + dy;
      if (y < -90 || y > 89) continue;
      for (let dx = -lngSpan; dx <= lngSpan; dx++) {
        const cell = this.cells.get(TownGrid.key(y, lngCell + dx));
        if (!cell) continue;
        for (const town of cell) {
          const d = haversineKm(point, town);
          if (d <= maxKm && (!best || d < best.distanceKm)) best = { town, distanceKm: d };
        }
      }
    }
    return best;
  }
}

function addAll<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The area's centroid, when it has one (an area known by name or postal code alone has none). */
export function pointOf(area: HomeArea): LatLng | null {
  return area.lat !== null && area.lng !== null ? { lat: area.lat, lng: area.lng } : null;
}

/**
 * Whether another name of a town is one to find it by: not a code (an airport's "LIS"), and at least
 * three letters (two in scripts of whole-word characters, as 東京).
 */
function usableAltName(name: string, key: string): boolean {
  if (/^[A-Z0-9]{2,4}$/.test(name.trim())) return false;
  if (/^\d+$/.test(key)) return false;
  const letters = key.replace(/ /g, '');
  return letters.length >= 3 || (letters.length === 2 && /[\p{Script=Han}\p{Script=Hangul}]/u.test(letters));
}

// The other names of the world's towns are many (a large city has hundreds): indexed once per list
// (the list is not changed once given).
const altIndexes = new WeakMap<readonly Town[], Map<string, Town[]>>();

/** Normalised other name → the towns so called (never their own name's key), most populous first. */
function altNameIndex(towns: readonly Town[]): Map<string, Town[]> {
  const known = altIndexes.get(towns);
  if (known) return known;
  const byName = new Map<string, Town[]>();
  for (const t of towns) {
    if (!t.altNames?.length) continue;
    const own = normalizePlaceText(t.name);
    const keys = new Set<string>();
    for (const name of t.altNames) {
      const key = normalizePlaceText(name);
      if (key && key !== own && usableAltName(name, key)) keys.add(key);
    }
    for (const key of keys) addAll(byName, key, t);
  }
  for (const list of byName.values()) list.sort((a, b) => (b.population ?? 0) - (a.population ?? 0));
  altIndexes.set(towns, byName);
  return byName;
}

function countryIndex(countries: CountryName[]): Map<string, string> {
  const byName = new Map<string, string>();
  for (const c of countries) {
    for (const name of c.names) {
      const key = normalizePlaceText(name);
      if (key.length >= 4 && !byName.has(key)) byName.set(key, c.code);
    }
  }
  return byName;
}

/**
 * Builds the indexes for place matching from the home territory and the world's towns.
 *
 * @example
 * const g = createGazetteer({ country: 'ZA', homeTown: 'Stellenbosch', areas, nearbyTowns, worldTowns, countries });
 * resolveText(g, 'Die Boord'); // { kind: 'area', suburb: 'Die Boord', ... }
 */
export function createGazetteer(input: GazetteerInput): Gazetteer {
  const areaPhrases = new Map<string, HomeArea>();
  const areasByPostalCode = new Map<string, HomeArea[]>();
  let longestPhrase = 1;
  for (const area of input.areas) {
    // A postal code alone is found by its code; its name ("Postal code 7600") is not a place.
    for (const name of area.postalCodeOnly ? area.aliases : [area.name, ...area.aliases]) {
      const key = normalizePlaceText(name);
      if (!key) continue;
      if (!areaPhrases.has(key)) areaPhrases.set(key, area);
      longestPhrase = Math.max(longestPhrase, key.split(' ').length);
    }
    if (area.postalCode) addAll(areasByPostalCode, area.postalCode.toUpperCase(), area);
  }
  const nearbyByName = new Map<string, Town>();
  const nearbyByPostalCode = new Map<string, Town>();
  for (const t of input.nearbyTowns) {
    const key = normalizePlaceText(t.name);
    nearbyByName.set(key, t);
    longestPhrase = Math.max(longestPhrase, key.split(' ').length);
    if (t.postalCode && !areasByPostalCode.has(t.postalCode)) nearbyByPostalCode.set(t.postalCode, t);
  }
  const worldByName = new Map<string, Town[]>();
  for (const t of input.worldTowns) {
    const key = normalizePlaceText(t.name);
    if (key) addAll(worldByName, key, t);
  }
  for (const list of worldByName.values()) list.sort((a, b) => (b.population ?? 0) - (a.population ?? 0));
  const homeTownKey = normalizePlaceText(input.homeTown);
  const homeWorld = worldByName.get(homeTownKey)?.find((t) => t.country === input.country);
  const points = input.areas.flatMap((a) => (a.radiusKm === null ? [] : (pointOf(a) ?? [])));
  const areaCentroid = points.length
    ? {
        lat: points.reduce((s, p) => s + p.lat, 0) / points.length,
        lng: points.reduce((s, p) => s + p.lng, 0) / points.length,
      }
    : null;
  const homeCentre = homeWorld ? { lat: homeWorld.lat, lng: homeWorld.lng } : areaCentroid;
  const centreArea = homeCentre ? nearestArea(input.areas, homeCentre) : null;
  const worldTowns = input.worldTowns;
  return {
    country: input.country,
    homeTown: input.homeTown,
    homeTownKey,
    areas: input.areas,
    areaPhrases,
    areasByPostalCode,
    nearbyByName,
    nearbyByPostalCode,
    worldByName,
    get worldByAltName() {
      return altNameIndex(worldTowns);
    },
    countryByName: countryIndex(input.countries),
    homeCentre,
    centreArea,
    grid: new TownGrid([...input.nearbyTowns, ...input.worldTowns]),
    longestPhrase: Math.max(longestPhrase, 5),
  };
}

/**
 * The area with a point and radius nearest to `point` (a suburb listed by name is not its town's
 * centre); null when there is none.
 */
function nearestArea(areas: readonly HomeArea[], point: LatLng): HomeArea | null {
  let best: HomeArea | null = null;
  let bestKm = Number.POSITIVE_INFINITY;
  for (const a of areas) {
    const at = pointOf(a);
    if (!at || a.radiusKm === null) continue;
    const d = haversineKm(point, at);
    if (d < bestKm) {
      best = a;
      bestKm = d;
    }
  }
  return best;
}
