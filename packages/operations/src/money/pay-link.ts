import {
  findBookings,
  findInvoiceOfPayment,
  findOrderOfPayment,
  findPaymentByLink,
  type InvoiceRow,
  type OrderRow,
  type PaymentRow,
} from '@nogpets/store';
import { type Deps, hashSecret } from '../core/index.js';
import { type Booking, toBooking } from '../bookings/index.js';
import { findShop, type Order, toOrder } from '../shop/index.js';

/** Whether a pay link can be paid now, and if not, why. */
export type PayLinkState = 'paid' | 'expired' | 'nothing' | 'open';

/** What the pay pages show for a link. */
export interface PayLink {
  payment: PaymentRow;
  bookings: Booking[];
  /** The invoice the link is for (a business's invoice link: no bookings), or null. */
  invoice: InvoiceRow | null;
  /** The shop order the link is for (no bookings), or null. */
  order: OrderRow | null;
  /** That order as its person sees it (get_order's answer, with the shop's delivery words). */
  orderView: Order | null;
  state: PayLinkState;
  /**
   * A payment may have been made at the gateway and its confirmation be on its way: PayFast sends
   * the browser back before its notification is checked (the sandbox's arrives first).
   */
  awaitingConfirmation: boolean;
}

/**
 * What a pay link (`/pay/{token}`) stands for: its payment, the bookings it pays for, and whether
 * it can be paid now. Null for a link that is not known.
 */
export async function findPayLink(
  deps: Pick<Deps, 'sql' | 'clock' | 'payments'>,
  token: string,
): Promise<PayLink | null> {
  const payment = await findPaymentByLink(deps.sql, hashSecret(token));
  if (!payment) return null;
  const [bookings, invoice, order] = await Promise.all([
    findBookings(deps.sql, payment.bookingIds).then((rows) => rows.map(toBooking)),
    findInvoiceOfPayment(deps.sql, payment.id),
    findOrderOfPayment(deps.sql, payment.id),
  ]);
  const now = deps.clock.now();
  const live = payment.expiresAt > now;
  return {
    payment,
    bookings,
    invoice,
    order,
    orderView: order ? toOrder(order, (await findShop(deps.sql))?.delivery ?? null) : null,
    state: payLinkState(payment, bookings, invoice, order, now),
    awaitingConfirmation: payment.status === 'OPEN' && live && deps.payments.gateway.name !== 'sandbox',
  };
}

function payLinkState(
  payment: PaymentRow,
  bookings: Booking[],
  invoice: InvoiceRow | null,
  order: OrderRow | null,
  now: Date,
): PayLinkState {
  if (payment.status === 'PAID') return 'paid';
  // A declined attempt (FAILED) may be tried again on the same link while it is valid.
  if ((payment.status !== 'OPEN' && payment.status !== 'FAILED') || payment.expiresAt <= now)
    return 'expired';
  if (invoice) return invoice.status === 'OPEN' ? 'open' : 'nothing';
  if (order) return order.status === 'PENDING_PAYMENT' ? 'open' : 'nothing';
  if (!bookings.some((b) => b.canPay)) return 'nothing';
  return 'open';
}
