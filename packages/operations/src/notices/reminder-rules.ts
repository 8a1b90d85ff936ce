/**
 * Mail the worker's timed events make for pet owners: the day-before reminder (with until when the
 * booking can still be moved or cancelled), a pay link about to lapse (a card booking's hold, an
 * order's link) and money owed back from a whole payment. Only to the event's own person; the
 * reminders may be turned off, a refund must go.
 */
import { momentText } from '../core/index.js';
import type { BookingFacts } from '../events/index.js';
import type { MailBlock, Notice, NoticeFacts, NoticeKind, NoticeRuleSet, RenderContext } from './types.js';
import { bookingRows, bookingWhen, businessName, hello, moneyText } from './words.js';

type Money = { amount: number; currency: string };

const account = (ctx: RenderContext, label = 'Open your bookings'): MailBlock => ({
  link: { label, href: `${ctx.publicUrl}/account` },
});
const at = (iso: string, ctx: RenderContext) =>
  `${momentText(new Date(iso), ctx.timeZone)} (${ctx.timeZone} time)`;

function kind(
  optional: boolean,
  label: string,
  make: (
    d: Record<string, unknown>,
    ctx: RenderContext,
  ) => { subject: string; heading: string; blocks: MailBlock[] },
): NoticeKind {
  return {
    audience: 'person',
    optional,
    label,
    template: (data, ctx) => {
      const parts = make(data, ctx);
      return { ...parts, blocks: [{ text: hello(String(data.name ?? '')) }, ...parts.blocks] };
    },
  };
}

export const REMINDER_KINDS = {
  booking_reminder: kind(true, 'Reminder the evening before a booking', (data, ctx) => {
    const d = data as { booking: BookingFacts; changeUntil: string | null };
    return {
      subject: `Tomorrow: ${d.booking.what} with ${businessName(ctx)}, ${bookingWhen(d.booking, ctx)}`,
      heading: 'See you tomorrow',
      blocks: [
        { text: `A reminder of your booking with ${businessName(ctx)}.` },
        bookingRows(d.booking, ctx),
        {
          text: d.changeUntil
            ? `You can still move or cancel it yourself until ${at(d.changeUntil, ctx)}, on your account or through your assistant.`
            : `It is too late to move or cancel it yourself now: to change it, contact ${businessName(ctx)}.`,
        },
        account(ctx),
      ],
    };
  }),
  booking_pay_soon: kind(true, 'Unpaid booking about to lapse', (data, ctx) => {
    const d = data as { booking: BookingFacts; payUntil: string };
    return {
      subject: `Pay by ${at(d.payUntil, ctx)} to keep your booking with ${businessName(ctx)}`,
      heading: 'Your booking is not paid yet',
      blocks: [
        {
          text: `Your booking is held until ${at(d.payUntil, ctx)}. If it is not paid by then, its time is freed and nothing is charged.`,
        },
        bookingRows(d.booking, ctx),
        account(ctx, 'Pay on your account'),
      ],
    };
  }),
  order_pay_soon: kind(true, 'Unpaid shop order about to lapse', (data, ctx) => {
    const d = data as { order: { orderId: string; total: Money }; payUntil: string };
    return {
      subject: `Pay by ${at(d.payUntil, ctx)} to keep your order ${d.order.orderId}`,
      heading: 'Your order is not paid yet',
      blocks: [
        {
          text: `Your order from ${businessName(ctx)} waits for its payment until ${at(d.payUntil, ctx)}; then it closes and nothing is charged.`,
        },
        {
          rows: [
            ['Order', d.order.orderId],
            ['Total', moneyText(d.order.total, ctx.locale)],
          ],
        },
        account(ctx, 'Pay on your account'),
      ],
    };
  }),
  payment_refund_due: kind(false, 'Refund of a payment', (data, ctx) => {
    const d = data as { paymentId: string; refund: Money; reason: string; orderId: string | null };
    const why =
      d.reason === 'order_closed'
        ? `it arrived after your order${d.orderId ? ` ${d.orderId}` : ''} had closed`
        : d.reason === 'paid_twice'
          ? 'what it paid for was already paid'
          : 'the booking it was for could no longer take it';
    return {
      subject: `Refund on its way: ${moneyText(d.refund, ctx.locale)}`,
      heading: 'Your refund is on its way',
      blocks: [
        {
          text: `A payment of ${moneyText(d.refund, ctx.locale)} is owed back to you: ${why}. NogPets refunds it to your card within 5 to 7 working days.`,
        },
        { rows: [['Payment', d.paymentId]] },
      ],
    };
  }),
} satisfies Record<string, NoticeKind>;

type ReminderKind = keyof typeof REMINDER_KINDS;

function toPerson(facts: NoticeFacts, kind: ReminderKind, data: Record<string, unknown>): Notice[] {
  const p = facts.person;
  if (!p?.email) return [];
  return [
    {
      to: p.email,
      name: p.name,
      kind,
      optional: REMINDER_KINDS[kind].optional,
      data: { ...data, name: p.name },
    },
  ];
}

export const REMINDER_NOTICES: NoticeRuleSet = {
  kinds: REMINDER_KINDS,
  rules: {
    'booking.reminder_due': [(e, f) => toPerson(f, 'booking_reminder', e.data)],
    'booking.payment_due': [(e, f) => toPerson(f, 'booking_pay_soon', e.data)],
    'order.payment_due': [(e, f) => toPerson(f, 'order_pay_soon', e.data)],
    'payment.refund_due': [(e, f) => toPerson(f, 'payment_refund_due', e.data)],
  },
};
