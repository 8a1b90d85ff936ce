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

/**
 * A shop order's own status. PENDING_PAYMENT (card, unpaid) → CONFIRMED → PACKED → SHIPPED →
 * DELIVERED; CANCELLED and EXPIRED close it early.
 */
export type OrderStatus =
  | 'PENDING_PAYMENT'
  | 'CONFIRMED'
  | 'PACKED'
  | 'SHIPPED'
  | 'DELIVERED'
  | 'CANCELLED'
  | 'EXPIRED';

/** Where an order's money stands. CASH_DUE: paid to the crew at the visit. NONE: nothing owed or taken. */
export type OrderPaymentStatus = 'PENDING' | 'PAID' | 'CASH_DUE' | 'REFUND_REQUESTED' | 'REFUNDED' | 'NONE';

/** What the rules need to know about an order. Lines, totals and addresses stay with the caller. */
export interface OrderState {
  status: OrderStatus;
  paymentStatus: OrderPaymentStatus;
  paymentMethod: PaymentMethod;
}

/** Something that happens to an order. */
export type OrderTrigger =
  /** The gateway reports the card payment. */
  | { type: 'PAID' }
  /** The worker: the order stayed unpaid for 24 hours. */
  | { type: 'EXPIRE' }
  /** The operator packed it. */
  | { type: 'PACK' }
  /** Handed to the courier or the van, or for a `visit` to the crew of the booking. */
  | { type: 'SHIP' }
  /** It reached the person. */
  | { type: 'DELIVER' }
  /** The operator cancels (or the person drops an unpaid order). */
  | { type: 'CANCEL' }
  /** The operator marks the refund done. */
  | { type: 'REFUNDED' };

/**
 * Stable codes of an order refusal:
 * - `ORDER_NOT_OPEN`: the order's status does not allow this move (it is closed, or at another step);
 * - `ALREADY_PAID`: a payment reported for an order whose money already came (a repeated gateway
 *   callback: safe to ignore);
 * - `NO_REFUND_DUE`: a refund marked done while none is waiting.
 */
export type OrderRefusalCode = 'ORDER_NOT_OPEN' | 'ALREADY_PAID' | 'NO_REFUND_DUE';

/** A move the order rules refuse. `message` is a sentence to pass on. The state is unchanged. */
export type OrderRefusal = { ok: false; code: OrderRefusalCode; message: string };

/** The result of an order move: the new state (always a fresh object), or a refusal. */
export type OrderOutcome = { ok: true; state: OrderState } | OrderRefusal;
