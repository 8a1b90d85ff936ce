/**
 * listStaff / list_staff, inviteStaffMember / invite_staff_member, changeStaffRole /
 * change_staff_role and removeStaffMember / remove_staff_member: the people of a
 * business. Everyone on the staff sees the list (crew only their own entry); only owners change it.
 * A new person is always invited (one path): the invitation is mailed and waits for them to accept
 * it themselves (run/invitations.ts); until then the list shows the email as typed, never
 * an account's name. The last owner is never removed or demoted.
 */
import {
  countPendingInvitations,
  deleteInvitation,
  deleteStaffMember,
  findPendingInvitation,
  findPendingInvitationFor,
  findStaffMember,
  findStaffMemberByEmail,
  insertInvitation,
  listPendingInvitations,
  listResources,
  listStaffMembers,
  lockOwners,
  type Queryable,
  type StaffInvitationRow,
  type StaffMemberRow,
  updateInvitation,
  updateStaffMember,
} from '@nogpets/store';
import { z } from 'zod';
import {
  auditChange,
  badRequest,
  confirmStep,
  defineOperation,
  READ_ONLY,
  ServiceError,
  staffParts,
} from '../core/index.js';
import { PersonShape } from './person.js';
import { sourceOf } from '../events/index.js';
import { inBusiness, RUN_ACCESS_ERRORS, type RunAccess, RunBusinessIdShape } from './access.js';
import { INVITATION_DAYS, invitationExpiry, mailInvitation, ROLE_WORDS } from './invitations.js';

/** How many invitations may wait at one business. */
export const MAX_PENDING_INVITATIONS = 50;

const CONFIRM = z.boolean().optional().meta({
  description: 'true only after the person agreed to the summary; left out or false: 409 CONFIRM_REQUIRED.',
});

const RoleSchema = z.enum(['owner', 'manager', 'crew']).meta({
  description:
    'owner: everything, and the staff; manager: bookings, clients, prices, hours, areas and payment links; crew: ' +
    'their own day (their resources) only.',
});

const StaffResourceSchema = z.object({ resourceId: z.string(), name: z.string() });

const StaffMemberSchema = z
  .object({
    userId: z.string().meta({ description: 'Names them in change_staff_role and remove_staff_member.' }),
    name: z.string().nullable(),
    email: z.string(),
    phone: z.string().nullable(),
    role: RoleSchema,
    jobTitle: z.string().nullable(),
    resources: z
      .array(StaffResourceSchema)
      .meta({ description: 'The vans, walkers or sitters they work; for crew, the only days they see.' }),
    since: z.iso.datetime(),
    you: z.boolean().meta({ description: 'Whether this is the person asking.' }),
  })
  .meta({ id: 'StaffMember', description: 'A person on the staff of the business.' });

const StaffInvitationSchema = z
  .object({
    invitationId: z.string().meta({ description: 'Names it in change_staff_role and remove_staff_member.' }),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    role: z.enum(['manager', 'crew']),
    jobTitle: z.string().nullable(),
    resources: z.array(StaffResourceSchema),
    invitedAt: z.iso.datetime(),
    status: z.enum(['invited', 'expired', 'declined']).meta({
      description:
        'invited: waits for the person to accept; expired or declined: invite them again (invite_staff_member) ' +
        'to send it anew, or withdraw it (remove_staff_member).',
    }),
    expiresAt: z.iso.datetime().meta({ description: 'Until when it can be accepted.' }),
    sentAt: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'When it was last mailed; null for a phone-only invitation.' }),
    waiting: z.string().meta({ description: 'What the invitation waits for, in words.' }),
  })
  .meta({
    id: 'StaffInvitation',
    description:
      'An invitation to the staff not accepted yet: the email or phone as typed, never an account’s name.',
  });

