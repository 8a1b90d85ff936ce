// Domain events: the transactional outbox of what changed (docs/events.md). Written by operations in
// the transaction of the change; read by the worker (mails, webhooks, feeds) and by tests.
import { newId } from './ids.js';
import type { Queryable } from './sql.js';

export interface EventActorRow {
  kind: 'person' | 'staff' | 'operator' | 'system';
  userId: string | null;
  clientName: string | null;
}

export interface DomainEventRow {
  seq: number;
  id: string;
  type: string;
  version: number;
  occurredAt: Date;
  businessId: string | null;
  personId: string | null;
  subjectKind: string;
  subjectId: string;
  actor: EventActorRow;
  data: Record<string, unknown>;
  operation: string | null;
  requestId: string | null;
  callId: string | null;
}

export type NewDomainEvent = Omit<DomainEventRow, 'seq' | 'id'> & { id?: string };

const COLUMNS = (sql: Queryable) =>
  sql`seq::int as seq, id, type, version, occurred_at as "occurredAt", business_id as "businessId", person_id as "personId",
    subject_kind as "subjectKind", subject_id as "subjectId", actor, data, operation, request_id as "requestId",
    call_id as "callId"`;

/** Appends events; call it inside the transaction of the change they tell about. Returns their ids. */
export async function appendEvents(sql: Queryable, events: NewDomainEvent[]): Promise<string[]> {
  if (!events.length) return [];
  const rows = events.map((e) => ({
    id: e.id ?? newId('evt'),
    type: e.type,
    version: e.version,
    occurred_at: e.occurredAt,
    business_id: e.businessId,
    person_id: e.personId,
    subject_kind: e.subjectKind,
    subject_id: e.subjectId,
    actor: sql.json(e.actor as never),
    data: sql.json(e.data as never),
    operation: e.operation,
    request_id: e.requestId,
    call_id: e.callId,
  }));
  await sql`insert into domain_events ${sql(rows as never)}`;
  return rows.map((r) => r.id);
}

export interface EventFilter {
  businessId?: string;
  personId?: string;
  subjectId?: string;
  requestId?: string;
  types?: string[];
  /** Only events after this sequence number (a reader's bookmark). */
  afterSeq?: number;
  limit?: number;
}

/** Events in the order they were written (oldest first). */
export async function listEvents(sql: Queryable, filter: EventFilter = {}): Promise<DomainEventRow[]> {
  const where = [
    filter.businessId !== undefined ? sql`business_id = ${filter.businessId}` : null,
    filter.personId !== undefined ? sql`person_id = ${filter.personId}` : null,
    filter.subjectId !== undefined ? sql`subject_id = ${filter.subjectId}` : null,
    filter.requestId !== undefined ? sql`request_id = ${filter.requestId}` : null,
    filter.types?.length ? sql`type = any(${filter.types})` : null,
    filter.afterSeq !== undefined ? sql`seq > ${filter.afterSeq}` : null,
  ].filter((w) => w !== null);
  const clause = where.reduce((acc, w) => sql`${acc} and ${w}`, sql`true`);
  return sql<DomainEventRow[]>`select ${COLUMNS(sql)} from domain_events where ${clause}
    order by seq limit ${Math.min(filter.limit ?? 1000, 10_000)}`;
}

/** The types one call of an operation wrote (by the id runOperation gave the call). */
export async function eventTypesOfCall(sql: Queryable, callId: string): Promise<string[]> {
  const rows = await sql<
    { type: string }[]
  >`select type from domain_events where call_id = ${callId} order by seq`;
  return rows.map((r) => r.type);
}

/** What a booking event carries about the booking: the row with its business's currency and zone. */
export interface BookingEventRow {
  id: string;
  businessId: string;
  userId: string | null;
  resourceId: string;
  lineId: string;
  status: string;
  paymentMethod: string;
  paymentStatus: string;
  start: Date;
  end: Date;
  totalCents: number;
  details: Record<string, unknown>;
  clientName: string | null;
  seriesId: string | null;
  currency: string;
  timeZone: string;
}

/** The bookings (of any business) as events describe them, in the order of `ids`. */
export async function bookingEventRows(sql: Queryable, ids: string[]): Promise<BookingEventRow[]> {
  if (!ids.length) return [];
  const rows = await sql<BookingEventRow[]>`select b.id, b.business_id as "businessId", b.user_id as "userId",
      b.resource_id as "resourceId", b.line_id as "lineId", b.status, b.payment_method as "paymentMethod",
      b.payment_status as "paymentStatus", b.starts_at as "start", b.ends_at as "end", b.total_cents as "totalCents",
      b.details, b.client_name as "clientName", b.series_id as "seriesId", z.currency, z.timezone as "timeZone"
    from bookings b join businesses z on z.id = b.business_id where b.id = any(${ids})`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is BookingEventRow => r !== undefined);
}

/** What an order event carries about the order. */
export interface OrderEventRow {
  id: string;
  businessId: string;
  userId: string | null;
  status: string;
  paymentMethod: string;
  paymentStatus: string;
  shippingMethod: string;
  totalCents: number;
  currency: string;
  tracking: string | null;
  clientName: string | null;
  bookingId: string | null;
}

export async function orderEventRows(sql: Queryable, ids: string[]): Promise<OrderEventRow[]> {
  if (!ids.length) return [];
  const rows = await sql<OrderEventRow[]>`select id, business_id as "businessId", user_id as "userId", status,
      payment_method as "paymentMethod", payment_status as "paymentStatus", shipping_method as "shippingMethod",
      total_cents as "totalCents", currency, tracking, client_name as "clientName", booking_id as "bookingId"
    from orders where id = any(${ids})`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is OrderEventRow => r !== undefined);
}
