// setOperatingHours: the business's working week (local wall-clock times in its time zone), for
// every resource or for some. Also the week schema addResources shares.
import { MAX_RANGES_PER_DAY } from '@nogpets/slot-engine';
import { type Queryable, updateApplicationParts } from '@nogpets/store';
import { z } from 'zod';
import { auditChange } from '../audit.js';
import { defineOperation } from '../define.js';
import {
  ApplicationIdSchema,
  ApplicationSchema,
  applicationAnswer,
  badRequest,
  ownDraft,
  STEP_ERRORS,
} from './application.js';
import type { StoredResource } from './resources.js';

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Day = (typeof DAYS)[number];
export type Week = Partial<Record<Day, { start: string; end: string }[]>>;

/** Working ranges a day may have: the slot engine's limit (the spec's), taken from it so they stay one. */
export { MAX_RANGES_PER_DAY };

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const END = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

const RangeSchema = z
  .object({
    start: z.string().regex(TIME, 'expected local time HH:MM, such as 09:00'),
    end: z.string().regex(END, 'expected local time HH:MM, such as 17:00 (24:00 for midnight)'),
  })
  .strict()
  .refine((r) => !TIME.test(r.start) || !END.test(r.end) || minutes(r.start) < minutes(r.end), {
    message: 'start must be before end (a range ends the same day; 24:00 for midnight)',
  });

/**
 * A working week: lowercase three-letter days (mon to sun) to up to 6 ranges of local `HH:MM`,
 * start before end, not overlapping; days off left out (or an empty list). At least one range in
 * all. Ranges are kept sorted by start; empty days are dropped.
 */
export const WeekSchema = z
  .object(
    Object.fromEntries(
      DAYS.map((d) => [
        d,
        z
          .array(RangeSchema)
          .max(MAX_RANGES_PER_DAY, `at most ${MAX_RANGES_PER_DAY} working ranges a day`)
          .optional(),
      ]),
    ) as Record<Day, z.ZodOptional<z.ZodArray<typeof RangeSchema>>>,
  )
  .strict()
  .superRefine((week, ctx) => {
    let any = false;
    for (const day of DAYS) {
      const ranges = [...(week[day] ?? [])].sort((a, b) => minutes(a.start) - minutes(b.start));
      if (ranges.length > 0) any = true;
      for (let i = 1; i < ranges.length; i++) {
        if (minutes(ranges[i]!.start) < minutes(ranges[i - 1]!.end)) {
          ctx.addIssue({
            code: 'custom',
            path: [day],
            message: `ranges overlap (${ranges[i - 1]!.start}-${ranges[i - 1]!.end} and ${ranges[i]!.start}-${ranges[i]!.end}): join them or move one`,
          });
        }
      }
    }
    if (!any) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message:
          'the week has no working time: give at least one day with a range, such as mon: [{start: "09:00", end: "17:00"}]',
      });
    }
  })
  .transform((week) => {
    const out: Week = {};
    for (const day of DAYS) {
      const ranges = week[day];
      if (ranges && ranges.length > 0)
        out[day] = [...ranges]
          .sort((a, b) => minutes(a.start) - minutes(b.start))
          .map((r) => ({ start: r.start, end: r.end }));
    }
    return out;
  })
  .meta({
    description:
      'Lowercase three-letter days (mon to sun) to up to 6 ranges `{start, end}` of local HH:MM in the business’s ' +
      'time zone (24:00 may end a day), not overlapping; days off left out.',
    example: { mon: [{ start: '08:00', end: '17:00' }], sat: [{ start: '08:00', end: '13:00' }] },
  });

/** "Mon 09:00-13:00 and 14:00-17:00; Sat 09:00-13:00". */
export function weekWords(week: Week | null | undefined): string {
  if (!week) return 'no hours set';
  const days = DAYS.filter((d) => (week[d]?.length ?? 0) > 0).map(
    (d) => `${d[0]!.toUpperCase()}${d.slice(1)} ${week[d]!.map((r) => `${r.start}-${r.end}`).join(' and ')}`,
  );
  return days.length ? days.join('; ') : 'no working time';
}

export const setOperatingHours = defineOperation({
  operationId: 'setOperatingHours',
  toolName: 'set_operating_hours',
  title: 'Set the working hours',
  tag: 'Business',
  method: 'POST',
  path: '/v1/business/applications/:applicationId/hours',
  inputIn: 'body',
  auth: { scope: 'business:write' },
  description:
    'Sets when the business works, as local times in its own time zone (the application’s `timezone`; summer time ' +
    'is taken care of). Without `resourceIds` it sets the business hours, which every van, walker and sitter works, ' +
    'including ones added later without a week of their own (their own weeks are replaced); with `resourceIds` ' +
    'only those resources get this week. Ask the person for their days and hours, up to 6 ranges a day (a lunch ' +
    'break makes two). It replaces the hours it sets. Answers the application with its `checklist` and `next`.',
  input: z
    .object({
      applicationId: ApplicationIdSchema,
      week: WeekSchema,
      resourceIds: z
        .array(z.string().min(1).max(128))
        .min(1)
        .max(100)
        .refine((ids) => new Set(ids).size === ids.length, 'each resource once')
        .optional()
        .meta({
          description: 'Only these resources (ids from add_resources); left out: the business hours.',
        }),
    })
    .strict(),
  output: ApplicationSchema,
  successStatus: 200,
  errors: [
    {
      status: 400,
      description:
        'Invalid input: a time not HH:MM, a start not before its end, overlapping ranges, more than 6 a day, a week ' +
        'without working time, or a resource id the application does not have.',
    },
    ...STEP_ERRORS,
  ],
  events: [],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    return ctx.deps.sql.begin(async (tx) => {
      const q = tx as unknown as Queryable;
      const row = await ownDraft(ctx, q, input.applicationId);
      const resources = row.resources as StoredResource[];
      const week = input.week as Week;
      let parts: Parameters<typeof updateApplicationParts>[2];
      if (input.resourceIds) {
        const known = new Set(resources.map((r) => r.id));
        const unknown = input.resourceIds.map((id, i) => ({ id, i })).filter(({ id }) => !known.has(id));
        if (unknown.length)
          throw badRequest(
            unknown.map(({ id, i }) => ({
              field: `resourceIds.${i}`,
              message: `no resource ${id} on this application (add_resources lists them)`,
            })),
          );
        const chosen = new Set(input.resourceIds);
        parts = { resources: resources.map((r) => (chosen.has(r.id) ? { ...r, week } : r)) };
      } else {
        parts = { businessHours: week, resources: resources.map((r) => ({ ...r, week: null })) };
      }
      const updated = await updateApplicationParts(q, row.id, parts, now);
      await auditChange(ctx, q, 'application.hours', row.id, {
        resourceIds: input.resourceIds ?? null,
        week: weekWords(week),
      });
      return applicationAnswer(ctx, q, updated);
    });
  },
});
