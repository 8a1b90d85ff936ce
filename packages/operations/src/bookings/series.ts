/**
 * Weekly series: the weeks a repeat books after its first walk (when it is booked, and as the
 * worker keeps it booked ahead), and the lead a fully booked week leaves for the operator.
 */
import { expandWeekly, type WeeklyRepeat } from '@nogpets/booking-rules';
import { insertLead } from '@nogpets/store';
import { z } from 'zod';
import { localDate, type OperationContext } from '../core/index.js';
import type { Placement } from './place.js';
import type { PricedRequest } from '../catalogue/index.js';
import { endOf, openDays, WHY_CLOSED } from '../schedule/index.js';

export const SkippedSchema = z
  .object({ date: z.string(), reason: z.string(), message: z.string() })
  .meta({ id: 'Skipped', description: 'A week of a weekly repeat that could not be booked, and why.' });

export type Skipped = z.infer<typeof SkippedSchema>;

/**
 * The weeks of a repeat after the first: each listed weekday at the first walk's local time up to
 * the horizon, on the same walker when free, else another free at that time; the rest skipped
 * with why.
 */
export async function seriesPlacements(
  ctx: OperationContext,
  priced: PricedRequest,
  first: { start: Date; resourceId: string },
  repeat: WeeklyRepeat,
  after: Date,
  until: Date,
  totalCents: number,
): Promise<{ placements: Placement[]; skipped: Skipped[] }> {
  const tz = priced.offer.business.timezone;
  const starts = expandWeekly({ start: first.start, timeZone: tz, repeat, until }).filter(
    (s) => s.getTime() > after.getTime(),
  );
  if (!starts.length) return { placements: [], skipped: [] };
  const days = await openDays(ctx, priced, localDate(starts[0]!, tz), localDate(starts.at(-1)!, tz));
  const byDate = new Map(days.map((d) => [d.date, d]));
  const placements: Placement[] = [];
  const skipped: Skipped[] = [];
  for (const start of starts) {
    const date = localDate(start, tz);
    const day = byDate.get(date);
    const open = day?.slots.filter((s) => Date.parse(s.start) === start.getTime()) ?? [];
    const slot = open.find((s) => s.resourceId === first.resourceId) ?? open[0];
    if (slot) {
      placements.push({
        start,
        end: endOf(priced, start),
        resourceId: slot.resourceId,
        totalCents,
      });
    } else {
      const reason =
        day?.why && day.why !== 'FULLY_BOOKED' && day.slots.length === 0 ? day.why : 'FULLY_BOOKED';
      skipped.push({ date, reason, message: `${date}: ${WHY_CLOSED[reason]}.` });
    }
  }
  return { placements, skipped };
}

/** Rule 8's `message` for fully booked weeks, to be passed on word for word. */
export function fullyBookedMessage(skipped: Skipped[]): string {
  const dates = skipped.filter((s) => s.reason === 'FULLY_BOOKED').map((s) => s.date);
  const one = dates.length === 1;
  return `The walk${one ? '' : 's'} on ${dates.join(', ')} ${one ? 'is' : 'are'} fully booked, so ${one ? 'it was' : 'they were'} not booked. NogPets has noted it and will be in touch if a place opens.`;
}

/** Rule 8: a fully booked week is a lead for the operator to follow up. */
export async function fullyBookedLead(
  ctx: OperationContext,
  priced: PricedRequest,
  skipped: Skipped[],
): Promise<string | undefined> {
  const full = skipped.filter((s) => s.reason === 'FULLY_BOOKED');
  if (!full.length) return undefined;
  return insertLead(
    ctx.deps.sql,
    {
      businessId: priced.offer.business.id,
      operation: 'book',
      reason: 'FULLY_BOOKED',
      query: { category: priced.line.id, dates: full.map((s) => s.date) },
      place: null,
      clientName: ctx.auth?.clientName ?? ctx.clientName,
    },
    ctx.deps.clock.now(),
  );
}
