// Addresses: a person's addresses.
import { newId } from './ids.js';
import type { Queryable as Sql } from './sql.js';

export interface AddressRow {
  id: string;
  label: string;
  line1: string;
  suburb: string | null;
  postalCode: string | null;
  city: string | null;
  country: string | null;
  lat: number | null;
  lng: number | null;
  notes: string | null;
}

export const ADDRESS_COLUMNS = `id, label, line1, suburb, postal_code as "postalCode", city, country, lat, lng, notes`;

export async function listAddresses(sql: Sql, userId: string): Promise<AddressRow[]> {
  return sql<AddressRow[]>`
    select ${sql.unsafe(ADDRESS_COLUMNS)}
    from addresses where user_id = ${userId} order by created_at, id`;
}

export async function insertAddress(
  sql: Sql,
  userId: string,
  a: Omit<AddressRow, 'id'>,
  clientName: string | null,
): Promise<AddressRow> {
  const id = newId('adr');
  await sql`
    insert into addresses (id, user_id, label, line1, suburb, postal_code, city, country, lat, lng, notes, client_name)
    values (${id}, ${userId}, ${a.label}, ${a.line1}, ${a.suburb}, ${a.postalCode}, ${a.city}, ${a.country}, ${a.lat}, ${a.lng}, ${a.notes}, ${clientName})`;
  return { id, ...a };
}
