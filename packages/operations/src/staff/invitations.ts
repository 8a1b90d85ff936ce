/**
 * Staff by consent: an invitation to a business's staff is mailed to the address the
 * owner typed and waits for that person, signed in with that address verified, to accept or
 * decline it: on the invitation's page (`/invitations/{id}`) or through their assistant
 * (list_my_invitations, accept_invitation, decline_invitation). Nobody is joined by an approval, by
 * an invitation or by their next Run call. A member may leave a business (leave_business); the last
 * owner cannot.
 */
import {
  acceptInvitation as acceptInvitationRow,
  declineInvitation as declineInvitationRow,
  deleteStaffMember,
  findInvitationForInvitee,
  findStaffMember,
  findUserByEmail,
  findVerifiedEmail,
  type InvitationForInviteeRow,
  insertMail,
  listInvitationsForEmail,
  listResources,
  lockOwners,
  markInvitationSent,
  type Queryable,
  type RunRole,
  transaction,
} from '@nogpets/store';
import { z } from 'zod';
import {
  auditChange,
  confirmStep,
  defineOperation,
  layoutMail,
  momentText,
  type OperationContext,
  type Payments,
  READ_ONLY,
  ServiceError,
  staffParts,
  takeLinkMailAllowance,
} from '../core/index.js';
import { type EventSource, recordEvent, sourceOf } from '../events/index.js';
import { inBusiness, RUN_ACCESS_ERRORS, RunBusinessIdShape } from './access.js';

/** An invitation waits this long after it was (last) sent. */
export const INVITATION_DAYS = 14;

/** Until when an invitation sent at `now` waits. */
export const invitationExpiry = (now: Date) => new Date(now.getTime() + INVITATION_DAYS * 86_400_000);

/** The answers a mail's link may preselect on the invitation's page (the person still presses the button). */
export type InvitationAnswer = 'accept' | 'decline';

/**
 * The page where the invited person accepts or declines; with `answer`, the link of the mail that
 * opens it with that choice shown (opening it changes nothing: mail scanners follow links).
 */
export const invitationUrl = (
  deps: { payments: Pick<Payments, 'publicUrl'> },
  id: string,
  answer?: InvitationAnswer,
) => `${deps.payments.publicUrl()}/invitations/${encodeURIComponent(id)}${answer ? `?answer=${answer}` : ''}`;

/**
 * The outbox kind of an invitation mail: its own, so it is retried with backoff (about a day) and
 * listed for the operator if it fails for good, rather than the sign-in link's 30-minute window.
 */
export const INVITATION_MAIL_KIND = 'staff_invitation';

/** What a role may do, in the words the invited person and the owner read. */
export const ROLE_WORDS: Record<RunRole, string> = {
  owner: 'runs everything, the staff included',
  manager: 'sees and changes bookings, clients, prices, hours, areas and payment links',
  crew: 'sees only their own day',
};

export interface InvitationToMail {
  id: string;
  email: string;
  role: 'manager' | 'crew';
  jobTitle: string | null;
  resourceNames: string[];
  expiresAt: Date;
}

/**
 * Queues the invitation's mail in `q` (the transaction that made or renewed it, so nothing is sent
 * for an invitation that rolled back), notes when it was sent and writes `invitation.sent` from
 * `source`. The worker delivers it. It takes one of the address's link mails for the hour first
 * (the one limit of mails a stranger can make us send an address): over it, 429 `RateLimited` and
 * nothing is queued nor written.
 */
export async function mailInvitation(
  deps: { payments: Pick<Payments, 'publicUrl'> },
  q: Queryable,
  v: InvitationToMail,
  business: { id: string; name: string; timezone: string },
  now: Date,
  source: EventSource,
): Promise<void> {
  await takeLinkMailAllowance(q, v.email, now);
  const mail = invitationMail(deps, v, business);
  await insertMail(
    q,
    { to: v.email, subject: mail.subject, body: mail.text, html: mail.html, kind: INVITATION_MAIL_KIND },
    now,
  );
  await markInvitationSent(q, v.id, now);
  await recordEvent(q, source, {
    type: 'invitation.sent',
    businessId: business.id,
    personId: await verifiedAccountOf(q, v.email),
    subjectId: v.id,
    data: {
      invitationId: v.id,
      businessName: business.name,
      email: v.email,
      role: v.role,
      expiresAt: v.expiresAt.toISOString(),
    },
  });
}

