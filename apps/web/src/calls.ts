// One call of one request, as the pages and the OAuth endpoints run operations: built once per
// request, as a visitor (nobody signed in, or a page a visitor uses whoever is signed in: the
// sign-in forms and links, a pay link, a sign-up draft's page, and every endpoint an assistant's
// OAuth client calls), as the person signed in on our pages (their browser session is the
// credential), or as the payment gateway whose notification it is.
import {
  accountPageContext,
  type InternalOperation,
  type OperationContext,
  runOperation,
  type Scope,
  ServiceError,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { Request, Response } from 'express';
import html from 'html-template-tag';
import { page, type SignedInHeader } from './layout.js';

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

/** A call of this request by the payment gateway whose notification it is. */
export function gatewayCall(runtime: Runtime, req: Request, gateway: string): OperationContext {
  return {
    deps: runtime.deps,
    ...callOf(runtime, req),
    clientName: null,
    auth: null,
    principal: { kind: 'gateway', gateway },
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

/** Whether a refusal is of the request's own input (a page's URL or form the page did not make). */
export const isBadInput = (err: unknown): err is ServiceError =>
  err instanceof ServiceError && err.code === 'BAD_REQUEST';

/** The 400 page for input the operation refused, saying why in its words. */
export function badInputPage(res: Response, err: ServiceError, signedIn?: SignedInHeader): void {
  res
    .status(400)
    .type('html')
    .send(page('Not a valid request', html`<p class="error" role="alert">${err.message}</p>`, signedIn));
}
