// Series: repeating bookings (booking_series) and how far each is booked.
import { newId } from './ids.js';
import type { Queryable } from './sql.js';

export interface SeriesRow {
  id: string;
  userId: string;
  businessId: string;
  template: Record<string, unknown>;
  bookedUntil: Date;
  cancelledAt: Date | null;
}

export async function insertSeries(
  sql: Queryable,
  s: Omit<SeriesRow, 'id' | 'cancelledAt'>,
): Promise<string> {
  const id = newId('ser');
  await sql`insert into booking_series (id, user_id, business_id, template, booked_until)
    values (${id}, ${s.userId}, ${s.businessId}, ${sql.json(s.template as never)}, ${s.bookedUntil})`;
  return id;
}

export async function listOpenSeries(sql: Queryable, before: Date): Promise<SeriesRow[]> {
  return sql<SeriesRow[]>`
    select id, user_id as "userId", business_id as "businessId", template, booked_until as "bookedUntil", cancelled_at as "cancelledAt"
    from booking_series where cancelled_at is null and booked_until < ${before} order by id`;
}

export async function lockSeries(sql: Queryable, id: string): Promise<SeriesRow | null> {
  const [row] = await sql<SeriesRow[]>`
    select id, user_id as "userId", business_id as "businessId", template, booked_until as "bookedUntil", cancelled_at as "cancelledAt"
    from booking_series where id = ${id} for update`;
  return row ?? null;
}

export async function setSeriesBookedUntil(sql: Queryable, id: string, until: Date): Promise<void> {
  await sql`update booking_series set booked_until = greatest(booked_until, ${until}) where id = ${id}`;
}

export async function cancelSeries(sql: Queryable, id: string, now: Date): Promise<void> {
  await sql`update booking_series set cancelled_at = coalesce(cancelled_at, ${now}) where id = ${id}`;
}
