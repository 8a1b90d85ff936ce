import type { BookingStatus, PaymentStatus, Weekday } from './types.js';

/** Every booking status, active ones first. */
export const BOOKING_STATUSES: readonly BookingStatus[] = Object.freeze([
  'PENDING',
  'ACCEPTED',
  'CANCELLED',
  'EXPIRED',
  'DONE',
] as const);

/** Every payment status. */
export const PAYMENT_STATUSES: readonly PaymentStatus[] = Object.freeze([
  'PENDING',
  'PAID',
  'CASH_DUE',
  'REFUND_REQUESTED',
  'REFUNDED',
  'VOID',
] as const);

/** The spec's reschedule window: allowed until 12 hours before start (12 h exactly is too late). */
export const RESCHEDULE_CUTOFF_HOURS = 12;

/** The spec's payment link validity: 48 hours. */
export const PAY_LINK_HOURS = 48;

/** How far ahead the bookings of a repeat series are kept booked. */
export const SERIES_WEEKS_AHEAD = 4;

export const HOUR_MS = 3_600_000;

/** Temporal's `dayOfWeek` (1 = Monday) minus one indexes this. Not exported from the package. */
export const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** The local hour of the day before a booking at which its person is reminded (18:00). */
export const REMINDER_LOCAL_HOUR = 18;

/** A booking made less than this before its reminder time is not reminded: its confirmation is fresh. */
export const REMINDER_MIN_NOTICE_HOURS = 6;

/** An unpaid link's person is told this long before it lapses (and only if it was opened this long before that). */
export const PAY_REMINDER_HOURS = 6;
