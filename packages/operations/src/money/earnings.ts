/**
 * getEarnings / get_earnings, listPayouts / list_payouts and listUnpaidClients /
 * list_unpaid_clients: the money of a business, for its owners and managers. Card
 * money is what the operator's gateway settled for it (the payments table, business/payouts.ts'
 * ledger); cash is what its done cash bookings were worth; what clients owe follows the balance
 * rule of get_client (the store's UNPAID_CASH and UNPAID_CARD).
 */
import { formatMoney } from '@nogpets/pricing-tiers';
import {
  findBookings,
  findClients,
  listDoneCashBookingIds,
  listLineLabels,
  listPayouts as listPayoutRows,
  listResources,
  listUnpaidItems,
  payoutTotals,
  type UnpaidItemRow,
} from '@nogpets/store';
import { z } from 'zod';
import {
  DAY_MS,
  defineOperation,
  keysetCursor,
  localDate,
  localDaysWindow,
  momentText,
  READ_ONLY,
  ServiceError,
} from '../core/index.js';
import { checkDateBounds, DATE } from '../schedule/index.js';
import { cardEntries, payoutPlan, toPayout } from './payouts.js';
import { inBusiness, RUN_ACCESS_ERRORS, RunBusinessIdShape } from '../staff/index.js';

/** The instants earnings count: the local dates `from` to `to` in the business's zone, as slot-engine counts them. */
export const earningsWindow = (from: string, to: string, timeZone: string) =>
  localDaysWindow(from, to, timeZone);

/** The longest period get_earnings covers: a year, leap day included. */
export const MAX_EARNINGS_DAYS = 366;

const days = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

const cents = (what: string) => z.int().meta({ description: `${what}, in the currency's minor units.` });

const FiguresSchema = z.object({
  grossCents: cents('Card plus cash'),
  cardCents: cents(
    'Card money settled in the period through the gateway (payments PAID then, less any part owed back as paid twice), card fees included; invoices too',
  ),
  cashCents: cents('Cash bookings DONE that began in the period'),
  cardFeesCents: cents("The card fee in the period's card money (the operator's)"),
  refundsCents: cents(
    "Of the period's card money, what went back to clients for bookings cancelled after paying (their total less the card fee)",
  ),
  netCents: cents('Gross less card fees and refunds'),
  cashDueCents: cents('Of the cash, what is still marked due (CASH_DUE)'),
  gross: z.string(),
  card: z.string(),
  cash: z.string(),
  cardFees: z.string(),
  refunds: z.string(),
  net: z.string(),
  cashDue: z.string(),
});

type Figures = z.infer<typeof FiguresSchema>;
type Sums = { card: number; cash: number; fees: number; refunds: number; cashDue: number };

const zero = (): Sums => ({ card: 0, cash: 0, fees: 0, refunds: 0, cashDue: 0 });

function figuresOf(s: Sums, currency: string): Figures {
  const money = (c: number) => formatMoney(c, currency);
  const gross = s.card + s.cash;
  const net = gross - s.fees - s.refunds;
  return {
    grossCents: gross,
    cardCents: s.card,
    cashCents: s.cash,
    cardFeesCents: s.fees,
    refundsCents: s.refunds,
    netCents: net,
    cashDueCents: s.cashDue,
    gross: money(gross),
    card: money(s.card),
    cash: money(s.cash),
    cardFees: money(s.fees),
    refunds: money(s.refunds),
    net: money(net),
    cashDue: money(s.cashDue),
  };
}

/** The period asked for, checked: `to` not before `from`, at most 366 days. */
function periodOf(from: string, to: string): void {
  const n = days(from, to) + 1;
  if (n >= 1 && n <= MAX_EARNINGS_DAYS) return;
  throw new ServiceError(
    'BAD_REQUEST',
    n < 1
      ? `to (${to}) is before from (${from}).`
      : `From ${from} to ${to} is ${n} days; at most ${MAX_EARNINGS_DAYS} at once.`,
    { fields: [{ field: 'to', message: `from 0 to ${MAX_EARNINGS_DAYS - 1} days after from` }] },
  );
}

