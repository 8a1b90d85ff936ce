import { WEEKDAYS } from './constants.js';
import type { Weekday, WeeklyRepeat } from './types.js';

const DAY_LIST = WEEKDAYS.join(', ');

/**
 * Reads the spec's `repeat` (`{freq: 'WEEKLY', days: [lowercase 3-letter day]}`) from untrusted
 * input. Days keep the order given; extra properties are ignored. The message names what is wrong.
 *
 * @example parseRepeat({ freq: 'WEEKLY', days: ['thu', 'mon'] }) // { ok: true, repeat: { freq: 'WEEKLY', days: ['thu', 'mon'] } }
 * @example parseRepeat({ freq: 'WEEKLY', days: ['Mon'] })        // { ok: false, message: 'repeat.days[0] must be ...' }
 */
export function parseRepeat(
  value: unknown,
): { ok: true; repeat: WeeklyRepeat } | { ok: false; message: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(`repeat must be an object {freq: 'WEEKLY', days: [...]}, got ${describe(value)}.`);
  }
  const { freq, days } = value as { freq?: unknown; days?: unknown };
  if (freq !== 'WEEKLY') return fail(`repeat.freq must be 'WEEKLY', got ${describe(freq)}.`);
  if (!Array.isArray(days) || days.length === 0) {
    return fail(`repeat.days must be a non-empty array of days (${DAY_LIST}), got ${describe(days)}.`);
  }
  const seen = new Set<Weekday>();
  for (const [i, day] of days.entries()) {
    if (!isWeekday(day)) {
      return fail(`repeat.days[${i}] must be a lowercase 3-letter day (${DAY_LIST}), got ${describe(day)}.`);
    }
    if (seen.has(day)) return fail(`repeat.days lists '${day}' more than once.`);
    seen.add(day);
  }
  return { ok: true, repeat: { freq: 'WEEKLY', days: [...seen] } };
}

function isWeekday(value: unknown): value is Weekday {
  return typeof value === 'string' && (WEEKDAYS as readonly string[]).includes(value);
}

function fail(message: string): { ok: false; message: string } {
  return { ok: false, message };
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return `'${value}'`;
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
