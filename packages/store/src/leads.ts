import { newId } from './ids.js';
import type { Queryable as Sql } from './sql.js';

export interface NewLead {
  businessId: string;
  /** The operation that could not serve the request, e.g. `checkCoverage`. */
  operation: string;
  /** Why it could not be served, e.g. `NO_COVERAGE`. */
  reason: string;
  /** What was asked, as the caller sent it. */
  query: Record<string, unknown>;
  /** Where we understood the place to be, if anywhere. */
  place?: Record<string, unknown> | null;
  clientName?: string | null;
  /**
   * Who asked, about which place, on which local day: a lead with the same three already made
   * counts one more ask instead of making another (null: every ask is its own lead).
   */
  once?: { caller: string; placeKey: string; day: string } | null;
}

export interface LeadRow extends Required<Omit<NewLead, 'once'>> {
  id: string;
  status: string;
  /** How many times the caller asked about the place that day (1 for leads without a key). */
  asks: number;
  createdAt: Date;
  lastAskedAt: Date;
  note: string | null;
  closedAt: Date | null;
}

const LEAD_COLUMNS = `id, business_id as "businessId", operation, reason, query, place, client_name as "clientName",
  status, asks, created_at as "createdAt", coalesce(last_asked_at, created_at) as "lastAskedAt", note,
  closed_at as "closedAt"`;

/** Records a lead, or one more ask on the lead the same caller made about the same place that day; its id. */
export async function insertLead(sql: Sql, lead: NewLead, now: Date): Promise<string> {
  const once = lead.once ?? null;
  const [row] = await sql<{ id: string }[]>`
    insert into leads (id, business_id, operation, reason, query, place, client_name, created_at, last_asked_at, caller, place_key, day)
    values (${newId('lead')}, ${lead.businessId}, ${lead.operation}, ${lead.reason}, ${sql.json(lead.query as never)},
            ${lead.place ? sql.json(lead.place as never) : null}, ${lead.clientName ?? null}, ${now}, ${now},
            ${once?.caller ?? null}, ${once?.placeKey ?? null}, ${once?.day ?? null})
    on conflict (business_id, caller, place_key, day) where place_key is not null
    do update set asks = leads.asks + 1, last_asked_at = excluded.last_asked_at
    returning id`;
  return row!.id;
}

/** A business's leads, newest first; `open` only those not closed. */
export async function listLeads(
  sql: Sql,
  businessId: string,
  limit = 50,
  options: { open?: boolean } = {},
): Promise<LeadRow[]> {
  return sql<LeadRow[]>`
    select ${sql.unsafe(LEAD_COLUMNS)}
    from leads where business_id = ${businessId} ${options.open ? sql`and status <> 'CLOSED'` : sql``}
    order by created_at desc, id limit ${limit}`;
}

/** Closes a lead with the operator's note; null when there is no such lead. */
export async function closeLead(
  sql: Sql,
  id: string,
  note: string | null,
  now: Date,
): Promise<LeadRow | null> {
  const [row] = await sql<LeadRow[]>`
    update leads set status = 'CLOSED', note = ${note}, closed_at = ${now} where id = ${id}
    returning ${sql.unsafe(LEAD_COLUMNS)}`;
  return row ?? null;
}

export async function countLeads(sql: Sql): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from leads`;
  return row?.n ?? 0;
}
