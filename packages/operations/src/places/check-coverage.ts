import {
  type Gazetteer,
  type LineCoverage,
  lineCoverage,
  placeAmong,
  type ResolvedPlace,
  resolvePoint,
  resolvePostalCode,
  resolveText,
} from '@nogpets/coverage-geo';
import type { Offer } from '@nogpets/store';
import { z } from 'zod';
import {
  defineOperation,
  LineIdSchema,
  oneGroupOf,
  type OperationContext,
  READ_ONLY,
} from '../core/index.js';
import { BUSINESS_ERRORS, BusinessIdShape, bookableOffer } from './offer-cache.js';
import type { GeoData } from './world-data.js';
import { gazetteerFor } from './gazetteer.js';
import { recordPlaceLead } from './leads.js';

export const POSTAL_CODE = /^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/;

/** The spec's ways to say where: `address` (text or "lat,lng"), `lat`+`lng`, or `postalCode`. */
export const WhereShape = {
  address: z
    .string()
    .max(300)
    .refine((s) => s.trim().length > 0, 'Must name a place.')
    .optional()
    .meta({
      description: 'A typed address, suburb or town, or "lat,lng". At most 300 characters.',
      example: '12 Dorp Street, Die Boord, Stellenbosch',
    }),
  lat: z
    .number()
    .min(-90)
    .max(90)
    .optional()
    .meta({ description: 'Latitude, with `lng`.', example: -33.9477 }),
  lng: z
    .number()
    .min(-180)
    .max(180)
    .optional()
    .meta({ description: 'Longitude, with `lat`.', example: 18.8502 }),
  postalCode: z
    .string()
    .regex(
      POSTAL_CODE,
      'Letters, digits, spaces and hyphens, 2 to 10 characters, starting with a letter or digit.',
    )
    .optional()
    .meta({ example: '7600' }),
};

/** Where a request says the place is: one way of these. */
export type WhereInput = {
  address?: string | undefined;
  lat?: number | undefined;
  lng?: number | undefined;
  postalCode?: string | undefined;
  addressId?: string | undefined;
};

/**
 * `whereRule` as JSON Schema `oneOf`, for the OpenAPI document (validation, and its messages naming
 * the field, stay `whereRule`'s): one way, lat with lng, or (when not `required`) none.
 */
export function whereOneOf(required: boolean, withAddressId = false) {
  const ways = [['address'], ['lat', 'lng'], ['postalCode'], ...(withAddressId ? [['addressId']] : [])];
  return oneGroupOf(
    ways.map((fields) => ({ fields })),
    !required,
  );
}

/**
 * At most (or, when `required`, exactly) one way to say where, lat and lng together. A saved
 * `addressId` is one of the ways where the input has it (quotes and times, not coverage).
 */
export function whereRule(required: boolean, withAddressId = false) {
  const named = withAddressId
    ? 'address, lat and lng, postalCode or addressId'
    : 'address, lat and lng, or postalCode';
  return (value: WhereInput, ctx: z.RefinementCtx): void => {
    const hasPoint = value.lat !== undefined || value.lng !== undefined;
    if (hasPoint && (value.lat === undefined || value.lng === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [value.lat === undefined ? 'lat' : 'lng'],
        message: 'lat and lng go together.',
      });
      return;
    }
    const ways = [
      value.address !== undefined,
      hasPoint,
      value.postalCode !== undefined,
      value.addressId !== undefined,
    ].filter(Boolean).length;
    if (ways > 1 || (required && ways === 0)) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: ways === 0 ? `Say where: ${named}.` : `Say where in one way only: ${named}.`,
      });
    }
  };
}

const PlaceSchema = z
  .object({
    suburb: z.string().nullable(),
    postalCode: z.string().nullable(),
    lat: z.number().nullable(),
    lng: z.number().nullable(),
    town: z
      .string()
      .nullable()
      .meta({ description: 'The town; for places outside the home territory, the town found there.' }),
    country: z.string().nullable().meta({ description: 'ISO 3166 two-letter code.' }),
  })
  .meta({ id: 'Place', description: 'A place as the service understood it: suburb, postal code and point.' });

export const CoverageAnswerSchema = z
  .object({
    covered: z.boolean(),
    error: z.enum(['NO_COVERAGE', 'UNKNOWN_PLACE']).optional().meta({
      description:
        '`NO_COVERAGE` when no line serves the place; `UNKNOWN_PLACE` when we could not tell where it is.',
    }),
    place: PlaceSchema.nullable(),
    lines: z
      .array(z.object({ id: LineIdSchema, label: z.string(), covered: z.boolean() }))
      .meta({ description: 'Each line and whether it reaches the place.' }),
    nearest: z
      .object({ name: z.string(), distanceKm: z.number() })
      .nullable()
      .meta({ description: 'The closest area we serve, when nothing covers the place.' }),
    leadId: z.string().optional().meta({ description: 'Present when the request was recorded as a lead.' }),
    message: z.string().optional().meta({ description: 'For the person, word for word.' }),
    next: z.string().optional().meta({ description: 'What the assistant should do next.' }),
  })
  .meta({
    id: 'CoverageAnswer',
    description:
      'Whether a place is served, per line; also answered (200) when it is not, with `message` to pass on.',
    example: {
      covered: true,
      place: {
        suburb: 'Die Boord',
        postalCode: '7600',
        lat: -33.9477,
        lng: 18.8502,
        town: 'Stellenbosch',
        country: 'ZA',
      },
      lines: [
        { id: 'grooming', label: 'Mobile grooming', covered: true },
        { id: 'walking', label: 'Dog walking', covered: true },
        { id: 'sitting', label: 'Pet sitting', covered: true },
      ],
      nearest: null,
    },
  });

