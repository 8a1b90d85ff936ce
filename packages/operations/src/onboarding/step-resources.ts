// addResources: the vans (or salon tables), walkers and sitters who do the work, each with its own
// week or the business hours, its slot step and travel buffer.
import { newId, updateApplicationParts } from '@nogpets/store';
import { z } from 'zod';
import { auditChange, badRequest, defineOperation } from '../core/index.js';
import { applicationAnswer, inOwnDraft, placeByIdOrName } from './application.js';
import {
  ApplicationIdSchema,
  ApplicationSchema,
  STEP_ERRORS,
  type StoredInvite,
  type StoredResource,
} from './application-model.js';
import { checkListSize, listStep } from './list-step.js';
import { type Week, WeekSchema } from '../schedule/index.js';

export const MAX_RESOURCES = 100;
export const DEFAULT_SLOT_STEP_MIN = 30;
export const DEFAULT_VAN_BUFFER_MIN = 15;

const ResourceInputSchema = z
  .object({
    id: z.string().min(1).max(128).optional().meta({ description: 'To change a resource added before.' }),
    kind: z.enum(['VAN', 'WALKER', 'SITTER']).meta({
      description: 'VAN for grooming (a salon table is one too), WALKER for walks, SITTER for sitting.',
    }),
    name: z.string().trim().min(1).max(80).meta({ example: 'Van 1 (Lerato)' }),
    week: WeekSchema.optional().meta({
      description: 'Its own working week; left out, it works the business hours (set_operating_hours).',
    }),
    slotStepMin: z
      .int()
      .min(5)
      .max(240)
      .optional()
      .meta({ description: 'Minutes between possible start times; default 30.' }),
    travelBufferMin: z.int().min(0).max(240).optional().meta({
      description: 'Minutes kept clear before and after each booking; default 15 for vans, none otherwise.',
    }),
  })
  .strict();

export const addResources = defineOperation({
  operationId: 'addResources',
  toolName: 'add_resources',
  title: 'Add vans, walkers and sitters',
  tag: 'Business',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/applications/:applicationId/resources',
  inputIn: 'body',
  auth: { scope: 'business:write' },
  description:
    'Adds who does the work: a VAN for grooming (a salon table is a VAN too), a WALKER for walks, a SITTER for ' +
    'sitting; every line the business offers needs at least one. Ask the person for a name for each (a van and its ' +
    'groomer, a walker’s name). A resource without a `week` works the business hours (set_operating_hours). One sent ' +
    'with an existing `id` or the same name replaces it; `removeIds` removes; `replace: true` starts over. Answers ' +
    'the application with its `checklist` and `next`.',
  input: z
    .object({
      applicationId: ApplicationIdSchema,
      resources: z.array(ResourceInputSchema).max(MAX_RESOURCES).optional(),
      removeIds: z.array(z.string().min(1).max(128)).max(MAX_RESOURCES).optional(),
      replace: z
        .boolean()
        .optional()
        .meta({ description: 'true: remove every resource first, then add these.' }),
    })
    .strict()
    .meta({
      example: {
        applicationId: 'app_2mphcqg0nb2518jt8bsf',
        resources: [{ kind: 'VAN', name: 'Van 1 (Lerato)' }],
      },
    }),
  output: ApplicationSchema,
  successStatus: 200,
  errors: [
    {
      status: 400,
      description:
        'Invalid input: a bound passed (at most 100 resources, names 1 to 80 characters, a step of 5 to 240 minutes, ' +
        'a buffer of 0 to 240), a week not as set_operating_hours takes it, an id the application does not have, the ' +
        'same resource twice, `removeIds` with `replace`, or nothing to do.',
    },
    ...STEP_ERRORS,
  ],
  events: [],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    return inOwnDraft(ctx, input.applicationId, async ({ q, row }) => {
      const given = input.resources ?? [];
      const removeIds = input.removeIds ?? [];
      const before = row.resources as StoredResource[];
      const { kept, problems } = listStep(
        before,
        { items: given, removeIds, replace: !!input.replace },
        {
          field: 'resources',
          noun: 'resource',
          give: 'resources, removeIds or replace',
          replaceDoes: 'removes every resource',
        },
      );
      // By id, else by name; with replace, a name of before keeps its id (invitations may name it).
      const placed = placeByIdOrName(
        kept,
        before,
        given,
        (i, id): StoredResource => {
          const r = given[i]!;
          return {
            id,
            kind: r.kind,
            name: r.name,
            week: (r.week as Week | undefined) ?? null,
            slotStepMin: r.slotStepMin ?? DEFAULT_SLOT_STEP_MIN,
            travelBufferMin: r.travelBufferMin ?? (r.kind === 'VAN' ? DEFAULT_VAN_BUFFER_MIN : null),
          };
        },
        { field: 'resources', noun: 'resource', replace: !!input.replace, newId: () => newId('res') },
      );
      problems.push(...placed.problems);
      if (problems.length) throw badRequest(problems);
      const list = placed.list;
      checkListSize(list, MAX_RESOURCES, 'resources', 'resources');
      // Invitations keep only the resources that are still there.
      const ids = new Set(list.map((r) => r.id));
      const invites = (row.staffInvites as StoredInvite[]).map((inv) => ({
        ...inv,
        resourceIds: (inv.resourceIds ?? []).filter((id) => ids.has(id)),
      }));
      const updated = await updateApplicationParts(
        q,
        row.id,
        { resources: list, staffInvites: invites },
        now,
      );
      await auditChange(ctx, q, 'application.resources', row.id, {
        added: given.map((r) => r.name),
        removed: input.replace ? before.map((r) => r.id) : removeIds,
      });
      return applicationAnswer(ctx, q, updated);
    });
  },
});
