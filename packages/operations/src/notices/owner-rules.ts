/**
 * Mail to pet owners: only to the booking's or order's own person (its account's address, else the
 * business's client's; none without one). Confirmations carry an .ics; what the business did to a
 * booking (moved, declined, cancelled) and money owed back must go; a confirmation of the person's
 * own cancel, a lapsed hold and an order's shipping and delivery may be turned off.
 */
import type { BookingFacts } from '../events/index.js';
import { bookingCalendar } from './calendar.js';
import type { MailBlock, Notice, NoticeFacts, NoticeKind, NoticeRuleSet, RenderContext } from './types.js';
import { bookingRows, bookingWhen, businessName, hello, moneyText, moneyWords } from './words.js';

type Money = { amount: number; currency: string };
interface BookingData {
  booking: BookingFacts;
  message?: string | null;
  refund?: Money | null;
  from?: { start: string; end: string; resourceId: string };
  by?: string;
}
interface OrderData {
  order: {
    orderId: string;
    total: Money;
    tracking: string | null;
    shippingMethod: string;
    paymentMethod: string;
    paymentStatus: string;
  };
  refund?: Money | null;
  by?: string;
}

function accountLink(ctx: RenderContext): MailBlock {
  return { link: { label: 'See your bookings', href: `${ctx.publicUrl}/account` } };
}

function messageBlock(message: string | null | undefined, ctx: RenderContext): MailBlock[] {
  return message?.trim() ? [{ quote: message.trim(), by: businessName(ctx) }] : [];
}

const bookingKind = (
  optional: boolean,
  label: string,
  make: (d: BookingData, ctx: RenderContext) => MailContentParts,
): NoticeKind => ({
  audience: 'person',
  optional,
  label,
  template: (data, ctx) => {
    const d = data as unknown as BookingData & { name: string };
    const parts = make(d, ctx);
    return {
      subject: parts.subject,
      heading: parts.heading,
      blocks: [{ text: hello(d.name) }, ...parts.blocks],
      ...(parts.calendar
        ? { calendar: bookingCalendar(d.booking, ctx, parts.calendar === 'cancelled') }
        : {}),
    };
  },
});

interface MailContentParts {
  subject: string;
  heading: string;
  blocks: MailBlock[];
  calendar?: 'confirmed' | 'cancelled';
}

const orderKind = (
  optional: boolean,
  label: string,
  make: (d: OrderData, ctx: RenderContext) => { subject: string; heading: string; blocks: MailBlock[] },
): NoticeKind => ({
  audience: 'person',
  optional,
  label,
  template: (data, ctx) => {
    const d = data as unknown as OrderData & { name: string };
    const parts = make(d, ctx);
    return { ...parts, blocks: [{ text: hello(d.name) }, ...parts.blocks] };
  },
});

const orderRows = (d: OrderData, ctx: RenderContext): MailBlock => ({
  rows: [
    ['Order', d.order.orderId],
    ['From', businessName(ctx)],
    ['Total', moneyText(d.order.total, ctx.locale)],
  ],
});

const paidWords = (b: BookingFacts) =>
  b.paymentMethod === 'CASH'
    ? 'You pay cash to the crew on the day.'
    : b.paymentStatus === 'PAID'
      ? 'It is paid by card.'
      : 'It is not paid yet.';

