// The person confirms a change on our page when their MCP client can show one (issue 31, part 3;
// docs/decisions.md "The person confirms on our page"). The MCP door is stateless, so a client that
// declares URL-mode elicitation (MCP 2025-11-25) at `initialize` is given an `Mcp-Session-Id`, and
// what it declared is kept in PostgreSQL; its later requests carry the id, are read back by any
// instance (one read by primary key) and run in page mode: confirmStep then waits for the signed-in
// person on /confirm/<id>, and the tool call answers the URL elicitation required error (-32042)
// naming that page. Clients that declare nothing get no session id and work exactly as before.
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import {
  identityOperations as identity,
  type OperationContext,
  runOperation,
  type ServiceError,
  statedClientName,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { Request, Response } from 'express';

/** What a client declared at initialize, as later requests of its session see it. */
export interface McpClientSession {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  /** The client's name from its initialize's clientInfo. */
  clientName: string | null;
}

interface JsonRpcMessage {
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const SESSION_HEADER = 'mcp-session-id';

function visitorCall(runtime: Runtime, req: Request): OperationContext {
  return {
    deps: runtime.deps,
    requestId: String(req.id),
    log: req.log,
    clientName: null,
    auth: null,
    principal: { kind: 'visitor' },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether declared capabilities include URL-mode elicitation (`elicitation: { url: {} }`). */
/** The protocol version that brought URL-mode elicitation (SEP-1036). */
const URL_ELICITATION_SINCE = '2025-11-25';

export function canShowPages(capabilities: Record<string, unknown> | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  return isObject(elicitation) && isObject(elicitation.url);
}

/**
 * The MCP session of this request on `endpoint` (`/mcp`, `/mcp/business`), or null for none. An `initialize` that declares URL-mode
 * elicitation opens one (its id goes on the answer, set before the transport writes); a request
 * carrying `Mcp-Session-Id` reads its session back. An id that names no live session (unknown,
 * expired, ended, or of the other endpoint) is answered here with 404 and -32001, as the transport
 * spec says of a terminated session, so the client initializes again: `undefined` then means the
 * answer is sent.
 */
export async function mcpSessionOf(
  runtime: Runtime,
  req: Request,
  res: Response,
  messages: readonly JsonRpcMessage[],
  endpoint: string,
): Promise<McpClientSession | null | undefined> {
  const initialize = messages.find((m) => m?.method === 'initialize');
  if (initialize) {
    const params = isObject(initialize.params) ? initialize.params : {};
    const capabilities = isObject(params.capabilities) ? params.capabilities : {};
    // Only what there is to remember opens a session: a client that cannot show pages has none.
    if (!canShowPages(capabilities)) return null;
    const protocolVersion = typeof params.protocolVersion === 'string' ? params.protocolVersion : '';
    const info = isObject(params.clientInfo) ? params.clientInfo : {};
    const clientName = typeof info.name === 'string' ? info.name.slice(0, 200) : null;
    const { sessionId } = await runOperation(identity.openMcpSessionOp, visitorCall(runtime, req), {
      endpoint,
      protocolVersion: protocolVersion.slice(0, 100),
      capabilities,
      clientName,
    });
    res.setHeader('Mcp-Session-Id', sessionId);
    return { protocolVersion, capabilities, clientName };
  }
  const sessionId = req.get(SESSION_HEADER);
  if (sessionId === undefined) return null;
  const session = /^[\x21-\x7e]{1,200}$/.test(sessionId)
    ? await runOperation(identity.findMcpSessionOp, visitorCall(runtime, req), { endpoint, sessionId })
    : null;
  if (session) return session;
  sessionGone(res);
  return undefined;
}

/** 404 with the JSON-RPC error the SDK's own session transport answers: the client initializes again. */
function sessionGone(res: Response): void {
  res.status(404).json({
    jsonrpc: '2.0',
    error: { code: -32001, message: 'Session not found: it expired or was ended. Initialize again.' },
    id: null,
  });
}

/**
 * A call's context in its session's agreement mode: page mode where the client can show our page.
 * A session also remembers the client's name (initialize's clientInfo), used where the call states
 * none (`X-Client-Name`): the confirmation page says which assistant asks.
 */
export function withAgreement(ctx: OperationContext, session: McpClientSession | null): OperationContext {
  if (!session) return ctx;
  // URL elicitation is of MCP 2025-11-25: a client that negotiated an earlier version may not
  // know -32042, so it keeps `confirm: true`.
  if (canShowPages(session.capabilities) && session.protocolVersion >= URL_ELICITATION_SINCE)
    ctx.agreement = { mode: 'page' };
  ctx.clientName ??= statedClientName(session.clientName ?? undefined);
  return ctx;
}

/**
 * A page-mode CONFIRM_REQUIRED as MCP says it: the URL elicitation required error (-32042) whose one
 * elicitation is our confirmation page, its message the summary the person will see there. Any
 * other error: null (the tool's error result, as before).
 */
export function urlElicitationOf(error: ServiceError): UrlElicitationRequiredError | null {
  const confirmation = error.details.confirmation as { id?: unknown; url?: unknown } | undefined;
  if (error.code !== 'CONFIRM_REQUIRED' || typeof confirmation?.url !== 'string') return null;
  const summary = typeof error.details.summary === 'string' ? error.details.summary : '';
  return new UrlElicitationRequiredError(
    [
      {
        mode: 'url',
        elicitationId: String(confirmation.id),
        url: confirmation.url,
        message: `Confirm or refuse on NogPets: ${summary}`,
      },
    ],
    `${error.message} ${summary}`.trim(),
  );
}

/**
 * DELETE with an `Mcp-Session-Id`: the session ends (204), an unknown one is 404. Without the
 * header: false, and the door answers 405 as it always did.
 */
export async function endSession(
  runtime: Runtime,
  req: Request,
  res: Response,
  endpoint: string,
): Promise<boolean> {
  const sessionId = req.get(SESSION_HEADER);
  if (sessionId === undefined) return false;
  const ended =
    /^[\x21-\x7e]{1,200}$/.test(sessionId) &&
    (await runOperation(identity.endMcpSessionOp, visitorCall(runtime, req), {
      endpoint,
      sessionId,
    }));
  if (ended) res.status(204).end();
  else sessionGone(res);
  return true;
}
