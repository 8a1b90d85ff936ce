// The operator's side of business sign-up: operator accounts, applications to review with their
// checklist, approval (which makes the business: catalogue, resources, areas, people, listing, in one
// transaction), rejection with a note, and proposed areas approved one by one. Not public operations:
// the CLI and the operator console call these, and every rule of the review lives here.
import {
  type ApplicationData,
  type ChecklistItem,
  type ClaimEvidence,
  checklist,
  compareClaim,
  stillNeeded,
  type Week,
} from '@nogpets/onboarding-checklist';
import { formatMoney } from '@nogpets/pricing-tiers';
import {
  appendAudit,
  type ClaimedListingRow,
  findApplicationByArea,
  findApplicationForReview,
  findClaimedListings,
  findOperator,
  findOrCreateUser,
  findPossibleListings,
  findProposedArea,
  findUserByEmail,
  findUserById,
  grantOperator,
  insertBusiness,
  insertListing,
  isOperatorAccount,
  linkListing,
  listApplicationsForReview,
  listPendingInvitations,
  listProposedAreas,
  type NewBusiness,
  type NewListing,
  newId,
  type Queryable,
  type ReviewedApplicationRow,
  readOperatorDemo,
  recordReview,
  revokeOperator,
  setApplicationAreas,
  setServiceAreaStatus,
  type TierRow,
  transaction,
} from '@nogpets/store';
import { type Deps, findUnstorableText, isEmailAddress, type Payments, ServiceError } from '../core/index.js';
import {
  type Booking,
  markPaymentRefunded,
  markRefunded,
  paymentsToRefund,
  refundsDue,
} from '../bookings/index.js';
import { townSlug } from '../directory/index.js';
import { type EventSource, operatorSource, recordEvent } from '../events/index.js';
import { chargesToRefund, markNoticeRefunded } from '../money/index.js';
import { invitationExpiry, mailInvitation } from '../staff/index.js';
import { applicationData, claimStatus } from './application.js';
import { applicationFacts } from './application-facts.js';
import { areaRowKind } from './step-area.js';

/** The operator's moves need only the database and the clock. */
export type ReviewDeps = Pick<Deps, 'sql' | 'clock'>;
/** An approval also mails the staff invitations, with links on the service's public address. */
export type ApprovalDeps = ReviewDeps & { payments: Pick<Payments, 'publicUrl'> };

/** Who made a decision: the name on the audit record and the application, and the account if known. */
export interface Reviewer {
  name: string;
  userId: string | null;
}

/** The CLI acts as this reviewer. */
export const CLI_REVIEWER: Reviewer = { name: 'operator (CLI)', userId: null };

/** The console acts as the signed-in operator. */
export const consoleReviewer = (user: { id: string; email: string }): Reviewer => ({
  name: `operator console (${user.email})`,
  userId: user.id,
});

/** The longest review note (a rejection's reason). */
export const MAX_REVIEW_NOTE = 1000;

async function audit(
  q: Queryable,
  by: Reviewer,
  action: string,
  target: string,
  details: Record<string, unknown>,
  now: Date,
) {
  await appendAudit(
    q,
    { userId: by.userId, clientId: null, clientName: by.name, action, target, details },
    now,
  );
}

// ---------------------------------------------------------------------------------------------
// Operator accounts

function emailOf(email: string): string {
  const e = email.trim();
  if (!isEmailAddress(e) || e.length > 254)
    throw new ServiceError('BAD_REQUEST', '--email: an email address.', {
      fields: [{ field: 'email', message: 'expected an email address' }],
    });
  return e;
}

/** Grants the operator console to the account with this email (made when absent). */
export async function grantOperatorAccess(
  deps: ReviewDeps,
  email: string,
  by: Reviewer,
): Promise<{ userId: string; email: string; granted: boolean }> {
  const address = emailOf(email);
  const now = deps.clock.now();
  return transaction(deps.sql, async (q) => {
    const user = await findOrCreateUser(q, address);
    const granted = await grantOperator(q, user.id, by.name, now);
    if (granted) await audit(q, by, 'operator.grant', user.id, { email: user.email }, now);
    return { userId: user.id, email: user.email, granted };
  });
}

/** Takes the console away from the account with this email. */
export async function revokeOperatorAccess(
  deps: ReviewDeps,
  email: string,
  by: Reviewer,
): Promise<{ email: string; revoked: boolean }> {
  const address = emailOf(email);
  const now = deps.clock.now();
  return transaction(deps.sql, async (q) => {
    const user = await findUserByEmail(q, address);
    const revoked = user ? await revokeOperator(q, user.id) : false;
    if (user && revoked) await audit(q, by, 'operator.revoke', user.id, { email: user.email }, now);
    return { email: user?.email ?? address, revoked };
  });
}