export const OWNER_KINDS = {
  booking_confirmed: bookingKind(false, 'Booking confirmed', (d, ctx) => ({
    subject: `Booked: ${d.booking.what} with ${businessName(ctx)}, ${bookingWhen(d.booking, ctx)}`,
    heading: 'Your booking is confirmed',
    blocks: [
      { text: `${businessName(ctx)} has your booking. ${paidWords(d.booking)}` },
      bookingRows(d.booking, ctx),
      ...messageBlock(d.message, ctx),
      { text: 'The calendar file attached puts it in your calendar.' },
      accountLink(ctx),
    ],
    calendar: 'confirmed',
  })),
  booking_moved: bookingKind(false, 'Booking moved by the business', (d, ctx) => ({
    subject: `Moved: your booking with ${businessName(ctx)} is now ${bookingWhen(d.booking, ctx)}`,
    heading: 'Your booking was moved',
    blocks: [
      {
        text: `${businessName(ctx)} moved your booking${d.from ? ` from ${bookingWhen(d.from, ctx)}` : ''}. Its price and payment are unchanged.`,
      },
      bookingRows(d.booking, ctx),
      ...messageBlock(d.message, ctx),
      { text: 'If the new time does not suit you, you can move or cancel it on your account.' },
      accountLink(ctx),
    ],
    calendar: 'confirmed',
  })),
  booking_declined: bookingKind(false, 'Booking declined', (d, ctx) => ({
    subject: `Declined: ${businessName(ctx)} cannot take your booking of ${bookingWhen(d.booking, ctx)}`,
    heading: 'Your booking was declined',
    blocks: [
      { text: `${businessName(ctx)} declined your booking.` },
      bookingRows(d.booking, ctx),
      ...messageBlock(d.message, ctx),
      { text: moneyWords(d.booking, d.refund, ctx.locale) },
      accountLink(ctx),
    ],
    calendar: 'cancelled',
  })),
  booking_cancelled: bookingKind(false, 'Booking cancelled by the business', (d, ctx) => ({
    subject: `Cancelled: your booking with ${businessName(ctx)} of ${bookingWhen(d.booking, ctx)}`,
    heading: 'Your booking was cancelled',
    blocks: [
      {
        text:
          d.by === 'system'
            ? 'Your booking was cancelled.'
            : d.by === 'operator'
              ? 'NogPets cancelled your booking.'
              : `${businessName(ctx)} cancelled your booking.`,
      },
      bookingRows(d.booking, ctx),
      ...messageBlock(d.message, ctx),
      { text: moneyWords(d.booking, d.refund, ctx.locale) },
      accountLink(ctx),
    ],
    calendar: 'cancelled',
  })),
  booking_cancelled_own: bookingKind(true, 'Confirmation when you cancel a booking', (d, ctx) => ({
    subject: `You cancelled your booking with ${businessName(ctx)} of ${bookingWhen(d.booking, ctx)}`,
    heading: 'Your booking is cancelled',
    blocks: [
      { text: 'As you asked, your booking is cancelled.' },
      bookingRows(d.booking, ctx),
      { text: moneyWords(d.booking, d.refund, ctx.locale) },
      accountLink(ctx),
    ],
    calendar: 'cancelled',
  })),
  booking_expired: bookingKind(true, 'Unpaid booking lapsed', (d, ctx) => ({
    subject: `Not paid in time: your booking with ${businessName(ctx)} lapsed`,
    heading: 'Your booking lapsed',
    blocks: [
      { text: 'The booking was not paid in time, so its time was freed. Nothing was charged.' },
      bookingRows(d.booking, ctx),
      { text: 'You are welcome to book again.' },
      accountLink(ctx),
    ],
  })),
  refund_due: bookingKind(false, 'Refund on its way', (d, ctx) => ({
    subject: `Refund on its way: ${moneyText(d.refund ?? d.booking.total, ctx.locale)} for your booking with ${businessName(ctx)}`,
    heading: 'Your refund is on its way',
    blocks: [
      {
        text: `${moneyText(d.refund ?? d.booking.total, ctx.locale)} is owed back to you. NogPets refunds it to your card within 5 to 7 working days.`,
      },
      bookingRows(d.booking, ctx),
    ],
  })),
  order_paid: orderKind(false, 'Shop order paid', (d, ctx) => ({
    subject: `Order ${d.order.orderId} from ${businessName(ctx)}: ${d.order.paymentMethod === 'CASH' ? 'confirmed' : 'paid'}`,
    heading: 'Thank you for your order',
    blocks: [
      {
        text:
          d.order.paymentMethod === 'CASH'
            ? `${businessName(ctx)} has your order; you pay on delivery.`
            : `${businessName(ctx)} has your order and its payment.`,
      },
      orderRows(d, ctx),
      { text: 'We mail you again when it is on its way.' },
    ],
  })),
  order_shipped: orderKind(true, 'Shop order on its way', (d, ctx) => ({
    subject: `Order ${d.order.orderId} from ${businessName(ctx)} is on its way`,
    heading: 'Your order is on its way',
    blocks: [
      orderRows(d, ctx),
      {
        text: d.order.tracking
          ? `Follow it with this tracking: ${d.order.tracking}`
          : 'It comes with local delivery.',
      },
    ],
  })),
  order_delivered: orderKind(true, 'Shop order delivered', (d, ctx) => ({
    subject: `Order ${d.order.orderId} from ${businessName(ctx)} was delivered`,
    heading: 'Your order was delivered',
    blocks: [orderRows(d, ctx), { text: 'We hope your pets enjoy it.' }],
  })),
  order_cancelled: orderKind(false, 'Shop order cancelled', (d, ctx) => ({
    subject: `Order ${d.order.orderId} from ${businessName(ctx)} was cancelled`,
    heading: 'Your order was cancelled',
    blocks: [
      orderRows(d, ctx),
      {
        text: d.refund
          ? `${moneyText(d.refund, ctx.locale)} is refunded to your card within 5 to 7 working days.`
          : 'Nothing was charged for it.',
      },
    ],
  })),
} satisfies Record<string, NoticeKind>;

