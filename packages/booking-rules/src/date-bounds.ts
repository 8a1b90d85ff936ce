import { Temporal } from '@js-temporal/polyfill';

/**
 * How far from today a date given to the service may be, by what it is for. `booking`: when a
 * booking starts or moves to, and the dates searched for open times (from today to two years
 * ahead). `records`: what a business looks back on or plans (day plans, bookings lists, time off,
 * earnings, payouts): five years back to two years ahead.
 */
export const DATE_BOUNDS = {
  booking: { yearsBack: 0, yearsAhead: 2 },
  records: { yearsBack: 5, yearsAhead: 2 },
} as const;

export type DateBoundsKind = keyof typeof DATE_BOUNDS;

/** The first and last local dates (YYYY-MM-DD, inclusive) allowed for `kind`, counted from `today`. */
export function dateBounds(kind: DateBoundsKind, today: string): { from: string; to: string } {
  const day = Temporal.PlainDate.from(today);
  const { yearsBack, yearsAhead } = DATE_BOUNDS[kind];
  // 29 February plus two years is 28 February (Temporal constrains to the month's last day).
  return {
    from: day.subtract({ years: yearsBack }).toString(),
    to: day.add({ years: yearsAhead }).toString(),
  };
}

/** Local dates compared: as text of one length (YYYY-MM-DD), and a longer year (10000-01-01) is later. */
const compareDates = (a: string, b: string) =>
  a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;

/**
 * null when `date` (a local date YYYY-MM-DD, or a later one with a longer year as an instant near
 * year 10000 reads locally) is within `kind`'s bounds from `today`, else the bounds it is outside of.
 *
 * @example outsideDateBounds('2099-01-01', 'booking', '2026-03-11') // { from: '2026-03-11', to: '2028-03-11' }
 */
export function outsideDateBounds(
  date: string,
  kind: DateBoundsKind,
  today: string,
): { from: string; to: string } | null {
  const bounds = dateBounds(kind, today);
  return compareDates(date, bounds.from) < 0 || compareDates(date, bounds.to) > 0 ? bounds : null;
}
