// Clients of a business: the people it works for, with or without an account, and the
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
  /** What the note is about (migration 0026): TEMPERAMENT, HEALTH, ACCESS, VET, PREFERENCE or OTHER. */
  kind: ClientNoteKind;
  text: string;
  authorUserId: string | null;
  authorName: string;
  createdAt: Date;
}

const CLIENT_COLUMNS = `business_id as "businessId", id, user_id as "userId", name, phone, email, created_at as "createdAt"`;
export const CLIENT_NOTE_KINDS = ['TEMPERAMENT', 'HEALTH', 'ACCESS', 'VET', 'PREFERENCE', 'OTHER'] as const;
export type ClientNoteKind = (typeof CLIENT_NOTE_KINDS)[number];

const NOTE_COLUMNS = `id, business_id as "businessId", client_id as "clientId", pet_id as "petId", kind, text,
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
  n: Omit<ClientNoteRow, 'id' | 'createdAt' | 'kind'> & { id?: string; kind?: ClientNoteKind },
  now: Date,
): Promise<ClientNoteRow> {
  const [row] = await sql<ClientNoteRow[]>`
    insert into client_notes (id, business_id, client_id, pet_id, kind, text, author_user_id, author_name, created_at)
    values (${n.id ?? newId('note')}, ${n.businessId}, ${n.clientId}, ${n.petId}, ${n.kind ?? 'OTHER'}, ${n.text}, ${n.authorUserId}, ${n.authorName}, ${now})
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

// What a business knows of its clients (listClients, getClient): only what came with its own
// bookings. Pets and addresses are those named in this business's bookings of the client (saved
// ones of the client's account, or given by value for a client without one), never the account's
// others, and never another business's bookings or notes.

/** The pets array of a booking's details, as rows (a booking without one has none). */
const DETAIL_PETS = `jsonb_array_elements(case when jsonb_typeof(b.details->'pets') = 'array' then b.details->'pets' else '[]'::jsonb end)`;

/** `%`, `_` and `\` taken as themselves in a LIKE pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface ClientSearch {
  /** Part of a name, email, phone number (digits, any spacing, 0 or +27 alike) or pet name. */
  q?: string | undefined;
  /** Keyset: clients after this (lower(name), id). */
  after?: { name: string; id: string } | undefined;
  limit: number;
}

/** A business's clients matching `q` (all without one), by name then id; `limit` rows after the cursor. */
export async function searchClients(
  sql: Queryable,
  businessId: string,
  s: ClientSearch,
): Promise<(ClientRow & { sortName: string })[]> {
  const q = s.q?.trim();
  const pattern = q ? `%${likeLiteral(q)}%` : null;
  // A phone number is matched on its digits: "082 555 0101" finds "+27 82 555 0101" (a leading 0 is the trunk prefix).
  const digits = (q ?? '').replace(/\D/g, '').replace(/^0+/, '');
  const phone = digits.length >= 3 ? `%${digits}%` : null;
  return sql<(ClientRow & { sortName: string })[]>`
    select ${sql.unsafe(CLIENT_COLUMNS)}, lower(name) as "sortName"
    from business_clients c
    where c.business_id = ${businessId}
      ${
        pattern
          ? sql`and (c.name ilike ${pattern} or c.email ilike ${pattern}
        ${phone ? sql`or regexp_replace(coalesce(c.phone, ''), '[^0-9]', '', 'g') like ${phone}` : sql``}
        or exists (
          select 1 from bookings b cross join lateral ${sql.unsafe(DETAIL_PETS)} p
          left join pets s on s.id = p->>'petId' and s.user_id = c.user_id
          where b.business_id = c.business_id and b.business_client_id = c.id
            and coalesce(s.name, p->>'name') ilike ${pattern}))`
          : sql``
      }
      ${s.after ? sql`and (lower(c.name), c.id) > (${s.after.name}, ${s.after.id})` : sql``}
    order by lower(c.name), c.id
    limit ${s.limit}`;
}

/** A booking named in a client's summary. */
export interface ClientBookingRef {
  id: string;
  start: Date;
  end: Date;
  status: 'PENDING' | 'ACCEPTED' | 'CANCELLED' | 'EXPIRED' | 'DONE';
}

export interface ClientSummaryRow {
  clientId: string;
  /** Names of the pets in the client's bookings with the business (saved pets by their current name). */
  petNames: string[];
  /** Every booking of the client with the business, any status. */
  bookings: number;
  /** The latest live or done booking that has begun. */
  last: ClientBookingRef | null;
  /** The first live booking still to begin. */
  next: ClientBookingRef | null;
  /** Unpaid, in the business's minor units: cash due (CASH_DUE) and card payments awaited (CARD, PENDING), of live and done bookings. */
  cashDueCents: number;
  cashDueCount: number;
  unpaidCardCents: number;
  unpaidCardCount: number;
  /** Of the unpaid, what belongs to bookings that have already begun. */
  pastUnpaidCents: number;
}

