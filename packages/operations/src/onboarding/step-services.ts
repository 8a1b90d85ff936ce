// addBusinessServices: the business's menu, typed in or copied from the operator's own (useTemplate):
// in rand for a South African business (optionally moved by a percentage), unpriced elsewhere.
import { adjustPrice } from '@nogpets/pricing-tiers';
import { newId, operatorMenu, updateApplicationParts } from '@nogpets/store';
import { z } from 'zod';
import { auditChange, badRequest, defineOperation, LineIdSchema, PetTypeSchema } from '../core/index.js';
import { applicationAnswer, inOwnDraft, placeByIdOrName, sameName } from './application.js';
import { ApplicationIdSchema, ApplicationSchema, STEP_ERRORS } from './application-model.js';
import { checkListSize, listStep } from './list-step.js';
import {
  MAX_TIERS,
  MIN_PRIMARY_MIN,
  PriceCentsSchema,
  PRIMARY_TOO_SHORT,
  TierInputSchema,
} from '../catalogue/index.js';

/** A service as the application keeps it (the contract of business_applications.services). */
export interface StoredService {
  id: string;
  category: 'grooming' | 'walking' | 'sitting';
  kind: 'PRIMARY' | 'EXTRA';
  name: string;
  blurb: string;
  petTypes: ('DOG' | 'CAT')[];
  priceCents: number | null;
  durationMin: number;
  groupSize: number;
  tiers: Record<string, unknown>[];
  needsPrice?: true;
  fromTemplate?: true;
}

/** Services in one request, and on one application. */
export const MAX_SERVICES_PER_REQUEST = 50;
export const MAX_SERVICES = 100;
const ServiceInputSchema = z
  .object({
    id: z.string().min(1).max(128).optional().meta({ description: 'To change a service added before.' }),
    category: LineIdSchema,
    kind: z.enum(['PRIMARY', 'EXTRA']).meta({
      description: 'PRIMARY: booked on its own (each line needs one); EXTRA: an add-on to one.',
    }),
    name: z.string().trim().min(1).max(80).meta({ example: 'Dog bath & brush-out' }),
    blurb: z.string().trim().max(300).optional(),
    petTypes: z
      .array(PetTypeSchema)
      .min(1)
      .max(2)
      .refine((t) => new Set(t).size === t.length, 'each pet type once'),
    priceCents: PriceCentsSchema.meta({
      description:
        'In minor units of the application’s currency: 3500 is €35.00; in yen, which has none, 1500 is ¥1,500. ' +
        'The price when no tier matches.',
    }),
    durationMin: z
      .int()
      .min(0)
      .max(1440)
      .meta({ description: 'Minutes, 5 to 1440 for a PRIMARY, 0 to 1440 for an EXTRA.' }),
    groupSize: z.int().min(1).max(20).optional().meta({ description: 'Above 1 for group walks; default 1.' }),
    tiers: z.array(TierInputSchema).max(MAX_TIERS).optional().meta({
      description:
        'Prices by pet type, coat and weight, as in list_services: the first matching tier wins, else priceCents.',
    }),
  })
  .strict()
  .refine((s) => s.kind === 'EXTRA' || s.durationMin >= MIN_PRIMARY_MIN, {
    message: PRIMARY_TOO_SHORT,
    path: ['durationMin'],
  });

