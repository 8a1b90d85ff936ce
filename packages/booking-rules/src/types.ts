/** A booking's own status. PENDING and ACCEPTED are active (they hold a time); the rest are closed. */
export type BookingStatus = 'PENDING' | 'ACCEPTED' | 'CANCELLED' | 'EXPIRED' | 'DONE';

/** Where the booking's money stands. VOID: nothing is owed and nothing was taken. */
export type PaymentStatus = 'PENDING' | 'PAID' | 'CASH_DUE' | 'REFUND_REQUESTED' | 'REFUNDED' | 'VOID';

export type PaymentMethod = 'CARD' | 'CASH';

/** What the rules need to know about a booking. Other fields (id, total, pets) stay with the caller. */
export interface BookingState {
  status: BookingStatus;
  paymentStatus: PaymentStatus;
  paymentMethod: PaymentMethod;
  start: Date;
  end: Date;
}

/** Stable codes of a refusal; the spec's error codes. */
export type RefusalCode = 'CONFIRM_REQUIRED' | 'TOO_LATE' | 'NOTHING_TO_PAY' | 'NOT_ACTIVE';

/** A move the rules refuse. `message` is a sentence to pass on to the person. The state is unchanged. */
export type Refusal = { ok: false; code: RefusalCode; message: string };

/** The result of a move: the new state (always a fresh object), or a refusal. */
export type Outcome = { ok: true; state: BookingState } | Refusal;

/** Something that happens to a booking. */
export type Trigger =
  /** The gateway reports the card payment. */
  | { type: 'PAYMENT_SUCCEEDED' }
  /** The gateway reports a failure: the booking stays unpaid (the person may retry with a new link). */
  | { type: 'PAYMENT_FAILED' }
  /** The worker: an unpaid card hold lapsed. */
  | { type: 'HOLD_EXPIRED' }
  /** The business accepts a PENDING booking. */
  | { type: 'ACCEPT' }
  /** The person moves the booking to a new time. */
  | { type: 'RESCHEDULE'; start: Date; end: Date }
  /** The person cancels; `confirm` must be true (sent after they saw the summary and agreed). */
  | { type: 'CANCEL'; confirm: boolean }
  /** After the end: DONE. */
  | { type: 'COMPLETE' }
  /** The operator marks the refund done. */
  | { type: 'REFUND_DONE' };

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

/** The spec's `repeat` of a walk booking: `{freq: 'WEEKLY', days: ['mon', 'thu']}`. */
export interface WeeklyRepeat {
  freq: 'WEEKLY';
  days: Weekday[];
}
