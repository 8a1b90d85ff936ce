// Clients of a business (issue 15): the people it works for, with or without an account, and the
// notes it keeps on them and their pets. A booking names its client (bookings.business_client_id),
// linked by the database when the booking is written for an account (migration 0023).
import { newId } from './ids.js';
import type { Queryable } from './sql.js';

export interface ClientRow {
  businessId: string;
  id: string;
  userId: string | null;
  name: string;
  phone: string | null;
  email: string | null;
  createdAt: Date;
}

export interface ClientNoteRow {
  id: string;
  businessId: string;
  clientId: string;
  petId: string | null;
  text: string;
  authorUserId: string | null;
  authorName: string;
  createdAt: Date;
}

const CLIENT_COLUMNS = `business_id as "businessId", id, user_id as "userId", name, phone, email, created_at as "createdAt"`;
const NOTE_COLUMNS = `id, business_id as "businessId", client_id as "clientId", pet_id as "petId", text,
  author_user_id as "authorUserId", author_name as "authorName", created_at as "createdAt"`;

/** The longest note a business may keep. */
export const MAX_CLIENT_NOTE = 1000;

/** A client the business knows without an account (a phone or walk-in client). */
export async function insertClient(
  sql: Queryable,
  c: Omit<ClientRow, 'id' | 'createdAt' | 'userId'> & { id?: string; userId?: string | null },
  now: Date,
): Promise<ClientRow> {
  const [row] = await sql<ClientRow[]>`
    insert into business_clients (business_id, id, user_id, name, phone, email, created_at)
    values (${c.businessId}, ${c.id ?? newId('cli')}, ${c.userId ?? null}, ${c.name}, ${c.phone}, ${c.email}, ${now})
    returning ${sql.unsafe(CLIENT_COLUMNS)}`;
  return row!;
}

/** The clients of these ids at one business (another business's ids find nothing). */
export async function findClients(sql: Queryable, businessId: string, ids: string[]): Promise<ClientRow[]> {
  if (!ids.length) return [];
  return sql<ClientRow[]>`
    select ${sql.unsafe(CLIENT_COLUMNS)} from business_clients where business_id = ${businessId} and id = any(${ids}::text[])`;
}

export async function insertClientNote(
  sql: Queryable,
  n: Omit<ClientNoteRow, 'id' | 'createdAt'> & { id?: string },
  now: Date,
): Promise<ClientNoteRow> {
  const [row] = await sql<ClientNoteRow[]>`
    insert into client_notes (id, business_id, client_id, pet_id, text, author_user_id, author_name, created_at)
    values (${n.id ?? newId('note')}, ${n.businessId}, ${n.clientId}, ${n.petId}, ${n.text}, ${n.authorUserId}, ${n.authorName}, ${now})
    returning ${sql.unsafe(NOTE_COLUMNS)}`;
  return row!;
}

/** Notes on these clients at one business, the newest first. */
export async function listClientNotes(
  sql: Queryable,
  businessId: string,
  clientIds: string[],
): Promise<ClientNoteRow[]> {
  if (!clientIds.length) return [];
  return sql<ClientNoteRow[]>`
    select ${sql.unsafe(NOTE_COLUMNS)} from client_notes
    where business_id = ${businessId} and client_id = any(${clientIds}::text[])
    order by created_at desc, id`;
}
