import {
  type BusyInterval,
  type DayResult,
  findSlots,
  nextOpenSlots,
  planStay,
  planVisits,
  type Resource,
  type SittingPlan,
  SlotEngineError,
  type Stay,
  type Visits,
} from '@nogpets/slot-engine';
import { formatMoney, type Quote } from '@nogpets/pricing-tiers';
import { insertLead, listBusy, listResources, listTimeOff } from '@nogpets/store';
import { z } from 'zod';
import type { OperationContext } from '../context.js';
import { defineOperation, READ_ONLY } from '../define.js';
import { ServiceError } from '../errors.js';
import {
  type PricedRequest,
  priceRequest,
  type QuoteRequest,
  QuoteRequestShape,
  QuoteSchema,
  whereRule,
} from './quote-request.js';

export const DATE = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date YYYY-MM-DD.')
  .refine((v) => {
    const ms = Date.parse(`${v}T00:00:00Z`);
    // Round trip: 2026-02-30 is not a day, whatever a lenient parser makes of it.
    return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === v;
  }, 'Not a calendar date.');
const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time HH:MM.');
const KIND_OF = { grooming: 'VAN', walking: 'WALKER', sitting: 'SITTER' } as const;
const DAY_MS = 86_400_000;

export const StaySchema = z
  .object({
    startDate: DATE,
    nights: z.int().min(1).max(30),
    arriveAt: HHMM.optional().meta({ description: 'Local arrival time each evening; default 17:30.' }),
    leaveAt: HHMM.optional().meta({ description: 'Local leaving time on the last morning; default 07:30.' }),
  })
  .strict()
  .meta({
    id: 'Stay',
    description: 'An overnight or multi-night house sit (sitting only): one sitter for the whole stay.',
  });

export const VisitsSchema = z
  .object({
    startDate: DATE,
    days: z.int().min(1).max(31),
    perDay: z.int().min(1).max(4),
    windows: z
      .array(
        z.union([
          z.enum(['morning', 'midday', 'afternoon', 'evening']),
          z.object({ start: HHMM, end: HHMM }).strict(),
        ]),
      )
      .max(4)
      .optional()
      .meta({
        description:
          'One per visit of the day; default morning (1), morning+evening (2), +midday (3), +afternoon (4).',
      }),
  })
  .strict()
  .meta({ id: 'Visits', description: 'Drop-in visits on consecutive days (sitting only).' });

export const SlotSchema = z
  .object({ start: z.string(), time: z.string(), resourceId: z.string() })
  .meta({ id: 'Slot' });
export const DaySchema = z
  .object({ date: z.string(), label: z.string(), slots: z.array(SlotSchema) })
  .meta({ id: 'Day' });

export const TimesAnswerSchema = z
  .object({
    durationMin: z.int(),
    quote: QuoteSchema,
    days: z.array(DaySchema),
    mode: z.enum(['STAY', 'VISITS']).optional(),
    windows: z.array(z.object({ name: z.string(), start: z.string(), end: z.string() })).optional(),
    plan: z
      .array(
        z.object({
          date: z.string(),
          start: z.string(),
          end: z.string(),
          time: z.string(),
          resourceId: z.string(),
        }),
      )
      .optional(),
  })
  .meta({ id: 'Times' });

const REASON: Record<string, string> = {
  CLOSED_DAY: 'closed on those days',
  OUTSIDE_HOURS: 'not working at those hours',
  FULLY_BOOKED: 'fully booked',
  TIME_OFF: 'closed on those days',
  PAST: 'too soon to book',
};

function toResource(r: {
  id: string;
  kind: 'VAN' | 'WALKER' | 'SITTER';
  week: Resource['week'];
  slotStepMin?: number;
  travelBufferMin?: number | null;
}): Resource {
  return {
    id: r.id,
    kind: r.kind,
    week: r.week,
    slotStepMin: r.slotStepMin,
    ...(r.travelBufferMin != null ? { travelBufferMin: r.travelBufferMin } : {}),
  };
}

