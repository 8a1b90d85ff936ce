export { canPay } from './can-pay.js';
export {
  BOOKING_STATUSES,
  PAY_LINK_HOURS,
  PAY_REMINDER_HOURS,
  PAYMENT_STATUSES,
  REMINDER_LOCAL_HOUR,
  REMINDER_MIN_NOTICE_HOURS,
  RESCHEDULE_CUTOFF_HOURS,
  SERIES_WEEKS_AHEAD,
} from './constants.js';
export { DATE_BOUNDS, type DateBoundsKind, dateBounds, outsideDateBounds } from './date-bounds.js';
export { expandWeekly } from './expand-weekly.js';
export { holdUntil } from './hold-until.js';
export { initialState } from './initial-state.js';
export { isActive } from './is-active.js';
export {
  MAX_UNPAID_ORDERS,
  mayOpenUnpaidOrder,
  ORDER_HOURS,
  ORDER_PAYMENT_STATUSES,
  ORDER_STATUSES,
  orderExpiresAt,
  orderPayLink,
  orderTransition,
} from './order-state.js';
export { parseRepeat } from './parse-repeat.js';
export { payLink } from './pay-link.js';
export { payLinkExpiresAt } from './pay-link-expires-at.js';
export { payReminderAt } from './pay-reminder-at.js';
export { reminderAt } from './reminder-at.js';
export { rescheduleAllowed } from './reschedule-allowed.js';
export { rescheduleDeadline } from './reschedule-deadline.js';
export { seriesHorizon } from './series-horizon.js';
export { transition } from './transition.js';
export type {
  BookingState,
  BookingStatus,
  OrderOutcome,
  OrderPaymentStatus,
  OrderRefusal,
  OrderRefusalCode,
  OrderState,
  OrderStatus,
  OrderTrigger,
  Outcome,
  PaymentMethod,
  PaymentStatus,
  Refusal,
  RefusalCode,
  Trigger,
  Weekday,
  WeeklyRepeat,
} from './types.js';