/** Whether this account may use the operator console. */
export function isOperator(deps: ReviewDeps, userId: string): Promise<boolean> {
  return isOperatorAccount(deps.sql, userId);
}

// ---------------------------------------------------------------------------------------------
// Applications to review

/** An area as the application keeps it (the contract of business_applications.area). */
interface StoredArea {
  id: string;
  name: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
  kind?: 'RADIUS' | 'SUBURB' | 'POSTAL_CODE';
  radiusKm?: number | null;
  center?: { lat: number; lng: number } | null;
  centerAddress?: string | null;
  postalCode?: string | null;
}

export interface ApplicationForReview {
  applicationId: string;
  name: string;
  /** The applicant's email. */
  email: string;
  status: ReviewedApplicationRow['status'];
  country: string | null;
  currency: string | null;
  timezone: string | null;
  town: string | null;
  categories: string[];
  readyToSubmit: boolean;
  checklist: ChecklistItem[];
  /** One line: how many checklist items are done, and what is still missing. */
  summary: string;
  areas: { id: string; name: string; status: StoredArea['status'] }[];
  /** The people approval invites (as typed: never an account's name); they join only by accepting. */
  staffInvited: {
    email: string | null;
    phone: string | null;
    role: 'manager' | 'crew';
    jobTitle: string | null;
  }[];
  /** The directory listing the applicant claims to be, beside both sides' contacts; null when none. */
  claim: ClaimForReview | null;
  reviewNote: string | null;
  businessId: string | null;
  reviewedAt: Date | null;
  reviewedBy: string | null;
  /** When it was sent for review (else when it last changed). */
  submittedAt: Date;
}

/** Phone, email and website: a listing's own, or what the applicant gave. */
export interface ClaimContacts {
  phone: string | null;
  email: string | null;
  website: string | null;
}

/** A claim of a directory listing, as the operator checks it before granting it. */
export interface ClaimForReview {
  listingId: string;
  /** The listing's name; null when it is gone from the directory. */
  listingName: string | null;
  /** False when the listing is already another business's (or gone): approval then publishes a new one. */
  available: boolean;
  listing: ClaimContacts;
  /** The business's phone, email and website from the application, and the applicant's account email. */
  applicant: ClaimContacts & { accountEmail: string };
  /** What agrees and what does not (compareClaim of @nogpets/onboarding-checklist). */
  evidence: ClaimEvidence;
  /** True when the operator granted it, false when approval published a new listing; null until decided. */
  granted: boolean | null;
}

const contactText = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** The application's claim beside the claimed listing (null when it is gone), or null without a claim. */
function claimOf(row: ReviewedApplicationRow, listing: ClaimedListingRow | null): ClaimForReview | null {
  if (!row.claimListingId) return null;
  const d = row.details as Record<string, unknown>;
  const applicant = {
    phone: contactText(d.phone),
    email: contactText(d.email),
    website: contactText(d.website),
    accountEmail: row.email,
  };
  const own: ClaimContacts = {
    phone: listing?.phone ?? null,
    email: listing?.email ?? null,
    website: listing?.website ?? null,
  };
  return {
    listingId: row.claimListingId,
    listingName: listing?.name ?? null,
    available: !!listing && (listing.businessId === null || listing.businessId === row.businessId),
    listing: own,
    applicant,
    evidence: compareClaim(own, {
      phone: applicant.phone,
      emails: [applicant.email, applicant.accountEmail],
      website: applicant.website,
      country: row.country,
    }),
    granted: row.status === 'APPROVED' ? claimStatus(row, listing) === 'GRANTED' : null,
  };
}

async function dataOf(q: Queryable, row: ReviewedApplicationRow): Promise<ApplicationData> {
  const town = typeof row.details.town === 'string' ? townSlug(row.details.town) : null;
  const possible = row.claimListingId ? [] : await findPossibleListings(q, row.name, town);
  return applicationData(row, possible.length);
}

function areasOf(row: ReviewedApplicationRow): StoredArea[] {
  return (row.area as StoredArea[]).filter((a) => a && typeof a.id === 'string');
}

