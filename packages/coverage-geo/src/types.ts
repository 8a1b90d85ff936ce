/** A suburb or locality of the home territory. */
export interface HomeArea {
  /** Stable slug, e.g. `die-boord`. */
  id: string;
  name: string;
  /** Other spellings people type: `Idasvallei`, `Ida's Valley`. */
  aliases: string[];
  /** Street postal code, e.g. `7600`; null when the locality has none. */
  postalCode: string | null;
  /** The centroid; null for an area known only by its name or postal code (it has no point). */
  lat: number | null;
  lng: number | null;
  /**
   * A point within this distance of the centroid (and nearer to it than to any other) is in the area.
   * Null for an area known by its name or postal code alone: it holds the places named so (or of
   * that postal code), never a point by distance.
   */
  radiusKm: number | null;
  /** The town the area belongs to, e.g. `Stellenbosch`. */
  town: string;
  /**
   * A postal code alone (no suburb): places found through it have no suburb, and its `name` is not
   * a place people type.
   */
  postalCodeOnly?: boolean;
  /**
   * Its postal code may be other suburbs' too (a business lists the suburbs it serves, not every
   * suburb of a code): the code alone then names no suburb, and holds other suburbs of it only when
   * the suburb is not known.
   */
  postalCodeShared?: boolean;
}

/** A town anywhere: a nearby town outside the territory, or one of the world's towns. */
export interface Town {
  name: string;
  /** ISO 3166 alpha-2. */
  country: string;
  lat: number;
  lng: number;
  population?: number;
  postalCode?: string | null;
  /**
   * Other names people type for it: its local name, other languages and scripts ("Lisboa", "Lissabon",
   * "リスボン"). Found as the town; among towns of one name, the most populous is taken.
   */
  altNames?: readonly string[];
}

/** A country's names as people type them, in any language. */
export interface CountryName {
  /** ISO 3166 alpha-2. */
  code: string;
  names: string[];
}

export interface LatLng {
  lat: number;
  lng: number;
}

export interface GazetteerInput {
  /** The home territory's country, e.g. `ZA`. */
  country: string;
  /** The home town, e.g. `Stellenbosch`. */
  homeTown: string;
  /** May be empty (a business none of whose areas is approved yet): then no place is an area. */
  areas: HomeArea[];
  /** Towns near the territory but outside it (their names and postal codes are recognised first). */
  nearbyTowns: Town[];
  worldTowns: Town[];
  countries: CountryName[];
}

export type ResolvedPlace =
  | {
      kind: 'area';
      area: HomeArea;
      suburb: string;
      postalCode: string | null;
      /** Null when the area has no point and nothing else told where it is. */
      lat: number | null;
      lng: number | null;
      town: string;
      country: string;
    }
  | {
      /** A home postal code shared by several areas: the suburb is not known. */
      kind: 'postal-code';
      postalCode: string;
      areas: HomeArea[];
      /** The mean of the areas' centroids; null when none has a point. */
      lat: number | null;
      lng: number | null;
      town: string | null;
      country: string;
    }
  | {
      /** The home town named alone, e.g. "Stellenbosch". */
      kind: 'home-town';
      town: string;
      centre: HomeArea;
      lat: number;
      lng: number;
      country: string;
    }
  | {
      /** Somewhere outside the territory: a nearby town or any town worldwide. */
      kind: 'town';
      town: string;
      country: string;
      lat: number;
      lng: number;
      postalCode: string | null;
    }
  | {
      /** Only a country was named. */
      kind: 'country';
      country: string;
    }
  | {
      kind: 'unknown';
      reason: 'NO_PLACE_FOUND' | 'UNKNOWN_POSTAL_CODE' | 'FAR_FROM_ANY_TOWN';
      query: string;
    };

export interface LineAreas {
  id: string;
  label: string;
  areaIds: string[];
}

export interface LineCoverage {
  /** True when at least one line serves the place. */
  covered: boolean;
  lines: { id: string; label: string; covered: boolean }[];
  /** When nothing covers a place with coordinates: the closest area any line serves. */
  nearest: { name: string; distanceKm: number } | null;
}
