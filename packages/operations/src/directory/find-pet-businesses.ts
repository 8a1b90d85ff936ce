import { priceRange } from '@nogpets/pricing-tiers';
import { DAY_KEYS, mergeWeeks } from '@nogpets/slot-engine';
import {
  type BusinessRow,
  findBusinesses,
  findListings,
  findPublishedFacts,
  type ListingRow,
  type PublishedFacts,
} from '@nogpets/store';
import { z } from 'zod';
import { rangeWords } from '../catalogue/index.js';
import { weekWords } from '../schedule/index.js';
import { defineOperation, READ_ONLY, ServiceError } from '../core/index.js';
import { BOOKABLE_COUNTRY } from '../places/index.js';
import { TOWN_SLUG } from './town-slug.js';

/**
 * The kinds of pet business the directory knows (docs/decisions.md): the spec's groomers (salon
 * and mobile), pet stores, vets, boarding, daycare, walkers and trainers, and sitters, transport
 * and animal welfare as the demo listings have them.
 */
export const DIRECTORY_CATEGORIES = [
  'MOBILE_GROOMING',
  'GROOMING_SALON',
  'DOG_WALKING',
  'PET_SITTING',
  'BOARDING',
  'DAYCARE',
  'DOG_TRAINING',
  'VET',
  'PET_RETAIL',
  'PET_TRANSPORT',
  'ANIMAL_WELFARE',
] as const;

export const DirectoryCategorySchema = z.enum(DIRECTORY_CATEGORIES).meta({
  id: 'DirectoryCategory',
  description:
    'A kind of pet business: MOBILE_GROOMING, GROOMING_SALON, DOG_WALKING, PET_SITTING, BOARDING, DAYCARE, DOG_TRAINING, VET, PET_RETAIL (pet stores), PET_TRANSPORT, ANIMAL_WELFARE.',
});

const RangeSchema = z.object({ start: z.string(), end: z.string() });

const HoursSchema = z
  .object({
    timezone: z
      .string()
      .meta({ description: 'The IANA time zone the times are in.', example: 'Africa/Johannesburg' }),
    week: z.object(Object.fromEntries(DAY_KEYS.map((d) => [d, z.array(RangeSchema).optional()]))).meta({
      description: 'Local opening ranges per day (`mon` to `sun`, HH:MM); days closed are left out.',
    }),
    words: z
      .string()
      .meta({ description: 'The hours in words.', example: 'Mon 08:00-17:00; Sat 08:00-13:00' }),
  })
  .meta({ id: 'ListingHours', description: 'When a listed business is open.' });

const ListingPriceSchema = z
  .object({
    serviceId: z.string(),
    name: z.string(),
    line: z
      .string()
      .meta({ description: 'The kind of service, as the business names it (Grooming, Walks).' }),
    kind: z.enum(['PRIMARY', 'EXTRA']),
    currency: z.string().meta({ description: 'ISO 4217; amounts are its minor units.' }),
    fromCents: z.int(),
    toCents: z.int(),
    range: z
      .string()
      .meta({ description: 'From the lowest to the highest price, in words.', example: 'R280 to R380' }),
  })
  .meta({ id: 'ListingPrice', description: 'One service of a listed business and what it costs.' });

const ListingSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    categories: z.array(DirectoryCategorySchema),
    area: z.string().nullable().meta({ description: 'The suburb or area it is in.' }),
    town: z.string().meta({ description: 'The town, as the slug `town` filters by.' }),
    services: z.array(z.string()).meta({ description: 'What it offers, in its own words.' }),
    partner: z.boolean().meta({
      description:
        'A business on NogPets; `bookWith` says how to book it with our tools where that is possible.',
    }),
    isNogPets: z.boolean().meta({ description: "NogPets' own listing." }),
    bookWith: z
      .string()
      .nullable()
      .meta({
        description:
          'For a partner, how an assistant books it with our tools (or, outside South Africa, that it is booked ' +
          'directly with it); null for a business only listed.',
      }),
    businessId: z
      .string()
      .nullable()
      .meta({
        description:
          'For a partner bookable with our tools: the `businessId` to pass to list_services, check_coverage, ' +
          "get_quote, find_times and book. Null otherwise (NogPets' own listing needs none).",
      }),
    website: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    hours: HoursSchema.nullable().meta({
      description:
        'When it is open, where published: a business on NogPets publishes its working hours (when any of its ' +
        'vans, walkers or sitters works). Null when not known.',
    }),
    prices: z
      .array(ListingPriceSchema)
      .nullable()
      .meta({
        description:
          'Its prices, where published: a business on NogPets publishes its price list (as list_services has it). ' +
          'Null when not known.',
      }),
    fictional: z.boolean().meta({ description: 'Demo data: an invented business, not to be contacted.' }),
  })
  .meta({ id: 'Listing', description: 'A pet business in the directory.' });

/** A page's position, as the opaque `next` cursor a client sends back. */
const cursorOf = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');

function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const match = /^o:(\d{1,6})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) {
    throw new ServiceError('BAD_REQUEST', 'cursor: send back the `next` of an earlier answer unchanged.', {
      fields: [{ field: 'cursor', message: 'not a cursor this directory gave' }],
    });
  }
  return Number(match[1]);
}

const BOOK_WITH_NOGPETS =
  'Book with NogPets itself: list_services, check_coverage, get_quote, find_times, then book (no business id needed).';

