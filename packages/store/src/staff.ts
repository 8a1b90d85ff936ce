// The people of a business as its owner manages them: members, pending invitations,
// role changes and removals; and the service areas a running business proposes to the operator.
import { newId } from './ids.js';
import type { RunRole } from './run.js';
import type { Queryable } from './sql.js';
import type { AreaKind } from './types.js';

export interface StaffMemberRow {
  userId: string;
  name: string;
  email: string;
  phone: string;
  role: RunRole;
  jobTitle: string | null;
  resourceIds: string[];
  since: Date;
}

export interface StaffInvitationRow {
  id: string;
  email: string | null;
  phone: string | null;
  role: 'manager' | 'crew';
  jobTitle: string | null;
  resourceIds: string[];
  createdAt: Date;
  /** After this it can no longer be accepted (14 days after it was last sent). */
  expiresAt: Date;
  /** When the invited person said no; null while it waits. */
  declinedAt: Date | null;
  /** When it was last mailed; null for a phone-only invitation (nothing to mail to). */
  sentAt: Date | null;
}

const MEMBER_SELECT = `
  select m.user_id as "userId", u.name, u.email, u.phone, m.role, m.job_title as "jobTitle",
    m.resource_ids as "resourceIds", m.created_at as since
  from business_members m join users u on u.id = m.user_id`;

/** The members of a business: owners, then managers, then crew, each by name and email. */
export async function listStaffMembers(sql: Queryable, businessId: string): Promise<StaffMemberRow[]> {
  return sql<StaffMemberRow[]>`
    ${sql.unsafe(MEMBER_SELECT)}
    where m.business_id = ${businessId}
    order by array_position(array['owner', 'manager', 'crew'], m.role), lower(u.name), lower(u.email), m.user_id`;
}

/** One member of a business, or null; `forUpdate` locks the membership row. */
export async function findStaffMember(
  sql: Queryable,
  businessId: string,
  userId: string,
  options: { forUpdate?: boolean } = {},
): Promise<StaffMemberRow | null> {
  const [row] = await sql<StaffMemberRow[]>`
    ${sql.unsafe(MEMBER_SELECT)}
    where m.business_id = ${businessId} and m.user_id = ${userId}
    ${options.forUpdate ? sql`for update of m` : sql``}`;
  return row ?? null;
}

/**
 * Locks every owner row of the business and answers the owners' user ids: two owners demoting or
 * removing each other at once are serialised here, so one owner always stays, and an owner
 * demoted or removed while waiting here is no longer among them.
 */
export async function lockOwners(sql: Queryable, businessId: string): Promise<string[]> {
  const rows = await sql<{ userId: string }[]>`
    select user_id as "userId" from business_members where business_id = ${businessId} and role = 'owner'
    order by user_id for update`;
  return rows.map((r) => r.userId);
}

/** A member's new role, job title and resources. */
export async function updateStaffMember(
  sql: Queryable,
  businessId: string,
  userId: string,
  change: { role: RunRole; jobTitle: string | null; resourceIds: string[] },
): Promise<void> {
  await sql`
    update business_members set role = ${change.role}, job_title = ${change.jobTitle},
      resource_ids = ${change.resourceIds}
    where business_id = ${businessId} and user_id = ${userId}`;
}

/**
 * Takes a person off the staff, with the invitations to their email still waiting at this
 * business (else their next Run call would let them in again). True when they were a member.
 */
export async function deleteStaffMember(
  sql: Queryable,
  businessId: string,
  userId: string,
): Promise<boolean> {
  const rows = await sql`
    delete from business_members where business_id = ${businessId} and user_id = ${userId} returning user_id`;
  await sql`
    delete from business_invitations i using users u
    where i.business_id = ${businessId} and i.accepted_at is null and u.id = ${userId}
      and i.email is not null and lower(i.email) = lower(u.email)`;
  return rows.length > 0;
}

