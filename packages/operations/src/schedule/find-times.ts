import { type DayResult, dayLabel, findSlots, type SittingPlan } from '@nogpets/slot-engine';
import { formatMoney, type Quote } from '@nogpets/pricing-tiers';
import { insertLead } from '@nogpets/store';
import { z } from 'zod';
import {
  defineOperation,
  documentRules,
  localDate,
  type OperationContext,
  READ_ONLY,
  ServiceError,
} from '../core/index.js';
import {
  type PricedRequest,
  priceRequest,
  type QuoteRequest,
  QuoteRequestShape,
  QuoteSchema,
  SAVED_REF_ERRORS,
} from '../catalogue/index.js';
import { BUSINESS_ERRORS, whereOneOf, whereRule } from '../places/index.js';
import {
  askedRange,
  engineError,
  nothingOpen,
  planSittingFor,
  sittingUnavailable,
  slotInputFor,
} from './schedule.js';
import {
  checkDateBounds,
  checkSearchDates,
  DATE,
  DaySchema,
  HHMM,
  StaySchema,
  VisitsSchema,
} from './time-schemas.js';

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
  .meta({
    id: 'Times',
    description:
      "Open times: `days` of slots (pass a slot's `start` and `resourceId` to book unchanged), the duration and the " +
      'quote; for a stay or visits also `mode`, `windows` and the sitter `plan`.',
  });

