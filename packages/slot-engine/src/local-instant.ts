import { localDay, minutesOf, parseDate } from './local-time.js';
import type { Week } from './types.js';

/**
 * The instant a local wall-clock time (`HH:MM`, or `24:00` for the end of the day) shows on a
 * date in a zone, as {@link findSlots} reads working hours: through that day's own offset, the
 * earlier instant when the time repeats (clocks go back), null when it never shows (clocks go
 * forward).
 *
 * @example localInstant('2026-10-24', '09:00', 'Europe/Lisbon'); // Date.parse('2026-10-24T08:00:00Z')
 */
export function localInstant(date: string, time: string, timeZone: string): number | null {
  parseDate(date, 'date');
  return localDay(date, timeZone).toEpochMs(minutesOf(time));
}

/**
 * The instants a week's working ranges cover on one local date, in order: what {@link findSlots}
 * offers times inside. A range that starts in a skipped hour starts when the clock shows a time
 * again; one that ends in it ends there too.
 *
 * @example workingIntervals({ mon: [{ start: '09:00', end: '17:00' }] }, '2026-10-26', 'Europe/Lisbon');
 * // [{ start: Date.parse('2026-10-26T09:00:00Z'), end: Date.parse('2026-10-26T17:00:00Z') }]
 */
export function workingIntervals(
  week: Week,
  date: string,
  timeZone: string,
): { start: number; end: number }[] {
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