export const getEarnings = defineOperation({
  operationId: 'getEarnings',
  toolName: 'get_earnings',
  title: "The business's earnings for a period",
  tag: 'Run',
  mcp: 'business',
  method: 'GET',
  path: '/v1/business/earnings',
  inputIn: 'query',
  auth: { scope: 'business:manage' },
  description:
    "What the business earned between two local dates (`from`, `to` inclusive, in the business's zone; default the " +
    `first of this month to today; at most ${MAX_EARNINGS_DAYS} days), in its currency: card money settled in the ` +
    'period through NogPets (pay links and invoices paid then), cash of cash bookings done in the period (their day), ' +
    'gross (card plus cash), card fees (the card fee in that card money, kept by NogPets), refunds (of that card ' +
    'money, what went back to clients for bookings cancelled after paying, less the card fee NogPets returns), and net ' +
    '(gross less fees and refunds); also by resource (van, walker, sitter) and by service line. Every figure in minor ' +
    'units and in words. Owners and managers only.',
  input: z
    .object({
      ...RunBusinessIdShape,
      from: DATE.optional().meta({
        description: 'First local date, YYYY-MM-DD; default the first of this month.',
      }),
      to: DATE.optional().meta({ description: 'Last local date (inclusive); default today.' }),
    })
    .strict(),
  output: z
    .object({
      businessId: z.string(),
      currency: z.string(),
      from: z.string(),
      to: z.string(),
      totals: FiguresSchema.extend({
        cardPayments: z.int().meta({ description: 'Settled payments counted.' }),
        cardBookings: z.int(),
        invoices: z.int(),
        cashBookings: z.int(),
        refundedBookings: z.int(),
      }),
      byResource: z.array(
        FiguresSchema.extend({
          resourceId: z.string().nullable().meta({ description: 'Null: invoices, money no booking names.' }),
          name: z.string(),
        }),
      ),
      byLine: z.array(
        FiguresSchema.extend({
          lineId: z.string().nullable().meta({ description: 'Null: invoices, money no booking names.' }),
          label: z.string(),
        }),
      ),
      summary: z.string().meta({ description: 'The totals in plain words, to show the person.' }),
    })
    .meta({
      id: 'BusinessEarnings',
      description:
        "A period's card and cash money, fees, refunds and net, in all, by resource and by service line.",
    }),
  successStatus: 200,
  errors: RUN_ACCESS_ERRORS,
  annotations: READ_ONLY,
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'read', async ({ q, access }) => {
      const biz = access.business;
      const tz = biz.timezone;
      const today = localDate(ctx.deps.clock.now(), tz);
      const from = input.from ?? `${(input.to ?? today).slice(0, 8)}01`;
      const to = input.to ?? today;
      checkDateBounds('records', today, tz, { from: input.from, to: input.to });
      periodOf(from, to);
      const { from: start, to: before } = earningsWindow(from, to, tz);

      const total = zero();
      const byResource = new Map<string | null, Sums>();
      const byLine = new Map<string | null, Sums>();
      const add = (resourceId: string | null, lineId: string | null, f: (s: Sums) => void) => {
        for (const [map, key] of [
          [byResource, resourceId],
          [byLine, lineId],
        ] as const) {
          if (!map.has(key)) map.set(key, zero());
          f(map.get(key)!);
        }
        f(total);
      };
      const card = await cardEntries(q, biz.id, { from: start, before });
      const cardBookings = new Set<string>();
      const refunded = new Set<string>();
      for (const e of card) {
        for (const p of e.parts) {
          if (p.bookingId) cardBookings.add(p.bookingId);
          if (p.bookingId && p.refundCents) refunded.add(p.bookingId);
          add(p.resourceId, p.lineId, (s) => {
            s.card += p.cents;
            s.fees += p.feeCents;
            s.refunds += p.refundCents;
          });
        }
      }
      const cash = await findBookings(q, await listDoneCashBookingIds(q, biz.id, start, before));
      for (const b of cash) {
        add(b.resourceId, b.lineId, (s) => {
          s.cash += b.totalCents;
          if (b.paymentStatus === 'CASH_DUE') s.cashDue += b.totalCents;
        });
      }

      const resources = await listResources(q, biz.id);
      const lines = await listLineLabels(q, biz.id);
      const other = 'Invoices and other card money';
      const resourceRows = [
        ...resources.map((r) => ({ resourceId: r.id as string | null, name: r.name })),
        ...[...byResource.keys()]
          .filter((id) => !resources.some((r) => r.id === id))
          .map((id) => ({ resourceId: id, name: id ?? other })),
      ];
      const lineRows = [
        ...lines.map((l) => ({ lineId: l.id as string | null, label: l.label })),
        ...[...byLine.keys()]
          .filter((id) => !lines.some((l) => l.id === id))
          .map((id) => ({ lineId: id, label: id ?? other })),
      ];
      const totals = figuresOf(total, biz.currency);
      const invoices = card.filter((e) => e.invoiceId).length;
      return {
        businessId: biz.id,
        currency: biz.currency,
        from,
        to,
        totals: {
          ...totals,
          cardPayments: card.length,
          cardBookings: cardBookings.size,
          invoices,
          cashBookings: cash.length,
          refundedBookings: refunded.size,
        },
        byResource: resourceRows.map((r) => ({
          ...r,
          ...figuresOf(byResource.get(r.resourceId) ?? zero(), biz.currency),
        })),
        byLine: lineRows.map((l) => ({ ...l, ...figuresOf(byLine.get(l.lineId) ?? zero(), biz.currency) })),
        summary:
          `${biz.name}, ${from} to ${to}: ${totals.gross} gross (${totals.card} by card in ${card.length} ` +
          `payment${card.length === 1 ? '' : 's'}, ${totals.cash} in cash from ${cash.length} booking${cash.length === 1 ? '' : 's'}` +
          `${total.cashDue ? `, of it ${totals.cashDue} still due` : ''}), less ${totals.cardFees} card fees and ` +
          `${totals.refunds} refunds: ${totals.net} net.`,
      };
    });
  },
});