const StaffListSchema = z
  .object({
    businessId: z.string(),
    businessName: z.string(),
    yourRole: RoleSchema,
    members: z
      .array(StaffMemberSchema)
      .meta({ description: 'Owners, then managers, then crew. Crew see only themselves.' }),
    invitations: z
      .array(StaffInvitationSchema)
      .meta({ description: 'Invitations not accepted yet, oldest first (none shown to crew).' }),
  })
  .meta({ id: 'StaffList', description: 'The people of the business and the invitations waiting.' });

const StaffChangeSchema = z
  .object({
    businessId: z.string(),
    member: StaffMemberSchema.nullable().meta({
      description: 'The member as they are now; null for an invitation.',
    }),
    invitation: StaffInvitationSchema.nullable().meta({
      description: 'The invitation as it is now; null for a member.',
    }),
    message: z.string().meta({ description: 'What happened, in words to tell the person.' }),
  })
  .meta({ id: 'StaffChange', description: 'A member or invitation after a staff change.' });

const StaffIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'Letters, digits, _ and -, 1 to 128.')
  .meta({
    description: 'A member’s `userId` or a pending invitation’s `invitationId`, from list_staff.',
    example: 'binv_2mphcqg0nb2518jt8bsf',
  });

const STAFF_CHANGE_ERRORS = [
  ...RUN_ACCESS_ERRORS,
  {
    status: 409,
    description:
      '`CONFIRM_REQUIRED` (show `details.summary`, then send the same input with `confirm: true`), `LAST_OWNER` (the ' +
      'business’s only owner cannot be removed or made manager or crew: make someone else owner first) or ' +
      '`ALREADY_STAFF` (that email is on the staff already: change their role instead).',
  },
];

const STAFF_ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
} as const;

type Resources = Map<string, string>;

async function resourceNames(q: Queryable, businessId: string): Promise<Resources> {
  return new Map((await listResources(q, businessId)).map((r) => [r.id, r.name]));
}

const resourcesOut = (ids: string[], names: Resources) =>
  ids.filter((id) => names.has(id)).map((id) => ({ resourceId: id, name: names.get(id)! }));

function memberOut(m: StaffMemberRow, names: Resources, me: string): z.infer<typeof StaffMemberSchema> {
  return {
    userId: m.userId,
    name: m.name.trim() || null,
    email: m.email,
    phone: m.phone.trim() || null,
    role: m.role,
    jobTitle: m.jobTitle,
    resources: resourcesOut(m.resourceIds, names),
    since: m.since.toISOString(),
    you: m.userId === me,
  };
}

function invitationStatus(v: StaffInvitationRow, now: Date): 'invited' | 'expired' | 'declined' {
  return v.declinedAt ? 'declined' : v.expiresAt <= now ? 'expired' : 'invited';
}

function invitationOut(
  v: StaffInvitationRow,
  names: Resources,
  now: Date,
): z.infer<typeof StaffInvitationSchema> {
  const status = invitationStatus(v, now);
  return {
    invitationId: v.id,
    email: v.email,
    phone: v.phone,
    role: v.role,
    jobTitle: v.jobTitle,
    resources: resourcesOut(v.resourceIds, names),
    invitedAt: v.createdAt.toISOString(),
    status,
    expiresAt: v.expiresAt.toISOString(),
    sentAt: v.sentAt?.toISOString() ?? null,
    waiting: !v.email
      ? `A phone number cannot be verified yet: ask ${v.phone} for an email address and invite that.`
      : status === 'declined'
        ? `${v.email} declined it. Invite them again only if they ask to join.`
        : status === 'expired'
          ? `It expired unanswered: invite ${v.email} again to send it anew.`
          : !v.sentAt
            ? `Not mailed yet (${v.email} had the most mails we send an address in an hour): invite them again later to send it.`
            : `Mailed to ${v.email}; they join once they accept it (on the mailed page, or with accept_invitation).`,
  };
}

/** Who someone is, in a summary: their name and email, or the invitation's address. */
const whoMember = (m: StaffMemberRow) => (m.name.trim() ? `${m.name.trim()} (${m.email})` : m.email);
const whoInvited = (v: StaffInvitationRow) => v.email ?? v.phone ?? v.id;