/**
 * The balance rule, as SQL conditions on a booking `b`: what a client has not paid yet is
 * cash due (CASH_DUE) and card payments awaited (CARD, PENDING) of live and done bookings; cancelled
 * and lapsed ones owe nothing. A client's balance and the list of unpaid clients both read these.
 */
export const UNPAID_CASH = `b.status in ('PENDING', 'ACCEPTED', 'DONE') and b.payment_status = 'CASH_DUE'`;
export const UNPAID_CARD = `b.status in ('PENDING', 'ACCEPTED', 'DONE') and b.payment_method = 'CARD' and b.payment_status = 'PENDING'`;

/** Pets, last and next booking, and what is unpaid, for these clients of one business. */
export async function clientSummaries(
  sql: Queryable,
  businessId: string,
  clientIds: string[],
  now: Date,
): Promise<Map<string, ClientSummaryRow>> {
  if (!clientIds.length) return new Map();
  const rows = await sql<
    (Omit<ClientSummaryRow, 'last' | 'next'> & {
      last: (Omit<ClientBookingRef, 'start' | 'end'> & { start: string; end: string }) | null;
      next: (Omit<ClientBookingRef, 'start' | 'end'> & { start: string; end: string }) | null;
    })[]
  >`
    select c.id as "clientId",
      coalesce((
        select array_agg(distinct n order by n) from (
          select coalesce(s.name, p->>'name') as n
          from bookings b cross join lateral ${sql.unsafe(DETAIL_PETS)} p
          left join pets s on s.id = p->>'petId' and s.user_id = c.user_id
          where b.business_id = c.business_id and b.business_client_id = c.id) names
        where n is not null and n <> ''), '{}') as "petNames",
      (select json_build_object('id', b.id, 'start', b.starts_at, 'end', b.ends_at, 'status', b.status)
        from bookings b where b.business_id = c.business_id and b.business_client_id = c.id
          and b.starts_at < ${now} and b.status in ('PENDING', 'ACCEPTED', 'DONE')
        order by b.starts_at desc, b.id desc limit 1) as last,
      (select json_build_object('id', b.id, 'start', b.starts_at, 'end', b.ends_at, 'status', b.status)
        from bookings b where b.business_id = c.business_id and b.business_client_id = c.id
          and b.starts_at >= ${now} and b.status in ('PENDING', 'ACCEPTED')
        order by b.starts_at, b.id limit 1) as next,
      m.bookings, m."cashDueCents", m."cashDueCount", m."unpaidCardCents", m."unpaidCardCount", m."pastUnpaidCents"
    from business_clients c
    cross join lateral (
      select count(*)::int as bookings,
        coalesce(sum(b.total_cents) filter (where unpaid.cash), 0)::float8 as "cashDueCents",
        count(*) filter (where unpaid.cash)::int as "cashDueCount",
        coalesce(sum(b.total_cents) filter (where unpaid.card), 0)::float8 as "unpaidCardCents",
        count(*) filter (where unpaid.card)::int as "unpaidCardCount",
        coalesce(sum(b.total_cents) filter (where (unpaid.cash or unpaid.card) and b.starts_at < ${now}), 0)::float8 as "pastUnpaidCents"
      from bookings b
      cross join lateral (select ${sql.unsafe(UNPAID_CASH)} as cash, ${sql.unsafe(UNPAID_CARD)} as card) unpaid
      where b.business_id = c.business_id and b.business_client_id = c.id) m
    where c.business_id = ${businessId} and c.id = any(${clientIds}::text[])`;
  const refOf = (r: (Omit<ClientBookingRef, 'start' | 'end'> & { start: string; end: string }) | null) =>
    r ? { ...r, start: new Date(r.start), end: new Date(r.end) } : null;
  return new Map(rows.map((r) => [r.clientId, { ...r, last: refOf(r.last), next: refOf(r.next) }]));
}

/** A pet of a client as the business has seen it: a saved pet of the client's account, or one given by value. */
export interface ClientPetRow {
  /** The saved pet's id (a pet given by value has none). */
  petId: string | null;
  name: string;
  type: 'DOG' | 'CAT' | null;
  breed: string | null;
  weightKg: number | null;
  coat: 'SHORT' | 'MEDIUM' | 'LONG' | null;
  /** The owner's notes on the pet (saved pet) or those given with the booking. */
  notes: string | null;
  /** When the latest booking with it begins. */
  lastSeen: Date;
}

const oneOf = <T extends string>(v: unknown, allowed: readonly T[]): T | null =>
  typeof v === 'string' && (allowed as readonly string[]).includes(v) ? (v as T) : null;
