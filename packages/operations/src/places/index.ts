/** The public entry of places/: coverage, towns, leads, and the offer cache (which business a booking tool acts on). */
export {
  assessCoverage,
  checkCoverage,
  type CoverageAnswer,
  CoverageAnswerSchema,
  type CoverageResult,
  POSTAL_CODE,
  resolveWhere,
  type WhereInput,
  whereOneOf,
  whereRule,
  WhereShape,
} from './check-coverage.js';
export { gazetteerFor } from './gazetteer.js';
export { recordPlaceLead } from './leads.js';
export {
  BOOKABLE_COUNTRY,
  bookableOffer,
  BUSINESS_ERRORS,
  BusinessIdSchema,
  BusinessIdShape,
  createOfferCache,
} from './offer-cache.js';
export { type GeoData, loadGeoData } from './world-data.js';
