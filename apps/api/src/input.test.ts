import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { queryInput } from './input.js';

const schema = z.object({
  lat: z.number().min(-90).max(90).optional(),
  on: z.boolean().optional(),
  q: z.string().optional(),
});

describe('queryInput', () => {
  it('reads numbers and booleans the schema expects', () => {
    expect(queryInput(schema, { lat: '-33.93', on: 'true', q: '7600' })).toEqual({
      lat: -33.93,
      on: true,
      q: '7600',
    });
  });

  it('leaves text that is not a number as text, so validation names it', () => {
    expect(queryInput(schema, { lat: '12abc' })).toEqual({ lat: '12abc' });
    expect(schema.safeParse(queryInput(schema, { lat: '12abc' })).success).toBe(false);
    expect(queryInput(schema, { lat: '' })).toEqual({ lat: '' });
  });

  it('keeps unknown keys for the strict schema to refuse', () => {
    expect(queryInput(schema, { other: '1' })).toEqual({ other: '1' });
  });
});
