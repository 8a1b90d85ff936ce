/**
 * listPrices / list_prices and updatePrices / update_prices: a business's services, prices and
 * tiers as its catalogue shows them, and changes to them. A change shows in the
 * business's catalogue and quotes at once (the offer cache is emptied once it is committed) and
 * never reprices a booking already made: bookings keep the total they were made at.
 */
import { formatMoney, priceRange } from '@nogpets/pricing-tiers';
import {
  countComingBookingsWith,
  countOpenSeriesWith,
  listPriceServices,
  lockPriceServices,
  type PriceServiceRow,
  setServicePrice,
  type TierRow,
} from '@nogpets/store';
import { z } from 'zod';
import {
  auditChange,
  confirmStep,
  defineOperation,
  LineIdSchema,
  PetTypeSchema,
  READ_ONLY,
  ServiceError,
} from '../core/index.js';
import {
  MAX_PRICE,
  MAX_TIERS,
  MIN_PRIMARY_MIN,
  PRIMARY_TOO_SHORT,
  rangeWords,
  TierInputSchema,
  TierShape,
} from './service-model.js';
import { recordEvent, sourceOf } from '../events/index.js';
import { inBusiness, RUN_ACCESS_ERRORS, RunBusinessIdShape } from '../staff/index.js';

/** Services one update_prices call may change. */
export const MAX_PRICE_CHANGES = 100;

const PriceTierSchema = z
  .object({
    ...TierShape,
    price: z
      .string()
      .meta({ description: 'The price in words, in the business’s currency.', example: 'R280' }),
    appliesTo: z
      .string()
      .meta({ description: 'Which pets the tier is for, in words.', example: 'dogs, under 10 kg' }),
  })
  .meta({
    id: 'PriceTier',
    description:
      'A tier as list_services shows it, with its price and pets in words; the first matching tier wins.',
  });

const PriceServiceSchema = z
  .object({
    serviceId: z.string().meta({
      description: 'The service’s id (list_services’ `id`); update_prices takes it as `serviceId`.',
    }),
    line: LineIdSchema,
    lineLabel: z.string(),
    name: z.string(),
    kind: z.enum(['PRIMARY', 'EXTRA']),
    blurb: z.string(),
    petTypes: z.array(PetTypeSchema),
    priceCents: z.int().meta({
      description:
        'The price when no tier matches, in the minor units of the business’s currency (whole yen).',
    }),
    price: z.string().meta({ description: '`priceCents` in words.', example: 'R320' }),
    durationMin: z.int().meta({ description: 'The duration when no tier matches, in minutes.' }),
    fromCents: z.int(),
    toCents: z.int(),
    range: z
      .string()
      .meta({ description: 'From the lowest to the highest price, in words.', example: 'R280 to R380' }),
    groupSize: z.int().meta({ description: 'Above 1 for group walks: dogs per walker.' }),
    tiers: z.array(PriceTierSchema),
    words: z.string().meta({
      description: 'The service’s prices in one sentence, to read to the person.',
      example: 'Bath & brush: R320 (60 min).',
    }),
  })
  .meta({
    id: 'PriceService',
    description: 'A service of the business with its prices, as its catalogue (list_services) shows them.',
  });

const PriceListSchema = z
  .object({
    businessId: z.string(),
    businessName: z.string(),
    currency: z.string().meta({ example: 'ZAR' }),
    serviceFeeCents: z
      .int()
      .meta({ description: 'The card fee added once per card booking, in minor units.' }),
    serviceFee: z.string().meta({ description: 'The card fee in words.' }),
    acceptsCash: z.boolean(),
    lines: z.array(
      z.object({
        id: LineIdSchema,
        label: z.string(),
        services: z.array(PriceServiceSchema),
      }),
    ),
  })
  .meta({
    id: 'PriceList',
    description: 'The business’s services, prices and tiers, line by line, in its currency.',
  });

const PriceStateSchema = z.object({
  priceCents: z.int(),
  price: z.string(),
  tiers: z.array(PriceTierSchema),
  words: z.string().meta({ description: 'The price and tiers in words.' }),
});

const PriceChangeResultSchema = z.object({
  serviceId: z.string(),
  name: z.string(),
  before: PriceStateSchema,
  after: PriceStateSchema,
  words: z.string().meta({ description: 'Old → new, in words.', example: 'Bath & brush: R320 → R350' }),
});

