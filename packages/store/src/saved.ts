// Saved: what a request names from a person's account (pets, an address), read in one round trip.
import { ADDRESS_COLUMNS, type AddressRow } from './addresses.js';
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