/** An invitation's columns as StaffInvitationRow names them, of the table aliased `t` when given. */
const invitationColumns = (t = '') => {
  const c = t ? `${t}.` : '';
  return `${c}id, ${c}email, ${c}phone, ${c}role, ${c}job_title as "jobTitle", ${c}resource_ids as "resourceIds",
    ${c}created_at as "createdAt", ${c}expires_at as "expiresAt", ${c}declined_at as "declinedAt", ${c}sent_at as "sentAt"`;
};
const INVITATION_COLUMNS = invitationColumns();
const INVITATION_SELECT = `select ${INVITATION_COLUMNS} from business_invitations`;

/** The invitations of a business not yet accepted (waiting, expired or declined), oldest first. */
export async function listPendingInvitations(
  sql: Queryable,
  businessId: string,
): Promise<StaffInvitationRow[]> {
  return sql<StaffInvitationRow[]>`
    ${sql.unsafe(INVITATION_SELECT)}
    where business_id = ${businessId} and accepted_at is null
    order by created_at, id`;
}

/** A pending invitation of this business by id, locked; null when none (or accepted already). */
export async function findPendingInvitation(
  sql: Queryable,
  businessId: string,
  id: string,
): Promise<StaffInvitationRow | null> {
  const [row] = await sql<StaffInvitationRow[]>`
    ${sql.unsafe(INVITATION_SELECT)}
    where business_id = ${businessId} and id = ${id} and accepted_at is null
    for update`;
  return row ?? null;
}

/**
 * The pending invitation of this business for this email (any case), else a phone-only one for
 * this phone (digits compared: the invitation that waits for an email is given it), locked; null
 * when none.
 */
export async function findPendingInvitationFor(
  sql: Queryable,
  businessId: string,
  to: { email: string | null; phone: string | null },
): Promise<StaffInvitationRow | null> {
  // Never true when not given, but naming a column: ORDER BY refuses a bare constant.
  const byEmail = to.email
    ? sql`(email is not null and lower(email) = lower(${to.email}))`
    : sql`(false and email is null)`;
  const byPhone = to.phone
    ? sql`(email is null and regexp_replace(phone, '[^0-9+]', '', 'g') = regexp_replace(${to.phone}, '[^0-9+]', '', 'g'))`
    : sql`(false and email is null)`;
  const [row] = await sql<StaffInvitationRow[]>`
    ${sql.unsafe(INVITATION_SELECT)}
    where business_id = ${businessId} and accepted_at is null and (${byEmail} or ${byPhone})
    order by ${byEmail} desc, created_at, id limit 1
    for update`;
  return row ?? null;
}

/** The member of this business whose account has this email (any case), or null. */
export async function findStaffMemberByEmail(
  sql: Queryable,
  businessId: string,
  email: string,
): Promise<StaffMemberRow | null> {
  const [row] = await sql<StaffMemberRow[]>`
    ${sql.unsafe(MEMBER_SELECT)}
    where m.business_id = ${businessId} and lower(u.email) = lower(${email})`;
  return row ?? null;
}

