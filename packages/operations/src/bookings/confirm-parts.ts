/**
 * A booking's parts of a confirm step (core/confirm.ts): its day and time, place, pets and amount,
 * and what happens to its money, as the booking, pay and shop steps tell them.
 */
import { formatMoney } from '@nogpets/pricing-tiers';
import type { BookingRow } from '@nogpets/store';
import type { ConfirmAmount, ConfirmWhen } from '../core/index.js';
import type { BookingDetails } from './booking-model.js';

/** A booking's day and time, place, pets and amount, as its confirm steps tell them. */
export function bookingParts(
  rows: BookingRow[],
  business: { timezone: string; currency: string; name: string },
): { when: ConfirmWhen; place: string; pets: string[]; amount: ConfirmAmount } {
  const row = rows[0]!;
  const d = row.details as unknown as Partial<BookingDetails>;
  const timeZone = d.timeZone ?? business.timezone;
  const more = rows.length - 1;
  return {
    when: {
      start: row.start,
      end: row.end,
      timeZone,
      ...(more > 0 ? { more: `and ${more} later booking${more === 1 ? '' : 's'}` } : {}),
    },
    place: d.address || business.name,
    pets: (d.pets ?? []).map((p) => p.name).filter(Boolean),
    amount: { cents: rows.reduce((s, r) => s + r.totalCents, 0), currency: d.currency ?? business.currency },
  };
}

/** What happens to a booking's money when it stays as it is (accepted, moved). */
export function bookingMoney(rows: Pick<BookingRow, 'paymentMethod' | 'paymentStatus'>[]): string {
  const row = rows[0]!;
  if (row.paymentStatus === 'PAID') return 'paid by card, unchanged';
  if (row.paymentMethod === 'CASH') return 'in cash to the crew on the day, unchanged';
  return 'by card, still unpaid: the client pays through the pay link';
}

/** What happens to the money of bookings being cancelled (booking-rules' CANCEL: paid is refunded). */
export function cancelMoney(
  rows: Pick<BookingRow, 'paymentMethod' | 'paymentStatus' | 'totalCents'>[],
  currency: string,
): string {
  const paid = rows.filter((r) => r.paymentStatus === 'PAID').reduce((s, r) => s + r.totalCents, 0);
  if (paid > 0) {
    const all = rows.every((r) => r.paymentStatus === 'PAID');
    return all
      ? 'paid by card is refunded to the card in 5 to 7 working days'
      : `in all; ${formatMoney(paid, currency)} paid by card is refunded to the card in 5 to 7 working days, the rest is not owed`;
  }
  return rows[0]!.paymentMethod === 'CASH'
    ? 'in cash is no longer due: nothing is charged'
    : 'by card is not owed: nothing was charged, and its pay link stops working';
}
