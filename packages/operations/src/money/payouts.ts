/**
 * The card money of a business: what the operator's gateway settled for it, its card
 * fees and refunds (the ledger get_earnings and list_payouts read), and the operator's payouts of
 * it (`pnpm cli payout create BUSINESS --to DATE`, `pnpm cli payout paid ID --note REF`).
 *
 * Every card payment of a partner goes through the operator's gateway: approval keeps a connected
 * PayFast merchant id on the application only, and payments are always made to the operator's
 * merchant (docs/decisions.md), so all settled card money is the operator's to pay out.
 */
import { formatMoney } from '@nogpets/pricing-tiers';
import {
  appendAudit,
  type BookingRow,
  type BusinessRow,
  findBookings,
  findBusiness,
  findPayout,
  insertPayout,
  listRefundsNotPaidOut,
  listSettledPayments,
  lockPayoutsOf,
  markPayoutPaid,
  type NewPayoutItem,
  type PayoutRow,
  type Queryable,
  transaction,
} from '@nogpets/store';
import { type Deps, localDate, localDaysWindow, ServiceError } from '../core/index.js';
import { operatorSource, recordEvent } from '../events/index.js';
import { toBooking } from '../bookings/index.js';
import { checkDateBounds, DATE } from '../schedule/index.js';

/** A payout takes what settled before this instant: the end of the local date `through` (slot-engine's day). */
export const payoutCutOff = (through: string, timeZone: string) =>
  localDaysWindow(through, through, timeZone).to;

/** The payment states of a card booking whose money went back (or goes back) to the client. */
const REFUNDED = ['REFUND_REQUESTED', 'REFUNDED'];

/** One booking's share of a settled payment (or, booking null, money of it no booking names: an invoice). */
export interface CardPart {
  bookingId: string | null;
  resourceId: string | null;
  lineId: string | null;
  /** What the client paid for it, card fee included. */
  cents: number;
  /** The card fee in `cents` (the operator's): the quote's service fee of a card booking, 0 for an invoice. */
  feeCents: number;
  /** The booking was cancelled after paying: its total less the fee goes back (the operator returns the fee). */
  refundCents: number;
}

/** A settled payment of the business: what it keeps of it and whose it is. */
export interface CardEntry {
  paymentId: string;
  paidAt: Date;
  /** The payment's amount less any part owed back as paid twice. */
  keptCents: number;
  feeCents: number;
  invoiceId: string | null;
  payoutId: string | null;
  parts: CardPart[];
}

/** A booking's card fee and what goes back if it was refunded: booking-model's fee rule, not a copy. */
export function cardShare(row: BookingRow): { cents: number; feeCents: number; refundCents: number } {
  const feeCents = row.paymentMethod === 'CARD' ? toBooking(row).cardFeeCents : 0;
  const refunded = REFUNDED.includes(row.paymentStatus);
  return {
    cents: row.totalCents,
    feeCents,
    refundCents: refunded ? Math.max(0, row.totalCents - feeCents) : 0,
  };
}

/** The settled payments of a business in a range (or not yet paid out), each split over the bookings it paid. */
export async function cardEntries(
  q: Queryable,
  businessId: string,
  range: { from?: Date; before?: Date; notInPayout?: boolean },
): Promise<CardEntry[]> {
  const rows = await listSettledPayments(q, businessId, range);
  const ids = [...new Set(rows.flatMap((r) => r.bookingIds))];
  const bookings = new Map((await findBookings(q, ids)).map((b) => [b.id, b]));
  return rows.map((r) => {
    const keptCents = r.amountCents - r.returnedCents;
    const parts: CardPart[] = [];
    for (const id of r.bookingIds) {
      const b = bookings.get(id);
      if (!b) continue;
      parts.push({ bookingId: b.id, resourceId: b.resourceId, lineId: b.lineId, ...cardShare(b) });
    }
    // What no booking names (an invoice, or a difference between a link's amount and its bookings'
    // totals) is still the business's money: it is counted, under no resource and no line.
    const rest = keptCents - parts.reduce((s, p) => s + p.cents, 0);
    if (rest !== 0)
      parts.push({
        bookingId: null,
        resourceId: null,
        lineId: null,
        cents: rest,
        feeCents: 0,
        refundCents: 0,
      });
    return {
      paymentId: r.paymentId,
      paidAt: r.paidAt,
      keptCents,
      feeCents: parts.reduce((s, p) => s + p.feeCents, 0),
      invoiceId: r.invoiceId,
      payoutId: r.payoutId,
      parts,
    };
  });
}