async function forReview(
  q: Queryable,
  row: ReviewedApplicationRow,
  listings?: ClaimedListingRow[],
): Promise<ApplicationForReview> {
  const list = checklist(await dataOf(q, row));
  const claimed = row.claimListingId
    ? ((listings ?? (await findClaimedListings(q, [row.claimListingId]))).find(
        (l) => l.id === row.claimListingId,
      ) ?? null)
    : null;
  const done = list.items.filter((i) => i.status === 'DONE').length;
  const open = stillNeeded(list.items);
  return {
    applicationId: row.id,
    name: row.name,
    email: row.email,
    status: row.status,
    country: row.country,
    currency: row.currency,
    timezone: row.timezone,
    town: typeof row.details.town === 'string' ? row.details.town : null,
    categories: Array.isArray(row.details.categories) ? (row.details.categories as string[]) : [],
    readyToSubmit: list.readyToSubmit,
    checklist: list.items,
    summary:
      `${done} of ${list.items.length} done` +
      (open.length ? `; missing: ${open.map((i) => i.title).join(', ')}` : '; ready'),
    areas: areasOf(row).map(({ id, name, status }) => ({ id, name, status })),
    staffInvited: (row.staffInvites as StoredInvite[]).map((v) => ({
      email: v.email?.trim() || null,
      phone: v.phone?.trim() || null,
      role: v.role,
      jobTitle: v.jobTitle ?? null,
    })),
    claim: claimOf(row, claimed),
    reviewNote: row.reviewNote,
    businessId: row.businessId,
    reviewedAt: row.reviewedAt,
    reviewedBy: row.reviewedBy,
    submittedAt: row.submittedAt ?? row.updatedAt,
  };
}

/** Applications for the operator: SUBMITTED first (longest waiting first), then the rest, newest first. */
export async function applicationsToReview(
  deps: ReviewDeps,
  options: { limit?: number; statuses?: ReviewedApplicationRow['status'][] } = {},
): Promise<ApplicationForReview[]> {
  const rows = await listApplicationsForReview(deps.sql, options);
  const claims = rows.map((r) => r.claimListingId).filter((c): c is string => !!c);
  const listings = await findClaimedListings(deps.sql, [...new Set(claims)]);
  return Promise.all(rows.map((r) => forReview(deps.sql, r, listings)));
}

/** One application as the operator reads it (the approve confirmation shows it), or null when there is none. */
export async function applicationToReview(
  deps: ReviewDeps,
  id: string,
): Promise<ApplicationForReview | null> {
  const row = await findApplicationForReview(deps.sql, id);
  return row ? forReview(deps.sql, row) : null;
}

/**
 * Proposed areas waiting for the operator: PENDING areas of submitted and approved applications,
 * then those running businesses proposed (propose_service_area: no application; named by the
 * business, shown as approved, with `applicationId` null).
 */
export async function areasToReview(deps: ReviewDeps): Promise<
  {
    areaId: string;
    name: string;
    kind: string | null;
    postalCode: string | null;
    applicationId: string | null;
    applicationName: string;
    applicationStatus: ReviewedApplicationRow['status'];
    businessId: string | null;
  }[]
> {
  const rows = await listApplicationsForReview(deps.sql, { statuses: ['SUBMITTED', 'APPROVED'] });
  const fromApplications = rows.flatMap((r) =>
    areasOf(r)
      .filter((a) => a.status === 'PENDING')
      .map((a) => ({
        areaId: a.id,
        name: a.name,
        kind: a.kind ?? null,
        postalCode: a.postalCode ?? null,
        applicationId: r.id as string | null,
        applicationName: r.name,
        applicationStatus: r.status,
        businessId: r.businessId,
      })),
  );
  const fromBusinesses = (await listProposedAreas(deps.sql)).map((a) => ({
    areaId: a.id,
    name: a.name,
    kind: null,
    postalCode: a.postalCode,
    applicationId: null,
    applicationName: a.businessName,
    applicationStatus: 'APPROVED' as const,
    businessId: a.businessId,
  }));
  return [...fromApplications, ...fromBusinesses];
}

/** A refusal of a decision on an application that is not waiting for one. */
function notWaiting(row: ReviewedApplicationRow): ServiceError {
  const why: Record<ReviewedApplicationRow['status'], string> = {
    DRAFT: 'is still a draft: the applicant has not sent it for review',
    SUBMITTED: 'is waiting for review',
    APPROVED: `was already approved${row.businessId ? ` (business ${row.businessId})` : ''}`,
    REJECTED: 'was already rejected',
  };
  return new ServiceError('NOT_ACTIVE', `Application ${row.id} ${why[row.status]}; nothing was changed.`, {
    applicationId: row.id,
    status: row.status,
  });
}

const noApplication = (id: string) =>
  new ServiceError('NOT_FOUND', `No application ${id}.`, { applicationId: id });

