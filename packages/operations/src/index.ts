export { CatalogueSchema, listServices } from './catalogue/list-services.js';
export {
  assessCoverage,
  checkCoverage,
  type CoverageAnswer,
  CoverageAnswerSchema,
  type CoverageResult,
  POSTAL_CODE,
  WhereShape,
  whereRule,
} from './places/check-coverage.js';
export {
  type Clock,
  type Deps,
  type Logger,
  type MailMessage,
  type MailTransport,
  type OperationContext,
  type Principal,
  systemClock,
} from './core/context.js';
export {
  type AnyOperation,
  defineInternalOperation,
  defineOperation,
  type ErrorResponse,
  type HttpMethod,
  type InternalOperation,
  isInternal,
  type Operation,
  type PrincipalKind,
  READ_ONLY,
  type ToolAnnotations,
} from './core/define.js';
export {
  identityOperations,
  internalOperations,
  jobOperations,
  operatorOperations,
} from './internal/index.js';
export {
  DATABASE_RETRY_AFTER_SECONDS,
  type ErrorBody,
  type ErrorCode,
  ServiceError,
  STATUS_OF,
  toServiceError,
} from './core/errors.js';
export {
  CONFIRM_KINDS,
  type ConfirmKind,
  type ConfirmParts,
  type ConfirmPartsOut,
  confirmSummary,
} from './core/confirm.js';
export { type GeoData, loadGeoData } from './places/world-data.js';
export { createOfferCache, type OfferCache } from './catalogue/offer-cache.js';
export { operations } from './registry.js';
export {
  type FieldProblem,
  fieldProblems,
  parseInput,
  runOperation,
  unstorableTextError,
} from './core/run-operation.js';
export {
  cutText,
  findUnstorableText,
  type TextProblem,
  toStorableText,
  unstorableReason,
} from './core/text.js';
export { ErrorBodySchema, ErrorCodeSchema, IdempotencyKeyHeaderSchema } from './core/schemas.js';
export { findTimes, TimesAnswerSchema } from './schedule/find-times.js';
export { getQuote } from './catalogue/get-quote.js';
export { QuoteSchema } from './catalogue/quote-request.js';
export { addAddress, listAddresses } from './account/addresses.js';
export { myProfile } from './account/my-profile.js';
export { addPet, listPets } from './account/pets.js';
export {
  type AuthContext,
  authenticate,
  createApiKey,
  hashSecret,
  insufficientScope,
  isEmailAddress,
  isScope,
  newSecret,
  SCOPE_NAMES,
  SCOPES,
  type Scope,
} from './core/auth.js';
export { actorName, statedClientName } from './core/context.js';
export { book, BookRequestSchema, BookResultSchema } from './bookings/book.js';
export {
  type Booking,
  BookingSchema,
  paymentWords,
  statusWords,
  toBooking,
} from './bookings/booking-model.js';
export {
  ACCOUNT_PAGE,
  accountPageContext,
  changeSavedNotes,
  type AccountBooking,
  accountBookings,
  personTimeZone,
  UPCOMING_SHOWN,
  removeSaved,
} from './identity/own-account.js';
export { dayText, momentText } from './schedule/local-time.js';
export {
  cancelBooking,
  getBooking,
  listBookings,
  payBooking,
  rescheduleBooking,
  rescheduleTimes,
} from './bookings/manage.js';
export { completeBookings, expireHolds, extendSeries } from './bookings/timed-rules.js';
export { leadsToFollowUp } from './bookings/operator.js';
export type { Payments } from './core/context.js';
export {
  type Checkout,
  type CheckoutRequest,
  formPairs,
  type PaymentGateway,
  type VerifiedNotification,
} from './money/gateway.js';
export {
  checkoutSignature,
  createPayFastGateway,
  itnParamString,
  type LookupHost,
  PAYFAST_HOSTS,
  PAYFAST_SANDBOX_MERCHANT,
  PAYFAST_SOURCES,
  payfastSettingProblems,
  payfastText,
  phpUrlencode,
} from './money/payfast.js';
export { createSandboxGateway } from './money/sandbox.js';
export {
  type NoticeState,
  type SettleOutcome,
  type Settlement,
  settleNotification,
} from './money/settle.js';
export { checkNotification, receiveNotification, recheckNotices } from './money/notices.js';
export {
  deliverMail,
  deliverPendingMail,
  LINK_MAILS_PER_HOUR,
  SIGN_IN_LINK_MINUTES,
  SIGN_IN_LINK_PATH,
  type SignInLinkReason,
  takeLinkMailAllowance,
} from './identity/email-sign-in.js';
export type { PageHeader } from './identity/page-header.js';
// What the pages and the OAuth endpoints do: sessions, keys, connections, the authorization server, pay links.
export {
  type PasswordCheck,
  SESSION_DAYS,
  type WebSession,
} from './identity/web-sessions.js';
export {
  UPSTREAM_LOGIN_MINUTES,
  type VerifiedIdentity,
} from './identity/upstream-sign-in.js';
export type { NewApiKey } from './core/auth.js';
export {
  type FetchedClientDocument,
  type OAuthClientMetadata,
  type OAuthClientRegistration,
} from './identity/oauth-clients.js';
export {
  type AuthorizationAnswer,
  type AuthorizationRequest,
  CODE_SECONDS,
  REQUEST_MINUTES,
} from './identity/oauth-authorization-requests.js';
export {
  ACCESS_TOKEN_SECONDS,
  type IssuedTokens,
  REFRESH_TOKEN_DAYS,
} from './identity/oauth-tokens.js';
export type { OAuthErrorCode } from './identity/oauth-refusal.js';
export { findPayLink, type PayLink, type PayLinkState } from './money/pay-link.js';
export {
  DIRECTORY_CATEGORIES,
  DirectoryCategorySchema,
  findPetBusinesses,
} from './directory/find-pet-businesses.js';
export { getSignupStatus, startBusinessSignup, timezoneChoices } from './onboarding/signup.js';
export {
  DRAFT_DAYS,
  draftApplication,
  type DraftForPage,
  draftForPage,
  draftSummary,
  keepDraft,
  parseSaidPrice,
  prepareBusinessSignup,
} from './onboarding/draft.js';
export { addBusinessServices } from './onboarding/step-services.js';
export { setServiceArea } from './onboarding/step-area.js';
export { addResources } from './onboarding/step-resources.js';
export { setOperatingHours } from './onboarding/step-hours.js';
export { weekWords } from './schedule/week.js';
/** The days of a week, Monday first (the slot engine's list): the pages' forms use it too. */
export { DAY_KEYS } from '@nogpets/slot-engine';
export { inviteStaff } from './onboarding/step-staff.js';
export { connectGateway } from './money/connect-gateway.js';
export { submitBusinessForReview, summaryOf } from './onboarding/submit.js';
export { type Application, ApplicationSchema } from './onboarding/application-model.js';
export {
  type ApplicationForReview,
  type Approval,
  type ApproveOptions,
  type ClaimForReview,
  approveApplication,
  areasToReview,
  CLI_REVIEWER,
  consoleReviewer,
  decideArea,
  grantOperatorAccess,
  isOperator,
  MAX_REVIEW_NOTE,
  noticeAmount,
  type RefundOwed,
  rejectApplication,
  type Reviewer,
} from './onboarding/review.js';
export { getDayPlan } from './bookings/day-plan.js';
export { listBusinessBookings } from './bookings/business-bookings.js';
export {
  acceptBusinessBooking,
  cancelBusinessBooking,
  declineBooking,
  moveBooking,
} from './bookings/business-actions.js';
export { bookForClient, findBusinessTimes, rebookBooking } from './bookings/book-for-client.js';
export { createInvoiceLink, sendPaymentLink } from './money/payment-links.js';
export { proposeServiceArea } from './places/propose-area.js';
export { changeStaffRole, inviteStaffMember, listStaff, removeStaffMember } from './staff/staff.js';
export {
  acceptInvitation,
  declineInvitation,
  INVITATION_DAYS,
  invitationForPerson,
  invitationsOfPerson,
  leaveBusiness,
  listMyInvitations,
  offeredRole,
} from './staff/invitations.js';
export { addClientNote, getClient, listClients } from './clients/clients.js';
export { listPrices, updatePrices } from './catalogue/business-prices.js';
export { addTimeOff, listTimeOff, removeTimeOff, setWorkingHours } from './schedule/working-hours.js';
export { getEarnings, listPayouts, listUnpaidClients } from './money/earnings.js';
export { cardEntries, MAX_PAYOUT_NOTE, type Payout, payoutPlan } from './money/payouts.js';
export { type RunAccess, type RunNeed, runAccess } from './staff/access.js';
export { browseShop, deliveryOptions } from './shop/browse-shop.js';
export { quoteOrder } from './shop/quote-order.js';
export { buy } from './shop/buy.js';
export { getOrder, listOrders, ordersOfPerson } from './shop/orders.js';
export { payOrder } from './shop/pay-order.js';
export { type Order, OrderSchema, toOrder } from './shop/shop-model.js';
export {
  expireOrders,
  moveOrder,
  type OperatorActor,
  ORDER_PAYMENT_GRACE_MS,
  releaseStrandedVisitOrders,
  setShopOpenAs,
} from './shop/operator.js';
// What stands between an application and its review (one rule, for pages too).
export { stillNeeded } from '@nogpets/onboarding-checklist';
export * from './events/index.js';
// The rows pages show as they are (a person, their pets and addresses, a lead): types only, so
// apps name them without reaching into the store.
export type { AddressRow, LeadRow, PetRow, UserRow } from '@nogpets/store';
