import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { createApiKey, hashSecret, SCOPE_NAMES, SCOPES, ServiceError } from '@nogpets/operations';
import type { Runtime } from '@nogpets/platform';
import {
  appendAudit,
  deleteOAuthRequest,
  deleteSession,
  findOAuthClient,
  findOAuthRequest,
  findOrCreateUser,
  findSessionUser,
  findUserByEmail,
  insertOAuthCode,
  insertSession,
  linkUpstreamIdentity,
  listConnections,
  listCredentials,
  revokeConnection,
  revokeCredential,
  setPassword,
  type UserRow,
} from '@nogpets/store';
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import express, { type Request, type Response, type Router } from 'express';
import html from 'html-template-tag';
import { page, STYLESHEET } from './layout.js';
import { CODE_SECONDS, newAuthorizationCode } from './oauth.js';
import { CALLBACK_PATH, createUpstreamLogin, UpstreamSignInError } from './upstream.js';

const SESSION_COOKIE = 'nogpets_session';
const SESSION_DAYS = 14;
const MIN_PASSWORD = 10;
/** Failed sign-ins allowed per client address and email in the window. */
export const SIGN_IN_TRIES = 10;
export const SIGN_IN_WINDOW_SEC = 15 * 60;

export interface PagesOptions {
  /** Secure cookies when served over https. */
  secureCookies: boolean;
}

function sessionToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  return header ? parseCookie(header)[SESSION_COOKIE] : undefined;
}

/** A form token bound to the session: a page of ours made it, not another site. */
function csrfFor(token: string): string {
  return createHmac('sha256', token).update('csrf').digest('base64url');
}