/** The application, locked for the decision, while it is SUBMITTED; otherwise a refusal. */
async function submittedForDecision(q: Queryable, id: string): Promise<ReviewedApplicationRow> {
  const row = await findApplicationForReview(q, id, { forUpdate: true });
  if (!row) throw noApplication(id);
  if (row.status !== 'SUBMITTED') throw notWaiting(row);
  return row;
}

/** Rejects a SUBMITTED application with a note saying why (shown to the applicant as `reviewNote`). */
export async function rejectApplication(
  deps: ReviewDeps,
  id: string,
  by: Reviewer,
  note: string | undefined,
): Promise<ApplicationForReview> {
  const text = (note ?? '').replace(/\r\n?/g, '\n').trim();
  const problem = findUnstorableText(text, 'note');
  if (!text || text.length > MAX_REVIEW_NOTE || problem)
    throw new ServiceError(
      'BAD_REQUEST',
      problem
        ? `note: ${problem.message}`
        : `note: say why it is rejected, in 1 to ${MAX_REVIEW_NOTE} characters; the applicant reads it.`,
      { fields: [{ field: 'note', message: `1 to ${MAX_REVIEW_NOTE} characters` }] },
    );
  const now = deps.clock.now();
  return transaction(deps.sql, async (q) => {
    const row = await submittedForDecision(q, id);
    await recordReview(
      q,
      row.id,
      { status: 'REJECTED', reviewNote: text, businessId: null, by: by.name },
      now,
    );
    await audit(q, by, 'application.reject', row.id, { note: text }, now);
    await recordEvent(q, operatorSource(by.userId, 'rejectApplication', now), {
      type: 'application.rejected',
      businessId: null,
      personId: row.userId,
      subjectId: row.id,
      data: { ...applicationFacts(row), note: text },
    });
    const after = await findApplicationForReview(q, row.id);
    return forReview(q, after!);
  });
}

// ---------------------------------------------------------------------------------------------
// Approval: the business an application becomes

/** An application's stored service, resource and invitation (the contract between helpers). */
interface StoredService {
  id: string;
  category: 'grooming' | 'walking' | 'sitting';
  kind: 'PRIMARY' | 'EXTRA';
  name: string;
  blurb?: string | null;
  petTypes?: string[] | null;
  priceCents: number | null;
  durationMin: number;
  groupSize?: number | null;
  tiers?: TierRow[] | null;
}
interface StoredResource {
  id: string;
  kind: 'VAN' | 'WALKER' | 'SITTER';
  name: string;
  week: Week | null;
  slotStepMin?: number | null;
  travelBufferMin?: number | null;
}
interface StoredInvite {
  id?: string;
  email?: string | null;
  phone?: string | null;
  role: 'manager' | 'crew';
  jobTitle?: string | null;
  resourceIds?: string[] | null;
}

const LINE_ORDER = ['grooming', 'walking', 'sitting'] as const;

/** Pet types a service is for when the application did not say: walks are for dogs, the rest for both. */
const defaultPetTypes = (category: StoredService['category']) =>
  category === 'walking' ? ['DOG'] : ['DOG', 'CAT'];

/** The directory categories a business's lines and grooming mode come to. */
export function directoryCategories(categories: string[], mode: unknown): string[] {
  const out: string[] = [];
  if (categories.includes('grooming')) {
    if (mode !== 'SALON') out.push('MOBILE_GROOMING');
    if (mode === 'SALON' || mode === 'BOTH') out.push('GROOMING_SALON');
  }
  if (categories.includes('walking')) out.push('DOG_WALKING');
  if (categories.includes('sitting')) out.push('PET_SITTING');
  return out;
}

/** What can still stop an approval, in plain words (empty: it can be approved). */
function cannotApprove(row: ReviewedApplicationRow, ready: boolean, items: ChecklistItem[]): string[] {
  const problems: string[] = [];
  if (!ready)
    for (const i of stillNeeded(items))
      problems.push(`${i.title}: ${i.missing.join('; ') || i.status.toLowerCase()}`);
  if (!row.country || !row.currency || !row.timezone) problems.push('country, currency and time zone');
  for (const s of row.services as StoredService[])
    if (s.priceCents === null || s.priceCents === undefined) problems.push(`a price for ${s.name}`);
  return problems;
}

