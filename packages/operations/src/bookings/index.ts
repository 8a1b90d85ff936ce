/** The public entry of bookings/: bookings and series, their model, confirm parts and events, jobs and the day plan. */
export { book, BookRequestSchema, BookResultSchema } from './book.js';
export { bookForClient, findBusinessTimes, rebookBooking } from './book-for-client.js';
export {
  type Booking,
  BookingSchema,
  paymentWords,
  stateOf,
  statusWords,
  toBooking,
  withMessages,
} from './booking-model.js';
export {
  acceptBusinessBooking,
  cancelBusinessBooking,
  declineBooking,
  moveBooking,
} from './business-actions.js';
export { bookingListWindow, listBusinessBookings } from './business-bookings.js';
export { bookingParts } from './confirm-parts.js';
export { dayPlanWindow, getDayPlan } from './day-plan.js';
export { recordBookingEvents } from './events.js';
export { JobSchema, resourceRefused, toJobs } from './jobs.js';
export {
  cancelBooking,
  freshPayLink,
  getBooking,
  listBookings,
  payableBooking,
  payBooking,
  rescheduleBooking,
  rescheduleTimes,
} from './manage.js';
export {
  acceptBooking,
  closeLeadWithNote,
  leadsToFollowUp,
  markPaymentRefunded,
  markRefunded,
  paymentsToRefund,
  refundsDue,
} from './operator.js';
export { payUrlOf } from './place.js';
export { completeBookings, expireHolds, extendSeries, remindBookings } from './timed-rules.js';
