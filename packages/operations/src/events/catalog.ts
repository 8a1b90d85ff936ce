/**
 * The domain events: every change a person or business would be told about, by type, with its
 * version and the shape of its `data` (docs/events.md shows the same, and a test holds the two
 * together). A shape only grows within a version (new optional fields); anything else is a new
 * version. Mails, webhooks and calendar feeds read these, never the operations.
 */
import { z } from 'zod';
import type {} from '../core/index.js';

export const ActorKindSchema = z.enum(['person', 'staff', 'operator', 'system']).meta({
  description:
    'person: the pet owner or applicant themselves; staff: someone of the business acting for it; operator: NogPets; system: a scheduled job (a hold lapsing).',
});
export type ActorKind = z.infer<typeof ActorKindSchema>;

export const MoneySchema = z.object({
  amount: z.number().int().meta({ description: 'Minor units of the currency (cents).' }),
  currency: z.string().length(3),
});

/** What every booking event says about the booking, as it stands after the change. */
export const BookingFactsSchema = z.object({
  bookingId: z.string(),
  businessId: z.string(),
  status: z.string(),
  paymentMethod: z.string(),
  paymentStatus: z.string(),
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  timeZone: z.string().meta({ description: "The business's IANA zone: show times in it." }),
  what: z.string().meta({ description: 'The services and pets in words.' }),
  total: MoneySchema,
  resourceId: z.string().meta({ description: 'The van, table, walker or sitter it is on.' }),
  clientName: z.string().nullable(),
  seriesId: z.string().nullable(),
});
export type BookingFacts = z.infer<typeof BookingFactsSchema>;

/** What every order event says about the order, as it stands after the change. */
export const OrderFactsSchema = z.object({
  orderId: z.string(),
  businessId: z.string(),
  status: z.string(),
  paymentMethod: z.string(),
  paymentStatus: z.string(),
  shippingMethod: z.string(),
  total: MoneySchema,
  tracking: z.string().nullable(),
  clientName: z.string().nullable(),
  bookingId: z
    .string()
    .nullable()
    .meta({ description: 'The visit the order rides with (shipping "visit").' }),
});

const WhoSchema = z.enum(['client', 'business', 'operator', 'system']);
const Message = z
  .string()
  .nullable()
  .meta({ description: "The business's or operator's words to the person, if any." });

const ApplicationFacts = {
  applicationId: z.string(),
  businessName: z.string(),
  country: z.string().length(2),
  category: z
    .array(z.string())
    .meta({ description: 'What the business offers (grooming, walking, sitting).' }),
};

export interface EventDefinition<D extends z.ZodObject = z.ZodObject> {
  version: number;
  /** What the event's subject id names. */
  subject: 'booking' | 'order' | 'payment' | 'application' | 'invitation' | 'payout' | 'business';
  description: string;
  data: D;
}

function event<D extends z.ZodObject>(def: EventDefinition<D>): EventDefinition<D> {
  return def;
}