/** Only paths on this site, so `next` can never send a person elsewhere. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?!\/)[\w\-./?=&%]*$/.test(next) ? next : '/account';
}

const when = (d: Date | null) => (d ? d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : 'never');

function scopeList(scopes: string[]): string {
  return html`<ul class="scopes">$${scopes.map((s) => html`<li>${SCOPES[s as keyof typeof SCOPES] ?? s}</li>`).join('')}</ul>`;
}

/** Sign up, sign in, sign out and the account page (API keys and connected assistants). */
export function pagesRouter(runtime: Runtime, options: PagesOptions): Router {
  const router = express.Router();
  const { sql, clock } = runtime.deps;
  const upstream = createUpstreamLogin(runtime);
  const signInFailures = runtime.rateLimiter.failures('signin', SIGN_IN_TRIES, SIGN_IN_WINDOW_SEC);
  router.use(express.urlencoded({ extended: false, limit: '20kb' }));
  // Forms share the service's request limit; a refusal is a page, not JSON.
  router.post(['/signin', '/signup', '/oauth/consent', '/account/*path'], (req, res, next) =>
    runtime.rateLimiter.middleware(req, res, (err?: unknown) => {
      if (err instanceof ServiceError) res.status(err.status).type('html').send(page('Slow down', html`<p class="error">${err.message}</p>`));
      else next(err);
    }),
  );
  router.get('/static/site.css', (_req, res) => {
    res.type('text/css').setHeader('Cache-Control', 'public, max-age=3600').send(STYLESHEET);
  });
  router.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', "default-src 'self'; form-action 'self' http: https:; frame-ancestors 'none'");
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });

  async function signedIn(req: Request): Promise<{ user: UserRow; csrf: string; token: string } | null> {
    const token = sessionToken(req);
    if (!token) return null;
    const user = await findSessionUser(sql, hashSecret(token), clock.now());
    return user ? { user, csrf: csrfFor(token), token } : null;
  }

  async function startSession(res: Response, userId: string): Promise<void> {
    const token = randomBytes(32).toString('base64url');
    await insertSession(sql, userId, hashSecret(token), new Date(clock.now().getTime() + SESSION_DAYS * 86_400_000));
    res.setHeader(
      'Set-Cookie',
      serializeCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: options.secureCookies, path: '/', maxAge: SESSION_DAYS * 86_400 }),
    );
  }

  const signInForm = (next: string, error?: string, email = '') =>
    page(
      'Sign in',
      html`${error ? html`<p class="error">${error}</p>` : ''}
      <form method="post" action="/signin">
        <input type="hidden" name="next" value="${next}">
        <label for="email">Email</label><input id="email" type="email" name="email" value="${email}" required autocomplete="username">
        <label for="password">Password</label><input id="password" type="password" name="password" required autocomplete="current-password">
        <button type="submit">Sign in</button>
      </form>
      $${upstream ? html`<p><a class="button" href="/signin/oidc?next=${encodeURIComponent(next)}">Sign in with ${upstream.name}</a></p>` : ''}
      <p>New here? <a href="/signup?next=${encodeURIComponent(next)}">Create an account</a></p>`,
    );

  const upstreamProblem = (message: string) =>
    page('Sign-in did not work', html`<p class="error">${message}</p><p><a href="/signin">Back to sign in</a></p>`);

  router.get('/signin/oidc', async (req, res, next) => {
    try {
      if (!upstream) {
        res.status(404).type('html').send(upstreamProblem('Sign-in through another provider is not set up here.'));
        return;
      }
      res.redirect(303, (await upstream.begin(safeNext(req.query.next))).href);
    } catch (err) {
      if (err instanceof UpstreamSignInError) res.status(502).type('html').send(upstreamProblem(err.message));
      else next(err);
    }
  });

  router.get(CALLBACK_PATH, async (req, res, next) => {
    try {
      if (!upstream) {
        res.status(404).type('html').send(upstreamProblem('Sign-in through another provider is not set up here.'));
        return;
      }
      const identity = await upstream.finish(new URL(req.originalUrl, runtime.publicUrl()));
      const { user, linked } = await linkUpstreamIdentity(sql, identity, clock.now());
      if (linked) {
        await appendAudit(sql, { userId: user.id, clientId: null, clientName: null, action: 'account.link', target: user.id, details: { issuer: identity.issuer } }, clock.now());
      }
      await startSession(res, user.id);
      res.redirect(303, safeNext(identity.next));
    } catch (err) {
      if (err instanceof UpstreamSignInError) res.status(400).type('html').send(upstreamProblem(err.message));
      else next(err);
    }
  });

  router.get('/signin', (req, res) => {
    res.type('html').send(signInForm(safeNext(req.query.next)));
  });

  router.post('/signin', async (req, res, next) => {
    try {
      const email = String(req.body?.email ?? '');
      const password = String(req.body?.password ?? '');
      const target = safeNext(req.body?.next);
      // Guessing is slowed per address and email (docs/decisions.md); the count lives in PostgreSQL.
      const attempt = `${req.ip}|${email.trim().toLowerCase()}`;
      const wait = await signInFailures.blockedFor(attempt);
      if (wait) {
        res.status(429).setHeader('Retry-After', String(wait));
        res.type('html').send(signInForm(target, `Too many tries. Try again in ${Math.ceil(wait / 60)} minutes.`, email));
        return;
      }
      const user = await findUserByEmail(sql, email);
      // The same answer for an unknown email and a wrong password.
      if (!user?.passwordHash || !(await verify(user.passwordHash, password))) {
        await signInFailures.fail(attempt);
        res.status(401).type('html').send(signInForm(target, 'That email and password do not match.', email));
        return;
      }
      await signInFailures.clear(attempt);
      await startSession(res, user.id);
      res.redirect(303, target);
    } catch (err) {
      next(err);
    }
  });

  const signUpForm = (next: string, error?: string, email = '', name = '') =>
    page(
      'Create your account',
      html`${error ? html`<p class="error">${error}</p>` : ''}
      <form method="post" action="/signup">
        <input type="hidden" name="next" value="${next}">
        <label for="name">Your name</label><input id="name" type="text" name="name" value="${name}" required maxlength="120" autocomplete="name">
        <label for="email">Email</label><input id="email" type="email" name="email" value="${email}" required maxlength="254" autocomplete="username">
        <label for="password">Password (at least ${String(MIN_PASSWORD)} characters)</label><input id="password" type="password" name="password" required minlength="${String(MIN_PASSWORD)}" autocomplete="new-password">
        <button type="submit">Create account</button>
      </form>
      <p>Have an account? <a href="/signin?next=${encodeURIComponent(next)}">Sign in</a></p>`,
    );

  router.get('/signup', (req, res) => {
    res.type('html').send(signUpForm(safeNext(req.query.next)));
  });

  router.post('/signup', async (req, res, next) => {
    try {
      const email = String(req.body?.email ?? '').trim();
      const name = String(req.body?.name ?? '').trim().slice(0, 120);
      const password = String(req.body?.password ?? '');
      const target = safeNext(req.body?.next);
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 254) {
        res.status(400).type('html').send(signUpForm(target, 'That is not an email address.', email, name));
        return;
      }
      if (password.length < MIN_PASSWORD || password.length > 200) {
        res.status(400).type('html').send(signUpForm(target, `Choose a password of ${MIN_PASSWORD} to 200 characters.`, email, name));
        return;
      }
      const existing = await findUserByEmail(sql, email);
      if (existing?.passwordHash) {
        res.status(409).type('html').send(signUpForm(target, 'There is already an account with that email: sign in instead.', email, name));
        return;
      }
      // A person made earlier (an API key or a sign-up draft) claims the account by setting a password.
      const user = existing ?? (await findOrCreateUser(sql, email, name));
      await setPassword(sql, user.id, await hash(password), name || undefined);
      await appendAudit(sql, { userId: user.id, clientId: null, clientName: null, action: 'account.signup', target: user.id }, clock.now());
      await startSession(res, user.id);
      res.redirect(303, target);
    } catch (err) {
      next(err);
    }
  });

  async function requireSession(req: Request, res: Response) {
    const s = await signedIn(req);
    if (!s) {
      res.redirect(303, `/signin?next=${encodeURIComponent(req.originalUrl)}`);
      return null;
    }
    if (req.method === 'POST' && req.body?.csrf !== s.csrf) {
      res.status(403).type('html').send(page('Try again', html`<p class="error">This form has expired. <a href="/account">Go back</a> and try again.</p>`));
      return null;
    }
    return s;
  }

  router.post('/signout', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      await deleteSession(sql, hashSecret(s.token));
      res.setHeader('Set-Cookie', serializeCookie(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 0 }));
      res.redirect(303, '/signin');
    } catch (err) {
      next(err);
    }
  });

  async function accountPage(s: { user: UserRow; csrf: string }, created?: { key: string; scopes: string[] }, error?: string) {
    const now = clock.now();
    const [keys, connections] = await Promise.all([listCredentials(sql, s.user.id, 'API_KEY'), listConnections(sql, s.user.id, now)]);
    const liveKeys = keys.filter((k) => !k.revokedAt);
    return page(
      'Your account',
      html`<p>Signed in as <strong>${s.user.name || s.user.email}</strong> (${s.user.email}).</p>
      <h2>Connected assistants</h2>
      ${connections.length === 0 ? html`<p>No assistant is connected.</p>` : ''}
      $${
        connections.length
          ? html`<table id="connections"><tr><th>Assistant</th><th>What it may do</th><th>Connected</th><th>Last used</th><th></th></tr>
          $${connections
            .map(
              (c) => html`<tr><td>${c.clientName}</td><td>$${scopeList(c.scopes)}</td><td>${when(c.connectedAt)}</td><td>${when(c.lastUsedAt)}</td>
              <td><form method="post" action="/account/connections/${c.clientId}/remove"><input type="hidden" name="csrf" value="${s.csrf}"><button class="secondary" type="submit">Remove</button></form></td></tr>`,
            )
            .join('')}</table>`
          : ''
      }
      <h2>API keys</h2>
      ${error ? html`<p class="error">${error}</p>` : ''}
      $${
        created
          ? html`<p>Your new key, shown this once. Copy it now:</p><p class="secret" id="new-key">${created.key}</p>`
          : ''
      }
      $${
        liveKeys.length
          ? html`<table id="keys"><tr><th>Name</th><th>What it may do</th><th>Created</th><th>Last used</th><th></th></tr>
          $${liveKeys
            .map(
              (k) => html`<tr><td>${k.name}</td><td>$${scopeList(k.scopes)}</td><td>${when(k.createdAt)}</td><td>${when(k.lastUsedAt)}</td>
              <td><form method="post" action="/account/keys/${k.id}/revoke"><input type="hidden" name="csrf" value="${s.csrf}"><button class="secondary" type="submit">Revoke</button></form></td></tr>`,
            )
            .join('')}</table>`
          : html`<p>No API keys.</p>`
      }
      <form method="post" action="/account/keys">
        <input type="hidden" name="csrf" value="${s.csrf}">
        <label for="key-name">New key name</label><input id="key-name" type="text" name="name" maxlength="80" required>
        <fieldset><legend>It may</legend>
        $${SCOPE_NAMES.map((name) => html`<label><input type="checkbox" name="scopes" value="${name}"> ${SCOPES[name]}</label>`).join('')}
        </fieldset>
        <button type="submit">Create key</button>
      </form>`,
      { email: s.user.email, csrf: s.csrf },
    );
  }

  router.get('/oauth/consent', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      const request = await findOAuthRequest(sql, String(req.query.request ?? ''), clock.now());
      if (!request) {
        res.status(400).type('html').send(page('Link expired', html`<p class="error">This request has expired or was already answered. Go back to your assistant and connect again.</p>`, { email: s.user.email, csrf: s.csrf }));
        return;
      }
      const client = await findOAuthClient(sql, request.clientId);
      const host = new URL(request.redirectUri).host;
      res.type('html').send(
        page(
          'Connect an assistant',
          html`<p><strong>${client?.name ?? 'An assistant'}</strong> (returning to ${host}${client?.kind === 'METADATA_DOCUMENT' ? `, described by ${new URL(client.id).host}` : ''}) asks to act for you, ${s.user.email}. It will be able to:</p>
          $${scopeList(request.scopes)}
          <p>You can remove it at any time under Connected assistants on your account page. You approve all money yourself.</p>
          <form method="post" action="/oauth/consent">
            <input type="hidden" name="csrf" value="${s.csrf}">
            <input type="hidden" name="request" value="${request.id}">
            <button type="submit" name="decision" value="approve">Allow</button>
            <button class="secondary" type="submit" name="decision" value="deny">Deny</button>
          </form>`,
          { email: s.user.email, csrf: s.csrf },
        ),
      );
    } catch (err) {
      next(err);
    }
  });

  router.post('/oauth/consent', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      const request = await findOAuthRequest(sql, String(req.body?.request ?? ''), clock.now());
      // One answer per request: deleting it is what makes a second click do nothing.
      if (!request || !(await deleteOAuthRequest(sql, request.id))) {
        res.status(400).type('html').send(page('Link expired', html`<p class="error">This request has expired or was already answered.</p>`));
        return;
      }
      const to = new URL(request.redirectUri);
      if (request.state) to.searchParams.set('state', request.state);
      // RFC 9207: exactly the issuer of our metadata (the SDK's issuer URL, with its trailing slash).
      to.searchParams.set('iss', new URL(runtime.publicUrl()).href);
      if (req.body?.decision !== 'approve') {
        to.searchParams.set('error', 'access_denied');
        res.redirect(303, to.href);
        return;
      }
      const code = newAuthorizationCode();
      await insertOAuthCode(sql, hashSecret(code), {
        clientId: request.clientId,
        userId: s.user.id,
        redirectUri: request.redirectUri,
        scopes: request.scopes,
        codeChallenge: request.codeChallenge,
        resource: request.resource,
        familyId: randomUUID(),
        expiresAt: new Date(clock.now().getTime() + CODE_SECONDS * 1000),
      });
      await appendAudit(sql, { userId: s.user.id, clientId: request.clientId, clientName: null, action: 'connection.approve', target: request.clientId, details: { scopes: request.scopes } }, clock.now());
      to.searchParams.set('code', code);
      res.redirect(303, to.href);
    } catch (err) {
      next(err);
    }
  });

  router.get('/account', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (s) res.type('html').send(await accountPage(s));
    } catch (err) {
      next(err);
    }
  });

  router.post('/account/keys', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      const scopes = [req.body?.scopes ?? []].flat().map(String);
      const name = String(req.body?.name ?? '').trim().slice(0, 80) || 'API key';
      try {
        const created = await createApiKey(sql, { email: s.user.email, scopes, name });
        await appendAudit(sql, { userId: s.user.id, clientId: null, clientName: null, action: 'apikey.create', target: created.id, details: { scopes } }, clock.now());
        res.type('html').send(await accountPage(s, created));
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        res.status(400).type('html').send(await accountPage(s, undefined, scopes.length ? err.message : 'Choose at least one thing the key may do.'));
      }
    } catch (err) {
      next(err);
    }
  });

  router.post('/account/keys/:id/revoke', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      if (await revokeCredential(sql, s.user.id, String(req.params.id), clock.now())) {
        await appendAudit(sql, { userId: s.user.id, clientId: null, clientName: null, action: 'apikey.revoke', target: String(req.params.id) }, clock.now());
      }
      res.redirect(303, '/account');
    } catch (err) {
      next(err);
    }
  });

  router.post('/account/connections/:clientId/remove', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      const revoked = await revokeConnection(sql, s.user.id, String(req.params.clientId), clock.now());
      if (revoked) {
        await appendAudit(sql, { userId: s.user.id, clientId: String(req.params.clientId), clientName: null, action: 'connection.remove', target: String(req.params.clientId), details: { tokens: revoked } }, clock.now());
      }
      res.redirect(303, '/account');
    } catch (err) {
      next(err);
    }
  });

  return router;
}
