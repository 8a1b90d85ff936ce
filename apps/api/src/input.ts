import { ServiceError } from '@nogpets/operations';
import type { Request } from 'express';
import { z } from 'zod';

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function baseType(schema: z.ZodType): z.ZodType {
  let s: z.ZodType = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodNullable) {
    s = s.unwrap() as z.ZodType;
  }
  return s;
}

/**
 * Query strings carry only text. Numbers and booleans the operation's schema expects are read
 * strictly here ("12abc" stays text and fails validation); everything else is left for zod.
 */
export function queryInput(schema: z.ZodObject, query: Request['query']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    const field = schema.shape[key] as z.ZodType | undefined;
    const type = field ? baseType(field) : undefined;
    if (typeof value === 'string' && type instanceof z.ZodNumber) {
      out[key] = NUMBER.test(value.trim()) ? Number(value) : value;
    } else if (typeof value === 'string' && type instanceof z.ZodBoolean) {
      out[key] = value === 'true' ? true : value === 'false' ? false : value;
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** A JSON body must be an object; path parameters join it (they win over body fields of the same name). */
export function bodyInput(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (
    body === undefined ||
    body === null ||
    (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)
  ) {
    return { ...req.params };
  }
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ServiceError('BAD_REQUEST', 'The request body must be a JSON object.', {
      reason: 'body_not_object',
    });
  }
  return { ...(body as Record<string, unknown>), ...req.params };
}