const onResources = (ids: string[], names: Resources) =>
  ids.length ? ` on ${ids.map((id) => names.get(id) ?? id).join(', ')}` : '';

/** The resources named must be the business's own: 400 naming each other one. */
function checkResources(ids: string[] | undefined, access: RunAccess): void {
  const problems = (ids ?? [])
    .map((id, i) => ({ id, i }))
    .filter(({ id }) => !access.resourceIds.includes(id))
    .map(({ id, i }) => ({
      field: `resourceIds.${i}`,
      message: `${id} is not a resource of ${access.business.name} (see get_day_plan)`,
    }));
  if (problems.length) throw badRequest(problems);
}

const notOnStaff = (staffId: string, businessName: string) =>
  new ServiceError(
    'NOT_FOUND',
    `No one ${staffId} on the staff of ${businessName}, nor a waiting invitation.`,
    {
      staffId,
    },
  );

/**
 * The owners, locked (lockOwners), with the person asking among them: runAccess read their role
 * before the lock, and another owner may have demoted or removed them while they waited for it.
 */
async function lockOwnersAsOwner(q: Queryable, access: RunAccess, me: string): Promise<number> {
  const owners = await lockOwners(q, access.business.id);
  if (!owners.includes(me))
    throw new ServiceError(
      'FORBIDDEN',
      `You are no longer an owner of ${access.business.name}: only owners may manage the staff.`,
      { businessId: access.business.id, allowed: ['owner'] },
    );
  return owners.length;
}

/** Refuses to leave the business without an owner: `owners` is how many lockOwnersAsOwner found. */
function keepAnOwner(owners: number, m: StaffMemberRow, businessName: string, doing: string): void {
  if (m.role === 'owner' && owners <= 1)
    throw new ServiceError(
      'LAST_OWNER',
      `${whoMember(m)} is the only owner of ${businessName}: they cannot be ${doing}. Make another member owner ` +
        'first (change_staff_role with role owner).',
      { userId: m.userId, owners },
    );
}

export const listStaff = defineOperation({
  operationId: 'listStaff',
  toolName: 'list_staff',
  title: 'List the staff',
  tag: 'Run',
  mcp: 'business',
  method: 'GET',
  path: '/v1/business/staff',
  inputIn: 'query',
  auth: { scope: 'business:manage' },
  description:
    'The people of the business: members (name, email, role, job title, the resources they work) and the invitations ' +
    'still waiting. Owners and managers see everyone; crew see only their own entry. Only owners change the staff ' +
    '(invite_staff_member, change_staff_role, remove_staff_member).',
  input: z.object({ ...RunBusinessIdShape }).strict(),
  output: StaffListSchema,
  successStatus: 200,
  errors: RUN_ACCESS_ERRORS,
  annotations: READ_ONLY,
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'day', async ({ q, access }) => {
      const me = ctx.auth!.userId;
      const names = await resourceNames(q, access.business.id);
      const crew = access.role === 'crew';
      const members = (await listStaffMembers(q, access.business.id)).filter((m) => !crew || m.userId === me);
      const invitations = crew ? [] : await listPendingInvitations(q, access.business.id);
      return {
        businessId: access.business.id,
        businessName: access.business.name,
        yourRole: access.role,
        members: members.map((m) => memberOut(m, names, me)),
        invitations: invitations.map((v) => invitationOut(v, names, ctx.deps.clock.now())),
      };
    });
  },
});

