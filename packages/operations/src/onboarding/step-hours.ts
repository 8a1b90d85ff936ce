// setOperatingHours: the business's working week (local wall-clock times in its time zone), for
// every resource or for some. The week's schema and words are in week.ts.
import { updateApplicationParts } from '@nogpets/store';
import { z } from 'zod';
import { auditChange, badRequest, defineOperation } from '../core/index.js';
import { applicationAnswer, inOwnDraft } from './application.js';
import {
  ApplicationIdSchema,
  ApplicationSchema,
  STEP_ERRORS,
  type StoredResource,
} from './application-model.js';
import { type Week, WeekSchema, weekWords } from '../schedule/index.js';

export const setOperatingHours = defineOperation({
  operationId: 'setOperatingHours',
  toolName: 'set_operating_hours',
  title: 'Set the working hours',
  tag: 'Business',
  mcp: 'business',
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
    return inOwnDraft(ctx, input.applicationId, async ({ q, row }) => {
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
