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
}

export interface LeadRow extends Required<NewLead> {
  id: string;
  status: string;
  createdAt: Date;
}

export async function insertLead(sql: Sql, lead: NewLead, now: Date): Promise<string> {
  const id = newId('lead');
  await sql`
    insert into leads (id, business_id, operation, reason, query, place, client_name, created_at)
    values (${id}, ${lead.businessId}, ${lead.operation}, ${lead.reason}, ${sql.json(lead.query as never)},
            ${lead.place ? sql.json(lead.place as never) : null}, ${lead.clientName ?? null}, ${now})`;
  return id;
}

export async function listLeads(sql: Sql, businessId: string, limit = 50): Promise<LeadRow[]> {
  return sql<LeadRow[]>`
    select id, business_id as "businessId", operation, reason, query, place, client_name as "clientName",
           status, created_at as "createdAt"
    from leads where business_id = ${businessId} order by created_at desc, id limit ${limit}`;
}

export async function countLeads(sql: Sql): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from leads`;
  return row?.n ?? 0;
}
