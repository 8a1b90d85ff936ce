/**
 * Private calendar feeds (issue 30): getCalendarFeed / get_calendar_feed and rotateCalendarFeed /
 * rotate_calendar_feed for a pet owner's own bookings, getBusinessCalendarFeed /
 * get_business_calendar_feed and rotateBusinessCalendarFeed / rotate_business_calendar_feed for a
 * staff member's own jobs (`my_jobs`) or all of a business's jobs (`business`, owners and
 * managers); the feed itself, served at `/feeds/<secret>.ics` to whoever holds the address; and the
 * account page's view of them. The address's secret is kept only as its SHA-256, so it is shown
 * when made or replaced and never again (docs/decisions.md, "Calendar feeds").
 */
import {
  type CalendarFeedRow,
  type CalendarFeedScope,
  type FeedBookingsOf,
  findCalendarFeed,
  findCalendarFeedByHash,
  insertCalendarFeed,
  listFeedBookings,
  listMemberships,
  type Queryable,
  rotateCalendarFeedToken,
  touchCalendarFeed,
  transaction,
} from '@nogpets/store';
import { z } from 'zod';
import {
  auditChange,
  type Deps,
  defineOperation,
  hashSecret,
  newSecret,
  type OperationContext,
  READ_ONLY,
  ServiceError,
} from '../core/index.js';
import { RUN_ACCESS_ERRORS, RunBusinessIdShape, runAccess } from '../staff/index.js';
import { feedIcs } from './calendar.js';

/** Where feeds are served: `/feeds/<secret>.ics`. */
export const FEED_PATH = '/feeds';
/** The window a feed covers, by start: this far back and ahead of now. */
export const FEED_DAYS_BACK = 90;
export const FEED_DAYS_AHEAD = 365;
/** Cancelled and lapsed bookings stay this long after the change, so subscribed calendars drop them. */
export const FEED_CANCELLED_DAYS = 30;
/** At most this many events in one feed: the ones nearest to now. */
export const FEED_MAX_EVENTS = 5000;

const DAY = 86_400_000;
/** A feed's secret as made by newSecret('ncf'): anything else is no feed, without a lookup. */
const FEED_TOKEN = /^ncf_[A-Za-z0-9_-]{43}$/;

const SCOPE_WORDS: Record<CalendarFeedScope, string> = {
  mine: 'your bookings',
  my_jobs: 'your own jobs',
  business: "all of the business's jobs",
};

const ScopeSchema = z.enum(['mine', 'my_jobs', 'business']);
const BusinessScopeSchema = z.enum(['my_jobs', 'business']).meta({
  description:
    'my_jobs: the jobs of the vans, walkers or sitters the person works (any role; empty while they work none); ' +
    'business: every job of the business (owners and managers only).',
});

export const CalendarFeedSchema = z
  .object({
    scope: ScopeSchema.meta({
      description: 'mine: the pet owner’s bookings; my_jobs: a staff member’s own jobs; business: all jobs.',
    }),
    businessId: z.string().nullable(),
    url: z
      .url()
      .nullable()
      .meta({
        description:
          'The private address to subscribe to (Google Calendar: "From URL"; Apple Calendar: "New calendar ' +
          'subscription"). Given only when the address is made or replaced: NogPets keeps only a hash of it, so ' +
          'later answers carry null (rotate to get a new one). Anyone holding it sees the feed: pass it to the ' +
          'person only.',
      }),
    createdAt: z.iso.datetime().meta({ description: 'When the feed was first made.' }),
    rotatedAt: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'When its address was last replaced; null if never.' }),
    lastReadAt: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'When a calendar last fetched it (to the minute); null if never.' }),
    message: z.string().meta({ description: 'What to tell the person, in words.' }),
  })
  .meta({ id: 'CalendarFeed', description: 'A private iCalendar feed of bookings or jobs.' });

type CalendarFeed = z.infer<typeof CalendarFeedSchema>;

const WINDOW_WORDS =
  `It covers ${FEED_DAYS_BACK} days back to ${FEED_DAYS_AHEAD} days ahead; a moved booking keeps its event, and a ` +
  `cancelled one stays ${FEED_CANCELLED_DAYS} days marked cancelled so subscribed calendars remove it.`;

/** The address of a feed with this secret. */
export function feedUrl(deps: Deps, token: string): string {
  return `${deps.payments.publicUrl().replace(/\/$/, '')}${FEED_PATH}/${token}.ics`;
}

