import { checkTimeZone, localDay, minutesOf, parseDate } from './local-time.js';
import type { Week } from './types.js';

/**
 * The instant a local wall-clock time (`HH:MM`, or `24:00` for the end of the day) shows on a
 * date in a zone, as {@link findSlots} reads working hours: through that day's own offset, the
 * earlier instant when the time repeats (clocks go back), null when it never shows (clocks go
 * forward). Throws `SlotEngineError` (`BAD_DATE`, `BAD_TIME`, `BAD_TIME_ZONE`) for input it
 * cannot read, as the rest of the engine does.
 *
 * @example localInstant('2026-10-24', '09:00', 'Europe/Lisbon'); // Date.parse('2026-10-24T08:00:00Z')
 */
export function localInstant(date: string, time: string, timeZone: string): number | null {
  checkTimeZone(timeZone);
  parseDate(date, 'date');
  return localDay(date, timeZone).toEpochMs(minutesOf(time));
}

/**
 * The first instant of a local date in a zone: local midnight, or where the clocks skip midnight
 * (America/Santiago on 2026-09-06 goes from 23:59 to 01:00) the first time the clock shows that
 * day. The date's instants are `[localDayStart(date), localDayStart(next date))`, the same day
 * {@link findSlots} and {@link workingIntervals} read (`00:00`-`24:00`). Throws `SlotEngineError`
 * (`BAD_DATE`, `BAD_TIME_ZONE`) for a date or zone it cannot read.
 *
 * @example localDayStart('2026-09-06', 'America/Santiago'); // Date.parse('2026-09-06T04:00:00Z')
 */
export function localDayStart(date: string, timeZone: string): number {
  checkTimeZone(timeZone);
  parseDate(date, 'date');
  return localDay(date, timeZone).start;
}

/**
 * The instants a week's working ranges cover on one local date, in order: what {@link findSlots}
 * offers times inside. A range that starts in a skipped hour starts when the clock shows a time
 * again; one that ends in it ends there too. A range of `00:00`-`24:00` is the whole local day:
 * from its first instant (01:00 where the clocks skip midnight) to the next day's first.
 *
 * On a day whose offset changes, findSlots fits a slot in local minutes (`t + durationMin` within
 * the range), so a slot it offers across a skipped hour may end up to that hour past the range's
 * last instant here; on every other day each slot it offers lies inside one of these intervals.
 * Throws `SlotEngineError` for a date, time or zone it cannot read.
 *
 * @example workingIntervals({ mon: [{ start: '09:00', end: '17:00' }] }, '2026-10-26', 'Europe/Lisbon');
 * // [{ start: Date.parse('2026-10-26T09:00:00Z'), end: Date.parse('2026-10-26T17:00:00Z') }]
 */
export function workingIntervals(
  week: Week,
  date: string,
  timeZone: string,
): { start: number; end: number }[] {
  checkTimeZone(timeZone);
  parseDate(date, 'date');
  const day = localDay(date, timeZone);
  const at = (minutes: number) => {
    for (let m = minutes; m <= 1440; m += 1) {
      const ms = day.toEpochMs(m);
      if (ms !== null) return ms;
    }
    return day.toEpochMs(1440)!;
  };
  return (week[day.dayKey] ?? [])
    .map((r) => ({ start: at(minutesOf(r.start, 'start')), end: at(minutesOf(r.end, 'end')) }))
    .filter((r) => r.start < r.end)
    .sort((a, b) => a.start - b.start);
}
