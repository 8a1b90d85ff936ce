/**
 * Where bookings are written: placed on their resources (the database's exclusion constraint has
 * the last word on overlaps) and given a pay link, in the caller's transaction.
 */
import { holdUntil, payLinkExpiresAt } from '@nogpets/booking-rules';
import {
  type AuditEntry,
  appendAudit,
  atomically,
  type BookingRow,
  extendHold,
  insertBooking,
  insertBookingWithLink,
  insertPayment,
  isSavedRowGone,
  isSlotConflict,
  isWriteConflict,
  lockGroupWalk,
  lockResource,
  type NewBooking,
  narrowPayLinks,
  newId,
  type Queryable,
  shareKey,
  transaction,
} from '@nogpets/store';
import { actorName, hashSecret, newSecret, type OperationContext, ServiceError } from '../core/index.js';
import type { EventSource } from '../events/index.js';
import { flagIfOutsideWorkingTime, groupOf } from '../schedule/index.js';
import type { BookingDetails } from './booking-model.js';
import { recordBookingEvents } from './events.js';
import type { PricedRequest } from '../catalogue/index.js';

export interface Placement {
  start: Date;
  end: Date;
  resourceId: string;
  totalCents: number;
  /** The card fee in `totalCents`, when it is not the quote's (visits pay it once). */
  cardFeeCents?: number;
}

export interface PlaceOptions {
  priced: PricedRequest;
  details: BookingDetails;
  paymentMethod: 'CARD' | 'CASH';
  paymentStatus: 'PENDING' | 'CASH_DUE';
  addressId: string | null;
  seriesId: string | null;
  notes: string;
  /** Card bookings about to get a pay link expiring then: each holds its time until then or its start. */
  heldForLink?: Date | undefined;
  /**
   * A business booking for its client (bookForClient, rebookBooking): the booking is the client's
   * (their account, or none for a client without one), not the caller's.
   */
  forClient?: { userId: string | null; businessClientId: string } | undefined;
  /**
   * Who the `booking.created` events of the bookings placed come from (the person, the business's
   * staff, the worker keeping a series booked) and whose booking it is in words (`by`).
   */
  created: { source: EventSource; by: 'client' | 'business' };
}

/**
 * Inserts bookings in the caller's transaction. The database refuses a double booking (exclusion
 * constraint); a group walk is filled to its capacity under a lock. A refused placement throws
 * SLOT_TAKEN, or is returned in `taken` when `skipTaken` (later weeks of a series).
 */
export async function placeBookings(
  ctx: OperationContext,
  tx: Queryable,
  placements: Placement[],
  options: PlaceOptions,
  skipTaken: boolean,
): Promise<{ rows: BookingRow[]; taken: Placement[] }> {
  const now = ctx.deps.clock.now();
  const business = options.priced.offer.business;
  const group = groupOf(options.priced);
  const rows: BookingRow[] = [];
  const taken: Placement[] = [];
  // Every resource the placements use, locked at once in id order before any is written (as hours
  // and time-off changes lock theirs): a series that moves between walkers week by week would
  // otherwise take R2, R1 while a business-wide hours change takes R1, R2, and deadlock.
  for (const id of [...new Set(placements.map((p) => p.resourceId))].sort())
    await lockResource(tx, business.id, id);
  for (const p of placements) {
    const attempt = async (q: Queryable) => {
      // Writers of a resource's calendar queue on its lock: several bookings in one transaction (a
      // series, visits) would otherwise deadlock against another such transaction under the
      // exclusion constraint, and set_working_hours and add_time_off take it too, so a booking
      // checked against hours that change meanwhile is read against the new ones before it commits.
      // (Held already from above; taken again it is a no-op.)
      await lockResource(q, business.id, p.resourceId);
      if (group) {
        const already = await lockGroupWalk(
          q,
          business.id,
          p.resourceId,
          shareKey(group.key, p.start, p.end),
        );
        if (already + group.size > group.capacity)
          throw new ServiceError('SLOT_TAKEN', 'That group walk just filled up. Call find_times again.', {
            start: p.start.toISOString(),
          });
      }
      // The booking and its audit record go to PostgreSQL together (one round trip, pipelined).
      const booking = newBookingOf(ctx, p, options, group);
      const [row] = await Promise.all([
        insertBooking(q, booking, now),
        appendAudit(q, creationAudit(ctx, booking), now),
      ]);
      return row;
    };
    try {
      // When refused weeks are skipped, each in a savepoint: a refused week leaves the others
      // standing. Otherwise a refusal ends the caller's whole transaction anyway.
      rows.push(
        skipTaken
          ? await (tx as unknown as { savepoint<T>(f: (q: Queryable) => Promise<T>): Promise<T> }).savepoint(
              attempt,
            )
          : await attempt(tx),
      );
    } catch (err) {
      if (isSavedRowGone(err)) throw savedRowGoneError();
      if (!isSlotTaken(err)) throw err;
      if (!skipTaken) {
        throw slotTakenError(p);
      }
      taken.push(p);
    }
  }
  await flagIfOutsideWorkingTime(tx, business, rows, now);
  await recordCreated(tx, rows, options);
  return { rows, taken };
}

