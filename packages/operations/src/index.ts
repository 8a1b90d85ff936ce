export { CatalogueSchema, listServices } from './catalogue/index.js';
export {
  checkCoverage,
  type CoverageAnswer,
  CoverageAnswerSchema,
  type CoverageResult,
  POSTAL_CODE,
  WhereShape,
} from './places/index.js';
export {
  type Clock,
  type Deps,
  type Logger,
  type MailMessage,
  type MailTransport,
  type OperationContext,
  type Principal,
  systemClock,
  type WebhookSettings,
} from './core/index.js';
export {
  type AnyOperation,
  defineInternalOperation,
  defineOperation,
  type ErrorResponse,
  type HttpMethod,
  type InternalOperation,
  type McpListing,
  MCP_PATHS,
  type McpSurface,
  isInternal,
  type Operation,
  type PrincipalKind,
  READ_ONLY,
  type ToolAnnotations,
} from './core/index.js';
export {
  identityOperations,
  internalOperations,
  jobOperations,
  operatorOperations,
  pageOperations,
} from './internal/index.js';
export {
  DATABASE_RETRY_AFTER_SECONDS,
  type ErrorBody,
  type ErrorCode,
  ServiceError,
  STATUS_OF,
  toServiceError,
} from './core/index.js';
export {
  CONFIRM_KINDS,
  type ConfirmKind,
  type ConfirmParts,
  type ConfirmPartsOut,
  confirmSummary,
} from './core/index.js';
export { type GeoData, loadGeoData } from './places/index.js';
export { createOfferCache } from './places/index.js';
export type { OfferCache } from './core/index.js';
export { operations, scopesOn } from './registry.js';
export {
  type FieldProblem,
  fieldProblems,
  parseInput,
  runOperation,
  unstorableTextError,
} from './core/index.js';
export {
  cutText,
  findUnstorableText,
  type TextProblem,
  toStorableText,
  unstorableReason,
} from './core/index.js';
export { ErrorBodySchema, ErrorCodeSchema, IdempotencyKeyHeaderSchema } from './core/index.js';
export { findTimes, TimesAnswerSchema } from './schedule/index.js';
export { getQuote } from './catalogue/index.js';
export { QuoteSchema } from './catalogue/index.js';
export { addAddress, listAddresses } from './account/index.js';
export { myProfile } from './account/index.js';
export { addPet, listPets } from './account/index.js';
export {
  type AuthContext,
  authenticate,
  insufficientScope,
  isEmailAddress,
  isScope,
  SCOPE_NAMES,
  SCOPES,
  type Scope,
} from './core/index.js';
export { actorName, statedClientName } from './core/index.js';
export { book, BookRequestSchema, BookResultSchema } from './bookings/index.js';
export { type Booking, BookingSchema, paymentWords, statusWords } from './bookings/index.js';
export { ACCOUNT_PAGE, accountPageContext, type AccountBooking, UPCOMING_SHOWN } from './account/index.js';
export { dayText, momentText } from './core/index.js';
export {
  cancelBooking,
  getBooking,
  listBookings,
  payBooking,
  rescheduleBooking,
  rescheduleTimes,
} from './bookings/index.js';
export type { Payments } from './core/index.js';
export {
  type Checkout,
  type CheckoutRequest,
  type PaymentGateway,
  type VerifiedNotification,
} from './money/index.js';
export {
  createPayFastGateway,
  type LookupHost,
  PAYFAST_HOSTS,
  PAYFAST_SANDBOX_MERCHANT,
  PAYFAST_SOURCES,
  payfastSettingProblems,
} from './money/index.js';
export { createSandboxGateway } from './money/index.js';
export { type NoticeState, type SettleOutcome, type Settlement } from './money/index.js';
export {
  SIGN_IN_LINK_MINUTES,
  SIGN_IN_LINK_PATH,
  type SignInLinkReason,
} from './identity/index.js';
export { LINK_MAILS_PER_HOUR } from './core/index.js';
export type { PageHeader } from './identity/index.js';
// What the pages and the OAuth endpoints do: sessions, keys, connections, the authorization server, pay links.
export { type PasswordCheck, SESSION_DAYS, type WebSession } from './identity/index.js';
export { UPSTREAM_LOGIN_MINUTES, type VerifiedIdentity } from './identity/index.js';
export type { NewApiKey } from './core/index.js';
export {
  type FetchedClientDocument,
  type OAuthClientMetadata,
  type OAuthClientRegistration,
} from './identity/index.js';
export {
  type AuthorizationAnswer,
  type AuthorizationRequest,
  CODE_SECONDS,
  REQUEST_MINUTES,
} from './identity/index.js';
export { ACCESS_TOKEN_SECONDS, type IssuedTokens, REFRESH_TOKEN_DAYS } from './identity/index.js';
export type { OAuthErrorCode } from './identity/index.js';
export type { PayLink, PayLinkState } from './money/index.js';
export { DIRECTORY_CATEGORIES, DirectoryCategorySchema, findPetBusinesses } from './directory/index.js';
export { getSignupStatus, startBusinessSignup, timezoneChoices } from './onboarding/index.js';
export { DRAFT_DAYS, type DraftForPage, parseSaidPrice, prepareBusinessSignup } from './onboarding/index.js';
export { addBusinessServices } from './onboarding/index.js';
export { setServiceArea } from './onboarding/index.js';
export { addResources } from './onboarding/index.js';
export { setOperatingHours } from './onboarding/index.js';
export { weekWords } from './schedule/index.js';
/** The days of a week, Monday first (the slot engine's list): the pages' forms use it too. */
export { DAY_KEYS } from '@nogpets/slot-engine';
export { inviteStaff } from './onboarding/index.js';
export { connectGateway } from './onboarding/index.js';
export { submitBusinessForReview, summaryOf } from './onboarding/index.js';
export { type Application, ApplicationSchema } from './onboarding/index.js';
export {
  type ApplicationForReview,
  type Approval,
  type ApproveOptions,
  type ClaimForReview,
  CLI_REVIEWER,
  consoleReviewer,
  MAX_REVIEW_NOTE,
  noticeAmount,
  type RefundOwed,
  type Reviewer,
} from './onboarding/index.js';
export { getDayPlan } from './bookings/index.js';
export { listBusinessBookings } from './bookings/index.js';
export {
  acceptBusinessBooking,
  cancelBusinessBooking,
  declineBooking,
  moveBooking,
} from './bookings/index.js';
export { bookForClient, findBusinessTimes, rebookBooking } from './bookings/index.js';
export { createInvoiceLink, sendPaymentLink } from './money/index.js';
export { proposeServiceArea } from './onboarding/index.js';
export { changeStaffRole, inviteStaffMember, listStaff, removeStaffMember } from './staff/index.js';
export {
  acceptInvitation,
  declineInvitation,
  INVITATION_DAYS,
  leaveBusiness,
  listMyInvitations,
} from './staff/index.js';
export { addClientNote, getClient, listClients } from './clients/index.js';
export { listPrices, updatePrices } from './catalogue/index.js';
export { addTimeOff, listTimeOff, removeTimeOff, setWorkingHours } from './hours/index.js';
export { getEarnings, listPayouts, listUnpaidClients } from './money/index.js';
export {
  createMyWebhookEndpoint,
  createWebhookEndpoint,
  deleteMyWebhookEndpoint,
  deleteWebhookEndpoint,
  listMyWebhookDeliveries,
  listMyWebhookEndpoints,
  listWebhookDeliveries,
  listWebhookEndpoints,
  MAX_WEBHOOK_ENDPOINTS,
  RETRY_DELAYS_MS,
  redeliverMyWebhook,
  redeliverWebhook,
} from './webhooks/index.js';
export { MAX_PAYOUT_NOTE, type Payout } from './money/index.js';
export { type RunAccess, type RunNeed } from './staff/index.js';
export { browseShop } from './shop/index.js';
export { quoteOrder } from './shop/index.js';
export { buy } from './shop/index.js';
export { getOrder, listOrders } from './shop/index.js';
export { payOrder } from './shop/index.js';
export { type Order, OrderSchema } from './shop/index.js';
export { type OperatorActor, ORDER_PAYMENT_GRACE_MS } from './shop/index.js';
// What stands between an application and its review (one rule, for pages too).
export { stillNeeded } from '@nogpets/onboarding-checklist';
export {
  type ActorKind,
  type BookingFacts,
  BookingFactsSchema,
  EVENT_CATALOG,
  EVENT_TYPES,
  type EventData,
  type EventDefinition,
  type EventEnvelope,
  EventEnvelopeSchema,
  type EventSource,
  type EventType,
  envelopeOf,
  MoneySchema,
  type NewEvent,
  OrderFactsSchema,
} from './events/index.js';
// The rows pages show as they are (a person, their pets and addresses, a lead): types only, so
// apps name them without reaching into the store.
export type { AddressRow, LeadRow, PetRow, UserRow } from '@nogpets/store';
export { MAX_PASSWORD, MIN_PASSWORD, passwordProblem } from './identity/index.js';
/** How mail is delivered: sent at once per pass, and how long a claimed mail is its sender's. */
export { MAIL_BATCH, MAIL_LEASE_MS } from './identity/index.js';
// Mail to people made from the events (docs/decisions.md, "Mail to people"): the business's settings.
export {
  getNotificationSettings,
  type NoticeChoice,
  UNSUBSCRIBE_PATH,
  updateNotificationSettings,
} from './notices/index.js';
export {
  CalendarFeedSchema,
  FEED_CANCELLED_DAYS,
  FEED_DAYS_AHEAD,
  FEED_DAYS_BACK,
  FEED_MAX_EVENTS,
  FEED_PATH,
  getBusinessCalendarFeed,
  getCalendarFeed,
  type OwnCalendarFeed,
  rotateBusinessCalendarFeed,
  rotateCalendarFeed,
} from './feeds/index.js';
