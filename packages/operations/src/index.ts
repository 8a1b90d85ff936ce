export { CatalogueSchema, listServices } from './catalogue/list-services.js';
export {
  assessCoverage,
  checkCoverage,
  checkOneWhere,
  type CoverageAnswer,
  CoverageAnswerSchema,
  type CoverageResult,
  POSTAL_CODE,
  WhereShape,
} from './coverage/check-coverage.js';
export { type Clock, type Deps, type Logger, type OperationContext, systemClock } from './context.js';
export {
  defineOperation,
  type ErrorResponse,
  type HttpMethod,
  type Operation,
  READ_ONLY,
  type Scope,
  type ToolAnnotations,
} from './define.js';
export { type ErrorBody, type ErrorCode, ServiceError, STATUS_OF, toServiceError } from './errors.js';
export { type GeoData, loadGeoData } from './geo/world-data.js';
export { createOfferCache, type OfferCache } from './offer-cache.js';
export { operations } from './registry.js';
export { type FieldProblem, fieldProblems, parseInput, runOperation } from './run.js';
export { ErrorBodySchema } from './schemas.js';
export { findTimes, TimesAnswerSchema } from './booking/find-times.js';
export { getQuote } from './booking/get-quote.js';
export { QuoteSchema } from './booking/quote-request.js';
export { addAddress, listAddresses } from './account/addresses.js';
export { myProfile } from './account/my-profile.js';
export { addPet, listPets } from './account/pets.js';
export { type AuthContext, authenticate, createApiKey, hashSecret, newSecret, SCOPE_NAMES, SCOPES } from './auth.js';
export { actorName } from './context.js';
