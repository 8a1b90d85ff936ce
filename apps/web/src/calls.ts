// The calls a page request makes through runOperation when nobody's session is the caller: a
// visitor who holds a link (a pay link, a sign-up draft's page) and a payment gateway's
// notification. A signed-in person's calls carry their web session (accountPageContext).
import { type OperationContext, ServiceError } from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { Request, Response } from 'express';
import html from 'html-template-tag';
import { page, type SignedInHeader } from './layout.js';

const callOf = (runtime: Runtime, req: Request): Omit<OperationContext, 'principal'> => ({
  deps: runtime.deps,
  requestId: String(req.id ?? ''),
  clientName: null,
  auth: null,
  log: req.log ?? runtime.logger,
});

/** A call of this request by a visitor of our pages, signed in or not: the link they hold is what they show. */
export function visitorCall(runtime: Runtime, req: Request): OperationContext {
  return { ...callOf(runtime, req), principal: { kind: 'visitor' } };
}

/** A call of this request by the payment gateway whose notification it is. */
export function gatewayCall(runtime: Runtime, req: Request, gateway: string): OperationContext {
  return { ...callOf(runtime, req), principal: { kind: 'gateway', gateway } };
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
