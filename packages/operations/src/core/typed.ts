import { z } from 'zod';
import type { OperationContext } from './context.js';
import { ServiceError } from './errors.js';

/**
 * The output of an internal operation is what the function it wraps returns, typed by that
 * function (no door serves it, so there is no schema to publish).
 */
export const typed = <T>() => z.custom<T>();

/** An internal operation's input when it takes none. */
export const NO_INPUT = z.object({}).strict();

/** The operator a call runs for (runOperation lets only an operator principal through). */
export function operatorOf(ctx: OperationContext): { name: string; userId: string | null } {
  const p = ctx.principal;
  if (p?.kind !== 'operator') throw new ServiceError('FORBIDDEN', 'This is for NogPets’ operator.', {});
  return { name: p.name, userId: p.userId };
}

/** The signed-in person a `person` call runs for (runOperation lets only their web session through). */
export function personOf(ctx: OperationContext): string {
  if (ctx.auth?.kind !== 'WEB_SESSION')
    throw new ServiceError('FORBIDDEN', 'This is for the person signed in.', {});
  return ctx.auth.userId;
}