/** What a payout through a date would hold: the items and their totals (amount may be 0 or less). */
export interface PayoutPlan {
  items: NewPayoutItem[];
  cardCents: number;
  feeCents: number;
  refundCents: number;
  amountCents: number;
  payments: number;
  refunds: number;
  firstPaidDate: string | null;
  lastPaidDate: string | null;
}

/**
 * Everything settled up to the end of the local date `through` that is in no payout yet: each
 * settled payment (what the business keeps of it, less its card fees), less the refunds of card
 * bookings whose payment is in this plan or in an earlier payout (a refund is never taken before
 * the money it returns was counted).
 */
export async function payoutPlan(q: Queryable, business: BusinessRow, through: string): Promise<PayoutPlan> {
  const before = payoutCutOff(through, business.timezone);
  const credits = await cardEntries(q, business.id, { before, notInPayout: true });
  const inPlan = new Set(credits.map((c) => c.paymentId));
  const refunds = (await listRefundsNotPaidOut(q, business.id)).filter(
    (r) => r.paymentPayoutId !== null || inPlan.has(r.paymentId),
  );
  const rows = new Map(
    (
      await findBookings(
        q,
        refunds.map((r) => r.bookingId),
      )
    ).map((b) => [b.id, b]),
  );
  const items: NewPayoutItem[] = credits.map((c) => ({
    kind: 'CARD',
    paymentId: c.paymentId,
    bookingId: null,
    amountCents: c.keptCents,
    feeCents: c.feeCents,
  }));
  for (const r of refunds) {
    const b = rows.get(r.bookingId);
    if (!b) continue;
    items.push({
      kind: 'REFUND',
      paymentId: r.paymentId,
      bookingId: b.id,
      amountCents: cardShare(b).refundCents,
      feeCents: 0,
    });
  }
  const sum = (kind: NewPayoutItem['kind'], f: (i: NewPayoutItem) => number) =>
    items.filter((i) => i.kind === kind).reduce((s, i) => s + f(i), 0);
  const cardCents = sum('CARD', (i) => i.amountCents);
  const feeCents = sum('CARD', (i) => i.feeCents);
  const refundCents = sum('REFUND', (i) => i.amountCents);
  const dates = credits.map((c) => localDate(c.paidAt, business.timezone));
  return {
    items,
    cardCents,
    feeCents,
    refundCents,
    amountCents: cardCents - feeCents - refundCents,
    payments: credits.length,
    refunds: items.length - credits.length,
    firstPaidDate: dates[0] ?? null,
    lastPaidDate: dates.at(-1) ?? null,
  };
}

/** A payout as the operator and the business see it. */
export interface Payout {
  payoutId: string;
  businessId: string;
  status: 'CREATED' | 'PAID';
  throughDate: string;
  firstPaidDate: string | null;
  lastPaidDate: string | null;
  currency: string;
  cardCents: number;
  feesCents: number;
  refundsCents: number;
  amountCents: number;
  amount: string;
  payments: number;
  refunds: number;
  note: string | null;
  createdAt: string;
  paidAt: string | null;
}

export function toPayout(p: PayoutRow): Payout {
  return {
    payoutId: p.id,
    businessId: p.businessId,
    status: p.status,
    throughDate: p.throughDate,
    firstPaidDate: p.firstPaidDate,
    lastPaidDate: p.lastPaidDate,
    currency: p.currency,
    cardCents: p.cardCents,
    feesCents: p.feeCents,
    refundsCents: p.refundCents,
    amountCents: p.amountCents,
    amount: formatMoney(p.amountCents, p.currency),
    payments: p.payments,
    refunds: p.refunds,
    note: p.note,
    createdAt: p.createdAt.toISOString(),
    paidAt: p.paidAt ? p.paidAt.toISOString() : null,
  };
}

type PayoutDeps = Pick<Deps, 'sql' | 'clock'>;

/** The longest note (a bank reference) kept on a paid payout. */
export const MAX_PAYOUT_NOTE = 200;

/**
 * The operator makes a payout of everything settled for `businessId` up to the end of the local
 * date `through` (today or earlier) that is in no payout yet, less card fees and refunds: one
 * transaction, serialised per business, audited. Refused (nothing written) when it would not be
 * more than zero: refunds larger than the money are carried to the next payout.
 */