/** How an assistant books a partner (not the operator): with our tools in South Africa, else directly. */
function partnerBookWith(row: ListingRow, business: BusinessRow): string {
  if (business.country === BOOKABLE_COUNTRY) {
    return (
      `Book ${row.name} with our booking tools: pass businessId "${business.id}" to list_services (its own menu and ` +
      'service ids), check_coverage, get_quote, find_times, then book.'
    );
  }
  const ways = [
    row.phone ? `phone ${row.phone}` : null,
    row.website ? `website ${row.website}` : null,
    !row.phone && !row.website && row.email ? `email ${row.email}` : null,
  ].filter(Boolean);
  return (
    `Not bookable through our booking tools: ${row.name} is outside South Africa (they answer ` +
    `NOT_AVAILABLE_IN_COUNTRY for it). Book directly with them${ways.length ? ` by ${ways.join(' or ')}` : ''}.`
  );
}

/** What a business on the service publishes: its hours (when any of its resources works) and its price list. */
function published(business: BusinessRow | undefined, facts: PublishedFacts | undefined) {
  if (!business || !facts) return { hours: null, prices: null };
  const week = mergeWeeks(facts.weeks);
  return {
    hours: Object.keys(week).length ? { timezone: business.timezone, week, words: weekWords(week) } : null,
    prices: facts.services.length
      ? facts.services.map((s) => {
          const { fromCents, toCents } = priceRange(s);
          return {
            serviceId: s.id,
            name: s.name,
            line: s.line,
            kind: s.kind,
            currency: business.currency,
            fromCents,
            toCents,
            range: rangeWords(fromCents, toCents, business.currency),
          };
        })
      : null,
  };
}

function toListing(
  row: ListingRow,
  businesses: Map<string, BusinessRow>,
  facts: Map<string, PublishedFacts>,
) {
  const partner = row.businessId !== null;
  const business = row.businessId !== null ? businesses.get(row.businessId) : undefined;
  const bookable = !row.isOperator && business?.country === BOOKABLE_COUNTRY;
  return {
    id: row.id,
    name: row.name,
    categories: row.categories as (typeof DIRECTORY_CATEGORIES)[number][],
    area: row.area,
    town: row.town,
    services: row.services,
    partner,
    isNogPets: row.isOperator,
    // The operator's own listing needs no business id; a partner is booked by its id (in South Africa).
    bookWith: row.isOperator ? BOOK_WITH_NOGPETS : business ? partnerBookWith(row, business) : null,
    businessId: bookable ? business!.id : null,
    website: row.website,
    phone: row.phone,
    email: row.email,
    // Only listings of businesses on NogPets publish hours and prices; the store holds none for others.
    ...published(business, row.businessId !== null ? facts.get(row.businessId) : undefined),
    fictional: row.fictional,
  };
}

export const findPetBusinesses = defineOperation({
  operationId: 'findPetBusinesses',
  toolName: 'find_pet_businesses',
  title: 'Find pet businesses',
  tag: 'Directory',
  mcp: 'person',
  method: 'GET',
  path: '/v1/directory',
  inputIn: 'query',
  auth: 'public',
  description:
    'Searches the directory of pet businesses: groomers (salon and mobile), walkers, sitters, boarding, daycare, ' +
    'trainers, vets, pet stores. Filter by `town` (a slug such as stellenbosch), `category` and `q` (words in the ' +
    'name, services or area, ranked by closeness; typos are forgiven). Businesses on NogPets come first (`partner: true`): ' +
    "for those, `bookWith` says how to book with our tools (pass the listing's `businessId` to list_services, " +
    'check_coverage, get_quote, find_times and book), or, for one outside South Africa, to book directly with it; ' +
    "NogPets' own listing is `isNogPets`. Show each by name, area and what it offers, with its `hours` and " +
    '`prices` where published (businesses on NogPets publish theirs; null when not known). `limit` 1 to 50 (default 20); when `next` is not null, send it back as `cursor` for ' +
    'more. Listings marked `fictional` are demo data: say so, and never suggest contacting them. No sign-in needed.',
  input: z
    .object({
      town: z.string().regex(TOWN_SLUG).optional().meta({
        description: 'Town slug: lowercase letters, digits and hyphens, 2 to 40.',
        example: 'stellenbosch',
      }),
      category: DirectoryCategorySchema.optional(),
      q: z
        .string()
        .max(100)
        .optional()
        .meta({ description: 'Words to look for (max 100).', example: 'grooming' }),
      limit: z.int().min(1).max(50).default(20),
      cursor: z
        .string()
        .max(100)
        .optional()
        .meta({ description: 'The `next` of an earlier answer, for more.' }),
    })
    .strict(),
  output: z
    .object({
      listings: z.array(ListingSchema),
      next: z
        .string()
        .nullable()
        .meta({ description: 'Send as `cursor` for the next page; null on the last.' }),
    })
    .meta({ id: 'Directory', description: 'A page of the directory, partners first.' }),
  successStatus: 200,
  errors: [
    { status: 400, description: 'A bound or pattern not met, or a cursor the directory did not give.' },
    { status: 429, description: 'Too many requests.' },
  ],
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const offset = offsetOf(input.cursor);
    const rows = await findListings(ctx.deps.sql, {
      town: input.town,
      categories: input.category ? [input.category] : undefined,
      q: input.q,
      limit: input.limit,
      offset,
    });
    const more = rows.length > input.limit;
    const page = rows.slice(0, input.limit);
    // Businesses on the service (partners and the operator's own listing) publish hours and prices.
    const businessIds = [...new Set(page.flatMap((r) => (r.businessId !== null ? [r.businessId] : [])))];
    const [businessRows, factRows] = await Promise.all([
      findBusinesses(ctx.deps.sql, businessIds),
      findPublishedFacts(ctx.deps.sql, businessIds),
    ]);
    const businesses = new Map(businessRows.map((b) => [b.id, b]));
    const facts = new Map(factRows.map((f) => [f.businessId, f]));
    return {
      listings: page.map((r) => toListing(r, businesses, facts)),
      next: more ? cursorOf(offset + input.limit) : null,
    };
  },
});
