// Pets: a person's pets.
import { newId } from './ids.js';
import type { Queryable as Sql } from './sql.js';

export interface PetRow {
  id: string;
  name: string;
  type: 'DOG' | 'CAT';
  breed: string | null;
  weightKg: number;
  coat: 'SHORT' | 'MEDIUM' | 'LONG';
  birthYear: number | null;
  notes: string | null;
}

export const PET_COLUMNS = `id, name, type, breed, weight_kg as "weightKg", coat, birth_year as "birthYear", notes`;

export async function listPets(sql: Sql, userId: string): Promise<PetRow[]> {
  return sql<PetRow[]>`
    select ${sql.unsafe(PET_COLUMNS)}
    from pets where user_id = ${userId} order by created_at, id`;
}

export async function insertPet(
  sql: Sql,
  userId: string,
  pet: Omit<PetRow, 'id'>,
  clientName: string | null,
): Promise<PetRow> {
  const id = newId('pet');
  await sql`
    insert into pets (id, user_id, name, type, breed, weight_kg, coat, birth_year, notes, client_name)
    values (${id}, ${userId}, ${pet.name}, ${pet.type}, ${pet.breed}, ${pet.weightKg}, ${pet.coat}, ${pet.birthYear}, ${pet.notes}, ${clientName})`;
  return { id, ...pet };
}
