/**
 * sendPaymentLink / send_payment_link and createInvoiceLink / create_invoice_link: a
 * booking's pay link for the client, and a pay link with a QR code for any amount. Both are card
 * payments through the service's gateway (the sandbox by default, or PayFast), which takes money
 * for businesses in South Africa only.
 */
import { PAY_LINK_HOURS } from '@nogpets/booking-rules';
import { formatMoney, minorUnits } from '@nogpets/pricing-tiers';
import {
  type BookingRow,
  type BusinessRow,
  findBooking,
  findBookingClient,
  findClients,
  insertInvoiceWithLink,
  type Queryable,
} from '@nogpets/store';
import QRCode from 'qrcode';
import { z } from 'zod';
import {
  addDays,
  auditChange,
  confirmStep,
  DAY_MS,
  defineOperation,
  hashSecret,
  localDate,
  momentText,
  newSecret,
  type OperationContext,
  ServiceError,
  whenText,
} from '../core/index.js';
import { bookingParts, freshPayLink, payableBooking, payUrlOf, toBooking } from '../bookings/index.js';
import { payFastServes } from './payfast.js';
import { DATE } from '../schedule/index.js';
import { inBusiness, RUN_ACCESS_ERRORS, RunBusinessIdShape } from '../staff/index.js';

/** How long an invoice's pay link works: 30 days. */
export const INVOICE_LINK_DAYS = 30;
/** An invoice asks for at least one whole unit of the currency and at most 100 000 (R1 to R100 000). */
export const INVOICE_MIN_UNITS = 1;
export const INVOICE_MAX_UNITS = 100_000;

const CONFIRM = z.boolean().optional().meta({
  description: 'true only after the person agreed to the summary; left out or false: 409 CONFIRM_REQUIRED.',
});

const MONEY_ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;

const MONEY_ERRORS = [
  ...RUN_ACCESS_ERRORS,
  {
    status: 409,
    description:
      '`CONFIRM_REQUIRED` (show `details.summary`, then send the same input with `confirm: true`), ' +
      '`NOTHING_TO_PAY` (paid, cash or no longer active) or `NOT_AVAILABLE_IN_COUNTRY` (card payments through ' +
      'NogPets are for businesses in South Africa).',
  },
];

/**
 * Card money goes through the service's gateway, which pays businesses in South Africa only (the
 * one function that says where PayFast serves): elsewhere a pay link is refused, saying so.
 */
async function cardMoneyHere(ctx: OperationContext, business: BusinessRow): Promise<void> {
  if (payFastServes(business.country)) return;
  const where = (await ctx.deps.geo()).countryName(business.country);
  throw new ServiceError(
    'NOT_AVAILABLE_IN_COUNTRY',
    `${business.name} is in ${where}: pay links and invoices through NogPets take card payments for businesses in ` +
      'South Africa only. Ask the client to pay the business directly.',
    { businessId: business.id, country: business.country },
  );
}

/** A booking of this business, locked; another business's (or no) booking is 404. */
async function businessBooking(q: Queryable, businessId: string, bookingId: string): Promise<BookingRow> {
  const row = await findBooking(q, bookingId, { forUpdate: true });
  if (!row || row.businessId !== businessId)
    throw new ServiceError('NOT_FOUND', `No booking ${bookingId} at this business.`, { bookingId });
  return row;
}

const firstName = (name: string | null | undefined) => (name ?? '').trim().split(/\s+/)[0] ?? '';

