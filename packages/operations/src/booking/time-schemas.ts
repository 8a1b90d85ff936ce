/** The wire shapes of local dates, times, stays, visits and slots, shared by the booking operations. */
import { z } from 'zod';

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