const ChangeSchema = z
  .object({
    serviceId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,128}$/, 'Letters, digits, _ and -, 1 to 128.')
      .meta({ description: 'From list_prices.', example: 'bp-groom-bath' }),
    priceCents: z
      .int()
      .min(0)
      .max(MAX_PRICE)
      .optional()
      .meta({
        description:
          'The new price when no tier matches, in the minor units of the business’s currency: 35000 is R350 in ' +
          'rand, 3500 is €35.00; yen has none, so 1500 is ¥1,500. 0 to 10 000 000. Left out: unchanged.',
      }),
    tiers: z
      .array(TierInputSchema)
      .max(MAX_TIERS)
      .optional()
      .meta({
        description:
          'The whole new list of tiers (it replaces the old one; [] removes every tier), as list_prices shows them: ' +
          'the first matching tier wins, else priceCents. Up to 24. Left out: unchanged.',
      }),
  })
  .strict()
  .refine((c) => c.priceCents !== undefined || c.tiers !== undefined, {
    message: 'give priceCents, tiers or both',
    path: ['priceCents'],
  });

type PriceTier = z.infer<typeof PriceTierSchema>;
type PriceService = z.infer<typeof PriceServiceSchema>;

const UPDATE_ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
} as const;

function duration(min: number): string {
  const h = Math.floor(min / 60);
  const m = min % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

const PETS: Record<'DOG' | 'CAT', string> = { DOG: 'dogs', CAT: 'cats' };

/** Which pets a tier is for, in words: "dogs, long coat, 10 kg to under 20 kg". */
function appliesTo(t: TierRow, petTypes: ('DOG' | 'CAT')[]): string {
  const parts = [t.petType ? PETS[t.petType] : petTypes.map((p) => PETS[p]).join(' and ')];
  if (t.coat) parts.push(`${t.coat.toLowerCase()} coat`);
  if (t.minKg !== undefined && t.maxKg !== undefined) parts.push(`${t.minKg} kg to under ${t.maxKg} kg`);
  else if (t.minKg !== undefined) parts.push(`${t.minKg} kg and over`);
  else if (t.maxKg !== undefined) parts.push(`under ${t.maxKg} kg`);
  return parts.join(', ');
}

function tiersOf(tiers: TierRow[], petTypes: ('DOG' | 'CAT')[], currency: string): PriceTier[] {
  return tiers.map((t) => ({
    ...(t.coat !== undefined ? { coat: t.coat } : {}),
    ...(t.petType !== undefined ? { petType: t.petType } : {}),
    ...(t.minKg !== undefined ? { minKg: t.minKg } : {}),
    ...(t.maxKg !== undefined ? { maxKg: t.maxKg } : {}),
    priceCents: t.priceCents,
    durationMin: t.durationMin,
    price: formatMoney(t.priceCents, currency),
    appliesTo: appliesTo(t, petTypes),
  }));
}

/** A price and its tiers in words: "R320 (60 min)" or "dogs, under 10 kg R280 (45 min); otherwise R320 (60 min)". */
function priceWords(
  p: { priceCents: number; durationMin: number; tiers: TierRow[] },
  petTypes: ('DOG' | 'CAT')[],
  currency: string,
): string {
  const own = `${formatMoney(p.priceCents, currency)} (${duration(p.durationMin)})`;
  if (!p.tiers.length) return own;
  const tiers = p.tiers.map(
    (t) => `${appliesTo(t, petTypes)} ${formatMoney(t.priceCents, currency)} (${duration(t.durationMin)})`,
  );
  return `${tiers.join('; ')}; otherwise ${own}`;
}

function serviceOf(s: PriceServiceRow, currency: string): PriceService {
  const { fromCents, toCents } = priceRange(s);
  const money = (cents: number) => formatMoney(cents, currency);
  return {
    serviceId: s.id,
    line: s.lineId,
    lineLabel: s.lineLabel,
    name: s.name,
    kind: s.kind,
    blurb: s.blurb,
    petTypes: s.petTypes,
    priceCents: s.priceCents,
    price: money(s.priceCents),
    durationMin: s.durationMin,
    fromCents,
    toCents,
    range: rangeWords(fromCents, toCents, currency),
    groupSize: s.groupSize,
    tiers: tiersOf(s.tiers, s.petTypes, currency),
    words: `${s.name}: ${priceWords(s, s.petTypes, currency)}.`,
  };
}

/** A tier as stored: only the keys it has, in one order (so equal tiers compare equal). */
function storedTier(t: TierRow): TierRow {
  return {
    ...(t.coat !== undefined ? { coat: t.coat } : {}),
    ...(t.petType !== undefined ? { petType: t.petType } : {}),
    ...(t.minKg !== undefined ? { minKg: t.minKg } : {}),
    ...(t.maxKg !== undefined ? { maxKg: t.maxKg } : {}),
    priceCents: t.priceCents,
    durationMin: t.durationMin,
  };
}

/** Whether two lists of tiers say the same (stored jsonb keeps its keys in an order of its own). */
function sameTiers(a: TierRow[], b: TierRow[]): boolean {
  return JSON.stringify(a.map(storedTier)) === JSON.stringify(b.map(storedTier));
}

function badRequest(fields: { field: string; message: string }[]): ServiceError {
  return new ServiceError(
    'BAD_REQUEST',
    `The request is not valid. ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`,
    { fields },
  );
}

export const listPrices = defineOperation({
  operationId: 'listPrices',
  toolName: 'list_prices',
  title: "List the business's prices",
  tag: 'Run',
  mcp: 'business',
  method: 'GET',
  path: '/v1/business/prices',
  inputIn: 'query',
  auth: { scope: 'business:manage' },
  description:
    "The person's business's services, line by line, with their prices and tiers as its catalogue shows them: " +
    '`priceCents` (and each tier’s) in the minor units of the business’s currency (cents of rand or euro; whole ' +
    'yen), with each price, range and tier in words (`words`: read them to the person). Change them with ' +
    'update_prices. Owners and managers only.',
  input: z.object({ ...RunBusinessIdShape }).strict(),
  output: PriceListSchema,
  successStatus: 200,
  errors: RUN_ACCESS_ERRORS,
  annotations: READ_ONLY,
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'read', async ({ q, access: { business } }) => {
      const rows = await listPriceServices(q, business.id);
      const lines: z.infer<typeof PriceListSchema>['lines'] = [];
      for (const row of rows) {
        let line = lines.at(-1);
        if (line?.id !== row.lineId) {
          line = { id: row.lineId, label: row.lineLabel, services: [] };
          lines.push(line);
        }
        line.services.push(serviceOf(row, business.currency));
      }
      return {
        businessId: business.id,
        businessName: business.name,
        currency: business.currency,
        serviceFeeCents: business.serviceFeeCents,
        serviceFee: formatMoney(business.serviceFeeCents, business.currency),
        acceptsCash: business.acceptsCash,
        lines,
      };
    });
  },
});