export function engineError(err: unknown): never {
  if (err instanceof SlotEngineError) {
    const field =
      (err.details.field as string | undefined) ??
      (err.code === 'RANGE_TOO_LONG' || err.code === 'BAD_RANGE' ? 'to' : '(input)');
    throw new ServiceError('BAD_REQUEST', err.message, {
      fields: [{ field, message: err.message }],
      reason: err.code,
    });
  }
  throw err;
}

/** The price of several nights or visits: the one-night (or one-visit) quote times `count`, card fee once. */
function timesQuote(q: Quote, count: number, what: string, currency: string): Quote {
  if (count === 1) return q;
  const subtotalCents = q.subtotalCents * count;
  const money = (n: number) => formatMoney(n, currency);
  return {
    ...q,
    subtotalCents,
    cashTotalCents: subtotalCents,
    cardTotalCents: subtotalCents + q.cardFeeCents,
    summary: `${count} ${what}: ${q.summary.replace(/:.*$/, '')}, ${q.acceptsCash ? `${money(subtotalCents)} cash or ` : ''}${money(subtotalCents + q.cardFeeCents)} by card.`,
  };
}

export async function schedule(
  ctx: OperationContext,
  priced: PricedRequest,
  fromMs: number,
  toMs: number,
  exceptBookingIds: string[] = [],
) {
  const businessId = priced.offer.business.id;
  const resources = (await listResources(ctx.deps.sql, businessId, KIND_OF[priced.line.id])).map(toResource);
  const ids = resources.map((r) => r.id);
  const [busy, timeOff] = await Promise.all([
    listBusy(ctx.deps.sql, businessId, ids, new Date(fromMs), new Date(toMs), exceptBookingIds),
    listTimeOff(ctx.deps.sql, businessId, ids, new Date(fromMs), new Date(toMs)),
  ]);
  return {
    resources,
    busy: busy.map(
      (b): BusyInterval => ({
        resourceId: b.resourceId,
        start: b.start,
        end: b.end,
        ...(b.groupKey ? { groupKey: b.groupKey, size: b.size } : {}),
      }),
    ),
    timeOff: timeOff.map((t) => ({
      ...(t.resourceId ? { resourceId: t.resourceId } : {}),
      start: t.start,
      end: t.end,
    })),
  };
}

/**
 * What planning sitting needs for `days` local dates from `startDate`: the sitters, their bookings
 * (other than `except`) and their time off, from the day before to the day after.
 */
export async function sittingContext(
  ctx: OperationContext,
  priced: PricedRequest,
  startDate: string,
  days: number,
  except: string[] = [],
) {
  const start = Date.parse(`${startDate}T00:00:00Z`);
  const sched = await schedule(ctx, priced, start - DAY_MS, start + (days + 1) * DAY_MS, except);
  return { timeZone: priced.offer.business.timezone, now: ctx.deps.clock.now().toISOString(), ...sched };
}

export type SittingContext = Awaited<ReturnType<typeof sittingContext>>;

/** The local dates a stay (its nights and the last morning) or visits cover. */
export function sittingDays(request: { stay?: Stay | undefined; visits?: Visits | undefined }): number {
  return request.stay ? request.stay.nights + 1 : request.visits!.days;
}

/** A stay or visits planned by the slot engine on `context` (a bad stay or visits: 400). */
export function planSitting(
  context: SittingContext,
  priced: PricedRequest,
  request: { stay?: Stay | undefined; visits?: Visits | undefined },
): SittingPlan {
  try {
    return request.stay
      ? planStay({ ...context, stay: request.stay })
      : planVisits({ ...context, durationMin: priced.quote.durationMin, visits: request.visits! });
  } catch (err) {
    return engineError(err);
  }
}

/** Plans a stay or visits on the schedule of the dates it covers, bookings other than `except` counted: what find_times offers, book places and a moved stay takes. */
export async function planSittingFor(
  ctx: OperationContext,
  priced: PricedRequest,
  request: { stay?: Stay | undefined; visits?: Visits | undefined },
  except: string[] = [],
): Promise<SittingPlan> {
  const startDate = (request.stay ?? request.visits)!.startDate;
  return planSitting(
    await sittingContext(ctx, priced, startDate, sittingDays(request), except),
    priced,
    request,
  );
}

