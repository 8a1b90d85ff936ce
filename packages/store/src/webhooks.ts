// Webhook endpoints and their deliveries (migration 0042): plain reads and writes; the rules
// (who may, which events, the retry schedule, when to give up) are the operations' webhooks module.
import type { DomainEventRow } from './events.js';
import type { Queryable } from './sql.js';

/** Whose an endpoint is: a business's (its events) or a person's (their own bookings and orders). */
export type WebhookOwner = { businessId: string } | { personId: string };

export interface WebhookEndpointRow {
  id: string;
  businessId: string | null;
  personId: string | null;
  url: string;
  description: string | null;
  eventTypes: string[];
  status: 'ENABLED' | 'DISABLED';
  disabledAt: Date | null;
  disabledReason: string | null;
  lastSuccessAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
}

export interface WebhookDeliveryRow {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  succeededAt: Date | null;
}

const ENDPOINT = (sql: Queryable) =>
  sql`id, business_id as "businessId", person_id as "personId", url, description, event_types as "eventTypes",
    status, disabled_at as "disabledAt", disabled_reason as "disabledReason", last_success_at as "lastSuccessAt",
    created_by as "createdBy", created_at as "createdAt"`;

const DELIVERY = (sql: Queryable) =>
  sql`d.id, d.endpoint_id as "endpointId", d.event_id as "eventId", d.event_type as "eventType", d.status, d.attempts,
    d.next_attempt_at as "nextAttemptAt", d.last_attempt_at as "lastAttemptAt", d.last_status as "lastStatus",
    d.last_error as "lastError", d.created_at as "createdAt", d.succeeded_at as "succeededAt"`;

const ownedBy = (sql: Queryable, owner: WebhookOwner) =>
  'businessId' in owner ? sql`business_id = ${owner.businessId}` : sql`person_id = ${owner.personId}`;

/**
 * Holds the owner's endpoint list until the transaction ends and answers how many it has, so two
 * creations at once cannot both pass the limit.
 */
export async function lockAndCountWebhookEndpoints(sql: Queryable, owner: WebhookOwner): Promise<number> {
  const key = 'businessId' in owner ? `b:${owner.businessId}` : `p:${owner.personId}`;
  await sql`select pg_advisory_xact_lock(hashtextextended(${`webhook-endpoints:${key}`}, 0))`;
  const [row] = await sql<
    { n: number }[]
  >`select count(*)::int as n from webhook_endpoints where ${ownedBy(sql, owner)}`;
  return row!.n;
}

export async function insertWebhookEndpoint(
  sql: Queryable,
  e: {
    id: string;
    owner: WebhookOwner;
    url: string;
    description: string | null;
    eventTypes: string[];
    secret: string;
    createdBy: string;
  },
  now: Date,
): Promise<WebhookEndpointRow> {
  const businessId = 'businessId' in e.owner ? e.owner.businessId : null;
  const personId = 'personId' in e.owner ? e.owner.personId : null;
  const [row] = await sql<WebhookEndpointRow[]>`
    insert into webhook_endpoints (id, business_id, person_id, url, description, event_types, secret, created_by, created_at)
    values (${e.id}, ${businessId}, ${personId}, ${e.url}, ${e.description}, ${e.eventTypes}, ${e.secret}, ${e.createdBy}, ${now})
    returning ${ENDPOINT(sql)}`;
  return row!;
}

/** The owner's endpoints, oldest first. */
export async function listWebhookEndpoints(
  sql: Queryable,
  owner: WebhookOwner,
): Promise<WebhookEndpointRow[]> {
  return sql<WebhookEndpointRow[]>`select ${ENDPOINT(sql)} from webhook_endpoints
    where ${ownedBy(sql, owner)} order by created_at, id`;
}

/** One of the owner's endpoints, or null (another owner's endpoint is none of theirs). */
export async function findWebhookEndpoint(
  sql: Queryable,
  owner: WebhookOwner,
  id: string,
): Promise<WebhookEndpointRow | null> {
  const [row] = await sql<WebhookEndpointRow[]>`select ${ENDPOINT(sql)} from webhook_endpoints
    where id = ${id} and ${ownedBy(sql, owner)}`;
  return row ?? null;
}

