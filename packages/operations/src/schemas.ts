import { z } from 'zod';

/** The spec's error body; every error of every operation has this shape. */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'Stable code, e.g. NO_COVERAGE, RateLimited, BAD_REQUEST.' }),
      message: z.string().meta({ description: 'What went wrong, in words a person can read.' }),
      details: z.record(z.string(), z.unknown()).meta({ description: 'Machine-readable specifics of the error.' }),
    }),
  })
  .meta({ id: 'Error', description: 'Every error body: `{error: {code, message, details}}`.' });

export const PetTypeSchema = z.enum(['DOG', 'CAT']).meta({ id: 'PetType' });
export const CoatSchema = z.enum(['SHORT', 'MEDIUM', 'LONG']).meta({ id: 'Coat' });
export const LineIdSchema = z.enum(['grooming', 'walking', 'sitting']).meta({ id: 'LineId' });
