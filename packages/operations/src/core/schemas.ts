import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './errors.js';

/** What `Idempotency-Key` (HTTP) and `_meta.idempotencyKey` (MCP) may hold: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The `Idempotency-Key` request header, as the OpenAPI document declares it on every POST. */
export const IdempotencyKeyHeaderSchema = z
  .string()
  .regex(IDEMPOTENCY_KEY)
  .optional()
  .meta({
    description:
      'Makes a retry safe: the first answer (success or refusal) to this key is kept for the person, and a retry with ' +
      'the same body gets it again without doing anything twice. 1 to 255 visible ASCII characters, e.g. a UUID. ' +
      'Honoured when a credential is sent (on public operations too); the same key with another body is 422 ' +
      '`IDEMPOTENCY_KEY_REUSED`, and while the first request runs a retry is 409 `REQUEST_IN_PROGRESS`. On MCP: ' +
      '`_meta.idempotencyKey` of `tools/call`.',
    example: '3f1c2a9e-7b4d-4c1e-9a51-0d2f6e8b7c10',
    param: { id: 'IdempotencyKey', in: 'header', name: 'Idempotency-Key' },
  });

/** Fields that go together, as one alternative of a rule across fields; `properties` adds conditions. */
export interface FieldGroup {
  fields: readonly string[];
  properties?: Record<string, unknown>;
}

/**
 * "Exactly one of these groups of fields" (with `optional`, at most one) as JSON Schema `oneOf`:
 * each branch requires its own fields and forbids the others', so the branches exclude each other
 * and typed clients (openapi-typescript) make a union of them. Validation stays the refinement's.
 * @example oneGroupOf([{ fields: ['address'] }, { fields: ['lat', 'lng'] }])
 */
export function oneGroupOf(groups: readonly FieldGroup[], optional = false): { oneOf: object[] } {
  const all = groups.flatMap((g) => g.fields);
  const absent = (fields: readonly string[]) => Object.fromEntries(fields.map((f) => [f, false]));
  const branch = (g: FieldGroup) => ({
    required: g.fields,
    properties: {
      ...absent(all.filter((f) => !g.fields.includes(f))),
      ...Object.fromEntries(g.fields.map((f) => [f, {}])),
      ...g.properties,
    },
  });
  return { oneOf: [...groups.map(branch), ...(optional ? [{ properties: absent(all) }] : [])] };
}

/**
 * Rules across fields for the OpenAPI document only, as zod-openapi's `override` of a schema: the
 * JSON Schema keywords are added to what it renders. Tool schemas leave them out (apps/mcp), since
 * assistants' APIs refuse `oneOf` at the top of a tool's input.
 */
export function documentRules(rules: object) {
  return ({ jsonSchema }: { jsonSchema: object }): void => {
    Object.assign(jsonSchema, rules);
  };
}

/** One offending field of a 400: `pets.0.weightKg`, `(input)` for a rule across fields. */
const FieldProblemSchema = z
  .object({
    field: z.string().meta({ description: 'Dotted path of the field; `(input)` for a rule across fields.' }),
    message: z.string(),
  })
  .meta({
    id: 'FieldProblem',
    description: 'One offending field of a 400 and what is wrong with it.',
    example: { field: 'pets.0.weightKg', message: 'Invalid input: expected number, received string' },
  });

// Details are open objects (more keys may come); the keys named here are the ones clients rely on.
const ValidationErrorDetails = z
  .looseObject({
    fields: z
      .array(FieldProblemSchema)
      .optional()
      .meta({ description: 'Each offending field, when the input fails its schema or a rule.' }),
    reason: z
      .string()
      .optional()
      .meta({
        description:
          'Why, when it is not a field: `malformed_json`, `body_not_object`, or a pricing or scheduling rule ' +
          '(`WRONG_PET_TYPE`, `NO_PRIMARY`, `RANGE_TOO_LONG`...).',
      }),
  })
  .meta({
    id: 'ValidationErrorDetails',
    description:
      '`details` of `BAD_REQUEST` (400): `fields` for input that fails its schema or a rule, `reason` otherwise; a ' +
      'pricing refusal also names the `pet` and `serviceId`.',
  });