export const updatePrices = defineOperation({
  operationId: 'updatePrices',
  confirmKind: 'prices',
  toolName: 'update_prices',
  title: "Change the business's prices",
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/prices',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Changes the price (`priceCents`, in the minor units of the business’s currency: 35000 is R350, 3500 is ' +
    '€35.00, 1500 is ¥1,500) and/or the whole list of `tiers` of up to 100 of the business’s services (ids from ' +
    'list_prices). The catalogue, quotes and new bookings use the new prices at once; bookings already made keep ' +
    'the price they were booked at, and a weekly series’ weeks not yet booked are booked at the new price. First tell the person what will change; send `confirm: true` only after they ' +
    'agree (otherwise 409 CONFIRM_REQUIRED with `details.summary`, old → new in words). Owners and managers only.',
  input: z
    .object({
      ...RunBusinessIdShape,
      changes: z.array(ChangeSchema).min(1).max(MAX_PRICE_CHANGES).meta({
        description: 'One entry per service, each service once: its new `priceCents`, `tiers` or both.',
      }),
      confirm: z.boolean().optional().meta({
        description:
          'true only after the person agreed to the summary; left out or false: 409 CONFIRM_REQUIRED.',
      }),
    })
    .strict()
    .meta({
      example: {
        changes: [
          { serviceId: 'bp-groom-bath', priceCents: 35000 },
          {
            serviceId: 'bp-groom-full',
            tiers: [
              { petType: 'DOG', maxKg: 10, priceCents: 40000, durationMin: 75 },
              { petType: 'DOG', minKg: 25, priceCents: 55000, durationMin: 120 },
            ],
          },
        ],
        confirm: true,
      },
    }),
  output: z
    .object({
      businessId: z.string(),
      currency: z.string(),
      changed: z.array(PriceChangeResultSchema).meta({ description: 'The services whose prices changed.' }),
      unchanged: z
        .array(z.string())
        .meta({ description: 'Services sent with the prices they already had (nothing changed for them).' }),
      services: z.array(PriceServiceSchema).meta({ description: 'The services sent, as they now are.' }),
      bookingsKeepingPrice: z.int().meta({
        description:
          'Live bookings still to come with the changed services: they keep the price they were booked at.',
      }),
      seriesAtNewPrice: z.int().meta({
        description:
          'Open weekly series with the changed services: their weeks not yet booked (the worker books them four ' +
          'weeks ahead) are new bookings at the new price.',
      }),
      message: z.string().meta({ description: 'What was done, in words to tell the person.' }),
    })
    .meta({
      id: 'PriceUpdate',
      description: 'The prices changed, old and new, and the services as they now are.',
    }),
  successStatus: 200,
  errors: [
    ...RUN_ACCESS_ERRORS.map((e) =>
      e.status === 400
        ? {
            status: 400,
            description:
              `${e.description} Or a change the rules refuse (\`details.fields\`): 1 to ${MAX_PRICE_CHANGES} changes, ` +
              'each service once, a service of this business (another business’s or an unknown id: "no service"), ' +
              `prices 0 to ${MAX_PRICE.toLocaleString('en')}, up to ${MAX_TIERS} tiers, a tier's pet type one the ` +
              'service takes, minKg below maxKg, a PRIMARY service’s tier at least 5 minutes.',
          }
        : e,
    ),
    {
      status: 409,
      description:
        '`CONFIRM_REQUIRED`: show `details.summary`, then send the same input with `confirm: true`.',
    },
  ],
  events: ['prices.changed'],
  annotations: UPDATE_ANNOTATIONS,
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    const answer = await inBusiness(ctx, input.businessId, 'change', async ({ q, access: { business } }) => {
      const currency = business.currency;
      const ids = [...new Set(input.changes.map((c) => c.serviceId))];
      const rows = new Map((await lockPriceServices(q, business.id, ids)).map((r) => [r.id, r]));
      const problems: { field: string; message: string }[] = [];
      const seen = new Set<string>();
      input.changes.forEach((c, i) => {
        const at = `changes.${i}`;
        if (seen.has(c.serviceId))
          problems.push({ field: `${at}.serviceId`, message: 'the same service twice' });
        seen.add(c.serviceId);
        const row = rows.get(c.serviceId);
        if (!row) {
          // The same words for another business's service and one that does not exist.
          problems.push({
            field: `${at}.serviceId`,
            message: `no service ${c.serviceId} at ${business.name} (list_prices shows its services)`,
          });
          return;
        }
        (c.tiers ?? []).forEach((t, j) => {
          if (t.petType && !row.petTypes.includes(t.petType))
            problems.push({
              field: `${at}.tiers.${j}.petType`,
              message: `${row.name} is not offered for ${PETS[t.petType]}, so this tier would never apply`,
            });
          if (row.kind === 'PRIMARY' && t.durationMin < MIN_PRIMARY_MIN)
            problems.push({ field: `${at}.tiers.${j}.durationMin`, message: PRIMARY_TOO_SHORT });
        });
      });
      if (problems.length) throw badRequest(problems);

      const changed: z.infer<typeof PriceChangeResultSchema>[] = [];
      const unchanged: string[] = [];
      const after = new Map<string, PriceServiceRow>();
      for (const c of input.changes) {
        const row = rows.get(c.serviceId)!;
        const next: PriceServiceRow = {
          ...row,
          priceCents: c.priceCents ?? row.priceCents,
          tiers: c.tiers ? c.tiers.map(storedTier) : row.tiers,
        };
        after.set(row.id, next);
        const tiersSame = sameTiers(next.tiers, row.tiers);
        const same = tiersSame && next.priceCents === row.priceCents;
        if (same) {
          unchanged.push(row.id);
          continue;
        }
        const state = (s: PriceServiceRow) => ({
          priceCents: s.priceCents,
          price: formatMoney(s.priceCents, currency),
          tiers: tiersOf(s.tiers, s.petTypes, currency),
          words: priceWords(s, s.petTypes, currency),
        });
        const before = state(row);
        const now_ = state(next);
        const words = !tiersSame
          ? `${row.name}: ${before.words} → ${now_.words}`
          : row.tiers.length
            ? `${row.name}: ${before.price} → ${now_.price} when no tier applies (tiers unchanged)`
            : `${row.name}: ${before.price} → ${now_.price}`;
        changed.push({ serviceId: row.id, name: row.name, before, after: now_, words });
      }
      const services = input.changes.map((c) => serviceOf(after.get(c.serviceId)!, currency));
      if (!changed.length) {
        return {
          businessId: business.id,
          currency,
          changed,
          unchanged,
          services,
          bookingsKeepingPrice: 0,
          seriesAtNewPrice: 0,
          message: `Nothing changed: ${unchanged.length === 1 ? 'that service already has' : 'those services already have'} these prices.`,
        };
      }
      const kept = await countComingBookingsWith(
        q,
        business.id,
        changed.map((c) => c.serviceId),
        now,
      );
      const series = await countOpenSeriesWith(
        q,
        business.id,
        changed.map((c) => c.serviceId),
      );
      const these = changed.length === 1 ? 'this service' : 'these services';
      const keptWords =
        kept === 0
          ? 'bookings already made keep the price they were booked at'
          : kept === 1
            ? `the 1 booking still to come with ${these} keeps the price it was booked at`
            : `the ${kept} bookings still to come with ${these} keep the price they were booked at`;
      const plural = changed.length === 1 ? 'price' : 'prices';
      // A series' weeks not yet made are new bookings: they are booked at the price of the day.
      const seriesWords =
        series === 0
          ? ''
          : ` ${series === 1 ? '1 weekly series uses' : `${series} weekly series use`} ${these}: ${series === 1 ? 'its' : 'their'} ` +
            `weeks not yet booked will be booked at the new ${plural} (the weeks already booked keep theirs).`;
      confirmStep(
        ctx,
        input.confirm,
        {
          kind: 'prices',
          what: `Change ${changed.length} ${plural} at ${business.name}: ${changed.map((c) => c.words.replace(/\.$/, '')).join('; ')}`,
          when: null,
          place: null,
          pets: null,
          amount: null,
          money: `the catalogue, quotes and new bookings use the new ${plural} at once; ${keptWords}`,
          ...(seriesWords ? { after: seriesWords.trim() } : {}),
        },
        {
          details: {
            changes: changed.map((c) => ({ serviceId: c.serviceId, words: c.words })),
            bookingsKeepingPrice: kept,
            seriesAtNewPrice: series,
          },
        },
      );
      for (const c of changed) {
        const next = after.get(c.serviceId)!;
        await setServicePrice(q, business.id, c.serviceId, {
          priceCents: next.priceCents,
          tiers: next.tiers,
        });
      }
      await auditChange(ctx, q, 'business.prices', business.id, {
        changes: changed.map((c) => {
          const from = rows.get(c.serviceId)!;
          const to = after.get(c.serviceId)!;
          return {
            serviceId: c.serviceId,
            from: { priceCents: from.priceCents, tiers: from.tiers },
            to: { priceCents: to.priceCents, tiers: to.tiers },
          };
        }),
      });
      await recordEvent(q, sourceOf(ctx, 'staff'), {
        type: 'prices.changed',
        businessId: business.id,
        personId: null,
        subjectId: business.id,
        data: {
          services: changed.map((c) => ({ serviceId: c.serviceId, name: c.name })),
          summary: changed.map((c) => c.words).join('; '),
        },
      });
      return {
        businessId: business.id,
        currency,
        changed,
        unchanged,
        services,
        bookingsKeepingPrice: kept,
        seriesAtNewPrice: series,
        message: `Changed ${changed.length} ${plural}: ${changed.map((c) => c.words).join('; ')}. ${keptWords[0]!.toUpperCase()}${keptWords.slice(1)}.${seriesWords}`,
      };
    });
    // Committed: the catalogue and quotes read the new prices from the next call on.
    if (answer.changed.length) ctx.deps.offers.invalidate();
    return answer;
  },
});
