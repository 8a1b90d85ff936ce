import { epochDay } from './local-time.js';

const formats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per locale and kind (with or without the year), made once. */
function formatOf(locale: string, withYear: boolean): Intl.DateTimeFormat {
  const key = `${locale} ${withYear}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      ...(withYear ? { year: 'numeric' } : {}),
      timeZone: 'UTC',
    });
    formats.set(key, f);
  }
  return f;
}

/**
 * How a day is named to a person, seen from `today` (both local dates YYYY-MM-DD): "Today",
 * "Tomorrow", else the weekday and date, with the year when it is not this year's.
 *
 * @example dayLabel('2026-11-25', '2026-11-23') // 'Wednesday 25 November'
 * @example dayLabel('2027-01-02', '2026-12-30') // 'Saturday 2 January 2027'
 */
export function dayLabel(date: string, today: string, locale = 'en-ZA'): string {
  const day = epochDay(date);
  const diff = day - epochDay(today);
  if (diff === 0) return 'Today';
  if (diff === 1) return 'Tomorrow';
  return formatOf(locale, date.slice(0, 4) !== today.slice(0, 4))
    .format(day * 86_400_000)
    .replaceAll(',', '');
}