export const inviteStaffMember = defineOperation({
  operationId: 'inviteStaffMember',
  confirmKind: 'staff',
  toolName: 'invite_staff_member',
  title: 'Invite a staff member',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/staff',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Invites a person to the staff by `email` (and/or `phone`) as `manager` or `crew`, with a job title and the ' +
    `resources they work (crew see only those days). The invitation is mailed; they join only when they accept it ` +
    `(on the mailed page, or their assistant's accept_invitation) within ${INVITATION_DAYS} days. A phone-only ` +
    'invitation waits for an email (phones are not verified). Inviting the same email again sends it anew (a fresh ' +
    'mail and expiry, also after it expired or was declined). Owners only. First tell the person what will happen; send `confirm: true` only after ' +
    'they agree (otherwise 409 CONFIRM_REQUIRED with `details.summary`, nothing made).',
  input: z
    .object({ ...RunBusinessIdShape, ...PersonShape, confirm: CONFIRM })
    .strict()
    .meta({
      example: {
        email: 'thandi@example.com',
        role: 'crew',
        jobTitle: 'Groomer',
        resourceIds: ['bp-van-2'],
        confirm: true,
      },
    }),
  output: StaffChangeSchema,
  successStatus: 201,
  errors: STAFF_CHANGE_ERRORS,
  events: ['invitation.sent'],
  annotations: STAFF_ANNOTATIONS,
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'staff', async ({ q, access }) => {
      const business = access.business;
      // Still an owner, and one invitation at a time per business (the same email twice at once is one).
      await lockOwnersAsOwner(q, access, ctx.auth!.userId);
      if (input.email === undefined && input.phone === undefined)
        throw badRequest([
          { field: 'email', message: 'give an email or a phone (or both) to reach the person' },
        ]);
      checkResources(input.resourceIds, access);
      const email = input.email ?? null;
      const phone = input.phone ?? null;
      if (email) {
        const member = await findStaffMemberByEmail(q, business.id, email);
        if (member)
          throw new ServiceError(
            'ALREADY_STAFF',
            `${whoMember(member)} is on the staff of ${business.name} already, as ${member.role}: change their role ` +
              'with change_staff_role instead.',
            { userId: member.userId, role: member.role },
          );
      }
      const earlier = await findPendingInvitationFor(q, business.id, { email, phone });
      if (!earlier && (await countPendingInvitations(q, business.id)) >= MAX_PENDING_INVITATIONS)
        throw badRequest([
          {
            field: 'email',
            message: `${business.name} has ${MAX_PENDING_INVITATIONS} invitations waiting, the most there may be: withdraw one with remove_staff_member`,
          },
        ]);
      const names = await resourceNames(q, business.id);
      const fields = {
        role: input.role,
        jobTitle: input.jobTitle ?? null,
        resourceIds: input.resourceIds ?? [],
      };
      const to = email ?? phone!;
      confirmStep(
        ctx,
        input.confirm,
        staffParts(
          `${earlier ? 'Invite again' : 'Invite'} ${to} to ${business.name} as ${input.role}` +
            `${fields.jobTitle ? ` (${fields.jobTitle})` : ''}${onResources(fields.resourceIds, names)}: ` +
            `a ${input.role} ${ROLE_WORDS[input.role]}. ` +
            (email
              ? `An invitation is mailed to ${email}; they join only if they accept it within ${INVITATION_DAYS} days.`
              : 'A phone number cannot be verified yet, so the invitation waits until it is given an email.') +
            (earlier ? ' This replaces the invitation sent to them before.' : ''),
        ),
        { details: { to, role: input.role } },
      );
      const now = ctx.deps.clock.now();
      const expiresAt = invitationExpiry(now);
      let row: StaffInvitationRow;
      if (earlier) {
        await updateInvitation(q, business.id, earlier.id, {
          ...fields,
          email,
          phone,
          renewUntil: expiresAt,
        });
        row = {
          ...earlier,
          ...fields,
          email: email ?? earlier.email,
          phone: phone ?? earlier.phone,
          expiresAt,
          declinedAt: null,
        };
      } else {
        row = await insertInvitation(q, business.id, { email, phone, ...fields }, now, expiresAt);
      }
      if (row.email) {
        await mailInvitation(
          ctx.deps,
          q,
          { ...row, email: row.email, resourceNames: fields.resourceIds.map((id) => names.get(id) ?? id) },
          business,
          now,
          sourceOf(ctx, 'staff'),
        );
        row = { ...row, sentAt: now };
      }
      await auditChange(ctx, q, 'business.staff.invite', row.id, {
        businessId: business.id,
        email,
        phone,
        ...fields,
        replaced: !!earlier,
      });
      return {
        businessId: business.id,
        member: null,
        invitation: invitationOut(row, names, now),
        message: row.email
          ? `An invitation to join as ${input.role} is mailed to ${row.email}; they join once they accept it.`
          : `${to} is invited as ${input.role}. ${invitationOut(row, names, now).waiting}`,
      };
    });
  },
});