/** Removes an endpoint and its deliveries (waiting for a send in progress to record its attempt). */
export async function deleteWebhookEndpoint(
  sql: Queryable,
  owner: WebhookOwner,
  id: string,
): Promise<boolean> {
  return (await sql`delete from webhook_endpoints where id = ${id} and ${ownedBy(sql, owner)}`).count > 0;
}

/** Enabled endpoints that may receive events of these businesses or persons (the fan-out's candidates). */
export async function enabledWebhookEndpointsFor(
  sql: Queryable,
  businessIds: string[],
  personIds: string[],
): Promise<WebhookEndpointRow[]> {
  if (!businessIds.length && !personIds.length) return [];
  // A business's endpoint sends only while whoever registered it is still its owner or manager:
  // someone removed or made crew must not keep receiving the business's events at their address.
  return sql<WebhookEndpointRow[]>`select ${ENDPOINT(sql)} from webhook_endpoints w
    where status = 'ENABLED' and (person_id = any(${personIds}) or (business_id = any(${businessIds})
      and exists (select 1 from business_members m where m.business_id = w.business_id
        and m.user_id = w.created_by and m.role in ('owner', 'manager'))))`;
}

/** Writes deliveries; one per (endpoint, event) ever, so a second fan-out of the same event adds nothing. */
export async function insertWebhookDeliveries(
  sql: Queryable,
  rows: { id: string; endpointId: string; eventId: string; eventType: string }[],
  now: Date,
): Promise<number> {
  if (!rows.length) return 0;
  const values = rows.map((r) => ({
    id: r.id,
    endpoint_id: r.endpointId,
    event_id: r.eventId,
    event_type: r.eventType,
    status: 'PENDING',
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
  }));
  return (
    await sql`insert into webhook_deliveries ${sql(values)} on conflict (endpoint_id, event_id) do nothing`
  ).count;
}

/** An endpoint's deliveries, newest first, after a keyset position. */
export async function listWebhookDeliveries(
  sql: Queryable,
  endpointId: string,
  options: {
    limit: number;
    after?: { createdAt: Date; id: string } | undefined;
    status?: string | undefined;
  },
): Promise<WebhookDeliveryRow[]> {
  const { after, status } = options;
  return sql<WebhookDeliveryRow[]>`select ${DELIVERY(sql)} from webhook_deliveries d
    where d.endpoint_id = ${endpointId}
      and ${status ? sql`d.status = ${status}` : sql`true`}
      and ${after ? sql`(d.created_at, d.id) < (${after.createdAt}, ${after.id})` : sql`true`}
    order by d.created_at desc, d.id desc limit ${options.limit}`;
}

/** A delivery of one of the owner's endpoints, locked until the transaction ends; null when none. */
export async function lockWebhookDelivery(
  sql: Queryable,
  owner: WebhookOwner,
  id: string,
): Promise<(WebhookDeliveryRow & { endpointStatus: 'ENABLED' | 'DISABLED' }) | null> {
  const [row] = await sql<(WebhookDeliveryRow & { endpointStatus: 'ENABLED' | 'DISABLED' })[]>`
    select ${DELIVERY(sql)}, e.status as "endpointStatus" from webhook_deliveries d
    join webhook_endpoints e on e.id = d.endpoint_id
    where d.id = ${id} and ${'businessId' in owner ? sql`e.business_id = ${owner.businessId}` : sql`e.person_id = ${owner.personId}`}
    for update of d`;
  return row ?? null;
}

/** Sends a delivery again from now, as a new round of attempts. */
export async function requeueWebhookDelivery(
  sql: Queryable,
  id: string,
  now: Date,
): Promise<WebhookDeliveryRow> {
  const [row] = await sql<WebhookDeliveryRow[]>`update webhook_deliveries d
    set status = 'PENDING', attempts = 0, next_attempt_at = ${now}, succeeded_at = null
    where d.id = ${id} returning ${DELIVERY(sql)}`;
  return row!;
}

/** Enables an endpoint again (a redelivery asked by its owner). */
export async function enableWebhookEndpoint(sql: Queryable, id: string): Promise<void> {
  await sql`update webhook_endpoints set status = 'ENABLED', disabled_at = null, disabled_reason = null where id = ${id}`;
}

/** A delivery claimed for one attempt: what the sender needs to POST it. */
export interface ClaimedWebhookDelivery {
  id: string;
  endpointId: string;
  attempts: number;
  createdAt: Date;
  url: string;
  secret: string;
  event: DomainEventRow;
}

