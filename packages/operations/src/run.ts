import { createHash } from 'node:crypto';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '@nogpets/store';
import stringify from 'safe-stable-stringify';
import type { z } from 'zod';
import { insufficientScope } from './auth.js';
import type { OperationContext } from './context.js';
import type { Operation } from './define.js';
import { type ErrorCode, ServiceError } from './errors.js';

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
      throw insufficientScope(ctx.auth, [scope]);
    }
  }
  const input = parseInput(op, raw);
  if (ctx.idempotencyKey !== undefined && op.method !== 'GET' && ctx.auth) return idempotent(op, ctx, input);
  return op.handler(ctx, input);
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * A change sent with an `Idempotency-Key`: the first answer (success or refusal) is kept for the
 * person and key, and a retry with the same body gets it again without doing anything twice. The
 * same key with another body, or while the first is still running, is refused.
 */
async function idempotent<I extends z.ZodObject, O extends z.ZodType>(op: Operation<I, O>, ctx: OperationContext, input: z.output<I>): Promise<z.input<O>> {
  const key = ctx.idempotencyKey!;
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new ServiceError('BAD_REQUEST', 'Idempotency-Key must be 1 to 255 visible ASCII characters.', { fields: [{ field: 'Idempotency-Key', message: 'Invalid.' }] });
  }
  const userId = ctx.auth!.userId;
  const hash = createHash('sha256').update(stringify(input) ?? '').digest('hex');
  const claim = await claimIdempotencyKey(ctx.deps.sql, userId, key, op.operationId, hash, ctx.deps.clock.now());
  if (claim.state === 'mismatch') {
    throw new ServiceError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for another request. Use a new key for a new request.', { operation: claim.operation });
  }
  if (claim.state === 'in-progress') {
    throw new ServiceError('REQUEST_IN_PROGRESS', 'The first request with this Idempotency-Key is still being handled. Retry in a moment.');
  }
  if (claim.state === 'done') {
    const stored = claim.response as { error?: { code: ErrorCode; message: string; details: Record<string, unknown> } };
    if (claim.status >= 400 && stored.error) throw new ServiceError(stored.error.code, stored.error.message, stored.error.details, claim.status);
    return claim.response as z.input<O>;
  }
  try {
    const result = await op.handler(ctx, input);
    await completeIdempotencyKey(ctx.deps.sql, userId, key, op.successStatus, result);
    return result;
  } catch (err) {
    if (err instanceof ServiceError && err.status < 500 && err.status !== 429) {
      await completeIdempotencyKey(ctx.deps.sql, userId, key, err.status, err.toBody());
    } else {
      await releaseIdempotencyKey(ctx.deps.sql, userId, key);
    }
    throw err;
  }
}
