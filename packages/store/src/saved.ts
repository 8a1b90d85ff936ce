// Saved: what a request names from a person's account (pets, an address), read in one round trip.
import { ADDRESS_COLUMNS, type AddressRow } from './addresses.js';
import { liveAt } from './bookings.js';
import { PET_COLUMNS, type PetRow } from './pets.js';
import type { Queryable as Sql } from './sql.js';

/**
 * The person's pets among `petIds` and their address `addressId` (null when it is not theirs or
 * none is asked for), in one statement. Ids of other people's pets and addresses find nothing.
 */
export async function findSavedPetsAndAddress(
  sql: Sql,
  userId: string,
  petIds: string[],
  addressId: string | null,
): Promise<{ pets: PetRow[]; address: AddressRow | null }> {
  const [row] = await sql<{ pets: PetRow[]; address: AddressRow | null }[]>`
    select
      (select coalesce(json_agg(p), '[]') from (
        select ${sql.unsafe(PET_COLUMNS)} from pets where user_id = ${userId} and id = any(${petIds})
      ) p) as pets,
      (select row_to_json(a) from (
        select ${sql.unsafe(ADDRESS_COLUMNS)} from addresses where user_id = ${userId} and id = ${addressId}
      ) a) as address`;
  return row!;
}

/** A saved pet or address of the person. */
export type SavedKind = 'pet' | 'address';

/** What asking to remove a saved pet or address came to (with its name or label, when removed). */
export type SavedRemoval =
  | { result: 'REMOVED'; name: string }
  | { result: 'IN_USE' }
  | { result: 'NOT_FOUND' };

/**
 * Changes the notes of the person's pet or address; null when it is not theirs.
 * @example await updateSavedNotes(sql, userId, 'pet', petId, 'Nervous of clippers')
 */
export async function updateSavedNotes(
  sql: Sql,
  userId: string,
  kind: SavedKind,
  id: string,
  notes: string | null,
): Promise<PetRow | AddressRow | null> {
  const [row] =
    kind === 'pet'
      ? await sql<PetRow[]>`
          update pets set notes = ${notes} where user_id = ${userId} and id = ${id}
          returning ${sql.unsafe(PET_COLUMNS)}`
      : await sql<AddressRow[]>`
          update addresses set notes = ${notes} where user_id = ${userId} and id = ${id}
          returning ${sql.unsafe(ADDRESS_COLUMNS)}`;
  return row ?? null;
}

/**
 * Removes the person's pet or address unless a live booking (pending or accepted, not yet ended)
 * or an open weekly repeat names it. Run in a transaction: the row is locked first (a booking
 * being written holds it FOR SHARE, so this waits for it), then the check sees every booking
 * committed by then, then the row goes.
 */
export async function removeSavedUnlessInUse(
  sql: Sql,
  userId: string,
  kind: SavedKind,
  id: string,
  now: Date,
): Promise<SavedRemoval> {
  const table = sql(kind === 'pet' ? 'pets' : 'addresses');
  const name = sql(kind === 'pet' ? 'name' : 'label');
  const [held] = await sql<{ name: string }[]>`
    select ${name} as name from ${table} where user_id = ${userId} and id = ${id} for update`;
  if (!held) return { result: 'NOT_FOUND' };
  const inUse =
    kind === 'pet'
      ? sql`exists (select 1 from bookings where user_id = ${userId} and ${liveAt(sql, now)}
              and exists (select 1 from jsonb_array_elements(details->'pets') p where p->>'petId' = ${id}))
          or exists (select 1 from booking_series where user_id = ${userId} and cancelled_at is null
              and exists (select 1 from jsonb_array_elements(template->'pets') p where p->>'petId' = ${id}))`
      : sql`exists (select 1 from bookings where user_id = ${userId} and ${liveAt(sql, now)} and address_id = ${id})
          or exists (select 1 from booking_series where user_id = ${userId} and cancelled_at is null
              and template->>'addressId' = ${id})`;
  const [used] = await sql<{ yes: boolean }[]>`select ${inUse} as yes`;
  if (used!.yes) return { result: 'IN_USE' };
  await sql`delete from ${table} where user_id = ${userId} and id = ${id}`;
  return { result: 'REMOVED', name: held.name };
}