/**
 * Claims up to `limit` deliveries due at `now` on enabled endpoints: each one's attempt is counted
 * and its next attempt moved to `leaseUntil`, in one statement over rows locked with `skip locked`,
 * so two workers never claim one delivery; a worker killed mid-send leaves it due again at the lease's end.
 */
export async function claimWebhookDeliveries(
  sql: Queryable,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<ClaimedWebhookDelivery[]> {
  const rows = await sql<(Omit<ClaimedWebhookDelivery, 'event'> & { eventId: string })[]>`
    with due as (
      select d.id from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
      where d.status = 'PENDING' and d.next_attempt_at <= ${now} and e.status = 'ENABLED'
      order by d.next_attempt_at, d.id limit ${limit}
      for update of d skip locked
    )
    update webhook_deliveries d set attempts = d.attempts + 1, next_attempt_at = ${leaseUntil}, last_attempt_at = ${now}
    from due, webhook_endpoints e
    where d.id = due.id and e.id = d.endpoint_id
    returning d.id, d.endpoint_id as "endpointId", d.attempts, d.created_at as "createdAt", e.url, e.secret,
      d.event_id as "eventId"`;
  if (!rows.length) return [];
  const events = await sql<DomainEventRow[]>`
    select seq::int as seq, id, type, version, occurred_at as "occurredAt", business_id as "businessId",
      person_id as "personId", subject_kind as "subjectKind", subject_id as "subjectId", actor, data,
      operation, request_id as "requestId", call_id as "callId"
    from domain_events where id = any(${rows.map((r) => r.eventId)})`;
  const byId = new Map(events.map((e) => [e.id, e]));
  return rows.map(({ eventId, ...r }) => ({ ...r, event: byId.get(eventId)! }));
}

/**
 * Records the outcome of a claimed attempt, only if the delivery is still at that attempt (a
 * redelivery or a later claim after the lease ran out wins). Answers whether it was recorded.
 */
export async function recordWebhookAttempt(
  sql: Queryable,
  id: string,
  attempt: number,
  outcome: {
    status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
    nextAttemptAt: Date | null;
    httpStatus: number | null;
    error: string | null;
  },
  now: Date,
): Promise<boolean> {
  const done = await sql`update webhook_deliveries set status = ${outcome.status},
      next_attempt_at = ${outcome.nextAttemptAt}, last_status = ${outcome.httpStatus},
      last_error = ${outcome.error === null ? null : outcome.error.slice(0, 500)},
      succeeded_at = ${outcome.status === 'SUCCEEDED' ? now : null}
    where id = ${id} and attempts = ${attempt} and status = 'PENDING'`;
  return done.count > 0;
}

/** A 2xx from the endpoint: it works. */
export async function markWebhookEndpointSucceeded(sql: Queryable, id: string, now: Date): Promise<void> {
  await sql`update webhook_endpoints set last_success_at = greatest(last_success_at, ${now}) where id = ${id}`;
}

/** Locks an endpoint row; null when it is gone. */
export async function lockWebhookEndpoint(sql: Queryable, id: string): Promise<WebhookEndpointRow | null> {
  const [row] = await sql<
    WebhookEndpointRow[]
  >`select ${ENDPOINT(sql)} from webhook_endpoints where id = ${id} for update`;
  return row ?? null;
}

export async function disableWebhookEndpoint(
  sql: Queryable,
  id: string,
  reason: string,
  now: Date,
): Promise<void> {
  await sql`update webhook_endpoints set status = 'DISABLED', disabled_at = ${now}, disabled_reason = ${reason.slice(0, 500)}
    where id = ${id}`;
}

/** Where to tell of an endpoint's trouble: the person's address, or the business's owners'. */
export async function webhookOwnerEmails(sql: Queryable, endpoint: WebhookEndpointRow): Promise<string[]> {
  const rows = endpoint.personId
    ? await sql<{ email: string }[]>`select email from users where id = ${endpoint.personId}`
    : await sql<{ email: string }[]>`select u.email from business_members m join users u on u.id = m.user_id
        where m.business_id = ${endpoint.businessId} and m.role = 'owner' order by u.email`;
  return rows.map((r) => r.email);
}
