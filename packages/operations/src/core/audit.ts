import { appendAudit, type Queryable } from '@nogpets/store';
import { actorName, type OperationContext } from './context.js';

/**
 * Records a change the signed-in caller made, in the transaction that makes it: who, through which
 * assistant (or the account page), what and to what.
 */
export async function auditChange(
  ctx: OperationContext,
  tx: Queryable,
  action: string,
  target: string,
  details: Record<string, unknown>,
): Promise<void> {
  await appendAudit(
    tx,
    {
      userId: ctx.auth!.userId,
      clientId: ctx.auth!.clientId,
      clientName: actorName(ctx),
      action,
      target,
      details,
    },
    ctx.deps.clock.now(),
  );
}
