/**
 * The booking events of a change, written in its transaction after it: each booking's facts read
 * there (what was committed), its person the booking's account and its business the booking's.
 */
import type { Queryable } from '@nogpets/store';
import {
  type BookingFacts,
  bookingFacts,
  type EventData,
  type EventSource,
  type EventType,
  recordEvents,
} from '../events/index.js';

type Who = 'client' | 'business' | 'operator' | 'system';

/** What a booking event says besides the booking itself (the same for every booking of the change, or per booking). */
type Rest<T extends EventType> = Omit<EventData<T>, 'booking'>;

/** One event of `type` per booking (in the order of `ids`), each with the booking's facts and `rest`. */
export async function recordBookingEvents<T extends EventType>(
  q: Queryable,
  source: EventSource,
  type: T,
  ids: readonly string[],
  rest: Rest<T> | ((facts: BookingFacts) => Rest<T>),
): Promise<void> {
  if (!ids.length) return;
  const all = await bookingFacts(q, [...ids]);
  await recordEvents(
    q,
    source,
    all.map((f) => ({
      type,
      businessId: f.businessId,
      personId: f.personId,
      subjectId: f.facts.bookingId,
      data: { booking: f.facts, ...(typeof rest === 'function' ? rest(f.facts) : rest) } as EventData<T>,
    })),
  );
}

/** The money a booking owes back, once its payment status says so (REFUND_REQUESTED); else null. */
export function refundOf(facts: BookingFacts): { amount: number; currency: string } | null {
  return facts.paymentStatus === 'REFUND_REQUESTED' ? { ...facts.total } : null;
}

/**
 * Bookings just cancelled (or declined by the business): per booking `booking.cancelled` (or
 * `booking.declined`), and beside it `booking.refund_due` when its money is now owed back.
 */
export async function recordCancellations(
  q: Queryable,
  source: EventSource,
  ids: readonly string[],
  how: { type: 'booking.cancelled' | 'booking.declined'; by: Who; message: string | null },
): Promise<void> {
  if (!ids.length) return;
  const all = await bookingFacts(q, [...ids]);
  await recordEvents(
    q,
    source,
    all.flatMap((f) => {
      const refund = refundOf(f.facts);
      const head = {
        businessId: f.businessId,
        personId: f.personId,
        subjectId: f.facts.bookingId,
      };
      return [
        how.type === 'booking.declined'
          ? {
              ...head,
              type: 'booking.declined' as const,
              data: { booking: f.facts, message: how.message, refund },
            }
          : {
              ...head,
              type: 'booking.cancelled' as const,
              data: { booking: f.facts, by: how.by, message: how.message, refund },
            },
        ...(refund
          ? [{ ...head, type: 'booking.refund_due' as const, data: { booking: f.facts, refund } }]
          : []),
      ];
    }),
  );
}
