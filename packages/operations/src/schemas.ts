import { z } from 'zod';

/** The spec's error body; every error of every operation has this shape. */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'Stable code, e.g. NO_COVERAGE, RateLimited, BAD_REQUEST.' }),
      message: z.string().meta({ description: 'What went wrong, in words a person can read.' }),
      details: z
        .record(z.string(), z.unknown())
        .meta({ description: 'Machine-readable specifics of the error.' }),
    }),
  })
  .meta({ id: 'Error', description: 'Every error body: `{error: {code, message, details}}`.' });

export const PetTypeSchema = z.enum(['DOG', 'CAT']).meta({ id: 'PetType' });
export const CoatSchema = z.enum(['SHORT', 'MEDIUM', 'LONG']).meta({ id: 'Coat' });
export const LineIdSchema = z.enum(['grooming', 'walking', 'sitting']).meta({ id: 'LineId' });

/**
 * A pet's weight as stored (numeric(5,2), above zero): 0.01 to 150 kg in steps of 0.01. A finer
 * figure is refused rather than rounded, so what is kept is exactly what was sent.
 */
export const WeightKgSchema = z
  .number()
  .min(0.01, { error: 'The weight is at least 0.01 kg.', abort: true })
  .max(150, { error: 'The weight is at most 150 kg.', abort: true })
  .multipleOf(0.01, 'Give the weight in kg with at most two decimals (for example 12.5).');