function feedOut(deps: Deps, row: CalendarFeedRow, token: string | null, made: boolean): CalendarFeed {
  const what = SCOPE_WORDS[row.scope];
  return {
    scope: row.scope,
    businessId: row.businessId,
    url: token ? feedUrl(deps, token) : null,
    createdAt: row.createdAt.toISOString(),
    rotatedAt: row.rotatedAt?.toISOString() ?? null,
    lastReadAt: row.lastReadAt?.toISOString() ?? null,
    message: token
      ? `${made ? 'Here is' : 'Here is the new'} private calendar address of ${what}. Add it to a calendar app as a ` +
        `subscription. It is shown only now: keep it private (anyone holding it sees the feed).` +
        (made ? '' : ' The old address no longer works.')
      : `The calendar feed of ${what} was made on ${row.createdAt.toISOString().slice(0, 10)}. Its address is ` +
        'shown only when it is made: if the person no longer has it, rotate it to get a new one (the old one then ' +
        'stops working everywhere it was added).',
  };
}

/**
 * The person's feed of this scope: made now (with its secret, returned once) or as it is (no
 * secret). Two first calls at once make one: the later answers as already made.
 */
async function getOrMake(
  ctx: OperationContext,
  q: Queryable,
  scope: CalendarFeedScope,
  businessId: string | null,
): Promise<{ row: CalendarFeedRow; token: string | null }> {
  const userId = ctx.auth!.userId;
  const found = await findCalendarFeed(q, userId, scope, businessId);
  if (found) return { row: found, token: null };
  const token = newSecret('ncf');
  const made = await insertCalendarFeed(
    q,
    { userId, scope, businessId, tokenHash: hashSecret(token) },
    ctx.deps.clock.now(),
  );
  if (!made) return { row: (await findCalendarFeed(q, userId, scope, businessId))!, token: null };
  await auditChange(ctx, q, 'calendar_feed.create', made.id, { scope, businessId });
  return { row: made, token };
}

/** A new secret for the person's feed of this scope (made if there was none); the old one stops. */
async function rotate(
  ctx: OperationContext,
  q: Queryable,
  scope: CalendarFeedScope,
  businessId: string | null,
): Promise<{ row: CalendarFeedRow; token: string; made: boolean }> {
  const userId = ctx.auth!.userId;
  const now = ctx.deps.clock.now();
  const token = newSecret('ncf');
  const found = await findCalendarFeed(q, userId, scope, businessId, { forUpdate: true });
  if (found) {
    const row = await rotateCalendarFeedToken(q, found.id, hashSecret(token), now);
    await auditChange(ctx, q, 'calendar_feed.rotate', row.id, { scope, businessId });
    return { row, token, made: false };
  }
  const made = await insertCalendarFeed(q, { userId, scope, businessId, tokenHash: hashSecret(token) }, now);
  if (!made) {
    // Made by a call at the same time: replace its secret instead.
    const row = (await findCalendarFeed(q, userId, scope, businessId, { forUpdate: true }))!;
    const rotated = await rotateCalendarFeedToken(q, row.id, hashSecret(token), now);
    await auditChange(ctx, q, 'calendar_feed.rotate', rotated.id, { scope, businessId });
    return { row: rotated, token, made: false };
  }
  await auditChange(ctx, q, 'calendar_feed.create', made.id, { scope, businessId });
  return { row: made, token, made: true };
}

/** Which business feed, checked: any staff member for their own jobs, owners and managers for all. */
async function businessOf(
  ctx: OperationContext,
  q: Queryable,
  businessId: string | undefined,
  scope: 'my_jobs' | 'business',
): Promise<string> {
  const access = await runAccess(ctx, q, businessId, scope === 'business' ? 'read' : 'day');
  return access.business.id;
}

const PERSONAL_ERRORS = [
  { status: 401, description: 'No or an invalid credential.' },
  { status: 403, description: 'The credential lacks bookings:read.' },
  { status: 429, description: 'Too many requests.' },
];

const ROTATE_ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
} as const;
/**
 * Get makes the feed on its first call and changes nothing after: an address nobody holds yet is
 * its first answer, not a change anyone could lose, so it is a read like every GET (decisions.md).
 */
const GET_ANNOTATIONS = READ_ONLY;

export const getCalendarFeed = defineOperation({
  operationId: 'getCalendarFeed',
  toolName: 'get_calendar_feed',
  title: 'Get the calendar feed of my bookings',
  tag: 'Account',
  mcp: 'person',
  method: 'GET',
  path: '/v1/calendar-feed',
  inputIn: 'query',
  auth: { scope: 'bookings:read' },
  description:
    "The person's private calendar feed (.ics) of their bookings, to subscribe to in Google Calendar, Apple " +
    'Calendar or Outlook. The first call makes it and answers its `url`; NogPets keeps only a hash of the ' +
    'address, so later calls answer `url: null` with when it was made (a new address: "Calendar feeds" on the ' +
    `account page, or POST /v1/calendar-feed/rotate). ${WINDOW_WORDS} Give the address to the person only: anyone holding it sees their bookings.`,
  input: z.object({}).strict(),
  output: CalendarFeedSchema,
  successStatus: 200,
  errors: PERSONAL_ERRORS,
  events: [],
  annotations: GET_ANNOTATIONS,
  async handler(ctx) {
    return transaction(ctx.deps.sql, async (q) => {
      const { row, token } = await getOrMake(ctx, q, 'mine', null);
      return feedOut(ctx.deps, row, token, true);
    });
  },
});