/** The rows an application becomes: its business, lines, services, resources, areas and people. */
async function businessFrom(
  q: Queryable,
  row: ReviewedApplicationRow,
  businessId: string,
  now: Date,
): Promise<NewBusiness> {
  const details = row.details as Record<string, unknown>;
  const services = row.services as StoredService[];
  const resources = row.resources as StoredResource[];
  const categories = new Set<string>([
    ...(Array.isArray(details.categories) ? (details.categories as string[]) : []),
    ...services.map((s) => s.category),
  ]);
  const demoLines = (await readOperatorDemo()).lines;
  const lines = LINE_ORDER.filter((id) => categories.has(id)).map((id) => {
    const like = demoLines.find((l) => l.id === id)!;
    return {
      id,
      label: like.label,
      blurb: like.blurb,
      durationMode: like.durationMode,
      repeats: like.repeats,
    };
  });
  const town = typeof details.town === 'string' ? details.town : (row.country ?? '');
  const areas = areasOf(row).map((a) => ({
    id: a.id,
    name: a.name,
    ...areaRowKind(a),
    postalCode: a.postalCode ?? null,
    lat: a.center?.lat ?? null,
    lng: a.center?.lng ?? null,
    radiusKm: a.radiusKm ?? null,
    town,
    status: a.status,
  }));
  const hours = (row.businessHours ?? {}) as Week;
  // Staff by consent: the owner is the only member; everyone the application names is
  // invited (mailed once approved) and joins only by accepting. No account is looked up for them.
  const owner = await findUserById(q, row.userId);
  const members: NewBusiness['members'] = [
    { userId: row.userId, role: 'owner', jobTitle: null, resourceIds: [] },
  ];
  const invitations: NewBusiness['invitations'] = [];
  const expiresAt = invitationExpiry(now);
  const seen = new Set<string>(owner?.email ? [owner.email.toLowerCase()] : []);
  for (const v of row.staffInvites as StoredInvite[]) {
    const email = v.email?.trim() || null;
    const phone = v.phone?.trim() || null;
    if (!email && !phone) continue;
    if (email && seen.has(email.toLowerCase())) continue; // the owner, or invited twice
    if (email) seen.add(email.toLowerCase());
    invitations.push({
      email,
      phone,
      role: v.role,
      jobTitle: v.jobTitle ?? null,
      resourceIds: v.resourceIds ?? [],
      expiresAt,
    });
  }
  // Card payments of a partner go through the operator's gateway at the operator's card fee (in its
  // currency; a business in another currency is not bookable here, so it has none).
  const operator = await findOperator(q);
  return {
    business: {
      id: businessId,
      name: row.name,
      country: row.country!,
      currency: row.currency!,
      timezone: row.timezone!,
      serviceFeeCents: operator && operator.currency === row.currency ? operator.serviceFeeCents : 0,
    },
    lines,
    services: services.map((s) => ({
      id: s.id,
      lineId: s.category,
      name: s.name,
      kind: s.kind,
      blurb: s.blurb ?? '',
      petTypes: s.petTypes?.length ? s.petTypes : defaultPetTypes(s.category),
      priceCents: s.priceCents!,
      durationMin: s.durationMin,
      groupSize: s.groupSize ?? 1,
      tiers: s.tiers ?? [],
    })),
    resources: resources.map((r) => ({
      id: r.id,
      kind: r.kind,
      name: r.name,
      week: (r.week ?? hours) as Record<string, unknown>,
      slotStepMin: r.slotStepMin ?? 30,
      travelBufferMin: r.travelBufferMin ?? null,
    })),
    areas,
    // The application does not say which line covers which area: every line covers every area.
    lineAreas: lines.flatMap((l) =>
      areas.filter((a) => a.status !== 'REJECTED').map((a) => ({ lineId: l.id, areaId: a.id })),
    ),
    members,
    invitations,
  };
}

/** The directory listing published for a new business that claimed none (or whose claim was taken). */
function listingFor(row: ReviewedApplicationRow, businessId: string): NewListing {
  const d = row.details as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const town = str(d.town);
  const lines = new Set<string>([
    ...(Array.isArray(d.categories) ? (d.categories as string[]) : []),
    ...(row.services as StoredService[]).map((s) => s.category),
  ]);
  const categories = directoryCategories([...lines], d.mode);
  return {
    id: newId('dir'),
    name: str(d.tradingName) ?? row.name,
    categories: categories.length ? categories : ['PET_SITTING'],
    area: town,
    // A town without a Latin slug (東京) is listed under the country's code.
    town: (town ? townSlug(town) : null) ?? (row.country ?? 'xx').toLowerCase(),
    services: (row.services as StoredService[])
      .filter((s) => s.kind === 'PRIMARY')
      .map((s) => s.name)
      .slice(0, 12),
    website: str(d.website),
    phone: str(d.phone),
    email: str(d.email),
    businessId,
    fictional: false,
  };
}

