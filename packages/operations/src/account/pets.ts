import { insertPet, listPets as listPetRows } from '@nogpets/store';
import { z } from 'zod';
import {
  actorName,
  auditChange,
  CoatSchema,
  defineOperation,
  PetTypeSchema,
  READ_ONLY,
  WeightKgSchema,
} from '../core/index.js';

/** A pet's notes (temperament, health): add_pet's limit, and the account page's. */
export const PetNotesSchema = z.string().max(500);

export const PetSchema = z
  .object({
    id: z.string().meta({ description: 'Used as `petId`.' }),
    name: z.string(),
    type: PetTypeSchema,
    breed: z.string().nullable(),
    weightKg: z.number(),
    coat: CoatSchema,
    birthYear: z.int().nullable(),
    notes: z.string().nullable(),
  })
  .meta({
    id: 'Pet',
    description: 'A saved pet; its `id` is the `petId` of get_quote, find_times and book.',
  });

export const listPets = defineOperation({
  operationId: 'listPets',
  toolName: 'list_pets',
  title: 'List saved pets',
  tag: 'Account',
  mcp: 'person',
  method: 'GET',
  path: '/v1/pets',
  inputIn: 'query',
  auth: { scope: 'pets' },
  description:
    "The person's saved pets, each with `id`, name, type, breed, weight, coat, birth year and notes. Use it when the " +
    "person is signed in and wants a price, open times or a booking for their pets: pass a pet's `id` as `petId` in " +
    'get_quote, find_times and book (book needs saved pets) instead of asking for type, weight and coat again. Show the ' +
    'pets by name (and breed) and ask which ones it is for; when none is saved, ask about the pet and offer add_pet.',
  input: z.object({}).strict(),
  output: z.object({ pets: z.array(PetSchema) }),
  successStatus: 200,
  errors: [{ status: 429, description: 'Too many requests.' }],
  annotations: READ_ONLY,
  async handler(ctx) {
    return { pets: await listPetRows(ctx.deps.sql, ctx.auth!.userId) };
  },
});

export const addPet = defineOperation({
  operationId: 'addPet',
  toolName: 'add_pet',
  title: 'Save a pet',
  tag: 'Account',
  mcp: 'person',
  method: 'POST',
  path: '/v1/pets',
  inputIn: 'body',
  auth: { scope: 'pets' },
  description:
    'Saves a pet for the person: `name`, `type` (DOG or CAT), `weightKg` (an estimate is fine), `coat` (SHORT, MEDIUM or ' +
    'LONG: MEDIUM for curly clip coats such as poodles), optionally `breed`, `birthYear`, `notes` (temperament, health). ' +
    'Ask the person before saving. Answers the pet with its `id`.',
  input: z
    .object({
      name: z.string().trim().min(1).max(60),
      type: PetTypeSchema,
      weightKg: WeightKgSchema,
      coat: CoatSchema,
      breed: z.string().trim().min(1).max(80).optional(),
      birthYear: z.int().min(1980).max(2100).optional(),
      notes: PetNotesSchema.optional(),
    })
    .strict(),
  output: PetSchema,
  successStatus: 201,
  errors: [{ status: 429, description: 'Too many requests.' }],
  events: [],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(ctx, input) {
    const auth = ctx.auth!;
    return ctx.deps.sql.begin(async (tx) => {
      const pet = await insertPet(
        tx,
        auth.userId,
        {
          name: input.name,
          type: input.type,
          weightKg: input.weightKg,
          coat: input.coat,
          breed: input.breed ?? null,
          birthYear: input.birthYear ?? null,
          notes: input.notes ?? null,
        },
        actorName(ctx),
      );
      await auditChange(ctx, tx, 'pet.add', pet.id, { name: pet.name });
      return pet;
    });
  },
});
