/**
 * proposeServiceArea / propose_service_area: a running business proposes more places to
 * work, in the sign-up's terms (set_service_area's input and place finding). New areas are PENDING
 * until the operator approves them (console or `pnpm cli area approve`); the business's other areas
 * are unchanged.
 */
import { normalizePlaceText } from '@nogpets/coverage-geo';
import { type BusinessAreaRow, insertProposedAreas, listBusinessAreas } from '@nogpets/store';
import { z } from 'zod';
import { auditChange, badRequest, confirmStep, defineOperation } from '../core/index.js';
import { areaOverlaps, postalKey, type StoredArea } from './application.js';
import { AreaInputShape, areaInputProblems, areaRowKind, areasFrom, placedWords } from './step-area.js';
import { inBusiness, RUN_ACCESS_ERRORS, RunBusinessIdShape } from '../staff/index.js';

const AreaStatusSchema = z.enum(['PENDING', 'APPROVED', 'REJECTED']);

const BusinessAreaSchema = z.object({
  areaId: z.string(),
  name: z.string(),
  status: AreaStatusSchema.meta({
    description:
      'APPROVED areas are bookable; PENDING ones wait for the operator; REJECTED ones were refused.',
  }),
  postalCode: z.string().nullable(),
  radiusKm: z.number().nullable(),
});

export const ProposedAreasSchema = z
  .object({
    businessId: z.string(),
    proposed: z
      .array(BusinessAreaSchema)
      .meta({ description: 'The areas added by this call, each PENDING until the operator approves it.' }),
    alreadyYours: z.array(z.string()).meta({
      description:
        'Areas asked for that the business already has (by name or postal code): left as they are.',
    }),
    areas: z
      .array(BusinessAreaSchema)
      .meta({ description: 'All of the business’s areas now, in their order.' }),
    overlaps: z
      .array(
        z.object({
          area: z.string(),
          businesses: z.int(),
          with: z.array(z.string()),
        }),
      )
      .meta({
        description: 'Proposed areas other businesses already serve. Informational: no reason to refuse.',
      }),
    message: z.string().meta({ description: 'What happened, in words to tell the person.' }),
  })
  .meta({
    id: 'ProposedServiceAreas',
    description:
      'The areas a running business proposed (PENDING until the operator approves) and all its areas now.',
  });

const areaOut = (a: BusinessAreaRow) => ({
  areaId: a.id,
  name: a.name,
  status: a.status,
  postalCode: a.postalCode,
  radiusKm: a.radiusKm,
});

/** A place's name as compared: without a postal code in brackets, in any case, spacing or accents. */
const placeKey = (name: string) => normalizePlaceText(name.replace(/\s*\([^)]*\)\s*$/, ''));

/**
 * Whether a proposed area is one the business has already (not rejected): the same place by name,
 * or for a postal code, an area of that postal code alone (no centre).
 */
function alreadyHas(existing: BusinessAreaRow[], area: StoredArea): boolean {
  return existing.some((e) => {
    if (e.status === 'REJECTED') return false;
    if (area.kind === 'POSTAL_CODE')
      return (
        e.postalCode !== null &&
        e.lat === null &&
        postalKey(e.postalCode) === postalKey(area.postalCode ?? '')
      );
    return placeKey(e.name) === placeKey(area.name);
  });
}