/**
 * The invitation's mail, text and HTML (every value escaped), its time in the business's zone: who
 * invites them as what, until when, and two links, Accept and Decline, each opening the invitation's
 * page with that answer shown for the person to confirm there. It must go: no unsubscribe link.
 */
export function invitationMail(
  deps: { payments: Pick<Payments, 'publicUrl'> },
  v: InvitationToMail,
  business: { name: string; timezone: string },
): { subject: string; text: string; html: string } {
  const what = offeredRole(v, v.resourceNames);
  return layoutMail({
    subject: `${business.name} invites you to its staff on NogPets`,
    heading: `An invitation to the staff of ${business.name}`,
    from: business.name,
    blocks: [
      {
        text: `${business.name} invites you to join its staff on NogPets as ${what}: a ${v.role} ${ROLE_WORDS[v.role]}.`,
      },
      {
        rows: [
          ['Business', business.name],
          ['Role', what],
          ['Sent to', v.email],
          ['Answer by', `${momentText(v.expiresAt, business.timezone)} (${business.timezone} time)`],
        ],
      },
      {
        text:
          `Choose below. Each link opens the invitation's page: sign in there with this address (${v.email}) ` +
          'and press the button to confirm. Opening a link alone changes nothing.',
      },
      { link: { label: 'Accept the invitation', href: invitationUrl(deps, v.id, 'accept') } },
      { link: { label: 'Decline the invitation', href: invitationUrl(deps, v.id, 'decline') } },
      { text: 'If you do not know them, ignore this mail: nothing changes unless you accept.' },
    ],
    footer: [
      `You get this mail because ${business.name} invited ${v.email} to its staff on NogPets.`,
      'It is sent only when a business invites you, so it has no unsubscribe link.',
    ],
  });
}

/** The account that has proven this email, if any: the invited person an event concerns. */
async function verifiedAccountOf(q: Queryable, email: string): Promise<string | null> {
  const account = await findUserByEmail(q, email);
  return account && (await findVerifiedEmail(q, account.id)) ? account.id : null;
}

const InvitationIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'Letters, digits, _ and -, 1 to 128.')
  .meta({
    description: 'From list_my_invitations, or the link in the invitation mail.',
    example: 'binv_2mphcqg0nb2518jt8bsf',
  });

const MyInvitationSchema = z
  .object({
    invitationId: z.string(),
    businessId: z.string(),
    businessName: z.string(),
    role: z.enum(['manager', 'crew']),
    jobTitle: z.string().nullable(),
    resources: z
      .array(z.string())
      .meta({ description: 'Names of the vans, walkers or sitters they would work.' }),
    expiresAt: z.iso.datetime().meta({ description: 'After this it can no longer be accepted.' }),
    url: z.url().meta({ description: 'The page where the person accepts or declines it themselves.' }),
  })
  .meta({ id: 'MyInvitation', description: 'An invitation to a business’s staff waiting for the person.' });

const InvitationAnswerSchema = z
  .object({
    invitationId: z.string(),
    businessId: z.string(),
    businessName: z.string(),
    role: z.enum(['manager', 'crew']),
    status: z.enum(['accepted', 'declined']),
    message: z.string().meta({ description: 'What happened, in words to tell the person.' }),
  })
  .meta({ id: 'InvitationAnswer', description: 'An invitation after the invited person answered it.' });

const INVITEE_ERRORS = [
  { status: 400, description: 'Invalid input.' },
  { status: 401, description: 'No or an invalid credential.' },
  {
    status: 403,
    description:
      'The credential lacks business:manage, or the person’s email is not verified yet (they sign in once with a link mailed to it).',
  },
  { status: 404, description: 'No invitation of that id for the person’s verified email.' },
  {
    status: 409,
    description:
      '`INVITATION_CLOSED` (accepted, declined or expired already: `details.state`; the owner can send it again) or ' +
      '`CONFIRM_REQUIRED` (accept_invitation: show `details.summary`, then send the same input with `confirm: true`).',
  },
  { status: 429, description: 'Too many requests.' },
];

const CHANGE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;

