import { type BookingState, canPay, type Refusal, rescheduleDeadline } from '@nogpets/booking-rules';
import { formatMoney, type Quote } from '@nogpets/pricing-tiers';
import { type BookingRow, findBooking, listBookingMessages, type Queryable } from '@nogpets/store';
import { z } from 'zod';
import {
  LineIdSchema,
  type OperationContext,
  ServiceError,
  type ThrownCode,
  whenText,
} from '../core/index.js';

/** What a booking keeps beside its columns: the price as quoted and what the crew needs. */
export interface BookingDetails {
  category: 'grooming' | 'walking' | 'sitting';
  quote: Quote;
  pets: { petId: string; name: string; serviceIds: string[] }[];
  address: string;
  currency: string;
  timeZone: string;
  /** A sitting plan's kind, when the booking is part of one. */
  mode?: 'STAY' | 'VISITS';
  /**
   * The card fee in this booking's total, when it is not the quote's (visits pay it once, on the
   * first). Absent: a card booking carries the quote's fee.
   */
  cardFeeCents?: number;
}

export const BookingStatusSchema = z.enum(['PENDING', 'ACCEPTED', 'CANCELLED', 'EXPIRED', 'DONE']).meta({
  id: 'BookingStatus',
  description:
    'PENDING: waiting for payment or for the business to accept; ACCEPTED: confirmed; CANCELLED; EXPIRED: an unpaid hold lapsed; DONE.',
});
export const PaymentStatusSchema = z
  .enum(['PENDING', 'PAID', 'CASH_DUE', 'REFUND_REQUESTED', 'REFUNDED', 'VOID'])
  .meta({
    id: 'PaymentStatus',
    description:
      'PENDING: card payment awaited (see canPay); PAID; CASH_DUE: cash to the crew on the day; REFUND_REQUESTED: the operator refunds in 5 to 7 working days; REFUNDED; VOID: nothing is owed.',
  });

/** One thing the business told the person about a booking. */
export const BusinessMessageSchema = z
  .object({
    at: z.iso.datetime(),
    kind: z.enum(['ACCEPTED', 'DECLINED', 'MOVED', 'CANCELLED']),
    text: z.string().meta({ description: 'The message in words, with the reason the business gave.' }),
  })
  .meta({ id: 'BusinessMessage', description: 'What the business told the person about the booking.' });

export const BookingSchema = z
  .object({
    id: z.string(),
    status: BookingStatusSchema,
    paymentStatus: PaymentStatusSchema,
    paymentMethod: z.enum(['CARD', 'CASH']),
    canPay: z
      .boolean()
      .meta({ description: 'True when a card booking still waits for payment: pay_booking makes a link.' }),
    totalCents: z.int(),
    total: z.string().meta({ example: 'R390.00' }),
    cardFeeCents: z
      .int()
      .meta({ description: 'The card fee included in totalCents (0 for cash): R10 per card booking.' }),
    currency: z.string(),
    category: LineIdSchema,
    what: z.string().meta({ description: 'The services, per pet, in words.' }),
    pets: z.array(z.object({ petId: z.string(), name: z.string(), serviceIds: z.array(z.string()) })),
    start: z.iso.datetime(),
    end: z.iso.datetime(),
    when: z.string().meta({ description: 'Local date and time in words (Johannesburg time).' }),
    resourceId: z.string(),
    where: z.string().meta({ description: 'The address.' }),
    notes: z.string(),
    seriesId: z.string().nullable().meta({ description: 'Set for a week of a weekly repeat.' }),
    holdUntil: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'An unpaid card booking holds its time until then.' }),
    movableUntil: z.iso.datetime().nullable().meta({
      description:
        'The person may move it with reschedule_booking until then (12 hours before the start); later they phone the operator. Null once it is no longer active.',
    }),
    createdAt: z.iso.datetime(),
    fromBusiness: z
      .array(BusinessMessageSchema)
      .optional()
      .meta({
        description:
          'What the business told the person about this booking (it accepted, declined, moved or cancelled it), the ' +
          'latest 5, newest first; on get_booking and list_bookings. Tell the person what it says.',
      }),
  })
  .meta({
    id: 'Booking',
    description:
      'A booking of the person: what, when and where, its status and payment status, the total, and whether it can ' +
      'still be paid (`canPay`).',
  });

export type Booking = z.infer<typeof BookingSchema>;

export function whatText(details: BookingDetails): string {
  return details.quote.pets.map((p) => `${p.name}: ${p.items.map((i) => i.name).join(', ')}`).join('; ');
}

/**
 * The card fee in a card booking's total: as recorded, else the quote's. A visit stored before the
 * fee was recorded carries it only if its total is above one visit's price (the first visit).
 */