export const proposeServiceArea = defineOperation({
  operationId: 'proposeServiceArea',
  confirmKind: 'area',
  toolName: 'propose_service_area',
  title: 'Propose more service areas',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/areas',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Proposes more places the business works, as in sign-up: a radius (`radiusKm`) around an address (`centerAddress`) ' +
    'or a point (`center`), and/or `suburbs` with their postal codes, and/or `postalCodes`. The new areas are added ' +
    'PENDING: clients can book there once the NogPets operator approves them; the business’s other areas stay as they ' +
    'are, and an area it already has is left alone (`alreadyYours`). `overlaps` says where other businesses already ' +
    'work (no reason not to propose). Owners and managers. First tell the person what will be proposed; send ' +
    '`confirm: true` only after they agree (otherwise 409 CONFIRM_REQUIRED with `details.summary`, nothing added).',
  input: z
    .object({
      ...RunBusinessIdShape,
      ...AreaInputShape,
      confirm: z.boolean().optional().meta({
        description:
          'true only after the person agreed to the summary; left out or false: 409 CONFIRM_REQUIRED.',
      }),
    })
    .strict()
    .meta({
      example: {
        suburbs: [{ name: 'Kayamandi', postalCode: '7600' }],
        confirm: true,
      },
    }),
  output: ProposedAreasSchema,
  successStatus: 200,
  errors: [
    ...RUN_ACCESS_ERRORS,
    {
      status: 409,
      description:
        '`CONFIRM_REQUIRED`: show `details.summary`, then send the same input with `confirm: true`.',
    },
    {
      status: 422,
      description:
        '`UNKNOWN_PLACE`: `centerAddress` names no place we can find in the business’s country; ask for the town ' +
        'or suburb it is in, or send `center` {lat, lng}.',
    },
  ],
  events: [],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'change', async ({ q, access }) => {
      const problems = areaInputProblems(input);
      if (problems.length) throw badRequest(problems);
      const business = access.business;
      const existing = await listBusinessAreas(q, business.id);
      const asked = await areasFrom(ctx, input, business.country);
      const fresh = asked.filter((a) => !alreadyHas(existing, a));
      const kept = asked.filter((a) => alreadyHas(existing, a)).map((a) => a.name);
      const overlaps = await areaOverlaps(
        q,
        fresh,
        business.country,
        existing.map((e) => e.id),
      );
      if (fresh.length) {
        const names = fresh.map((a) => a.name).join(', ');
        const overlapWords = overlaps.length
          ? ` Other businesses already work in ${overlaps.map((o) => o.area).join(', ')}.`
          : '';
        confirmStep(
          ctx,
          input.confirm,
          {
            kind: 'area',
            what: `Propose ${fresh.length === 1 ? 'a new service area' : `${fresh.length} new service areas`} for ${business.name}`,
            place: names,
            when: null,
            pets: null,
            amount: null,
            money: null,
            after:
              `${fresh.length === 1 ? 'It stays' : 'They stay'} PENDING (not bookable) until the NogPets operator ` +
              `approves ${fresh.length === 1 ? 'it' : 'them'}; the other areas are unchanged.${overlapWords}`,
          },
          {
            details: {
              businessId: business.id,
              proposed: fresh.map((a) => a.name),
              alreadyYours: kept,
              overlaps,
            },
          },
        );
        // An area has a town: the business's (its first area's), else its country's code.
        const town = existing[0]?.town ?? business.country;
        await insertProposedAreas(
          q,
          business.id,
          fresh.map((a) => ({
            id: a.id,
            name: a.name,
            ...areaRowKind(a),
            postalCode: a.postalCode,
            lat: a.center?.lat ?? null,
            lng: a.center?.lng ?? null,
            radiusKm: a.radiusKm,
            town,
          })),
        );
        await auditChange(ctx, q, 'business.area.propose', business.id, {
          areas: fresh.map((a) => ({ id: a.id, name: a.name })),
        });
      }
      const now = await listBusinessAreas(q, business.id);
      const freshIds = new Set(fresh.map((a) => a.id));
      return {
        businessId: business.id,
        proposed: now.filter((a) => freshIds.has(a.id)).map(areaOut),
        alreadyYours: kept,
        areas: now.map(areaOut),
        overlaps,
        message: fresh.length
          ? `Proposed ${fresh.map((a) => a.name).join(', ')}: PENDING until the NogPets operator approves; clients ` +
            `can book there after that.${placedWords(fresh)}`
          : 'Nothing new: the business already has every area asked for.',
      };
    });
  },
});
