// prepareBusinessSignup: a pet business's sign-up started by an assistant without a login. The
// draft keeps what was sent, kept 30 days; it becomes a DRAFT application of an account only when
// a sign-in link mailed from its page (`continueUrl`) is followed: to the draft's email when one
// was given, else to the email the person types there. Until then no account is made, shown or
// named by it. Its page asks the person for what a draft lacks and sends it for review.
import { type ApplicationData, checklist, defaultsFor, stillNeeded } from '@nogpets/onboarding-checklist';
import { formatMoney, minorUnits } from '@nogpets/pricing-tiers';
import {
  appendAudit,
  claimDraft,
  countDraftsSince,
  type DraftApplication,
  type DraftRow,
  findDraft,
  findOwnApplication,
  findUserById,
  insertDraft,
  insertDraftApplication,
  lockDraftQuota,
  newId,
  type Queryable,
  transaction,
  type UserRow,
} from '@nogpets/store';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { ACCOUNT_PAGE } from '../account/index.js';
import {
  actorName,
  defineOperation,
  type Deps,
  isEmailAddress,
  type OperationContext,
  ServiceError,
} from '../core/index.js';

/** How long a draft is kept (spec, Limits): then the worker purges it. */
export const DRAFT_DAYS = 30;
/** Drafts one caller (client address) may make per hour (docs/decisions.md). */
export const DRAFTS_PER_CALLER_PER_HOUR = 20;
/** Drafts for one email per day (docs/decisions.md). */
export const DRAFTS_PER_EMAIL_PER_DAY = 5;
/** The length a service takes when the draft cannot say (the page and the tools change it). */
export const DRAFT_DURATION_MIN: Record<Category, number> = { grooming: 60, walking: 60, sitting: 30 };

const CONSENT =
  'consent must be true: the person must agree that the operator keeps these details to set up the application and to contact them';

const CategorySchema = z.enum(['grooming', 'walking', 'sitting']);
type Category = z.infer<typeof CategorySchema>;
const text = (max: number) => z.string().trim().min(1).max(max);

export const DraftInputSchema = z
  .object({
    businessName: text(120),
    contactName: text(120).optional(),
    email: z.string().trim().max(254).refine(isEmailAddress, 'expected an email address').optional(),
    phone: text(30).optional().meta({ description: 'With its country code outside South Africa.' }),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/)
      .transform((c) => c.toUpperCase())
      .optional()
      .meta({ description: 'ISO 3166 two letters; else from the phone’s country code.' }),
    town: text(80),
    categories: z
      .array(CategorySchema)
      .max(3)
      .refine((c) => new Set(c).size === c.length, 'each category once')
      .optional(),
    mode: z.enum(['MOBILE', 'SALON', 'BOTH']).optional(),
    vans: z.int().min(0).max(50).optional(),
    staff: z.int().min(0).max(500).optional(),
    website: text(300).optional(),
    about: text(300).optional(),
    services: z
      .array(
        z
          .object({
            name: text(80),
            price: z
              .string()
              .trim()
              .max(40)
              .optional()
              .meta({ description: 'As the person said it ("R350", "30 EUR", "from ¥1500").' }),
            category: CategorySchema.optional().meta({
              description: 'Needed when the draft offers more than one category.',
            }),
          })
          .strict(),
      )
      .max(30)
      .optional(),
    note: text(500).optional(),
    consent: z
      .boolean({ error: CONSENT })
      .refine((v) => v === true, CONSENT)
      .meta({
        description:
          'true, only after the person agreed that the operator keeps these details to set up the application and to contact them.',
      }),
  })
  .strict();

type DraftInput = z.output<typeof DraftInputSchema>;

/** A draft service as the application keeps it (the contract's service item). */
interface DraftService {
  id: string;
  category: Category;
  kind: 'PRIMARY';
  name: string;
  blurb: string;
  petTypes: string[];
  priceCents: number | null;
  durationMin: number;
  groupSize: number;
  tiers: never[];
  needsPrice?: true;
  /** The price as the person said it, kept for the page that asks for it. */
  priceSaid?: string;
}

/** Digits after the decimal point of a currency (0 for JPY), as formatMoney writes it; null for a code ISO 4217 lacks. */
function minorDigits(currency: string): number | null {
  try {
    return minorUnits(currency);
  } catch {
    return null;
  }
}

/** What people write for a currency: its code and its symbols ("ZAR", "R"; "EUR", "€"; "JPY", "¥"). */
function currencyMarks(currency: string): Set<string> {
  const marks = new Set([currency.toLowerCase(), ...(currency === 'JPY' ? ['円'] : [])]);
  for (const currencyDisplay of ['symbol', 'narrowSymbol'] as const) {
    const part = new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay })
      .formatToParts(1)
      .find((p) => p.type === 'currency');
    if (part) marks.add(part.value.toLowerCase());
  }
  return marks;
}

