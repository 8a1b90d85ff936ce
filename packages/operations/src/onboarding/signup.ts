import { defaultsFor } from '@nogpets/onboarding-checklist';
import {
  type ApplicationDetails,
  findOwnApplication,
  insertApplication,
  listingClaimable,
  listOwnApplications,
  transaction,
  updateApplicationDetails,
  updateApplicationParts,
} from '@nogpets/store';
import { z } from 'zod';
import { auditChange, defineOperation, isEmailAddress, READ_ONLY, ServiceError } from '../core/index.js';
import { payFastServes } from '../money/index.js';
import { applicationAnswer, notFound, statusUrlOf } from './application.js';
import { ApplicationIdSchema, ApplicationSchema } from './application-model.js';

const text = (max: number) => z.string().trim().min(1).max(max);

/** A time zone's canonical IANA name ('europe/lisbon' is Europe/Lisbon), or null when it names none. */
function canonicalZone(zone: string): string | null {
  try {
    const name = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
    return name.includes('/') ? name : null;
  } catch {
    return null;
  }
}

/** ISO 4217 currencies in use, as the runtime's ICU data knows them. */
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** What looks like bank details: an IBAN, or a long run of digits (an account number). */
const BANK_DETAILS = /\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,}|\d(?:[\s-]?\d){7,}/i;

/** The time zones to choose from for a country with several (Portugal: Lisbon, Madeira, the Azores). */
export function timezoneChoices(country: string | null): string[] {
  return country ? defaultsFor({ country }).timezoneChoices : [];
}

const CategorySchema = z.enum(['grooming', 'walking', 'sitting']);

export const startBusinessSignup = defineOperation({
  operationId: 'startBusinessSignup',
  toolName: 'start_business_signup',
  title: 'Start or update a business application',
  tag: 'Business',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/applications',
  inputIn: 'body',
  auth: { scope: 'business:write' },
  description:
    "Starts a pet business's application to run on NogPets, or updates its details with `applicationId`. Ask the " +
    'person for the business name, town and country (a phone with its country code also says the country; currency ' +
    'and time zone follow from the country when it has exactly one, else ask), what it offers (`categories`: grooming, ' +
    'walking, sitting) and how (`mode`). Outside South Africa `payoutPreference` says how they would like to be paid: ' +
    'never send bank details. If `possibleListings` names their business in our directory, ask, then send ' +
    '`claimListingId`. Every answer has the `checklist` of what is still missing, `next` (say it and do it) and ' +
    '`statusUrl` (give it to the person).',
  input: z
    .object({
      applicationId: ApplicationIdSchema.optional(),
      businessName: text(120).optional(),
      tradingName: text(120).optional(),
      contactName: text(120).optional(),
      phone: text(30).optional().meta({ description: 'With its country code outside South Africa.' }),
      email: z.string().max(254).refine(isEmailAddress, 'expected an email address').optional(),
      website: text(300).optional(),
      country: z
        .string()
        .regex(/^[A-Za-z]{2}$/)
        .transform((c) => c.toUpperCase())
        .optional()
        .meta({
          description:
            'ISO 3166 two letters; needed for a new application unless `phone` has a country code.',
        }),
      currency: z
        .string()
        .regex(/^[A-Za-z]{3}$/)
        .transform((c) => c.toUpperCase())
        .refine((c) => CURRENCIES.has(c), 'expected an ISO 4217 currency in use, such as EUR')
        .optional()
        .meta({ description: "ISO 4217; defaults to the country's when it has exactly one." }),
      timezone: z
        .string()
        .max(64)
        .refine((z) => canonicalZone(z) !== null, 'expected an IANA time zone such as Europe/Lisbon')
        .transform((z) => canonicalZone(z)!)
        .optional()
        .meta({ description: "IANA; defaults to the country's when it has exactly one." }),
      town: text(80).optional(),
      suburbs: z.array(text(80)).max(30).optional(),
      categories: z
        .array(CategorySchema)
        .max(3)
        .refine((c) => new Set(c).size === c.length, 'each category once')
        .optional(),
      mode: z.enum(['MOBILE', 'SALON', 'BOTH']).optional(),
      vans: z.int().min(0).max(50).optional(),
      staff: z.int().min(0).max(500).optional(),
      whatsappOptIn: z.boolean().optional(),
      claimListingId: z.string().min(1).max(128).optional(),
      payoutPreference: z
        .object({
          method: text(40).meta({ description: 'A way of being paid (Wise, PayPal, bank transfer, ...).' }),
          note: z.string().trim().max(300).optional(),
        })
        .strict()
        .optional()
        .meta({
          description:
            'Outside South Africa only: how the business would like to be paid. Never bank details.',
        }),
    })
    .strict(),
  output: ApplicationSchema,
  successStatus: 201,
  statusWhen: { field: 'applicationId', status: 200, description: 'The application, updated.' },
  errors: [
    {
      status: 400,
      description:
        'Invalid input; for a new application `businessName`, `town` and a country (or a phone with a country code); `payoutPreference` only outside South Africa and never with bank details.',
    },
    { status: 401, description: 'No or an invalid credential.' },
    { status: 403, description: 'The credential lacks business:write.' },
    { status: 404, description: 'No such application of the person, or no such listing to claim.' },
    {
      status: 409,
      description: '`NOT_ACTIVE`: the application was submitted and can no longer be changed here.',
    },
    { status: 429, description: 'Too many requests.' },
  ],
  events: [],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(ctx, input) {
    const userId = ctx.auth!.userId;
    const now = ctx.deps.clock.now();
    return transaction(ctx.deps.sql, async (q) => {
      const current = input.applicationId
        ? await findOwnApplication(q, userId, input.applicationId, { forUpdate: true })
        : null;
      if (input.applicationId && !current) throw notFound(input.applicationId);
      if (current && current.status !== 'DRAFT') {
        throw new ServiceError(
          'NOT_ACTIVE',
          `The application is ${current.status.toLowerCase()}: its details can no longer be changed here.`,
          { applicationId: current.id, status: current.status },
        );
      }
      const {
        applicationId: _id,
        businessName,
        country,
        currency,
        timezone,
        claimListingId,
        ...rest
      } = input;
      const details: Record<string, unknown> = { ...(current?.details ?? {}), ...rest };
      const name = businessName ?? current?.name;
      const problems: { field: string; message: string }[] = [];
      if (!name) problems.push({ field: 'businessName', message: 'required for a new application' });
      if (!details.town) problems.push({ field: 'town', message: 'required for a new application' });
      const phone = typeof details.phone === 'string' ? details.phone : null;
      const defaults = defaultsFor({ country: country ?? current?.country ?? null, phone });
      // Why there is no country, in the package's words: an unknown code, a shared calling code, none given.
      if (!defaults.country) problems.push({ field: 'country', message: defaults.reasons.country });
      const preference = input.payoutPreference;
      if (preference && payFastServes(defaults.country))
        problems.push({
          field: 'payoutPreference',
          message: 'outside South Africa only: in South Africa, connect PayFast (connect_gateway)',
        });
      if (preference && BANK_DETAILS.test(`${preference.method} ${preference.note ?? ''}`))
        problems.push({
          field: 'payoutPreference',
          message:
            'never bank details: no IBAN or account number (8 or more digits in a row), only a way of being paid',
        });
      // In South Africa the business is paid through PayFast: a preference from before goes.
      if (payFastServes(defaults.country)) delete details.payoutPreference;
      if (problems.length) {
        throw new ServiceError('BAD_REQUEST', problems.map((p) => `${p.field}: ${p.message}`).join('; '), {
          fields: problems,
        });
      }
      if (claimListingId && !(await listingClaimable(q, claimListingId)))
        throw new ServiceError('NOT_FOUND', `No listing ${claimListingId} to claim.`, { claimListingId });
      const countryChanged = defaults.country !== current?.country;
      const fields: ApplicationDetails = {
        name: name!,
        details,
        country: defaults.country,
        currency: currency ?? (countryChanged ? defaults.currency : (current?.currency ?? defaults.currency)),
        timezone: timezone ?? (countryChanged ? defaults.timezone : (current?.timezone ?? defaults.timezone)),
        claimListingId: claimListingId ?? current?.claimListingId ?? null,
      };
      let row = current
        ? await updateApplicationDetails(q, current.id, fields, now)
        : await insertApplication(q, userId, fields, now);
      // PayFast serves South Africa only: a merchant id from before a move abroad goes.
      if (row.gateway && !payFastServes(row.country))
        row = await updateApplicationParts(q, row.id, { gateway: null }, now);
      await auditChange(ctx, q, current ? 'application.update' : 'application.start', row.id, {
        name: row.name,
      });
      return applicationAnswer(ctx, q, row);
    });
  },
});

