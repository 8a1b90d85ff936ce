// What a business told the client about a booking: the record the client sees, written
// in the transaction of the business's change (migration 0024).
import { newId } from './ids.js';
import type { Queryable } from './sql.js';

export type BookingMessageKind = 'ACCEPTED' | 'DECLINED' | 'MOVED' | 'CANCELLED';

export interface BookingMessageRow {
  id: string;
  bookingId: string;
  businessId: string;
  kind: BookingMessageKind;
  /** The whole message in words, as the client reads it. */
  text: string;
  /** The business's own words, when it gave a reason. */
  reason: string | null;
  byUserId: string | null;
  byName: string;
  at: Date;
}

export type NewBookingMessage = Omit<BookingMessageRow, 'id' | 'at'>;

const COLUMNS = `id, booking_id as "bookingId", business_id as "businessId", kind, text, reason,
  by_user_id as "byUserId", by_name as "byName", at`;

/** The most messages a booking shows its client: the latest. */
export const MESSAGES_SHOWN = 5;

/** Records what the business told the clients of these bookings. */
export async function insertBookingMessages(
  sql: Queryable,
  messages: NewBookingMessage[],
  at: Date,
): Promise<void> {
  for (const m of messages) {
    await sql`
      insert into booking_messages (id, booking_id, business_id, kind, text, reason, by_user_id, by_name, at)
      values (${newId('bmsg')}, ${m.bookingId}, ${m.businessId}, ${m.kind}, ${m.text}, ${m.reason}, ${m.byUserId}, ${m.byName}, ${at})`;
  }
}

/** The latest messages (at most `perBooking`, newest first) of each of these bookings. */
export async function listBookingMessages(
  sql: Queryable,
  bookingIds: string[],
  perBooking = MESSAGES_SHOWN,
): Promise<BookingMessageRow[]> {
  if (!bookingIds.length) return [];
  return sql<BookingMessageRow[]>`
    select ${sql.unsafe(COLUMNS)} from (
      select m.*, row_number() over (partition by booking_id order by at desc, id desc) as n
      from booking_messages m where booking_id = any(${bookingIds}::text[])
    ) m where n <= ${perBooking}
    order by booking_id, at desc, id desc`;
}
