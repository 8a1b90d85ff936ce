// Invoice links: an amount and a description a business asks of a client, paid by card
// through a pay link. The link is a payment with no bookings that names its invoice (migration 0027).
import { newId } from './ids.js';
import type { Queryable } from './sql.js';

export interface InvoiceRow {
  id: string;
  businessId: string;
  businessName: string;
  clientId: string | null;
  amountCents: number;
  currency: string;
  description: string;
  /** Local date YYYY-MM-DD, or null. */
  dueDate: string | null;
  status: 'OPEN' | 'PAID';
  expiresAt: Date;
  createdBy: string | null;
  createdAt: Date;
  paidAt: Date | null;
}

const INVOICE_COLUMNS = `i.id, i.business_id as "businessId", b.name as "businessName", i.client_id as "clientId",
  i.amount_cents as "amountCents", i.currency, i.description, i.due_date::text as "dueDate", i.status,
  i.expires_at as "expiresAt", i.created_by as "createdBy", i.created_at as "createdAt", i.paid_at as "paidAt"`;

export type NewInvoice = Omit<InvoiceRow, 'id' | 'businessName' | 'status' | 'createdAt' | 'paidAt'>;

/**
 * An invoice and its pay link (an OPEN payment for no bookings, for the invoice's amount, valid
 * until the invoice's expiry), in one statement.
 */
export async function insertInvoiceWithLink(
  sql: Queryable,
  invoice: NewInvoice,
  link: { gateway: string; linkTokenHash: string },
  now: Date,
): Promise<{ invoiceId: string; paymentId: string }> {
  const invoiceId = newId('inv');
  const paymentId = newId('pay');
  await sql`
    with invoice as (
      insert into invoices (id, business_id, client_id, amount_cents, currency, description, due_date, expires_at, created_by, created_at)
      values (${invoiceId}, ${invoice.businessId}, ${invoice.clientId}, ${invoice.amountCents}, ${invoice.currency},
        ${invoice.description}, ${invoice.dueDate}::date, ${invoice.expiresAt}, ${invoice.createdBy}, ${now})
      returning id
    )
    insert into payments (id, business_id, user_id, booking_ids, amount_cents, currency, gateway, link_token_hash, expires_at, invoice_id, created_at)
    select ${paymentId}, ${invoice.businessId}, ${invoice.createdBy}, '{}', ${invoice.amountCents}, ${invoice.currency},
      ${link.gateway}, ${link.linkTokenHash}, ${invoice.expiresAt}, invoice.id, ${now}
    from invoice`;
  return { invoiceId, paymentId };
}

/** The invoice a payment is the link of, or null for a booking's payment. */
export async function findInvoiceOfPayment(
  sql: Queryable,
  paymentId: string,
  options: { forUpdate?: boolean } = {},
): Promise<InvoiceRow | null> {
  const [row] = await sql<InvoiceRow[]>`
    select ${sql.unsafe(INVOICE_COLUMNS)} from invoices i join businesses b on b.id = i.business_id
    where i.id = (select invoice_id from payments where id = ${paymentId})
    ${options.forUpdate ? sql`for update of i` : sql``}`;
  return row ?? null;
}

/** One invoice of one business (another business's id finds nothing). */
export async function findInvoice(
  sql: Queryable,
  businessId: string,
  id: string,
): Promise<InvoiceRow | null> {
  const [row] = await sql<InvoiceRow[]>`
    select ${sql.unsafe(INVOICE_COLUMNS)} from invoices i join businesses b on b.id = i.business_id
    where i.business_id = ${businessId} and i.id = ${id}`;
  return row ?? null;
}

/** The invoice is paid (its link's payment was confirmed); false when it already was. */
export async function markInvoicePaid(sql: Queryable, id: string, now: Date): Promise<boolean> {
  const rows =
    await sql`update invoices set status = 'PAID', paid_at = ${now} where id = ${id} and status = 'OPEN' returning id`;
  return rows.length === 1;
}

/** Who a booking of the business is for: its client's name, phone and email (null when none is linked). */
export async function findBookingClient(
  sql: Queryable,
  businessId: string,
  bookingId: string,
): Promise<{ clientId: string; name: string; phone: string | null; email: string | null } | null> {
  const [row] = await sql<{ clientId: string; name: string; phone: string | null; email: string | null }[]>`
    select c.id as "clientId", c.name, c.phone, c.email
    from bookings b join business_clients c on c.business_id = b.business_id and c.id = b.business_client_id
    where b.business_id = ${businessId} and b.id = ${bookingId}`;
  return row ?? null;
}
