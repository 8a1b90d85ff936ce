// What the race test shares: crowds of clients fired at once with a bound on requests in
// flight, a tally of their answers, and the invariants read from the database itself, each query
// answering the rows that break it (none when it holds), so a failure shows its evidence.
import { expect } from 'vitest';
import type { TestServer } from './harness.js';

type Json = any;

/** One client's answer: its HTTP status (MCP refusals mapped to theirs) and body. */
export interface RaceAnswer {
  status: number;
  body: Json;
}

/** What one contested thing saw: attempts, successes, refusals by code, and time taken. */
export class Tally {
  attempts = 0;
  successes = 0;
  refusals: Record<string, number> = {};
  /** Answers of 5xx and requests that got no answer at all: never expected of a race. */
  failures: string[] = [];
  private readonly started = Date.now();

  constructor(readonly race: string) {}

  /** Counts an answer: `success` when it is one; otherwise its error code (or status) is a refusal. */
  add(answer: RaceAnswer, success: boolean): void {
    this.attempts++;
    if (success) {
      this.successes++;
      return;
    }
    const code = answer.body?.error?.code ?? `HTTP_${answer.status}`;
    this.refusals[code] = (this.refusals[code] ?? 0) + 1;
    if (answer.status >= 500 || answer.status === 0)
      this.failures.push(`${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  }

  /** Asserts no attempt failed (5xx or no answer) and every refusal was `allowed` (none when omitted). */
  expectOnlyRefused(allowed?: string): void {
    expect(this.failures).toEqual([]);
    expect(Object.keys(this.refusals).filter((c) => c !== allowed)).toEqual([]);
  }

  /** The figures as one JSON line, printed for docs/reliability.md. */
  report(violations: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
    const figures = {
      race: this.race,
      attempts: this.attempts,
      successes: this.successes,
      refusals: this.refusals,
      failures: this.failures.length,
      violations,
      ...extra,
      ms: Date.now() - this.started,
    };
    console.log(JSON.stringify(figures));
    return figures;
  }
}

/**
 * Runs every task, at most `inFlight` at a time; a task that throws (no answer: a reset
 * connection) answers status 0 with the error, so one lost request never hides the others.
 */
export async function crowd(tasks: (() => Promise<RaceAnswer>)[], inFlight: number): Promise<RaceAnswer[]> {
  const answers: RaceAnswer[] = new Array(tasks.length);
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const i = next++;
      try {
        answers[i] = await tasks[i]!();
      } catch (err) {
        answers[i] = { status: 0, body: { error: { code: 'NO_ANSWER', message: String(err) } } };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, tasks.length) }, lane));
  return answers;
}

/** Splits `total` attempts into rounds of `size` (the last one full too): the round count. */
export function roundsOf(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/** The local day `n` days after `day` (YYYY-MM-DD). */
export function dayAfter(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Live bookings of one resource whose blocked times (time plus travel buffer) overlap, other than
 * places of one group walk: a double booking. The exclusion constraint should make this empty.
 */
export function doubleBookings(server: TestServer) {
  return server.db.sql<Json[]>`
    select a.id as a, b.id as b, a.business_id, a.resource_id, a.starts_at as a_start, a.ends_at as a_end,
      b.starts_at as b_start, b.ends_at as b_end
    from bookings a join bookings b
      on a.business_id = b.business_id and a.resource_id = b.resource_id and a.id < b.id
     and a.blocked && b.blocked and coalesce(a.share_key, a.id) <> coalesce(b.share_key, b.id)
    where a.status in ('PENDING', 'ACCEPTED') and b.status in ('PENDING', 'ACCEPTED')`;
}

/** Live group walks holding more dogs than their service's group size. */
export function overfullGroups(server: TestServer) {
  return server.db.sql<Json[]>`
    select b.business_id, b.resource_id, b.share_key, sum(b.group_size)::int as dogs, s.group_size as capacity
    from bookings b join services s on s.business_id = b.business_id and s.id = b.group_key
    where b.status in ('PENDING', 'ACCEPTED') and b.group_key is not null
    group by b.business_id, b.resource_id, b.share_key, s.group_size
    having sum(b.group_size) > s.group_size`;
}

/** Bookings and invoices with more than one PAID payment, or paid with no PAID payment. */
export function doublePaid(server: TestServer) {
  return server.db.sql<Json[]>`
    select 'booking' as kind, bid as id, count(*)::int as paid
    from payments p, unnest(p.booking_ids) as bid
    where p.status = 'PAID' group by bid having count(*) > 1
    union all
    select 'invoice', invoice_id, count(*)::int from payments
    where status = 'PAID' and invoice_id is not null group by invoice_id having count(*) > 1
    union all
    select 'invoice unpaid by a paid link', i.id, 0 from invoices i
    where i.status = 'PAID' and not exists (select 1 from payments p where p.invoice_id = i.id and p.status = 'PAID')`;
}

/**
 * Variants whose stock and the units of live orders do not add up to what they started with plus
 * what the test added (`ledger`: variant id → that sum), or whose stock went below zero.
 */
export async function stockOffLedger(server: TestServer, ledger: Map<string, number>) {
  const rows = await server.db.sql<{ id: string; stock: number; ordered: number }[]>`
    select v.id, v.stock, coalesce((
      select sum(l.qty) from order_lines l join orders o on o.id = l.order_id
      where l.variant_id = v.id and o.status not in ('CANCELLED', 'EXPIRED')), 0)::int as ordered
    from product_variants v where v.id = any(${[...ledger.keys()]})`;
  return rows
    .filter((r) => r.stock < 0 || r.stock + r.ordered !== ledger.get(r.id))
    .map((r) => ({ ...r, startedWith: ledger.get(r.id) }));
}