export interface Approval {
  applicationId: string;
  businessId: string;
  /** The directory listing that is now the business's. */
  listingId: string;
  /** True when the claimed listing was linked; false when a new one was published. */
  claimed: boolean;
  /**
   * The listing the application claimed when the operator checked the claim but another business
   * took it meanwhile (or it is gone): a new listing was published instead, and the operator is told
   * so. Null otherwise.
   */
  claimTaken: string | null;
  /**
   * The decision on the application's claim (null without one): granted only when the operator
   * checked it (`claimChecked`); else a new listing is published and the claimed one stays as it was.
   */
  claim: {
    listingId: string;
    granted: boolean;
    /** CLAIM_CHECKED: granted; NOT_CHECKED: the operator did not check it; TAKEN: checked, but not free. */
    reason: 'CLAIM_CHECKED' | 'NOT_CHECKED' | 'TAKEN';
    verdict: ClaimEvidence['verdict'];
  } | null;
  lines: string[];
  services: number;
  resources: number;
  areas: { id: string; name: string; status: string }[];
  members: { userId: string; role: string }[];
  invitations: number;
}

/**
 * The invitations an approval made, mailed in its transaction (phone-only ones wait for an email).
 * An address that had its hour's link mails already is left unmailed (its `sentAt` stays null; the
 * owner sends it again later with invite_staff_member) rather than holding up the approval. In the
 * order of the addresses, so two approvals lock the per-address counts in one order.
 */
async function mailNewInvitations(
  deps: ApprovalDeps,
  q: Queryable,
  plan: NewBusiness,
  now: Date,
  source: EventSource,
): Promise<void> {
  const names = new Map(plan.resources.map((r) => [r.id, r.name]));
  const invitations = (await listPendingInvitations(q, plan.business.id))
    .filter((v) => v.email)
    .sort((a, b) => a.email!.toLowerCase().localeCompare(b.email!.toLowerCase()));
  for (const v of invitations) {
    try {
      await mailInvitation(
        deps,
        q,
        { ...v, email: v.email!, resourceNames: v.resourceIds.map((id) => names.get(id) ?? id) },
        plan.business,
        now,
        source,
      );
    } catch (err) {
      if (!(err instanceof ServiceError && err.code === 'RateLimited')) throw err;
    }
  }
}

/**
 * The approved business's directory listing: the claimed one only when the operator checked the
 * claim (and it is still free), else a new one, the claimed listing left exactly as it was. The
 * decision on a claim is audited (`listing.claim`, on the listing) with who made it and what agreed.
 */
async function listingOf(
  q: Queryable,
  row: ReviewedApplicationRow,
  businessId: string,
  options: ApproveOptions,
  by: Reviewer,
  now: Date,
): Promise<{
  listingId: string;
  claimed: boolean;
  claim: (NonNullable<Approval['claim']> & { evidence: ClaimEvidence }) | null;
}> {
  const checked = options.claimChecked === true;
  if (checked && !row.claimListingId)
    throw new ServiceError(
      'BAD_REQUEST',
      `Application ${row.id} claims no directory listing, so there is no claim to check; approve it without "claim checked". Nothing was changed.`,
      {
        applicationId: row.id,
        fields: [{ field: 'claimChecked', message: 'only for an application that claims a listing' }],
      },
    );
  const claimed = checked ? await linkListing(q, row.claimListingId!, businessId) : false;
  let listingId = row.claimListingId!;
  if (!claimed) {
    const listing = listingFor(row, businessId);
    await insertListing(q, listing, now);
    listingId = listing.id;
  }
  if (!row.claimListingId) return { listingId, claimed, claim: null };
  const [own] = await findClaimedListings(q, [row.claimListingId]);
  const evidence = claimOf(row, own ?? null)!.evidence;
  const claim = {
    listingId: row.claimListingId,
    granted: claimed,
    reason: claimed ? ('CLAIM_CHECKED' as const) : checked ? ('TAKEN' as const) : ('NOT_CHECKED' as const),
    verdict: evidence.verdict,
    evidence,
  };
  await audit(
    q,
    by,
    'listing.claim',
    row.claimListingId,
    {
      applicationId: row.id,
      businessId,
      granted: claim.granted,
      reason: claim.reason,
      claimChecked: checked,
      listingId,
      verdict: evidence.verdict,
      checks: evidence.checks,
    },
    now,
  );
  return { listingId, claimed, claim };
}

/**
 * Approves a SUBMITTED application: in one transaction, under the application's row lock, the
 * business is made with its lines, services, resources (their own week or the business hours),
 * areas (each keeping its status: PENDING ones wait for `approveArea`), the owner and staff, and its
 * listing (the claimed one linked only when the operator checked the claim, else a new one). Anything
 * else is refused and changes nothing.
 */
