// A business application as every sign-up step answers it: the application with its checklist
// (@nogpets/onboarding-checklist decides), what to do next, where to watch it, and the directory
// listings that may be this business.
import { haversineKm } from '@nogpets/coverage-geo';
import { type ApplicationData, checklist } from '@nogpets/onboarding-checklist';
import { formatMoney } from '@nogpets/pricing-tiers';
import {
  type ApplicationRow,
  approvedServiceAreas,
  findApplicationForReview,
  findClaimedListings,
  findOwnApplication,
  findPossibleListings,
  type Queryable,
  type ServedArea,
  transaction,
} from '@nogpets/store';
import { type OperationContext, ServiceError } from '../core/index.js';
import { townSlug } from '../directory/index.js';
import type { Application } from './application-model.js';

const CATEGORIES = ['grooming', 'walking', 'sitting'] as const;

/** The application's stored parts as the checklist package reads them. */
export function applicationData(row: ApplicationRow, possibleListingsCount: number): ApplicationData {
  const d = row.details as Record<string, never>;
  return {
    ...d,
    businessName: row.name,
    country: row.country,
    currency: row.currency,
    timezone: row.timezone,
    services: row.services as never,
    area: row.area as never,
    resources: row.resources as never,
    businessHours: row.businessHours as never,
    staffInvites: row.staffInvites as never,
    gateway: row.gateway as never,
    claimListingId: row.claimListingId,
    possibleListingsCount,
  };
}

/**
 * Where a claim of a directory listing stands: ASKED until the application is decided; once
 * approved, GRANTED exactly when the claimed listing is the business the application became (the
 * one rule the operator's list and the applicant's answer share); NOT_GRANTED otherwise.
 */
export function claimStatus(
  application: { status: ApplicationRow['status']; businessId: string | null },
  listing: { businessId: string | null } | null,
): 'ASKED' | 'GRANTED' | 'NOT_GRANTED' {
  if (application.status === 'DRAFT' || application.status === 'SUBMITTED') return 'ASKED';
  return application.status === 'APPROVED' &&
    listing &&
    application.businessId &&
    listing.businessId === application.businessId
    ? 'GRANTED'
    : 'NOT_GRANTED';
}

/** The application's claim as the applicant sees it, or null without one. */
async function claimAnswer(sql: Queryable, row: ApplicationRow): Promise<Application['claim']> {
  if (!row.claimListingId) return null;
  const [listing] = await findClaimedListings(sql, [row.claimListingId]);
  const decided = row.status === 'APPROVED' ? await findApplicationForReview(sql, row.id) : null;
  return {
    listingId: row.claimListingId,
    name: listing?.name ?? null,
    status: claimStatus({ status: row.status, businessId: decided?.businessId ?? null }, listing ?? null),
  };
}

/** Where the person watches an application. */
export const statusUrlOf = (ctx: OperationContext, id: string) =>
  `${ctx.deps.payments.publicUrl()}/business/applications/${encodeURIComponent(id)}`;

/** The answer of every sign-up step: the application, its checklist, next step and possible listings. */
export async function applicationAnswer(
  ctx: OperationContext,
  sql: Queryable,
  row: ApplicationRow,
): Promise<Application> {
  const town = typeof row.details.town === 'string' ? townSlug(row.details.town) : null;
  const possible = row.claimListingId ? [] : await findPossibleListings(sql, row.name, town);
  const list = checklist(applicationData(row, possible.length));
  const claim = await claimAnswer(sql, row);
  return {
    applicationId: row.id,
    name: row.name,
    status: row.status,
    country: row.country,
    currency: row.currency,
    timezone: row.timezone,
    categories: CATEGORIES.filter((c) => arr(row.details.categories).includes(c)),
    mode: (['MOBILE', 'SALON', 'BOTH'] as const).find((m) => m === row.details.mode) ?? null,
    checklist: list.items,
    readyToSubmit: list.readyToSubmit,
    next: row.status === 'DRAFT' ? list.next : statusNext(row, claim),
    statusUrl: statusUrlOf(ctx, row.id),
    reviewNote: row.status === 'REJECTED' ? row.reviewNote : null,
    claim,
    possibleListings: possible.map(({ id, name, town: t, area }) => ({ id, name, town: t, area })),
    overlaps: await overlapsOf(sql, row),
    ...partsOf(row),
  };
}

/** A price in words in the application's currency: "€35", "¥1,500"; the bare number while the currency is unknown. */
export function priceWords(priceCents: number | null, currency: string | null): string | null {
  if (priceCents === null || priceCents === undefined) return null;
  if (!currency) return `${priceCents} (in the currency still to be set)`;
  try {
    return formatMoney(priceCents, currency);
  } catch {
    return `${priceCents} ${currency}`;
  }
}

