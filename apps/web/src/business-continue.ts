// The page of a no-login sign-up draft (prepareBusinessSignup's `continueUrl`): the person signs in
// by a link mailed to the draft's email, then gives what a draft lacks (prices, where they work,
// who works and when), sees the summary and sends it for review. Every change runs the sign-up
// operation an assistant would call, as the person themselves.
import {
  type Application,
  accountPageContext,
  addBusinessServices,
  addResources,
  type DraftForPage,
  draftForPage,
  getSignupStatus,
  isEmailAddress,
  keepDraft,
  type OperationContext,
  parseSaidPrice,
  runOperation,
  ServiceError,
  SIGN_IN_LINK_MINUTES,
  sendSignInLink,
  setOperatingHours,
  setServiceArea,
  startBusinessSignup,
  submitBusinessForReview,
  timezoneChoices,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { UserRow } from '@nogpets/store';
import type { Request, Response, Router } from 'express';
import html from 'html-template-tag';
import { page } from './layout.js';
import { linkMailRefused } from './pages.js';

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

const DAYS = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
] as const;

const LINES = {
  grooming: { kind: 'VAN', label: 'Vans or salon tables (grooming)', name: 'Van' },
  walking: { kind: 'WALKER', label: 'Walkers', name: 'Walker' },
  sitting: { kind: 'SITTER', label: 'Sitters', name: 'Sitter' },
} as const;

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
  const open = a.checklist.filter((i) => i.required && i.status !== 'DONE');
  if (!open.length)
    return html`<p id="missing" class="notice">Nothing is missing: read the summary below and send it.</p>`;
  return html`<h2>What is missing</h2><ul id="missing">$${open
    .map((i) => html`<li><strong>${i.title}:</strong> ${i.missing.join(' ')}</li>`)
    .join('')}</ul>`;
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
  return html`<h2 id="prices">Prices</h2>
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
  const offered = [...new Set(a.services.map((s) => s.category))];
  const lacking = offered.filter((c) => !a.resources.some((r) => r.kind === LINES[c].kind));
  return html`<h2 id="hours">Your hours</h2>
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
    $${lacking
      .map(
        (c) => html`<label for="count-${c}">${LINES[c].label}: how many work these hours</label>
        <input id="count-${c}" type="number" name="count_${c}" min="1" max="50" value="1">`,
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

/** What the person did last, said at the top. */
const NOTICES: Record<string, string> = {
  prices: 'The prices are saved.',
  area: 'Where you work is saved: the operator approves each area.',
  hours: 'Your hours are saved.',
  kept: 'The draft is now in your account.',
  place: 'The country and time zone are saved.',
};

/** `/business/drafts/:id`: the continueUrl of prepareBusinessSignup. */
export function draftRoutes(router: Router, deps: DraftPagesDeps): void {
  const { runtime } = deps;
  const ctxOf = (req: Request, s: Session): OperationContext =>
    accountPageContext(
      runtime.deps,
      s.user.id,
      { requestId: String(req.id ?? ''), log: req.log ?? runtime.logger },
      ['business:write'],
    );

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

  async function draftPage(
    req: Request,
    res: Response,
    d: DraftForPage,
    s: Session,
    shown: { error?: string; status?: number } = {},
  ) {
    const ctx = ctxOf(req, s);
    const a = await applicationOf(ctx, d);
    const done = req.query.done;
    const notice = typeof done === 'string' && Object.hasOwn(NOTICES, done) ? NOTICES[done] : undefined;
    const top = html`$${shown.error ? html`<p class="error" role="alert">${shown.error}</p>` : ''}$${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}`;
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
      $${pricesForm(a, d, s.csrf)}
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
      const d = await draftForPage(runtime.deps, String(req.params.id));
      if (!d) {
        res.status(404).type('html').send(gone());
        return;
      }
      const s = await deps.signedIn(req);
      if (s && d.ownerId === s.user.id) await draftPage(req, res, d, s);
      else await strangerPage(req, res, d, s);
    } catch (err) {
      next(err);
    }
  });

  router.post('/business/drafts/:id/link', async (req, res, next) => {
    try {
      if (await deps.refusedPresession(req, res)) return;
      const d = await draftForPage(runtime.deps, String(req.params.id));
      if (!d) {
        res.status(404).type('html').send(gone());
        return;
      }
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
        await sendSignInLink(
          { ...runtime.deps, log: req.log },
          {
            email,
            // With the draft's email the link makes or opens that account; without, the one typed here.
            // Following it attaches the draft (followSignInLink): never before.
            reason: 'signup',
            next: pathOf(d.draftId),
            publicUrl: runtime.publicUrl(),
            draft: { id: d.draftId, name: d.name },
          },
        );
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
        const d = await draftForPage(runtime.deps, String(req.params.id));
        if (!d) {
          res.status(404).type('html').send(gone());
          return;
        }
        if (name === 'keep') {
          if (!d.ownerId && (await keepDraft(runtime.deps, d.draftId, s.user.id))) {
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
          await draftPage(req, res, d, s, { error: err.message, status: err.status === 409 ? 409 : 400 });
          return;
        }
        res.redirect(
          303,
          name === 'submit'
            ? pathOf(d.draftId)
            : `${pathOf(d.draftId)}?done=${name}#${name === 'prices' ? 'area' : name === 'place' ? 'prices' : name}`,
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
        unread.push(`${s.name} ("${said}")`);
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
    const resources = [];
    for (const c of Object.keys(LINES) as (keyof typeof LINES)[]) {
      const raw = body[`count_${c}`];
      if (raw === undefined || a.resources.some((r) => r.kind === LINES[c].kind)) continue;
      const count = Number(raw);
      if (!Number.isInteger(count) || count < 1 || count > 50)
        throw new ServiceError('BAD_REQUEST', `${LINES[c].label}: a whole number from 1 to 50.`);
      for (let i = 1; i <= count; i++) resources.push({ kind: LINES[c].kind, name: `${LINES[c].name} ${i}` });
    }
    // The hours first: refused, nothing is saved (no one added). Those who work them come after and
    // take the business hours (a resource without a week does).
    await runOperation(setOperatingHours, ctx, { applicationId: a.applicationId, week });
    if (resources.length)
      await runOperation(addResources, ctx, { applicationId: a.applicationId, resources });
  });

  change('submit', async (ctx, a) => {
    await runOperation(submitBusinessForReview, ctx, { applicationId: a.applicationId, confirm: true });
  });
}
