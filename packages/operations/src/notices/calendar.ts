/** The .ics sent with a booking's confirmation or move (RFC 5545, made with ical-generator). */
import icalGenerator, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { BookingFacts } from '../events/index.js';
import type { CalendarEntry, RenderContext } from './types.js';

/** Sequence numbers count from here (seconds): a later change of a booking always has a larger one. */
const SEQUENCE_EPOCH = Date.UTC(2025, 0, 1);

/** One UID per booking, kept when it moves, so a calendar updates the entry it has. */
export function bookingCalendar(b: BookingFacts, ctx: RenderContext, cancelled = false): CalendarEntry {
  const business = ctx.business?.name ?? 'NogPets';
  return {
    uid: `${b.bookingId}@nogpets`,
    sequence: Math.max(0, Math.floor((ctx.occurredAt.getTime() - SEQUENCE_EPOCH) / 1000)),
    start: new Date(b.start),
    end: new Date(b.end),
    summary: `${b.what} (${business})`,
    description: `Booking ${b.bookingId} with ${business}. Times are ${ctx.timeZone} time.`,
    cancelled,
  };
}

/** The calendar file: times in UTC (every client shows them in its own zone), PUBLISH (no reply asked). */
export function icsText(entry: CalendarEntry, stamp: Date): string {
  const cal = icalGenerator({
    prodId: { company: 'NogPets', product: 'notices', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
  });
  cal.createEvent({
    id: entry.uid,
    sequence: entry.sequence,
    stamp,
    start: entry.start,
    end: entry.end,
    summary: entry.summary,
    description: entry.description,
    status: entry.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return cal.toString();
}
