import { insertLead, type NewLead } from '@nogpets/store';
import { localDate, type OperationContext } from '../core/index.js';

/** Who asked, for counting asks: the signed-in person, else the assistant by the name it gave. */
function callerOf(ctx: OperationContext): string {
  if (ctx.auth) return `user:${ctx.auth.userId}`;
  return `client:${(ctx.clientName ?? '').trim().toLowerCase() || 'anonymous'}`;
}

/** The place a lead is about, as one key: where we understood it to be, else what was asked. */
function placeKeyOf(lead: Pick<NewLead, 'place' | 'query'>, line: string | null): string | null {
  const place = lead.place as Record<string, unknown> | null | undefined;
  const parts = place
    ? [place.country, place.town, place.suburb, place.postalCode]
    : [lead.query.address, lead.query.postalCode, lead.query.lat, lead.query.lng];
  const key = parts
    .filter((p) => p !== undefined && p !== null && p !== '')
    .map((p) => String(p).trim().toLowerCase().replace(/\s+/g, ' '))
    .join('|');
  return key ? (line ? `${key}#${line}` : key) : null;
}

/**
 * Records that we could not serve a place: one lead per caller, place (and line, when the lead is
 * about one line) and local day; asking again that day counts one more ask on it (docs/decisions.md).
 * Answers the lead's id, the same for every ask.
 */
export async function recordPlaceLead(
  ctx: OperationContext,
  lead: Omit<NewLead, 'once'>,
  business: { timezone: string },
  line: string | null = null,
): Promise<string> {
  const now = ctx.deps.clock.now();
  const placeKey = placeKeyOf(lead, line);
  const once = placeKey ? { caller: callerOf(ctx), placeKey, day: localDate(now, business.timezone) } : null;
  return insertLead(ctx.deps.sql, { ...lead, once }, now);
}
