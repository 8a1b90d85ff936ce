/** A suburb or locality of the home territory. */
export interface HomeArea {
  /** Stable slug, e.g. `die-boord`. */
  id: string;
  name: string;
  /** Other spellings people type: `Idasvallei`, `Ida's Valley`. */
  aliases: string[];
  /** Street postal code, e.g. `7600`; null when the locality has none. */
  postalCode: string | null;
  lat: number;
  lng: number;
  /** A point within this distance of the centroid (and nearer to it than to any other) is in the area. */
  radiusKm: number;
  /** The town the area belongs to, e.g. `Stellenbosch`. */
  town: string;
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
      lat: number;
      lng: number;
      town: string;
      country: string;
    }
  | {
      /** A home postal code shared by several areas: the suburb is not known. */
      kind: 'postal-code';
      postalCode: string;
      areas: HomeArea[];
      lat: number;
      lng: number;
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