export async function createPayout(
  deps: PayoutDeps,
  businessId: string,
  through: string,
  by: string,
): Promise<Payout> {
  if (!DATE.safeParse(through).success)
    throw new ServiceError('BAD_REQUEST', `--to: a date YYYY-MM-DD, not "${through}".`, {
      fields: [{ field: 'to', message: 'YYYY-MM-DD' }],
    });
  const now = deps.clock.now();
  return transaction(deps.sql, async (q) => {
    const business = await findBusiness(q, businessId);
    if (!business) throw new ServiceError('NOT_FOUND', `No business ${businessId}.`, { businessId });
    const today = localDate(now, business.timezone);
    checkDateBounds('records', today, business.timezone, { to: through });
    if (through > today)
      throw new ServiceError(
        'BAD_REQUEST',
        `--to ${through} is after today (${today} in ${business.timezone}): only money already settled is paid out.`,
        { fields: [{ field: 'to', message: `at most ${today}` }] },
      );
    await lockPayoutsOf(q, business.id);
    const plan = await payoutPlan(q, business, through);
    const money = (c: number) => formatMoney(c, business.currency);
    if (plan.amountCents <= 0)
      throw new ServiceError(
        'NOTHING_TO_PAY',
        plan.items.length
          ? `Nothing to pay out to ${business.name} through ${through}: card money ${money(plan.cardCents)} less fees ${money(plan.feeCents)} and refunds ${money(plan.refundCents)} is ${money(plan.amountCents)}; it is carried to the next payout.`
          : `Nothing to pay out to ${business.name} through ${through}: no settled card money is waiting for a payout.`,
        { businessId: business.id, through, amountCents: plan.amountCents },
      );
    const row = await insertPayout(
      q,
      {
        businessId: business.id,
        currency: business.currency,
        throughDate: through,
        firstPaidDate: plan.firstPaidDate,
        lastPaidDate: plan.lastPaidDate,
        createdBy: by,
      },
      plan.items,
      now,
    );
    await appendAudit(
      q,
      {
        userId: null,
        clientId: null,
        clientName: by,
        action: 'payout.create',
        target: row.id,
        details: {
          businessId: business.id,
          through,
          cardCents: row.cardCents,
          feeCents: row.feeCents,
          refundCents: row.refundCents,
          amountCents: row.amountCents,
          payments: row.payments,
          refunds: row.refunds,
        },
      },
      now,
    );
    return toPayout(row);
  });
}

/** The operator transferred a CREATED payout: PAID, with the transfer's reference. */
export async function markPayoutDone(
  deps: PayoutDeps,
  payoutId: string,
  note: string,
  by: string,
): Promise<Payout> {
  const text = note.trim();
  if (!text || text.length > MAX_PAYOUT_NOTE)
    throw new ServiceError(
      'BAD_REQUEST',
      `--note: the transfer's reference, 1 to ${MAX_PAYOUT_NOTE} characters.`,
      {
        fields: [{ field: 'note', message: `1 to ${MAX_PAYOUT_NOTE} characters` }],
      },
    );
  const now = deps.clock.now();
  return transaction(deps.sql, async (q) => {
    const row = await findPayout(q, payoutId, { forUpdate: true });
    if (!row) throw new ServiceError('NOT_FOUND', `No payout ${payoutId}.`, { payoutId });
    if (row.status !== 'CREATED')
      throw new ServiceError(
        'NOT_ACTIVE',
        `Payout ${payoutId} was marked paid on ${row.paidAt?.toISOString() ?? '?'} (${row.note ?? 'no note'}).`,
        { payoutId, status: row.status },
      );
    const done = await markPayoutPaid(q, payoutId, text, by, now);
    await appendAudit(
      q,
      {
        userId: null,
        clientId: null,
        clientName: by,
        action: 'payout.paid',
        target: payoutId,
        details: { businessId: row.businessId, amountCents: row.amountCents, note: text },
      },
      now,
    );
    // The CLI names no account: the operator is known by the name on the audit record only.
    await recordEvent(q, operatorSource(null, 'markPayoutDone', now), {
      type: 'payout.paid',
      businessId: done!.businessId,
      personId: null,
      subjectId: done!.id,
      data: {
        payoutId: done!.id,
        amount: { amount: done!.amountCents, currency: done!.currency },
        periodStart: done!.firstPaidDate,
        periodEnd: done!.lastPaidDate,
        reference: text,
      },
    });
    return toPayout(done!);
  });
}
