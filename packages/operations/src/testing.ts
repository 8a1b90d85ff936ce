/**
 * What tests may call besides operations: the plain functions under them, to seed a case or to run
 * a job's rule with a clock of their own. Apps' sources never import this entry (dependency-cruiser
 * rule `testing-entry-for-tests`); they call operations through runOperation.
 */
export { assessCoverage, whereRule } from './places/index.js';
export { createApiKey, hashSecret, newSecret, takeLinkMailAllowance } from './core/index.js';
export { toBooking, completeBookings, expireHolds, extendSeries, leadsToFollowUp } from './bookings/index.js';
export {
  formPairs,
  checkoutSignature,
  itnParamString,
  payfastText,
  phpUrlencode,
  settleNotification,
  recheckNotices,
  cardEntries,
  payoutPlan,
} from './money/index.js';
export { deliverPendingMail } from './identity/index.js';
export { dispatchAllNotices } from './notices/index.js';
export {
  draftApplication,
  draftSummary,
  approveApplication,
  areasToReview,
  decideArea,
  grantOperatorAccess,
  rejectApplication,
} from './onboarding/index.js';
export { invitationsOfPerson, offeredRole, runAccess } from './staff/index.js';
export {
  deliveryOptions,
  toOrder,
  expireOrders,
  moveOrder,
  releaseStrandedVisitOrders,
  setShopOpenAs,
} from './shop/index.js';
export {
  bookingFacts,
  operatorSource,
  orderFacts,
  recordEvent,
  recordEvents,
  sourceOf,
  systemSource,
} from './events/index.js';
export {
  checkWebhookUrl,
  fanOutWebhookEvents,
  postWebhook,
  sendDueWebhooks,
  webhookPayload,
} from './webhooks/index.js';
