import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  findUnstorableText,
  identityOperations as identity,
  ServiceError,
  type TextProblem,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import html from 'html-template-tag';
import { run, visitorCall } from './calls.js';
import { page } from './layout.js';

/** Before anyone is signed in, forms are bound to this cookie instead of the session. */
export const PRESESSION_COOKIE = 'nogpets_presession';

/**
 * A form post made by another site's page (login CSRF and the like). Browsers say where a request
 * came from in `Sec-Fetch-Site`; older ones only in `Origin`. A client that sends neither is not a
 * browser acting for someone else, and the form token still has to match.
 */
export function isCrossSite(req: Request, publicUrl: string): boolean {
  const site = req.get('sec-fetch-site');
  if (site) return site !== 'same-origin' && site !== 'none';
  const origin = req.get('origin');
  if (!origin) return false;
  return origin !== new URL(publicUrl).origin && origin !== `${req.protocol}://${req.get('host')}`;
}

/** Refuses POSTs from other sites' pages with a page saying so; nothing behind it runs. */
export function refuseCrossSitePosts(runtime: Runtime): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST' || !isCrossSite(req, runtime.publicUrl())) {
      next();
      return;
    }
    res
      .status(403)
      .type('html')
      .send(
        page(
          'Not sent',
          html`<p class="error">This form was sent from another site, so it was refused. Open NogPets yourself and try again.</p>`,
        ),
      );
  };
}

/**
 * Text in a request that could not be stored (NUL, a lone surrogate), in its path, query or parsed
 * body; the problem names the field (`path` for the path). The same check the operations make,
 * for the doors that are not operations: forms and the OAuth endpoints.
 */
export function unstorableRequestText(req: Request): TextProblem | null {
  let path: string;
  try {
    path = decodeURIComponent(req.path);
  } catch {
    // Not UTF-8 at all (a lone surrogate's bytes, %FF): the path cannot be read either.
    return { field: 'path', message: 'The path is not valid percent-encoded UTF-8.' };
  }
  const inPath = findUnstorableText(path, 'path');
  if (inPath) return inPath;
  const query = findUnstorableText(req.query ?? {});
  if (query) return query;
  return typeof req.body === 'object' && req.body !== null ? findUnstorableText(req.body) : null;
}

/** Forms: a request holding text that cannot be stored gets a 400 page naming the field; nothing runs. */
export const refuseUnstorableFormText: RequestHandler = (req, res, next) => {
  const problem = unstorableRequestText(req);
  if (!problem) {
    next();
    return;
  }
  res
    .status(400)
    .type('html')
    .send(
      page(
        'Not sent',
        html`<p class="error">The ${problem.field} field was not accepted. ${problem.message} Check what was typed or pasted, and try again.</p>`,
      ),
    );
};

export interface FormTokens {
  /** The token a form carries, bound to a session's or pre-session's secret. */
  tokenFor(secret: string): Promise<string>;
  /** Whether a posted token belongs to that secret (constant time). */
  matches(secret: string | undefined, posted: unknown): Promise<boolean>;
  /** The pre-session secret of this browser, set as a cookie when it has none. */
  presession(req: Request, res: Response, secure: boolean): string;
  /** The pre-session secret the browser sent, if any. */
  presessionOf(req: Request): string | undefined;
}

/**
 * Form tokens: an HMAC of the browser's session (or pre-session) secret under a key kept in the
 * database, so every instance agrees. A page of another site can read neither the cookie nor the
 * token; the cross-site check above is the second lock.
 */
export function formTokens(runtime: Runtime): FormTokens {
  let key: Promise<string> | undefined;
  const keyOf = () => {
    // Read once per process, for whichever page needs a token first: a visitor's call.
    key ??= run(identity.formTokenKeyOp, visitorCall(runtime), {}).catch((err: unknown) => {
      key = undefined; // a database hiccup must not break every form until restart
      throw err;
    });
    return key;
  };
  const tokenFor = async (secret: string) =>
    createHmac('sha256', await keyOf())
      .update(`form:${secret}`)
      .digest('base64url');
  const presessionOf = (req: Request) => {
    const header = req.headers.cookie;
    const value = header ? parseCookie(header)[PRESESSION_COOKIE] : undefined;
    return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
  };
  return {
    tokenFor,
    async matches(secret, posted) {
      if (!secret || typeof posted !== 'string') return false;
      const expected = Buffer.from(await tokenFor(secret));
      const given = Buffer.from(posted);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
    presessionOf,
    presession(req, res, secure) {
      const known = presessionOf(req);
      if (known) return known;
      const made = randomBytes(32).toString('base64url');
      res.append(
        'Set-Cookie',
        serializeCookie(PRESESSION_COOKIE, made, { httpOnly: true, sameSite: 'lax', secure, path: '/' }),
      );
      return made;
    },
  };
}

/** The service's request limit for pages and forms: a refusal is a page saying so, not JSON. */
export function limitRequestsAsPage(runtime: Runtime): RequestHandler {
  return (req, res, next) =>
    runtime.rateLimiter.middleware(req, res, (err?: unknown) => {
      if (err instanceof ServiceError)
        res
          .status(err.status)
          .type('html')
          .send(page('Slow down', html`<p class="error">${err.message}</p>`));
      else next(err);
    });
}