export const EVENT_CATALOG = {
  'booking.created': event({
    version: 1,
    subject: 'booking',
    description:
      'A booking was made (by the pet owner, or by the business for a client); it may still wait for payment.',
    data: z.object({ booking: BookingFactsSchema, by: WhoSchema }),
  }),
  'booking.paid': event({
    version: 1,
    subject: 'booking',
    description: 'The card payment of a booking arrived: it is confirmed.',
    data: z.object({ booking: BookingFactsSchema, paid: MoneySchema }),
  }),
  'booking.accepted': event({
    version: 1,
    subject: 'booking',
    description: 'The business accepted a booking (a cash booking is confirmed).',
    data: z.object({ booking: BookingFactsSchema, message: Message }),
  }),
  'booking.declined': event({
    version: 1,
    subject: 'booking',
    description: 'The business declined a booking; money paid is refunded.',
    data: z.object({ booking: BookingFactsSchema, message: Message, refund: MoneySchema.nullable() }),
  }),
  'booking.moved': event({
    version: 1,
    subject: 'booking',
    description: 'A booking moved to another time (or van, walker, sitter); `from` is where it was.',
    data: z.object({
      booking: BookingFactsSchema,
      from: z.object({ start: z.iso.datetime(), end: z.iso.datetime(), resourceId: z.string() }),
      by: WhoSchema,
      message: Message,
    }),
  }),
  'booking.cancelled': event({
    version: 1,
    subject: 'booking',
    description: 'A booking was cancelled, by whom, with what happens to the money.',
    data: z.object({
      booking: BookingFactsSchema,
      by: WhoSchema,
      message: Message,
      refund: MoneySchema.nullable().meta({
        description: 'What will be refunded; null: nothing was paid or nothing is due.',
      }),
    }),
  }),
  'booking.expired': event({
    version: 1,
    subject: 'booking',
    description: 'A card booking was not paid in time: its hold lapsed and the time is free again.',
    data: z.object({ booking: BookingFactsSchema }),
  }),
  'booking.reminder_due': event({
    version: 1,
    subject: 'booking',
    description:
      "A confirmed booking starts tomorrow: its person is reminded the evening before (18:00 in the business's zone), once per start.",
    data: z.object({
      booking: BookingFactsSchema,
      changeUntil: z.iso.datetime().nullable().meta({
        description: 'Until when the person may still move or cancel it themselves; null: no longer.',
      }),
    }),
  }),
  'booking.payment_due': event({
    version: 1,
    subject: 'booking',
    description:
      'An unpaid card booking holds its time only until `payUntil` (6 hours from now): its person is told to pay or lose it.',
    data: z.object({ booking: BookingFactsSchema, payUntil: z.iso.datetime() }),
  }),
  'booking.refund_due': event({
    version: 1,
    subject: 'booking',
    description: 'Money paid for a booking is owed back to the person (the operator refunds it).',
    data: z.object({ booking: BookingFactsSchema, refund: MoneySchema }),
  }),
  'payment.refund_due': event({
    version: 1,
    subject: 'payment',
    description:
      'A whole payment is owed back: it arrived for an order that had closed, or for bookings no longer taking it (the operator refunds it). Refunds of single bookings are `booking.refund_due`.',
    data: z.object({
      paymentId: z.string(),
      refund: MoneySchema,
      reason: z.enum(['order_closed', 'paid_twice', 'not_payable']).meta({
        description:
          'order_closed: the order had closed unpaid; paid_twice: what it paid was paid already; not_payable: its bookings no longer take a card payment.',
      }),
      orderId: z.string().nullable(),
      bookingIds: z.array(z.string()),
    }),
  }),
  'order.paid': event({
    version: 1,
    subject: 'order',
    description: 'A shop order was paid (or a cash order confirmed).',
    data: z.object({ order: OrderFactsSchema }),
  }),
  'order.payment_due': event({
    version: 1,
    subject: 'order',
    description:
      "An unpaid card order's pay link lapses at `payUntil` (6 hours from now): its person is told.",
    data: z.object({ order: OrderFactsSchema, payUntil: z.iso.datetime() }),
  }),
  'order.shipped': event({
    version: 1,
    subject: 'order',
    description:
      'A shop order left with the courier or for local delivery; `order.tracking` says where to follow it.',
    data: z.object({ order: OrderFactsSchema }),
  }),
  'order.delivered': event({
    version: 1,
    subject: 'order',
    description: 'A shop order was delivered.',
    data: z.object({ order: OrderFactsSchema }),
  }),
  'order.cancelled': event({
    version: 1,
    subject: 'order',
    description: 'A shop order was cancelled, by whom, with what happens to the money.',
    data: z.object({ order: OrderFactsSchema, by: WhoSchema, refund: MoneySchema.nullable() }),
  }),
  'application.submitted': event({
    version: 1,
    subject: 'application',
    description: "A business's application was sent for review.",
    data: z.object(ApplicationFacts),
  }),
  'application.approved': event({
    version: 1,
    subject: 'application',
    description: 'An application was approved: the business exists and its owner can run it.',
    data: z.object({ ...ApplicationFacts, businessId: z.string(), note: Message }),
  }),
  'application.rejected': event({
    version: 1,
    subject: 'application',
    description: 'An application was rejected, with the operator’s note.',
    data: z.object({ ...ApplicationFacts, note: Message }),
  }),
  'invitation.sent': event({
    version: 1,
    subject: 'invitation',
    description: 'Someone was invited to the staff of a business (they accept or decline).',
    data: z.object({
      invitationId: z.string(),
      businessName: z.string(),
      email: z.string(),
      role: z.string(),
      expiresAt: z.iso.datetime(),
    }),
  }),
  'invitation.accepted': event({
    version: 1,
    subject: 'invitation',
    description: 'An invited person accepted and is now on the staff.',
    data: z.object({
      invitationId: z.string(),
      businessName: z.string(),
      role: z.string(),
      userId: z.string(),
    }),
  }),
  'payout.paid': event({
    version: 1,
    subject: 'payout',
    description: 'NogPets paid a business what its card bookings earned over a period.',
    data: z.object({
      payoutId: z.string(),
      amount: MoneySchema,
      periodStart: z.iso.date().nullable(),
      periodEnd: z.iso.date().nullable(),
      reference: z.string().nullable(),
    }),
  }),
  'prices.changed': event({
    version: 1,
    subject: 'business',
    description:
      'A business changed what its services cost (new bookings pay the new prices; made ones keep theirs).',
    data: z.object({
      services: z.array(z.object({ serviceId: z.string(), name: z.string() })),
      summary: z.string().meta({ description: 'The change in words.' }),
    }),
  }),
  'hours.changed': event({
    version: 1,
    subject: 'business',
    description:
      'A business changed when it works (weekly hours or time off); bookings left outside are listed to move.',
    data: z.object({
      resourceIds: z.array(z.string()),
      summary: z.string().meta({ description: 'The change in words.' }),
      bookingsToMove: z
        .array(z.string())
        .meta({ description: 'Bookings now outside working time (flagged, not cancelled).' }),
    }),
  }),
} as const satisfies Record<string, EventDefinition>;

export type EventType = keyof typeof EVENT_CATALOG;
export type EventData<T extends EventType> = z.input<(typeof EVENT_CATALOG)[T]['data']>;
export const EVENT_TYPES = Object.keys(EVENT_CATALOG) as EventType[];

// The event types an operation may declare (core/define.ts): core names none itself, so that it stays
// below this module; each type of the catalog is a key of its EventTypeNames.
declare module '../core/index.js' {
  interface EventTypeNames extends Record<EventType, true> {}
}
