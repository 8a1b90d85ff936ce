/**
 * MCP sessions (issue 31, part 3): our MCP endpoints are stateless, so what a client declared at
 * `initialize` (its capabilities, notably URL-mode elicitation, and the protocol version) is kept
 * under the `Mcp-Session-Id` the initialize answer gives it, for any instance to read back. The id
 * is a 256-bit secret stored hashed; a session lives a day after it was last renewed, and is renewed
 * at most twice a day while it is used (so a request costs one read by primary key, rarely a write).
 */
import {
  deleteMcpSession,
  findMcpSession,
  insertMcpSession,
  type McpSessionRow,
  renewMcpSession,
} from '@nogpets/store';
import { type Deps, hashSecret, newSecret } from '../core/index.js';

export const MCP_SESSION_HOURS = 24;
const LIFETIME_MS = MCP_SESSION_HOURS * 3600_000;

export interface McpSession {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientName: string | null;
}

/** A new session for what the client declared at `initialize`: its id, given once. */
export async function openMcpSession(
  deps: Deps,
  s: McpSession & { endpoint: string },
): Promise<{ sessionId: string }> {
  const sessionId = newSecret('nms');
  const at = deps.clock.now();
  await insertMcpSession(deps.sql, {
    idHash: hashSecret(sessionId),
    endpoint: s.endpoint,
    protocolVersion: s.protocolVersion,
    capabilities: s.capabilities,
    clientName: s.clientName,
    at,
    expiresAt: new Date(at.getTime() + LIFETIME_MS),
  });
  return { sessionId };
}

/**
 * The live session of an id on an endpoint, or null (unknown, expired, or opened on the other
 * endpoint). Renewed when half its life has passed.
 */
export async function findLiveMcpSession(
  deps: Deps,
  sessionId: string,
  endpoint: string,
): Promise<McpSession | null> {
  const idHash = hashSecret(sessionId);
  const row: McpSessionRow | null = await findMcpSession(deps.sql, idHash);
  const now = deps.clock.now().getTime();
  if (!row || row.endpoint !== endpoint || row.expiresAt.getTime() <= now) return null;
  if (row.expiresAt.getTime() - now < LIFETIME_MS / 2)
    await renewMcpSession(deps.sql, idHash, new Date(now + LIFETIME_MS));
  return { protocolVersion: row.protocolVersion, capabilities: row.capabilities, clientName: row.clientName };
}

/** Ends a session (the client's DELETE); false when there was no such session on that endpoint. */
export async function endMcpSession(deps: Deps, sessionId: string, endpoint: string): Promise<boolean> {
  const live = await findLiveMcpSession(deps, sessionId, endpoint);
  return live !== null && (await deleteMcpSession(deps.sql, hashSecret(sessionId)));
}
