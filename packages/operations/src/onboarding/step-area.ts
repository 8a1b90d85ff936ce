// setServiceArea: where the business works, proposed to the operator (PENDING until approved): a
// radius around an address or a point, suburbs with their postal codes, and/or postal codes.
import { normalizePlaceText, resolveText } from '@nogpets/coverage-geo';
import { type AreaKind, newId, updateApplicationParts } from '@nogpets/store';
import { z } from 'zod';
import {
  auditChange,
  badRequest,
  defineOperation,
  type OperationContext,
  ServiceError,
} from '../core/index.js';
import { gazetteerFor } from '../places/index.js';
import { applicationAnswer, inOwnDraft, postalKey, type StoredArea } from './application.js';
import { ApplicationIdSchema, ApplicationSchema, STEP_ERRORS } from './application-model.js';

export const MAX_SUBURBS = 50;
export const MAX_POSTAL_CODES = 100;

const POSTAL = /^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/;
const postalCode = z
  .string()
  .trim()
  .regex(POSTAL, 'expected a postal code or ZIP: 2 to 12 letters, digits, spaces or hyphens');

/**
 * Where a typed place is, as our gazetteer (the operator's territory and towns worldwide) knows it,
 * when it is in the application's country (a suburb's name may be a town elsewhere); else null.
 * With `exactly`, only a place of that very name counts (a suburb is not placed at its town's
 * centre because the gazetteer knows the town and not the suburb).
 */
async function locate(
  ctx: OperationContext,
  text: string,
  country: string | null,
  exactly = false,
): Promise<{ lat: number; lng: number; town: string | null } | null> {
  const gazetteer = gazetteerFor(await ctx.deps.offers.operator(), await ctx.deps.geo());
  const place = resolveText(gazetteer, text, country ? { country } : {});
  if (place.kind === 'country' || place.kind === 'unknown') return null;
  if (country && place.country !== country) return null;
  if (exactly) {
    const names =
      place.kind === 'area'
        ? [place.area.name, ...place.area.aliases]
        : place.kind === 'town' || place.kind === 'home-town'
          ? [place.town]
          : [];
    if (!names.some((n) => normalizePlaceText(n) === normalizePlaceText(text))) return null;
  }
  if (place.lat === null || place.lng === null) return null;
  // A town (its centre) rather than the street or suburb: an address is placed at the town it names.
  const town =
    place.kind === 'town' || place.kind === 'home-town' ? `${place.town} (${place.country})` : null;
  return { lat: place.lat, lng: place.lng, town };
}

/** Where a suburb of that very name is, when the gazetteer knows it. */
async function suburbCentre(ctx: OperationContext, name: string, country: string | null) {
  const at = await locate(ctx, name, country, true);
  return at ? { lat: at.lat, lng: at.lng } : null;
}

/** Words saying where radii found as towns were centred ("" when none was): for a message. */
export function placedWords(areas: readonly StoredArea[]): string {
  return areas
    .filter((a) => a.centerPlacedAt)
    .map((a) => ` ${a.name} is centred at ${a.centerPlacedAt}.`)
    .join('');
}

const km = (n: number) => String(Math.round(n * 10) / 10);

/** Where a business works, as set_service_area and propose_service_area take it. */
export const AreaInputShape = {
  radiusKm: z
    .number()
    .min(0.5)
    .max(100)
    .optional()
    .meta({ description: 'How far from the centre, 0.5 to 100 km; with centerAddress or center.' }),
  centerAddress: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .optional()
    .meta({ description: 'The address or place the radius is around.', example: 'Stellenbosch' }),
  center: z
    .object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })
    .strict()
    .optional()
    .meta({ description: 'The point the radius is around, instead of an address.' }),
  centerName: z
    .string()
    .trim()
    .min(1)
    .max(80)
    .optional()
    .meta({ description: 'How to call the centre in the area’s name ("the salon").' }),
  suburbs: z
    .array(
      z
        .object({
          name: z.string().trim().min(1).max(80),
          postalCode: postalCode.optional(),
        })
        .strict(),
    )
    .max(MAX_SUBURBS)
    .optional(),
  postalCodes: z.array(postalCode).max(MAX_POSTAL_CODES).optional(),
};

const AreaInputObject = z.object(AreaInputShape);
export type AreaInput = z.infer<typeof AreaInputObject>;

/** What is wrong with an area input as a whole (each field's own bounds are the schema's); empty when nothing. */
export function areaInputProblems(input: AreaInput): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  const hasCentre = input.centerAddress !== undefined || input.center !== undefined;
  if (input.centerAddress !== undefined && input.center !== undefined)
    problems.push({ field: 'center', message: 'give centerAddress or center, not both' });
  if (input.radiusKm !== undefined && !hasCentre)
    problems.push({ field: 'radiusKm', message: 'needs a centre: centerAddress or center' });
  if (input.radiusKm === undefined && (hasCentre || input.centerName !== undefined))
    problems.push({ field: 'radiusKm', message: 'a centre needs a radius in km (0.5 to 100)' });
  if (input.radiusKm === undefined && !input.suburbs?.length && !input.postalCodes?.length)
    problems.push({
      field: '(input)',
      message: 'say where: radiusKm with centerAddress or center, suburbs, or postalCodes',
    });
  const seen = new Set<string>();
  (input.suburbs ?? []).forEach((s, i) => {
    // As places are compared: any case, spacing or accents ("Die  Böord" is Die Boord).
    const key = normalizePlaceText(s.name);
    if (seen.has(key)) problems.push({ field: `suburbs.${i}`, message: `${s.name} is listed twice` });
    seen.add(key);
  });
  return problems;
}