export async function approveApplication(
  deps: ApprovalDeps,
  id: string,
  by: Reviewer,
  options: ApproveOptions = {},
): Promise<Approval> {
  try {
    return await approveInOne(deps, id, by, options);
  } catch (err) {
    // A stored application the business tables refuse (a value a later rule forbids, a hand edit):
    // the transaction wrote nothing; a refusal naming it, never a failure of the console.
    const code = (err as { code?: unknown }).code;
    if (!(err instanceof ServiceError) && typeof code === 'string' && code.startsWith('23'))
      throw new ServiceError(
        'NOT_ACTIVE',
        `Application ${id} cannot be approved: what it holds does not fit a business (${(err as Error).message}); nothing was changed. Reject it with a note, or have it corrected.`,
        { applicationId: id },
      );
    throw err;
  }
}

/** What the operator says with an approval. */
export interface ApproveOptions {
  /**
   * The operator checked that the applicant is the business of the listing the application claims
   * (the console's "claim checked", the CLI's `--claim-checked`): only then is that listing theirs.
   */
  claimChecked?: boolean;
}

async function approveInOne(
  deps: ApprovalDeps,
  id: string,
  by: Reviewer,
  options: ApproveOptions,
): Promise<Approval> {
  const now = deps.clock.now();
  return transaction(deps.sql, async (q) => {
    const row = await submittedForDecision(q, id);
    const list = checklist(await dataOf(q, row));
    const problems = cannotApprove(row, list.readyToSubmit, list.items);
    if (problems.length)
      throw new ServiceError(
        'NOT_ACTIVE',
        `Application ${row.id} cannot be approved yet: it needs ${problems.join('; ')}. Reject it with a note saying so.`,
        { applicationId: row.id, status: row.status, missing: problems },
      );
    const businessId = newId('biz');
    const plan = await businessFrom(q, row, businessId, now);
    await insertBusiness(q, plan, now);
    const { listingId, claimed, claim } = await listingOf(q, row, businessId, options, by, now);
    await recordReview(q, row.id, { status: 'APPROVED', reviewNote: null, businessId, by: by.name }, now);
    // The approval is told first, then each invitation it mailed.
    const source = operatorSource(by.userId, 'approveApplication', now);
    await recordEvent(q, source, {
      type: 'application.approved',
      businessId,
      personId: row.userId,
      subjectId: row.id,
      data: { ...applicationFacts(row), businessId, note: null },
    });
    await mailNewInvitations(deps, q, plan, now, source);
    const answer: Approval = {
      applicationId: row.id,
      businessId,
      listingId,
      claimed,
      claimTaken: claim?.reason === 'TAKEN' ? claim.listingId : null,
      claim: claim && {
        listingId: claim.listingId,
        granted: claim.granted,
        reason: claim.reason,
        verdict: claim.verdict,
      },
      lines: plan.lines.map((l) => l.id),
      services: plan.services.length,
      resources: plan.resources.length,
      areas: plan.areas.map(({ id, name, status }) => ({ id, name, status })),
      members: plan.members.map(({ userId, role }) => ({ userId, role })),
      invitations: plan.invitations.length,
    };
    await audit(q, by, 'application.approve', row.id, { ...answer, applicationId: undefined }, now);
    return answer;
  });
}

/**
 * The operator's decision on one proposed area of a SUBMITTED or APPROVED application: PENDING
 * becomes APPROVED (or REJECTED) in the application, and in the business's areas once it exists.
 */
export async function decideArea(
  deps: ReviewDeps,
  areaId: string,
  decision: 'APPROVED' | 'REJECTED',
  by: Reviewer,
): Promise<{
  areaId: string;
  name: string;
  status: string;
  applicationId: string | null;
  businessId: string | null;
}> {
  const now = deps.clock.now();
  return transaction(deps.sql, async (q) => {
    const row = await findApplicationByArea(q, areaId, { forUpdate: true });
    if (!row) return decideProposedArea(q, areaId, decision, by, now);
    if (row.status !== 'SUBMITTED' && row.status !== 'APPROVED')
      throw new ServiceError(
        'NOT_ACTIVE',
        `Area ${areaId} belongs to application ${row.id}, which ${row.status === 'DRAFT' ? 'is still a draft' : 'was rejected'}; nothing was changed.`,
        { areaId, applicationId: row.id, status: row.status },
      );
    const all = row.area as StoredArea[];
    const area = all.find((a) => a?.id === areaId)!;
    if (area.status !== 'PENDING')
      throw new ServiceError(
        'NOT_ACTIVE',
        `Area ${area.name} (${areaId}) is already ${area.status.toLowerCase()}; nothing was changed.`,
        { areaId, status: area.status },
      );
    await setApplicationAreas(
      q,
      row.id,
      all.map((a) => (a?.id === areaId ? { ...a, status: decision } : a)),
      now,
    );
    if (row.businessId) await setServiceAreaStatus(q, row.businessId, areaId, decision);
    await audit(
      q,
      by,
      decision === 'APPROVED' ? 'area.approve' : 'area.reject',
      areaId,
      { applicationId: row.id, businessId: row.businessId, name: area.name },
      now,
    );
    return {
      areaId,
      name: area.name,
      status: decision,
      applicationId: row.id,
      businessId: row.businessId,
    };
  });
}

