export { checklist, stillNeeded } from './checklist.js';
export {
  type ApplicantContacts,
  type ClaimCheck,
  type ClaimEvidence,
  compareClaim,
  type ListingContacts,
  normalisePhone,
  SHARED_MAIL_DOMAINS,
  websiteHost,
} from './claim-evidence.js';
export { CHECKLIST_ITEM_IDS, REQUIRED_ITEM_IDS, SIGNUP_TOOLS } from './constants.js';
export { defaultsFor } from './defaults-for.js';
export type {
  ApplicationData,
  ApplicationResource,
  ApplicationService,
  Category,
  Checklist,
  ChecklistItem,
  ChecklistItemId,
  ChecklistStatus,
  DefaultSource,
  Defaults,
  DefaultsInput,
  Gateway,
  Mode,
  PayoutPreference,
  ProposedArea,
  ResourceKind,
  ServiceKind,
  SignupTool,
  StaffInvite,
  TimeRange,
  Week,
  Weekday,
} from './types.js';