/**
 * The areas an input proposes, each PENDING with a new id: the radius (its centre found in the
 * business's `country` unless given as a point; 422 UNKNOWN_PLACE when not found), each suburb
 * (placed when the gazetteer knows it by that very name), each postal code not already given.
 */
export async function areasFrom(
  ctx: OperationContext,
  input: AreaInput,
  country: string | null,
): Promise<StoredArea[]> {
  const area: StoredArea[] = [];
  if (input.radiusKm !== undefined) {
    const found = input.center ? null : await locate(ctx, input.centerAddress!, country);
    const center = input.center ?? found;
    // A radius around a place we cannot find covers nothing: ask for it rather than keep it.
    if (!center)
      throw new ServiceError(
        'UNKNOWN_PLACE',
        `We could not find "${input.centerAddress}"${country ? ` in ${country}` : ''}. Ask the person for the town or suburb the radius is around (centerAddress), or send the point as center {lat, lng}.`,
        { field: 'centerAddress', centerAddress: input.centerAddress, country },
      );
    const around = input.centerName ?? input.centerAddress ?? `${input.center!.lat}, ${input.center!.lng}`;
    area.push({
      id: newId('area'),
      name: `${km(input.radiusKm)} km around ${around}`,
      status: 'PENDING',
      kind: 'RADIUS',
      radiusKm: input.radiusKm,
      center: { lat: center.lat, lng: center.lng },
      centerAddress: input.centerAddress ?? null,
      centerPlacedAt: found?.town ? `the centre of ${found.town}` : null,
      postalCode: null,
    });
  }
  const codes = new Set<string>();
  for (const s of input.suburbs ?? []) {
    if (s.postalCode) codes.add(postalKey(s.postalCode));
    area.push({
      id: newId('area'),
      name: s.postalCode ? `${s.name} (${s.postalCode})` : s.name,
      status: 'PENDING',
      kind: 'SUBURB',
      radiusKm: null,
      center: await suburbCentre(ctx, s.name, country),
      centerAddress: null,
      centerPlacedAt: null,
      postalCode: s.postalCode ?? null,
    });
  }
  for (const code of input.postalCodes ?? []) {
    // A code already given (with a suburb, or twice) is one area.
    if (codes.has(postalKey(code))) continue;
    codes.add(postalKey(code));
    area.push({
      id: newId('area'),
      name: `Postal code ${code}`,
      status: 'PENDING',
      kind: 'POSTAL_CODE',
      radiusKm: null,
      center: null,
      centerAddress: null,
      centerPlacedAt: null,
      postalCode: code,
    });
  }
  return area;
}

/**
 * The kind and aliases a proposed area's service-area row gets: a suburb is also found by its own
 * name (its area's name without the " (7600)" `areasFrom` adds); a postal code alone by its code.
 * An area stored before kinds were kept is told by its shape, as migration 0036 tells stored rows.
 */
export function areaRowKind(a: {
  kind?: AreaKind | undefined;
  name: string;
  postalCode?: string | null | undefined;
  radiusKm?: number | null | undefined;
}): { kind: AreaKind; aliases: string[] } {
  const code = a.postalCode ?? null;
  const kind: AreaKind =
    a.kind ??
    (a.radiusKm !== null && a.radiusKm !== undefined
      ? 'RADIUS'
      : code && a.name === `Postal code ${code}`
        ? 'POSTAL_CODE'
        : 'SUBURB');
  if (kind !== 'SUBURB') return { kind, aliases: [] };
  const suffix = code ? ` (${code})` : null;
  return { kind, aliases: [suffix && a.name.endsWith(suffix) ? a.name.slice(0, -suffix.length) : a.name] };
}

export const setServiceArea = defineOperation({
  operationId: 'setServiceArea',
  toolName: 'set_service_area',
  title: 'Set the service area',
  tag: 'Business',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/applications/:applicationId/area',
  inputIn: 'body',
  auth: { scope: 'business:write' },
  description:
    'Sets where the business works, replacing the whole area each call: a radius (`radiusKm`) around an address ' +
    '(`centerAddress`) or a point (`center`), and/or `suburbs` with their postal codes, and/or `postalCodes` (a postal ' +
    'code or ZIP makes an area bookable). Ask the person where they go, or from where and how far. The areas are ' +
    'proposed: PENDING until the operator approves them. `overlaps` says where other businesses on the service ' +
    'already work: tell the person, it is no reason not to apply. Answers the application with its `checklist` and ' +
    '`next`.',
  input: z
    .object({
      applicationId: ApplicationIdSchema,
      ...AreaInputShape,
    })
    .strict()
    .meta({
      example: { applicationId: 'app_2mphcqg0nb2518jt8bsf', radiusKm: 10, centerAddress: 'Stellenbosch' },
    }),
  output: ApplicationSchema,
  successStatus: 200,
  errors: [
    {
      status: 400,
      description:
        'Invalid input: a radius outside 0.5 to 100 km or without a centre (or a centre without a radius, or both ' +
        'an address and a point), more than 50 suburbs or 100 postal codes, a postal code not 2 to 12 letters and ' +
        'digits, or no area at all.',
    },
    {
      status: 422,
      description:
        '`UNKNOWN_PLACE`: `centerAddress` names no place we can find in the application’s country; ask the person ' +
        'for the town or suburb it is in, or send `center` {lat, lng}.',
    },
    ...STEP_ERRORS,
  ],
  events: [],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    const problems = areaInputProblems(input);
    if (problems.length) throw badRequest(problems);

    return inOwnDraft(ctx, input.applicationId, async ({ q, row }) => {
      const area = await areasFrom(ctx, input, row.country);
      const updated = await updateApplicationParts(q, row.id, { area }, now);
      await auditChange(ctx, q, 'application.area', row.id, { areas: area.map((a) => a.name) });
      return applicationAnswer(ctx, q, updated);
    });
  },
});
