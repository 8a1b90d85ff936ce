/**
 * Whether a live booking is inside its resource's working time: the rule
 * set_working_hours and add_time_off flag bookings by, and the check every booking write makes
 * under the resource's lock so none lands outside a change it raced.
 */
import { dayKeyOf, workingIntervals } from '@nogpets/slot-engine';
import {
  flagBookingsToMove,
  type LiveBookingRow,
  listResources,
  listTimeOffEntries,
  type Queryable,
} from '@nogpets/store';
import { localDate, localTime, whenText } from '../core/index.js';
import type { Week } from './week.js';

const DAY_WORDS: Record<string, string> = {
  mon: 'Mondays',
  tue: 'Tuesdays',
  wed: 'Wednesdays',
  thu: 'Thursdays',
  fri: 'Fridays',
  sat: 'Saturdays',
  sun: 'Sundays',
};

/**
 * Why a live booking is outside this week, or null when one working range holds it (the slot
 * engine's instants, so DST days count their own offset). A booking over more than one local day
 * (a sitter's stay) is not held to weekly hours, as the slot engine plans stays.
 */
export function outsideHours(b: LiveBookingRow, week: Week, tz: string, name: string): string | null {
  const date = localDate(b.start, tz);
  if (localDate(new Date(b.end.getTime() - 1), tz) !== date) return null;
  const start = b.start.getTime();
  const end = b.end.getTime();
  if (workingIntervals(week, date, tz).some((r) => r.start <= start && end <= r.end)) return null;
  const day = dayKeyOf(date);
  const ranges = week[day];
  return ranges?.length
    ? `${localTime(b.start, tz)}-${localTime(b.end, tz)} is outside ${name}'s new hours on ${DAY_WORDS[day]} (${ranges.map((r) => `${r.start}-${r.end}`).join(' and ')}).`
    : `${name} no longer works on ${DAY_WORDS[day]}.`;
}

/**
 * A booking just written (made, moved, rebooked) read against the working time as it is now, under
 * its resource's lock (lockResource, which set_working_hours and add_time_off take too): one that
 * had read the hours or time off before a change committed, and is now outside them, is flagged to
 * move exactly as the change would have flagged it had it been there first. In the
 * writer's transaction; none is refused, the person was offered the time.
 */
export async function flagIfOutsideWorkingTime(
  q: Queryable,
  business: { id: string; name: string; timezone: string },
  written: LiveBookingRow[],
  now: Date,
): Promise<void> {
  if (!written.length) return;
  const resources = await listResources(q, business.id);
  const from = new Date(Math.min(...written.map((b) => b.start.getTime())));
  const to = new Date(Math.max(...written.map((b) => b.end.getTime())));
  const offs = await listTimeOffEntries(q, business.id, { from, to, limit: 1000 });
  const flags = written.flatMap((row) => {
    const resource = resources.find((r) => r.id === row.resourceId);
    const outside = resource
      ? outsideHours(row, resource.week as Week, business.timezone, resource.name)
      : null;
    const hours = outside
      ? [{ bookingId: row.id, cause: 'hours', reason: outside, resourceId: row.resourceId, start: row.start }]
      : [];
    const off = offs
      .filter(
        (t) =>
          (t.resourceId === null || t.resourceId === row.resourceId) &&
          t.start < row.end &&
          t.end > row.start,
      )
      .map((t) => ({
        bookingId: row.id,
        cause: t.id,
        reason: `${t.resourceId ? (resource?.name ?? t.resourceId) : 'The business'} is off ${whenText(t.start, t.end, business.timezone)}${t.reason ? `: ${t.reason}` : ''}.`,
        resourceId: row.resourceId,
        start: row.start,
      }));
    return [...hours, ...off];
  });
  await flagBookingsToMove(q, business.id, flags, now);
}