/** The person's verified email; without one no invitation can be theirs (403 saying how to verify it). */
async function verifiedEmailOf(ctx: OperationContext, q: Queryable): Promise<string> {
  const email = await findVerifiedEmail(q, ctx.auth!.userId);
  if (!email)
    throw new ServiceError(
      'FORBIDDEN',
      'Your email is not verified yet, so no invitation can be matched to you: sign in once with a link mailed to ' +
        `your address (${ctx.deps.payments.publicUrl()}/signin/link), then try again.`,
      { reason: 'email_not_verified' },
    );
  return email;
}

/**
 * The invitation `id` if it was sent to the person's verified email, locked; otherwise 404 with the
 * same words as an id that never existed (an invitation to someone else says nothing about them).
 */
async function inviteeInvitation(
  ctx: OperationContext,
  q: Queryable,
  id: string,
): Promise<InvitationForInviteeRow> {
  const email = await verifiedEmailOf(ctx, q);
  const v = await findInvitationForInvitee(q, id, { forUpdate: true });
  if (!v || !v.email || v.email.toLowerCase() !== email.toLowerCase())
    throw new ServiceError(
      'NOT_FOUND',
      `No invitation ${id} for ${email}. list_my_invitations lists the invitations waiting for you.`,
      { invitationId: id },
    );
  return v;
}

/** Refuses an invitation that no longer waits, saying what the person can do. */
function stillWaiting(v: InvitationForInviteeRow, now: Date): void {
  const state = v.acceptedAt ? 'accepted' : v.declinedAt ? 'declined' : v.expiresAt <= now ? 'expired' : null;
  if (!state) return;
  const words = {
    accepted: `You accepted it already: you are on the staff of ${v.businessName} (get_day_plan).`,
    declined: `You declined it. If you changed your mind, ask an owner of ${v.businessName} to invite you again.`,
    expired: `It expired on ${momentText(v.expiresAt, v.businessTimezone)}: ask an owner of ${v.businessName} to send it again.`,
  }[state];
  throw new ServiceError('INVITATION_CLOSED', `The invitation to ${v.businessName} is ${state}. ${words}`, {
    invitationId: v.id,
    state,
  });
}

async function resourceNamesOf(q: Queryable, businessId: string, ids: string[]): Promise<string[]> {
  const names = new Map((await listResources(q, businessId)).map((r) => [r.id, r.name]));
  return ids.filter((id) => names.has(id)).map((id) => names.get(id)!);
}

/** "crew (Groomer) on Van 2": the role offered, for summaries and pages. */
export function offeredRole(v: { role: RunRole; jobTitle: string | null }, resources: string[]): string {
  return `${v.role}${v.jobTitle ? ` (${v.jobTitle})` : ''}${resources.length ? ` on ${resources.join(', ')}` : ''}`;
}

/** The invitations waiting for the signed-in person (their verified email), oldest first. */
export async function invitationsOfPerson(ctx: OperationContext, q: Queryable) {
  const email = await verifiedEmailOf(ctx, q);
  const rows = await listInvitationsForEmail(q, email, ctx.deps.clock.now());
  return Promise.all(
    rows.map(async (v) => ({
      invitationId: v.id,
      businessId: v.businessId,
      businessName: v.businessName,
      role: v.role,
      jobTitle: v.jobTitle,
      resources: await resourceNamesOf(q, v.businessId, v.resourceIds),
      expiresAt: v.expiresAt.toISOString(),
      url: invitationUrl(ctx.deps, v.id),
    })),
  );
}

export const listMyInvitations = defineOperation({
  operationId: 'listMyInvitations',
  toolName: 'list_my_invitations',
  title: 'List invitations to a staff',
  tag: 'Run',
  mcp: 'business',
  method: 'GET',
  path: '/v1/business/invitations',
  inputIn: 'query',
  auth: { scope: 'business:manage' },
  description:
    'The invitations to join a business’s staff that wait for the person (sent to their verified email), with the ' +
    'role offered and until when each waits. The person decides: accept_invitation (after they agree to its summary) ' +
    'or decline_invitation.',
  input: z.object({}).strict(),
  output: z
    .object({
      invitations: z.array(MyInvitationSchema),
      next: z.string().meta({ description: 'What to do now, in words.' }),
    })
    .meta({
      id: 'MyInvitations',
      description: 'The invitations to a business’s staff waiting for the person.',
    }),
  successStatus: 200,
  errors: INVITEE_ERRORS.filter((e) => e.status !== 404 && e.status !== 409),
  annotations: READ_ONLY,
  async handler(ctx) {
    return transaction(ctx.deps.sql, async (q) => {
      const invitations = await invitationsOfPerson(ctx, q);
      return {
        invitations,
        next: invitations.length
          ? 'Tell the person who invites them and as what; accept_invitation once they agree, or decline_invitation.'
          : 'No invitation waits for you. An owner of a business on NogPets invites staff with invite_staff_member.',
      };
    });
  },
});

