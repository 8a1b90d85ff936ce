// A working week (local wall-clock times in the business's time zone): its schema, as the sign-up's
// set_operating_hours and add_resources and the running business's hours take it, and its words.
// A leaf: it imports no operation.
import { DAY_KEYS, MAX_RANGES_PER_DAY } from '@nogpets/slot-engine';
import { z } from 'zod';

export type Day = (typeof DAY_KEYS)[number];
export type Week = Partial<Record<Day, { start: string; end: string }[]>>;

/** Working ranges a day may have: the slot engine's limit (the spec's), taken from it so they stay one. */
export { MAX_RANGES_PER_DAY };

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const END = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

const RangeSchema = z
  .object({
    start: z.string().regex(TIME, 'expected local time HH:MM, such as 09:00'),
    end: z.string().regex(END, 'expected local time HH:MM, such as 17:00 (24:00 for midnight)'),
  })
  .strict()
  .refine((r) => !TIME.test(r.start) || !END.test(r.end) || minutes(r.start) < minutes(r.end), {
    message: 'start must be before end (a range ends the same day; 24:00 for midnight)',
  });

/**
 * A working week: lowercase three-letter days (mon to sun) to up to 6 ranges of local `HH:MM`,
 * start before end, not overlapping; days off left out (or an empty list). At least one range in
 * all. Ranges are kept sorted by start; empty days are dropped.
 */
export const WeekSchema = z
  .object(
    Object.fromEntries(
      DAY_KEYS.map((d) => [
        d,
        z
          .array(RangeSchema)
          .max(MAX_RANGES_PER_DAY, `at most ${MAX_RANGES_PER_DAY} working ranges a day`)
          .optional(),
      ]),
    ) as Record<Day, z.ZodOptional<z.ZodArray<typeof RangeSchema>>>,
  )
  .strict()
  .superRefine((week, ctx) => {
    let any = false;
    for (const day of DAY_KEYS) {
      const ranges = [...(week[day] ?? [])].sort((a, b) => minutes(a.start) - minutes(b.start));
      if (ranges.length > 0) any = true;
      for (let i = 1; i < ranges.length; i++) {
        if (minutes(ranges[i]!.start) < minutes(ranges[i - 1]!.end)) {
          ctx.addIssue({
            code: 'custom',
            path: [day],
            message: `ranges overlap (${ranges[i - 1]!.start}-${ranges[i - 1]!.end} and ${ranges[i]!.start}-${ranges[i]!.end}): join them or move one`,
          });
        }
      }
    }
    if (!any) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message:
          'the week has no working time: give at least one day with a range, such as mon: [{start: "09:00", end: "17:00"}]',
      });
    }
  })
  .transform((week) => {
    const out: Week = {};
    for (const day of DAY_KEYS) {
      const ranges = week[day];
      if (ranges && ranges.length > 0)
        out[day] = [...ranges]
          .sort((a, b) => minutes(a.start) - minutes(b.start))
          .map((r) => ({ start: r.start, end: r.end }));
    }
    return out;
  })
  .meta({
    description:
      'Lowercase three-letter days (mon to sun) to up to 6 ranges `{start, end}` of local HH:MM in the business’s ' +
      'time zone (24:00 may end a day), not overlapping; days off left out.',
    example: { mon: [{ start: '08:00', end: '17:00' }], sat: [{ start: '08:00', end: '13:00' }] },
  });

/** "Mon 09:00-13:00 and 14:00-17:00; Sat 09:00-13:00". */
export function weekWords(week: Week | null | undefined): string {
  if (!week) return 'no hours set';
  const days = DAY_KEYS.filter((d) => (week[d]?.length ?? 0) > 0).map(
    (d) => `${d[0]!.toUpperCase()}${d.slice(1)} ${week[d]!.map((r) => `${r.start}-${r.end}`).join(' and ')}`,
  );
  return days.length ? days.join('; ') : 'no working time';
}

/** Whether two weeks have the same working ranges on every day (order of ranges aside). */
export function sameWeek(a: Week, b: Week): boolean {
  const key = (w: Week) =>
    DAY_KEYS.map((d) =>
      (w[d] ?? [])
        .map((r) => `${r.start}-${r.end}`)
        .sort()
        .join(','),
    ).join('|');
  return key(a) === key(b);
}