/** How many invitations of the business are waiting. */
export async function countPendingInvitations(sql: Queryable, businessId: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from business_invitations where business_id = ${businessId} and accepted_at is null`;
  return row!.n;
}

/** A new invitation, waiting for the invited person to accept or decline it until `expiresAt`. */
export async function insertInvitation(
  sql: Queryable,
  businessId: string,
  v: {
    email: string | null;
    phone: string | null;
    role: 'manager' | 'crew';
    jobTitle: string | null;
    resourceIds: string[];
  },
  now: Date,
  expiresAt: Date,
): Promise<StaffInvitationRow> {
  const [row] = await sql<StaffInvitationRow[]>`
    insert into business_invitations (id, business_id, email, phone, role, job_title, resource_ids, created_at, expires_at)
    values (${newId('binv')}, ${businessId}, ${v.email}, ${v.phone}, ${v.role}, ${v.jobTitle}, ${v.resourceIds}, ${now}, ${expiresAt})
    returning ${sql.unsafe(INVITATION_COLUMNS)}`;
  return row!;
}

/** A pending invitation's role, job title and resources, and its email or phone when given (else kept). */
export async function updateInvitation(
  sql: Queryable,
  businessId: string,
  id: string,
  change: {
    role: 'manager' | 'crew';
    jobTitle: string | null;
    resourceIds: string[];
    email?: string | null;
    phone?: string | null;
    /** Sent again: it waits anew until this (an earlier no is forgotten). */
    renewUntil?: Date;
  },
): Promise<void> {
  const renew = change.renewUntil ?? null;
  await sql`
    update business_invitations set role = ${change.role}, job_title = ${change.jobTitle},
      resource_ids = ${change.resourceIds}, email = coalesce(${change.email ?? null}, email),
      phone = coalesce(${change.phone ?? null}, phone),
      expires_at = coalesce(${renew}, expires_at),
      declined_at = case when ${renew}::timestamptz is null then declined_at end
    where business_id = ${businessId} and id = ${id} and accepted_at is null`;
}

/** The invitation was mailed (again) at `now`. */
export async function markInvitationSent(sql: Queryable, id: string, now: Date): Promise<void> {
  await sql`update business_invitations set sent_at = ${now} where id = ${id}`;
}

/** An invitation as the invited person sees it: which business, what role, and its state. */
export interface InvitationForInviteeRow extends StaffInvitationRow {
  businessId: string;
  businessName: string;
  businessTimezone: string;
  acceptedAt: Date | null;
}

/** One invitation by id with its business's name, locked when `forUpdate`; null when none. */
export async function findInvitationForInvitee(
  sql: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<InvitationForInviteeRow | null> {
  const [row] = await sql<InvitationForInviteeRow[]>`
    select ${sql.unsafe(invitationColumns('i'))},
      i.business_id as "businessId", b.name as "businessName", b.timezone as "businessTimezone",
      i.accepted_at as "acceptedAt"
    from business_invitations i join businesses b on b.id = i.business_id
    where i.id = ${id}
    ${options.forUpdate ? sql`for update of i` : sql``}`;
  return row ?? null;
}

/** The invitations waiting for an email address (not accepted, declined or expired), oldest first. */
export async function listInvitationsForEmail(
  sql: Queryable,
  email: string,
  now: Date,
): Promise<InvitationForInviteeRow[]> {
  return sql<InvitationForInviteeRow[]>`
    select ${sql.unsafe(invitationColumns('i'))},
      i.business_id as "businessId", b.name as "businessName", b.timezone as "businessTimezone",
      i.accepted_at as "acceptedAt"
    from business_invitations i join businesses b on b.id = i.business_id
    where i.email is not null and lower(i.email) = lower(${email}) and i.accepted_at is null
      and i.declined_at is null and i.expires_at > ${now}
    order by i.created_at, i.id`;
}

/**
 * Accepts a waiting invitation for this person: it is marked accepted and they join the business
 * with its role, job title and resources (a membership they already have is kept as it is). False
 * when it was not waiting any more.
 */
export async function acceptInvitation(
  sql: Queryable,
  id: string,
  userId: string,
  now: Date,
): Promise<boolean> {
  const rows = await sql`
    with taken as (
      update business_invitations set accepted_at = ${now}
      where id = ${id} and accepted_at is null and declined_at is null and expires_at > ${now}
      returning business_id, role, job_title, resource_ids),
    joined as (
      insert into business_members (business_id, user_id, role, job_title, resource_ids, created_at)
      select business_id, ${userId}, role, job_title, resource_ids, ${now} from taken
      on conflict (business_id, user_id) do nothing)
    select 1 from taken`;
  return rows.length > 0;
}

/** The invited person said no; false when it was not waiting any more. */
export async function declineInvitation(sql: Queryable, id: string, now: Date): Promise<boolean> {
  const rows = await sql`
    update business_invitations set declined_at = ${now}
    where id = ${id} and accepted_at is null and declined_at is null and expires_at > ${now}
    returning id`;
  return rows.length > 0;
}

/** Withdraws a pending invitation; false when it was not waiting. */
export async function deleteInvitation(sql: Queryable, businessId: string, id: string): Promise<boolean> {
  const rows = await sql`
    delete from business_invitations where business_id = ${businessId} and id = ${id} and accepted_at is null
    returning id`;
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Service areas a running business proposes

export interface BusinessAreaRow {
  id: string;
  name: string;
  postalCode: string | null;
  lat: number | null;
  lng: number | null;
  radiusKm: number | null;
  town: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
}

/** A business's service areas in their order, whatever their status. */
export async function listBusinessAreas(sql: Queryable, businessId: string): Promise<BusinessAreaRow[]> {
  return sql<BusinessAreaRow[]>`
    select id, name, postal_code as "postalCode", lat, lng, radius_km::float8 as "radiusKm", town, status
    from service_areas where business_id = ${businessId} order by sort, id`;
}

/**
 * Adds proposed areas (PENDING) after the business's others, each covered by every line of the
 * business (as at approval of an application); they cover nothing until the operator approves them.
 */
export async function insertProposedAreas(
  sql: Queryable,
  businessId: string,
  areas: (Omit<BusinessAreaRow, 'status'> & { kind: AreaKind; aliases: string[] })[],
): Promise<void> {
  const [last] = await sql<{ sort: number }[]>`
    select coalesce(max(sort), -1)::int as sort from service_areas where business_id = ${businessId}`;
  let sort = last!.sort;
  for (const a of areas) {
    sort += 1;
    await sql`
      insert into service_areas (business_id, id, name, kind, aliases, postal_code, lat, lng, radius_km, town, status, sort)
      values (${businessId}, ${a.id}, ${a.name}, ${a.kind}, ${a.aliases}, ${a.postalCode}, ${a.lat}, ${a.lng}, ${a.radiusKm},
              ${a.town}, 'PENDING', ${sort})`;
    await sql`
      insert into line_areas (business_id, line_id, area_id)
      select business_id, id, ${a.id} from service_lines where business_id = ${businessId}`;
  }
}

export interface ProposedAreaRow extends BusinessAreaRow {
  businessId: string;
  businessName: string;
}

/**
 * Areas proposed by running businesses that wait for the operator: PENDING service areas that no
 * application proposed (an application's own are decided through the application).
 */
export async function listProposedAreas(sql: Queryable): Promise<ProposedAreaRow[]> {
  return sql<ProposedAreaRow[]>`
    select a.business_id as "businessId", b.name as "businessName", a.id, a.name, a.postal_code as "postalCode",
      a.lat, a.lng, a.radius_km::float8 as "radiusKm", a.town, a.status
    from service_areas a join businesses b on b.id = a.business_id
    where a.status = 'PENDING'
      and not exists (select 1 from business_applications p where p.area @> jsonb_build_array(jsonb_build_object('id', a.id)))
    order by b.name, a.sort, a.id`;
}

/** A PENDING area some business proposed outside an application, locked; null when none. */
export async function findProposedArea(sql: Queryable, areaId: string): Promise<ProposedAreaRow | null> {
  const [row] = await sql<ProposedAreaRow[]>`
    select a.business_id as "businessId", b.name as "businessName", a.id, a.name, a.postal_code as "postalCode",
      a.lat, a.lng, a.radius_km::float8 as "radiusKm", a.town, a.status
    from service_areas a join businesses b on b.id = a.business_id
    where a.id = ${areaId}
    order by (a.status = 'PENDING') desc, a.business_id limit 1
    for update of a`;
  return row ?? null;
}
