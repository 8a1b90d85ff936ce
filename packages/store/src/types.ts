export type PetType = 'DOG' | 'CAT';
export type Coat = 'SHORT' | 'MEDIUM' | 'LONG';
export type LineId = 'grooming' | 'walking' | 'sitting';

export interface BusinessRow {
  id: string;
  name: string;
  country: string;
  currency: string;
  timezone: string;
  serviceFeeCents: number;
  acceptsCash: boolean;
  isOperator: boolean;
}

/** What a service area is: a radius around a point, a suburb by name, or a postal code alone. */
export type AreaKind = 'RADIUS' | 'SUBURB' | 'POSTAL_CODE';

export interface AreaRow {
  id: string;
  name: string;
  kind: AreaKind;
  /** Other names it is found by; a suburb's own name (its area's name without the postal code). */
  aliases: string[];
  postalCode: string | null;
  /** Null for a suburb the gazetteer could not place, and for a postal code alone. */
  lat: number | null;
  lng: number | null;
  /** Null for a suburb or postal code: it covers the places of that name or code, not a distance. */
  radiusKm: number | null;
  zone: string;
  town: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
}

export interface TierRow {
  coat?: Coat;
  petType?: PetType;
  minKg?: number;
  maxKg?: number;
  priceCents: number;
  durationMin: number;
}

export interface ServiceRow {
  id: string;
  lineId: LineId;
  name: string;
  kind: 'PRIMARY' | 'EXTRA';
  blurb: string;
  petTypes: PetType[];
  priceCents: number;
  durationMin: number;
  groupSize: number;
  tiers: TierRow[];
}

export interface LineRow {
  id: LineId;
  label: string;
  blurb: string;
  durationMode: 'SUM' | 'MAX';
  repeats: boolean;
  areaIds: string[];
}

export interface NearbyTownRow {
  name: string;
  country: string;
  postalCode: string | null;
  lat: number;
  lng: number;
}

/** Everything public about a business's offer: what the catalogue and coverage read. */
export interface Offer {
  business: BusinessRow;
  areas: AreaRow[];
  lines: (LineRow & { services: ServiceRow[] })[];
  nearbyTowns: NearbyTownRow[];
}

export interface TimeRangeRow {
  start: string;
  end: string;
}

export interface ResourceRow {
  id: string;
  kind: 'VAN' | 'WALKER' | 'SITTER';
  name: string;
  week: Partial<Record<'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun', TimeRangeRow[]>>;
  slotStepMin?: number;
  travelBufferMin?: number | null;
}

export interface BusyRow {
  resourceId: string;
  start: Date;
  end: Date;
  groupKey: string | null;
  size: number;
}

export interface TimeOffRow {
  resourceId: string | null;
  start: Date;
  end: Date;
}
