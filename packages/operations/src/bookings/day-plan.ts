/** getDayPlan / get_day_plan: one day of a business per van, walker or sitter. */
import { DEFAULT_VAN_BUFFER_MIN, dayKeyOf } from '@nogpets/slot-engine';
import { formatMoney } from '@nogpets/pricing-tiers';
import { listDayJobs, listResources, listTimeOff } from '@nogpets/store';
import { z } from 'zod';
import { defineOperation, localDate, localDaysWindow, READ_ONLY } from '../core/index.js';
import { checkDateBounds, DATE } from '../schedule/index.js';
import { inBusiness, RUN_ACCESS_ERRORS, RunBusinessIdShape } from '../staff/index.js';
import { JobSchema, minutesBetween, resourceRefused, toJobs } from './jobs.js';

/** The instants a day plan covers: its local date in the business's zone, as slot-engine counts it. */
export const dayPlanWindow = (date: string, timeZone: string) => localDaysWindow(date, date, timeZone);

const MoneyTotalsSchema = z.object({
  jobs: z.int(),
  cashToCollectCents: z.int(),
  cashToCollect: z.string().meta({ description: 'Cash to collect (CASH_DUE), in the business’s currency.' }),
  unpaidCardCents: z.int(),
  unpaidCard: z.string().meta({ description: 'Card payments still awaited (PENDING).' }),
  unpaidCardJobs: z.int(),
});

const DayJobSchema = JobSchema.extend({
  gapAfterMin: z.int().nullable().meta({
    description:
      'Minutes from this job’s end to the next job’s start on the same resource (the travel gap); null after the last.',
  }),
});

const DayResourceSchema = z.object({
  resourceId: z.string(),
  name: z.string(),
  kind: z.enum(['VAN', 'WALKER', 'SITTER']),
  hours: z.array(z.string()).meta({ description: 'Working hours that day, local HH:MM-HH:MM.' }),
  travelBufferMin: z.int().meta({
    description:
      'The travel time kept between jobs of this resource (the resource’s own; vans 15 by default).',
  }),
  timeOff: z.array(z.object({ from: z.iso.datetime(), to: z.iso.datetime(), reason: z.string() })),
  jobs: z.array(DayJobSchema),
  totals: MoneyTotalsSchema,
});

export const DayPlanSchema = z
  .object({
    businessId: z.string(),
    businessName: z.string(),
    role: z.enum(['owner', 'manager', 'crew']),
    date: z.string(),
    timezone: z.string(),
    currency: z.string(),
    resources: z.array(DayResourceSchema),
    totals: MoneyTotalsSchema,
  })
  .meta({ id: 'DayPlan', description: 'One day of a business, per resource, jobs in time order.' });

export const getDayPlan = defineOperation({
  operationId: 'getDayPlan',
  toolName: 'get_day_plan',
  title: 'Get the day plan',
  tag: 'Run',
  mcp: 'business',
  method: 'GET',
  path: '/v1/business/day-plan',
  inputIn: 'query',
  auth: { scope: 'business:manage' },
  description:
    "One day of the person's business, per van, walker or sitter working that day: the jobs in time order, each with " +
    'start and end (UTC and local HH:MM), the client (name, phone), pets (type, weight, coat, notes), services, the ' +
    'address with access notes, the travel gap to the next job beside the resource’s travel buffer, cash to collect ' +
    'and unpaid card payments; plus totals. Crew see only their own resources. `date` is a local date in the ' +
    'business’s zone (default today). Read it to the person resource by resource: times, client, pets and what to ' +
    'watch for, address and how to get in, money to collect.',
  input: z
    .object({
      ...RunBusinessIdShape,
      date: DATE.optional().meta({ description: 'YYYY-MM-DD in the business’s time zone; default today.' }),
      resourceId: z
        .string()
        .min(1)
        .max(128)
        .optional()
        .meta({ description: 'One van, walker or sitter only.' }),
    })
    .strict(),
  output: DayPlanSchema,
  successStatus: 200,
  errors: RUN_ACCESS_ERRORS,
  annotations: READ_ONLY,
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'day', async ({ q, access }) => {
      const biz = access.business;
      const tz = biz.timezone;
      const date = input.date ?? localDate(ctx.deps.clock.now(), tz);
      checkDateBounds('records', localDate(ctx.deps.clock.now(), tz), tz, { date: input.date });
      if (input.resourceId && !access.resourceIds.includes(input.resourceId))
        throw resourceRefused(input.resourceId, access.role, biz.name);
      const seen = input.resourceId ? [input.resourceId] : access.resourceIds;
      const { from, to } = dayPlanWindow(date, tz);
      const [resources, rows, off] = await Promise.all([
        listResources(q, biz.id),
        listDayJobs(q, biz.id, from, to, seen),
        listTimeOff(q, biz.id, from, to),
      ]);
      const jobs = await toJobs(q, biz.id, biz, rows);
      const weekday = dayKeyOf(date);
      const money = (cents: number) => formatMoney(cents, biz.currency);
      const totalsOf = (js: typeof jobs) => {
        const cash = js.filter((j) => j.paymentStatus === 'CASH_DUE').reduce((s, j) => s + j.totalCents, 0);
        const unpaid = js.filter((j) => j.unpaidCard);
        const unpaidCents = unpaid.reduce((s, j) => s + j.totalCents, 0);
        return {
          jobs: js.length,
          cashToCollectCents: cash,
          cashToCollect: money(cash),
          unpaidCardCents: unpaidCents,
          unpaidCard: money(unpaidCents),
          unpaidCardJobs: unpaid.length,
        };
      };
      const out = resources
        .filter((r) => seen.includes(r.id))
        .map((r) => {
          const own = jobs.filter((j) => j.resourceId === r.id);
          const hours = (r.week[weekday] ?? []).map((h) => `${h.start}-${h.end}`);
          const timeOff = off
            .filter((t) => t.resourceId === null || t.resourceId === r.id)
            .map((t) => ({ from: t.start.toISOString(), to: t.end.toISOString(), reason: t.reason }));
          return {
            resourceId: r.id,
            name: r.name,
            kind: r.kind,
            hours,
            travelBufferMin: r.travelBufferMin ?? (r.kind === 'VAN' ? DEFAULT_VAN_BUFFER_MIN : 0),
            timeOff,
            jobs: own.map((j, i) => {
              // The next job that starts later (jobs of one group walk share their times).
              const next = own.slice(i + 1).find((n) => n.start > j.start);
              return {
                ...j,
                gapAfterMin: next ? Math.max(0, minutesBetween(new Date(j.end), new Date(next.start))) : null,
              };
            }),
            totals: totalsOf(own),
            working: (r.active && hours.length > 0) || own.length > 0,
          };
        })
        .filter((r) => r.working)
        .map(({ working: _w, ...r }) => r);
      return {
        businessId: biz.id,
        businessName: biz.name,
        role: access.role,
        date,
        timezone: tz,
        currency: biz.currency,
        resources: out,
        totals: totalsOf(out.flatMap((r) => r.jobs)),
      };
    });
  },
});
