import { Temporal } from '@js-temporal/polyfill';
import { SERIES_WEEKS_AHEAD } from './constants.js';

/**
 * The date (YYYY-MM-DD, local) up to which a series is kept booked: SERIES_WEEKS_AHEAD weeks from
 * `now`. That whole local date is included, so the result is the instant the FOLLOWING local day
 * begins in `timeZone`; it serves directly as `expandWeekly`'s exclusive `until`.
 *
 * @example seriesHorizon(new Date('2026-05-04T10:00:00Z'), 'Africa/Johannesburg')
 * // 2026-06-01T22:00:00.000Z: 2 June 00:00 SAST, so Monday 1 June (4 weeks on) is still booked
 */
export function seriesHorizon(now: Date, timeZone: string): Date {
  const today = Temporal.Instant.fromEpochMilliseconds(now.getTime())
    .toZonedDateTimeISO(timeZone)
    .toPlainDate();
  const lastDate = today.add({ weeks: SERIES_WEEKS_AHEAD });
  // The start of the next day (not 24 h later): DST days are 23 or 25 hours long.
  return new Date(lastDate.add({ days: 1 }).toZonedDateTime({ timeZone }).epochMilliseconds);
}