const arr = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
const textOr = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The stored parts as the answer shows them, every field present. */
function partsOf(row: ApplicationRow) {
  // biome-ignore lint/suspicious/noExplicitAny: JSON the sign-up steps wrote in the contract's shape; read field by field.
  type S = Record<string, any>;
  return {
    services: arr<S>(row.services).map((s) => ({
      id: String(s.id),
      category: s.category,
      kind: s.kind,
      name: String(s.name),
      blurb: typeof s.blurb === 'string' ? s.blurb : '',
      petTypes: arr<'DOG' | 'CAT'>(s.petTypes),
      priceCents: typeof s.priceCents === 'number' ? s.priceCents : null,
      price: priceWords(typeof s.priceCents === 'number' ? s.priceCents : null, row.currency),
      durationMin: s.durationMin,
      groupSize: s.groupSize ?? 1,
      tiers: arr<Record<string, unknown>>(s.tiers),
      needsPrice: s.needsPrice === true,
      fromTemplate: s.fromTemplate === true,
    })),
    areas: arr<S>(row.area).map((a) => ({
      id: String(a.id),
      name: String(a.name),
      status: a.status,
      kind: a.kind,
      radiusKm: typeof a.radiusKm === 'number' ? a.radiusKm : null,
      center: a.center ? { lat: a.center.lat, lng: a.center.lng } : null,
      centerAddress: textOr(a.centerAddress),
      centerPlacedAt: textOr(a.centerPlacedAt),
      postalCode: textOr(a.postalCode),
    })),
    resources: arr<S>(row.resources).map((r) => ({
      id: String(r.id),
      kind: r.kind,
      name: String(r.name),
      week: r.week ?? null,
      slotStepMin: r.slotStepMin ?? 30,
      travelBufferMin: typeof r.travelBufferMin === 'number' ? r.travelBufferMin : null,
    })),
    businessHours: (row.businessHours as Record<string, { start: string; end: string }[]> | null) ?? null,
    staff: arr<S>(row.staffInvites).map((i) => ({
      id: String(i.id),
      email: textOr(i.email),
      phone: textOr(i.phone),
      role: i.role,
      jobTitle: textOr(i.jobTitle),
      resourceIds: arr<string>(i.resourceIds),
    })),
    gateway: row.gateway
      ? { kind: 'PAYFAST' as const, merchantId: String((row.gateway as S).merchantId) }
      : null,
    submittedAt: row.submittedAt ? new Date(row.submittedAt).toISOString() : null,
  };
}

/** An area of an application as the steps store it (the checklist's ProposedArea plus where it is). */
export interface StoredArea {
  id: string;
  name: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
  kind: 'RADIUS' | 'SUBURB' | 'POSTAL_CODE';
  radiusKm: number | null;
  center: { lat: number; lng: number } | null;
  centerAddress: string | null;
  /** Where a radius's `centerAddress` was placed when found as a town (stored since places abroad were found by their other names). */
  centerPlacedAt?: string | null;
  postalCode: string | null;
}

/** Two names of services or resources are one name in any case, around spaces. */
export const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Puts the items a step was sent (services, resources) into the application's list `base`: each
 * replaces the item with its `id`, else the one with its name, else (with `replace`, when `base`
 * started over) takes the id an item of `before` had under that name, else is added with a new id.
 * Two sent items that mean one item, or an item renamed onto another's name, are problems (with
 * the field to name), so no id and no name is ever held twice.
 */
export function placeByIdOrName<T extends { id: string; name: string }>(
  base: T[],
  before: T[],
  sent: { id?: string | undefined; name: string }[],
  make: (index: number, id: string) => T,
  o: { field: string; noun: string; replace: boolean; newId: () => string },
): { list: T[]; problems: { field: string; message: string }[] } {
  const problems: { field: string; message: string }[] = [];
  const claimed = new Map<string, number>();
  let list = [...base];
  const ids = sent.map((s, i) => {
    const id =
      s.id ??
      base.find((b) => sameName(b.name, s.name))?.id ??
      (o.replace ? before.find((b) => sameName(b.name, s.name))?.id : undefined);
    const twin = sent.findIndex((t, j) => j < i && sameName(t.name, s.name));
    const same = id === undefined ? undefined : claimed.get(id);
    if (same !== undefined || twin >= 0)
      problems.push({
        field: `${o.field}.${i}`,
        message: `the same ${o.noun} as ${o.field}.${same ?? twin}`,
      });
    if (id !== undefined && same === undefined) claimed.set(id, i);
    return id ?? o.newId();
  });
  sent.forEach((_, i) => {
    const item = make(i, ids[i]!);
    const at = list.findIndex((b) => b.id === item.id);
    list = at >= 0 ? list.map((b, j) => (j === at ? item : b)) : [...list, item];
  });
  sent.forEach((s, i) => {
    const other = list.find((b) => b.id !== ids[i] && sameName(b.name, s.name));
    if (other && !problems.some((p) => p.field === `${o.field}.${i}`))
      problems.push({
        field: `${o.field}.${i}.name`,
        message: `another ${o.noun} (${other.id}) is already called ${other.name}: choose another name, or remove that one (removeIds)`,
      });
  });
  return { list, problems };
}