export const changeStaffRole = defineOperation({
  operationId: 'changeStaffRole',
  confirmKind: 'staff',
  toolName: 'change_staff_role',
  title: "Change a staff member's role",
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/staff/:staffId/role',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Changes a member’s (or a waiting invitation’s) role, and optionally their job title and resources (crew see only ' +
    'the days of their resources). `role: owner` makes a member a co-owner; the only owner cannot be made manager or ' +
    'crew (409 LAST_OWNER). Owners only. First tell the person what will change; send `confirm: true` only after they ' +
    'agree (otherwise 409 CONFIRM_REQUIRED with `details.summary`, nothing changed).',
  input: z
    .object({
      ...RunBusinessIdShape,
      staffId: StaffIdSchema,
      role: RoleSchema,
      jobTitle: z
        .string()
        .trim()
        .min(1)
        .max(80)
        .nullable()
        .optional()
        .meta({ description: 'A new job title; null clears it; left out keeps it.' }),
      resourceIds: PersonShape.resourceIds.meta({
        description: 'The resources they work, replacing the ones they have; left out keeps them.',
      }),
      confirm: CONFIRM,
    })
    .strict()
    .meta({ example: { staffId: 'usr_2mphcqg0nb2518jt8bsf', role: 'manager', confirm: true } }),
  output: StaffChangeSchema,
  successStatus: 200,
  errors: STAFF_CHANGE_ERRORS,
  events: [],
  annotations: STAFF_ANNOTATIONS,
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'staff', async ({ q, access }) => {
      const business = access.business;
      checkResources(input.resourceIds, access);
      const names = await resourceNames(q, business.id);
      const me = ctx.auth!.userId;
      const owners = await lockOwnersAsOwner(q, access, me);
      const member = await findStaffMember(q, business.id, input.staffId, { forUpdate: true });
      const invitation = member ? null : await findPendingInvitation(q, business.id, input.staffId);
      if (!member && !invitation) throw notOnStaff(input.staffId, business.name);
      const before = (member ?? invitation)!;
      const after = {
        role: input.role,
        jobTitle: input.jobTitle === undefined ? before.jobTitle : input.jobTitle,
        resourceIds: input.resourceIds ?? before.resourceIds,
      };
      const who = member ? whoMember(member) : `the invitation to ${whoInvited(invitation!)}`;
      const same =
        before.role === after.role &&
        before.jobTitle === after.jobTitle &&
        before.resourceIds.join() === after.resourceIds.join();
      if (invitation && input.role === 'owner')
        throw badRequest([
          {
            field: 'role',
            message: 'an invitation is for manager or crew: make them owner once they are a member',
          },
        ]);
      if (member && input.role !== 'owner') keepAnOwner(owners, member, business.name, `made ${input.role}`);
      if (!same) {
        confirmStep(
          ctx,
          input.confirm,
          staffParts(
            `Make ${who} at ${business.name} ${after.role}` +
              `${after.jobTitle ? ` (${after.jobTitle})` : ''}${onResources(after.resourceIds, names)}` +
              `${before.role !== after.role ? `, instead of ${before.role}` : ''}: a ${after.role} ${ROLE_WORDS[after.role]}.`,
          ),
          { details: { staffId: input.staffId, role: after.role, before: before.role } },
        );
        if (member) await updateStaffMember(q, business.id, member.userId, after);
        else
          await updateInvitation(q, business.id, invitation!.id, {
            ...after,
            role: after.role as 'manager' | 'crew',
          });
        await auditChange(ctx, q, 'business.staff.role', input.staffId, {
          businessId: business.id,
          before: { role: before.role, jobTitle: before.jobTitle, resourceIds: before.resourceIds },
          after,
        });
      }
      const nowMember = member ? await findStaffMember(q, business.id, member.userId) : null;
      const nowInvitation = invitation ? await findPendingInvitation(q, business.id, invitation.id) : null;
      return {
        businessId: business.id,
        member: nowMember ? memberOut(nowMember, names, me) : null,
        invitation: nowInvitation ? invitationOut(nowInvitation, names, ctx.deps.clock.now()) : null,
        message: same
          ? `Nothing to change: ${who} is ${before.role} already.`
          : `${who} is now ${after.role}.`,
      };
    });
  },
});