function planDays(plan: SittingPlan): DayResult[] {
  return plan.plan.map((p) => ({
    date: p.date,
    label: p.date,
    slots: [{ start: p.start, time: p.time, resourceId: p.resourceId }],
  }));
}

/** The group a quote's walk joins, if it is a group walk: its key (the service), capacity and places taken. */
export function groupOf(priced: PricedRequest): { key: string; capacity: number; size: number } | undefined {
  const { offer, quote } = priced;
  const primary = offer.lines
    .flatMap((l) => l.services)
    .find((s) => s.id === quote.pets[0]?.items[0]?.serviceId);
  return quote.groupSize && primary
    ? { key: primary.id, capacity: primary.groupSize, size: quote.groupSize }
    : undefined;
}

/** What the slot engine needs for a priced request over a range of local dates (default from today). */
export async function slotInputFor(
  ctx: OperationContext,
  priced: PricedRequest,
  range: {
    from?: string | undefined;
    to?: string | undefined;
    windowStart?: string | undefined;
    windowEnd?: string | undefined;
  },
  exceptBookingIds: string[] = [],
) {
  const now = ctx.deps.clock.now();
  const today = new Date(now.getTime()).toISOString().slice(0, 10);
  const fromDate = range.from ?? today;
  const fromMs = Date.parse(`${fromDate}T00:00:00Z`) - DAY_MS;
  const toMs = Date.parse(`${range.to ?? fromDate}T00:00:00Z`) + 47 * DAY_MS;
  const sched = await schedule(
    ctx,
    priced,
    fromMs,
    Number.isNaN(toMs) ? fromMs + 48 * DAY_MS : toMs,
    exceptBookingIds,
  );
  const group = groupOf(priced);
  return {
    timeZone: priced.offer.business.timezone,
    now: now.toISOString(),
    ...sched,
    durationMin: priced.quote.durationMin,
    ...(range.from ? { from: range.from } : {}),
    ...(range.to ? { to: range.to } : {}),
    ...(range.windowStart ? { windowStart: range.windowStart } : {}),
    ...(range.windowEnd ? { windowEnd: range.windowEnd } : {}),
    ...(group ? { group } : {}),
  };
}

