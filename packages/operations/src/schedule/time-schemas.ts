/** The wire shapes of local dates, times, stays, visits and slots, shared by the booking operations. */
import { type DateBoundsKind, outsideDateBounds } from '@nogpets/booking-rules';
import { localDateText } from '@nogpets/slot-engine';
import { z } from 'zod';
import { ServiceError } from '../core/index.js';

export const DATE = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date YYYY-MM-DD.')
  .refine((v) => {
    const ms = Date.parse(`${v}T00:00:00Z`);
    // Round trip: 2026-02-30 is not a day, whatever a lenient parser makes of it.
    return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === v;
  }, 'Not a calendar date.');
export const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time HH:MM.');

export const StaySchema = z
  .object({
    startDate: DATE,
    nights: z.int().min(1).max(30),
    arriveAt: HHMM.optional().meta({ description: 'Local arrival time each evening; default 17:30.' }),
    leaveAt: HHMM.optional().meta({ description: 'Local leaving time on the last morning; default 07:30.' }),
  })
  .strict()
  .meta({
    id: 'Stay',
    description: 'An overnight or multi-night house sit (sitting only): one sitter for the whole stay.',
  });

export const VisitsSchema = z
  .object({
    startDate: DATE,
    days: z.int().min(1).max(31),
    perDay: z.int().min(1).max(4),
    windows: z
      .array(
        z.union([
          z.enum(['morning', 'midday', 'afternoon', 'evening']),
          z.object({ start: HHMM, end: HHMM }).strict(),
        ]),
      )
      .max(4)
      .optional()
      .meta({
        description:
          'One per visit of the day; default morning (1), morning+evening (2), +midday (3), +afternoon (4).',
      }),
  })
  .strict()
  .meta({ id: 'Visits', description: 'Drop-in visits on consecutive days (sitting only).' });

export const SlotSchema = z
  .object({
    start: z.string().meta({ description: 'The instant it starts: pass it to book unchanged.' }),
    time: z.string().meta({ description: 'Local time HH:MM, to tell the person.' }),
    resourceId: z.string().meta({ description: 'The van or walker: pass it to book unchanged.' }),
  })
  .meta({
    id: 'Slot',
    description: 'An open time.',
    example: { start: '2026-11-25T06:00:00.000Z', time: '08:00', resourceId: 'van-2' },
  });
export const DaySchema = z
  .object({ date: z.string(), label: z.string(), slots: z.array(SlotSchema) })
  .meta({ id: 'Day', description: 'One local day (YYYY-MM-DD) and its open times, soonest first.' });

const BOUNDS_WORDS: Record<DateBoundsKind, (b: { from: string; to: string }) => string> = {
  booking: (b) => `from today (${b.from}) to two years ahead (${b.to})`,
  records: (b) => `from five years back (${b.from}) to two years ahead (${b.to})`,
};

/**
 * Refuses with 400 a date outside its bounds (booking-rules' `dateBounds`): each field a local
 * date YYYY-MM-DD or an instant (read as its local date in `timeZone`); `today` is the local date
 * there. The message names the field, the date and the range, so the person can pick again.
 */
export function checkDateBounds(
  kind: DateBoundsKind,
  today: string,
  timeZone: string,
  fields: Record<string, string | Date | undefined>,
): void {
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const date = typeof value === 'string' ? value : localDateText(value.getTime(), timeZone);
    const bounds = outsideDateBounds(date, kind, today);
    if (!bounds) continue;
    const message = `${date} is out of range: give a date ${BOUNDS_WORDS[kind](bounds)}, in ${timeZone} time`;
    throw new ServiceError('BAD_REQUEST', `The date is out of range. ${field}: ${message}.`, {
      fields: [{ field, message }],
      reason: 'DATE_OUT_OF_RANGE',
      range: bounds,
    });
  }
}

/**
 * The dates searched for open times (find_times, find_reschedule_times, find_business_times): not
 * past two years ahead. One before today is slot-engine's `rangeFromToday`: a range begun in the
 * past starts today, one wholly past is refused.
 */
export function checkSearchDates(
  today: string,
  timeZone: string,
  range: { from?: string | undefined; to?: string | undefined },
): void {
  const ahead = (d: string | undefined) => (d !== undefined && d >= today ? d : undefined);
  checkDateBounds('booking', today, timeZone, { from: ahead(range.from), to: ahead(range.to) });
}
