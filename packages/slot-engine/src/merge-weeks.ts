import { DAY_KEYS, hhmm, minutesOf } from './local-time.js';
import type { Week } from './types.js';

const text = (m: number) => (m === 24 * 60 ? '24:00' : hhmm(m));

/**
 * When a business is open, from the weeks of the vans, walkers or sitters that work for it: each
 * day's ranges of any of them, overlapping or touching ones joined, in order; days none works are
 * left out. What a business publishes as its hours.
 *
 * @example mergeWeeks([{ mon: [{ start: '08:00', end: '12:00' }] }, { mon: [{ start: '11:00', end: '17:00' }] }])
 * // { mon: [{ start: '08:00', end: '17:00' }] }
 */
export function mergeWeeks(weeks: Week[]): Week {
  const out: Week = {};
  for (const day of DAY_KEYS) {
    const ranges = weeks
      .flatMap((w) => w[day] ?? [])
      .map((r) => [minutesOf(r.start, 'start'), minutesOf(r.end, 'end')] as [number, number])
      .filter(([s, e]) => e > s)
      .sort((a, b) => a[0] - b[0]);
    const joined: [number, number][] = [];
    for (const [s, e] of ranges) {
      const last = joined.at(-1);
      if (last && s <= last[1]) last[1] = Math.max(last[1], e);
      else joined.push([s, e]);
    }
    if (joined.length) out[day] = joined.map(([s, e]) => ({ start: text(s), end: text(e) }));
  }
  return out;
}
