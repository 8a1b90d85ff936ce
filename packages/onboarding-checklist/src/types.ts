/** The three lines a business can offer. */
export type Category = 'grooming' | 'walking' | 'sitting';

/** Where grooming happens: at the client's door, in the business's salon, or both. */
export type Mode = 'MOBILE' | 'SALON' | 'BOTH';

/** PRIMARY: a service people book on its own; EXTRA: an add-on to one. */
export type ServiceKind = 'PRIMARY' | 'EXTRA';

/** VAN serves grooming (a salon table is a VAN too), WALKER walking, SITTER sitting. */
export type ResourceKind = 'VAN' | 'WALKER' | 'SITTER';

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

/** Working time of one day, local `HH:MM`. */
export interface TimeRange {
  start: string;
  end: string;
}

/** A working week: lowercase three-letter days to their ranges; days off are left out. */
export type Week = Partial<Record<Weekday, TimeRange[]>>;

/** A service on the application's menu. `priceCents` is in minor units of the business's currency. */
export interface ApplicationService {
  id: string;
  category: Category;
  kind: ServiceKind;
  name: string;
  priceCents: number | null;
  durationMin: number;
  /** Copied from the operator's menu into another currency without a price: the business must price it. */
  needsPrice?: boolean;
  /** Copied from the operator's menu (`useTemplate`). */
  fromTemplate?: boolean;
}

/** A proposed service area; PENDING until the operator approves (or rejects) it. */
export interface ProposedArea {
  id?: string;
  /** How the person would name it: "10 km around Stellenbosch", "Lisbon 1000-1200". */
  name: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
}

/** A van (or salon table), walker or sitter. Without a `week` it works the business hours. */
export interface ApplicationResource {
  id: string;
  kind: ResourceKind;
  name: string;
  week: Week | null;
}

/** Someone invited to the business's staff app; invitations take effect once the business is approved. */
export interface StaffInvite {
  email?: string | null;
  phone?: string | null;
  role: 'manager' | 'crew';
  jobTitle?: string | null;
  resourceIds?: string[];
}

/** South Africa only: a PayFast merchant id (never a key or a passphrase). */
export interface Gateway {
  kind: 'PAYFAST';
  merchantId: string;
}

/** Outside South Africa: how the business would like to be paid. Never bank details. */
export interface PayoutPreference {
  method: string;
  note?: string | null;
}

/**
 * An application as the service stores it. Every field may be absent or null while the person is
 * still filling it in: the checklist says what is missing instead of refusing.
 */
export interface ApplicationData {
  businessName?: string | null;
  tradingName?: string | null;
  contactName?: string | null;
  /** With its country code outside South Africa ("+351 912 345 678"); a South African number may start with 0. */
  phone?: string | null;
  email?: string | null;
  website?: string | null;
  /** ISO 3166-1 alpha-2 ("PT"). When absent, the phone's calling code may imply it. */
  country?: string | null;
  /** ISO 4217 ("EUR"). When absent, the country's currency if it has exactly one. */
  currency?: string | null;
  /** IANA ("Europe/Lisbon"). When absent, the country's zone if it has exactly one. */
  timezone?: string | null;
  town?: string | null;
  suburbs?: string[] | null;
  /** The lines the business offers. Each needs a priced main service and a resource of its kind. */
  categories?: Category[] | null;
  mode?: Mode | null;
  vans?: number | null;
  /** How many people work for the business, as the person said. */
  staff?: number | null;
  services?: ApplicationService[] | null;
  /** Proposed areas; null or empty while none is set. */
  area?: ProposedArea[] | null;
  resources?: ApplicationResource[] | null;
  /** The business hours every resource without a week of its own works. */
  businessHours?: Week | null;
  staffInvites?: StaffInvite[] | null;
  gateway?: Gateway | null;
  payoutPreference?: PayoutPreference | null;
  /** The directory listing the business says is its own (an id from `possibleListings`). */
  claimListingId?: string | null;
  /** How many directory listings may be this business (the application's `possibleListings`). */
  possibleListingsCount?: number | null;
  /** True once the person said none of the possible listings is theirs. */
  listingsDeclined?: boolean | null;
}

/** The parts of an application, in the order they are best done. */
export type ChecklistItemId =
  | 'details'
  | 'services'
  | 'area'
  | 'resources'
  | 'gateway'
  | 'payout'
  | 'staff'
  | 'listing';

/**
 * DONE: nothing more to do. MISSING: something needed is not there yet. NEEDS_ATTENTION: something
 * is there but must be looked at (a price to set, a code that is not valid). OPTIONAL: not done,
 * and not needed to submit.
 */
export type ChecklistStatus = 'DONE' | 'MISSING' | 'OPTIONAL' | 'NEEDS_ATTENTION';

/** The MCP tools of the business sign-up that change an application. */
export type SignupTool =
  | 'start_business_signup'
  | 'add_business_services'
  | 'set_service_area'
  | 'add_resources'
  | 'set_operating_hours'
  | 'invite_staff'
  | 'connect_gateway';

export interface ChecklistItem {
  id: ChecklistItemId;
  /** A short heading for people: "Services and prices". */
  title: string;
  status: ChecklistStatus;
  /** Whether the application can be submitted while this item is not DONE (false: it can). */
  required: boolean;
  /** What is missing or wrong, in plain words, one entry each: "a price for Dog bath (EUR)". Empty when DONE. */
  missing: string[];
  /** The tool that fixes this item now (or that changes it, when it is DONE). */
  fixWith: SignupTool;
  /** What is worth knowing even when nothing is missing: "2 areas proposed; the operator approves them in review". */
  note: string | null;
}

export interface Checklist {
  /** Seven items: details, services, area, resources, gateway (South Africa) or payout (elsewhere), staff, listing. */
  items: ChecklistItem[];
  /** True exactly when every required item is DONE. */
  readyToSubmit: boolean;
  /** What to do now, one sentence an assistant can act on and say, naming the tool. */
  next: string;
}

/** What `defaultsFor` is given: what the person said. */
export interface DefaultsInput {
  country?: string | null;
  phone?: string | null;
}

/** Where a default came from. */
export type DefaultSource = 'given' | 'phone' | 'country' | null;

/** Country, currency and time zone as far as the data can tell, each with its reason in plain words. */
export interface Defaults {
  /** ISO 3166-1 alpha-2, upper case, or null. */
  country: string | null;
  /** ISO 4217, or null when the country is unknown or uses several currencies. */
  currency: string | null;
  /** IANA, or null when the country is unknown or has several time zones. */
  timezone: string | null;
  /** Where each value came from (`given` for the country as said, `phone` from the calling code, `country` from ISO data). */
  sources: { country: DefaultSource; currency: DefaultSource; timezone: DefaultSource };
  /** The country's currencies in everyday use when there are several (to ask which); otherwise empty. */
  currencyChoices: string[];
  /** The country's time zones when there are several (to ask which); otherwise empty. */
  timezoneChoices: string[];
  /** One plain sentence each: where the value came from, or why it is empty. */
  reasons: { country: string; currency: string; timezone: string };
}
