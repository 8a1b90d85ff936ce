export { adjustPrice } from './adjust-price.js';
export { PricingError, type PricingErrorCode, type PricingErrorDetails } from './errors.js';
export { formatMoney } from './format-money.js';
export { matchTier } from './match-tier.js';
export { minorUnits } from './minor-units.js';
export {
  type CatalogueProduct,
  type CatalogueVariant,
  type DeliveryChoice,
  type DeliveryOptions,
  type DiscountCodeRule,
  type DiscountErrorCode,
  type OrderItemInput,
  type OrderPrice,
  type OrderProblem,
  type OrderProblemCode,
  type PricedLine,
  type PriceOrderInput,
  type Province,
  PROVINCE_NAMES,
  priceOrder,
  type ShippingErrorCode,
  type ShippingMethod,
} from './order.js';
export { priceRange } from './price-range.js';
export { quote } from './quote.js';
export type {
  Coat,
  Line,
  PetDescription,
  PetForQuote,
  PetType,
  PriceRange,
  Quote,
  QuoteInput,
  QuoteItem,
  Service,
  Tier,
  TierMatch,
} from './types.js';