/** One `booking.created` per booking placed (a series' weeks, visits: each its own). */
function recordCreated(q: Queryable, rows: BookingRow[], options: PlaceOptions): Promise<void> {
  return recordBookingEvents(
    q,
    options.created.source,
    'booking.created',
    rows.map((r) => r.id),
    { by: options.created.by },
  );
}

/** A new booking's row: PENDING on its resource, held for its pay link when one is about to be made. */
function newBookingOf(
  ctx: OperationContext,
  p: Placement,
  options: PlaceOptions,
  group: ReturnType<typeof groupOf>,
): NewBooking & { id: string } {
  return {
    id: newId('bkg'),
    businessId: options.priced.offer.business.id,
    userId: options.forClient ? options.forClient.userId : ctx.auth!.userId,
    businessClientId: options.forClient?.businessClientId ?? null,
    resourceId: p.resourceId,
    lineId: options.priced.line.id,
    status: 'PENDING',
    paymentMethod: options.paymentMethod,
    paymentStatus: options.paymentStatus,
    start: p.start,
    end: p.end,
    groupKey: group?.key ?? null,
    groupSize: group?.size ?? 1,
    totalCents: p.totalCents,
    details: (p.cardFeeCents === undefined
      ? options.details
      : { ...options.details, cardFeeCents: p.cardFeeCents }) as unknown as Record<string, unknown>,
    clientName: actorName(ctx),
    clientId: ctx.auth!.clientId,
    addressId: options.addressId,
    savedPetIds: options.details.pets.flatMap((pet) => (pet.petId ? [pet.petId] : [])),
    seriesId: options.seriesId,
    notes: options.notes,
    holdUntil: options.heldForLink ? holdUntil(options.heldForLink, p.start) : null,
  };
}

/** The audit record of a booking made: who, through which assistant, when it starts, how it is paid. */
function creationAudit(ctx: OperationContext, booking: NewBooking & { id: string }): AuditEntry {
  return {
    userId: ctx.auth!.userId,
    clientId: ctx.auth!.clientId,
    clientName: actorName(ctx),
    action: 'booking.create',
    target: booking.id,
    details: { start: booking.start.toISOString(), paymentMethod: booking.paymentMethod },
  };
}

/** The database refused the time: another booking holds it (or, for a group walk, it is full). */
function isSlotTaken(err: unknown): boolean {
  return (
    isSlotConflict(err) || isWriteConflict(err) || (err instanceof ServiceError && err.code === 'SLOT_TAKEN')
  );
}

/** A saved pet or address the booking names was removed from the account while it was being made. */
function savedRowGoneError(): ServiceError {
  return new ServiceError(
    'NOT_FOUND',
    'A saved pet or address of this booking was just removed from the account. Call list_pets and list_addresses, then book again.',
    {},
  );
}

function slotTakenError(p: Placement): ServiceError {
  return new ServiceError(
    'SLOT_TAKEN',
    'That time was just taken. Call find_times again and offer the person another time.',
    { start: p.start.toISOString(), resourceId: p.resourceId },
  );
}

export interface PayLink {
  payUrl: string;
  expiresAt: Date;
  amountCents: number;
  paymentId: string;
}

/**
 * One booking that is not part of a group walk, with its audit record and, given `link`, its pay
 * link (`options.heldForLink` is then the link's expiry): one statement, no transaction, one round
 * trip. The exclusion constraint alone decides who gets the time, as in `placeBookings`.
 */
