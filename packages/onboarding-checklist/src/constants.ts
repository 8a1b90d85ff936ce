import type { ChecklistItemId, SignupTool } from './types.js';

/** Every item id, in the order the items come (a checklist has `gateway` or `payout`, not both). */
export const CHECKLIST_ITEM_IDS: readonly ChecklistItemId[] = Object.freeze([
  'details',
  'services',
  'area',
  'resources',
  'gateway',
  'payout',
  'staff',
  'listing',
]);

/** The items the application cannot be submitted without. */
export const REQUIRED_ITEM_IDS: readonly ChecklistItemId[] = Object.freeze([
  'details',
  'services',
  'area',
  'resources',
]);

/** Every tool a `fixWith` may name. */
export const SIGNUP_TOOLS: readonly SignupTool[] = Object.freeze([
  'start_business_signup',
  'add_business_services',
  'set_service_area',
  'add_resources',
  'set_operating_hours',
  'invite_staff',
  'connect_gateway',
]);
