/**
 * Who may run which business: the one rule every Run operation asks. Owners and
 * managers read and change their business; crew read only their own day (their resources); a
 * business the person is not on the staff of does not exist for them.
 */
import {
  type BusinessRow,
  findVerifiedEmail,
  listInvitationsForEmail,
  listMemberships,
  listResources,
  type MembershipRow,
  type Queryable,
  type RunRole,
  transaction,
} from '@nogpets/store';
import { z } from 'zod';
import { type OperationContext, ServiceError } from '../core/index.js';

/** What a Run operation needs: a day's jobs (crew: their own), to read, to change, or to manage the staff. */
export type RunNeed = 'day' | 'read' | 'change' | 'staff';

export interface RunAccess {
  business: BusinessRow;
  role: RunRole;
  /** The resources the person may see: crew their own, owners and managers every one of the business. */
  resourceIds: string[];
  /** Crew are held to `resourceIds`; owners and managers are not (null: all, including resources added later). */
  onlyResources: string[] | null;
}

const ALLOWED: Record<RunNeed, readonly RunRole[]> = {
  day: ['owner', 'manager', 'crew'],
  read: ['owner', 'manager'],
  change: ['owner', 'manager'],
  staff: ['owner'],
};

const NEED_WORDS: Record<RunNeed, string> = {
  day: 'see the day plan',
  read: "see the business's bookings and clients",
  change: 'change bookings, clients or prices',
  staff: 'manage the staff',
};

/** The `businessId` every Run operation takes. */
export const RunBusinessIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'Letters, digits, _ and -, 1 to 128.')
  .meta({
    description:
      'The business to run. Leave it out when the person is on the staff of one business; with several, the 400 ' +
      'lists them (id and name): ask which.',
    example: 'biz_boland_paws',
  });

export const RunBusinessIdShape = { businessId: RunBusinessIdSchema.optional() };

/** The errors every Run operation may answer about who is asking. */
export const RUN_ACCESS_ERRORS = [
  {
    status: 400,
    description:
      'Invalid input, or no `businessId` from a person on the staff of several businesses (they are listed).',
  },
  { status: 401, description: 'No or an invalid credential.' },
  {
    status: 403,
    description:
      'The credential lacks business:manage, the person is on no business’s staff, or their role does not allow this.',
  },
  { status: 404, description: 'No business of that id that the person is on the staff of.' },
  { status: 429, description: 'Too many requests.' },
];

function notYours(businessId: string): ServiceError {
  return new ServiceError('NOT_FOUND', `No business ${businessId} of yours.`, { businessId });
}

/**
 * Decides whether the credential's person may do `need` at `businessId` (default: their only
 * business). Membership comes only from an accepted invitation: an invitation waiting
 * for the person's email is never taken up here, only named in the refusal. Throws 403 (on no staff, or the role does not allow it),
 * 404 (not a member: the same words as a business that does not exist) or 400 (several businesses
 * and none named).
 */
export async function runAccess(
  ctx: OperationContext,
  q: Queryable,
  businessId: string | undefined,
  need: RunNeed,
): Promise<RunAccess> {
  const userId = ctx.auth!.userId;
  const memberships = await listMemberships(q, userId);
  if (!memberships.length) {
    // Whatever businessId was sent: no business is theirs, and saying so tells nothing of others.
    const email = await findVerifiedEmail(q, userId);
    const waiting = email ? await listInvitationsForEmail(q, email, ctx.deps.clock.now()) : [];
    throw new ServiceError(
      'FORBIDDEN',
      waiting.length
        ? `You are not on the staff of any business on NogPets yet, but ${waiting.length === 1 ? 'an invitation waits' : `${waiting.length} invitations wait`} for you ` +
            `(${waiting.map((v) => v.businessName).join(', ')}): list_my_invitations shows them; accept_invitation once you agree.`
        : 'You are not on the staff of any business on NogPets. An approved business’s owner invites staff (the ' +
            'invited person accepts with accept_invitation or on the mailed page); a new business signs up with ' +
            'start_business_signup.',
      {
        reason: 'no_business',
        invitations: waiting.map((v) => ({ invitationId: v.id, businessName: v.businessName })),
      },
    );
  }
  let membership: MembershipRow | undefined;
  if (businessId) {
    membership = memberships.find((m) => m.business.id === businessId);
    if (!membership) throw notYours(businessId);
  } else if (memberships.length === 1) {
    membership = memberships[0]!;
  } else {
    throw new ServiceError(
      'BAD_REQUEST',
      `You are on the staff of ${memberships.length} businesses: say which with businessId.`,
      {
        fields: [{ field: 'businessId', message: 'Required: you are on the staff of several businesses.' }],
        businesses: memberships.map((m) => ({
          businessId: m.business.id,
          name: m.business.name,
          role: m.role,
        })),
      },
    );
  }
  if (!ALLOWED[need].includes(membership.role)) {
    const mayDo = membership.role === 'crew' ? ' Crew see their own day with get_day_plan.' : '';
    throw new ServiceError(
      'FORBIDDEN',
      `As ${membership.role} at ${membership.business.name} you may not ${NEED_WORDS[need]}: only ${ALLOWED[need].join(' or ')} may.${mayDo}`,
      { businessId: membership.business.id, role: membership.role, allowed: ALLOWED[need] },
    );
  }
  const onlyResources = membership.role === 'crew' ? membership.resourceIds : null;
  const resourceIds = onlyResources ?? (await listResources(q, membership.business.id)).map((r) => r.id);
  return { business: membership.business, role: membership.role, resourceIds, onlyResources };
}

/** What the body of a Run operation is handed: the call's transaction, and who may do what there. */
export interface InBusiness {
  q: Queryable;
  access: RunAccess;
}

/**
 * The one opening of a Run operation: in one transaction (`transaction`), whether the
 * credential's person may do `need` at `businessId` (runAccess), then `body` with that same
 * transaction and access. A refusal or any other throw rolls the transaction back and passes on
 * unchanged. Checks of the input that come before access stay before the call.
 */
export async function inBusiness<T>(
  ctx: OperationContext,
  businessId: string | undefined,
  need: RunNeed,
  body: (run: InBusiness) => Promise<T>,
): Promise<T> {
  return transaction(ctx.deps.sql, async (q) => {
    const access = await runAccess(ctx, q, businessId, need);
    return body({ q, access });
  });
}

/**
 * The businesses the person may change (owner or manager), in the order they joined them: the
 * pages that list a business's settings (its notifications) offer these and no other.
 */
export async function managedBusinessesOf(
  ctx: OperationContext,
): Promise<{ businessId: string; name: string; role: 'owner' | 'manager' }[]> {
  const memberships = await listMemberships(ctx.deps.sql, ctx.auth!.userId);
  return memberships
    .filter((m) => ALLOWED.change.includes(m.role))
    .map((m) => ({ businessId: m.business.id, name: m.business.name, role: m.role as 'owner' | 'manager' }));
}