export const rotateCalendarFeed = defineOperation({
  operationId: 'rotateCalendarFeed',
  toolName: 'rotate_calendar_feed',
  title: 'Replace the address of my calendar feed',
  tag: 'Account',
  mcp: 'none',
  method: 'POST',
  path: '/v1/calendar-feed/rotate',
  inputIn: 'body',
  auth: { scope: 'bookings:read' },
  description:
    "Gives the person's calendar feed of their bookings a new private address and answers it (`url`, shown this " +
    'once); the old address stops working at once (404), in every calendar it was added to. Use it when the ' +
    'address was lost or shared by mistake; tell the person first. Makes the feed if there was none. Send an ' +
    'Idempotency-Key so a retry answers the same address.',
  input: z.object({}).strict(),
  output: CalendarFeedSchema,
  successStatus: 200,
  errors: PERSONAL_ERRORS,
  events: [],
  annotations: ROTATE_ANNOTATIONS,
  async handler(ctx) {
    return transaction(ctx.deps.sql, async (q) => {
      const { row, token, made } = await rotate(ctx, q, 'mine', null);
      return feedOut(ctx.deps, row, token, made);
    });
  },
});

const BusinessFeedInput = z
  .object({ ...RunBusinessIdShape, scope: BusinessScopeSchema })
  .strict()
  .meta({ example: { scope: 'my_jobs' } });

export const getBusinessCalendarFeed = defineOperation({
  operationId: 'getBusinessCalendarFeed',
  toolName: 'get_business_calendar_feed',
  title: 'Get a calendar feed of jobs',
  tag: 'Run',
  mcp: 'business',
  method: 'GET',
  path: '/v1/business/calendar-feed',
  inputIn: 'query',
  auth: { scope: 'business:manage' },
  description:
    'A private calendar feed (.ics) of jobs, to subscribe to in a calendar app: `scope: my_jobs` the jobs of the ' +
    'vans, walkers or sitters the person works (crew too), `scope: business` every job of the business (owners ' +
    'and managers). Each event names the services, pets and client, with the address. The first call makes it ' +
    'and answers its `url`; later calls answer `url: null` (only a hash is kept; a new address: "Calendar ' +
    `feeds" on the account page, or POST /v1/business/calendar-feed/rotate). Each person has their own address. ${WINDOW_WORDS} The feed stops answering when the ` +
    'person leaves the business or, for the whole business, is no longer an owner or manager.',
  input: BusinessFeedInput,
  output: CalendarFeedSchema,
  successStatus: 200,
  errors: RUN_ACCESS_ERRORS,
  events: [],
  annotations: GET_ANNOTATIONS,
  async handler(ctx, input) {
    return transaction(ctx.deps.sql, async (q) => {
      const businessId = await businessOf(ctx, q, input.businessId, input.scope);
      const { row, token } = await getOrMake(ctx, q, input.scope, businessId);
      return feedOut(ctx.deps, row, token, true);
    });
  },
});

export const rotateBusinessCalendarFeed = defineOperation({
  operationId: 'rotateBusinessCalendarFeed',
  toolName: 'rotate_business_calendar_feed',
  title: 'Replace the address of a calendar feed of jobs',
  tag: 'Run',
  mcp: 'none',
  method: 'POST',
  path: '/v1/business/calendar-feed/rotate',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    "Gives the person's calendar feed of jobs (`scope: my_jobs` or `business`, as get_business_calendar_feed) a new " +
    'private address and answers it (`url`, shown this once); the old address stops working at once (404). Other ' +
    "staff members' addresses are their own and keep working. Makes the feed if there was none. Tell the person " +
    'first; send an Idempotency-Key so a retry answers the same address.',
  input: BusinessFeedInput,
  output: CalendarFeedSchema,
  successStatus: 200,
  errors: RUN_ACCESS_ERRORS,
  events: [],
  annotations: ROTATE_ANNOTATIONS,
  async handler(ctx, input) {
    return transaction(ctx.deps.sql, async (q) => {
      const businessId = await businessOf(ctx, q, input.businessId, input.scope);
      const { row, token, made } = await rotate(ctx, q, input.scope, businessId);
      return feedOut(ctx.deps, row, token, made);
    });
  },
});