const textOf = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The pets in a client's bookings with one business, each once (a saved pet by id, one by value by
 * name), with the facts of the newest booking that names it (a saved pet's as saved now).
 */
export async function listClientPets(
  sql: Queryable,
  businessId: string,
  clientId: string,
): Promise<ClientPetRow[]> {
  const rows = await sql<
    {
      seen: Date;
      detail: Record<string, unknown>;
      petId: string | null;
      name: string | null;
      type: 'DOG' | 'CAT' | null;
      breed: string | null;
      weightKg: number | null;
      coat: 'SHORT' | 'MEDIUM' | 'LONG' | null;
      notes: string | null;
    }[]
  >`
    select b.starts_at as seen, p as detail, s.id as "petId", s.name, s.type, s.breed, s.weight_kg::float8 as "weightKg",
      s.coat, s.notes
    from bookings b
    join business_clients c on c.business_id = b.business_id and c.id = b.business_client_id
    cross join lateral ${sql.unsafe(DETAIL_PETS)} p
    left join pets s on s.id = p->>'petId' and s.user_id = c.user_id
    where b.business_id = ${businessId} and b.business_client_id = ${clientId} and jsonb_typeof(p) = 'object'
    order by b.starts_at desc, b.id desc`;
  const pets = new Map<string, ClientPetRow>();
  for (const r of rows) {
    const d = r.detail;
    const name = r.name ?? textOf(d.name);
    if (!name) continue;
    const key = r.petId ?? `name:${name.toLowerCase()}`;
    if (pets.has(key)) continue;
    pets.set(
      key,
      r.petId
        ? {
            petId: r.petId,
            name,
            type: r.type,
            breed: r.breed,
            weightKg: r.weightKg,
            coat: r.coat,
            notes: r.notes,
            lastSeen: r.seen,
          }
        : {
            petId: null,
            name,
            type: oneOf(d.type, ['DOG', 'CAT'] as const),
            breed: textOf(d.breed),
            weightKg: typeof d.weightKg === 'number' && Number.isFinite(d.weightKg) ? d.weightKg : null,
            coat: oneOf(d.coat, ['SHORT', 'MEDIUM', 'LONG'] as const),
            notes: textOf(d.notes),
            lastSeen: r.seen,
          },
    );
  }
  return [...pets.values()];
}

/** An address a client's bookings with one business used: a saved address of the account, or given by value. */
export interface ClientAddressRow {
  addressId: string | null;
  label: string | null;
  /** One line: street, suburb, postal code, city. */
  address: string;
  /** How to get in (gate codes, keys, parking). */
  accessNotes: string | null;
  lastUsed: Date;
}

/** The addresses of a client's bookings with one business, each once, the most recently used first. */
export async function listClientAddresses(
  sql: Queryable,
  businessId: string,
  clientId: string,
): Promise<ClientAddressRow[]> {
  const rows = await sql<
    {
      used: Date;
      addressId: string | null;
      label: string | null;
      line1: string | null;
      suburb: string | null;
      postalCode: string | null;
      city: string | null;
      notes: string | null;
      byValue: string | null;
      byValueNotes: string | null;
    }[]
  >`
    select b.starts_at as used, a.id as "addressId", a.label, a.line1, a.suburb, a.postal_code as "postalCode", a.city,
      a.notes, b.details->>'address' as "byValue", b.details->>'accessNotes' as "byValueNotes"
    from bookings b
    join business_clients c on c.business_id = b.business_id and c.id = b.business_client_id
    left join addresses a on a.id = b.address_id and a.user_id = c.user_id
    where b.business_id = ${businessId} and b.business_client_id = ${clientId}
    order by b.starts_at desc, b.id desc`;
  const out = new Map<string, ClientAddressRow>();
  for (const r of rows) {
    const address = r.addressId
      ? [r.line1, r.suburb, r.postalCode, r.city].filter(Boolean).join(', ')
      : (r.byValue ?? '').trim();
    if (!address) continue;
    const key = r.addressId ?? `text:${address.toLowerCase()}`;
    if (out.has(key)) continue;
    out.set(key, {
      addressId: r.addressId,
      label: r.addressId ? r.label : null,
      address,
      accessNotes: r.addressId ? r.notes : textOf(r.byValueNotes),
      lastUsed: r.used,
    });
  }
  return [...out.values()];
}

/**
 * The newest `limit` bookings of a client with one business (any status) by (start, id)
 * descending, and how many there are in all: ids and starts, for reading them as jobs.
 */
export async function clientBookingIds(
  sql: Queryable,
  businessId: string,
  clientId: string,
  limit: number,
): Promise<{ bookings: { id: string; start: Date }[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    sql<{ id: string; start: Date }[]>`
      select id, starts_at as start from bookings where business_id = ${businessId} and business_client_id = ${clientId}
      order by starts_at desc, id desc limit ${limit}`,
    sql<{ n: number }[]>`
      select count(*)::int as n from bookings where business_id = ${businessId} and business_client_id = ${clientId}`,
  ]);
  return { bookings: rows, total: count!.n };
}