export const findTimes = defineOperation({
  operationId: 'findTimes',
  toolName: 'find_times',
  title: 'Find open times',
  tag: 'Booking',
  method: 'POST',
  path: '/v1/availability',
  inputIn: 'body',
  auth: 'public',
  description:
    "Open times for the person's pets at their place: the same input as get_quote (where is required) plus optional " +
    '`from`/`to` (local dates YYYY-MM-DD; default today and the next 6 days; at most 31 days) and a daily window ' +
    "(`windowStart`, `windowEnd`, HH:MM). Answers the duration, the quote and `days` of slots; to book, pass a slot's " +
    '`start` and `resourceId` unchanged. For pet sitting over several days give `stay` (nights) or `visits` (days × ' +
    'visits per day) and read `mode`, `windows` and `plan`. Nothing open answers 409 NO_AVAILABILITY with `reason`, ' +
    '`message` and `alternatives` (the next open times): offer those. Times are Johannesburg time. No sign-in needed.',
  input: z
    .object({
      ...QuoteRequestShape,
      from: DATE.optional(),
      to: DATE.optional(),
      windowStart: HHMM.optional(),
      windowEnd: HHMM.optional(),
      stay: StaySchema.optional(),
      visits: VisitsSchema.optional(),
    })
    .strict()
    .superRefine(whereRule(true))
    .superRefine((v, c) => {
      if ((v.stay || v.visits) && v.category !== 'sitting')
        c.addIssue({ code: 'custom', path: [v.stay ? 'stay' : 'visits'], message: 'Only for sitting.' });
      if (v.stay && v.visits)
        c.addIssue({ code: 'custom', path: ['visits'], message: 'Give stay or visits, not both.' });
      if (v.windowStart && v.windowEnd && v.windowStart >= v.windowEnd)
        c.addIssue({ code: 'custom', path: ['windowEnd'], message: 'Must be after windowStart.' });
    }),
  output: TimesAnswerSchema,
  successStatus: 200,
  errors: [
    {
      status: 400,
      description: 'Invalid input: bounds, a range over 31 days, services that do not fit the pet.',
    },
    { status: 401, description: 'Saved pets (`petId`) or addresses (`addressId`) need a credential.' },
    {
      status: 409,
      description:
        '`NO_COVERAGE` (place not served; `details.message`, `details.leadId`) or `NO_AVAILABILITY` (nothing open: ' +
        '`details.reason`, `details.message`, `details.alternatives`, and `details.leadId` when nothing is open within 14 days).',
    },
    { status: 422, description: '`UNKNOWN_PLACE`: ask for the suburb or postal code.' },
    { status: 429, description: 'Too many requests.' },
  ],
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const priced = await priceRequest(ctx, input as QuoteRequest, 'findTimes');
    const { offer, quote } = priced;
    const now = ctx.deps.clock.now();

    if (input.stay || input.visits) {
      const plan = await planSittingFor(ctx, priced, input);
      if (!plan.ok) {
        const message = `No sitter is free for ${plan.unplanned
          .map((u) => `${u.date} ${u.window}`)
          .slice(0, 4)
          .join(', ')}${plan.unplanned.length > 4 ? ' and more' : ''}.`;
        throw new ServiceError('NO_AVAILABILITY', message, {
          reason: 'FULLY_BOOKED',
          message,
          unplanned: plan.unplanned,
          alternatives: [],
        });
      }
      const count = input.stay ? input.stay.nights : input.visits!.days * input.visits!.perDay;
      return {
        durationMin: quote.durationMin,
        quote: timesQuote(quote, count, input.stay ? 'nights' : 'visits', offer.business.currency),
        days: planDays(plan),
        mode: plan.mode,
        windows: plan.windows,
        plan: plan.plan,
      };
    }

    const slotInput = await slotInputFor(ctx, priced, input);
    let days: DayResult[];
    try {
      days = findSlots(slotInput).days;
    } catch (err) {
      return engineError(err);
    }
    if (days.some((d) => d.slots.length > 0)) {
      return { durationMin: quote.durationMin, quote, days: days.map(({ why: _why, ...d }) => d) };
    }

    // Nothing open: say why, offer the next open times (any hour, from the first day asked), and
    // keep a lead only when nothing is open within 14 days.
    const whys = new Set(days.map((d) => d.why));
    const reason = whys.has('FULLY_BOOKED')
      ? 'FULLY_BOOKED'
      : whys.has('OUTSIDE_HOURS')
        ? 'OUTSIDE_HOURS'
        : 'CLOSED_DAY';
    const { windowStart: _ws, windowEnd: _we, to: _to, ...open } = slotInput;
    const alternatives = nextOpenSlots({ ...open, from: days[0]!.date }, 5);
    const range = days.length === 1 ? days[0]!.date : `${days[0]!.date} and ${days.at(-1)!.date}`;
    let leadId: string | undefined;
    let message = `${priced.line.label} is ${REASON[reason]} ${days.length === 1 ? 'on' : 'between'} ${range}.`;
    if (alternatives.length > 0) {
      const first = alternatives[0]!;
      message += ` The next open time is ${first.date} at ${first.time}.`;
    } else {
      leadId = await insertLead(
        ctx.deps.sql,
        {
          businessId: offer.business.id,
          operation: 'findTimes',
          reason: 'NO_AVAILABILITY',
          query: {
            category: input.category,
            from: input.from ?? null,
            to: input.to ?? null,
            address: input.address ?? input.postalCode ?? null,
          },
          place: null,
          clientName: ctx.clientName,
        },
        now,
      );
      message +=
        ' Nothing is open in the next 14 days either; we have noted your request and will be in touch.';
    }
    throw new ServiceError('NO_AVAILABILITY', message, {
      reason,
      message,
      alternatives,
      ...(leadId ? { leadId } : {}),
    });
  },
});