export const addBusinessServices = defineOperation({
  operationId: 'addBusinessServices',
  toolName: 'add_business_services',
  title: 'Add services and prices',
  tag: 'Business',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/applications/:applicationId/services',
  inputIn: 'body',
  auth: { scope: 'business:write' },
  description:
    'Adds what the business offers, with prices in its own currency’s minor units (the application’s `currency`: ' +
    '3500 EUR is €35.00; yen has no minor units, so 1500 JPY is ¥1,500). Each line offered needs at least one ' +
    'PRIMARY service (booked on its own); EXTRAs are add-ons. `useTemplate: true` copies NogPets’ own menu for the ' +
    'lines offered: in rand for a South African business (with `priceAdjustPct`, such as -10, prices move and round ' +
    'to whole rand), elsewhere without prices (`needsPrice`: ask the person for each). A service sent with an ' +
    'existing `id` or the same name replaces it; `removeIds` removes; `replace: true` starts over. Read the prices ' +
    'back to the person in words (`price`). Answers the application with its `checklist` and `next`.',
  input: z
    .object({
      applicationId: ApplicationIdSchema,
      services: z.array(ServiceInputSchema).max(MAX_SERVICES_PER_REQUEST).optional(),
      useTemplate: z
        .boolean()
        .optional()
        .meta({ description: 'Copy NogPets’ own menu (marked fromTemplate).' }),
      priceAdjustPct: z
        .number()
        .min(-90)
        .max(200)
        .optional()
        .meta({
          description:
            'With useTemplate, for a business in rand (ZAR) only: move the template’s prices by this percentage ' +
            '(-10 is 10% less), each rounded to the nearest whole rand.',
        }),
      removeIds: z.array(z.string().min(1).max(128)).max(MAX_SERVICES).optional(),
      replace: z.boolean().optional().meta({ description: 'true: remove every service first.' }),
    })
    .strict()
    .meta({
      example: {
        applicationId: 'app_2mphcqg0nb2518jt8bsf',
        services: [
          {
            category: 'grooming',
            kind: 'PRIMARY',
            name: 'Dog bath & brush-out',
            petTypes: ['DOG'],
            priceCents: 3500,
            durationMin: 60,
          },
        ],
      },
    }),
  output: ApplicationSchema,
  successStatus: 200,
  errors: [
    {
      status: 400,
      description:
        'Invalid input: a bound passed (at most 50 services a request and 100 in all, names 1 to 80 characters, ' +
        'blurbs up to 300, prices 0 to 10 000 000, durations 0 to 1440 minutes and at least 5 for a PRIMARY, groups ' +
        '1 to 20, up to 24 tiers), a category the business does not offer, an id it does not have, the same service ' +
        'twice, `priceAdjustPct` without useTemplate or outside rand, `removeIds` with `replace`, or nothing to do.',
    },
    ...STEP_ERRORS,
  ],
  events: [],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    return inOwnDraft(ctx, input.applicationId, async ({ q, row }) => {
      const given = input.services ?? [];
      const removeIds = input.removeIds ?? [];
      const before = row.services as StoredService[];
      const offered = Array.isArray(row.details.categories) ? (row.details.categories as string[]) : [];
      const step = listStep(
        before,
        { items: given, removeIds, replace: !!input.replace, other: !!input.useTemplate },
        {
          field: 'services',
          noun: 'service',
          give: 'services, useTemplate, removeIds or replace',
          replaceDoes: 'removes every service',
        },
      );
      const problems = step.problems;
      if (input.priceAdjustPct !== undefined && !input.useTemplate)
        problems.push({ field: 'priceAdjustPct', message: 'only with useTemplate: true' });
      if (input.priceAdjustPct !== undefined && input.useTemplate && row.currency !== 'ZAR')
        problems.push({
          field: 'priceAdjustPct',
          message: `only for a business in rand (ZAR): in ${row.currency ?? 'a currency not yet set'} the template comes without prices, to be set one by one`,
        });
      given.forEach((s, i) => {
        if (offered.length > 0 && !offered.includes(s.category))
          problems.push({
            field: `services.${i}.category`,
            message: `the business does not offer ${s.category} (it offers ${offered.join(', ')}): add it to categories with start_business_signup first`,
          });
      });

      let list: StoredService[] = step.kept;
      /** Puts a template copy in: over the service with its name, else at the end. */
      const put = (item: Omit<StoredService, 'id'>) => {
        const old = list.find((o) => sameName(o.name, item.name));
        // With replace (or after removeIds), a service of before named again keeps its id.
        const keep = old?.id ?? before.find((o) => sameName(o.name, item.name))?.id ?? newId('svc');
        const stored: StoredService = { id: keep, ...item };
        list = old ? list.map((o) => (o.id === old.id ? stored : o)) : [...list, stored];
      };
      let copied = 0;
      if (input.useTemplate) {
        const menu = await operatorMenu(q);
        const inRand = row.currency === menu.currency;
        const pct = input.priceAdjustPct ?? 0;
        const move = (cents: number) => adjustPrice(cents, pct, menu.currency);
        for (const t of menu.services) {
          if (offered.length > 0 && !offered.includes(t.category)) continue;
          copied++;
          put({
            category: t.category,
            kind: t.kind,
            name: t.name,
            blurb: t.blurb,
            petTypes: t.petTypes as StoredService['petTypes'],
            groupSize: t.groupSize,
            durationMin: t.durationMin,
            ...(inRand
              ? {
                  priceCents: move(t.priceCents),
                  tiers: t.tiers.map((tier) => ({ ...tier, priceCents: move(Number(tier.priceCents)) })),
                }
              : // Rand prices mean nothing in another currency: the person prices each service (its
                // tiers were rand prices too, so they go; the business adds its own).
                { priceCents: null, tiers: [], needsPrice: true as const }),
            fromTemplate: true,
          });
        }
      }
      // The services sent go over the copies: by id, else by name.
      const placed = placeByIdOrName(
        list,
        before,
        given,
        (i, id): StoredService => {
          const s = given[i]!;
          return {
            id,
            category: s.category,
            kind: s.kind,
            name: s.name,
            blurb: s.blurb ?? '',
            petTypes: s.petTypes,
            priceCents: s.priceCents,
            durationMin: s.durationMin,
            groupSize: s.groupSize ?? 1,
            tiers: (s.tiers ?? []).map((t) => ({ ...t })),
          };
        },
        { field: 'services', noun: 'service', replace: !!input.replace, newId: () => newId('svc') },
      );
      problems.push(...placed.problems);
      if (problems.length) throw badRequest(problems);
      list = placed.list;
      checkListSize(list, MAX_SERVICES, 'services', 'services');
      const updated = await updateApplicationParts(q, row.id, { services: list }, now);
      await auditChange(ctx, q, 'application.services', row.id, {
        added: given.map((s) => s.name),
        fromTemplate: copied,
        priceAdjustPct: input.priceAdjustPct ?? null,
        removed: input.replace ? before.length : removeIds.length,
      });
      return applicationAnswer(ctx, q, updated);
    });
  },
});
