// The account page acts as the person themselves: through the same operations as an assistant,
// with every scope, named as the account page on what it records.
import {
  listEarlierBookings,
  removeSavedUnlessInUse,
  type SavedKind,
  updateSavedNotes,
} from '@nogpets/store';
import { z } from 'zod';
import { SCOPE_NAMES } from '../auth.js';
import type { Deps, Logger, OperationContext } from '../context.js';
import { ServiceError } from '../errors.js';
import { type Booking, toBooking } from '../booking/booking-model.js';
import { momentText } from '../booking/local-time.js';
import { listBookings } from '../booking/manage.js';
import { runOperation } from '../run.js';
import { auditChange } from '../audit.js';

/** How changes made on the account page are signed in the audit log and on what they create. */
export const ACCOUNT_PAGE = 'NogPets account page';

/** A call made by the signed-in person on the account page. */
export function accountPageContext(
  deps: Deps,
  userId: string,
  call: { requestId: string; log: Logger },
): OperationContext {
  return {
    deps,
    requestId: call.requestId,
    clientName: ACCOUNT_PAGE,
    auth: {
      userId,
      credentialId: 'web-session',
      kind: 'WEB_SESSION',
      scopes: [...SCOPE_NAMES],
      clientId: null,
      clientName: ACCOUNT_PAGE,
    },
    log: call.log,
  };
}

/** A booking as the account page shows it: with until when the person may still move it, in words. */
export type AccountBooking = Booking & {
  /** "Until Sat, 28 Nov 2026, 21:00", or why it can no longer be moved here; null once it is over. */
  movable: string | null;
};

/**
 * The person's bookings for the account page: upcoming ones as list_bookings answers them (at most
 * 50), and the latest `earlier` that are over (ended, cancelled or lapsed).
 */
export async function accountBookings(
  ctx: OperationContext,
  earlier = 20,
): Promise<{ upcoming: AccountBooking[]; earlier: AccountBooking[] }> {
  const now = ctx.deps.clock.now();
  const [{ bookings }, rows, offer] = await Promise.all([
    runOperation(listBookings, ctx, { limit: 50 }),
    listEarlierBookings(ctx.deps.sql, ctx.auth!.userId, now, earlier),
    ctx.deps.offers.operator(),
  ]);
  const timeZone = offer.business.timezone;
  const movable = (b: Booking): AccountBooking => ({
    ...b,
    movable:
      b.movableUntil === null
        ? null
        : now < new Date(b.movableUntil)
          ? `Until ${momentText(new Date(b.movableUntil), timeZone)}`
          : 'No longer here: it starts within 12 hours, so phone the operator to change it',
  });
  return { upcoming: (bookings as Booking[]).map(movable), earlier: rows.map(toBooking).map(movable) };
}

/** The notes a pet or an address may carry (add_pet's and add_address's limits). */
const NOTES_MAX: Record<SavedKind, number> = { pet: 500, address: 300 };

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
  const parsed = z.string().trim().max(NOTES_MAX[kind]).safeParse(notes);
  if (!parsed.success) {
    throw new ServiceError('BAD_REQUEST', `Notes are at most ${NOTES_MAX[kind]} characters.`, {
      fields: { notes: `at most ${NOTES_MAX[kind]} characters` },
    });
  }
  await ctx.deps.sql.begin(async (tx) => {
    const row = await updateSavedNotes(tx, ctx.auth!.userId, kind, id, parsed.data || null);
    if (!row) throw new ServiceError('NOT_FOUND', `No ${what(kind)} ${id}.`, { id });
    await auditChange(ctx, tx, `${kind}.notes`, id, { length: parsed.data.length });
  });
}

/**
 * Removes the person's saved pet or address unless a live booking or an open weekly repeat names
 * it (docs/decisions.md); audited. Answers what to tell the person.
 * @throws ServiceError NOT_FOUND for another person's or no such id.
 */
export async function removeSaved(
  ctx: OperationContext,
  kind: SavedKind,
  id: string,
): Promise<{ removed: boolean; message: string }> {
  return ctx.deps.sql.begin(async (tx) => {
    const outcome = await removeSavedUnlessInUse(tx, ctx.auth!.userId, kind, id, ctx.deps.clock.now());
    if (outcome === 'NOT_FOUND') throw new ServiceError('NOT_FOUND', `No ${what(kind)} ${id}.`, { id });
    if (outcome === 'IN_USE') {
      return {
        removed: false,
        message: `This ${what(kind)} is in a booking that is still to come (or a weekly repeat), so it stays. Cancel that booking first, or keep it.`,
      };
    }
    await auditChange(ctx, tx, `${kind}.remove`, id, {});
    return { removed: true, message: `Removed the ${what(kind)}.` };
  });
}
