// inviteStaff: the people who will work with the business on the service, by email and/or phone,
// as manager or crew. Invitations are kept on the application and take effect on approval.
import { newId, updateApplicationParts } from '@nogpets/store';
import { z } from 'zod';
import { auditChange, badRequest, defineOperation } from '../core/index.js';
import { applicationAnswer, inOwnDraft } from './application.js';
import {
  ApplicationIdSchema,
  ApplicationSchema,
  STEP_ERRORS,
  type StoredInvite,
  type StoredResource,
} from './application-model.js';
import { checkListSize, listStep } from './list-step.js';
import { PersonShape } from '../staff/index.js';

export const MAX_INVITES = 50;

/** A phone number as compared: its digits, with a leading + kept. */
export const phoneKey = (phone: string) => phone.replace(/[^\d+]/g, '');

const PersonSchema = z
  .object(PersonShape)
  .strict()
  .refine((p) => p.email !== undefined || p.phone !== undefined, {
    message: 'give an email or a phone (or both) to reach the person',
  });

export const inviteStaff = defineOperation({
  operationId: 'inviteStaff',
  toolName: 'invite_staff',
  title: 'Invite staff',
  tag: 'Business',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/applications/:applicationId/staff',
  inputIn: 'body',
  auth: { scope: 'business:write' },
  description:
    'Optional: invites the people who work with the business, each by `email` and/or `phone`, as `manager` ' +
    '(services, resources, manual bookings) or `crew` (sees and works bookings), with a job title and the resources ' +
    'they work. Invitations take effect once the operator approves the business; nobody is contacted before. One ' +
    'with the same email or phone as an earlier one replaces it; `removeIds` removes; `replace: true` starts over. ' +
    'Answers the application with its `checklist` and `next`.',
  input: z
    .object({
      applicationId: ApplicationIdSchema,
      people: z
        .array(PersonSchema)
        .max(MAX_INVITES)
        .optional()
        .meta({ description: 'The people to invite, at most 50.' }),
      removeIds: z
        .array(z.string().min(1).max(128))
        .max(MAX_INVITES)
        .optional()
        .meta({ description: 'Invitations to take back (ids from the earlier answer’s staff).' }),
      replace: z.boolean().optional().meta({ description: 'true: take back every invitation first.' }),
    })
    .strict()
    .meta({
      example: {
        applicationId: 'app_2mphcqg0nb2518jt8bsf',
        people: [{ email: 'thandi@example.com', role: 'crew', jobTitle: 'Groomer' }],
      },
    }),
  output: ApplicationSchema,
  successStatus: 200,
  errors: [
    {
      status: 400,
      description:
        'Invalid input: neither email nor phone, a role other than manager or crew, more than 50 people, a resource ' +
        'or invitation id the application does not have, the same person twice, or nothing to do.',
    },
    ...STEP_ERRORS,
  ],
  events: [],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    return inOwnDraft(ctx, input.applicationId, async ({ q, row }) => {
      const people = input.people ?? [];
      const removeIds = input.removeIds ?? [];
      const before = row.staffInvites as StoredInvite[];
      const resources = new Set((row.resources as StoredResource[]).map((r) => r.id));
      const step = listStep(
        before,
        { items: people, removeIds, replace: !!input.replace },
        {
          field: 'people',
          noun: 'invitation',
          give: 'people, removeIds or replace',
          replaceDoes: 'takes back every invitation',
        },
      );
      const problems = step.problems;
      const same = (
        a: { email?: string | null; phone?: string | null },
        b: { email?: string | null; phone?: string | null },
      ) =>
        (!!a.email && !!b.email && a.email.toLowerCase() === b.email.toLowerCase()) ||
        (!!a.phone && !!b.phone && phoneKey(a.phone) === phoneKey(b.phone));
      people.forEach((p, i) => {
        (p.resourceIds ?? []).forEach((id, j) => {
          if (!resources.has(id))
            problems.push({
              field: `people.${i}.resourceIds.${j}`,
              message: `no resource ${id} on this application (add it with add_resources first)`,
            });
        });
      });
      let list = step.kept;
      // Each person replaces every invitation with their email or phone (one sent with the email
      // of one and the phone of another is both); two people meaning one invitation are refused.
      const matches = people.map((p) => list.filter((b) => same(b, p)).map((b) => b.id));
      people.forEach((p, i) => {
        const twin = people.findIndex(
          (o, j) => j < i && (same(o, p) || matches[j]!.some((id) => matches[i]!.includes(id))),
        );
        if (twin >= 0) problems.push({ field: `people.${i}`, message: `the same person as people.${twin}` });
      });
      if (problems.length) throw badRequest(problems);

      people.forEach((p, i) => {
        const [keep, ...gone] = matches[i]!;
        const item: StoredInvite = {
          id: keep ?? newId('inv'),
          email: p.email ?? null,
          phone: p.phone ?? null,
          role: p.role,
          jobTitle: p.jobTitle ?? null,
          resourceIds: p.resourceIds ?? [],
        };
        list = keep
          ? list.filter((b) => !gone.includes(b.id)).map((b) => (b.id === keep ? item : b))
          : [...list, item];
      });
      checkListSize(list, MAX_INVITES, 'people', 'invitations');
      const updated = await updateApplicationParts(q, row.id, { staffInvites: list }, now);
      await auditChange(ctx, q, 'application.staff', row.id, {
        invited: people.length,
        removed: input.replace ? before.length : removeIds.length,
      });
      return applicationAnswer(ctx, q, updated);
    });
  },
});
