export { adjustPrice } from './adjust-price.js';
export { type PricingErrorCode, PricingError } from './errors.js';
export { formatMoney } from './format-money.js';
export { matchTier } from './match-tier.js';
export { minorUnits } from './minor-units.js';
export { priceRange } from './price-range.js';
export { quote } from './quote.js';
export type { Coat, Line, PetDescription, PetForQuote, PetType, Quote, QuoteInput, QuoteItem, Service, Tier } from './types.js';
