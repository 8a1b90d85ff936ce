export type PetType = 'DOG' | 'CAT';
export type Coat = 'SHORT' | 'MEDIUM' | 'LONG';

/** A price band of a service. The first matching tier wins. */
export interface Tier {
  coat?: Coat;
  petType?: PetType;
  /** Inclusive. */
  minKg?: number;
  /** Exclusive. */
  maxKg?: number;
  priceCents: number;
  durationMin: number;
}

export interface Service {
  id: string;
  lineId: string;
  name: string;
  kind: 'PRIMARY' | 'EXTRA';
  petTypes: PetType[];
  /** Fallback when no tier matches. */
  priceCents: number;
  durationMin: number;
  /** Above 1 for group walks: how many dogs one walker takes. */
  groupSize: number;
  tiers: Tier[];
}

export interface Line {
  id: string;
  label: string;
  /** SUM: pets one after another (grooming). MAX: pets together (walks, sitting). */
  durationMode: 'SUM' | 'MAX';
}

/** What tiers look at: a pet's type, weight and coat. */
export interface PetDescription {
  type: PetType;
  weightKg: number;
  coat: Coat;
}

/** The price and duration a service has for one pet, and the tier that set them (null: the service's own). */
export interface TierMatch {
  priceCents: number;
  durationMin: number;
  tier: Tier | null;
}

/** The catalogue's `fromCents`/`toCents`. */
export interface PriceRange {
  fromCents: number;
  toCents: number;
}

/** A pet in a quote: what it is, and the ids of the services asked for it (one PRIMARY, any EXTRAs). */
export interface PetForQuote extends PetDescription {
  name: string;
  serviceIds: string[];
}

export interface QuoteItem {
  serviceId: string;
  name: string;
  kind: 'PRIMARY' | 'EXTRA';
  priceCents: number;
  durationMin: number;
}

/** The spec's Quote, plus `groupSize` for group walks. */
export interface Quote {
  category: string;
  durationMin: number;
  pets: { name: string; items: QuoteItem[] }[];
  subtotalCents: number;
  cardFeeCents: number;
  cardTotalCents: number;
  cashTotalCents: number;
  acceptsCash: boolean;
  summary: string;
  /** For a group walk: the places the booking takes (one per dog). */
  groupSize?: number;
}

export interface QuoteInput {
  line: Line;
  /** The business's services (any lines). */
  services: Service[];
  pets: PetForQuote[];
  /** Card fee, once per booking (the spec's 1000, R10). */
  serviceFeeCents: number;
  acceptsCash: boolean;
  /** ISO 4217; used for the summary's amounts. */
  currency: string;
  /** BCP 47 locale of the summary's amounts; default `en` (R380, €12.50). */
  locale?: string;
}