export const sendPaymentLink = defineOperation({
  operationId: 'sendPaymentLink',
  confirmKind: 'booking',
  toolName: 'send_payment_link',
  title: "Get a booking's pay link for the client",
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/bookings/:bookingId/payment-link',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'A fresh pay link (valid 48 hours) for an unpaid card booking of the business, the same link the client would get ' +
    'from pay_booking: earlier links of this booking alone stop working. NogPets does not send it: give the client ' +
    '`message` (or `payUrl`) by SMS, WhatsApp or email. First tell the person what will happen; send `confirm: true` ' +
    'only after they agree (otherwise 409 CONFIRM_REQUIRED with the summary). Paid or cash bookings answer 409 ' +
    'NOTHING_TO_PAY. Owners and managers only; businesses in South Africa only (NOT_AVAILABLE_IN_COUNTRY).',
  input: z
    .object({
      ...RunBusinessIdShape,
      bookingId: z
        .string()
        .min(1)
        .max(128)
        .meta({ description: 'From get_day_plan or list_business_bookings.' }),
      confirm: CONFIRM,
    })
    .strict()
    .meta({ example: { bookingId: 'bkg_ftp8sjc07qhmzr6hv5kv', confirm: true } }),
  output: z
    .object({
      bookingId: z.string(),
      amountCents: z.int().meta({ description: "In the currency's minor units." }),
      currency: z.string(),
      amount: z.string().meta({ description: 'The amount in words, e.g. R450.' }),
      when: z.string(),
      client: z
        .object({
          clientId: z.string(),
          name: z.string(),
          phone: z.string().nullable(),
          email: z.string().nullable(),
        })
        .nullable(),
      payUrl: z.url(),
      expiresAt: z.iso.datetime(),
      message: z.string().meta({ description: 'A message to pass on to the client, with the link.' }),
    })
    .meta({
      id: 'BookingPaymentLink',
      description: 'A fresh 48-hour pay link for an unpaid card booking, with a message for the client.',
    }),
  successStatus: 200,
  errors: MONEY_ERRORS,
  events: [],
  annotations: MONEY_ANNOTATIONS,
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'change', async ({ q, access }) => {
      const biz = access.business;
      await cardMoneyHere(ctx, biz);
      // pay_booking's rule and link: NOTHING_TO_PAY comes before asking for confirmation.
      const row = await payableBooking(ctx, q, input.bookingId, (id) => businessBooking(q, biz.id, id));
      const booking = toBooking(row);
      const client = await findBookingClient(q, biz.id, row.id);
      const when = whenText(row.start, row.end, biz.timezone);
      const who = client?.name ? `${client.name}'s` : 'the';
      confirmStep(
        ctx,
        input.confirm,
        {
          kind: 'booking',
          what: `Make a new card pay link for ${who} booking`,
          ...bookingParts([row], biz),
          money: `by card: the client pays through the new link, valid ${PAY_LINK_HOURS} hours`,
          after: 'Earlier links for this booking stop working. NogPets does not send it: you pass it on.',
        },
        {
          details: {
            bookingId: row.id,
            totalCents: row.totalCents,
            total: booking.total,
            paymentMethod: 'CARD',
          },
        },
      );
      const { link, currency, others } = await freshPayLink(ctx, q, row);
      const amount = formatMoney(link.amountCents, currency);
      const hello = firstName(client?.name);
      return {
        bookingId: row.id,
        amountCents: link.amountCents,
        currency,
        amount,
        when,
        client,
        payUrl: link.payUrl,
        expiresAt: link.expiresAt.toISOString(),
        message:
          `Hi${hello ? ` ${hello}` : ''}, here is the link to pay ${amount} by card for your ${booking.what} with ` +
          `${biz.name} (${when}): ${link.payUrl} . It works until ${momentText(link.expiresAt, biz.timezone)}.${others}`,
      };
    });
  },
});

/** The QR code of a link: a PNG (data: URL) and an SVG, both of the link exactly. */
async function qrOf(url: string): Promise<{ png: string; svg: string }> {
  const options = { errorCorrectionLevel: 'M' as const, margin: 2 };
  const [png, svg] = await Promise.all([
    QRCode.toDataURL(url, { ...options, type: 'image/png', width: 320 }),
    QRCode.toString(url, { ...options, type: 'svg' }),
  ]);
  return { png, svg };
}

