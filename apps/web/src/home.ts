// The home page (`/`): what NogPets is, and the way on for each kind of visitor: pet owners sign in
// or up, businesses start an application (a sign-up draft, made by prepareBusinessSignup as an
// assistant makes it, then finished on the draft's page), developers read /docs or connect to /mcp (or /mcp/business).
import {
  type FieldProblem,
  MCP_PATHS,
  prepareBusinessSignup,
  runOperation,
  ServiceError,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { UserRow } from '@nogpets/operations';
import type { Request, Response, Router } from 'express';
import html from 'html-template-tag';
import { type HeaderNav, page } from './layout.js';

type Session = { user: UserRow; csrf: string; nav: HeaderNav };

/** The name the home page's drafts are made under (audit records, the per-caller limit's fallback). */
export const HOME_PAGE = 'NogPets home page';
/** Where the start-application form posts (also its own page, to correct what was refused). */
export const START_PATH = '/business/start';

const CATEGORIES = [
  ['grooming', 'Grooming'],
  ['walking', 'Dog walking'],
  ['sitting', 'Pet sitting'],
] as const;

/** What the person typed, to show again when something was refused. */
interface Typed {
  businessName: string;
  contactName: string;
  email: string;
  phone: string;
  town: string;
  country: string;
  categories: string[];
  consent: boolean;
}

const EMPTY: Typed = {
  businessName: '',
  contactName: '',
  email: '',
  phone: '',
  town: '',
  country: '',
  categories: [],
  consent: false,
};

/** The form's words for the operation's fields, so a refusal names what the person sees. */
const FIELD_WORDS: Record<string, string> = {
  businessName: 'Business name',
  contactName: 'Your name',
  email: 'Email',
  phone: 'Phone',
  town: 'Town',
  country: 'Country',
  categories: 'What you offer',
  consent: 'Agreement',
};

export interface HomeDeps {
  runtime: Runtime;
  signedIn(req: Request): Promise<Session | null>;
  preToken(req: Request, res: Response): Promise<string>;
  refusedPresession(req: Request, res: Response): Promise<boolean>;
}

function startForm(csrf: string, typed: Typed): string {
  const field = (id: keyof Typed, label: string, attrs: string, hint = '') =>
    html`<label for="start-${id}">${label}</label>$${hint ? html`<span class="muted" id="start-${id}-hint">${hint}</span>` : ''}<input id="start-${id}" name="${id}" value="${String(typed[id])}" $${attrs}$${hint ? html` aria-describedby="start-${id}-hint"` : ''}>`;
  return html`<form method="post" action="$${START_PATH}" id="start-application">
    <input type="hidden" name="csrf" value="${csrf}">
    $${field('businessName', 'Business name', 'type="text" required maxlength="120" autocomplete="organization"')}
    $${field('town', 'Town', 'type="text" required maxlength="80" autocomplete="address-level2"')}
    $${field('country', 'Country (optional)', 'type="text" maxlength="2" pattern="[A-Za-z]{2}" autocomplete="country"', 'Two letters, such as ZA or NL; else we go by the phone’s country code.')}
    $${field('contactName', 'Your name (optional)', 'type="text" maxlength="120" autocomplete="name"')}
    $${field('email', 'Email (optional)', 'type="email" maxlength="254" autocomplete="email"', 'We mail the sign-in link that keeps the application in your account here; without one, the next page asks for it.')}
    $${field('phone', 'Phone (optional)', 'type="text" maxlength="30" autocomplete="tel"')}
    <fieldset><legend>What you offer</legend>
    $${CATEGORIES.map(([value, words]) => html`<label class="check"><input type="checkbox" name="categories" value="${value}"$${typed.categories.includes(value) ? ' checked' : ''}>${words}</label>`).join('')}
    </fieldset>
    <label class="check"><input type="checkbox" name="consent" value="yes" required$${typed.consent ? ' checked' : ''}>I agree that the NogPets operator keeps these details to set up the application and to contact me about it.</label>
    <button type="submit">Start the application</button>
  </form>
  <p class="muted">This saves a draft, kept 30 days. On its page you confirm your email, add your services, prices, where you work and your hours, and send it for review.</p>`;
}

function homeBody(runtime: Runtime, csrf: string, s: Session | null): string {
  const mcpUrl = `${runtime.publicUrl()}${MCP_PATHS.person}`;
  const businessMcpUrl = `${runtime.publicUrl()}${MCP_PATHS.business}`;
  const owners = s
    ? html`<p>Signed in as <strong>${s.user.email}</strong>.</p><p><a class="button" href="/account">Your account</a></p>`
    : html`<p><a class="button" href="/signin">Sign in</a> <a class="button" href="/signup">Create an account</a></p>`;
  return html`<p id="about">NogPets books pet care (grooming, dog walking and pet sitting) with local pet businesses. Book it here or have your assistant do it for you; you approve every payment yourself.</p>
  <div class="home-grid">
    <section id="owners"><h2>Pet owners</h2>
      <p>Your bookings, pets, addresses, orders and the assistants you connected are on your account page.</p>
      $${owners}
    </section>
    <section id="developers"><h2>Developers and assistants</h2>
      <p>Every operation is an HTTP API; what an assistant needs is also an MCP tool, at the server for its audience.</p>
      <ul>
        <li><a href="/docs">API documentation</a></li>
        <li>MCP server for pet owners: <code class="url">${mcpUrl}</code></li>
        <li>MCP server for pet businesses (sign-up and running the business): <code class="url">${businessMcpUrl}</code></li>
      </ul>
    </section>
  </div>
  <section id="businesses"><h2>Pet businesses: start an application</h2>
    $${s?.nav.applicant ? html`<p><a href="/business/applications">Your applications</a> show where each stands.</p>` : ''}
    $${startForm(csrf, s ? { ...EMPTY, email: s.user.email, contactName: s.user.name ?? '' } : EMPTY)}
  </section>`;
}

/** The form's fields as the operation takes them: empty ones left out, the agreement a boolean. */
function draftInput(typed: Typed): Record<string, unknown> {
  const input: Record<string, unknown> = { consent: typed.consent };
  for (const key of ['businessName', 'contactName', 'email', 'phone', 'town', 'country'] as const)
    if (typed[key]) input[key] = typed[key];
  if (typed.categories.length) input.categories = typed.categories;
  return input;
}

function typedFrom(body: Record<string, unknown> | undefined): Typed {
  const text = (key: string, max: number) =>
    String(body?.[key] ?? '')
      .trim()
      .slice(0, max);
  return {
    businessName: text('businessName', 200),
    contactName: text('contactName', 200),
    email: text('email', 300),
    phone: text('phone', 60),
    town: text('town', 200),
    country: text('country', 10),
    categories: [body?.categories ?? []]
      .flat()
      .map(String)
      .filter((c) => CATEGORIES.some(([value]) => value === c)),
    consent: body?.consent === 'yes',
  };
}

/** A refusal in the form's words: each field by its label. */
function refusalWords(err: ServiceError): string {
  const fields = (err.details?.fields ?? []) as FieldProblem[];
  if (!fields.length) return err.message;
  return fields
    .map((f) => {
      const top = f.field.split('.')[0] ?? f.field;
      return `${FIELD_WORDS[top] ?? f.field}: ${top === 'consent' ? 'tick the box to agree, or we cannot keep the details' : f.message}`;
    })
    .join('. ');
}

/** `GET /` and the start-application form. */
export function homeRoutes(router: Router, deps: HomeDeps): void {
  const { runtime } = deps;

  router.get('/', async (req, res, next) => {
    try {
      const s = await deps.signedIn(req);
      res
        .type('html')
        .send(
          page(
            'Pet care, booked by you or your assistant',
            homeBody(runtime, await deps.preToken(req, res), s),
            s ?? undefined,
          ),
        );
    } catch (err) {
      next(err);
    }
  });

  const startPage = (csrf: string, typed: Typed, s: Session | null, error?: string) =>
    page(
      'Start a business application',
      html`$${error ? html`<p class="error" role="alert" id="outcome">${error}</p>` : ''}$${startForm(csrf, typed)}`,
      s ?? undefined,
    );

  router.get(START_PATH, async (req, res, next) => {
    try {
      const s = await deps.signedIn(req);
      const typed = s ? { ...EMPTY, email: s.user.email, contactName: s.user.name ?? '' } : EMPTY;
      res.type('html').send(startPage(await deps.preToken(req, res), typed, s));
    } catch (err) {
      next(err);
    }
  });

  router.post(START_PATH, async (req, res, next) => {
    try {
      if (await deps.refusedPresession(req, res)) return;
      const typed = typedFrom(req.body);
      const s = await deps.signedIn(req);
      try {
        // The same operation an assistant calls (prepare_business_signup), counted against this
        // client address like its API calls.
        const made = (await runOperation(
          prepareBusinessSignup,
          {
            deps: runtime.deps,
            requestId: String(req.id ?? ''),
            clientName: HOME_PAGE,
            auth: null,
            log: req.log ?? runtime.logger,
            callerAddress: req.ip,
          },
          draftInput(typed),
        )) as { draftId: string };
        res.redirect(303, `/business/drafts/${encodeURIComponent(made.draftId)}`);
      } catch (err) {
        if (!(err instanceof ServiceError) || err.status >= 500) throw err;
        if (err.code === 'RateLimited') res.setHeader('Retry-After', String(err.details.retryAfterSeconds));
        res
          .status(err.status)
          .type('html')
          .send(startPage(await deps.preToken(req, res), typed, s, refusalWords(err)));
      }
    } catch (err) {
      next(err);
    }
  });
}