// ---------------------------------------------------------------------------------------------
// The feed itself, for whoever holds its address

/** A feed's text and name, or null: an unknown or replaced secret, or one its person may no longer read. */
export async function calendarFeedText(
  deps: Deps,
  token: string,
): Promise<{ ics: string; name: string } | null> {
  if (!FEED_TOKEN.test(token)) return null;
  const feed = await findCalendarFeedByHash(deps.sql, hashSecret(token));
  if (!feed) return null;
  const now = deps.clock.now();
  let of: FeedBookingsOf;
  let name: string;
  let timeZone: string;
  if (feed.scope === 'mine') {
    of = { userId: feed.userId };
    name = 'NogPets: my bookings';
    timeZone = (await deps.offers.operator()).business.timezone;
  } else {
    // Read at every fetch: a member who left, or is no longer owner or manager, reads nothing.
    const member = (await listMemberships(deps.sql, feed.userId)).find(
      (m) => m.business.id === feed.businessId,
    );
    if (!member) return null;
    if (feed.scope === 'business' && member.role === 'crew') return null;
    of = {
      businessId: member.business.id,
      resourceIds: feed.scope === 'business' ? null : member.resourceIds,
    };
    name = `${member.business.name}: ${feed.scope === 'business' ? 'all jobs' : 'my jobs'}`;
    timeZone = member.business.timezone;
  }
  const rows = await listFeedBookings(deps.sql, of, {
    from: new Date(now.getTime() - FEED_DAYS_BACK * DAY),
    to: new Date(now.getTime() + FEED_DAYS_AHEAD * DAY),
    cancelledSince: new Date(now.getTime() - FEED_CANCELLED_DAYS * DAY),
    limit: FEED_MAX_EVENTS,
    now,
  });
  await touchCalendarFeed(deps.sql, feed, now);
  return {
    ics: feedIcs(rows, { scope: feed.scope, name, timeZone, publicUrl: deps.payments.publicUrl() }),
    name,
  };
}

// ---------------------------------------------------------------------------------------------
// The account page

/** A feed the person may have, and whether they have it. */
export interface OwnCalendarFeed {
  scope: CalendarFeedScope;
  businessId: string | null;
  businessName: string | null;
  /** What it holds, in words. */
  label: string;
  feed: { createdAt: Date; rotatedAt: Date | null; lastReadAt: Date | null } | null;
}

/**
 * The feeds the person may have: their bookings; at each business they are on the staff of, their
 * own jobs (when they work a resource, or are crew) and, as owner or manager, all its jobs.
 */
export async function ownCalendarFeeds(ctx: OperationContext): Promise<OwnCalendarFeed[]> {
  const userId = ctx.auth!.userId;
  const q = ctx.deps.sql;
  const memberships = await listMemberships(q, userId);
  const choices: Omit<OwnCalendarFeed, 'feed'>[] = [
    { scope: 'mine', businessId: null, businessName: null, label: 'Your bookings' },
  ];
  for (const m of memberships) {
    if (m.role === 'crew' || m.resourceIds.length)
      choices.push({
        scope: 'my_jobs',
        businessId: m.business.id,
        businessName: m.business.name,
        label: `Your jobs at ${m.business.name}`,
      });
    if (m.role !== 'crew')
      choices.push({
        scope: 'business',
        businessId: m.business.id,
        businessName: m.business.name,
        label: `All jobs at ${m.business.name}`,
      });
  }
  return Promise.all(
    choices.map(async (c) => {
      const row = await findCalendarFeed(q, userId, c.scope, c.businessId);
      return {
        ...c,
        feed: row ? { createdAt: row.createdAt, rotatedAt: row.rotatedAt, lastReadAt: row.lastReadAt } : null,
      };
    }),
  );
}

/** The account page's button: a new address for one of the person's feeds (made if none), shown once. */
export async function rotateOwnCalendarFeed(
  ctx: OperationContext,
  scope: CalendarFeedScope,
  businessId: string | null,
): Promise<CalendarFeed> {
  if (scope === 'mine' && businessId)
    throw new ServiceError('BAD_REQUEST', 'Your own bookings’ feed is of no business.', {
      fields: [{ field: 'businessId', message: 'Leave it out for scope mine.' }],
    });
  return transaction(ctx.deps.sql, async (q) => {
    const business = scope === 'mine' ? null : await businessOf(ctx, q, businessId ?? undefined, scope);
    const { row, token, made } = await rotate(ctx, q, scope, business);
    return feedOut(ctx.deps, row, token, made);
  });
}
