// The page of a no-login sign-up draft (prepareBusinessSignup's `continueUrl`): the person signs in
// by a link mailed to the draft's email, then gives what a draft lacks (prices, where they work,
// who works and when), sees the summary and sends it for review. Every change runs the sign-up
// operation an assistant would call, as the person themselves. A refused form is answered with a
// redirect back to the page (Post/Redirect/Get), which says why at the top.

import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  type Application,
  addBusinessServices,
  addResources,
  DAY_KEYS,
  type DraftForPage,
  getSignupStatus,
  identityOperations as identity,
  isEmailAddress,
  type OperationContext,
  pageOperations,
  parseSaidPrice,
  runOperation,
  ServiceError,
  SIGN_IN_LINK_MINUTES,
  setOperatingHours,
  setServiceArea,
  startBusinessSignup,
  stillNeeded,
  submitBusinessForReview,
  timezoneChoices,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { UserRow } from '@nogpets/operations';
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import type { Request, Response, Router } from 'express';
import html from 'html-template-tag';
import { badInputPage, isBadInput, personCall, run, visitorCall } from './calls.js';
import { page } from './layout.js';
import { linkMailRefused } from './link-mail-refused.js';

type Session = { user: UserRow; csrf: string };

export interface DraftPagesDeps {
  runtime: Runtime;
  /** The signed-in person, or null (nothing is answered). */
  signedIn(req: Request): Promise<Session | null>;
  /** The signed-in person for a form post (its token checked), else an answer was sent. */
  requireSession(req: Request, res: Response): Promise<Session | null>;
  /** The pre-session form token, for the form a person uses before signing in. */
  preToken(req: Request, res: Response): Promise<string>;
  /** True when a pre-session form's token did not match (a page was sent). */
  refusedPresession(req: Request, res: Response): Promise<boolean>;
}

const DAY_NAMES = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
} as const;
/** The week's days in the engine's order, with their names. */
const DAYS = DAY_KEYS.map((key) => [key, DAY_NAMES[key]] as const);

type Line = 'grooming' | 'walking' | 'sitting';
const LINE_ORDER: readonly Line[] = ['grooming', 'walking', 'sitting'];

/** Who does the work of each line, as the page asks how many: a van or a salon table for grooming. */
interface Worker {
  field: string;
  kind: 'VAN' | 'WALKER' | 'SITTER';
  label: string;
  name: string;
}
const VANS: Worker = { field: 'count_grooming', kind: 'VAN', label: 'Vans', name: 'Van' };
const TABLES: Worker = { field: 'count_tables', kind: 'VAN', label: 'Salon tables', name: 'Table' };
const WALKERS: Worker = { field: 'count_walking', kind: 'WALKER', label: 'Walkers', name: 'Walker' };
const SITTERS: Worker = { field: 'count_sitting', kind: 'SITTER', label: 'Sitters', name: 'Sitter' };

/** The lines the application offers: its categories, else those of its services. */
const offeredOf = (a: Application): Line[] => {
  const named = new Set<string>([...a.categories, ...a.services.map((s) => s.category)]);
  return LINE_ORDER.filter((c) => named.has(c));
};

/** The "how many" fields for the lines that have nobody yet, with the number each starts at. */
function workersWanted(a: Application): { worker: Worker; start: number }[] {
  const wanted: { worker: Worker; start: number }[] = [];
  for (const c of offeredOf(a)) {
    if (c === 'grooming') {
      if (a.resources.some((r) => r.kind === 'VAN')) continue;
      if (a.mode !== 'SALON') wanted.push({ worker: VANS, start: 1 });
      if (a.mode !== 'MOBILE') wanted.push({ worker: TABLES, start: a.mode === 'SALON' ? 1 : 0 });
    } else {
      const worker = c === 'walking' ? WALKERS : SITTERS;
      if (!a.resources.some((r) => r.kind === worker.kind)) wanted.push({ worker, start: 1 });
    }
  }
  return wanted;
}

const LINE_WORDS: Record<Line, string> = { grooming: 'Grooming', walking: 'Walking', sitting: 'Sitting' };

/** "a•••@example.com": enough for the person to know it, not enough for a stranger holding the link. */
const masked = (email: string) => {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
};