export const createInvoiceLink = defineOperation({
  operationId: 'createInvoiceLink',
  confirmKind: 'invoice',
  toolName: 'create_invoice_link',
  title: 'Create an invoice pay link with a QR code',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/invoices',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'A card pay link for any amount and description (a product, a tip, an extra service), optionally for a client ' +
    'of the business and with a due date, plus a QR code of the link (PNG as a data: URL, and SVG) to show or print. ' +
    `The link works for ${INVOICE_LINK_DAYS} days; once paid the invoice is PAID. \`amountCents\` is in the minor units ` +
    `of the business's currency (cents; whole units for a currency without them), ${INVOICE_MIN_UNITS} to ` +
    `${INVOICE_MAX_UNITS.toLocaleString('en')} whole units (R1 to R100,000). NogPets does not send it: give the client ` +
    '`message`, `payUrl` or the QR code. First tell the person what will be made; send `confirm: true` only after ' +
    'they agree (otherwise 409 CONFIRM_REQUIRED with the summary). Owners and managers only; businesses in South ' +
    'Africa only (NOT_AVAILABLE_IN_COUNTRY).',
  input: z
    .object({
      ...RunBusinessIdShape,
      amountCents: z
        .int()
        .min(1)
        .max(1_000_000_000)
        .meta({ description: "The amount in the currency's minor units (R450 is 45000).", example: 45000 }),
      description: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .meta({ description: 'What it is for, as the client sees it (1 to 200 characters).' }),
      clientId: z
        .string()
        .min(1)
        .max(128)
        .optional()
        .meta({ description: 'A client of the business (list_clients), when it is for one.' }),
      dueDate: DATE.optional().meta({
        description: `YYYY-MM-DD in the business's zone, from today to the link's last day (${INVOICE_LINK_DAYS} days).`,
      }),
      confirm: CONFIRM,
    })
    .strict()
    .meta({
      example: {
        amountCents: 18000,
        description: 'Flea shampoo, 500 ml',
        clientId: 'cli_demo_bp_anele',
        confirm: true,
      },
    }),
  output: z
    .object({
      invoiceId: z.string(),
      businessId: z.string(),
      status: z.enum(['OPEN', 'PAID']),
      amountCents: z.int(),
      currency: z.string(),
      amount: z.string().meta({ description: 'The amount in words, e.g. R180.' }),
      description: z.string(),
      clientId: z.string().nullable(),
      dueDate: z.string().nullable(),
      payUrl: z.url(),
      expiresAt: z.iso.datetime(),
      qr: z
        .object({
          png: z.string().meta({ description: 'data:image/png;base64,… of the QR code of `payUrl`.' }),
          svg: z.string().meta({ description: 'The same QR code as an SVG document.' }),
        })
        .meta({ description: 'The QR code of `payUrl`: scanning it opens the pay page.' }),
      message: z.string().meta({ description: 'A message to pass on to the client, with the link.' }),
    })
    .meta({
      id: 'InvoiceLink',
      description: 'An invoice: its pay link, valid 30 days, and the QR code of the link.',
    }),
  successStatus: 201,
  errors: MONEY_ERRORS,
  events: [],
  annotations: MONEY_ANNOTATIONS,
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    return inBusiness(ctx, input.businessId, 'change', async ({ q, access }) => {
      const biz = access.business;
      await cardMoneyHere(ctx, biz);
      const unit = 10 ** minorUnits(biz.currency);
      const [min, max] = [INVOICE_MIN_UNITS * unit, INVOICE_MAX_UNITS * unit];
      const money = (cents: number) => formatMoney(cents, biz.currency);
      if (input.amountCents < min || input.amountCents > max)
        throw new ServiceError(
          'BAD_REQUEST',
          `amountCents: from ${min} to ${max} (${money(min)} to ${money(max)}), in the minor units of ${biz.currency}.`,
          { fields: [{ field: 'amountCents', message: `from ${min} to ${max}` }] },
        );
      const today = localDate(now, biz.timezone);
      const expiresAt = new Date(now.getTime() + INVOICE_LINK_DAYS * DAY_MS);
      const lastDay = localDate(expiresAt, biz.timezone);
      if (input.dueDate && (input.dueDate < today || input.dueDate > lastDay))
        throw new ServiceError(
          'BAD_REQUEST',
          `dueDate: from today (${today}) to ${lastDay}, the last day the link works.`,
          { fields: [{ field: 'dueDate', message: `from ${today} to ${lastDay}` }] },
        );
      const [client] = input.clientId ? await findClients(q, biz.id, [input.clientId]) : [];
      if (input.clientId && !client)
        throw new ServiceError('NOT_FOUND', `No client ${input.clientId} at this business.`, {
          clientId: input.clientId,
        });
      const amount = money(input.amountCents);
      confirmStep(
        ctx,
        input.confirm,
        {
          kind: 'invoice',
          what: `Make a card pay link for "${input.description}"${client ? ` for ${client.name}` : ''}`,
          when: null,
          place: null,
          pets: null,
          amount: { cents: input.amountCents, currency: biz.currency },
          money:
            `paid by card through the link${input.dueDate ? `, due ${input.dueDate}` : ''}, valid ${INVOICE_LINK_DAYS} ` +
            `days (until ${addDays(today, INVOICE_LINK_DAYS)})`,
          after: 'It comes with a QR code. NogPets does not send it: you pass it on.',
        },
        { details: { totalCents: input.amountCents, total: amount, paymentMethod: 'CARD' } },
      );
      const token = newSecret('npl');
      const { invoiceId, paymentId } = await insertInvoiceWithLink(
        q,
        {
          businessId: biz.id,
          clientId: client?.id ?? null,
          amountCents: input.amountCents,
          currency: biz.currency,
          description: input.description,
          dueDate: input.dueDate ?? null,
          expiresAt,
          createdBy: ctx.auth!.userId,
        },
        { gateway: ctx.deps.payments.gateway.name, linkTokenHash: hashSecret(token) },
        now,
      );
      await auditChange(ctx, q, 'invoice.create', invoiceId, {
        businessId: biz.id,
        paymentId,
        amountCents: input.amountCents,
        currency: biz.currency,
        clientId: client?.id ?? null,
      });
      const payUrl = payUrlOf(ctx, token);
      const hello = firstName(client?.name);
      return {
        invoiceId,
        businessId: biz.id,
        status: 'OPEN' as const,
        amountCents: input.amountCents,
        currency: biz.currency,
        amount,
        description: input.description,
        clientId: client?.id ?? null,
        dueDate: input.dueDate ?? null,
        payUrl,
        expiresAt: expiresAt.toISOString(),
        qr: await qrOf(payUrl),
        message:
          `Hi${hello ? ` ${hello}` : ''}, ${biz.name} asks ${amount} for ${input.description}` +
          `${input.dueDate ? `, due ${input.dueDate}` : ''}. Pay by card here: ${payUrl} . The link works until ` +
          `${momentText(expiresAt, biz.timezone)}.`,
      };
    });
  },
});
