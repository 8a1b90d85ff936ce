// The account page acts as the person themselves: through the same operations as an assistant,
// with the scopes a pet owner's page needs, named as the account page on what it records.
import { type BookingState, rescheduleAllowed, rescheduleDeadline, transition } from '@nogpets/booking-rules';
import {
  listEarlierBookings,
  removeSavedUnlessInUse,
  type SavedKind,
  updateSavedNotes,
} from '@nogpets/store';
import type { z } from 'zod';
import {
  auditChange,
  type Deps,
  fieldProblems,
  type Logger,
  momentText,
  type OperationContext,
  runOperation,
  type Scope,
  ServiceError,
} from '../core/index.js';
import { type Booking, listBookings, toBooking, withMessages } from '../bookings/index.js';
import { AddressNotesSchema } from './addresses.js';
import { PetNotesSchema } from './pets.js';

/** How changes made on the account page are signed in the audit log and on what they create. */
export const ACCOUNT_PAGE = 'NogPets account page';

/** What the pet owner's part of the account page does: bookings, pets, addresses, paying shop orders. */
const PAGE_SCOPES: Scope[] = ['bookings:read', 'bookings:write', 'pets', 'addresses', 'orders:write'];

/** A call made by the signed-in person on the account page. */
export function accountPageContext(
  deps: Deps,
  userId: string,
  call: { requestId: string; log: Logger },
  scopes: Scope[] = PAGE_SCOPES,
): OperationContext {
  return {
    deps,
    requestId: call.requestId,
    clientName: ACCOUNT_PAGE,
    auth: {
      userId,
      credentialId: 'web-session',
      kind: 'WEB_SESSION',
      scopes,
      clientId: null,
      clientName: ACCOUNT_PAGE,
    },
    log: call.log,
  };
}

/** A booking as the account page shows it: until when the person may move it, and whether it can be cancelled. */
export type AccountBooking = Booking & {
  /** "Until Sat, 28 Nov 2026, 21:00", or why it can no longer be moved here; null once it is over. */
  movable: string | null;
  /** Whether cancel_booking would take it now (before it starts, still active). */
  cancellable: boolean;
};

/**
 * The zone a person's own pages show times in: NogPets serves pet owners in Stellenbosch, so the
 * operator business's zone (Africa/Johannesburg). A business's pages use the business's own zone.
 */
export async function personTimeZone(deps: Deps): Promise<string> {
  return (await deps.offers.operator()).business.timezone;
}

/** The most upcoming bookings the page lists (list_bookings' largest `limit`). */
export const UPCOMING_SHOWN = 50;

/**
 * The person's bookings for the account page: upcoming ones as list_bookings answers them (at most
 * UPCOMING_SHOWN), and the latest `earlier` that are over (ended, cancelled or lapsed). What may
 * still be done with each is booking-rules' answer, in its words.
 */
export async function accountBookings(
  ctx: OperationContext,
  earlier = 20,
): Promise<{ upcoming: AccountBooking[]; earlier: AccountBooking[] }> {
  const now = ctx.deps.clock.now();
  const [{ bookings }, rows, timeZone] = await Promise.all([
    runOperation(listBookings, ctx, { limit: UPCOMING_SHOWN }),
    listEarlierBookings(ctx.deps.sql, ctx.auth!.userId, now, earlier),
    personTimeZone(ctx.deps),
  ]);
  const shown = (b: Booking): AccountBooking => {
    const state: BookingState = {
      status: b.status,
      paymentStatus: b.paymentStatus,
      paymentMethod: b.paymentMethod,
      start: new Date(b.start),
      end: new Date(b.end),
    };
    const deadline = rescheduleDeadline(state);
    const move = rescheduleAllowed(state, now);
    return {
      ...b,
      movable: deadline === null ? null : move.ok ? `Until ${momentText(deadline, timeZone)}` : move.message,
      cancellable: transition(state, { type: 'CANCEL', confirm: true }, now).ok,
    };
  };
  // Earlier ones too show what the business told the person (a decline, a cancel).
  const over = await withMessages(ctx.deps.sql, rows.map(toBooking));
  return { upcoming: (bookings as Booking[]).map(shown), earlier: over.map(shown) };
}

/** The notes a pet or an address may carry: add_pet's and add_address's own schemas. */
const NOTES: Record<SavedKind, z.ZodString> = { pet: PetNotesSchema, address: AddressNotesSchema };

const what = (kind: SavedKind) => (kind === 'pet' ? 'pet' : 'address');

/**
 * Changes the notes of the person's saved pet or address (empty clears them); audited.
 * @throws ServiceError BAD_REQUEST for notes too long, NOT_FOUND for another person's or no such id.
 */
export async function changeSavedNotes(
  ctx: OperationContext,
  kind: SavedKind,
  id: string,
  notes: string,
): Promise<void> {
  const parsed = NOTES[kind].safeParse(notes);
  if (!parsed.success) {
    const fields = fieldProblems(parsed.error).map((f) => ({ ...f, field: 'notes' }));
    throw new ServiceError('BAD_REQUEST', `notes: ${fields[0]?.message ?? 'not valid'}`, { fields });
  }
  await ctx.deps.sql.begin(async (tx) => {
    const row = await updateSavedNotes(tx, ctx.auth!.userId, kind, id, parsed.data.trim() || null);
    if (!row) throw new ServiceError('NOT_FOUND', `No ${what(kind)} ${id}.`, { id });
    await auditChange(ctx, tx, `${kind}.notes`, id, { length: parsed.data.length });
  });
}

/**
 * Removes the person's saved pet or address unless a live booking or an open weekly repeat names
 * it (docs/decisions.md); audited with what was removed. Answers what to tell the person.
 * @throws ServiceError NOT_FOUND for another person's or no such id.
 */
export async function removeSaved(
  ctx: OperationContext,
  kind: SavedKind,
  id: string,
): Promise<{ removed: boolean; message: string }> {
  return ctx.deps.sql.begin(async (tx) => {
    const outcome = await removeSavedUnlessInUse(tx, ctx.auth!.userId, kind, id, ctx.deps.clock.now());
    if (outcome.result === 'NOT_FOUND')
      throw new ServiceError('NOT_FOUND', `No ${what(kind)} ${id}.`, { id });
    if (outcome.result === 'IN_USE') {
      return {
        removed: false,
        message: `This ${what(kind)} is in a booking still to come or a weekly repeat, so it stays. Cancel that booking first (for a weekly repeat, "Cancel this and later weeks"), then remove it.`,
      };
    }
    await auditChange(ctx, tx, `${kind}.remove`, id, { name: outcome.name });
    return { removed: true, message: `Removed ${outcome.name}.` };
  });
}
