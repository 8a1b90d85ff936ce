/**
 * One example of each event's `data`, as docs/events.md shows it. A test parses each with its
 * shape, so an example can never drift from the catalog; a new type needs one here (the type below
 * asks for every type).
 */
import type { BookingFacts, EventData, EventType } from './catalog.js';

const booking: BookingFacts = {
  bookingId: 'bkg_7m2q9x4v0c1h8t6r3k5n',
  businessId: 'biz_4d8f2k6m0p9r3t7v1x5z',
  status: 'ACCEPTED',
  paymentMethod: 'CARD',
  paymentStatus: 'PAID',
  start: '2026-12-10T08:00:00.000Z',
  end: '2026-12-10T09:30:00.000Z',
  timeZone: 'Africa/Johannesburg',
  what: 'Rex: Full groom, Nail clip',
  total: { amount: 45000, currency: 'ZAR' },
  resourceId: 'res_9h3k7n1q5t0w4y8b2d6f',
  clientName: null,
  seriesId: null,
};

const order = {
  orderId: 'ord_2b6f0j4m8q3t7w1z5c9g',
  businessId: 'biz_4d8f2k6m0p9r3t7v1x5z',
  status: 'CONFIRMED',
  paymentMethod: 'CARD',
  paymentStatus: 'PAID',
  shippingMethod: 'courier',
  total: { amount: 38900, currency: 'ZAR' },
  tracking: null,
  clientName: null,
  bookingId: null,
};

const application = {
  applicationId: 'app_5c9g3k7n1r6v0y4b8f2j',
  businessName: 'Suds & Tails Mobile Grooming',
  country: 'ZA',
  category: ['grooming'],
};

export const EVENT_EXAMPLES: { [T in EventType]: EventData<T> } = {
  'booking.created': {
    booking: { ...booking, status: 'PENDING', paymentStatus: 'PENDING' },
    by: 'client',
  },
  'booking.paid': { booking, paid: { amount: 45000, currency: 'ZAR' } },
  'booking.accepted': {
    booking: { ...booking, paymentMethod: 'CASH', paymentStatus: 'CASH_DUE' },
    message: 'See you Thursday! Please have Rex on a lead when the van arrives.',
  },
  'booking.declined': {
    booking: { ...booking, status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' },
    message: 'Sorry, the van is in for a service that morning.',
    refund: { amount: 45000, currency: 'ZAR' },
  },
  'booking.moved': {
    booking: { ...booking, start: '2026-12-11T10:00:00.000Z', end: '2026-12-11T11:30:00.000Z' },
    from: {
      start: '2026-12-10T08:00:00.000Z',
      end: '2026-12-10T09:30:00.000Z',
      resourceId: 'res_9h3k7n1q5t0w4y8b2d6f',
    },
    by: 'business',
    message: null,
  },
  'booking.expired': { booking: { ...booking, status: 'EXPIRED', paymentStatus: 'VOID' } },
  'booking.cancelled': {
    booking: { ...booking, status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' },
    by: 'client',
    message: null,
    refund: { amount: 45000, currency: 'ZAR' },
  },
  'booking.reminder_due': {
    booking: { ...booking, status: 'ACCEPTED', paymentStatus: 'PAID' },
    changeUntil: '2026-12-09T20:00:00.000Z',
  },
  'booking.payment_due': { booking, payUntil: '2026-12-03T10:00:00.000Z' },
  'booking.refund_due': {
    booking: { ...booking, status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' },
    refund: { amount: 45000, currency: 'ZAR' },
  },
  'payment.refund_due': {
    paymentId: 'pay_2c6g0k4n8r3v7z1d5h9m',
    refund: { amount: 38900, currency: 'ZAR' },
    reason: 'order_closed',
    orderId: 'ord_5h9m3q7t1x6b0f4j8n2r',
    bookingIds: [],
  },
  'order.paid': { order },
  'order.payment_due': {
    order: { ...order, status: 'PENDING_PAYMENT', paymentStatus: 'PENDING' },
    payUntil: '2026-12-02T10:00:00.000Z',
  },
  'order.shipped': { order: { ...order, status: 'SHIPPED', tracking: 'TCG-88412035' } },
  'order.delivered': { order: { ...order, status: 'DELIVERED', tracking: 'TCG-88412035' } },
  'order.cancelled': {
    order: { ...order, status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' },
    by: 'client',
    refund: { amount: 38900, currency: 'ZAR' },
  },
  'application.submitted': application,
  'application.approved': {
    ...application,
    businessId: 'biz_4d8f2k6m0p9r3t7v1x5z',
    note: 'Welcome to NogPets!',
  },
  'application.rejected': {
    ...application,
    note: 'Please add proof of your grooming qualification and apply again.',
  },
  'invitation.sent': {
    invitationId: 'inv_8f2j6m0q4t9w3z7c1g5k',
    businessName: 'Suds & Tails Mobile Grooming',
    email: 'thandi@example.com',
    role: 'crew',
    expiresAt: '2026-12-14T08:00:00.000Z',
  },
  'invitation.accepted': {
    invitationId: 'inv_8f2j6m0q4t9w3z7c1g5k',
    businessName: 'Suds & Tails Mobile Grooming',
    role: 'crew',
    userId: 'usr_1x5z9d3h7m2q6t0w4b8f',
  },
  'payout.paid': {
    payoutId: 'pout_6t0w4b8f2j7n1r5v9c3g',
    amount: { amount: 1234500, currency: 'ZAR' },
    periodStart: '2026-11-01',
    periodEnd: '2026-11-30',
    reference: 'EFT 2026-12-02 NOGPETS 0042',
  },
  'prices.changed': {
    services: [{ serviceId: 'svc_3g7k1n5r9v4y8c2f6j0m', name: 'Full groom' }],
    summary: 'Full groom: R400 → R450 for large dogs.',
  },
  'hours.changed': {
    resourceIds: ['res_9h3k7n1q5t0w4y8b2d6f'],
    summary: 'Time off on 24 December, all day.',
    bookingsToMove: ['bkg_7m2q9x4v0c1h8t6r3k5n'],
  },
};
