/**
 * A feed's bookings as an iCalendar document (RFC 5545), made by ical-generator. Pure: the rows,
 * the feed's kind and its words in, the text out. Times are UTC (`…Z`); the zone they are meant in
 * is named once with X-WR-TIMEZONE (docs/decisions.md, "Calendar feeds").
 */
import { formatMoney } from '@nogpets/pricing-tiers';
import type { CalendarFeedScope, FeedBookingRow } from '@nogpets/store';
import ical, { ICalEventStatus } from 'ical-generator';

/** What a booking's details say of its pets and services (the quote it was priced with). */
interface DetailsOfFeed {
  quote?: { pets?: { name?: string; items?: { name?: string }[] }[] };
  pets?: { name?: string }[];
  address?: string;
  currency?: string;
}

/** How often a subscribed calendar is asked to come back (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
export const FEED_REFRESH_SECONDS = 15 * 60;

const STATUS_WORDS: Record<FeedBookingRow['status'], string> = {
  PENDING: 'Waiting to be confirmed',
  ACCEPTED: 'Confirmed',
  CANCELLED: 'Cancelled',
  EXPIRED: 'Lapsed: it was not paid in time',
  DONE: 'Done',
};

const PAYMENT_WORDS: Record<FeedBookingRow['paymentStatus'], string> = {
  PENDING: 'Card payment awaited',
  PAID: 'Paid',
  CASH_DUE: 'Cash on the day',
  REFUND_REQUESTED: 'Being refunded',
  REFUNDED: 'Refunded',
  VOID: 'Nothing to pay',
};

/** "Full groom, Nails for Bongo; Bath for Rex": what is done, and for which pet. */
export function whatFor(row: Pick<FeedBookingRow, 'details' | 'lineId'>): string {
  const d = row.details as DetailsOfFeed;
  const pets = d.quote?.pets ?? [];
  const parts = pets
    .map((p) => {
      const items = (p.items ?? []).map((i) => i.name).filter(Boolean);
      const name = p.name?.trim();
      return items.length ? (name ? `${items.join(', ')} for ${name}` : items.join(', ')) : (name ?? '');
    })
    .filter(Boolean);
  if (parts.length) return parts.join('; ');
  const names = (d.pets ?? []).map((p) => p.name).filter(Boolean);
  const line = row.lineId.charAt(0).toUpperCase() + row.lineId.slice(1);
  return names.length ? `${line} for ${names.join(', ')}` : line;
}

/** Where the job is: the saved address, or the text the booking was made with. */
export function whereOf(row: Pick<FeedBookingRow, 'address' | 'details'>): string | null {
  const a = row.address;
  if (a) return [a.line1, a.suburb, a.postalCode, a.city].filter(Boolean).join(', ') || null;
  const text = (row.details as DetailsOfFeed).address?.trim();
  return text || null;
}

const isOff = (row: FeedBookingRow) => row.status === 'CANCELLED' || row.status === 'EXPIRED';

function statusOf(row: FeedBookingRow): ICalEventStatus {
  if (isOff(row)) return ICalEventStatus.CANCELLED;
  return row.status === 'PENDING' ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED;
}

export interface FeedSettings {
  scope: CalendarFeedScope;
  /** The calendar's name (X-WR-CALNAME). */
  name: string;
  /** The zone the times are meant in (the business's; NogPets' own for a pet owner). */
  timeZone: string;
  /** The service's public address: a pet owner's events link to their account page. */
  publicUrl: string;
}

/** The summary line: what, for whom (the client for staff, the business for a pet owner). */
export function summaryOf(row: FeedBookingRow, scope: CalendarFeedScope): string {
  const what = whatFor(row);
  const whom = scope === 'mine' ? ` with ${row.businessName}` : row.clientName ? ` (${row.clientName})` : '';
  return `${isOff(row) ? 'Cancelled: ' : ''}${what}${whom}`;
}

function descriptionOf(row: FeedBookingRow, settings: FeedSettings): string {
  const currency = (row.details as DetailsOfFeed).currency ?? 'ZAR';
  const money = formatMoney(row.totalCents, currency);
  const lines = [STATUS_WORDS[row.status]];
  if (settings.scope === 'mine') {
    lines.push(`${PAYMENT_WORDS[row.paymentStatus]}: ${money}`);
    lines.push(`See, move or cancel it: ${settings.publicUrl.replace(/\/$/, '')}/account`);
  } else {
    lines.push(row.resourceName);
    if (row.clientName)
      lines.push(`Client: ${row.clientName}${row.clientPhone ? `, ${row.clientPhone}` : ''}`);
    lines.push(
      row.paymentStatus === 'CASH_DUE'
        ? `Cash to collect: ${money}`
        : `${PAYMENT_WORDS[row.paymentStatus]}: ${money}`,
    );
  }
  if (row.notes.trim()) lines.push(`Notes: ${row.notes.trim()}`);
  return lines.join('\n');
}

/** The feed's text: one VEVENT per booking, UID from the booking id so a moved booking stays one event. */
export function feedIcs(rows: FeedBookingRow[], settings: FeedSettings): string {
  const calendar = ical({
    name: settings.name,
    prodId: { company: 'NogPets', product: 'Calendar feeds', language: 'EN' },
    ttl: FEED_REFRESH_SECONDS,
    // The times stay UTC (a calendar's own zone setting would turn them into floating local times
    // without a VTIMEZONE): the zone is named for the calendar app to show them in.
    x: [['X-WR-TIMEZONE', settings.timeZone]],
  });
  for (const row of rows) {
    const where = whereOf(row);
    calendar.createEvent({
      id: `${row.id}@nogpets`,
      sequence: row.changes,
      start: row.start,
      end: row.end,
      // No METHOD: DTSTAMP is when the booking was last revised (RFC 5545 3.8.7.2), so an unchanged
      // feed is the same text (its ETag holds) until a booking changes.
      stamp: row.updatedAt,
      created: row.createdAt,
      lastModified: row.updatedAt,
      summary: summaryOf(row, settings.scope),
      description: descriptionOf(row, settings),
      location: where,
      status: statusOf(row),
      url:
        settings.scope === 'mine'
          ? `${settings.publicUrl.replace(/\/$/, '')}/account#booking-${row.id}`
          : null,
    });
  }
  return calendar.toString();
}