const ConfirmRequiredDetails = z
  .looseObject({
    summary: z.string().meta({ description: 'What would happen, to show the person before they agree.' }),
    message: z.string(),
    bookingId: z.string().optional().meta({ description: 'Cancel: the booking to be cancelled.' }),
    totalCents: z.int().optional().meta({ description: 'Book: the total of the booking.' }),
    total: z.string().optional(),
    paymentMethod: z.enum(['CARD', 'CASH']).optional(),
    parts: z
      .object({
        kind: z.string().meta({
          description:
            'The kind of step: booking, visitOrder, invoice, prices, hours, timeOff, area, application or staff.',
        }),
        what: z.string().meta({ description: 'The change, as the summary begins.' }),
        when: z
          .object({
            date: z.string().meta({ description: 'Local date, YYYY-MM-DD.' }),
            time: z.string().meta({ description: 'Local start time, HH:MM.' }),
            endDate: z.string(),
            endTime: z.string(),
            timeZone: z.string(),
            text: z.string().meta({ description: 'The local day and times in words, as in the summary.' }),
          })
          .nullable(),
        place: z.string().nullable(),
        pets: z.array(z.string()).nullable(),
        amount: z
          .object({
            cents: z.int(),
            currency: z.string(),
            text: z.string().meta({ description: 'e.g. R130.' }),
          })
          .nullable(),
        money: z.string().nullable().meta({ description: 'What happens to the money, in words.' }),
      })
      .optional()
      .meta({
        description:
          'What `summary` is made of: the local day and time, place, pets, amount and what happens to the money; ' +
          '`null` for a part that does not apply to this kind of step.',
      }),
  })
  .meta({
    id: 'ConfirmRequiredDetails',
    description:
      '`details` of `CONFIRM_REQUIRED` (409): show `summary` to the person, and only after they agree send the ' +
      'request again with `confirm: true`.',
  });

const NoCoverageDetails = z
  .looseObject({
    message: z.string().meta({ description: 'For the person, word for word.' }),
    leadId: z
      .string()
      .optional()
      .meta({ description: 'The request was recorded as a lead for the operator to follow up.' }),
    next: z.string().optional().meta({ description: 'What the assistant should do next.' }),
    place: z.unknown().optional().meta({ description: 'The place as it was understood (see Place).' }),
    nearest: z.unknown().optional().meta({ description: 'The closest area served, when known.' }),
  })
  .meta({
    id: 'NoCoverageDetails',
    description:
      '`details` of `NO_COVERAGE` (409 on quotes, times and booking): pass `message` on word for word; `leadId` when ' +
      'the request was recorded as a lead.',
  });

const NoAvailabilityDetails = z
  .looseObject({
    reason: z.string().meta({
      description: '`OUTSIDE_HOURS`, `CLOSED_DAY`, `FULLY_BOOKED` or `PAST` (too soon: inside the notice).',
    }),
    message: z.string().meta({ description: 'For the person, word for word.' }),
    alternatives: z
      .array(
        z.looseObject({
          date: z.string().optional(),
          start: z.string(),
          time: z.string().optional(),
          resourceId: z.string(),
        }),
      )
      .meta({
        description:
          'The next open times (slots to offer), at any hour; for a stay or visits, the next ones that can be ' +
          'booked (each with the `stay` or `visits` to send, its first `start` and `resourceId`); may be empty.',
      }),
    leadId: z
      .string()
      .optional()
      .meta({ description: 'Only when nothing is open within 14 days: the request was recorded as a lead.' }),
    unplanned: z
      .array(z.unknown())
      .optional()
      .meta({ description: 'Sitting: the days and windows no sitter is free for.' }),
  })
  .meta({
    id: 'NoAvailabilityDetails',
    description:
      '`details` of `NO_AVAILABILITY` (409): why nothing is open and the next open times to offer.',
  });