const hidden = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`;
const pathOf = (id: string) => `/business/drafts/${id}`;

const gone = () =>
  page(
    'Draft not found',
    html`<p class="error">There is no sign-up draft here. A draft is kept 30 days; after that it is removed.</p>
    <p>Ask your assistant to prepare a new one, or <a href="/business/applications">see your applications</a>.</p>`,
  );

/** The words of the checklist that still stand between the application and the review. */
function missingList(a: Application): string {
  const open = stillNeeded(a.checklist);
  if (!open.length)
    return html`<p id="missing" class="notice">Nothing is missing: read the summary below and send it.</p>`;
  return html`<h2>What is missing</h2><ul id="missing">$${open
    .map(
      (i) =>
        html`<li><strong>${i.title}</strong><ul>$${i.missing.map((m) => html`<li>${m}</li>`).join('')}</ul></li>`,
    )
    .join('')}</ul>`;
}

/** What the business offers, when the draft did not say: the lines it will be booked for. */
function offerForm(a: Application, d: DraftForPage, csrf: string): string {
  if (offeredOf(a).length) return '';
  return html`<h2 id="offer">What the business offers</h2>
    <form method="post" action="/business/drafts/${d.draftId}/offer">$${hidden(csrf)}
    <fieldset><legend>Choose one or more</legend>
    $${LINE_ORDER.map(
      (c) =>
        html`<label class="check"><input type="checkbox" name="category_${c}" value="1"> ${LINE_WORDS[c]}</label>`,
    ).join('')}</fieldset>
    <button type="submit">Save what the business offers</button></form>`;
}

/** Country and time zone, when the draft could not tell them (a country with several zones, no phone code). */
function placeForm(a: Application, d: DraftForPage, csrf: string): string {
  if (a.country && a.timezone) return '';
  const zones = timezoneChoices(a.country);
  return html`<h2 id="place">Country and time zone</h2>
    <form method="post" action="/business/drafts/${d.draftId}/place">$${hidden(csrf)}
    $${
      a.country
        ? ''
        : html`<label for="country">Country (two letters, such as PT or ZA)</label>
      <input id="country" type="text" name="country" maxlength="2" autocomplete="country">`
    }
    <label for="timezone">Time zone your hours are in</label>
    $${
      zones.length
        ? html`<select id="timezone" name="timezone"><option value="">Choose one</option>$${zones
            .map((z) => html`<option value="${z}">${z.replace(/_/g, ' ')}</option>`)
            .join('')}</select>`
        : html`<input id="timezone" type="text" name="timezone" maxlength="64" placeholder="Europe/Lisbon">`
    }
    <button type="submit">Save the country and zone</button></form>`;
}

function pricesForm(a: Application, d: DraftForPage, csrf: string): string {
  const unpriced = a.services.filter((s) => s.needsPrice || s.priceCents === null);
  if (!unpriced.length) return '';
  const currency = a.currency ?? 'the currency of the business';
  return html`<h3 id="prices">Prices still to set</h3>
    <form method="post" action="/business/drafts/${d.draftId}/prices">$${hidden(csrf)}
    $${unpriced
      .map(
        (s) =>
          html`<label for="price-${s.id}">Price of ${s.name} (${currency})</label>
          <input id="price-${s.id}" type="text" inputmode="decimal" name="price_${s.id}" maxlength="40" placeholder="${a.currency === 'JPY' ? '1500' : '35.00'}">`,
      )
      .join('')}
    <button type="submit">Save the prices</button></form>`;
}

const petWords = (types: readonly string[]) =>
  types.map((t) => (t === 'CAT' ? 'cats' : 'dogs')).join(' and ') || 'dogs';

/**
 * The services: those there now, the prices still to set, NogPets' usual menu for the lines
 * offered, and one typed in (main or extra: name, price, length, for dogs or cats).
 */
function servicesForm(a: Application, d: DraftForPage, csrf: string): string {
  const offered = offeredOf(a);
  if (!offered.length) return '';
  const several = offered.length > 1;
  const currency = a.currency ?? 'the currency of the business';
  const now = a.services.length
    ? html`<ul id="services-now">$${a.services
        .map(
          (s) =>
            html`<li><strong>${s.name}</strong>: ${s.kind === 'PRIMARY' ? 'main service' : 'extra'}${several ? `, ${s.category}` : ''}, ${s.price ?? 'price to set'}, ${String(s.durationMin)} minutes, for ${petWords(s.petTypes)}</li>`,
        )
        .join('')}</ul>`
    : html`<p>No services yet. Each line you offer needs at least one main service: one people book on its own. Extras are added to a main service.</p>`;
  const lines = offered.map((c) => c).join(', ');
  return html`<h2 id="services">Services and prices</h2>
    $${now}
    $${pricesForm(a, d, csrf)}
    <h3>Start from NogPets' usual services</h3>
    <p class="muted">Adds the services NogPets offers for ${lines}${a.currency === 'ZAR' ? ', with their usual prices: change any by adding it again by hand with the same name.' : ': you then set a price for each.'}</p>
    <form method="post" action="/business/drafts/${d.draftId}/services">$${hidden(csrf)}
      <input type="hidden" name="template" value="1">
      <button type="submit">Add NogPets' usual services</button></form>
    <h3>Add a service by hand</h3>
    <form method="post" action="/business/drafts/${d.draftId}/services">$${hidden(csrf)}
      $${
        several
          ? html`<label for="svc-category">Which line</label><select id="svc-category" name="category">$${offered
              .map((c) => html`<option value="${c}">${LINE_WORDS[c]}</option>`)
              .join('')}</select>`
          : html`<input type="hidden" name="category" value="${offered[0]!}">`
      }
      <label for="svc-kind">Main service or extra</label>
      <select id="svc-kind" name="kind"><option value="PRIMARY">Main service (booked on its own)</option><option value="EXTRA">Extra (added to a main service)</option></select>
      <label for="svc-name">Name</label>
      <input id="svc-name" type="text" name="name" maxlength="80" required>
      <label for="svc-price">Price (${currency})</label>
      <input id="svc-price" type="text" inputmode="decimal" name="price" maxlength="40" required placeholder="${a.currency === 'JPY' ? '1500' : '35.00'}">
      <label for="svc-duration">How long it takes (minutes)</label>
      <input id="svc-duration" type="number" name="durationMin" min="0" max="1440" step="5" value="60" required>
      <fieldset><legend>For which pets</legend>
        <label class="check"><input type="checkbox" name="pet_DOG" value="1" checked> Dogs</label>
        <label class="check"><input type="checkbox" name="pet_CAT" value="1"> Cats</label></fieldset>
      <button type="submit">Add the service</button></form>`;
}

function areaForm(a: Application, d: DraftForPage, csrf: string): string {
  const now = a.areas.filter((x) => x.status !== 'REJECTED').map((x) => x.name);
  return html`<h2 id="area">Where you work</h2>
    $${now.length ? html`<p>Now: ${now.join('; ')}. Saving again replaces it.</p>` : ''}
    <form method="post" action="/business/drafts/${d.draftId}/area">$${hidden(csrf)}
      <label for="suburbs">Suburbs or neighbourhoods, one a line, each with its postal code</label>
      <textarea id="suburbs" name="suburbs" rows="4" maxlength="4000" placeholder="${a.country === 'ZA' ? 'Die Boord, 7613' : 'Neighbourhood, postal code'}"></textarea>
      <p class="muted">Or, instead, a distance around a place:</p>
      <label for="radius">How far you go (km)</label>
      <input id="radius" type="number" name="radiusKm" min="0.5" max="100" step="0.5">
      <label for="center">Around (a town, suburb or address)</label>
      <input id="center" type="text" name="centerAddress" maxlength="300">
      <button type="submit">Save the area</button></form>`;
}

function hoursForm(a: Application, d: DraftForPage, csrf: string): string {
  const week = a.businessHours ?? {};
  const known = Object.keys(week).length > 0;
  const wanted = workersWanted(a);
  return html`<h2 id="hours">${wanted.length ? 'Your hours and who works them' : 'Your hours'}</h2>
    <p class="muted">Local time${a.timezone ? ` (${a.timezone})` : ''}. Leave a day empty when you do not work.</p>
    <form method="post" action="/business/drafts/${d.draftId}/hours">$${hidden(csrf)}
    <table><tr><th>Day</th><th>From</th><th>To</th></tr>
    $${DAYS.map(([key, label]) => {
      const range = known
        ? week[key]?.[0]
        : key === 'sun'
          ? undefined
          : { start: '08:00', end: key === 'sat' ? '13:00' : '17:00' };
      return html`<tr><td><strong>${label}</strong></td>
        <td data-label="From"><label class="sr-only" for="start-${key}">${label} from</label><input id="start-${key}" type="time" name="start_${key}" value="${range?.start ?? ''}"></td>
        <td data-label="To"><label class="sr-only" for="end-${key}">${label} to</label><input id="end-${key}" type="time" name="end_${key}" value="${range?.end ?? ''}"></td></tr>`;
    }).join('')}</table>
    $${wanted
      .map(
        ({
          worker,
          start,
        }) => html`<label for="${worker.field}">${worker.label}: how many work these hours</label>
        <input id="${worker.field}" type="number" name="${worker.field}" min="0" max="50" value="${String(start)}">`,
      )
      .join('')}
    <button type="submit">Save the hours</button></form>`;
}

function submitSection(a: Application, d: DraftForPage, csrf: string, summary: string | null): string {
  if (!a.readyToSubmit || summary === null)
    return html`<h2 id="send">Send for review</h2><p>Once nothing is missing, the summary shows here with a button to send it.</p>`;
  return html`<h2 id="send">Send for review</h2>
    <p>Read it through: this is what the operator reviews.</p>
    <ul id="summary">$${summary
      .split('\n')
      .map((line) => html`<li>${line}</li>`)
      .join('')}</ul>
    <form method="post" action="/business/drafts/${d.draftId}/submit">$${hidden(csrf)}
      <button type="submit">Send for review</button></form>`;
}

/** What a person typed, repeated in a refusal: its first 40 characters (the form's own limit). */
function quoted(typed: string): string {
  const chars = Array.from(typed);
  return chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : typed;
}

/** Text cut to at most `max` bytes of UTF-8, between characters, marked with "…" when cut. */
function upToBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  let out = '';
  let bytes = 0;
  for (const c of text) {
    bytes += Buffer.byteLength(c);
    if (bytes > max - 3) break;
    out += c;
  }
  return `${out}…`;
}

/** What the person did last, said at the top. */
const NOTICES: Record<string, string> = {
  prices: 'The prices are saved.',
  area: 'Where you work is saved: the operator approves each area.',
  hours: 'Your hours are saved.',
  kept: 'The draft is now in your account.',
  place: 'The country and time zone are saved.',
  offer: 'What the business offers is saved.',
  services: 'The services are saved.',
};

/** `/business/drafts/:id`: the continueUrl of prepareBusinessSignup. */
export function draftRoutes(router: Router, deps: DraftPagesDeps): void {
  const { runtime } = deps;
  const ctxOf = (req: Request, s: Session): OperationContext =>
    personCall(runtime, req, s.user.id, ['business:write']);

  /**
   * The draft of the page's URL, read as whoever opens it: the signed-in person, else a visitor
   * holding its link. Null once answered: 404 for no such draft, 400 for an id that cannot be one.
   */
  async function draftOf(req: Request, res: Response, s: Session | null): Promise<DraftForPage | null> {
    const ctx = s ? ctxOf(req, s) : visitorCall(runtime, req);
    try {
      const d = await runOperation(pageOperations.draftForPage, ctx, { draftId: String(req.params.id) });
      if (d) return d;
      res.status(404).type('html').send(gone());
    } catch (err) {
      if (!isBadInput(err)) throw err;
      badInputPage(res, err, s ?? undefined);
    }
    return null;
  }

  /** The application of a draft the signed-in person owns, as getSignupStatus answers it. */
  const applicationOf = async (ctx: OperationContext, d: DraftForPage) =>
    (await runOperation(getSignupStatus, ctx, { applicationId: d.applicationId! }))
      .application as Application;

  /** The summary to agree to (submit without confirm answers it), or null while not ready. */
  async function summaryOf(ctx: OperationContext, a: Application): Promise<string | null> {
    if (!a.readyToSubmit) return null;
    try {
      await runOperation(submitBusinessForReview, ctx, { applicationId: a.applicationId });
      return null;
    } catch (err) {
      if (
        err instanceof ServiceError &&
        err.code === 'CONFIRM_REQUIRED' &&
        typeof err.details.summary === 'string'
      )
        return err.details.summary;
      if (err instanceof ServiceError && err.status < 500) return null;
      throw err;
    }
  }

  /** A refusal to say once on the draft's page: in a short-lived cookie, signed, for that page only. */
  const REFUSAL_COOKIE = 'nogpets_refused';
  const sign = async (value: string) =>
    createHmac('sha256', await run(identity.formTokenKeyOp, visitorCall(runtime), {}))
      .update(`refusal:${value}`)
      .digest('base64url');
  async function setRefusal(res: Response, draftId: string, message: string) {
    // At most 1,500 bytes of message, so the cookie (base64, signed) stays well under browsers' 4 KB.
    const value = Buffer.from(JSON.stringify({ d: draftId, m: upToBytes(message, 1500) })).toString(
      'base64url',
    );
    res.append(
      'Set-Cookie',
      serializeCookie(REFUSAL_COOKIE, `${value}.${await sign(value)}`, {
        path: pathOf(draftId),
        httpOnly: true,
        sameSite: 'lax',
        secure: runtime.publicUrl().startsWith('https:'),
        maxAge: 300,
      }),
    );
  }
  /** The refusal said once on this draft's page (the cookie is cleared as it is read). */
  async function takeRefusal(req: Request, res: Response, draftId: string): Promise<string | undefined> {
    const raw = parseCookie(req.headers.cookie ?? '')[REFUSAL_COOKIE];
    if (!raw) return undefined;
    res.append(
      'Set-Cookie',
      serializeCookie(REFUSAL_COOKIE, '', {
        path: pathOf(draftId),
        httpOnly: true,
        sameSite: 'lax',
        maxAge: 0,
      }),
    );
    const [value = '', mac = ''] = raw.split('.');
    const want = Buffer.from(await sign(value));
    const got = Buffer.from(mac);
    if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
    try {
      const said = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as {
        d?: unknown;
        m?: unknown;
      };
      return said.d === draftId && typeof said.m === 'string' ? said.m : undefined;
    } catch {
      return undefined;
    }
  }

  async function draftPage(
    req: Request,
    res: Response,
    d: DraftForPage,
    s: Session,
    shown: { error?: string; status?: number } = {},
  ) {
    shown = { ...shown, error: shown.error ?? (await takeRefusal(req, res, d.draftId)) };
    const ctx = ctxOf(req, s);
    const a = await applicationOf(ctx, d);
    const done = req.query.done;
    const notice = typeof done === 'string' && Object.hasOwn(NOTICES, done) ? NOTICES[done] : undefined;
    const top = html`$${shown.error ? html`<p id="top" class="error" role="alert">${shown.error}</p>` : ''}$${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}`;
    if (a.status !== 'DRAFT') {
      res
        .status(shown.status ?? 200)
        .type('html')
        .send(
          page(
            a.name,
            html`$${top}<p id="status"><strong>${a.status === 'SUBMITTED' ? 'Sent for review.' : `Status: ${a.status.toLowerCase()}.`}</strong> ${a.next}</p>
            <p><a href="/business/applications/${a.applicationId}">Follow your application</a></p>`,
            s,
          ),
        );
      return;
    }
    const body = html`$${top}
      <p>Your application for <strong>${a.name}</strong> is a draft, kept until ${d.expiresAt.toISOString().slice(0, 10)}. Fill in what is missing below, then send it for review.</p>
      $${missingList(a)}
      $${placeForm(a, d, s.csrf)}
      $${offerForm(a, d, s.csrf)}
      $${servicesForm(a, d, s.csrf)}
      $${areaForm(a, d, s.csrf)}
      $${hoursForm(a, d, s.csrf)}
      $${submitSection(a, d, s.csrf, await summaryOf(ctx, a))}
      <p class="muted"><a href="/business/applications/${a.applicationId}">The application's status page</a></p>`;
    res
      .status(shown.status ?? 200)
      .type('html')
      .send(page(`Finish your application: ${a.name}`, body, s));
  }

  /** The page for someone not signed in as the draft's owner. */
  async function strangerPage(req: Request, res: Response, d: DraftForPage, s: Session | null) {
    if (s && d.ownerId) {
      res
        .status(403)
        .type('html')
        .send(
          page(
            'Not your draft',
            html`<p class="error">This draft was made for another email address than ${s.user.email}.</p><p>Sign out, then open this page again: it mails a sign-in link to the draft's address.</p>`,
            s,
          ),
        );
      return;
    }
    if (s && !d.ownerEmail) {
      res.type('html').send(
        page(
          `Keep your draft: ${d.name}`,
          html`<p>This draft for <strong>${d.name}</strong> was made without an email. Keep it in your account (${s.user.email}) to finish it and send it for review.</p>
          <form method="post" action="/business/drafts/${d.draftId}/keep">$${hidden(s.csrf)}<button type="submit">Keep it in my account</button></form>`,
          s,
        ),
      );
      return;
    }
    // Not attached to any account yet: only following the link mailed to the draft's email does it,
    // also for someone signed in (even with that address), so the address is proven for this draft.
    const csrf = await deps.preToken(req, res);
    res.type('html').send(
      page(
        `Finish your application: ${d.name}`,
        d.ownerEmail
          ? html`<p>Your draft for <strong>${d.name}</strong> is kept until ${d.expiresAt.toISOString().slice(0, 10)}. To keep it yours, you sign in with a link we email to <strong>${masked(d.ownerEmail)}</strong>.</p>
            <form method="post" action="/business/drafts/${d.draftId}/link"><input type="hidden" name="csrf" value="${csrf}"><button type="submit">Email me a sign-in link</button></form>
            <p class="muted">The draft joins that address's account only when its link is followed; until then it is in no account.</p>`
          : html`<p>Your draft for <strong>${d.name}</strong> is kept until ${d.expiresAt.toISOString().slice(0, 10)}. First, your email: we send a link to sign in (or to make your account), then you finish the draft here.</p>
            <form method="post" action="/business/drafts/${d.draftId}/link"><input type="hidden" name="csrf" value="${csrf}">
              <label for="email">Email</label><input id="email" type="email" name="email" required maxlength="254" autocomplete="email">
              <button type="submit">Email me a sign-in link</button></form>`,
        s ?? undefined,
      ),
    );
  }

  router.get('/business/drafts/:id', async (req, res, next) => {
    try {
      const s = await deps.signedIn(req);
      const d = await draftOf(req, res, s);
      if (!d) return;
      if (s && d.ownerId === s.user.id) await draftPage(req, res, d, s);
      else await strangerPage(req, res, d, s);
    } catch (err) {
      next(err);
    }
  });

  router.post('/business/drafts/:id/link', async (req, res, next) => {
    try {
      if (await deps.refusedPresession(req, res)) return;
      // The form before signing in: whoever posts it holds the draft's link, nothing more.
      const d = await draftOf(req, res, null);
      if (!d) return;
      const given = String(req.body?.email ?? '').trim();
      const email = d.ownerEmail ?? given;
      if (!d.ownerEmail && !isEmailAddress(given)) {
        res
          .status(400)
          .type('html')
          .send(
            page(
              'Not sent',
              html`<p class="error">That is not an email address.</p><p><a href="/business/drafts/${d.draftId}">Try again</a></p>`,
            ),
          );
        return;
      }
      try {
        await run(identity.sendSignInLinkOp, visitorCall(runtime, req), {
          email,
          // With the draft's email the link makes or opens that account; without, the one typed here.
          // Following it attaches the draft (followSignInLink): never before.
          reason: 'signup',
          next: pathOf(d.draftId),
          publicUrl: runtime.publicUrl(),
          draft: { id: d.draftId, name: d.name },
        });
      } catch (err) {
        if (!(err instanceof ServiceError) || err.code !== 'RateLimited') throw err;
        req.log?.warn({ draftId: d.draftId }, 'draft sign-in link held back: too many for this address');
        res.status(429).setHeader('Retry-After', String(err.details.retryAfterSeconds));
        res.type('html').send(linkMailRefused(err, d.ownerEmail ? masked(email) : email, pathOf(d.draftId)));
        return;
      }
      const outbox = runtime.deps.mail
        ? ''
        : html`<p class="muted">This NogPets has no mail server set up, so mail waits in its outbox: whoever runs it reads it with <code>pnpm cli mail list</code>.</p>`;
      res
        .type('html')
        .send(
          page(
            'Check your email',
            html`<p id="outcome">We have sent a sign-in link to <strong>${d.ownerEmail ? masked(email) : email}</strong>. Open it within ${String(SIGN_IN_LINK_MINUTES)} minutes: it brings you back here, signed in. The link works once.</p>$${outbox}`,
          ),
        );
    } catch (err) {
      next(err);
    }
  });

  /** A change on the owner's draft: `act` runs the operation; a refusal is shown on the page. */
  const change = (
    name: string,
    act: (ctx: OperationContext, a: Application, body: Record<string, unknown>) => Promise<void>,
  ) =>
    router.post(`/business/drafts/:id/${name}`, async (req, res, next) => {
      try {
        const s = await deps.requireSession(req, res);
        if (!s) return;
        const d = await draftOf(req, res, s);
        if (!d) return;
        if (name === 'keep') {
          if (
            !d.ownerId &&
            (await runOperation(pageOperations.keepDraft, ctxOf(req, s), { draftId: d.draftId }))
          ) {
            res.redirect(303, `${pathOf(d.draftId)}?done=kept`);
            return;
          }
          res.redirect(303, pathOf(d.draftId));
          return;
        }
        if (d.ownerId !== s.user.id) {
          await strangerPage(req, res, d, s);
          return;
        }
        const ctx = ctxOf(req, s);
        try {
          await act(ctx, await applicationOf(ctx, d), req.body ?? {});
        } catch (err) {
          if (!(err instanceof ServiceError) || err.status >= 500) throw err;
          // Post/Redirect/Get: the page says why at the top; a reload does not post again.
          await setRefusal(res, d.draftId, err.message);
          res.redirect(303, `${pathOf(d.draftId)}#top`);
          return;
        }
        res.redirect(
          303,
          name === 'submit'
            ? pathOf(d.draftId)
            : `${pathOf(d.draftId)}?done=${name}#${name === 'prices' || name === 'offer' ? 'services' : name === 'place' ? 'missing' : name}`,
        );
      } catch (err) {
        next(err);
      }
    });

  change('keep', async () => {});

  change('place', async (ctx, a, body) => {
    const input: Record<string, unknown> = { applicationId: a.applicationId };
    for (const field of ['country', 'timezone'] as const) {
      const given = String(body[field] ?? '').trim();
      if (given) input[field] = given;
    }
    if (!input.timezone && !input.country)
      throw new ServiceError('BAD_REQUEST', 'Choose the time zone your hours are in.');
    await runOperation(startBusinessSignup, ctx, input);
  });

  change('prices', async (ctx, a, body) => {
    const services = [];
    const unread: string[] = [];
    for (const s of a.services) {
      const said = String(body[`price_${s.id}`] ?? '').trim();
      if (!said) continue;
      const priceCents = parseSaidPrice(said, a.currency);
      if (priceCents === null) {
        unread.push(`${s.name} ("${quoted(said)}")`);
        continue;
      }
      services.push({
        id: s.id,
        category: s.category,
        kind: s.kind,
        name: s.name,
        ...(s.blurb ? { blurb: s.blurb } : {}),
        petTypes: s.petTypes.length ? s.petTypes : ['DOG'],
        priceCents,
        durationMin: s.durationMin,
        groupSize: s.groupSize,
      });
    }
    if (unread.length)
      throw new ServiceError(
        'BAD_REQUEST',
        `These prices could not be read: ${unread.join(', ')}. Write the amount in ${a.currency ?? 'the business currency'}, such as ${a.currency === 'JPY' ? '1500' : '35.00'}.`,
      );
    if (!services.length) throw new ServiceError('BAD_REQUEST', 'Give at least one price.');
    await runOperation(addBusinessServices, ctx, { applicationId: a.applicationId, services });
  });

  change('area', async (ctx, a, body) => {
    const lines = String(body.suburbs ?? '')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    const suburbs = lines.map((line) => {
      const m = /^(.*?)[,;\s]+([A-Za-z0-9][A-Za-z0-9 -]{1,11})$/.exec(line);
      // "Die Boord, 7613": the name and its postal code; a name alone has none.
      return m && /\d/.test(m[2]!) ? { name: m[1]!.trim(), postalCode: m[2]!.trim() } : { name: line };
    });
    const radius = String(body.radiusKm ?? '').trim();
    const center = String(body.centerAddress ?? '').trim();
    const input: Record<string, unknown> = { applicationId: a.applicationId };
    if (suburbs.length) input.suburbs = suburbs;
    if (radius || center) {
      input.radiusKm = Number(radius);
      input.centerAddress = center;
    }
    if (!suburbs.length && !radius && !center)
      throw new ServiceError(
        'BAD_REQUEST',
        'Give your suburbs with their postal codes, or a distance around a place.',
      );
    await runOperation(setServiceArea, ctx, input);
  });

  change('hours', async (ctx, a, body) => {
    const week: Record<string, { start: string; end: string }[]> = {};
    for (const [key, label] of DAYS) {
      const start = String(body[`start_${key}`] ?? '').trim();
      const end = String(body[`end_${key}`] ?? '').trim();
      if (!start && !end) continue;
      if (!start || !end)
        throw new ServiceError('BAD_REQUEST', `${label}: give both when you start and when you stop.`);
      week[key] = [{ start, end }];
    }
    if (!Object.keys(week).length)
      throw new ServiceError('BAD_REQUEST', 'Give the hours of at least one day.');
    const resources: { kind: Worker['kind']; name: string }[] = [];
    const wanted = workersWanted(a);
    for (const { worker } of wanted) {
      const raw = String(body[worker.field] ?? '').trim();
      const count = raw === '' ? 0 : Number(raw);
      if (!Number.isInteger(count) || count < 0 || count > 50)
        throw new ServiceError('BAD_REQUEST', `${worker.label}: a whole number from 0 to 50.`);
      for (let i = 1; i <= count; i++) resources.push({ kind: worker.kind, name: `${worker.name} ${i}` });
    }
    // Every line offered needs someone (a van or a table for grooming): said before anything is saved.
    const nobody = [...new Set(wanted.map(({ worker }) => worker.kind))].filter(
      (kind) => !resources.some((r) => r.kind === kind),
    );
    if (nobody.length)
      throw new ServiceError(
        'BAD_REQUEST',
        `Say how many work these hours: at least one ${nobody
          .map((k) =>
            k === 'VAN'
              ? a.mode === 'SALON'
                ? 'salon table'
                : a.mode === 'MOBILE'
                  ? 'van'
                  : 'van or salon table'
              : k === 'WALKER'
                ? 'walker'
                : 'sitter',
          )
          .join(', one ')}.`,
      );
    // The hours first: refused, nothing is saved (no one added). Those who work them come after and
    // take the business hours (a resource without a week does).
    await runOperation(setOperatingHours, ctx, { applicationId: a.applicationId, week });
    if (resources.length)
      await runOperation(addResources, ctx, { applicationId: a.applicationId, resources });
  });

  change('offer', async (ctx, a, body) => {
    const categories = LINE_ORDER.filter((c) => body[`category_${c}`] !== undefined);
    if (!categories.length)
      throw new ServiceError('BAD_REQUEST', 'Choose what the business offers: grooming, walking or sitting.');
    await runOperation(startBusinessSignup, ctx, { applicationId: a.applicationId, categories });
  });

  change('services', async (ctx, a, body) => {
    if (body.template !== undefined) {
      await runOperation(addBusinessServices, ctx, { applicationId: a.applicationId, useTemplate: true });
      return;
    }
    const name = String(body.name ?? '').trim();
    const said = String(body.price ?? '').trim();
    const duration = String(body.durationMin ?? '').trim();
    const problems: string[] = [];
    if (!name) problems.push('Give the service a name.');
    const priceCents = said ? parseSaidPrice(said, a.currency) : null;
    if (!said) problems.push('Give its price.');
    else if (priceCents === null)
      problems.push(
        `The price "${quoted(said)}" could not be read: write the amount in ${a.currency ?? 'the business currency'}, such as ${a.currency === 'JPY' ? '1500' : '35.00'}.`,
      );
    else if (priceCents > 10_000_000)
      problems.push(`The price "${quoted(said)}" is more than NogPets takes.`);
    if (name.length > 80) problems.push('The name can be at most 80 characters.');
    const kind = body.kind === 'EXTRA' ? 'EXTRA' : 'PRIMARY';
    // The operation's bounds (a main service takes 5 minutes at least), said in the form's words.
    const shortest = kind === 'PRIMARY' ? 5 : 0;
    const durationMin = Number(duration);
    if (!duration || !Number.isInteger(durationMin) || durationMin < shortest || durationMin > 1440)
      problems.push(`Say how many minutes it takes: a whole number from ${shortest} to 1440.`);
    const petTypes = (['DOG', 'CAT'] as const).filter((t) => body[`pet_${t}`] !== undefined);
    if (!petTypes.length) problems.push('Say whether it is for dogs, cats or both.');
    if (problems.length) throw new ServiceError('BAD_REQUEST', problems.join(' '));
    const category = String(body.category ?? '');
    await runOperation(addBusinessServices, ctx, {
      applicationId: a.applicationId,
      services: [{ category, kind, name, petTypes, priceCents, durationMin }],
    });
  });

  change('submit', async (ctx, a) => {
    await runOperation(submitBusinessForReview, ctx, { applicationId: a.applicationId, confirm: true });
  });
}