/** The decision on an area a running business proposed (propose_service_area), in the caller's transaction. */
async function decideProposedArea(
  q: Queryable,
  areaId: string,
  decision: 'APPROVED' | 'REJECTED',
  by: Reviewer,
  now: Date,
) {
  const area = await findProposedArea(q, areaId);
  if (!area) throw new ServiceError('NOT_FOUND', `No proposed area ${areaId}.`, { areaId });
  if (area.status !== 'PENDING')
    throw new ServiceError(
      'NOT_ACTIVE',
      `Area ${area.name} (${areaId}) is already ${area.status.toLowerCase()}; nothing was changed.`,
      { areaId, status: area.status },
    );
  await setServiceAreaStatus(q, area.businessId, areaId, decision);
  await audit(
    q,
    by,
    decision === 'APPROVED' ? 'area.approve' : 'area.reject',
    areaId,
    { applicationId: null, businessId: area.businessId, name: area.name },
    now,
  );
  return { areaId, name: area.name, status: decision, applicationId: null, businessId: area.businessId };
}

// ---------------------------------------------------------------------------------------------
// Refunds owed, whichever kind: one list and one "done" for the CLI and the console

export interface RefundOwed {
  /** A booking id, a payment id (pay_…) or a notification id (ntc_…). */
  id: string;
  kind: 'booking' | 'payment' | 'notice';
  amount: string;
  /** What it is, in words: the booking, the bookings paid twice, or why the money came. */
  what: string;
  reference: string | null;
}

/** Every refund still owed, oldest first within each kind: cancelled paid bookings, double payments, stray charges. */
export async function refundsOwed(deps: ReviewDeps): Promise<RefundOwed[]> {
  const [bookings, payments, charges] = await Promise.all([
    refundsDue(deps),
    paymentsToRefund(deps),
    chargesToRefund(deps),
  ]);
  return [
    ...bookings.map((b) => ({
      id: b.id,
      kind: 'booking' as const,
      amount: b.total,
      what: `${b.what}, ${b.when} (cancelled after paying)`,
      reference: null,
    })),
    ...payments.map((p) => ({
      id: p.id,
      kind: 'payment' as const,
      amount: formatMoney(p.amountCents, p.currency),
      what: `paid twice for ${p.bookingIds.join(', ')}`,
      reference: p.gatewayRef ? `${p.gateway} ${p.gatewayRef}` : p.gateway,
    })),
    ...charges.map((n) => ({
      id: n.id,
      kind: 'notice' as const,
      amount: noticeAmount(n),
      what: n.outcome ?? 'money no booking takes',
      reference: n.gatewayRef ? `${n.gateway} ${n.gatewayRef}` : n.gateway,
    })),
  ];
}

/** Marks a refund made at the gateway, whichever kind the id names; REFUNDED. */
export async function markRefundDone(
  deps: ReviewDeps,
  id: string,
  by: Reviewer,
  note?: string,
): Promise<{ id: string; kind: RefundOwed['kind']; status: string; amount: string; booking?: Booking }> {
  const text = note?.trim() || undefined;
  if (id.startsWith('pay_')) {
    const p = await markPaymentRefunded(deps, id, by.name, text);
    return { id: p.id, kind: 'payment', status: p.status, amount: formatMoney(p.amountCents, p.currency) };
  }
  if (id.startsWith('ntc_')) {
    const n = await markNoticeRefunded(deps, id, by.name, text);
    return { id: n.id, kind: 'notice', status: n.state, amount: noticeAmount(n) };
  }
  const b = await markRefunded(deps, id, by.name, text);
  return { id: b.id, kind: 'booking', status: b.paymentStatus, amount: b.total, booking: b };
}

/** A gateway notification's amount in words ('?' when it named none); notifications are PayFast's, in rand. */
export const noticeAmount = (n: { amountCents: number | null }) =>
  n.amountCents === null ? '?' : formatMoney(n.amountCents, 'ZAR');