const PayoutSchema = z
  .object({
    payoutId: z.string(),
    businessId: z.string(),
    status: z
      .enum(['CREATED', 'PAID'])
      .meta({ description: 'CREATED: made, on its way; PAID: transferred.' }),
    throughDate: z.string().meta({ description: 'Money settled up to this local date (inclusive).' }),
    firstPaidDate: z.string().nullable(),
    lastPaidDate: z.string().nullable(),
    currency: z.string(),
    cardCents: z.int(),
    feesCents: z.int(),
    refundsCents: z.int(),
    amountCents: z.int().meta({ description: 'Card less fees and refunds: what the business gets.' }),
    amount: z.string(),
    payments: z.int(),
    refunds: z.int(),
    note: z.string().nullable().meta({ description: "The transfer's reference, once paid." }),
    createdAt: z.iso.datetime(),
    paidAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Payout', description: 'A payout of card money by NogPets to the business.' });

/** A page's position: the (created at, id) of its last payout. */
const payoutCursor = keysetCursor('p', { createdAt: 'instant', id: 'id' });

export const listPayouts = defineOperation({
  operationId: 'listPayouts',
  toolName: 'list_payouts',
  title: 'Payouts to the business',
  tag: 'Run',
  mcp: 'business',
  method: 'GET',
  path: '/v1/business/payouts',
  inputIn: 'query',
  auth: { scope: 'business:manage' },
  description:
    'What NogPets paid out to the business of the card money it collected for it (payouts, newest first: the money ' +
    'settled up to a date, card less card fees and refunds, CREATED while on its way, PAID with the transfer’s ' +
    'reference) and what is still to come: card money settled and in no payout yet, less its fees and the refunds ' +
    'not yet taken off. Cash never goes through NogPets. `limit` 1 to 50 (default 20); send `next` back as `cursor` ' +
    'for older payouts. Owners and managers only.',
  input: z
    .object({
      ...RunBusinessIdShape,
      limit: z.int().min(1).max(50).default(20),
      cursor: z.string().min(1).max(400).optional().meta({ description: 'The `next` of the previous page.' }),
    })
    .strict(),
  output: z
    .object({
      businessId: z.string(),
      currency: z.string(),
      payouts: z.array(PayoutSchema),
      paidOutCents: z.int().meta({ description: 'All PAID payouts so far.' }),
      paidOut: z.string(),
      onTheWayCents: z.int().meta({ description: 'CREATED payouts, not yet marked paid.' }),
      onTheWay: z.string(),
      stillToCome: z
        .object({
          cardCents: z.int(),
          feesCents: z.int(),
          refundsCents: z.int(),
          amountCents: z.int().meta({
            description: 'Card less fees and refunds; below zero, refunds are taken off later payouts.',
          }),
          amount: z.string(),
          payments: z.int(),
          refunds: z.int(),
          firstPaidDate: z.string().nullable(),
          lastPaidDate: z.string().nullable(),
        })
        .meta({ description: 'Settled card money in no payout yet, less its fees and refunds.' }),
      summary: z.string(),
      next: z.string().nullable(),
    })
    .meta({
      id: 'BusinessPayouts',
      description: 'Payouts made to the business and the money still to come.',
    }),
  successStatus: 200,
  errors: RUN_ACCESS_ERRORS,
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const after = payoutCursor.after(input.cursor);
    return inBusiness(ctx, input.businessId, 'read', async ({ q, access }) => {
      const biz = access.business;
      const money = (c: number) => formatMoney(c, biz.currency);
      const rows = await listPayoutRows(q, biz.id, { limit: input.limit + 1, after });
      const page = rows.slice(0, input.limit);
      const totals = await payoutTotals(q, biz.id);
      const plan = await payoutPlan(q, biz, localDate(ctx.deps.clock.now(), biz.timezone));
      const last = page.at(-1);
      return {
        businessId: biz.id,
        currency: biz.currency,
        payouts: page.map(toPayout),
        paidOutCents: totals.paidCents,
        paidOut: money(totals.paidCents),
        onTheWayCents: totals.createdCents,
        onTheWay: money(totals.createdCents),
        stillToCome: {
          cardCents: plan.cardCents,
          feesCents: plan.feeCents,
          refundsCents: plan.refundCents,
          amountCents: plan.amountCents,
          amount: money(plan.amountCents),
          payments: plan.payments,
          refunds: plan.refunds,
          firstPaidDate: plan.firstPaidDate,
          lastPaidDate: plan.lastPaidDate,
        },
        summary:
          `${money(totals.paidCents)} paid out in ${totals.paid} payout${totals.paid === 1 ? '' : 's'}` +
          `${totals.created ? `, ${money(totals.createdCents)} on its way (${totals.created} not yet marked paid)` : ''}; ` +
          `still to come: ${money(plan.amountCents)} (${money(plan.cardCents)} card in ${plan.payments} payment` +
          `${plan.payments === 1 ? '' : 's'} less ${money(plan.feeCents)} fees and ${money(plan.refundCents)} refunds).`,
        next:
          rows.length > input.limit && last
            ? payoutCursor.of({ createdAt: last.createdAt, id: last.id })
            : null,
      };
    });
  },
});

const UnpaidItemSchema = z.object({
  kind: z.enum(['CASH_DUE', 'CARD_LINK', 'INVOICE']).meta({
    description:
      'CASH_DUE: cash for a job done, not marked paid; CARD_LINK: a card booking waiting for payment; INVOICE: an open invoice.',
  }),
  bookingId: z.string().nullable(),
  invoiceId: z.string().nullable(),
  amountCents: z.int(),
  amount: z.string(),
  what: z.string().meta({ description: "The service line, or the invoice's description." }),
  when: z.string().nullable().meta({ description: "The booking's local start in words." }),
  dueDate: z
    .string()
    .meta({ description: 'Local date it was due: the booking’s day, or the invoice’s due date.' }),
  daysOverdue: z.int().min(0),
});

const UnpaidClientSchema = z.object({
  clientId: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  owedCents: z.int(),
  owed: z.string(),
  cashDueCents: z.int(),
  unpaidLinksCents: z.int().meta({ description: 'Card bookings waiting for payment and open invoices.' }),
  oldestDueDate: z.string(),
  daysOverdue: z.int().min(0).meta({ description: 'Of the oldest item.' }),
  items: z.array(UnpaidItemSchema).meta({ description: 'Oldest first.' }),
});

/** A page's position: the (oldest due date, client id) of its last client. */
const unpaidCursor = keysetCursor('u', { due: 'date', id: 'id' });

export const listUnpaidClients = defineOperation({
  operationId: 'listUnpaidClients',
  toolName: 'list_unpaid_clients',
  title: 'Clients who owe the business',
  tag: 'Run',
  mcp: 'business',
  method: 'GET',
  path: '/v1/business/unpaid',
  inputIn: 'query',
  auth: { scope: 'business:manage' },
  description:
    'The clients who owe the business money, the longest-waiting first: cash due for jobs done and not marked paid ' +
    '(CASH_DUE), card bookings waiting for payment (their pay link; a coming one is not overdue yet) and open ' +
    'invoices, each with the amount, the local date it was due and the days overdue; per client the total and the ' +
    'oldest. The same rule as the balance of get_client. send_payment_link makes a fresh link for a card booking. ' +
    '`limit` 1 to 50 clients (default 20); send `next` back as `cursor` for the next page. Owners and managers only.',
  input: z
    .object({
      ...RunBusinessIdShape,
      limit: z.int().min(1).max(50).default(20),
      cursor: z.string().min(1).max(400).optional().meta({ description: 'The `next` of the previous page.' }),
    })
    .strict(),
  output: z
    .object({
      businessId: z.string(),
      currency: z.string(),
      today: z.string().meta({ description: "Today's local date, from which days overdue are counted." }),
      clients: z.array(UnpaidClientSchema),
      totalOwedCents: z.int().meta({ description: 'Owed by all clients (every page).' }),
      totalOwed: z.string(),
      clientsOwing: z.int(),
      withoutClient: z
        .object({ items: z.int(), amountCents: z.int(), amount: z.string() })
        .meta({ description: 'Unpaid items of no client on record (an invoice made for no client).' }),
      next: z.string().nullable(),
    })
    .meta({ id: 'UnpaidClients', description: 'Clients who owe the business, the longest-waiting first.' }),
  successStatus: 200,
  errors: RUN_ACCESS_ERRORS,
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const after = unpaidCursor.after(input.cursor);
    return inBusiness(ctx, input.businessId, 'read', async ({ q, access }) => {
      const biz = access.business;
      const tz = biz.timezone;
      const now = ctx.deps.clock.now();
      const today = localDate(now, tz);
      const money = (c: number) => formatMoney(c, biz.currency);
      const labels = new Map((await listLineLabels(q, biz.id)).map((l) => [l.id, l.label]));
      const itemOf = (r: UnpaidItemRow) => {
        const dueDate = r.dueDate ?? localDate(r.dueAt, tz);
        return {
          kind: r.kind,
          bookingId: r.bookingId,
          invoiceId: r.invoiceId,
          amountCents: r.amountCents,
          amount: money(r.amountCents),
          what: r.description ?? (r.lineId ? (labels.get(r.lineId) ?? r.lineId) : ''),
          when: r.bookingId ? momentText(r.dueAt, tz) : null,
          dueDate,
          daysOverdue: Math.max(0, days(dueDate, today)),
        };
      };
      type Item = ReturnType<typeof itemOf>;
      const byClient = new Map<string, Item[]>();
      const loose: Item[] = [];
      for (const r of await listUnpaidItems(q, biz.id, now)) {
        const item = itemOf(r);
        if (!r.clientId) loose.push(item);
        else byClient.set(r.clientId, [...(byClient.get(r.clientId) ?? []), item]);
      }
      const owing = [...byClient.entries()]
        .map(([clientId, items]) => {
          items.sort((a, b) => a.dueDate.localeCompare(b.dueDate));
          return { clientId, items, oldest: items[0]!.dueDate };
        })
        .sort((a, b) => a.oldest.localeCompare(b.oldest) || a.clientId.localeCompare(b.clientId));
      const rest = after
        ? owing.filter((c) => c.oldest > after.due || (c.oldest === after.due && c.clientId > after.id))
        : owing;
      const page = rest.slice(0, input.limit);
      const clients = new Map(
        (
          await findClients(
            q,
            biz.id,
            page.map((c) => c.clientId),
          )
        ).map((c) => [c.id, c]),
      );
      const sum = (items: Item[], f: (i: Item) => boolean = () => true) =>
        items.filter(f).reduce((s, i) => s + i.amountCents, 0);
      const totalOwed = owing.reduce((s, c) => s + sum(c.items), 0);
      const last = page.at(-1);
      return {
        businessId: biz.id,
        currency: biz.currency,
        today,
        clients: page.map((c) => {
          const client = clients.get(c.clientId);
          const owed = sum(c.items);
          return {
            clientId: c.clientId,
            name: client?.name ?? c.clientId,
            phone: client?.phone ?? null,
            email: client?.email ?? null,
            owedCents: owed,
            owed: money(owed),
            cashDueCents: sum(c.items, (i) => i.kind === 'CASH_DUE'),
            unpaidLinksCents: sum(c.items, (i) => i.kind !== 'CASH_DUE'),
            oldestDueDate: c.oldest,
            daysOverdue: c.items[0]!.daysOverdue,
            items: c.items,
          };
        }),
        totalOwedCents: totalOwed,
        totalOwed: money(totalOwed),
        clientsOwing: owing.length,
        withoutClient: { items: loose.length, amountCents: sum(loose), amount: money(sum(loose)) },
        next:
          rest.length > input.limit && last ? unpaidCursor.of({ due: last.oldest, id: last.clientId }) : null,
      };
    });
  },
});