/**
 * A price as said ("R350", "350", "€30", "30 EUR", "¥1500", "1 500,00 €") in minor units of
 * `currency`, or null when it cannot be read without guessing: another currency's sign, a range,
 * words ("from", "per hour"), decimals the currency has not, or separators that could mean either.
 */
export function parseSaidPrice(said: string, currency: string | null): number | null {
  if (!currency) return null;
  const digits = minorDigits(currency);
  if (digits === null) return null;
  const m = /^([^\d\s.,]{1,4})?\s*(\d[\d\s.,']*\d|\d)\s*([^\d\s.,]{1,4})?$/u.exec(
    said.normalize('NFKC').trim(),
  );
  if (!m) return null;
  const [, before, number, after] = m;
  if (before && after) return null;
  const mark = (before ?? after)?.toLowerCase();
  if (mark !== undefined && !currencyMarks(currency).has(mark)) return null;
  const amount = readAmount(number!, digits);
  return amount !== null && amount <= 100_000_000 ? amount : null;
}

/** "1 500,50" in minor units of a currency with `digits` decimals; null when it is not one number. */
function readAmount(number: string, digits: number): number | null {
  const n = number.replace(/\s/g, ' ');
  if (/^\d+$/.test(n)) return Number(n) * 10 ** digits;
  const last = Math.max(n.lastIndexOf('.'), n.lastIndexOf(','), n.lastIndexOf(' '), n.lastIndexOf("'"));
  const tail = n.slice(last + 1);
  const head = n.slice(0, last);
  const sep = n[last]!;
  const grouped = (s: string, by: string) =>
    // Groups of thousands start with a digit other than 0 ("0.001" is not one rand, it is unreadable).
    /^\d+$/.test(s) || new RegExp(`^[1-9]\\d{0,2}(?:${by === '.' ? '\\.' : by}\\d{3})+$`).test(s);
  // A group of three after the last mark: thousands, unless the currency has three decimals (ambiguous).
  if (tail.length === 3 && digits !== 3) {
    return grouped(n, sep === '.' ? '.' : sep) ? Number(n.split(sep).join('')) * 10 ** digits : null;
  }
  // One or two digits after a point or comma: the minor part, when the currency has that many.
  if ((sep === '.' || sep === ',') && tail.length >= 1 && tail.length <= digits && /^\d+$/.test(tail)) {
    const groupSep = head.match(/[.,' ]/)?.[0];
    if (groupSep === sep) return null;
    if (groupSep && !grouped(head, groupSep)) return null;
    const units = Number(groupSep ? head.split(groupSep).join('') : head);
    return units * 10 ** digits + Number(tail.padEnd(digits, '0'));
  }
  return null;
}

const listWords = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** Where the person finishes a draft. */
export const continueUrlOf = (ctx: OperationContext, draftId: string) =>
  `${ctx.deps.payments.publicUrl()}/business/drafts/${encodeURIComponent(draftId)}`;

/**
 * A draft's application: business name, details as given, country (given, else from the phone's
 * calling code) with its currency and time zone when it has exactly one (onboarding-checklist's
 * defaultsFor, as startBusinessSignup), and the services priced where the price said is plain.
 * Also used when a draft sent without an email is kept by someone who signed in on its page.
 */
export function draftApplication(input: DraftInput): DraftApplication {
  const { businessName, country, services = [], consent: _consent, ...rest } = input;
  const defaults = defaultsFor({ country: country ?? null, phone: input.phone ?? null });
  const problems: { field: string; message: string }[] = [];
  // A country given but unknown is refused as start_business_signup refuses it; none given is left missing.
  if (country && !defaults.country) problems.push({ field: 'country', message: defaults.reasons.country });
  const categories = [...(input.categories ?? [])];
  const made: DraftService[] = [];
  services.forEach((s, i) => {
    const category = s.category ?? (categories.length === 1 ? categories[0] : undefined);
    if (!category) {
      problems.push({
        field: `services.${i}.category`,
        message: categories.length
          ? 'say which category (grooming, walking or sitting): the draft offers several'
          : 'say which category (grooming, walking or sitting), or give the draft its categories',
      });
      return;
    }
    if (!categories.includes(category)) categories.push(category);
    const priceCents = s.price ? parseSaidPrice(s.price, defaults.currency) : null;
    const service: DraftService = {
      id: newId('svc'),
      category,
      kind: 'PRIMARY',
      name: s.name,
      blurb: '',
      petTypes: category === 'walking' ? ['DOG'] : ['DOG', 'CAT'],
      priceCents,
      durationMin: DRAFT_DURATION_MIN[category],
      groupSize: 1,
      tiers: [],
      ...(priceCents === null ? { needsPrice: true as const } : {}),
      ...(s.price ? { priceSaid: s.price } : {}),
    };
    // The same name twice: the later one stands, as a services request replaces by name.
    const same = made.findIndex((m) => m.name.toLowerCase() === s.name.toLowerCase());
    if (same >= 0) made.splice(same, 1);
    made.push(service);
  });
  if (categories.length > 3)
    problems.push({ field: 'categories', message: 'at most 3 categories, with those of the services' });
  if (problems.length) {
    throw new ServiceError(
      'BAD_REQUEST',
      `The request is not valid. ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
      { fields: problems },
    );
  }
  return {
    name: businessName,
    details: { ...rest, ...(categories.length ? { categories } : {}), source: 'signup-draft' },
    country: defaults.country,
    currency: defaults.currency,
    timezone: defaults.timezone,
    services: made,
  };
}

/** What was recorded, in words: the business, where, its money and time, its services, the contact. */
export function draftSummary(a: DraftApplication, email: string | null): string {
  const d = a.details as { town?: string; categories?: Category[]; contactName?: string; mode?: string };
  const what = d.categories?.length ? `a ${listWords(d.categories)} business` : 'a pet business';
  const place = [d.town, a.country].filter(Boolean).join(', ');
  const money = [a.currency, a.timezone].filter(Boolean).join(', ');
  const services = (a.services as DraftService[]).map((s) =>
    s.priceCents !== null && a.currency
      ? `${s.name} (${formatMoney(s.priceCents, a.currency)})`
      : `${s.name} (price to set${s.priceSaid ? `; said "${s.priceSaid}"` : ''})`,
  );
  const parts = [
    `${a.name}: ${what} in ${place}${money ? ` (${money})` : ''}.`,
    services.length ? `Services: ${listWords(services)}.` : 'No services yet.',
    email
      ? `Contact: ${d.contactName ? `${d.contactName}, ` : ''}${email}.`
      : 'No email yet: the page asks for it first.',
  ];
  if (!a.timezone) parts.push('The time zone is still to be chosen.');
  return parts.join(' ');
}

/** Words for the person, one for each required part of the checklist its page asks for. */
const TO_ADD: Record<string, string> = {
  details: 'your country and time zone',
  services: 'your services and their prices',
  area: 'where you work',
  resources: 'who does the work and your hours',
};

/**
 * What a draft still needs before it can be sent for review, from the checklist (its required
 * items not done): `toAdd` in words for the person (the message), `next` for the assistant, which
 * names each missing thing. The one place both are made.
 */
export function draftStillNeeds(a: DraftApplication): { toAdd: string[]; next: string } {
  const data = {
    ...(a.details as Record<string, never>),
    businessName: a.name,
    country: a.country,
    currency: a.currency,
    timezone: a.timezone,
    services: a.services as never,
  } as ApplicationData;
  const open = stillNeeded(checklist(data).items);
  const toAdd = open.map((i) =>
    i.id === 'services' && i.status === 'NEEDS_ATTENTION'
      ? 'the prices still missing'
      : (TO_ADD[i.id] ?? i.title.toLowerCase()),
  );
  const show = 'Show the person the summary, give them continueUrl and say the message word for word.';
  const help =
    'To help them with it yourself, connect with business:write and use get_signup_status and the sign-up tools.';
  const next = open.length
    ? `${show} Before it can be sent for review the application still needs: ${open
        .map((i) => `${i.title}: ${i.missing.join('; ')}`)
        .join('. ')}. The page asks the person for each of these. ${help}`
    : `${show} Nothing is missing: on that page the person reads the summary and sends it for review.`;
  return { toAdd, next };
}

export const DraftAnswerSchema = z
  .object({
    draftId: z.string(),
    continueUrl: z
      .url()
      .meta({ description: 'The page where the person finishes the draft: give it to them.' }),
    expiresAt: z.iso.datetime().meta({ description: 'When the draft is removed if not sent for review.' }),
    summary: z.string().meta({ description: 'What was recorded, in words.' }),
    message: z.string().meta({ description: 'What to tell the person, word for word.' }),
    next: z.string().meta({ description: 'What to do now.' }),
  })
  .meta({ id: 'SignupDraft', description: 'A no-login business sign-up draft.' });

/**
 * The key of a client address for the per-caller limit: an IPv4 address as it is (also when written
 * IPv4-mapped, `::ffff:a.b.c.d`), an IPv6 address by its /64 (one subscriber's network holds 2^64
 * addresses: counted one by one, the limit would mean nothing).
 */
export function callerAddressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}

/** The caller a draft is counted against: the client address, else the assistant by the name it gave. */
function callerOf(ctx: OperationContext): string {
  if (ctx.callerAddress) return `ip:${callerAddressKey(ctx.callerAddress)}`;
  return `client:${(ctx.clientName ?? '').trim().toLowerCase() || 'anonymous'}`;
}

/** 429 `RateLimited` (as the service's limiter answers), with when to try again. */
function limited(
  message: string,
  limit: number,
  windowSeconds: number,
  oldest: Date,
  now: Date,
): ServiceError {
  const retryAfterSeconds = Math.max(
    1,
    Math.ceil((oldest.getTime() + windowSeconds * 1000 - now.getTime()) / 1000),
  );
  return new ServiceError('RateLimited', `${message} Try again in ${retryAfterSeconds} seconds.`, {
    limit,
    windowSeconds,
    retryAfterSeconds,
  });
}

export const prepareBusinessSignup = defineOperation({
  operationId: 'prepareBusinessSignup',
  toolName: 'prepare_business_signup',
  title: 'Prepare a business sign-up (no login)',
  tag: 'Business',
  mcp: 'person',
  method: 'POST',
  path: '/v1/signup-drafts',
  inputIn: 'body',
  auth: 'public',
  description:
    'Saves what a pet business told you as a sign-up draft, without any login: the business name and town, and ' +
    'whatever else they said (contact, email, phone with its country code, country, categories, mode, vans, staff, ' +
    'website, about, services with their prices as said, a note). First ask whether they agree that the operator ' +
    'keeps these details to set up the application and to contact them; send `consent: true` only if they do. The ' +
    'draft joins the account with their email only when they follow the sign-in link its page mails to that email ' +
    '(the account is made then if absent). Give the person `continueUrl` and say `message`: on that page they add prices, where they work and ' +
    'their hours, and send it for review. Kept 30 days. Signed in with business:write, use start_business_signup instead (MCP endpoint /mcp/business).',
  input: DraftInputSchema,
  output: DraftAnswerSchema,
  successStatus: 201,
  errors: [
    {
      status: 400,
      description:
        'Invalid input: unknown properties, a bound passed, `businessName` or `town` missing, `consent` not true, an unknown country, a service without its category.',
    },
    {
      status: 429,
      description: `Too many drafts: ${DRAFTS_PER_CALLER_PER_HOUR} an hour from one caller, ${DRAFTS_PER_EMAIL_PER_DAY} a day for one email (\`RateLimited\`, with Retry-After). Nothing was saved.`,
    },
  ],
  events: [],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    const application = draftApplication(input);
    const email = input.email?.toLowerCase() ?? null;
    const caller = callerOf(ctx);
    const expiresAt = new Date(now.getTime() + DRAFT_DAYS * 24 * 3600_000);
    const draft = await transaction(ctx.deps.sql, async (q) => {
      await lockDraftQuota(q, email ? [caller, `email:${email}`] : [caller]);
      const hour = await countDraftsSince(q, { caller }, new Date(now.getTime() - 3600_000));
      if (hour.count >= DRAFTS_PER_CALLER_PER_HOUR)
        throw limited(
          'Too many sign-up drafts from here.',
          DRAFTS_PER_CALLER_PER_HOUR,
          3600,
          hour.oldest!,
          now,
        );
      if (email) {
        const day = await countDraftsSince(q, { email }, new Date(now.getTime() - 24 * 3600_000));
        if (day.count >= DRAFTS_PER_EMAIL_PER_DAY)
          throw limited(
            'Too many sign-up drafts for this email today.',
            DRAFTS_PER_EMAIL_PER_DAY,
            24 * 3600,
            day.oldest!,
            now,
          );
      }
      // No account is made or touched: the draft waits, as sent, for a sign-in link to its email
      // followed from its page (attachDraftByLink), so a stranger's draft never shows in, defaults
      // in, or names the account of the address they typed.
      const row = await insertDraft(
        q,
        {
          applicationId: null,
          userId: null,
          userCreated: false,
          email,
          caller,
          data: input as unknown as Record<string, unknown>,
          expiresAt,
        },
        now,
      );
      // The audit log is kept for ever: ids only, no email or name (the draft itself is purged).
      await appendAudit(
        q,
        {
          userId: null,
          clientId: null,
          clientName: actorName(ctx),
          action: 'signup_draft.prepare',
          target: row.id,
          details: { withEmail: email !== null },
        },
        now,
      );
      return row;
    });
    const continueUrl = continueUrlOf(ctx, draft.id);
    const until = expiresAt.toISOString().slice(0, 10);
    const { toAdd, next } = draftStillNeeds(application);
    const missing = toAdd.length ? listWords(toAdd) : 'nothing more';
    return {
      draftId: draft.id,
      continueUrl,
      expiresAt: expiresAt.toISOString(),
      summary: draftSummary(application, email),
      message: email
        ? `I have saved a draft of your NogPets application for ${application.name}. Open ${continueUrl} to finish it: we email a sign-in link to ${email}, then you add ${missing}, and send it for review. The draft is kept until ${until}.`
        : `I have saved a draft of your NogPets application for ${application.name}. Open ${continueUrl} to finish it: it asks for your email first and sends you a sign-in link, then you add ${missing}, and send it for review. The draft is kept until ${until}.`,
      next,
    };
  },
});

/** A draft as its page needs it: whose it is and what it is called; null once expired or unknown. */
export interface DraftForPage {
  draftId: string;
  name: string;
  applicationId: string | null;
  ownerId: string | null;
  /** The draft's email (its owner's once attached): where the page mails a sign-in link (never shown whole to a stranger). */
  ownerEmail: string | null;
  expiresAt: Date;
}

export async function draftForPage(deps: Deps, draftId: string): Promise<DraftForPage | null> {
  if (!/^drf_[0-9a-z]{1,64}$/.test(draftId)) return null;
  const d = await findDraft(deps.sql, draftId, deps.clock.now());
  if (!d) return null;
  const owner = d.userId ? await findUserById(deps.sql, d.userId) : null;
  const name = d.data
    ? String(d.data.businessName ?? '')
    : d.applicationId
      ? await applicationName(deps, d)
      : '';
  return {
    draftId: d.id,
    name,
    applicationId: d.applicationId,
    ownerId: d.userId,
    ownerEmail: owner?.email ?? d.email,
    expiresAt: d.expiresAt,
  };
}

async function applicationName(deps: Deps, d: DraftRow): Promise<string> {
  const row = await findOwnApplication(deps.sql, d.userId!, d.applicationId!);
  return row?.name ?? '';
}

/**
 * Gives an unattached draft its application, made from what was sent, in the account `user`, and
 * records it (audited as `action`). False when the draft is gone, already someone's, or was sent
 * for another email than the account's.
 */
async function attachDraft(
  q: Queryable,
  draftId: string,
  user: Pick<UserRow, 'id' | 'email'>,
  now: Date,
  action: 'signup_draft.keep' | 'signup_draft.attach',
  clientName: string | null,
): Promise<string | null> {
  const d = await findDraft(q, draftId, now, { forUpdate: true });
  if (!d || d.userId || !d.data) return null;
  if (d.email !== null && d.email !== user.email.toLowerCase()) return null;
  const input = DraftInputSchema.safeParse(d.data);
  if (!input.success) return null;
  const applicationId = await insertDraftApplication(q, user.id, draftApplication(input.data), now);
  await claimDraft(q, d.id, user.id, applicationId);
  await appendAudit(
    q,
    { userId: user.id, clientId: null, clientName, action, target: d.id, details: { applicationId } },
    now,
  );
  return applicationId;
}

/**
 * A sign-in link mailed from a draft's page has just been followed (inside that transaction): the
 * email is proven, so the draft joins the account the link signed in to. The application id, or
 * null when there is nothing to attach (gone, already attached, another email).
 */
export function attachDraftByLink(
  q: Queryable,
  draftId: string,
  user: Pick<UserRow, 'id' | 'email'>,
  now: Date,
): Promise<string | null> {
  return attachDraft(q, draftId, user, now, 'signup_draft.attach', ACCOUNT_PAGE);
}

/**
 * A draft sent without an email, kept by the person signed in on its page (who holds its link):
 * its application is made for them from what was sent, in one transaction, audited. Answers the
 * application id; null when the draft is gone, someone kept it first, or it was sent with an email
 * (that one joins an account only by the link mailed to it).
 */
export async function keepDraft(deps: Deps, draftId: string, userId: string): Promise<string | null> {
  const now = deps.clock.now();
  return transaction(deps.sql, async (q) => {
    const user = await findUserById(q, userId);
    const d = await findDraft(q, draftId, now);
    if (!user || !d || d.email !== null) return null;
    return attachDraft(q, draftId, user, now, 'signup_draft.keep', ACCOUNT_PAGE);
  }) as Promise<string | null>;
}