/** The price of several nights or visits: the one-night (or one-visit) quote times `count`, card fee once. */
function timesQuote<Q extends Quote>(q: Q, count: number, what: string, currency: string): Q {
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

/** A sitter's plan as days of slots, each day named as find_times names every line's days. */
function planDays(plan: SittingPlan, today: string): DayResult[] {
  return plan.plan.map((p) => ({
    date: p.date,
    label: dayLabel(p.date, today),
    slots: [{ start: p.start, time: p.time, resourceId: p.resourceId }],
  }));
}

/**
 * Nothing open: keep a lead only when nothing is open within 14 days either (no alternatives), and
 * say so after `message`.
 */
async function leadWhenNoneOpen(
  ctx: OperationContext,
  priced: PricedRequest,
  input: {
    category: string;
    from?: string | undefined;
    to?: string | undefined;
    address?: string | undefined;
    postalCode?: string | undefined;
  },
  now: Date,
  message: string,
  alternatives: unknown[],
): Promise<{ message: string; leadId?: string }> {
  if (alternatives.length > 0) return { message };
  const leadId = await insertLead(
    ctx.deps.sql,
    {
      businessId: priced.offer.business.id,
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
  return {
    leadId,
    message: `${message} Nothing is open in the next 14 days either; we have noted your request and will be in touch.`,
  };
}

export const findTimes = defineOperation({
  operationId: 'findTimes',
  toolName: 'find_times',
  title: 'Find open times',
  tag: 'Booking',
  mcp: 'person',
  method: 'POST',
  path: '/v1/availability',
  inputIn: 'body',
  auth: 'public',
  description:
    "Open times for the person's pets at their place: the same input as get_quote (where is required) plus optional " +
    '`from`/`to` (local dates YYYY-MM-DD; default today and the next 6 days; at most 31 days) and a daily window ' +
    "(`windowStart`, `windowEnd`, HH:MM). Answers the duration, the quote and `days` of slots; to book, pass a slot's " +
    '`start` and `resourceId` unchanged. A time is listed once per van, walker or sitter free then (its `resourceId`): ' +
    "show the person each `time` once per day, under the day's `label`, and book the first slot of the time they choose. For pet sitting over several days give `stay` (nights) or `visits` (days × " +
    'visits per day) and read `mode`, `windows` and `plan`. Nothing open answers 409 NO_AVAILABILITY with `reason`, ' +
    '`message` and `alternatives` (the next open times): offer those. Times are Johannesburg time. For a partner ' +
    "business pass its `businessId` (from the directory's `bookWith`), as to get_quote. No sign-in needed.",
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
    .superRefine(whereRule(true, true))
    .superRefine((v, c) => {
      if ((v.stay || v.visits) && v.category !== 'sitting')
        c.addIssue({ code: 'custom', path: [v.stay ? 'stay' : 'visits'], message: 'Only for sitting.' });
      if (v.stay && v.visits)
        c.addIssue({ code: 'custom', path: ['visits'], message: 'Give stay or visits, not both.' });
      if (v.windowStart && v.windowEnd && v.windowStart >= v.windowEnd)
        c.addIssue({ code: 'custom', path: ['windowEnd'], message: 'Must be after windowStart.' });
    })
    .meta({
      override: documentRules({ ...whereOneOf(true, true), not: { required: ['stay', 'visits'] } }),
      example: {
        category: 'grooming',
        address: '12 Dorp Street, Die Boord, Stellenbosch',
        pets: [{ name: 'Rex', type: 'DOG', weightKg: 12.5, coat: 'SHORT', serviceIds: ['groom-dog-bath'] }],
        windowStart: '08:00',
        windowEnd: '12:00',
      },
    }),
  output: TimesAnswerSchema,
  successStatus: 200,
  errors: [
    {
      status: 400,
      description: 'Invalid input: bounds, a range over 31 days, services that do not fit the pet.',
    },
    ...SAVED_REF_ERRORS,
    {
      status: 409,
      description:
        '`NO_COVERAGE` (place not served; `details.message`, `details.leadId`) or `NO_AVAILABILITY` (nothing open: ' +
        '`details.reason`, `details.message`, `details.alternatives`, and `details.leadId` when nothing is open within 14 days); ' +
        `or ${BUSINESS_ERRORS.conflict}.`,
    },
    { status: 422, description: '`UNKNOWN_PLACE`: ask for the suburb or postal code.' },
    { status: 429, description: 'Too many requests.' },
  ],
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const priced = await priceRequest(ctx, input as QuoteRequest, 'findTimes');
    const { offer } = priced;
    // pricing-tiers keeps the category as text; it is the line's id.
    const quote = { ...priced.quote, category: priced.line.id };
    const now = ctx.deps.clock.now();
    const tz = offer.business.timezone;
    checkSearchDates(localDate(now, tz), tz, input);
    checkDateBounds('booking', localDate(now, tz), tz, {
      'stay.startDate': input.stay?.startDate,
      'visits.startDate': input.visits?.startDate,
    });

    if (input.stay || input.visits) {
      const plan = await planSittingFor(ctx, priced, input);
      if (!plan.ok) {
        // The true reason (too soon, booked, closed) and the next stays or visits that can be booked.
        const { reason, alternatives, ...said } = await sittingUnavailable(ctx, priced, input, plan);
        const { message, leadId } = await leadWhenNoneOpen(
          ctx,
          priced,
          input,
          now,
          said.message,
          alternatives,
        );
        throw new ServiceError('NO_AVAILABILITY', message, {
          reason,
          message,
          unplanned: plan.unplanned,
          alternatives,
          ...(leadId ? { leadId } : {}),
        });
      }
      const count = input.stay ? input.stay.nights : input.visits!.days * input.visits!.perDay;
      return {
        durationMin: quote.durationMin,
        quote: timesQuote(quote, count, input.stay ? 'nights' : 'visits', offer.business.currency),
        days: planDays(plan, localDate(ctx.deps.clock.now(), offer.business.timezone)),
        mode: plan.mode,
        windows: plan.windows,
        plan: plan.plan,
      };
    }

    const today = localDate(now, offer.business.timezone);
    const slotInput = await slotInputFor(ctx, priced, { ...input, ...askedRange(input, today) });
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
    const { reason, alternatives, ...said } = nothingOpen(priced.line.label, days, slotInput);
    const { message, leadId } = await leadWhenNoneOpen(ctx, priced, input, now, said.message, alternatives);
    throw new ServiceError('NO_AVAILABILITY', message, {
      reason,
      message,
      alternatives,
      ...(leadId ? { leadId } : {}),
    });
  },
});