export type CoverageAnswer = z.infer<typeof CoverageAnswerSchema>;

function placeOf(resolved: ResolvedPlace): z.infer<typeof PlaceSchema> | null {
  switch (resolved.kind) {
    case 'area':
      return {
        suburb: resolved.suburb,
        postalCode: resolved.postalCode,
        lat: resolved.lat,
        lng: resolved.lng,
        town: resolved.town,
        country: resolved.country,
      };
    case 'postal-code':
      return {
        suburb: null,
        postalCode: resolved.postalCode,
        lat: resolved.lat,
        lng: resolved.lng,
        town: resolved.town,
        country: resolved.country,
      };
    case 'home-town':
      return {
        suburb: null,
        postalCode: null,
        lat: resolved.lat,
        lng: resolved.lng,
        town: resolved.town,
        country: resolved.country,
      };
    case 'town':
      return {
        suburb: null,
        postalCode: resolved.postalCode ?? null,
        lat: resolved.lat,
        lng: resolved.lng,
        town: resolved.town,
        country: resolved.country,
      };
    case 'country':
      return { suburb: null, postalCode: null, lat: null, lng: null, town: null, country: resolved.country };
    default:
      return null;
  }
}

function km(n: number): string {
  return n.toFixed(1).replace(/\.0$/, '');
}

export interface CoverageResult {
  answer: CoverageAnswer;
  resolved: ResolvedPlace;
}

/**
 * Where a place is for a partner. The operator's gazetteer knows the suburbs and postal codes of the
 * home territory, which a partner's areas (a radius, suburbs by name, postal codes) do not: when it
 * knows the place as a suburb or postal code, the partner covers it when one of its areas holds it
 * (coverage-geo's `placeAmong`: the suburb of that name, its postal code alone, or a radius reaching
 * it), keeping the suburb's own name and point; otherwise it is a place outside the partner's areas
 * (a point keeps what the partner's own areas made of it). A place the operator's gazetteer does not
 * know as a suburb or postal code is what the partner's own areas make of it (docs/decisions.md).
 * Null when the operator's places do not apply (the operator itself, another country).
 */
async function amongPartnerAreas(
  ctx: OperationContext,
  offer: Offer,
  geo: GeoData,
  g: Gazetteer,
  find: (gz: Gazetteer) => ResolvedPlace,
  isPoint: boolean,
): Promise<ResolvedPlace | null> {
  if (offer.business.isOperator) return null;
  const home = await ctx.deps.offers.operator();
  if (home.business.country !== offer.business.country) return null;
  const known = find(gazetteerFor(home, geo));
  if (known.kind !== 'area' && known.kind !== 'postal-code') return null;
  const among = placeAmong(g, known);
  if (among || isPoint || known.lat === null || known.lng === null) return among;
  // Outside the partner's areas: the town the home territory's places put it in.
  const there = resolvePoint(g, known.lat, known.lng);
  return {
    kind: 'town',
    town: known.town ?? (there.kind === 'town' ? there.town : (offer.areas[0]?.town ?? '')),
    country: known.country,
    lat: known.lat,
    lng: known.lng,
    postalCode: known.postalCode,
  };
}

/** Where a place is and which lines serve it, as coverage sees it; records nothing. */
export async function resolveWhere(ctx: OperationContext, offer: Offer, where: WhereInput) {
  const geo = await ctx.deps.geo();
  const g = gazetteerFor(offer, geo);
  const point =
    where.lat !== undefined && where.lng !== undefined ? { lat: where.lat, lng: where.lng } : null;
  const find = (gz: Gazetteer) =>
    point
      ? resolvePoint(gz, point.lat, point.lng)
      : where.address !== undefined
        ? resolveText(gz, where.address)
        : resolvePostalCode(gz, where.postalCode ?? '');
  const resolved = (await amongPartnerAreas(ctx, offer, geo, g, find, point !== null)) ?? find(g);
  const lines = offer.lines.map((l) => ({ id: l.id, label: l.label, areaIds: l.areaIds }));
  // coverage-geo keeps ids as text; these are the offer's lines, so their ids are line ids.
  const coverage = lineCoverage(resolved, lines, offer.areas) as Omit<LineCoverage, 'lines'> & {
    lines: { id: (typeof lines)[number]['id']; label: string; covered: boolean }[];
  };
  const place = placeOf(resolved);
  return { geo, resolved, coverage, place };
}

