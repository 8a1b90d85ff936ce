/**
 * Writing domain events: one call, in the transaction of the change, so an event exists exactly
 * when its change committed. The data is checked against the catalog's shape; a mismatch is a bug
 * (thrown, so the change rolls back), never a half-described event.
 */
import { currentCallId, type OperationContext } from '../core/index.js';
import {
  appendEvents,
  type BookingEventRow,
  bookingEventRows,
  orderEventRows,
  type Queryable,
} from '@nogpets/store';
import {
  type ActorKind,
  type BookingFacts,
  EVENT_CATALOG,
  type EventData,
  type EventType,
} from './catalog.js';

/** Who and which call an event comes from. */
export interface EventSource {
  actor: { kind: ActorKind; userId: string | null; clientName: string | null };
  operation: string | null;
  requestId: string | null;
  callId: string | null;
  at: Date;
}

/** The source of events written by an operation's call: its person or principal, its assistant, its id. */
/** A credential is a person's; a visitor becomes one by the call (signing up, signing in); a gateway's notice and a job are the system's. */
function actorKindOf(ctx: OperationContext): ActorKind {
  if (ctx.auth) return 'person';
  const kind = ctx.principal?.kind;
  return kind === 'operator' ? 'operator' : kind === 'visitor' ? 'person' : 'system';
}

export function sourceOf(ctx: OperationContext, kind?: ActorKind): EventSource {
  return {
    actor: {
      kind: kind ?? actorKindOf(ctx),
      userId: ctx.auth?.userId ?? (ctx.principal?.kind === 'operator' ? ctx.principal.userId : null),
      clientName: ctx.auth?.clientName ?? ctx.clientName,
    },
    operation: ctx.operationId ?? null,
    requestId: ctx.requestId,
    callId: ctx.callId ?? null,
    at: ctx.deps.clock.now(),
  };
}

/** The source of events written by NogPets' operator (console or CLI): `what` names the action. */
export function operatorSource(operatorUserId: string | null, what: string, at: Date): EventSource {
  return {
    actor: { kind: 'operator', userId: operatorUserId, clientName: null },
    operation: what,
    requestId: null,
    callId: null,
    at,
  };
}

/** The source of events written by a scheduled job (a hold lapsing, a reminder due). */
export function systemSource(job: string, at: Date): EventSource {
  return {
    actor: { kind: 'system', userId: null, clientName: null },
    operation: job,
    requestId: null,
    callId: null,
    at,
  };
}

export interface NewEvent<T extends EventType = EventType> {
  type: T;
  /** The business it concerns (null: none yet, as for an application under review). */
  businessId: string | null;
  /** The person it concerns: the pet owner, the applicant, the invitee with an account. */
  personId: string | null;
  subjectId: string;
  data: EventData<T>;
}

/** Appends the events to the transaction `q` of the change. */
export async function recordEvents(q: Queryable, source: EventSource, events: NewEvent[]): Promise<void> {
  await appendEvents(
    q,
    events.map((e) => {
      const def = EVENT_CATALOG[e.type];
      const parsed = def.data.safeParse(e.data);
      if (!parsed.success) {
        const where = parsed.error.issues
          .map((i) => `${i.path.join('.') || '(data)'}: ${i.message}`)
          .join('; ');
        throw new Error(`Event ${e.type} does not match its shape: ${where}`);
      }
      return {
        type: e.type,
        version: def.version,
        occurredAt: source.at,
        businessId: e.businessId,
        personId: e.personId,
        subjectKind: def.subject,
        subjectId: e.subjectId,
        actor: source.actor,
        data: parsed.data as Record<string, unknown>,
        operation: source.operation,
        requestId: source.requestId,
        callId: source.callId ?? currentCallId(),
      };
    }),
  );
}

/** One event (see recordEvents). */
export function recordEvent<T extends EventType>(
  q: Queryable,
  source: EventSource,
  event: NewEvent<T>,
): Promise<void> {
  return recordEvents(q, source, [event as NewEvent]);
}

function whatOf(details: Record<string, unknown>, lineId: string): string {
  const quote = details.quote as { pets?: { name: string; items: { name: string }[] }[] } | undefined;
  if (!quote?.pets?.length) return lineId;
  return quote.pets.map((p) => `${p.name}: ${p.items.map((i) => i.name).join(', ')}`).join('; ');
}

function bookingFactsOf(row: BookingEventRow): BookingFacts {
  return {
    bookingId: row.id,
    businessId: row.businessId,
    status: row.status,
    paymentMethod: row.paymentMethod,
    paymentStatus: row.paymentStatus,
    start: row.start.toISOString(),
    end: row.end.toISOString(),
    timeZone: row.timeZone,
    what: whatOf(row.details, row.lineId),
    total: { amount: row.totalCents, currency: row.currency },
    resourceId: row.resourceId,
    clientName: row.clientName,
    seriesId: row.seriesId,
  };
}

/**
 * The bookings as events describe them, read in the transaction after the change (so the facts are
 * what was committed), with the person each concerns (its account, if any).
 */
export async function bookingFacts(
  q: Queryable,
  ids: string[],
): Promise<{ facts: BookingFacts; personId: string | null; businessId: string }[]> {
  const rows = await bookingEventRows(q, ids);
  return rows.map((r) => ({ facts: bookingFactsOf(r), personId: r.userId, businessId: r.businessId }));
}

/** The orders as events describe them (see bookingFacts). */
export async function orderFacts(q: Queryable, ids: string[]) {
  const rows = await orderEventRows(q, ids);
  return rows.map((r) => ({
    facts: {
      orderId: r.id,
      businessId: r.businessId,
      status: r.status,
      paymentMethod: r.paymentMethod,
      paymentStatus: r.paymentStatus,
      shippingMethod: r.shippingMethod,
      total: { amount: r.totalCents, currency: r.currency },
      tracking: r.tracking,
      clientName: r.clientName,
      bookingId: r.bookingId,
    },
    personId: r.userId,
    businessId: r.businessId,
  }));
}
