/** The public entry of money/: pay links, gateways, settlement of notices, earnings and payouts. */
export { earningsWindow, getEarnings, listPayouts, listUnpaidClients } from './earnings.js';
export {
  type Checkout,
  type CheckoutRequest,
  formPairs,
  type PaymentGateway,
  type VerifiedNotification,
} from './gateway.js';
export {
  chargesToRefund,
  checkNotification,
  markNoticeRefunded,
  paymentProblems,
  receiveNotification,
  recheckNotices,
  resolvePaymentProblem,
} from './notices.js';
export { findPayLink, type PayLink, type PayLinkState } from './pay-link.js';
export {
  checkoutSignature,
  createPayFastGateway,
  itnParamString,
  type LookupHost,
  PAYFAST_HOSTS,
  PAYFAST_SANDBOX_MERCHANT,
  PAYFAST_SOURCES,
  payFastServes,
  payfastSettingProblems,
  payfastText,
  phpUrlencode,
} from './payfast.js';
export { createInvoiceLink, sendPaymentLink } from './payment-links.js';
export { remindUnpaid } from './pay-reminders.js';
export {
  cardEntries,
  createPayout,
  markPayoutDone,
  MAX_PAYOUT_NOTE,
  type Payout,
  payoutCutOff,
  payoutPlan,
} from './payouts.js';
export { createSandboxGateway } from './sandbox.js';
export { type NoticeState, type Settlement, settleNotification, type SettleOutcome } from './settle.js';
