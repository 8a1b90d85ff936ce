import { DEFAULT_DAYS } from './find-slots.js';
import { SlotEngineError } from './errors.js';
import { dateOfEpochDay, epochDay, parseDate } from './local-time.js';

/**
 * The dates someone asked to see open times for, from `today` (a local date) on. Days before
 * today have no open times, so a range wholly in the past is refused (`RANGE_IN_PAST`, naming the
 * field that was sent: `to`, or `from` when `to` was left to default), and one that starts in the
 * past starts today. `to` defaults to six days after `from`, as `findSlots` does; with neither,
 * nothing is fixed and `findSlots` starts at its own today.
 *
 * @example rangeFromToday({ from: '2026-11-20', to: '2026-11-25' }, '2026-11-23')
 * // { from: '2026-11-23', to: '2026-11-25' }
 */
export function rangeFromToday(
  range: { from?: string | undefined; to?: string | undefined },
  today: string,
): { from?: string; to?: string } {
  const todayDay = epochDay(parseDate(today, 'today').toString());
  const fromDay = range.from !== undefined ? epochDay(parseDate(range.from, 'from').toString()) : undefined;
  const toDay =
    range.to !== undefined
      ? epochDay(parseDate(range.to, 'to').toString())
      : fromDay !== undefined
        ? fromDay + DEFAULT_DAYS - 1
        : undefined;
  if (toDay !== undefined && toDay < todayDay) {
    const field = range.to !== undefined ? 'to' : 'from';
    throw new SlotEngineError('RANGE_IN_PAST', `The dates asked for are in the past; today is ${today}.`, {
      field,
      today,
    });
  }
  if (fromDay === undefined) return toDay === undefined ? {} : { to: dateOfEpochDay(toDay) };
  return { from: dateOfEpochDay(Math.max(fromDay, todayDay)), to: dateOfEpochDay(toDay!) };
}