/** A postal code compared as people mean it: "1000-001", "1000 001" and "1000001" are one. */
export const postalKey = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

/**
 * The application's areas that businesses on the service already serve: an approved area whose
 * circle meets this area's (centres closer than the two radii together; a suburb without a radius
 * counts as its centre point), or with the same postal code in the same country. Rejected areas of
 * the application are left out.
 */
async function overlapsOf(sql: Queryable, row: ApplicationRow): Promise<Application['overlaps']> {
  const areas = (row.area as StoredArea[]).filter((a) => a && a.status !== 'REJECTED');
  if (areas.length === 0) return [];
  // Once approved, the application is a business with these areas: those are not "other businesses".
  const own = (row.area as StoredArea[]).filter((a) => a && typeof a.id === 'string').map((a) => a.id);
  return areaOverlaps(sql, areas, row.country, own);
}

/**
 * Which of these areas (in `country`) other businesses' approved areas meet; the business that has
 * any of `ownAreaIds` is not another business.
 */
export async function areaOverlaps(
  sql: Queryable,
  areas: StoredArea[],
  country: string | null,
  ownAreaIds: string[],
): Promise<Application['overlaps']> {
  const served = await approvedServiceAreas(sql, ownAreaIds);
  const out: Application['overlaps'] = [];
  for (const area of areas) {
    const meets = served.filter((s) => meetsArea(area, s, country));
    if (meets.length === 0) continue;
    const byBusiness = new Map<string, { name: string; areas: string[] }>();
    for (const s of meets) {
      const entry = byBusiness.get(s.businessId) ?? { name: s.businessName, areas: [] };
      entry.areas.push(s.name);
      byBusiness.set(s.businessId, entry);
    }
    out.push({
      area: area.name,
      businesses: byBusiness.size,
      with: [...byBusiness.values()].map((b) => `${b.name} (${listAreas(b.areas)})`),
    });
  }
  return out;
}

function meetsArea(area: StoredArea, served: ServedArea, country: string | null): boolean {
  if (area.postalCode && served.postalCode && country === served.country) {
    if (postalKey(area.postalCode) === postalKey(served.postalCode)) return true;
  }
  if (!area.center || served.lat === null || served.lng === null) return false;
  const distance = haversineKm(area.center, { lat: served.lat, lng: served.lng });
  return distance < (area.radiusKm ?? 0) + (served.radiusKm ?? 0);
}

function listAreas(names: string[]): string {
  const shown = names.slice(0, 4).join(', ');
  return names.length > 4 ? `${shown} and ${names.length - 4} more` : shown;
}

/**
 * The person's own application, locked for the change, while it is still a DRAFT: another
 * person's or a missing one is 404 (the same words), one sent for review 409 NOT_ACTIVE.
 */
/**
 * The opening every sign-up step shares: one transaction, the person's own draft locked in it
 * (404 for anyone else's, 409 once submitted), then the step's body with both.
 */
export function inOwnDraft<T>(
  ctx: OperationContext,
  applicationId: string,
  body: (draft: { q: Queryable; row: ApplicationRow }) => Promise<T>,
): Promise<T> {
  return transaction(ctx.deps.sql, async (q) => body({ q, row: await ownDraft(ctx, q, applicationId) }));
}

export async function ownDraft(ctx: OperationContext, q: Queryable, id: string): Promise<ApplicationRow> {
  const row = await findOwnApplication(q, ctx.auth!.userId, id, { forUpdate: true });
  if (!row) throw notFound(id);
  if (row.status !== 'DRAFT') {
    throw new ServiceError(
      'NOT_ACTIVE',
      `The application is ${row.status.toLowerCase()}: it can no longer be changed here.`,
      { applicationId: row.id, status: row.status },
    );
  }
  return row;
}

function statusNext(row: ApplicationRow, claim: Application['claim']): string {
  if (row.status === 'SUBMITTED')
    return 'The operator is reviewing the application; the status page shows when it is decided.';
  if (row.status === 'APPROVED')
    return `The business is approved: it can run its bookings from an assistant.${
      claim?.status === 'GRANTED'
        ? ` The directory listing it claimed (${claim.name ?? claim.listingId}) is now its listing.`
        : claim
          ? ` The claim of the directory listing ${claim.name ?? claim.listingId} was not granted (the operator did not confirm it is this business): the business has a new listing of its own, and the claimed one stays as it was.`
          : ''
    }`;
  return 'The operator rejected the application; the review note says why. Start a new one when that is fixed.';
}

/** The person's own application, or 404 (another person's is not shown to exist). */
export function notFound(id: string): ServiceError {
  return new ServiceError('NOT_FOUND', `No application ${id} of yours.`, { applicationId: id });
}
