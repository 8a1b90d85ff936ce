/** Money, times and names as mails write them: the business's currency and zone, with Intl. */
import { whenText } from '../core/index.js';
import type { BookingFacts } from '../events/index.js';
import type { MailBlock, RenderContext } from './types.js';

/** An English locale of the business's country when Intl knows one ("en-ZA"), else plain English. */
export function localeOf(country: string | null | undefined): string {
  const tag = country ? `en-${country.toUpperCase()}` : 'en';
  try {
    return Intl.NumberFormat.supportedLocalesOf([tag]).length ? tag : 'en';
  } catch {
    return 'en';
  }
}

/** Minor units in the currency, as the business's country writes them ("R 450,00"). */
export function moneyText(money: { amount: number; currency: string }, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: money.currency }).format(
      money.amount / 100,
    );
  } catch {
    return `${(money.amount / 100).toFixed(2)} ${money.currency}`;
  }
}

/** The booking's time in the zone the context shows, with the zone named. */
export function bookingWhen(b: { start: string; end: string }, ctx: RenderContext): string {
  return `${whenText(new Date(b.start), new Date(b.end), ctx.timeZone)} (${ctx.timeZone} time)`;
}

/** The rows every booking mail shows. */
export function bookingRows(b: BookingFacts, ctx: RenderContext): MailBlock {
  return {
    rows: [
      ['When', bookingWhen(b, ctx)],
      ['What', b.what],
      ['With', ctx.business?.name ?? ''],
      ['Total', moneyText(b.total, ctx.locale)],
      ['Booking', b.bookingId],
    ],
  };
}

export function hello(name: string): string {
  const clean = name.trim().replace(/\s+/g, ' ');
  return clean ? `Hello ${clean},` : 'Hello,';
}

/** The business's name, or ours when the event has no business. */
export function businessName(ctx: RenderContext): string {
  return ctx.business?.name ?? 'NogPets';
}

/** Events carry the booking's payment as codes: what happens to the money, in words. */
export function moneyWords(
  b: BookingFacts,
  refund: { amount: number; currency: string } | null | undefined,
  locale: string,
): string {
  if (refund)
    return `${moneyText(refund, locale)} is refunded to your card: NogPets sends it back within 5 to 7 working days.`;
  if (b.paymentMethod === 'CASH') return 'Nothing was paid, so nothing is owed either way.';
  if (b.paymentStatus === 'PENDING') return 'It was not paid, so nothing is charged.';
  return 'Nothing is charged for it.';
}