export const removeStaffMember = defineOperation({
  operationId: 'removeStaffMember',
  confirmKind: 'staff',
  toolName: 'remove_staff_member',
  title: 'Remove a staff member',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/staff/:staffId/remove',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Takes a member off the staff (their Run tools stop working for this business at once; their bookings stay), or ' +
    'withdraws a waiting invitation. The only owner cannot be removed (409 LAST_OWNER). Owners only. First tell the ' +
    'person what will happen; send `confirm: true` only after they agree (otherwise 409 CONFIRM_REQUIRED with ' +
    '`details.summary`, nothing changed).',
  input: z
    .object({ ...RunBusinessIdShape, staffId: StaffIdSchema, confirm: CONFIRM })
    .strict()
    .meta({ example: { staffId: 'usr_2mphcqg0nb2518jt8bsf', confirm: true } }),
  output: StaffChangeSchema,
  successStatus: 200,
  errors: STAFF_CHANGE_ERRORS,
  events: [],
  annotations: STAFF_ANNOTATIONS,
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'staff', async ({ q, access }) => {
      const business = access.business;
      const names = await resourceNames(q, business.id);
      const me = ctx.auth!.userId;
      const owners = await lockOwnersAsOwner(q, access, me);
      const member = await findStaffMember(q, business.id, input.staffId, { forUpdate: true });
      const invitation = member ? null : await findPendingInvitation(q, business.id, input.staffId);
      if (!member && !invitation) throw notOnStaff(input.staffId, business.name);
      if (member) {
        keepAnOwner(owners, member, business.name, 'removed');
        confirmStep(
          ctx,
          input.confirm,
          staffParts(
            `Remove ${whoMember(member)}${member.userId === me ? ' (you)' : ''}, ${member.role}, from the staff of ` +
              `${business.name}: their Run tools stop working for it at once. Bookings and clients stay as they are.`,
          ),
          { details: { staffId: member.userId, role: member.role } },
        );
        await deleteStaffMember(q, business.id, member.userId);
        await auditChange(ctx, q, 'business.staff.remove', member.userId, {
          businessId: business.id,
          email: member.email,
          role: member.role,
        });
        return {
          businessId: business.id,
          member: memberOut(member, names, me),
          invitation: null,
          message: `${whoMember(member)} is no longer on the staff of ${business.name}.`,
        };
      }
      const v = invitation!;
      confirmStep(
        ctx,
        input.confirm,
        staffParts(
          `Withdraw the invitation to ${whoInvited(v)} (${v.role}) at ${business.name}: they will not get in.`,
        ),
        { details: { staffId: v.id, role: v.role } },
      );
      await deleteInvitation(q, business.id, v.id);
      await auditChange(ctx, q, 'business.staff.withdraw', v.id, { businessId: business.id, email: v.email });
      return {
        businessId: business.id,
        member: null,
        invitation: invitationOut(v, names, ctx.deps.clock.now()),
        message: `The invitation to ${whoInvited(v)} is withdrawn.`,
      };
    });
  },
});