const UnknownPlaceDetails = z
  .looseObject({
    message: z.string().optional().meta({ description: 'What to ask the person.' }),
    next: z.string().optional(),
  })
  .meta({
    id: 'UnknownPlaceDetails',
    description:
      '`details` of `UNKNOWN_PLACE` (422): ask the person for the suburb or postal code; do not guess.',
  });

const SlotTakenDetails = z
  .looseObject({
    start: z.string().meta({ description: 'The start that was taken.' }),
    resourceId: z.string().optional(),
  })
  .meta({
    id: 'SlotTakenDetails',
    description: '`details` of `SLOT_TAKEN` (409): look for open times again and offer another.',
  });

const NotAvailableInCountryDetails = z
  .looseObject({
    businessId: z.string().meta({ description: 'The business asked for.' }),
    country: z.string().meta({ description: "The business's country, ISO 3166 two-letter code." }),
    phone: z
      .string()
      .optional()
      .meta({ description: "From the business's listing, to book with it directly." }),
    website: z.string().optional(),
    email: z.string().optional(),
  })
  .meta({
    id: 'NotAvailableInCountryDetails',
    description:
      '`details` of `NOT_AVAILABLE_IN_COUNTRY` (409 from list_services, check_coverage, get_quote, find_times and ' +
      'book): the business is outside South Africa, so bookings with it are made directly with it (its phone or ' +
      'website when its listing has them); pass the message on.',
  });

const AuthErrorDetails = z
  .looseObject({
    error: z.enum(['invalid_request', 'invalid_token', 'insufficient_scope']).optional().meta({
      description: 'As in `WWW-Authenticate` (RFC 6750); absent when no credential was sent.',
    }),
    scope: z.string().optional().meta({ description: 'The scopes wanted, space-separated.' }),
  })
  .meta({
    id: 'AuthErrorDetails',
    description:
      '`details` of `UNAUTHORIZED` (401) and `FORBIDDEN` (403): what credential or scope is wanted.',
  });

const RateLimitedDetails = z
  .looseObject({
    limit: z.int().meta({ description: 'Requests allowed per window.' }),
    windowSeconds: z.int(),
    retryAfterSeconds: z.int(),
  })
  .meta({ id: 'RateLimitedDetails', description: '`details` of `RateLimited` (429).' });

const OtherErrorDetails = z
  .record(z.string(), z.unknown())
  .meta({ description: 'Machine-readable specifics of the error, such as the `bookingId` it concerns.' });

/** The codes whose `details` have a schema of their own; every other code has an open object. */
const DETAILS_OF: Partial<Record<ErrorCode, z.ZodType>> = {
  BAD_REQUEST: ValidationErrorDetails,
  UNAUTHORIZED: AuthErrorDetails,
  FORBIDDEN: AuthErrorDetails,
  RateLimited: RateLimitedDetails,
  NO_COVERAGE: NoCoverageDetails,
  NO_AVAILABILITY: NoAvailabilityDetails,
  SLOT_TAKEN: SlotTakenDetails,
  CONFIRM_REQUIRED: ConfirmRequiredDetails,
  UNKNOWN_PLACE: UnknownPlaceDetails,
  NOT_AVAILABLE_IN_COUNTRY: NotAvailableInCountryDetails,
};

export const ErrorCodeSchema = z.enum(ERROR_CODES).meta({
  id: 'ErrorCode',
  description:
    "Stable code to branch on. The spec's: NO_COVERAGE, NO_AVAILABILITY, SLOT_TAKEN, CONFIRM_REQUIRED, TOO_LATE, " +
    'NOTHING_TO_PAY, SHOP_OFF, UNKNOWN_PLACE, NOT_AVAILABLE_IN_COUNTRY, RateLimited; ours for the standard statuses ' +
    '(BAD_REQUEST 400, UNAUTHORIZED 401, FORBIDDEN 403, NOT_FOUND 404, METHOD_NOT_ALLOWED 405, PAYLOAD_TOO_LARGE 413, ' +
    'UNSUPPORTED_MEDIA_TYPE 415, INTERNAL 500, UNAVAILABLE 503) and the 409s NOT_ACTIVE (no longer open to the ' +
    'change), NOT_READY (an application missing something to submit), LAST_OWNER (a business keeps an owner), ' +
    'ALREADY_STAFF (the person is on the staff), IDEMPOTENCY_KEY_REUSED, REQUEST_IN_PROGRESS, and CONFIRM_REFUSED ' +
    '(MCP clients that show our confirmation page: the person refused the change there).',
});

