/** The public entry of onboarding/: sign-up drafts, applications and their steps, review, areas proposed. */
export { type Application, ApplicationSchema } from './application-model.js';
export { connectGateway } from './connect-gateway.js';
export {
  attachDraftByLink,
  DRAFT_DAYS,
  draftApplication,
  type DraftForPage,
  draftForPage,
  draftSummary,
  keepDraft,
  parseSaidPrice,
  prepareBusinessSignup,
} from './draft.js';
export { proposeServiceArea } from './propose-area.js';
export {
  type ApplicationForReview,
  applicationsToReview,
  applicationToReview,
  type Approval,
  approveApplication,
  type ApproveOptions,
  areasToReview,
  type ClaimForReview,
  CLI_REVIEWER,
  consoleReviewer,
  decideArea,
  grantOperatorAccess,
  isOperator,
  markRefundDone,
  MAX_REVIEW_NOTE,
  noticeAmount,
  type RefundOwed,
  refundsOwed,
  rejectApplication,
  type Reviewer,
  revokeOperatorAccess,
} from './review.js';
export { getSignupStatus, startBusinessSignup, timezoneChoices } from './signup.js';
export { setServiceArea } from './step-area.js';
export { setOperatingHours } from './step-hours.js';
export { addResources } from './step-resources.js';
export { addBusinessServices } from './step-services.js';
export { inviteStaff } from './step-staff.js';
export { submitBusinessForReview, summaryOf } from './submit.js';