export async function assessCoverage(
  ctx: OperationContext,
  offer: Offer,
  where: WhereInput,
  operation: string,
): Promise<CoverageResult> {
  const { geo, resolved, coverage, place } = await resolveWhere(ctx, offer, where);
  const home = `${offer.areas[0]?.town ?? 'our area'}, ${geo.countryName(offer.business.country)}`;

  if (resolved.kind === 'unknown') {
    const asked = where.address ?? where.postalCode ?? `${where.lat},${where.lng}`;
    if (resolved.reason === 'FAR_FROM_ANY_TOWN') {
      return {
        resolved,
        answer: {
          covered: false,
          error: 'NO_COVERAGE',
          place: {
            suburb: null,
            postalCode: null,
            lat: where.lat ?? null,
            lng: where.lng ?? null,
            town: null,
            country: null,
          },
          lines: coverage.lines,
          nearest: coverage.nearest,
          message: `That point is not near any town we know, and we only serve ${home}.`,
          next: 'Ask the person for their street address or suburb and check again.',
        },
      };
    }
    return {
      resolved,
      answer: {
        covered: false,
        error: 'UNKNOWN_PLACE',
        place: null,
        lines: coverage.lines,
        nearest: null,
        message:
          resolved.reason === 'UNKNOWN_POSTAL_CODE'
            ? `We don't know the postal code "${asked}". Which suburb or town is it in?`
            : `We couldn't find a place in "${asked}". Which suburb or town is it, or what is the postal code?`,
        next: 'Ask the person for their suburb, town or postal code and call check_coverage again. Do not guess.',
      },
    };
  }
  if (coverage.covered) {
    return { resolved, answer: { covered: true, place, lines: coverage.lines, nearest: null } };
  }
  const homeTown = offer.areas[0]?.town;
  const where_ =
    resolved.kind === 'area'
      ? resolved.suburb
      : (place?.town ?? (place?.country ? geo.countryName(place.country) : 'there'));
  const leadId = await recordPlaceLead(
    ctx,
    {
      businessId: offer.business.id,
      operation,
      reason: 'NO_COVERAGE',
      query: Object.fromEntries(Object.entries(where).filter(([, v]) => v !== undefined)),
      place,
      clientName: ctx.clientName,
    },
    offer.business,
  );
  const nearest =
    coverage.nearest && place?.country === offer.business.country
      ? ` The closest area ${offer.business.isOperator ? 'we serve' : 'it serves'} is ${coverage.nearest.name}, ${km(coverage.nearest.distanceKm)} km away.`
      : '';
  return {
    resolved,
    answer: {
      covered: false,
      error: 'NO_COVERAGE',
      place,
      lines: coverage.lines,
      nearest: coverage.nearest,
      leadId,
      message: !offer.business.isOperator
        ? place?.town === homeTown && resolved.kind === 'town'
          ? `${offer.business.name} does not come to that part of ${homeTown}.${nearest} We've noted your request.`
          : `${offer.business.name} does not come to ${where_}: it serves ${home}.${nearest} We've noted your request.`
        : place?.town === homeTown && resolved.kind === 'town'
          ? `That spot is outside the ${homeTown} suburbs we serve.${nearest} We've noted your request, so we know where people want us next.`
          : `We don't come to ${where_} yet: NogPets grooms, walks and sits pets in ${home}.${nearest} We've noted your request, so we know where people want us next.`,
      next: 'Pass the message on to the person word for word. Nothing can be booked for this place.',
    },
  };
}

export const checkCoverage = defineOperation({
  operationId: 'checkCoverage',
  toolName: 'check_coverage',
  title: 'Check coverage of an address',
  tag: 'Services',
  mcp: 'person',
  method: 'GET',
  path: '/v1/coverage',
  inputIn: 'query',
  auth: 'public',
  description:
    'Whether NogPets comes to a place, per line (grooming vans cover more suburbs than walkers on foot). Give ONE of: ' +
    '`address` (as the person typed it, or "lat,lng"), `lat`+`lng`, or `postalCode`. Use it before quoting or booking. ' +
    'Tell the person which services reach them. When the answer has a `message`, pass it on word for word; ' +
    '`error: UNKNOWN_PLACE` means ask them for the suburb or postal code rather than guessing. Places we do not serve ' +
    'are recorded for the operator to follow up (`leadId`). For a partner business give its `businessId` (from the ' +
    "directory's `bookWith`). No sign-in needed.",
  input: z
    .object({ ...WhereShape, ...BusinessIdShape })
    .strict()
    .superRefine(whereRule(true)),
  output: CoverageAnswerSchema,
  successStatus: 200,
  errors: [
    {
      status: 400,
      description:
        'No place given, more than one way given, or a value out of bounds. `details.fields` names them.',
    },
    BUSINESS_ERRORS.notFound,
    { status: 409, description: `${BUSINESS_ERRORS.conflict}.` },
    { status: 429, description: 'Too many requests.' },
  ],
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const { businessId, ...where } = input;
    const offer = await bookableOffer(ctx.deps, businessId);
    return (await assessCoverage(ctx, offer, where, 'checkCoverage')).answer;
  },
});
