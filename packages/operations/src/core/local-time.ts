/** Local dates and times of instants in a business's zone, in the words bookings are told in. */
import { localDateText, localDayStart } from '@nogpets/slot-engine';

export const MINUTE = 60_000;
export const DAY_MS = 86_400_000;

const formats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone and kind, made once: making one costs far more than using it. */
function format(kind: 'time' | 'day' | 'shortDay', timeZone: string): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let f = formats.get(key);
  if (!f) {
    f =
      kind === 'time'
        ? new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
        : new Intl.DateTimeFormat('en-ZA', {
            timeZone,
            weekday: 'short',
            day: 'numeric',
            month: 'short',
            ...(kind === 'day' ? { year: 'numeric' } : {}),
          });
    formats.set(key, f);
  }
  return f;
}

/** The local calendar date `YYYY-MM-DD` of an instant in a zone (slot-engine's, so both agree). */
export function localDate(at: Date, timeZone: string): string {
  return localDateText(at.getTime(), timeZone);
}

/**
 * The instants of the local dates `from` to `to` (both included) in a zone: from the first instant
 * of `from` up to, not including, the first of the day after `to`. Slot-engine's day, so a day plan,
 * a booking list, earnings and payouts cover the same instants as the open times offered.
 */
export function localDaysWindow(from: string, to: string, timeZone: string): { from: Date; to: Date } {
  return {
    from: new Date(localDayStart(from, timeZone)),
    to: new Date(localDayStart(addDays(to, 1), timeZone)),
  };
}

/** The local wall-clock time `HH:MM` of an instant in a zone. */
export function localTime(at: Date, timeZone: string): string {
  return format('time', timeZone).format(at);
}

/** The local date `days` after a local date. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** "Sat, 28 Nov 2026" in a zone (the business's, or the person's on their own pages). */
export function dayText(at: Date, timeZone: string): string {
  return format('day', timeZone).format(at);
}

/** "Sat, 28 Nov 2026, 09:00" in the business's zone. */
export function momentText(at: Date, timeZone: string): string {
  return `${format('day', timeZone).format(at)}, ${localTime(at, timeZone)}`;
}

/** "Sat, 28 Nov 2026, 09:00 to 10:30" in the business's zone (a span over days names both). */
export function whenText(start: Date, end: Date, timeZone: string): string {
  const day = format('day', timeZone).format(start);
  if (localDate(start, timeZone) === localDate(end, timeZone))
    return `${momentText(start, timeZone)} to ${localTime(end, timeZone)}`;
  return `${day} ${localTime(start, timeZone)} to ${format('shortDay', timeZone).format(end)} ${localTime(end, timeZone)}`;
}