export async function placeOneBooking(
  ctx: OperationContext,
  p: Placement,
  options: PlaceOptions,
  link: { currency: string } | null,
): Promise<{ row: BookingRow; link: PayLink | null }> {
  const now = ctx.deps.clock.now();
  const booking = newBookingOf(ctx, p, options, undefined);
  const expiresAt = options.heldForLink ?? payLinkExpiresAt(now);
  const token = link ? newSecret('npl') : null;
  const payment =
    link && token
      ? {
          id: newId('pay'),
          amountCents: p.totalCents,
          currency: link.currency,
          gateway: ctx.deps.payments.gateway.name,
          linkTokenHash: hashSecret(token),
          expiresAt,
        }
      : null;
  let row: BookingRow;
  try {
    // Under an Idempotency-Key the caller's transaction must outlive a refusal, to keep it as the
    // answer (a savepoint); otherwise a transaction of its own. Under the resource's lock, and read
    // against the working time as it is then (see placeBookings).
    row = await inTransaction(ctx.deps.sql, async (q) => {
      await lockResource(q, booking.businessId, booking.resourceId);
      const made = await insertBookingWithLink(q, booking, creationAudit(ctx, booking), payment, now);
      await flagIfOutsideWorkingTime(q, options.priced.offer.business, [made], now);
      await recordCreated(q, [made], options);
      return made;
    });
  } catch (err) {
    if (isSavedRowGone(err)) throw savedRowGoneError();
    if (isSlotTaken(err)) throw slotTakenError(p);
    throw err;
  }
  return {
    row,
    link:
      payment && token
        ? { payUrl: payUrlOf(ctx, token), expiresAt, amountCents: payment.amountCents, paymentId: payment.id }
        : null,
  };
}

/** `work` atomically: in a savepoint inside a transaction, else in a transaction of its own. */
function inTransaction<T>(sql: Queryable, work: (q: Queryable) => Promise<T>): Promise<T> {
  return 'savepoint' in sql ? atomically(sql, work) : transaction(sql, work);
}

/** The address of a pay link (`/pay/{token}` on the service's public URL): bookings' and invoices'. */
export function payUrlOf(ctx: OperationContext, token: string): string {
  return `${ctx.deps.payments.publicUrl()}/pay/${token}`;
}

/**
 * A pay link for some unpaid card bookings: a payment at the gateway for their total, valid
 * 48 hours; each booking holds its time until the link expires or it starts, whichever is first.
 * Earlier links of these bookings alone stop working; an open link they share with other bookings
 * (a weekly series' one link) keeps working for the others and no longer asks for these
 * (`narrowed`: the payment replaced and its replacement, under the same link and expiry).
 */
export async function makePayLink(
  ctx: OperationContext,
  tx: Queryable,
  bookings: BookingRow[],
  currency: string,
  options: { placedForLink?: Date | undefined } = {},
): Promise<{
  payUrl: string;
  expiresAt: Date;
  amountCents: number;
  paymentId: string;
  narrowed: { replaced: string; by: string; bookingIds: string[]; amountCents: number }[];
}> {
  const now = ctx.deps.clock.now();
  const token = newSecret('npl');
  // Bookings just placed for this link (`heldForLink`) already hold their time and have no
  // earlier link to narrow.
  const placed = options.placedForLink;
  const expiresAt = placed ?? payLinkExpiresAt(now);
  const amountCents = bookings.reduce((sum, b) => sum + b.totalCents, 0);
  const narrowed = placed
    ? []
    : await narrowPayLinks(
        tx,
        bookings.map((b) => b.id),
        now,
      );
  const payment = await insertPayment(
    tx,
    {
      businessId: bookings[0]!.businessId,
      userId: ctx.auth!.userId,
      bookingIds: bookings.map((b) => b.id),
      amountCents,
      currency,
      gateway: ctx.deps.payments.gateway.name,
      expiresAt,
      linkTokenHash: hashSecret(token),
    },
    now,
  );
  // A new link never shortens a hold (a series' later week is held until its start).
  if (!placed) for (const b of bookings) await extendHold(tx, b.id, holdUntil(expiresAt, b.start), now);
  return {
    payUrl: payUrlOf(ctx, token),
    expiresAt,
    amountCents,
    paymentId: payment.id,
    narrowed,
  };
}