export type OwnerKind = keyof typeof OWNER_KINDS;

/** The notice of `kind` to the event's own person, if they have an address. */
function toPerson(facts: NoticeFacts, kind: OwnerKind, data: Record<string, unknown>): Notice[] {
  const p = facts.person;
  if (!p?.email) return [];
  return [
    {
      to: p.email,
      name: p.name,
      kind,
      optional: OWNER_KINDS[kind].optional,
      data: { ...data, name: p.name },
    },
  ];
}

/** Whether the person did it themselves (their own cancel, move), as the event says. */
const byClient = (by: string) => by === 'client';

export const OWNER_NOTICES: NoticeRuleSet = {
  kinds: OWNER_KINDS,
  rules: {
    // A booking the business made for a client is confirmed at once (ACCEPTED); the person's own
    // bookings wait for the payment or for the business to accept a cash one.
    'booking.created': [
      (e, f) => (e.data.booking.status === 'ACCEPTED' ? toPerson(f, 'booking_confirmed', e.data) : []),
    ],
    'booking.paid': [(e, f) => toPerson(f, 'booking_confirmed', e.data)],
    'booking.accepted': [(e, f) => toPerson(f, 'booking_confirmed', e.data)],
    'booking.moved': [(e, f) => (byClient(e.data.by) ? [] : toPerson(f, 'booking_moved', e.data))],
    'booking.declined': [(e, f) => toPerson(f, 'booking_declined', e.data)],
    'booking.cancelled': [
      (e, f) => toPerson(f, byClient(e.data.by) ? 'booking_cancelled_own' : 'booking_cancelled', e.data),
    ],
    'booking.expired': [(e, f) => toPerson(f, 'booking_expired', e.data)],
    'booking.refund_due': [(e, f) => toPerson(f, 'refund_due', e.data)],
    'order.paid': [(e, f) => toPerson(f, 'order_paid', e.data)],
    'order.shipped': [(e, f) => toPerson(f, 'order_shipped', e.data)],
    'order.delivered': [(e, f) => toPerson(f, 'order_delivered', e.data)],
    'order.cancelled': [(e, f) => toPerson(f, 'order_cancelled', e.data)],
  },
};
