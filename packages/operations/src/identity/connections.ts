import { appendAudit, type ConnectionRow, listConnections, revokeConnection } from '@nogpets/store';
import type { Deps } from '../core/index.js';

type ConnectionDeps = Pick<Deps, 'sql' | 'clock'>;

/** The assistants connected to a person's account (live tokens), one row each: what the account page lists. */
export function listAssistantConnections(deps: ConnectionDeps, userId: string): Promise<ConnectionRow[]> {
  return listConnections(deps.sql, userId, deps.clock.now());
}

/**
 * Removes a connected assistant: every token it holds for the person stops working at once,
 * audited in the same transaction. How many tokens were revoked; 0, and nothing recorded, when
 * it held none.
 */
export async function removeConnection(
  deps: ConnectionDeps,
  userId: string,
  clientId: string,
): Promise<number> {
  const now = deps.clock.now();
  return deps.sql.begin(async (tx) => {
    const revoked = await revokeConnection(tx, userId, clientId, now);
    if (revoked) {
      await appendAudit(
        tx,
        {
          userId,
          clientId,
          clientName: null,
          action: 'connection.remove',
          target: clientId,
          details: { tokens: revoked },
        },
        now,
      );
    }
    return revoked;
  }) as Promise<number>;
}