function cardFeeOf(row: BookingRow, details: BookingDetails): number {
  if (details.cardFeeCents !== undefined) return details.cardFeeCents;
  const fee = details.quote?.cardFeeCents ?? 0;
  if (details.mode !== 'VISITS') return fee;
  return Math.min(fee, Math.max(0, row.totalCents - (details.quote?.subtotalCents ?? row.totalCents)));
}

export function toBooking(row: BookingRow): Booking {
  const details = row.details as unknown as BookingDetails;
  const state = stateOf(row);
  return {
    id: row.id,
    status: row.status,
    paymentStatus: row.paymentStatus,
    paymentMethod: row.paymentMethod,
    canPay: canPay(state),
    totalCents: row.totalCents,
    total: formatMoney(row.totalCents, details.currency ?? 'ZAR'),
    cardFeeCents: row.paymentMethod === 'CARD' ? cardFeeOf(row, details) : 0,
    currency: details.currency ?? 'ZAR',
    // line_id can only hold a line's id (a check in migration 0001); the store types it as text.
    category: row.lineId as Booking['category'],
    what: details.quote ? whatText(details) : row.lineId,
    pets: details.pets ?? [],
    start: row.start.toISOString(),
    end: row.end.toISOString(),
    when: whenText(row.start, row.end, details.timeZone ?? 'Africa/Johannesburg'),
    resourceId: row.resourceId,
    where: details.address ?? '',
    notes: row.notes,
    seriesId: row.seriesId,
    holdUntil: row.holdUntil ? row.holdUntil.toISOString() : null,
    movableUntil: rescheduleDeadline(state)?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The bookings with what their businesses told the person (`fromBusiness`, the latest first; empty when nothing). */
export async function withMessages(q: Queryable, bookings: Booking[]): Promise<Booking[]> {
  const rows = await listBookingMessages(
    q,
    bookings.map((b) => b.id),
  );
  return bookings.map((b) => ({
    ...b,
    fromBusiness: rows
      .filter((m) => m.bookingId === b.id)
      .map((m) => ({ at: m.at.toISOString(), kind: m.kind, text: m.text })),
  }));
}

/** A booking's status in words for the person: an unpaid card booking waits for its payment. */
export function statusWords(b: Pick<Booking, 'status' | 'paymentStatus' | 'paymentMethod'>): string {
  if (b.status === 'PENDING')
    return b.paymentMethod === 'CARD' && b.paymentStatus === 'PENDING'
      ? 'Waiting for payment'
      : 'Booked, waiting for the business to confirm';
  return {
    ACCEPTED: 'Confirmed',
    CANCELLED: 'Cancelled',
    EXPIRED: 'Lapsed: it was not paid in time',
    DONE: 'Done',
  }[b.status];
}

/** A booking's payment in words for the person. */
export function paymentWords(b: Pick<Booking, 'paymentStatus' | 'paymentMethod'>): string {
  return {
    PENDING: 'Not paid yet (card)',
    PAID: b.paymentMethod === 'CARD' ? 'Paid by card' : 'Paid',
    CASH_DUE: 'Cash to the crew on the day',
    REFUND_REQUESTED: 'Being refunded to the card (5 to 7 working days)',
    REFUNDED: 'Refunded',
    VOID: 'Nothing to pay',
  }[b.paymentStatus];
}

export function stateOf(row: BookingRow): BookingState {
  return {
    status: row.status,
    paymentStatus: row.paymentStatus,
    paymentMethod: row.paymentMethod,
    start: row.start,
    end: row.end,
  };
}

/**
 * The code a rule's refusal is thrown with. The rules' CONFIRM_REQUIRED is never thrown bare: the
 * operation asks with `confirmStep` (core/confirm.ts), which carries the summary, before this.
 */
export function refusalCode(r: Refusal): ThrownCode {
  if (r.code === 'CONFIRM_REQUIRED')
    throw new Error(`A confirm step was not asked with confirmStep: ${r.message}`);
  return r.code;
}

/** A rule's refusal as the service's error. */
export function refused(r: Refusal, details: Record<string, unknown> = {}): never {
  throw new ServiceError(refusalCode(r), r.message, { ...details, message: r.message });
}

/** The person's own booking, or 404 (another person's booking is not shown to exist). */
export async function ownBooking(
  ctx: OperationContext,
  sql: Queryable,
  id: string,
  forUpdate = false,
): Promise<BookingRow> {
  const row = await findBooking(sql, id, { forUpdate });
  if (!row || row.userId !== ctx.auth!.userId)
    throw new ServiceError('NOT_FOUND', `No booking ${id}.`, { bookingId: id });
  return row;
}

export const BookingIdShape = {
  bookingId: z.string().min(1).max(128).meta({ description: 'From book or list_bookings.' }),
};
