import { Temporal } from '@js-temporal/polyfill';
import { SlotEngineError } from './errors.js';
import type { DayKey } from './types.js';

/** The days of a week, Monday first: the keys of a `Week`. The one list of them the services use. */
export const DAY_KEYS = [
  'mon',
  'tue',
  'wed',
  'thu',
  'fri',
  'sat',
  'sun',
] as const satisfies readonly DayKey[];

/** The day of the week of a calendar date `YYYY-MM-DD` (the date's own, whatever the time zone). */
export function dayKeyOf(date: string): DayKey {
  return DAY_KEYS[Temporal.PlainDate.from(date).dayOfWeek - 1]!;
}
const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$|^24:00$/;

/** Minutes since local midnight of `HH:MM`. */
export function minutesOf(text: string, field = 'time'): number {
  if (!HHMM.test(text))
    throw new SlotEngineError('BAD_TIME', `${field} must be HH:MM, got "${text}".`, { field, value: text });
  return Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));
}

const HH_MM = Array.from(
  { length: 24 * 60 },
  (_, m) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`,
);

export function hhmm(minutes: number): string {
  return HH_MM[((minutes % 1440) + 1440) % 1440]!;
}

const knownZones = new Set<string>();

export function checkTimeZone(timeZone: string): void {
  if (knownZones.has(timeZone)) return;
  try {
    Temporal.Now.instant().toZonedDateTimeISO(timeZone);
    knownZones.add(timeZone);
  } catch {
    throw new SlotEngineError('BAD_TIME_ZONE', `"${timeZone}" is not an IANA time zone.`, { timeZone });
  }
}

export function parseDate(text: string, field: string): Temporal.PlainDate {
  try {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) throw new Error();
    return Temporal.PlainDate.from(text, { overflow: 'reject' });
  } catch {
    throw new SlotEngineError('BAD_DATE', `${field} must be a date YYYY-MM-DD, got "${text}".`, {
      field,
      value: text,
    });
  }
}

/**
 * How local wall-clock minutes of one date map to instants. On a day without an offset change the
 * mapping is arithmetic (midnight + minutes); on a transition day each time goes through Temporal:
 * times that do not exist (spring forward) map to null, repeated times (fall back) to the earlier.
 */
export interface LocalDay {
  date: string;
  dayKey: DayKey;
  /** The instant of local midnight when the day has no offset change, else null. */
  stableMidnight: number | null;
  /** The day's first instant: local midnight, or the first time the clock shows where midnight is skipped. */
  start: number;
  toEpochMs(minutes: number): number | null;
}

const dayCache = new Map<string, LocalDay>();

export function localDay(dateOrText: Temporal.PlainDate | string, timeZone: string): LocalDay {
  const text = typeof dateOrText === 'string' ? dateOrText : dateOrText.toString();
  const key = `${timeZone}|${text}`;
  const cached = dayCache.get(key);
  if (cached) return cached;
  const date = typeof dateOrText === 'string' ? Temporal.PlainDate.from(dateOrText) : dateOrText;
  const start = date.toZonedDateTime({ timeZone });
  const next = date.add({ days: 1 }).toZonedDateTime({ timeZone });
  const midnight = start.epochMilliseconds;
  const stable =
    next.epochMilliseconds - midnight === 86_400_000 &&
    start.offsetNanoseconds === next.offsetNanoseconds &&
    start.hour === 0 &&
    start.minute === 0;
  const day: LocalDay = {
    date: date.toString(),
    dayKey: DAY_KEYS[date.dayOfWeek - 1]!,
    stableMidnight: stable ? midnight : null,
    start: midnight,
    toEpochMs: stable
      ? (minutes) => midnight + minutes * 60_000
      : (minutes) => {
          if (minutes >= 1440) return next.epochMilliseconds + (minutes - 1440) * 60_000;
          const wall = date.toPlainDateTime({ hour: Math.floor(minutes / 60), minute: minutes % 60 });
          const zdt = wall.toZonedDateTime(timeZone, { disambiguation: 'earlier' });
          // In a spring-forward gap the wall time does not exist: no instant shows it.
          if (zdt.hour !== wall.hour || zdt.minute !== wall.minute) return null;
          return zdt.epochMilliseconds;
        },
  };
  if (dayCache.size > 5000) dayCache.clear();
  dayCache.set(key, day);
  return day;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The local date `YYYY-MM-DD` of an instant in a zone (one formatter per zone, made once). Built
 * from the formatter's parts, not its text: a locale's date layout has changed under Node before.
 */
export function localDateText(ms: number, timeZone: string): string {
  let f = dateFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormats.set(timeZone, f);
  }
  let year = '';
  let month = '';
  let day = '';
  for (const part of f.formatToParts(ms)) {
    if (part.type === 'year') year = part.value;
    else if (part.type === 'month') month = part.value;
    else if (part.type === 'day') day = part.value;
  }
  return `${year.padStart(4, '0')}-${month}-${day}`;
}

export function todayIn(nowMs: number, timeZone: string): Temporal.PlainDate {
  return Temporal.PlainDate.from(localDateText(nowMs, timeZone));
}

const CANONICAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{3}))?Z$/;

/** Milliseconds of an ISO instant; the canonical UTC form (what we emit) is read without Date.parse. */
export function instantMs(value: string | number | Date, field: string): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    throw new SlotEngineError('BAD_DATE', `${field} must be a finite time.`, { field });
  }
  if (value instanceof Date) return instantMs(value.getTime(), field);
  const text = value;
  const m = CANONICAL.exec(text);
  if (m) {
    const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, m[7] ? +m[7] : 0);
    if (+m[2]! >= 1 && +m[2]! <= 12 && +m[3]! <= 31 && +m[4]! < 24 && +m[5]! < 60 && +m[6]! < 60) return ms;
  }
  const ms = Date.parse(text);
  if (Number.isNaN(ms))
    throw new SlotEngineError('BAD_DATE', `${field} must be an ISO 8601 instant, got "${text}".`, {
      field,
      value: text,
    });
  return ms;
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date, and back: plain arithmetic for the hot path. */
export function epochDay(text: string): number {
  return (
    Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10))) / 86_400_000
  );
}

export function dateOfEpochDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}