export const acceptInvitation = defineOperation({
  operationId: 'acceptInvitation',
  confirmKind: 'staff',
  toolName: 'accept_invitation',
  title: 'Accept an invitation to a staff',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/invitations/:invitationId/accept',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Joins the business whose invitation waits for the person (their own credential, their verified email) with the ' +
    'role it offers. First tell the person who invites them, as what, and that the business’s owners and managers ' +
    'will see their name, email and phone; send `confirm: true` only after they agree (otherwise 409 ' +
    'CONFIRM_REQUIRED with `details.summary`, nothing changed).',
  input: z
    .object({
      invitationId: InvitationIdSchema,
      confirm: z.boolean().optional().meta({
        description:
          'true only after the person agreed to the summary; left out or false: 409 CONFIRM_REQUIRED.',
      }),
    })
    .strict()
    .meta({ example: { invitationId: 'binv_2mphcqg0nb2518jt8bsf', confirm: true } }),
  output: InvitationAnswerSchema,
  successStatus: 200,
  errors: INVITEE_ERRORS,
  events: ['invitation.accepted'],
  annotations: CHANGE,
  async handler(ctx, input) {
    return transaction(ctx.deps.sql, async (q) => {
      const now = ctx.deps.clock.now();
      const v = await inviteeInvitation(ctx, q, input.invitationId);
      stillWaiting(v, now);
      const userId = ctx.auth!.userId;
      const resources = await resourceNamesOf(q, v.businessId, v.resourceIds);
      const already = await findStaffMember(q, v.businessId, userId);
      confirmStep(
        ctx,
        input.confirm,
        staffParts(
          `Join the staff of ${v.businessName} as ${offeredRole(v, resources)}: a ${v.role} ${ROLE_WORDS[v.role]}. ` +
            `Its owners and managers will see your name, email and phone. You can leave it later with leave_business.` +
            (already ? ` You are on its staff already as ${already.role}; that stays as it is.` : ''),
        ),
        { details: { invitationId: v.id, businessId: v.businessId, role: v.role } },
      );
      await acceptInvitationRow(q, v.id, userId, now);
      await auditChange(ctx, q, 'business.invitation.accept', v.id, {
        businessId: v.businessId,
        role: v.role,
        alreadyMember: !!already,
      });
      // Someone already on the staff keeps their role: the invitation closes, nobody joined.
      if (!already)
        await recordEvent(q, sourceOf(ctx, 'person'), {
          type: 'invitation.accepted',
          businessId: v.businessId,
          personId: userId,
          subjectId: v.id,
          data: { invitationId: v.id, businessName: v.businessName, role: v.role, userId },
        });
      return {
        invitationId: v.id,
        businessId: v.businessId,
        businessName: v.businessName,
        role: v.role,
        status: 'accepted' as const,
        message: already
          ? `You were on the staff of ${v.businessName} already, as ${already.role}; the invitation is closed.`
          : `You are on the staff of ${v.businessName} now, as ${v.role}. The Run tools (get_day_plan first) work for it` +
            ' (name it with businessId when you are on the staff of several businesses).',
      };
    });
  },
});

export const declineInvitation = defineOperation({
  operationId: 'declineInvitation',
  toolName: 'decline_invitation',
  title: 'Decline an invitation to a staff',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/invitations/:invitationId/decline',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Says no to an invitation that waits for the person: they do not join, and its owners see it declined. Only when ' +
    'the person asked for it.',
  input: z.object({ invitationId: InvitationIdSchema }).strict(),
  output: InvitationAnswerSchema,
  successStatus: 200,
  errors: INVITEE_ERRORS,
  events: [],
  annotations: CHANGE,
  async handler(ctx, input) {
    return transaction(ctx.deps.sql, async (q) => {
      const now = ctx.deps.clock.now();
      const v = await inviteeInvitation(ctx, q, input.invitationId);
      stillWaiting(v, now);
      await declineInvitationRow(q, v.id, now);
      await auditChange(ctx, q, 'business.invitation.decline', v.id, {
        businessId: v.businessId,
        role: v.role,
      });
      return {
        invitationId: v.id,
        businessId: v.businessId,
        businessName: v.businessName,
        role: v.role,
        status: 'declined' as const,
        message: `You declined the invitation to ${v.businessName}; you are not on its staff.`,
      };
    });
  },
});

