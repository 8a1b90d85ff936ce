// The browser's web session as every router's pages see it: who is signed in, their form token,
// and which of the header's links they get (pageHeaderOf).
import { identityOperations as identity, type PageHeader, unstorableReason } from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { UserRow } from '@nogpets/operations';
import { parse as parseCookie } from 'cookie';
import type { Request } from 'express';
import { personCall, run, visitorCall } from './calls.js';
import type { FormTokens } from './forms.js';

export const SESSION_COOKIE = 'nogpets_session';

export function sessionToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  return header ? parseCookie(header)[SESSION_COOKIE] : undefined;
}

export interface PageSession {
  user: UserRow;
  csrf: string;
  token: string;
  nav: PageHeader;
}

/** The signed-in person of a request, with their form token and header links; null when nobody is. */
export function sessionReader(
  runtime: Runtime,
  tokens: FormTokens,
): (req: Request) => Promise<PageSession | null> {
  return async (req) => {
    const token = sessionToken(req);
    // A cookie holding text no session can have (NUL, a lone surrogate) signs in nobody; it is not
    // a refused request, or a planted cookie would lock the browser out of every page.
    if (!token || unstorableReason(token)) return null;
    // The session cookie is what makes the visitor the person: read as a visitor, then as them.
    const user = await run(identity.findWebSessionUserOp, visitorCall(runtime, req), { token });
    if (!user) return null;
    const [csrf, nav] = await Promise.all([
      tokens.tokenFor(token),
      run(identity.pageHeaderOfOp, personCall(runtime, req, user.id), {}),
    ]);
    return { user, csrf, token, nav };
  };
}
