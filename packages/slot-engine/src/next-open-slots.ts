import { Temporal } from '@js-temporal/polyfill';
import { findSlots } from './find-slots.js';
import { parseDate, todayIn } from './local-time.js';
import type { FindSlotsInput, Slot } from './types.js';

/** How far ahead alternatives are looked for. */
export const LOOKAHEAD_DAYS = 14;

/**
 * The first open slots from a date onwards (default today), looking up to 14 days ahead: what
 * to offer when a range has nothing. Empty means nothing is open within 14 days.
 *
 * @example nextOpenSlots({ ...input, from: '2026-11-23' }, 3) // [{ start, time, resourceId }, ...] up to 3
 */
export function nextOpenSlots(input: Omit<FindSlotsInput, 'to'>, limit: number): (Slot & { date: string })[] {
  const from = input.from ? parseDate(input.from, 'from') : todayIn(Date.parse(input.now), input.timeZone);
  const to = from.add({ days: LOOKAHEAD_DAYS - 1 });
  const { days } = findSlots({ ...input, from: from.toString(), to: Temporal.PlainDate.from(to).toString() });
  const out: (Slot & { date: string })[] = [];
  for (const day of days) {
    for (const slot of day.slots) {
      if (out.length >= limit) return out;
      out.push({ ...slot, date: day.date });
    }
  }
  return out;
}