export const getSignupStatus = defineOperation({
  operationId: 'getSignupStatus',
  toolName: 'get_signup_status',
  title: 'Get business applications',
  tag: 'Business',
  mcp: 'business',
  method: 'GET',
  path: '/v1/business/applications',
  inputIn: 'query',
  auth: { scope: 'business:write' },
  description:
    "The person's business application (by `applicationId`, default the newest) with its checklist, and all their " +
    'applications by name and status. Use it when the person comes back to an application, to say where it stands ' +
    'and what `next` to do. `application` is null when they have none: offer start_business_signup.',
  input: z.object({ applicationId: ApplicationIdSchema.optional() }).strict(),
  output: z
    .object({
      application: ApplicationSchema.nullable(),
      applications: z.array(
        z.object({ applicationId: z.string(), name: z.string(), status: ApplicationSchema.shape.status }),
      ),
      next: z.string(),
      welcomeUrl: z.url().meta({ description: 'The page listing the person’s applications.' }),
    })
    .meta({ id: 'SignupStatus', description: "The person's applications and the one asked about." }),
  successStatus: 200,
  errors: [
    { status: 400, description: 'An applicationId not of the pattern.' },
    { status: 401, description: 'No or an invalid credential.' },
    { status: 403, description: 'The credential lacks business:write.' },
    { status: 404, description: 'No such application of the person.' },
    { status: 429, description: 'Too many requests.' },
  ],
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const sql = ctx.deps.sql;
    const all = await listOwnApplications(sql, ctx.auth!.userId);
    const row = input.applicationId
      ? await findOwnApplication(sql, ctx.auth!.userId, input.applicationId)
      : (all[0] ?? null);
    if (input.applicationId && !row) throw notFound(input.applicationId);
    const application = row ? await applicationAnswer(ctx, sql, row) : null;
    return {
      application,
      applications: all.map((a) => ({ applicationId: a.id, name: a.name, status: a.status })),
      next: application
        ? application.next
        : 'No application yet: ask for the business name, town and country, then call start_business_signup.',
      welcomeUrl: statusUrlOf(ctx, '').replace(/\/$/, ''),
    };
  },
});
