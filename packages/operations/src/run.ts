import type { z } from 'zod';
import type { OperationContext } from './context.js';
import type { Operation } from './define.js';
import { ServiceError } from './errors.js';

export interface FieldProblem {
  field: string;
  message: string;
}

/** Turns zod's issues into the `details.fields` of a 400, one line per offending field. */
export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => {
    const field = issue.path.length ? issue.path.join('.') : issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : '(input)';
    return { field, message: issue.message };
  });
}

/** Validates raw input against the operation's schema: a 400 BAD_REQUEST naming each bad field. */
export function parseInput<I extends z.ZodObject>(op: Operation<I>, raw: unknown): z.output<I> {
  const result = op.input.safeParse(raw ?? {});
  if (result.success) return result.data;
  const fields = fieldProblems(result.error);
  const summary = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
  throw new ServiceError('BAD_REQUEST', `The request is not valid. ${summary}`, { fields });
}

/** The single path every call takes, whatever door it came through. */
export async function runOperation<I extends z.ZodObject, O extends z.ZodType>(
  op: Operation<I, O>,
  ctx: OperationContext,
  raw: unknown,
): Promise<z.input<O>> {
  if (op.auth !== 'public') {
    const scope = op.auth.scope;
    if (!ctx.auth) {
      throw new ServiceError('UNAUTHORIZED', `This needs the person's permission: a Bearer credential with scope ${scope}.`, {
        error: 'invalid_request',
        scope,
      });
    }
    if (!ctx.auth.scopes.includes(scope)) {
      throw new ServiceError('FORBIDDEN', `The credential does not allow this: it needs scope ${scope}.`, { error: 'insufficient_scope', scope });
    }
  }
  const input = parseInput(op, raw);
  return op.handler(ctx, input);
}
