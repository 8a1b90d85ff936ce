import { Temporal } from '@js-temporal/polyfill';
import { WEEKDAYS } from './constants.js';
import type { WeeklyRepeat } from './types.js';

/**
 * Start instants of a weekly series: the first `start` itself, then every listed weekday at the
 * same LOCAL wall-clock time in `timeZone` (DST-safe via Temporal), strictly after `start` and
 * strictly before `until`, sorted, no duplicates. Every result is before `until`, so a `start` at or
 * after `until` gives `[]`. A wall time that does not exist on a spring-forward day moves forward by
 * the gap (Temporal's `compatible`, as RFC 5545 does); a repeated one on a fall-back day takes the
 * earlier instant. Throws a RangeError for an unknown time zone or an invalid date.
 *
 * @example
 * expandWeekly({
 *   start: new Date('2026-03-23T09:00:00Z'), // Monday 09:00 in London (GMT)
 *   timeZone: 'Europe/London',
 *   repeat: { freq: 'WEEKLY', days: ['mon'] },
 *   until: new Date('2026-04-06T00:00:00Z'),
 * }) // [2026-03-23T09:00Z, 2026-03-30T08:00Z]: 09:00 BST after the clocks go forward
 */
export function expandWeekly(input: {
  start: Date;
  timeZone: string;
  repeat: WeeklyRepeat;
  until: Date;
}): Date[] {
  const { start, timeZone, repeat, until } = input;
  const startMs = start.getTime();
  const untilMs = until.getTime();
  if (Number.isNaN(startMs) || Number.isNaN(untilMs)) {
    throw new RangeError('expandWeekly: start and until must be valid dates.');
  }
  const first = Temporal.Instant.fromEpochMilliseconds(startMs).toZonedDateTimeISO(timeZone);
  if (startMs >= untilMs) return [];
  const wallTime = first.toPlainTime();
  // A Set: days listed twice (or out of order) still give each date once, in date order.
  const listed = new Set(repeat.days);
  const result = [new Date(startMs)];
  let lastMs = startMs;
  // Walk the local dates after the start's. The same wall time on a later date is never an earlier
  // instant, so the first one at or past `until` ends the series; checking every date, listed or
  // not, also ends a walk whose days match no weekday.
  for (let date = first.toPlainDate().add({ days: 1 }); ; date = date.add({ days: 1 })) {
    const ms = date.toZonedDateTime({ timeZone, plainTime: wallTime }).epochMilliseconds;
    if (ms >= untilMs) break;
    // A local date that was skipped whole (Samoa on 30 December 2011) moves forward by the 24-hour
    // gap onto the next date's instant: keep that instant once.
    if (ms > lastMs && listed.has(WEEKDAYS[date.dayOfWeek - 1]!)) {
      result.push(new Date(ms));
      lastMs = ms;
    }
  }
  return result;
}
