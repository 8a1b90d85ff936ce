/**
 * Mail to businesses: a new booking, and a client's own cancel or move, go to the business's owners
 * and managers and to the crew whose van, walk or sit it is (never another resource's crew, never
 * another business's staff), as the business chose in its settings. Each person may still turn a
 * kind off for themselves (they are optional).
 */
import type { BookingFacts } from '../events/index.js';
import type { MailBlock, Notice, NoticeFacts, NoticeKind, NoticeRuleSet, RenderContext } from './types.js';
import { bookingRows, bookingWhen, businessName, hello, moneyText } from './words.js';

interface BookingData {
  booking: BookingFacts;
  from?: { start: string; end: string; resourceId: string };
  message?: string | null;
  refund?: { amount: number; currency: string } | null;
  name: string;
  /** The booking's person (their account's or the business's client's name). */
  client: string;
  paidNow?: boolean;
}

const clientOf = (d: BookingData) => d.client.trim() || 'A client';

const dayPlan = (_ctx: RenderContext): MailBlock => ({
  text: 'It is on your day plan (get_day_plan in your assistant).',
});

const kind = (
  label: string,
  make: (d: BookingData, ctx: RenderContext) => { subject: string; heading: string; blocks: MailBlock[] },
): NoticeKind => ({
  audience: 'business',
  optional: true,
  label,
  template: (data, ctx) => {
    const d = data as unknown as BookingData;
    const parts = make(d, ctx);
    return { ...parts, blocks: [{ text: hello(d.name) }, ...parts.blocks, dayPlan(ctx)] };
  },
});

export const BUSINESS_KINDS = {
  business_new_booking: kind('New bookings', (d, ctx) => ({
    subject: `New booking: ${clientOf(d)}, ${bookingWhen(d.booking, ctx)}`,
    heading: `New booking at ${businessName(ctx)}`,
    blocks: [
      {
        text: d.paidNow
          ? `${clientOf(d)} booked and paid ${moneyText(d.booking.total, ctx.locale)} by card.`
          : `${clientOf(d)} booked, paying cash on the day: accept it (accept_business_booking) or decline it.`,
      },
      bookingRows(d.booking, ctx),
    ],
  })),
  business_booking_cancelled: kind('Cancellations by clients', (d, ctx) => ({
    subject: `Cancelled by the client: ${clientOf(d)}, ${bookingWhen(d.booking, ctx)}`,
    heading: 'A client cancelled',
    blocks: [
      { text: `${clientOf(d)} cancelled this booking; its time is free again.` },
      bookingRows(d.booking, ctx),
      ...(d.refund ? [{ text: `${moneyText(d.refund, ctx.locale)} is refunded to the client.` }] : []),
    ],
  })),
  business_booking_moved: kind('Moves by clients', (d, ctx) => ({
    subject: `Moved by the client: ${clientOf(d)}, now ${bookingWhen(d.booking, ctx)}`,
    heading: 'A client moved a booking',
    blocks: [
      {
        text: `${clientOf(d)} moved this booking${d.from ? ` from ${bookingWhen(d.from, ctx)}` : ''}; accept the new time or decline it.`,
      },
      bookingRows(d.booking, ctx),
    ],
  })),
} satisfies Record<string, NoticeKind>;

export type BusinessKind = keyof typeof BUSINESS_KINDS;

/**
 * The staff who hear of a booking on `resourceIds`: owners and managers, and crew of one of those
 * resources; once each (by address), only if the business has the kind on.
 */
export function toStaff(
  facts: NoticeFacts,
  kindName: BusinessKind,
  resourceIds: string[],
  data: Record<string, unknown>,
): Notice[] {
  if (facts.businessSettings[kindName] === false) return [];
  const seen = new Set<string>();
  const out: Notice[] = [];
  for (const m of facts.staff) {
    const hears = m.role !== 'crew' || m.resourceIds.some((r) => resourceIds.includes(r));
    const key = m.email.toLowerCase();
    if (!hears || seen.has(key)) continue;
    seen.add(key);
    out.push({
      to: m.email,
      name: m.name,
      kind: kindName,
      optional: true,
      data: { ...data, name: m.name, client: facts.person?.name ?? '' },
    });
  }
  return out;
}

export const BUSINESS_NOTICES: NoticeRuleSet = {
  kinds: BUSINESS_KINDS,
  rules: {
    // A card booking is news once paid (an unpaid hold may lapse); a cash one at once (it waits to be accepted).
    'booking.created': [
      (e, f) =>
        e.data.by === 'client' && e.data.booking.paymentMethod === 'CASH'
          ? toStaff(f, 'business_new_booking', [e.data.booking.resourceId], e.data)
          : [],
    ],
    'booking.paid': [
      (e, f) => toStaff(f, 'business_new_booking', [e.data.booking.resourceId], { ...e.data, paidNow: true }),
    ],
    'booking.cancelled': [
      (e, f) =>
        e.data.by === 'client'
          ? toStaff(f, 'business_booking_cancelled', [e.data.booking.resourceId], e.data)
          : [],
    ],
    'booking.moved': [
      (e, f) =>
        e.data.by === 'client'
          ? toStaff(f, 'business_booking_moved', [e.data.booking.resourceId, e.data.from.resourceId], e.data)
          : [],
    ],
  },
};
