// One call of one request, as the pages and the OAuth endpoints run operations: built once per
// request, as a visitor (nobody signed in, or a page a visitor uses whoever is signed in: the
// sign-in forms and links, and every endpoint an assistant's OAuth client calls) or as the person
// signed in on our pages (their browser session is the credential).
import {
  accountPageContext,
  type InternalOperation,
  type OperationContext,
  runOperation,
  type Scope,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { Request } from 'express';

/** The request's id and logger, or the process's for work no request started. */
function callOf(runtime: Runtime, req?: Request): { requestId: string; log: OperationContext['log'] } {
  return { requestId: String(req?.id ?? ''), log: req?.log ?? runtime.logger };
}

/** A visitor's call: no credential, the `visitor` principal. */
export function visitorCall(runtime: Runtime, req?: Request): OperationContext {
  return {
    deps: runtime.deps,
    ...callOf(runtime, req),
    clientName: null,
    auth: null,
    principal: { kind: 'visitor' },
  };
}

/**
 * The signed-in person's call: their browser session (WEB_SESSION) with the scopes the page needs
 * (the account page's, unless the page names others). Internal operations open to `person` take it;
 * public ones check its scopes as they check any credential's.
 */
export function personCall(
  runtime: Runtime,
  req: Request,
  userId: string,
  scopes?: Scope[],
): OperationContext {
  return accountPageContext(runtime.deps, userId, callOf(runtime, req), scopes);
}

/** Runs an internal operation in a call: its answer typed as the operation's handler gives it. */
export async function run<Op extends InternalOperation>(
  operation: Op,
  ctx: OperationContext,
  input: Parameters<Op['handler']>[1],
): Promise<Awaited<ReturnType<Op['handler']>>> {
  return (await runOperation(operation, ctx, input)) as Awaited<ReturnType<Op['handler']>>;
}
