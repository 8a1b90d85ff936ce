// A business application as the sign-up steps answer it, and what they share without running
// anything: the schemas of the answer and of an application id, the stored parts' shapes, the
// steps' errors. A leaf: it imports no operation (application.ts builds the answer).
import { z } from 'zod';
import type { Week } from '../schedule/index.js';

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

const WeekOutSchema = z.record(z.string(), z.array(z.object({ start: z.string(), end: z.string() }))).meta({
  description: 'Days (mon to sun) to local HH:MM ranges in the application’s time zone; days off left out.',
});

const PartsShape = {
  services: z
    .array(
      z.object({
        id: z.string(),
        category: z.enum(['grooming', 'walking', 'sitting']),
        kind: z.enum(['PRIMARY', 'EXTRA']),
        name: z.string(),
        blurb: z.string(),
        petTypes: z.array(z.enum(['DOG', 'CAT'])),
        priceCents: z.int().nullable().meta({
          description:
            'In minor units of the application’s currency (whole units where it has none, as yen).',
        }),
        price: z.string().nullable().meta({ description: 'The price in words, such as €35 or ¥1,500.' }),
        durationMin: z.int(),
        groupSize: z.int(),
        tiers: z.array(z.record(z.string(), z.unknown())),
        needsPrice: z
          .boolean()
          .meta({ description: 'Copied from our menu without a price: ask the person for it.' }),
        fromTemplate: z.boolean(),
      }),
    )
    .meta({ description: 'The menu (add_business_services).' }),
  areas: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        status: z.enum(['PENDING', 'APPROVED', 'REJECTED']),
        kind: z.enum(['RADIUS', 'SUBURB', 'POSTAL_CODE']),
        radiusKm: z.number().nullable(),
        center: z.object({ lat: z.number(), lng: z.number() }).nullable(),
        centerAddress: z.string().nullable(),
        centerPlacedAt: z
          .string()
          .nullable()
          .meta({
            description:
              'When `centerAddress` was found as a town, not the address itself (we know towns, not streets ' +
              'abroad): where the radius is centred, e.g. "the centre of Lisbon (PT)". Tell the person, and ' +
              'offer `center` {lat, lng} for the exact point. Null when placed at the place named or a point.',
          }),
        postalCode: z.string().nullable(),
      }),
    )
    .meta({ description: 'Proposed areas (set_service_area): PENDING until the operator approves each.' }),
  resources: z
    .array(
      z.object({
        id: z.string(),
        kind: z.enum(['VAN', 'WALKER', 'SITTER']),
        name: z.string(),
        week: WeekOutSchema.nullable().meta({ description: 'Its own week; null: the business hours.' }),
        slotStepMin: z.int(),
        travelBufferMin: z.int().nullable(),
      }),
    )
    .meta({ description: 'Who does the work (add_resources); their ids go in resourceIds.' }),
  businessHours: WeekOutSchema.nullable().meta({ description: 'The business hours (set_operating_hours).' }),
  staff: z
    .array(
      z.object({
        id: z.string(),
        email: z.string().nullable(),
        phone: z.string().nullable(),
        role: z.enum(['manager', 'crew']),
        jobTitle: z.string().nullable(),
        resourceIds: z.array(z.string()),
      }),
    )
    .meta({ description: 'Invitations (invite_staff), effective once the business is approved.' }),
  gateway: z
    .object({ kind: z.literal('PAYFAST'), merchantId: z.string() })
    .nullable()
    .meta({ description: 'South Africa: the PayFast merchant id (connect_gateway).' }),
  submittedAt: z.iso.datetime().nullable().meta({ description: 'When it was sent for review.' }),
};

export const ApplicationSchema = z
  .object({
    applicationId: z.string(),
    name: z.string(),
    status: z.enum(['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED']),
    country: z.string().nullable(),
    currency: z.string().nullable(),
    timezone: z.string().nullable(),
    categories: z
      .array(z.enum(['grooming', 'walking', 'sitting']))
      .meta({ description: 'The lines the business offers (start_business_signup).' }),
    mode: z
      .enum(['MOBILE', 'SALON', 'BOTH'])
      .nullable()
      .meta({ description: 'Grooming: in a van, in a salon, or both; null while not said.' }),
    checklist: z.array(ChecklistItemSchema),
    readyToSubmit: z.boolean(),
    next: z.string().meta({ description: 'What to do now: one sentence to act on and say.' }),
    statusUrl: z.url().meta({ description: 'A page where the person watches the application (signed in).' }),
    reviewNote: z.string().nullable().meta({ description: 'Why the operator rejected it (REJECTED only).' }),
    claim: z
      .object({
        listingId: z.string(),
        name: z.string().nullable().meta({ description: "The listing's name; null when it is gone." }),
        status: z.enum(['ASKED', 'GRANTED', 'NOT_GRANTED']),
      })
      .nullable()
      .meta({
        description:
          'The directory listing the application claims (`claimListingId`), null without one. ASKED until the operator ' +
          'decides; GRANTED: the operator checked it is this business and it is now its listing; NOT_GRANTED: the ' +
          'business got a new listing and the claimed one stays as it was (say so to the person).',
      }),
    possibleListings: z
      .array(z.object({ id: z.string(), name: z.string(), town: z.string(), area: z.string().nullable() }))
      .meta({ description: 'Directory entries that may be this business: claim one with `claimListingId`.' }),
    overlaps: z
      .array(
        z.object({
          area: z.string().meta({ description: 'The name of one of this application’s areas.' }),
          businesses: z.int().meta({ description: 'How many businesses on the service already serve it.' }),
          with: z.array(z.string()).meta({ description: 'Their names, with the areas of theirs it meets.' }),
        }),
      )
      .meta({
        description:
          'Areas other businesses already serve (approved areas whose circle meets this one, or the same postal ' +
          'code in the same country). Informational: an overlap is no reason to refuse.',
      }),
    ...PartsShape,
  })
  .meta({ id: 'Application', description: 'A pet business application with its checklist.' });

export type Application = z.infer<typeof ApplicationSchema>;

/** The error responses every step after the details may give. */
export const STEP_ERRORS = [
  { status: 401, description: 'No or an invalid credential.' },
  { status: 403, description: 'The credential lacks business:write.' },
  { status: 404, description: 'No such application of the person (another person’s is not shown to exist).' },
  {
    status: 409,
    description: '`NOT_ACTIVE`: the application was sent for review and can no longer be changed here.',
  },
  { status: 429, description: 'Too many requests.' },
];

/** A resource as the application keeps it (the contract of business_applications.resources). */
export interface StoredResource {
  id: string;
  kind: 'VAN' | 'WALKER' | 'SITTER';
  name: string;
  week: Week | null;
  slotStepMin: number;
  travelBufferMin: number | null;
}

/** An invitation as the application keeps it (the contract of business_applications.staff_invites). */
export interface StoredInvite {
  id: string;
  email: string | null;
  phone: string | null;
  role: 'manager' | 'crew';
  jobTitle: string | null;
  resourceIds: string[];
}
