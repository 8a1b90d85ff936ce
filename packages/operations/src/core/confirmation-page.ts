/**
 * The confirmation page's reads and answers (issue 31, part 3): the signed-in person sees the
 * summary of a change an assistant asked for and confirms or refuses it, once. Someone else's
 * confirmation is answered as no confirmation at all (404), so its summary never shows.
 */
import { answerConfirmation, findConfirmation, transaction } from '@nogpets/store';
import { type ConfirmationPageState, confirmationPageState } from './agreement.js';
import { auditChange } from './audit.js';
import type { OperationContext } from './context.js';
import { ServiceError } from './errors.js';
import { personOf } from './typed.js';

export interface ConfirmationView {
  id: string;
  state: Exclude<ConfirmationPageState, 'missing'>;
  summary: string;
  /** The assistant that asked, as it named itself. */
  clientName: string | null;
  expiresAt: string;
}

const missing = (id: string) =>
  new ServiceError('NOT_FOUND', 'There is no such confirmation for you. Ask your assistant again.', {
    confirmationId: id,
  });

/** A confirmation of the signed-in person, with what the page shows of it. */
export async function confirmationForPerson(ctx: OperationContext, id: string): Promise<ConfirmationView> {
  const userId = personOf(ctx);
  const row = await findConfirmation(ctx.deps.sql, id);
  const state = confirmationPageState(row, userId, ctx.deps.clock.now());
  if (!row || state === 'missing') throw missing(id);
  return {
    id,
    state,
    summary: row.summary,
    clientName: row.clientName,
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * The person's answer, given once: an answered, used or expired confirmation is refused (409
 * NOT_ACTIVE with its `state`), someone else's is not found.
 */
export async function answerConfirmationOfPerson(
  ctx: OperationContext,
  id: string,
  answer: 'confirm' | 'refuse',
): Promise<ConfirmationView> {
  const userId = personOf(ctx);
  return transaction(ctx.deps.sql, async (tx) => {
    const row = await findConfirmation(tx, id, { forUpdate: true });
    const now = ctx.deps.clock.now();
    const state = confirmationPageState(row, userId, now);
    if (!row || state === 'missing') throw missing(id);
    if (state !== 'open') {
      throw new ServiceError(
        'NOT_ACTIVE',
        state === 'expired'
          ? 'This confirmation has expired. Ask your assistant to make the request again.'
          : 'This confirmation was already answered.',
        { confirmationId: id, state },
      );
    }
    const status = answer === 'confirm' ? 'confirmed' : 'refused';
    await answerConfirmation(tx, id, status, now);
    await auditChange(ctx, tx, `confirmation.${status}`, id, {
      operation: row.operation,
      summary: row.summary,
      assistant: row.clientName,
    });
    return {
      id,
      state: status,
      summary: row.summary,
      clientName: row.clientName,
      expiresAt: row.expiresAt.toISOString(),
    };
  });
}
