import { Temporal } from '@js-temporal/polyfill';
import { HOUR_MS, REMINDER_LOCAL_HOUR, REMINDER_MIN_NOTICE_HOURS } from './constants.js';

/**
 * When to remind the person of a booking: at 18:00 local time in `timeZone` on the day before its
 * start (the evening before, when people plan tomorrow; a reminder at 03:00 for a 09:00 groom is
 * no use), or null when the booking was made less than 6 hours before that moment (its
 * confirmation is still fresh). 18:00 that does not exist on a spring-forward day moves forward
 * by the gap (Temporal's `compatible`). Throws a RangeError for an unknown time zone or an invalid
 * date.
 *
 * @example
 * reminderAt({
 *   start: new Date('2026-12-10T07:00:00Z'), // 09:00 in Johannesburg
 *   timeZone: 'Africa/Johannesburg',
 *   bookedAt: new Date('2026-12-01T10:00:00Z'),
 * }) // 2026-12-09T16:00:00Z: 18:00 the evening before
 */
export function reminderAt(input: { start: Date; timeZone: string; bookedAt: Date }): Date | null {
  const { start, timeZone, bookedAt } = input;
  if (Number.isNaN(start.getTime()) || Number.isNaN(bookedAt.getTime())) {
    throw new RangeError('reminderAt: start and bookedAt must be valid dates.');
  }
  const day = Temporal.Instant.fromEpochMilliseconds(start.getTime())
    .toZonedDateTimeISO(timeZone)
    .toPlainDate();
  const at = day
    .subtract({ days: 1 })
    .toZonedDateTime({ timeZone, plainTime: new Temporal.PlainTime(REMINDER_LOCAL_HOUR) }).epochMilliseconds;
  if (bookedAt.getTime() > at - REMINDER_MIN_NOTICE_HOURS * HOUR_MS) return null;
  return new Date(at);
}
