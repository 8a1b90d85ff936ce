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
} from './coverage/check-coverage.js';
export {
  type Clock,
  type Deps,
  type Logger,
  type MailMessage,
  type MailTransport,
  type OperationContext,
  type Principal,
  systemClock,
} from './context.js';
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
} from './define.js';
export { internalOperations, jobOperations, operatorOperations } from './internal/index.js';
export {
  DATABASE_RETRY_AFTER_SECONDS,
  type ErrorBody,
  type ErrorCode,
  ServiceError,
  STATUS_OF,
  toServiceError,
} from './errors.js';
export {
  CONFIRM_KINDS,
  type ConfirmKind,
  type ConfirmParts,
  type ConfirmPartsOut,
  confirmSummary,
} from './confirm.js';
export { type GeoData, loadGeoData } from './geo/world-data.js';
export { createOfferCache, type OfferCache } from './offer-cache.js';
export { operations } from './registry.js';
export { type FieldProblem, fieldProblems, parseInput, runOperation, unstorableTextError } from './run.js';
export { cutText, findUnstorableText, type TextProblem, toStorableText, unstorableReason } from './text.js';
export { ErrorBodySchema, ErrorCodeSchema, IdempotencyKeyHeaderSchema } from './schemas.js';
export { findTimes, TimesAnswerSchema } from './booking/find-times.js';
export { getQuote } from './booking/get-quote.js';
export { QuoteSchema } from './booking/quote-request.js';
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
} from './auth.js';
export { actorName, statedClientName } from './context.js';
export { book, BookRequestSchema, BookResultSchema } from './booking/book.js';
export {
  type Booking,
  BookingSchema,
  paymentWords,
  statusWords,
  toBooking,
} from './booking/booking-model.js';
export {
  ACCOUNT_PAGE,
  accountPageContext,
  changeSavedNotes,
  type AccountBooking,
  accountBookings,
  personTimeZone,
  UPCOMING_SHOWN,
  removeSaved,
} from './account/own-account.js';
export { dayText, momentText } from './booking/local-time.js';
export {
  cancelBooking,
  getBooking,
  listBookings,
  payBooking,
  rescheduleBooking,
  rescheduleTimes,
} from './booking/manage.js';
export { completeBookings, expireHolds, extendSeries } from './booking/timed-rules.js';
export {
  acceptBooking,
  closeLeadWithNote,
  leadsToFollowUp,
  markPaymentRefunded,
  markRefunded,
  paymentsToRefund,
  refundsDue,
} from './booking/operator.js';
export type { Payments } from './context.js';
export {
  type Checkout,
  type CheckoutRequest,
  formPairs,
  type PaymentGateway,
  type VerifiedNotification,
} from './payments/gateway.js';
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
} from './payments/payfast.js';
export { createSandboxGateway } from './payments/sandbox.js';
export {
  type NoticeState,
  type SettleOutcome,
  type Settlement,
  settleNotification,
} from './payments/settle.js';
export {
  chargesToRefund,
  checkNotification,
  markNoticeRefunded,
  paymentProblems,
  receiveNotification,
  recheckNotices,
  resolvePaymentProblem,
} from './payments/notices.js';
export {
  deliverMail,
  deliverPendingMail,
  followSignInLink,
  LINK_MAILS_PER_HOUR,
  peekSignInLink,
  SIGN_IN_LINK_MINUTES,
  SIGN_IN_LINK_PATH,
  sendSignInLink,
  type SignInLinkReason,
  takeLinkMailAllowance,
} from './account/email-sign-in.js';
export { type PageHeader, pageHeaderOf } from './account/page-header.js';
// What the pages and the OAuth endpoints do: sessions, keys, connections, the authorization server, pay links.
export {
  endWebSession,
  findWebSessionUser,
  formTokenKey,
  type PasswordCheck,
  SESSION_DAYS,
  signInWithPassword,
  startWebSession,
  type WebSession,
} from './account/web-sessions.js';
export {
  keepUpstreamLogin,
  signInWithUpstreamIdentity,
  takeUpstreamLogin,
  UPSTREAM_LOGIN_MINUTES,
  type VerifiedIdentity,
} from './account/upstream-sign-in.js';
export { createAccountApiKey, listApiKeys, revokeApiKey } from './account/api-keys.js';
export type { NewApiKey } from './auth.js';
export { listAssistantConnections, removeConnection } from './account/connections.js';
export {
  clientFromMetadataDocument,
  type FetchedClientDocument,
  findOAuthClientMetadata,
  type OAuthClientMetadata,
  type OAuthClientRegistration,
  registerOAuthClient,
} from './oauth/clients.js';
export {
  answerAuthorizationRequest,
  type AuthorizationAnswer,
  type AuthorizationRequest,
  CODE_SECONDS,
  codeChallengeFor,
  findAuthorizationRequest,
  REQUEST_MINUTES,
  requestAuthorization,
} from './oauth/authorization-requests.js';
export {
  ACCESS_TOKEN_SECONDS,
  exchangeAuthorizationCode,
  exchangeRefreshToken,
  type IssuedTokens,
  REFRESH_TOKEN_DAYS,
  revokeOAuthToken,
} from './oauth/tokens.js';
export type { OAuthErrorCode } from './oauth/refusal.js';
export { findPayLink, type PayLink, type PayLinkState } from './payments/pay-link.js';
export {
  DIRECTORY_CATEGORIES,
  DirectoryCategorySchema,
  findPetBusinesses,
} from './directory/find-pet-businesses.js';
export { getSignupStatus, startBusinessSignup, timezoneChoices } from './business/signup.js';
export {
  DRAFT_DAYS,
  draftApplication,
  type DraftForPage,
  draftForPage,
  draftSummary,
  keepDraft,
  parseSaidPrice,
  prepareBusinessSignup,
} from './business/draft.js';
export { addBusinessServices } from './business/services.js';
export { setServiceArea } from './business/area.js';
export { addResources } from './business/resources.js';
export { setOperatingHours } from './business/hours.js';
export { weekWords } from './business/week.js';
/** The days of a week, Monday first (the slot engine's list): the pages' forms use it too. */
export { DAY_KEYS } from '@nogpets/slot-engine';
export { inviteStaff } from './business/staff.js';
export { connectGateway } from './business/gateway.js';
export { submitBusinessForReview, summaryOf } from './business/submit.js';
export { type Application, ApplicationSchema } from './business/application-model.js';
export {
  type ApplicationForReview,
  type Approval,
  type ApproveOptions,
  applicationsToReview,
  applicationToReview,
  type ClaimForReview,
  approveApplication,
  areasToReview,
  CLI_REVIEWER,
  consoleReviewer,
  decideArea,
  grantOperatorAccess,
  isOperator,
  MAX_REVIEW_NOTE,
  markRefundDone,
  noticeAmount,
  type RefundOwed,
  refundsOwed,
  rejectApplication,
  type Reviewer,
  revokeOperatorAccess,
} from './business/review.js';
export { getDayPlan } from './run/day-plan.js';
export { listBusinessBookings } from './run/bookings.js';
export { acceptBusinessBooking, cancelBusinessBooking, declineBooking, moveBooking } from './run/manage.js';
export { bookForClient, findBusinessTimes, rebookBooking } from './run/book-for-client.js';
export { createInvoiceLink, sendPaymentLink } from './run/money.js';
export { proposeServiceArea } from './run/areas.js';
export { changeStaffRole, inviteStaffMember, listStaff, removeStaffMember } from './run/staff.js';
export {
  acceptInvitation,
  declineInvitation,
  INVITATION_DAYS,
  invitationForPerson,
  invitationsOfPerson,
  leaveBusiness,
  listMyInvitations,
  offeredRole,
} from './run/invitations.js';
export { addClientNote, getClient, listClients } from './run/clients.js';
export { listPrices, updatePrices } from './run/prices.js';
export { addTimeOff, listTimeOff, removeTimeOff, setWorkingHours } from './run/hours.js';
export { getEarnings, listPayouts, listUnpaidClients } from './run/earnings.js';
export {
  cardEntries,
  createPayout,
  MAX_PAYOUT_NOTE,
  markPayoutDone,
  type Payout,
  payoutPlan,
} from './business/payouts.js';
export { type RunAccess, type RunNeed, runAccess } from './run/access.js';
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
  ordersToPack,
  releaseStrandedVisitOrders,
  setShopOpenAs,
  shopStatus,
} from './shop/operator.js';
// What stands between an application and its review (one rule, for pages too).
export { stillNeeded } from '@nogpets/onboarding-checklist';
export * from './events/index.js';
