import {
  cutText,
  identityOperations as identity,
  isEmailAddress,
  pageOperations,
  momentText,
  MAX_PASSWORD,
  MIN_PASSWORD,
  passwordProblem,
  SCOPE_NAMES,
  SCOPES,
  ServiceError,
  SIGN_IN_LINK_MINUTES,
  SIGN_IN_LINK_PATH,
  type SignInLinkReason,
  type WebSession,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { UserRow } from '@nogpets/operations';
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import express, { type Request, type Response, type Router } from 'express';
import html from 'html-template-tag';
import { personCall, run, visitorCall } from './calls.js';
import { careRoutes, careSections, loadCare, type Notice } from './account-care.js';
import { type FeedShown, feedRoutes, feedsSection } from './calendar-feeds.js';
import { draftRoutes } from './business-continue.js';
import { BUSINESS_NOTIFICATIONS_PATH, businessNotificationRoutes } from './business-notification-pages.js';
import { CONFIRM_PATH, confirmRoutes } from './confirm-pages.js';
import { businessRoutes } from './business-pages.js';
import { formTokens, limitRequestsAsPage, refuseCrossSitePosts, refuseUnstorableFormText } from './forms.js';
import { homeRoutes, START_PATH } from './home.js';
import { invitationRoutes } from './invitation-pages.js';
import { linkMailRefused } from './link-mail-refused.js';
import { mailSection, noticeRoutes } from './notice-pages.js';
import { FAVICON_SVG, page, STYLESHEET } from './layout.js';
import { operatorRoutes } from './operator-console.js';
import { type PageSession, SESSION_COOKIE, sessionReader } from './session.js';
import { CALLBACK_PATH, createUpstreamLogin, UpstreamSignInError } from './upstream.js';

/** Failed sign-ins allowed per client address and email in the window. */
export const SIGN_IN_TRIES = 10;
export const SIGN_IN_WINDOW_SEC = 15 * 60;
const OIDC_STATE_COOKIE = 'nogpets_oidc_state';

export interface PagesOptions {
  /** Secure cookies when served over https. */
  secureCookies: boolean;
}

/** Only paths on this site, so `next` can never send a person elsewhere. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?!\/)[\w\-./?=&%]*$/.test(next) ? next : '/account';
}

/** When something happened, in the person's zone (their own account page). */
const when = (d: Date | null, timeZone: string) => (d ? momentText(d, timeZone) : 'never');

function scopeList(scopes: string[]): string {
  return html`<ul class="scopes">$${scopes.map((s) => html`<li>${SCOPES[s as keyof typeof SCOPES] ?? s}</li>`).join('')}</ul>`;
}

/** Where the pages live (the router is mounted last; other paths pass through to the 404). */
const PAGE_PATHS = [
  '/',
  START_PATH,
  '/signin',
  '/signin/*path',
  '/signup',
  '/signout',
  '/oauth/consent',
  '/account',
  '/account/*path',
  '/business/applications',
  '/business/applications/*path',
  '/business/drafts/*path',
  BUSINESS_NOTIFICATIONS_PATH,
  `${CONFIRM_PATH}/*path`,
  '/invitations/*path',
  '/operator',
  '/operator/*path',
];

/** Sign up, sign in, sign out and the account page (API keys and connected assistants). */
export function pagesRouter(runtime: Runtime, options: PagesOptions): Router {
  const router = express.Router();
  const upstream = createUpstreamLogin(runtime);
  const signInFailures = runtime.rateLimiter.failures('signin', SIGN_IN_TRIES, SIGN_IN_WINDOW_SEC);
  const tokens = formTokens(runtime);
  router.use(express.urlencoded({ extended: false, limit: '20kb' }));
  // Text that cannot be stored, in a page's path, query or form, is a 400 page before anything runs.
  // `use` matches by prefix, so the home page ('/') is checked on its own path only: any other path
  // (an unknown one on its way to the 404, under /v1 a JSON one) is not the pages' to answer.
  router.use(
    PAGE_PATHS.filter((p) => p !== '/'),
    refuseUnstorableFormText,
  );
  router.all('/', refuseUnstorableFormText);
  const FORM_PATHS = [
    START_PATH,
    '/signin',
    '/signup',
    '/signin/link',
    SIGN_IN_LINK_PATH,
    '/signout',
    '/oauth/consent',
    '/account/*path',
    '/business/drafts/*path',
    BUSINESS_NOTIFICATIONS_PATH,
    `${CONFIRM_PATH}/*path`,
    '/invitations/*path',
    '/operator/*path',
  ];
  // Forms share the service's request limit; a refusal is a page, not JSON.
  router.post(FORM_PATHS, limitRequestsAsPage(runtime));
  router.get('/static/site.css', (_req, res) => {
    res.type('text/css').setHeader('Cache-Control', 'public, max-age=3600').send(STYLESHEET);
  });
  // Browsers ask for /favicon.ico whatever the page says; both answer the one SVG icon.
  router.get(['/favicon.svg', '/favicon.ico'], (_req, res) => {
    res.type('image/svg+xml').setHeader('Cache-Control', 'public, max-age=86400').send(FAVICON_SVG);
  });
  router.use((_req, res, next) => {
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; form-action 'self' http: https:; frame-ancestors 'none'",
    );
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Pages show keys, links and personal details: never kept by a browser or proxy cache.
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // Every form here is ours: a post from another site's page is refused before anything runs.
  // (Only these paths: the API, mounted before this router, serves cross-site clients by design.)
  router.post(FORM_PATHS, refuseCrossSitePosts(runtime));

  /** The pre-session form token for the forms people use before signing in (login CSRF). */
  const preToken = async (req: Request, res: Response) =>
    tokens.tokenFor(tokens.presession(req, res, options.secureCookies));

  /** A pre-session form whose token does not match: refused with a page, nothing done. */
  async function refusedPresession(req: Request, res: Response): Promise<boolean> {
    if (await tokens.matches(tokens.presessionOf(req), req.body?.csrf)) return false;
    res
      .status(403)
      .type('html')
      .send(
        page(
          'Try again',
          html`<p class="error">This form has expired. Reload the page and try again.</p>`,
          (await signedIn(req)) ?? undefined,
        ),
      );
    return true;
  }

  /** The signed-in person, with their form token and which header links they get. */
  const signedIn = sessionReader(runtime, tokens);

  /** Gives the browser its new session's cookie. */
  function setSessionCookie(res: Response, session: WebSession): void {
    res.append(
      'Set-Cookie',
      serializeCookie(SESSION_COOKIE, session.token, {
        httpOnly: true,
        sameSite: 'lax',
        secure: options.secureCookies,
        path: '/',
        maxAge: session.maxAgeSeconds,
      }),
    );
  }

  // The sign-in, sign-up and link forms show the same header as every page: to someone already
  // signed in (who may be switching accounts), their links and sign out.
  const signInForm = (csrf: string, next: string, error?: string, email = '', who?: PageSession | null) =>
    page(
      'Sign in',
      html`$${error ? html`<p class="error">${error}</p>` : ''}
      <form method="post" action="/signin">
        <input type="hidden" name="csrf" value="${csrf}">
        <input type="hidden" name="next" value="${next}">
        <label for="email">Email</label><input id="email" type="email" name="email" value="${email}" required autocomplete="username">
        <label for="password">Password</label><input id="password" type="password" name="password" required autocomplete="current-password">
        <button type="submit">Sign in</button>
      </form>
      $${upstream ? html`<p><a class="button" href="/signin/oidc?next=${encodeURIComponent(next)}">Sign in with ${upstream.name}</a></p>` : ''}
      <p>No password, or forgotten it? <a href="/signin/link?next=${encodeURIComponent(next)}">Email me a sign-in link</a></p>
      <p>New here? <a href="/signup?next=${encodeURIComponent(next)}">Create an account</a></p>`,
      who ?? undefined,
    );

  const upstreamProblem = (message: string) =>
    page(
      'Sign-in did not work',
      html`<p class="error">${message}</p><p><a href="/signin">Back to sign in</a></p>`,
    );

  router.get('/signin/oidc', async (req, res, next) => {
    try {
      if (!upstream) {
        res
          .status(404)
          .type('html')
          .send(upstreamProblem('Sign-in through another provider is not set up here.'));
        return;
      }
      const to = await upstream.begin(safeNext(req.query.next));
      // The callback must come back to this browser: a login another browser started is refused
      // (an attacker's half-finished sign-in would otherwise sign the victim in as the attacker).
      res.setHeader(
        'Set-Cookie',
        serializeCookie(OIDC_STATE_COOKIE, to.searchParams.get('state') ?? '', {
          httpOnly: true,
          sameSite: 'lax',
          secure: options.secureCookies,
          path: CALLBACK_PATH,
          maxAge: 600,
        }),
      );
      res.redirect(303, to.href);
    } catch (err) {
      if (err instanceof UpstreamSignInError) res.status(502).type('html').send(upstreamProblem(err.message));
      else next(err);
    }
  });

  router.get(CALLBACK_PATH, async (req, res, next) => {
    try {
      if (!upstream) {
        res
          .status(404)
          .type('html')
          .send(upstreamProblem('Sign-in through another provider is not set up here.'));
        return;
      }
      const started = req.headers.cookie ? parseCookie(req.headers.cookie)[OIDC_STATE_COOKIE] : undefined;
      if (!started || started !== req.query.state) {
        res
          .status(400)
          .type('html')
          .send(
            upstreamProblem(
              'This sign-in was not started in this browser. Start again from the sign-in page.',
            ),
          );
        return;
      }
      res.append(
        'Set-Cookie',
        serializeCookie(OIDC_STATE_COOKIE, '', {
          httpOnly: true,
          sameSite: 'lax',
          path: CALLBACK_PATH,
          maxAge: 0,
        }),
      );
      const { next: goTo, ...verified } = await upstream.finish(
        new URL(req.originalUrl, runtime.publicUrl()),
      );
      setSessionCookie(
        res,
        await run(identity.signInWithUpstreamIdentityOp, visitorCall(runtime, req), verified),
      );
      res.redirect(303, safeNext(goTo));
    } catch (err) {
      if (err instanceof UpstreamSignInError) res.status(400).type('html').send(upstreamProblem(err.message));
      else next(err);
    }
  });

  router.get('/signin', async (req, res, next) => {
    try {
      res
        .type('html')
        .send(
          signInForm(await preToken(req, res), safeNext(req.query.next), undefined, '', await signedIn(req)),
        );
    } catch (err) {
      next(err);
    }
  });

  router.post('/signin', async (req, res, next) => {
    try {
      const email = String(req.body?.email ?? '');
      const password = String(req.body?.password ?? '');
      const target = safeNext(req.body?.next);
      if (await refusedPresession(req, res)) return;
      const csrf = await preToken(req, res);
      // Guessing is slowed per address and email (docs/decisions.md); the count lives in PostgreSQL.
      const attempt = `${req.ip}|${email.trim().toLowerCase()}`;
      const wait = await signInFailures.blockedFor(attempt);
      if (wait) {
        res.status(429).setHeader('Retry-After', String(wait));
        res
          .type('html')
          .send(
            signInForm(csrf, target, `Too many tries. Try again in ${Math.ceil(wait / 60)} minutes.`, email),
          );
        return;
      }
      // The same answer, in the same time, for an unknown email and a wrong password.
      const session = await run(identity.signInWithPasswordOp, visitorCall(runtime, req), {
        email,
        password,
      });
      if (!session) {
        await signInFailures.fail(attempt);
        res
          .status(401)
          .type('html')
          .send(signInForm(csrf, target, 'That email and password do not match.', email));
        return;
      }
      await signInFailures.clear(attempt);
      setSessionCookie(res, session);
      res.redirect(303, target);
    } catch (err) {
      next(err);
    }
  });

  const signUpForm = (
    csrf: string,
    next: string,
    error?: string,
    email = '',
    name = '',
    who?: PageSession | null,
  ) =>
    page(
      'Create your account',
      html`$${error ? html`<p class="error">${error}</p>` : ''}
      <form method="post" action="/signup">
        <input type="hidden" name="csrf" value="${csrf}">
        <input type="hidden" name="next" value="${next}">
        <label for="name">Your name</label><input id="name" type="text" name="name" value="${name}" required maxlength="120" autocomplete="name">
        <label for="email">Email</label><input id="email" type="email" name="email" value="${email}" required maxlength="254" autocomplete="username">
        <button type="submit">Create account</button>
      </form>
      <p>We mail you a link to confirm the address; you choose your password on the page it opens.</p>
      <p>Have an account? <a href="/signin?next=${encodeURIComponent(next)}">Sign in</a></p>`,
      who ?? undefined,
    );

  /**
   * Mails a sign-in link, at most LINK_MAILS_PER_HOUR per address (all link mails together), and
   * answers with the same page whoever owns the address: the mail, not the page, says whether an
   * account exists. Past the limit, the same refusal for every address.
   */
  async function mailLinkAndAnswer(
    req: Request,
    res: Response,
    request: { email: string; reason: SignInLinkReason; next: string; name?: string },
  ) {
    try {
      await run(identity.sendSignInLinkOp, visitorCall(runtime, req), {
        ...request,
        publicUrl: runtime.publicUrl(),
      });
    } catch (err) {
      if (!(err instanceof ServiceError) || err.code !== 'RateLimited') throw err;
      req.log?.warn({ reason: request.reason }, 'sign-in link mail held back: too many for this address');
      res.status(429).setHeader('Retry-After', String(err.details.retryAfterSeconds));
      res.type('html').send(linkMailRefused(err, request.email, '/signin', await signedIn(req)));
      return;
    }
    const outbox = runtime.deps.mail
      ? ''
      : html`<p class="note">This NogPets has no mail server set up (<code>SMTP_URL</code>), so mail waits in its outbox: whoever runs it reads it with <code>pnpm cli mail list</code>.</p>`;
    res.type('html').send(
      page(
        'Check your email',
        html`<p id="outcome">We have sent a mail to <strong>${request.email}</strong>. It says what to do next: open its link within ${String(SIGN_IN_LINK_MINUTES)} minutes. The link works once.</p>
        <p>${request.reason === 'signup' ? 'If that address already has an account, the mail says so and signs you in to it; nothing about it changes until the link is opened.' : 'If that address has no account, no mail is sent: create an account instead.'}</p>
        $${outbox}
        <p><a href="/signin">Back to sign in</a></p>`,
      ),
    );
  }

  router.get('/signup', async (req, res, next) => {
    try {
      res
        .type('html')
        .send(
          signUpForm(
            await preToken(req, res),
            safeNext(req.query.next),
            undefined,
            '',
            '',
            await signedIn(req),
          ),
        );
    } catch (err) {
      next(err);
    }
  });

  router.post('/signup', async (req, res, next) => {
    try {
      const email = String(req.body?.email ?? '').trim();
      // Control characters are not part of a name (NUL never gets here: the form door refuses it).
      const name = cutText(
        Array.from(String(req.body?.name ?? ''), (c) => (c < ' ' || c === '\u007f' ? ' ' : c))
          .join('')
          .trim(),
        120,
      );
      const target = safeNext(req.body?.next);
      if (await refusedPresession(req, res)) return;
      if (!isEmailAddress(email)) {
        res
          .status(400)
          .type('html')
          .send(signUpForm(await preToken(req, res), target, 'That is not an email address.', email, name));
        return;
      }
      // Nobody is signed in and no account is made or changed here: the mailed link proves the
      // address first (an account made by an API key or a sign-up draft has no password to check).
      await mailLinkAndAnswer(req, res, { email, reason: 'signup', next: target, name });
    } catch (err) {
      next(err);
    }
  });

  const linkRequestForm = (
    csrf: string,
    next: string,
    error?: string,
    email = '',
    who?: PageSession | null,
  ) =>
    page(
      'Email me a sign-in link',
      html`$${error ? html`<p class="error">${error}</p>` : ''}
      <p>For an account without a password (made by an assistant, an API key or a sign-up draft), or when you have forgotten yours.</p>
      <form method="post" action="/signin/link">
        <input type="hidden" name="csrf" value="${csrf}">
        <input type="hidden" name="next" value="${next}">
        <label for="email">Email</label><input id="email" type="email" name="email" value="${email}" required maxlength="254" autocomplete="username">
        <button type="submit">Send the link</button>
      </form>`,
      who ?? undefined,
    );

  router.get('/signin/link', async (req, res, next) => {
    try {
      res
        .type('html')
        .send(
          linkRequestForm(
            await preToken(req, res),
            safeNext(req.query.next),
            undefined,
            '',
            await signedIn(req),
          ),
        );
    } catch (err) {
      next(err);
    }
  });

  router.post('/signin/link', async (req, res, next) => {
    try {
      const email = String(req.body?.email ?? '').trim();
      const target = safeNext(req.body?.next);
      if (await refusedPresession(req, res)) return;
      if (!isEmailAddress(email)) {
        res
          .status(400)
          .type('html')
          .send(linkRequestForm(await preToken(req, res), target, 'That is not an email address.', email));
        return;
      }
      await mailLinkAndAnswer(req, res, { email, reason: 'signin', next: target });
    } catch (err) {
      next(err);
    }
  });

  const linkGone = () =>
    page(
      'Link expired',
      html`<p class="error">This sign-in link has expired or was already used.</p><p><a href="/signin/link">Ask for a new one</a></p>`,
    );

  const linkPage = (csrf: string, token: string, email: string, error?: string) =>
    page(
      'Sign in',
      html`$${error ? html`<p class="error">${error}</p>` : ''}
      <p>Sign in to NogPets as <strong>${email}</strong>.</p>
      <form method="post" action="/signin/email">
        <input type="hidden" name="csrf" value="${csrf}">
        <input type="hidden" name="token" value="${token}">
        <label for="password">Choose a password (optional, at least ${String(MIN_PASSWORD)} characters; it replaces any you had)</label>
        <input id="password" type="password" name="password" minlength="${String(MIN_PASSWORD)}" maxlength="${String(MAX_PASSWORD)}" autocomplete="new-password">
        <button type="submit">Continue as ${email}</button>
      </form>
      <p>If you did not ask for this, close this page: nothing happens.</p>`,
    );

  // Opening the link only shows whose account it is; signing in takes a click on our own page.
  // So a mail scanner that fetches links does not use it up, and a link someone else sent you
  // cannot sign you in to their account unseen.
  router.get(SIGN_IN_LINK_PATH, async (req, res, next) => {
    try {
      const token = String(req.query.token ?? '');
      const link = token ? await run(identity.peekSignInLinkOp, visitorCall(runtime, req), { token }) : null;
      if (!link) {
        res.status(400).type('html').send(linkGone());
        return;
      }
      res.type('html').send(linkPage(await preToken(req, res), token, link.email));
    } catch (err) {
      next(err);
    }
  });

  router.post(SIGN_IN_LINK_PATH, async (req, res, next) => {
    try {
      if (await refusedPresession(req, res)) return;
      const token = String(req.body?.token ?? '');
      const password = String(req.body?.password ?? '');
      const call = visitorCall(runtime, req);
      const problem = password ? passwordProblem(password) : null;
      if (problem) {
        const link = await run(identity.peekSignInLinkOp, call, { token });
        if (!link) res.status(400).type('html').send(linkGone());
        else
          res
            .status(400)
            .type('html')
            .send(linkPage(await preToken(req, res), token, link.email, problem));
        return;
      }
      // A made-up token costs no password hashing.
      if (!(await run(identity.peekSignInLinkOp, call, { token }))) {
        res.status(400).type('html').send(linkGone());
        return;
      }
      const followed = await run(identity.followSignInLinkOp, call, {
        token,
        password: password || null,
      });
      if (!followed) {
        res.status(400).type('html').send(linkGone());
        return;
      }
      setSessionCookie(res, followed.session);
      res.redirect(303, safeNext(followed.next));
    } catch (err) {
      next(err);
    }
  });

  async function requireSession(req: Request, res: Response) {
    const s = await signedIn(req);
    if (!s) {
      // After signing in, a form's post cannot be repeated: back to the page it came from.
      const back = req.method === 'GET' ? req.originalUrl : '/account';
      res.redirect(303, `/signin?next=${encodeURIComponent(back)}`);
      return null;
    }
    if (req.method === 'POST' && !(await tokens.matches(s.token, req.body?.csrf))) {
      res
        .status(403)
        .type('html')
        .send(
          page(
            'Try again',
            html`<p class="error">This form has expired. <a href="/account">Go back</a> and try again.</p>`,
          ),
        );
      return null;
    }
    return s;
  }

  router.post('/signout', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      await run(identity.endWebSessionOp, personCall(runtime, req, s.user.id), { token: s.token });
      res.setHeader(
        'Set-Cookie',
        serializeCookie(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 0 }),
      );
      res.redirect(303, '/signin');
    } catch (err) {
      next(err);
    }
  });

  async function accountPage(
    req: Request,
    s: { user: UserRow; csrf: string },
    shown: {
      created?: { key: string; scopes: string[] };
      error?: string;
      notice?: Notice;
      feed?: FeedShown;
    } = {},
  ) {
    const { created, error, notice, feed } = shown;
    const ctx = personCall(runtime, req, s.user.id);
    const [liveKeys, connections, care, mail, feeds, managed] = await Promise.all([
      run(identity.listApiKeysOp, ctx, {}),
      run(identity.listAssistantConnectionsOp, ctx, {}),
      loadCare(ctx),
      run(pageOperations.noticeChoices, ctx, {}),
      run(pageOperations.ownCalendarFeeds, ctx, {}),
      run(pageOperations.managedBusinesses, ctx, {}),
    ]);
    return page(
      'Your account',
      html`<p>Signed in as <strong>${s.user.name || s.user.email}</strong> (${s.user.email}).</p>
      <nav class="sections"><a href="#bookings">Bookings</a> · <a href="#orders">Orders</a> · <a href="#pets">Pets</a> · <a href="#addresses">Addresses</a> · <a href="#calendar">Calendar</a> · <a href="#assistants">Assistants</a> · <a href="#api-keys">API keys</a> · <a href="#mail">Mail</a></nav>
      $${careSections(care, s.csrf, notice)}
      $${feedsSection(feeds, s.csrf, care.timeZone, feed)}
      $${mailSection(mail.choices, s.csrf, undefined, managed.length > 0)}
      <h2 id="assistants">Connected assistants</h2>
      $${connections.length === 0 ? html`<p>No assistant is connected.</p>` : ''}
      $${
        connections.length
          ? html`<table id="connections"><tr><th>Assistant</th><th>What it may do</th><th>Connected</th><th>Last used</th><th></th></tr>
          $${connections
            .map(
              (
                c,
              ) => html`<tr><td>${c.clientName}</td><td>$${scopeList(c.scopes)}</td><td data-label="Connected">${when(c.connectedAt, care.timeZone)}</td><td data-label="Last used">${when(c.lastUsedAt, care.timeZone)}</td>
              <td><form method="post" action="/account/connections/${c.clientId}/remove"><input type="hidden" name="csrf" value="${s.csrf}"><button class="secondary" type="submit">Remove</button></form></td></tr>`,
            )
            .join('')}</table>`
          : ''
      }
      <h2 id="api-keys">API keys</h2>
      $${error ? html`<p class="error">${error}</p>` : ''}
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
              (
                k,
              ) => html`<tr><td>${k.name}</td><td>$${scopeList(k.scopes)}</td><td data-label="Created">${when(k.createdAt, care.timeZone)}</td><td data-label="Last used">${when(k.lastUsedAt, care.timeZone)}</td>
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
      s,
    );
  }

  router.get('/oauth/consent', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      const found = await run(identity.findAuthorizationRequestOp, personCall(runtime, req, s.user.id), {
        requestId: String(req.query.request ?? ''),
      });
      if (!found) {
        res
          .status(400)
          .type('html')
          .send(
            page(
              'Link expired',
              html`<p class="error">This request has expired or was already answered. Go back to your assistant and connect again.</p>`,
              s,
            ),
          );
        return;
      }
      const { request, client } = found;
      const host = new URL(request.redirectUri).host;
      // The answer redirects to the assistant, which may be an app's own scheme (cursor:, com.example:);
      // browsers apply form-action to that redirect, so this page leaves it out.
      res.setHeader('Content-Security-Policy', "default-src 'self'; frame-ancestors 'none'");
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
          s,
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
      const answer = await run(identity.answerAuthorizationRequestOp, personCall(runtime, req, s.user.id), {
        requestId: String(req.body?.request ?? ''),
        approve: req.body?.decision === 'approve',
      });
      if (!answer) {
        res
          .status(400)
          .type('html')
          .send(
            page(
              'Link expired',
              html`<p class="error">This request has expired or was already answered.</p>`,
            ),
          );
        return;
      }
      const to = new URL(answer.redirectUri);
      if (answer.state) to.searchParams.set('state', answer.state);
      // RFC 9207: exactly the issuer of our metadata (the SDK's issuer URL, with its trailing slash).
      to.searchParams.set('iss', new URL(runtime.publicUrl()).href);
      if (answer.code) to.searchParams.set('code', answer.code);
      else to.searchParams.set('error', 'access_denied');
      res.redirect(303, to.href);
    } catch (err) {
      next(err);
    }
  });

  router.get('/account', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (s) res.type('html').send(await accountPage(req, s));
    } catch (err) {
      next(err);
    }
  });

  router.post('/account/keys', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      const scopes = [req.body?.scopes ?? []].flat().map(String);
      const name = cutText(String(req.body?.name ?? '').trim(), 80) || 'API key';
      try {
        const created = await run(identity.createAccountApiKeyOp, personCall(runtime, req, s.user.id), {
          scopes,
          name,
        });
        res.type('html').send(await accountPage(req, s, { created }));
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        res
          .status(400)
          .type('html')
          .send(
            await accountPage(req, s, {
              error: scopes.length ? err.message : 'Choose at least one thing the key may do.',
            }),
          );
      }
    } catch (err) {
      next(err);
    }
  });

  router.post('/account/keys/:id/revoke', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      await run(identity.revokeApiKeyOp, personCall(runtime, req, s.user.id), {
        keyId: String(req.params.id),
      });
      res.redirect(303, '/account');
    } catch (err) {
      next(err);
    }
  });

  router.post('/account/connections/:clientId/remove', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      await run(identity.removeConnectionOp, personCall(runtime, req, s.user.id), {
        clientId: String(req.params.clientId),
      });
      res.redirect(303, '/account');
    } catch (err) {
      next(err);
    }
  });

  homeRoutes(router, { runtime, signedIn, preToken, refusedPresession });
  businessRoutes(router, { runtime, requireSession });
  draftRoutes(router, { runtime, requireSession, signedIn, preToken, refusedPresession });
  operatorRoutes(router, { runtime, requireSession });
  invitationRoutes(router, { runtime, requireSession });
  noticeRoutes(router, { runtime, requireSession });
  businessNotificationRoutes(router, { runtime, requireSession });
  confirmRoutes(router, { runtime, requireSession });
  feedRoutes(router, {
    runtime,
    requireSession,
    async showAccount(res, s, feed, status = 200) {
      res
        .status(status)
        .type('html')
        .send(await accountPage(res.req, s, { feed }));
    },
  });
  careRoutes(router, {
    runtime,
    requireSession,
    async showAccount(res, s, notice, status = 200) {
      res
        .status(status)
        .type('html')
        .send(await accountPage(res.req, s, { notice }));
    },
  });

  return router;
}
