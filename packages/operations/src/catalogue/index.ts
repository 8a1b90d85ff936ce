/** The public entry of catalogue/: services and prices, quotes, a business's price changes. */
export { listPrices, updatePrices } from './business-prices.js';
export { getQuote } from './get-quote.js';
export { CatalogueSchema, listServices } from './list-services.js';
export {
  type PricedRequest,
  priceRequest,
  type QuoteRequest,
  QuoteRequestShape,
  QuoteSchema,
  SAVED_REF_ERRORS,
} from './quote-request.js';
export {
  MAX_TIERS,
  MIN_PRIMARY_MIN,
  PriceCentsSchema,
  PRIMARY_TOO_SHORT,
  rangeWords,
  TierInputSchema,
} from './service-model.js';
