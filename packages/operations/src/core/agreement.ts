/**
 * Agreeing on our page (issue 31, part 3): where the MCP client can show a page (URL-mode
 * elicitation), a change that needs the person's agreement is agreed by the signed-in person on
 * /confirm/<id>, never by the assistant's `confirm: true`. These are the pure decisions of it: is a
 * confirmation this call's agreement, and what the page shows. No clock and no I/O: `now` comes in.
 */

/** How long the person has to answer, and the assistant to retry once they confirmed. */
export const CONFIRMATION_TTL_MS = 10 * 60_000;

/** What the decisions need of a stored confirmation. */
export interface ConfirmationFacts {
  id: string;
  userId: string;
  status: 'pending' | 'confirmed' | 'refused';
  summary: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/**
 * A call of a change, made in page mode: set by runOperation on the call's context, read and
 * marked by confirmStep. `found` is the newest unused confirmation of the same person, operation
 * and arguments (locked in the call's transaction when it may be used).
 */
export interface AgreementCall {
  userId: string;
  operation: string;
  argsHash: string;
  clientName: string | null;
  found: ConfirmationFacts | null;
  /** The confirmation confirmStep took as the person's agreement: runOperation marks it used in the call's transaction. */
  used?: string;
  /** The refusal confirmStep told: marked used, so it is told once. */
  refused?: string;
  /** What to ask on the page: confirmStep's summary and parts, and the pending confirmation to show again, if any. */
  ask?: { summary: string; parts: unknown; again: string | null };
}

export type CallAgreement = 'agreed' | 'refused' | 'waiting' | 'ask';

/**
 * Whether the person agreed to this call on the page: `agreed` when they confirmed it, it is not
 * used and not expired, and the summary it would show now is the one they confirmed (a price or a
 * time that changed since is a new question); `refused` when they refused it; `waiting` when the
 * same question is still open on the page; else `ask` anew.
 */
export function agreementOfCall(found: ConfirmationFacts | null, summary: string, now: Date): CallAgreement {
  if (!found || found.usedAt !== null) return 'ask';
  if (found.status === 'refused') return 'refused';
  if (now.getTime() >= found.expiresAt.getTime() || found.summary !== summary) return 'ask';
  return found.status === 'confirmed' ? 'agreed' : 'waiting';
}

/**
 * What the confirmation page shows `viewerId`: someone else's confirmation (or none) is `missing`,
 * so its summary is never shown to them; `used` once the change was made; `refused`, `confirmed`
 * once answered; `expired` when the time to answer or use it passed; `open` to answer.
 */
export type ConfirmationPageState = 'missing' | 'open' | 'expired' | 'confirmed' | 'refused' | 'used';

export function confirmationPageState(
  row: (ConfirmationFacts & { userId: string }) | null,
  viewerId: string,
  now: Date,
): ConfirmationPageState {
  if (!row || row.userId !== viewerId) return 'missing';
  if (row.status === 'refused') return 'refused';
  if (row.status === 'confirmed' && row.usedAt !== null) return 'used';
  if (now.getTime() >= row.expiresAt.getTime()) return 'expired';
  return row.status === 'confirmed' ? 'confirmed' : 'open';
}
