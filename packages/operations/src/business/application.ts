// A business application as every sign-up step answers it: the application with its checklist
// (@nogpets/onboarding-checklist decides), what to do next, where to watch it, and the directory
// listings that may be this business.
import { type ApplicationData, checklist } from '@nogpets/onboarding-checklist';
import { type ApplicationRow, findPossibleListings, type Queryable } from '@nogpets/store';
import { z } from 'zod';
import type { OperationContext } from '../context.js';
import { townSlug } from '../directory/find-pet-businesses.js';
import { ServiceError } from '../errors.js';

export const ApplicationIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/)
  .meta({
    description: 'From start_business_signup or get_signup_status.',
    example: 'app_2mphcqg0nb2518jt8bsf',
  });

const ChecklistItemSchema = z
  .object({
    id: z.enum(['details', 'services', 'area', 'resources', 'gateway', 'payout', 'staff', 'listing']),
    title: z.string(),
    status: z.enum(['DONE', 'MISSING', 'OPTIONAL', 'NEEDS_ATTENTION']),
    required: z
      .boolean()
      .meta({ description: 'Whether it must be DONE before the application can be submitted.' }),
    missing: z
      .array(z.string())
      .meta({ description: 'What is missing or wrong, in plain words, one entry each.' }),
    fixWith: z.string().meta({ description: 'The tool that fixes it (or changes it, when DONE).' }),
    note: z.string().nullable(),
  })
  .meta({ id: 'ChecklistItem', description: 'One part of an application and what it still needs.' });

export const ApplicationSchema = z
  .object({
    applicationId: z.string(),
    name: z.string(),
    status: z.enum(['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED']),
    country: z.string().nullable(),
    currency: z.string().nullable(),
    timezone: z.string().nullable(),
    checklist: z.array(ChecklistItemSchema),
    readyToSubmit: z.boolean(),
    next: z.string().meta({ description: 'What to do now: one sentence to act on and say.' }),
    statusUrl: z.url().meta({ description: 'A page where the person watches the application (signed in).' }),
    reviewNote: z.string().nullable().meta({ description: 'Why the operator rejected it (REJECTED only).' }),
    possibleListings: z
      .array(z.object({ id: z.string(), name: z.string(), town: z.string(), area: z.string().nullable() }))
      .meta({ description: 'Directory entries that may be this business: claim one with `claimListingId`.' }),
    overlaps: z
      .array(z.object({ area: z.string(), businesses: z.int() }))
      .meta({ description: 'Areas other businesses already serve (informational).' }),
  })
  .meta({ id: 'Application', description: 'A pet business application with its checklist.' });

export type Application = z.infer<typeof ApplicationSchema>;

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
  return {
    applicationId: row.id,
    name: row.name,
    status: row.status,
    country: row.country,
    currency: row.currency,
    timezone: row.timezone,
    checklist: list.items,
    readyToSubmit: list.readyToSubmit,
    next: row.status === 'DRAFT' ? list.next : statusNext(row),
    statusUrl: statusUrlOf(ctx, row.id),
    reviewNote: row.status === 'REJECTED' ? row.reviewNote : null,
    possibleListings: possible.map(({ id, name, town: t, area }) => ({ id, name, town: t, area })),
    overlaps: [],
  };
}

function statusNext(row: ApplicationRow): string {
  if (row.status === 'SUBMITTED')
    return 'The operator is reviewing the application; the status page shows when it is decided.';
  if (row.status === 'APPROVED')
    return 'The business is approved: it can run its bookings from an assistant.';
  return 'The operator rejected the application; the review note says why. Start a new one when that is fixed.';
}

/** The person's own application, or 404 (another person's is not shown to exist). */
export function notFound(id: string): ServiceError {
  return new ServiceError('NOT_FOUND', `No application ${id} of yours.`, { applicationId: id });
}