export const leaveBusiness = defineOperation({
  operationId: 'leaveBusiness',
  confirmKind: 'staff',
  toolName: 'leave_business',
  title: 'Leave a business’s staff',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/leave',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Takes the person off the staff of a business (any role): their Run tools stop working for it at once; its ' +
    'bookings and clients stay. The only owner cannot leave (409 LAST_OWNER: make another member owner first). First ' +
    'tell the person what will happen; send `confirm: true` only after they agree (otherwise 409 CONFIRM_REQUIRED ' +
    'with `details.summary`, nothing changed).',
  input: z
    .object({
      ...RunBusinessIdShape,
      confirm: z.boolean().optional().meta({
        description:
          'true only after the person agreed to the summary; left out or false: 409 CONFIRM_REQUIRED.',
      }),
    })
    .strict()
    .meta({ example: { businessId: 'biz_boland_paws', confirm: true } }),
  output: z
    .object({
      businessId: z.string(),
      businessName: z.string(),
      role: z.enum(['owner', 'manager', 'crew']).meta({ description: 'The role they had.' }),
      message: z.string(),
    })
    .meta({
      id: 'LeftBusiness',
      description: 'The business the person has left, and the role they had there.',
    }),
  successStatus: 200,
  errors: [
    ...RUN_ACCESS_ERRORS,
    {
      status: 409,
      description:
        '`CONFIRM_REQUIRED` (show `details.summary`, then send the same input with `confirm: true`) or `LAST_OWNER` ' +
        '(the only owner cannot leave: make another member owner with change_staff_role first).',
    },
  ],
  events: [],
  annotations: { ...CHANGE, destructiveHint: true },
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'day', async ({ q, access }) => {
      const business = access.business;
      const userId = ctx.auth!.userId;
      // Two owners leaving (or removing each other) at once are serialised here: one always stays.
      const owners = await lockOwners(q, business.id);
      const me = await findStaffMember(q, business.id, userId, { forUpdate: true });
      if (!me)
        throw new ServiceError('NOT_FOUND', `No business ${business.id} of yours.`, {
          businessId: business.id,
        });
      if (me.role === 'owner' && owners.length <= 1)
        throw new ServiceError(
          'LAST_OWNER',
          `You are the only owner of ${business.name}, so you cannot leave it: make another member owner first ` +
            '(change_staff_role with role owner).',
          { businessId: business.id, owners: owners.length },
        );
      confirmStep(
        ctx,
        input.confirm,
        staffParts(
          `Leave the staff of ${business.name}, where you are ${me.role}: your Run tools stop working for it at once. ` +
            'Its bookings and clients stay as they are; to come back, an owner must invite you again.',
        ),
        { details: { businessId: business.id, role: me.role } },
      );
      await deleteStaffMember(q, business.id, userId);
      await auditChange(ctx, q, 'business.staff.leave', userId, { businessId: business.id, role: me.role });
      return {
        businessId: business.id,
        businessName: business.name,
        role: me.role,
        message: `You are no longer on the staff of ${business.name}.`,
      };
    });
  },
});

/** One invitation as its page shows it to the signed-in person; refusals as accept_invitation's. */
export async function invitationForPerson(ctx: OperationContext, id: string) {
  return transaction(ctx.deps.sql, async (q) => {
    const now = ctx.deps.clock.now();
    const v = await inviteeInvitation(ctx, q, id);
    const resources = await resourceNamesOf(q, v.businessId, v.resourceIds);
    const state: 'accepted' | 'declined' | 'expired' | 'waiting' = v.acceptedAt
      ? 'accepted'
      : v.declinedAt
        ? 'declined'
        : v.expiresAt <= now
          ? 'expired'
          : 'waiting';
    return {
      invitationId: v.id,
      businessName: v.businessName,
      offered: offeredRole(v, resources),
      roleWords: `A ${v.role} ${ROLE_WORDS[v.role]}.`,
      until: `${momentText(v.expiresAt, v.businessTimezone)} (${v.businessTimezone} time)`,
      state,
    };
  });
}