const message = z.string().meta({ description: 'What went wrong, in words a person can read.' });
const otherCodes = ERROR_CODES.filter((code) => !DETAILS_OF[code]);

/**
 * The spec's error body; every error of every operation has this shape. `error` is one of a union
 * on `code`, so a typed client that checks the code knows the keys of `details`.
 */
export const ErrorBodySchema = z
  .object({
    error: z.discriminatedUnion('code', [
      ...Object.entries(DETAILS_OF).map(([code, details]) =>
        z.object({ code: z.literal(code as ErrorCode), message, details: details as z.ZodType }),
      ),
      z.object({
        code: z.enum(otherCodes as [ErrorCode, ...ErrorCode[]]),
        message,
        details: OtherErrorDetails,
      }),
    ] as unknown as [z.ZodObject<{ code: z.ZodLiteral<ErrorCode> }>]),
  })
  .meta({
    id: 'Error',
    description:
      'Every error body: `{error: {code, message, details}}`. `details` has a schema per code (CONFIRM_REQUIRED ' +
      'carries the `summary`, BAD_REQUEST the `fields`, NO_COVERAGE the `message` and `leadId`); other codes have an ' +
      'open object.',
    example: {
      error: {
        code: 'CONFIRM_REQUIRED',
        message:
          'A cash booking needs the person to agree: show them the summary and, once they agree, send confirm: true.',
        details: {
          summary:
            'Book mobile grooming for Rex at Home, Wed, 25 Nov 2026, 09:00 to 10:30. R380 in cash to the crew on the day.',
          totalCents: 38000,
          total: 'R380',
          paymentMethod: 'CASH',
          message:
            'A cash booking needs the person to agree: show them the summary and, once they agree, send confirm: true.',
        },
      },
    },
  });

export const PetTypeSchema = z
  .enum(['DOG', 'CAT'])
  .meta({ id: 'PetType', description: 'The kind of pet: services say which kinds they take.' });
export const CoatSchema = z.enum(['SHORT', 'MEDIUM', 'LONG']).meta({
  id: 'Coat',
  description: 'Coat length, for grooming prices and times: MEDIUM for curly clip coats such as poodles.',
});
export const LineIdSchema = z
  .enum(['grooming', 'walking', 'sitting'])
  .meta({ id: 'LineId', description: 'A line of services (a `category`): grooming, walking or sitting.' });

/**
 * A pet's weight as stored (numeric(5,2), above zero): 0.01 to 150 kg in steps of 0.01. A finer
 * figure is refused rather than rounded, so what is kept is exactly what was sent.
 */
export const WeightKgSchema = z
  .number()
  .min(0.01, { error: 'The weight is at least 0.01 kg.', abort: true })
  .max(150, { error: 'The weight is at most 150 kg.', abort: true })
  .multipleOf(0.01, 'Give the weight in kg with at most two decimals (for example 12.5).');

/** The services one pet is booked for: one PRIMARY of a line plus any EXTRAs (each caller describes them). */
export const ServiceIdsSchema = z.array(z.string().min(1).max(64)).min(1).max(10);

/**
 * One line of text a person gives (an address line, a city): no control characters, so what is
 * shown on a page, a list or a terminal (the operator's `order list`) is what was typed, with no
 * line breaks, tabs or escape sequences hidden in it.
 */
export function singleLine(max: number, min = 0) {
  return z
    .string()
    .trim()
    .min(min)
    .max(max)
    .regex(/^[^\p{Cc}]*$/u, 'One line of text: no line breaks, tabs or control characters.');
}
