// Every HTML page of apps/web, reached as the person it is for, answers with the
// security headers; every form on it refuses a post without its token or from another site's page,
// changing nothing; and every text a person, business or assistant can store is shown as text, never
// as markup (stored-XSS probes in Chromium with the page's CSP bypassed, so escaping alone is tested).
import { createHash } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { CLI_REVIEWER, systemClock } from '@nogpets/operations';
import { createApiKey, grantOperatorAccess } from '@nogpets/operations/testing';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { type Browser, fixedClock, launchBrowser, type Page } from '@nogpets/test-utils';
import { pagesRouter, paymentsRouter } from '@nogpets/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookFirstCardSlot,
  mailedLink,
  openForm,
  postForm,
  signedInForm,
  startTestServer,
  type TestServer,
} from './harness.js';
import { followDraftLink } from './draft-link.js';
import { insertPartner, STELLENBOSCH_PARTNER } from './partner-fixture.js';
import { applicationForReview } from './review-fixture.js';

const NOW = '2026-11-23T04:00:00Z'; // Monday 06:00 in Johannesburg
const PASSWORD = 'a long enough password';
const OWNER = 'probe.owner@example.com';
const OPERATOR = 'probe.operator@example.com';
const APPLICANT = 'probe.applicant@example.com';
const FOREIGN = 'https://evil.example';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const REDIRECT = 'http://127.0.0.1:9/cb';

/** Closes an attribute and a tag, then runs script two ways: a dialog fires if it is ever markup. */
const PROBE = `"><script>alert(1)</script><img src=x onerror=alert(2)>`;
/** For fields shorter than PROBE (an address label is at most 40 characters). */
const SHORT = '<img src=x onerror=alert(3)>';

type Who = 'anyone' | 'owner' | 'operator';
type BrowserContext = Awaited<ReturnType<Browser['newContext']>>;

/** Ids made in setup that the pages' paths name. */
interface Made {
  linkToken: string;
  consentRequest: string;
  rejectedApplication: string;
  draft: string;
  draftWithoutEmail: string;
  draftApplication: string;
  bookingPay: string;
  orderPay: string;
  invitation: string;
  confirmation: string;
}

interface PageRow {
  name: string;
  /** The route as the router declares it. */
  route: string;
  who: Who;
  path: (m: Made) => string;
  status: number;
  /** Stored probes the page must show as visible text: [selector, probe]. */
  shows?: [string, string][];
  /** Text fields whose value must be the stored probe, as typed: [selector, probe]. */
  holds?: [string, string][];
}

/** Every HTML page; a GET route of the pages' routers without a row here fails the first test. */
const PAGES: PageRow[] = [
  { name: 'home', route: '/', who: 'anyone', path: () => '/', status: 200 },
  {
    name: 'home, signed in',
    route: '/',
    who: 'owner',
    path: () => '/',
    status: 200,
    holds: [['#start-contactName', PROBE]], // the person's name, offered as the contact
  },
  {
    name: 'start an application',
    route: '/business/start',
    who: 'anyone',
    path: () => '/business/start',
    status: 200,
  },
  { name: 'sign-in', route: '/signin', who: 'anyone', path: () => '/signin', status: 200 },
  { name: 'sign-up', route: '/signup', who: 'anyone', path: () => '/signup', status: 200 },
  {
    name: 'sign-in link request',
    route: '/signin/link',
    who: 'anyone',
    path: () => '/signin/link',
    status: 200,
  },
  {
    name: 'mailed sign-in link',
    route: '/signin/email',
    who: 'anyone',
    path: (m) => `/signin/email?token=${m.linkToken}`,
    status: 200,
  },
  // No upstream provider is set up in tests: both answer the page saying so.
  { name: 'upstream sign-in', route: '/signin/oidc', who: 'anyone', path: () => '/signin/oidc', status: 404 },
  {
    name: 'upstream callback',
    route: '/signin/oidc/callback',
    who: 'anyone',
    path: () => '/signin/oidc/callback?state=x&code=y',
    status: 404,
  },
  {
    name: 'consent',
    route: '/oauth/consent',
    who: 'owner',
    path: (m) => `/oauth/consent?request=${m.consentRequest}`,
    status: 200,
    shows: [['main p strong', PROBE]],
  },
  {
    name: 'account',
    route: '/account',
    who: 'owner',
    path: () => '/account',
    status: 200,
    shows: [
      ['main > p', PROBE], // the person's name
      ['#pet-list', PROBE],
      ['#address-list', PROBE],
      ['#address-list', SHORT],
      ['#upcoming', PROBE], // the booking's address
      ['#keys', PROBE],
      ['#connections', PROBE],
    ],
    holds: [
      ['#pet-list textarea', PROBE],
      ['#address-list textarea', PROBE],
    ],
  },
  {
    name: 'staff invitation',
    route: '/invitations/:id',
    who: 'owner',
    path: (m) => `/invitations/${m.invitation}`,
    status: 200,
    shows: [['#offer', PROBE]], // the business's name and the job title offered
  },
  {
    name: 'confirmation of a change',
    route: '/confirm/:confirmationId',
    who: 'owner',
    path: (m) => `/confirm/${m.confirmation}`,
    status: 200,
    shows: [
      ['#summary', PROBE], // the summary (made of the person's own names of things)
      ['main > p', PROBE], // the name the assistant gave itself
    ],
  },
  {
    name: 'business notifications',
    route: '/business/notifications',
    who: 'owner',
    path: () => '/business/notifications',
    status: 200,
    shows: [['#business-biz_probe h2', PROBE]], // the business's name (the person manages it)
  },
  {
    name: 'business applications',
    route: '/business/applications',
    who: 'owner',
    path: () => '/business/applications',
    status: 200,
    shows: [['#applications', PROBE]],
  },
  {
    name: 'application status (statusUrl)',
    route: '/business/applications/:id',
    who: 'owner',
    path: (m) => `/business/applications/${m.rejectedApplication}`,
    status: 200,
    shows: [
      ['h1', PROBE],
      ['main p.error', PROBE], // the operator's review note
    ],
  },
  {
    name: 'application status of a draft (statusUrl)',
    route: '/business/applications/:id',
    who: 'owner',
    path: (m) => `/business/applications/${m.draftApplication}`,
    status: 200,
    shows: [
      ['h1', PROBE],
      ['#checklist', PROBE], // the service still without a price
    ],
  },
  {
    name: 'draft (continueUrl), its owner',
    route: '/business/drafts/:id',
    who: 'owner',
    path: (m) => `/business/drafts/${m.draft}`,
    status: 200,
    shows: [
      ['h1', PROBE],
      ['#missing', PROBE], // the unpriced service
      ['#prices + form', PROBE], // the price it asks for
      ['#area + p', PROBE], // where they work, as typed
    ],
  },
  {
    name: 'draft (continueUrl), not signed in',
    route: '/business/drafts/:id',
    who: 'anyone',
    path: (m) => `/business/drafts/${m.draft}`,
    status: 200,
    shows: [['main', PROBE]],
  },
  {
    name: 'draft (continueUrl), someone else',
    route: '/business/drafts/:id',
    who: 'operator',
    path: (m) => `/business/drafts/${m.draft}`,
    status: 403,
  },
  {
    name: 'draft made without an email, to keep',
    route: '/business/drafts/:id',
    who: 'owner',
    path: (m) => `/business/drafts/${m.draftWithoutEmail}`,
    status: 200,
    shows: [['main', PROBE]],
  },
  {
    name: 'draft not found',
    route: '/business/drafts/:id',
    who: 'anyone',
    path: () => '/business/drafts/drf_none',
    status: 404,
  },
  {
    name: 'operator console',
    route: '/operator',
    who: 'operator',
    path: () => '/operator',
    status: 200,
    shows: [
      ['section.application h3', PROBE],
      ['#other-applications', PROBE], // the rejected one with its note
      ['#area-list', PROBE],
      ['#lead-list', PROBE], // the address asked about
    ],
  },
  {
    name: 'operator console, not an operator',
    route: '/operator',
    who: 'owner',
    path: () => '/operator',
    status: 403,
  },
  {
    name: 'pay page of a booking',
    route: '/pay/:token',
    who: 'anyone',
    path: (m) => new URL(m.bookingPay).pathname,
    status: 200,
    shows: [['#bookings', PROBE]],
  },
  {
    name: 'pay page of an order',
    route: '/pay/:token',
    who: 'anyone',
    path: (m) => new URL(m.orderPay).pathname,
    status: 200,
  },
  // A real link's page (and its one-click POST) is tested in notices.test.ts; here an unknown one.
  {
    name: 'unsubscribe link, not known',
    route: '/unsubscribe',
    who: 'anyone',
    path: () => `/unsubscribe?token=${'A'.repeat(32)}`,
    status: 404,
  },
  {
    name: 'pay return page',
    route: '/pay/:token/done',
    who: 'anyone',
    path: (m) => `${new URL(m.bookingPay).pathname}/done`,
    status: 200,
    shows: [['#bookings', PROBE]],
  },
];

/** GET routes that are not pages, and what they serve instead. */
const NOT_PAGES: Record<string, string> = {
  '/static/site.css': 'text/css',
  '/favicon.svg': 'image/svg+xml',
  '/favicon.ico': 'image/svg+xml',
};

/** Forms without a token field: the pay link's secret is in their action, and only cross-site posts are refused. */
const TOKEN_IN_ACTION = ['/pay/:id/sandbox'];

/** The one POST route that is no form: the gateway's signed notification (tested in payfast.test.ts). */
const NOT_A_FORM = '/payments/:gateway/notify';

/**
 * RFC 8058's one-click unsubscribe: a mail provider POSTs it from its own servers, so it takes no
 * form token and no same-site check by design; the link's secret is the proof (notices.test.ts).
 */
const ONE_CLICK = '/unsubscribe';

interface FoundForm {
  method: string;
  action: string;
  fields: [string, string][];
}

/** A form's action with its ids and tokens as `:id`, so the same form on two pages counts once. */
const formKey = (action: string) =>
  action
    .split('?')[0]!
    .split('/')
    .map((part) => (/[_\d]/.test(part) || part.length > 24 ? ':id' : part))
    .join('/');

describe('every page: security headers, CSRF on every form, stored text escaped', () => {
  let server: TestServer;
  let browser: Browser;
  let made: Made;
  const cookies: Record<Who, string> = { anyone: '', owner: '', operator: '' };
  const contexts = {} as Record<Who, BrowserContext>;
  const formsSeen = new Map<string, number>();
  const postRoutes = new Set<string>();

  /** Every table's rows, hashed, but rate_limits (each request counts there, refused or not). */
  async function fingerprint(): Promise<Record<string, string>> {
    const sql = server.db.sql;
    const tables = await sql<{ name: string }[]>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name <> 'rate_limits'
      order by table_name`;
    const query = tables
      .map(
        ({ name }) =>
          `select '${name}' as name, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from "${name}" t`,
      )
      .join(' union all ');
    const rows = await sql.unsafe<{ name: string; h: string }[]>(query);
    return Object.fromEntries(rows.map((r) => [r.name, r.h]));
  }

  type Visit = Awaited<ReturnType<typeof open>>;
  const pages = {} as Record<Who, { page: Page; dialogs: string[] }>;
  const visits = new Map<PageRow, Promise<Visit>>();
  /** The page in Chromium, once per row: its status, any dialog, and what it shows and holds. */
  const visit = (row: PageRow) => {
    if (!visits.has(row)) visits.set(row, open(row));
    return visits.get(row)!;
  };

  async function open(row: PageRow) {
    const { page, dialogs } = pages[row.who];
    dialogs.length = 0;
    const answer = await page.goto(server.url + row.path(made), { waitUntil: 'load' });
    const injected = await page.locator('script, img[src="x"], [onerror], [onload]').count();
    // Read in the page (the tests' TypeScript has no DOM types): each form's method, action and fields.
    const forms = (await page.evaluate(`[...document.querySelectorAll('form')].map((f) => ({
      method: (f.getAttribute('method') ?? 'get').toLowerCase(),
      action: f.getAttribute('action') ?? '',
      fields: [...new FormData(f).entries()].map(([k, v]) => [k, String(v)]),
    }))`)) as FoundForm[];
    const seen: [string, string][] = [];
    for (const [selector] of row.shows ?? [])
      seen.push([selector, (await page.locator(selector).allInnerTexts()).join('\n')]);
    const held: [string, string[]][] = [];
    for (const [selector] of row.holds ?? []) {
      const values: string[] = [];
      for (const field of await page.locator(selector).all()) values.push(await field.inputValue());
      held.push([selector, values]);
    }
    return {
      status: answer?.status(),
      dialogs: [...dialogs],
      injected,
      forms,
      seen,
      held,
    };
  }

  /** The cookies a person's browser holds, as a Cookie header (the anonymous one's pre-session). */
  const cookieOf = async (who: Who) =>
    who === 'anyone'
      ? (await contexts.anyone.cookies(server.url)).map((c) => `${c.name}=${c.value}`).join('; ')
      : cookies[who];

  beforeAll(async () => {
    const clock = fixedClock(NOW);
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    browser = await launchBrowser();
    const sql = server.db.sql;
    // The person's own name is stored text too (the sign-up form's "Your name").
    for (const [email, name] of [
      [OWNER, PROBE],
      [OPERATOR, 'Probe Operator'],
    ] as const) {
      const user = await findOrCreateUser(sql, email, name);
      await setPassword(sql, user.id, await hash(PASSWORD));
    }
    await grantOperatorAccess({ sql, clock: systemClock }, OPERATOR, CLI_REVIEWER);
    const owner = await signedInForm(server, OWNER, PASSWORD);
    const operator = await signedInForm(server, OPERATOR, PASSWORD);
    cookies.owner = owner.cookie;
    cookies.operator = operator.cookie;

    const { key } = await createApiKey(sql, {
      email: OWNER,
      scopes: ['bookings:read', 'bookings:write', 'pets', 'addresses', 'orders:write'],
    });
    const as = { authorization: `Bearer ${key}` };
    const stored = async (what: string, answer: ReturnType<TestServer['get']>, status = 201) => {
      const res = await answer;
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
      return res.body;
    };
    const pet = await stored(
      'pet',
      server.post(
        '/v1/pets',
        { name: PROBE, type: 'DOG', weightKg: 12, coat: 'SHORT', breed: PROBE, notes: PROBE },
        as,
      ),
    );
    const address = await stored(
      'address',
      server.post('/v1/addresses', { label: SHORT, line1: PROBE, suburb: 'Die Boord', notes: PROBE }, as),
    );
    const booking = await bookFirstCardSlot(
      server,
      { key, petId: pet.id, addressId: address.id },
      '2026-11-25',
    );
    const order = await stored(
      'order',
      server.post(
        '/v1/orders',
        {
          items: [{ productId: 'dental-treats', qty: 1 }],
          shippingMethod: 'courier',
          shipTo: { line1: '12 Dorp Street', city: 'Stellenbosch', postalCode: '7600' },
        },
        as,
      ),
    );

    // An API key named on the account page's own form.
    const keyMade = await postForm(server, '/account/keys', { name: PROBE, scopes: 'profile' }, owner);
    expect(keyMade.status).toBe(200);

    // An assistant registers itself with a name: one request approved (the account lists it), one left open.
    const client = await stored(
      'client',
      server.post('/register', {
        client_name: PROBE,
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
      }),
    );
    const consentRequest = async () => {
      const url = new URL(`${server.url}/authorize`);
      url.search = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'profile',
        state: 's',
        code_challenge: createHash('sha256').update(VERIFIER).digest('base64url'),
        code_challenge_method: 'S256',
      }).toString();
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: owner.cookie } });
      const to = new URL(res.headers.get('location') ?? '', server.url);
      expect(to.pathname, `authorize answered ${res.status}`).toBe('/oauth/consent');
      return to.searchParams.get('request')!;
    };
    const approved = await postForm(
      server,
      '/oauth/consent',
      { request: await consentRequest(), decision: 'approve' },
      owner,
    );
    expect(approved.status).toBe(303);
    // An assistant is listed once it holds a token: the code is exchanged, as the assistant would.
    const exchanged = await fetch(`${server.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: client.client_id,
        code: new URL(approved.headers.get('location')!).searchParams.get('code')!,
        code_verifier: VERIFIER,
        redirect_uri: REDIRECT,
      }),
    });
    expect(exchanged.status, await exchanged.text()).toBe(200);

    // A business application waiting for review, named with the probe, and one of the person's
    // own rejected on the console's form with the probe as its note.
    await applicationForReview(server, APPLICANT, { name: PROBE });
    const rejected = await applicationForReview(server, OWNER, { name: PROBE });
    const rejection = await postForm(
      server,
      `/operator/applications/${rejected.applicationId}/reject`,
      { reviewNote: PROBE },
      operator,
    );
    expect(rejection.status).toBe(200);

    // A no-login draft for the person's email, with a service it could not price, and where they
    // work given on its page; and a draft made without an email.
    const draft = await stored(
      'draft',
      server.post('/v1/signup-drafts', {
        businessName: PROBE,
        contactName: PROBE,
        email: OWNER,
        country: 'ZA',
        town: 'Stellenbosch',
        categories: ['grooming'],
        mode: 'MOBILE',
        services: [{ name: PROBE, price: 'depends' }],
        consent: true,
      }),
    );
    // It joins the person's account by the link its page mails (the draft itself makes or names no account).
    await followDraftLink(server, draft.draftId, OWNER);
    const area = await postForm(
      server,
      `/business/drafts/${draft.draftId}/area`,
      { suburbs: `${PROBE}, 7613` },
      owner,
    );
    expect(area.status, await area.text()).toBe(303);
    const unclaimed = await stored(
      'draft without email',
      server.post('/v1/signup-drafts', {
        businessName: PROBE,
        town: 'Stellenbosch',
        categories: ['grooming'],
        services: [{ name: 'Bath', price: 'R300' }],
        consent: true,
      }),
    );

    // An assistant asking about a place not served leaves a lead holding the address as asked.
    // (Its stated name, x-client-name, is held to letters and the like: the probe is not kept.)
    const lead = await stored(
      'lead',
      server.get(`/v1/coverage?address=${encodeURIComponent(`${PROBE} Main Road, Paarl`)}`, {
        'x-client-name': 'Claude',
      }),
      200,
    );
    expect(lead.leadId, JSON.stringify(lead)).toBeTruthy();

    // The mailed sign-in link, last: mailedLink reads the newest mail to the address.
    const linkForm = await openForm(server, '/signin/link');
    const asked = await postForm(server, '/signin/link', { email: OWNER }, linkForm);
    expect(asked.status).toBe(200);
    const { link } = await mailedLink(server, OWNER);

    // An invitation to the person (email verified) from a business whose name and job title are probes.
    await insertPartner(sql, {
      ...STELLENBOSCH_PARTNER,
      id: 'biz_probe',
      name: PROBE,
      listing: { ...STELLENBOSCH_PARTNER.listing, id: 'dir_probe' },
    });
    await sql`update users set email_verified = true where email = ${OWNER}`;
    await sql`
      insert into business_invitations (id, business_id, email, role, job_title, resource_ids, created_at, expires_at)
      values ('binv_probe', 'biz_probe', ${OWNER}, 'crew', ${PROBE}, ${[STELLENBOSCH_PARTNER.vanId]}, ${clock.now()},
        ${new Date(clock.now().getTime() + 86_400_000)})`;

    // The person also manages that business: its notifications page names it.
    await sql`
      insert into business_members (business_id, user_id, role, created_at)
      select 'biz_probe', id, 'manager', ${clock.now()} from users where email = ${OWNER}`;

    // A change an assistant (naming itself with a probe) asks the person to confirm on the page.
    await sql`
      insert into confirmations (id, user_id, operation, args_hash, summary, parts, client_name, created_at, expires_at)
      select 'cfm_probe', id, 'book', 'probe', ${`Book mobile grooming for ${PROBE}.`}, '{}', ${PROBE}, ${clock.now()},
        ${new Date(clock.now().getTime() + 600_000)}
      from users where email = ${OWNER}`;

    made = {
      confirmation: 'cfm_probe',
      invitation: 'binv_probe',
      linkToken: new URL(link).searchParams.get('token')!,
      consentRequest: await consentRequest(),
      rejectedApplication: rejected.applicationId,
      draft: draft.draftId,
      draftWithoutEmail: unclaimed.draftId,
      draftApplication: (
        await sql<
          { id: string }[]
        >`select application_id as id from signup_drafts where id = ${draft.draftId}`
      )[0]!.id,
      bookingPay: booking.payUrl,
      orderPay: order.payUrl,
    };

    // The page's CSP is bypassed: a probe that became markup would run and open a dialog.
    const session = (cookie: string) =>
      cookie.split('; ').map((c) => {
        const [name, ...value] = c.split('=');
        return { name: name!, value: value.join('='), url: server.url };
      });
    contexts.anyone = await browser.newContext({ bypassCSP: true });
    contexts.owner = await browser.newContext({ bypassCSP: true });
    contexts.operator = await browser.newContext({ bypassCSP: true });
    await contexts.owner.addCookies(session(cookies.owner));
    await contexts.operator.addCookies(session(cookies.operator));
    for (const who of ['anyone', 'owner', 'operator'] as const) {
      const page = await contexts[who].newPage();
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(`${d.type()}: ${d.message()}`);
        void d.dismiss();
      });
      pages[who] = { page, dialogs };
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The paths the pages' and payments' routers answer `method` on (wildcard middleware left out). */
  function routesOf(method: 'get' | 'post'): Set<string> {
    const routes = new Set<string>();
    for (const router of [
      pagesRouter(server.service.runtime, { secureCookies: false }),
      paymentsRouter(server.service.runtime),
    ])
      for (const layer of router.stack as {
        route?: { path: string | string[]; methods: Record<string, boolean> };
      }[])
        if (layer.route?.methods[method])
          for (const path of [layer.route.path].flat()) if (!path.includes('*')) routes.add(path);
    return routes;
  }

  it('has a row for every GET route of the pages and payments routers, and no row for a route they lack', () => {
    const routes = routesOf('get');
    const covered = new Set([...PAGES.map((p) => p.route), ...Object.keys(NOT_PAGES)]);
    expect(
      [...routes].filter((r) => !covered.has(r)),
      'GET routes without a row',
    ).toEqual([]);
    expect(
      [...covered].filter((r) => !routes.has(r)),
      'rows for no route',
    ).toEqual([]);
  });

  it.each(Object.entries(NOT_PAGES))('serves %s as %s, with nosniff', async (path, type) => {
    const res = await fetch(server.url + path);
    await res.body?.cancel();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain(type);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('fails the dialog check when a probe is markup (so the checks below can fail)', async () => {
    const page = await contexts.anyone.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    try {
      await page.setContent(`<p title="${PROBE}</p>`, { waitUntil: 'load' });
      await page.waitForTimeout(100);
      expect(dialogs.length).toBeGreaterThan(0);
    } finally {
      await page.close();
    }
  });

  it.each(PAGES)('$name: answers with the security headers', async (row) => {
    const res = await fetch(server.url + row.path(made), {
      redirect: 'manual',
      headers: row.who === 'anyone' ? {} : { cookie: cookies[row.who] },
    });
    await res.body?.cancel();
    expect(res.status).toBe(row.status);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/^default-src 'self'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it.each(PAGES)('$name: shows every stored probe as text in Chromium, and no dialog fires', async (row) => {
    const shown = await visit(row);
    expect(shown.status).toBe(row.status);
    expect(shown.dialogs).toEqual([]);
    expect(shown.injected, 'script, img[src=x] or event-handler elements on the page').toBe(0);
    for (const [selector, text] of shown.seen)
      expect(text, selector).toContain(row.shows!.find(([s]) => s === selector)![1]);
    for (const [selector, values] of shown.held) {
      expect(values.length, selector).toBeGreaterThan(0);
      for (const value of values) expect(value, selector).toBe(row.holds!.find(([s]) => s === selector)![1]);
    }
  });

  it.each(PAGES)(
    '$name: every form refuses a post without its token or from another site, and nothing changes',
    async (row) => {
      const { forms } = await visit(row);
      const cookie = await cookieOf(row.who);
      const before = await fingerprint();
      for (const form of forms) {
        const key = formKey(form.action);
        formsSeen.set(key, (formsSeen.get(key) ?? 0) + 1);
        expect(form.method, `${form.action} is posted`).toBe('post');
        expect(form.action, 'posts to this site').toMatch(/^\//);
        const token = form.fields.find(([name]) => name === 'csrf')?.[1];
        const rest = form.fields.filter(([name]) => name !== 'csrf');
        const send = async (fields: [string, string][], headers: Record<string, string>) => {
          const res = await fetch(server.url + form.action, {
            method: 'POST',
            redirect: 'manual',
            headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...headers },
            body: new URLSearchParams(fields).toString(),
          });
          return { status: res.status, text: await res.text() };
        };
        if (token === undefined) {
          expect(TOKEN_IN_ACTION, `${key} has no csrf field`).toContain(key);
        } else {
          for (const fields of [rest, [...rest, ['csrf', 'x'.repeat(token.length)]] as [string, string][]]) {
            const refused = await send(fields, { origin: server.url });
            expect(refused.status, `${form.action} without its token`).toBe(403);
            expect(refused.text).toContain('This form has expired');
          }
        }
        for (const headers of [{ origin: FOREIGN }, { 'sec-fetch-site': 'cross-site' }] as Record<
          string,
          string
        >[]) {
          const refused = await send(form.fields, headers);
          expect(refused.status, `${form.action} from ${JSON.stringify(headers)}`).toBe(403);
          expect(refused.text).toContain('This form was sent from another site');
        }
      }
      expect(await fingerprint()).toEqual(before);
    },
  );

  it('refuses a post without its token, or from another site, on every POST route of the pages, changing nothing', async () => {
    // Forms only some states show (a ready draft's submit, orders to pack, refunds owed) are reached
    // here by their route: the checks come before anything reads the id, so any id will do.
    const owner = await signedInForm(server, OWNER, PASSWORD);
    const routes = [...routesOf('post')].filter((r) => r !== NOT_A_FORM && r !== ONE_CLICK);
    const before = await fingerprint();
    for (const route of routes) {
      const path = route.replace(/:\w+/g, 'x');
      const send = async (fields: Record<string, string>, headers: Record<string, string>) => {
        const res = await postForm(server, path, fields, undefined, { cookie: owner.cookie, ...headers });
        return { status: res.status, text: await res.text() };
      };
      if (!TOKEN_IN_ACTION.includes(route.replace(/:\w+/g, ':id'))) {
        const refused = await send({}, { origin: server.url });
        expect(refused.status, `${route} without a token`).toBe(403);
        expect(refused.text, route).toContain('This form has expired');
      }
      const foreign = await send({ csrf: owner.csrf }, { origin: FOREIGN });
      expect(foreign.status, `${route} from another site`).toBe(403);
      expect(foreign.text, route).toContain('This form was sent from another site');
      postRoutes.add(route);
    }
    expect(await fingerprint()).toEqual(before);
    expect(routes.length).toBeGreaterThan(30);
  });

  it('counts what it checked: the figures for docs/security.md', () => {
    // Pages, routes, forms (by action) and probes, printed for the report.
    const probes = PAGES.reduce((n, p) => n + (p.shows?.length ?? 0) + (p.holds?.length ?? 0), 0);
    console.info(
      `pages-security: ${PAGES.length} page rows over ${new Set(PAGES.map((p) => p.route)).size} routes; ` +
        `${postRoutes.size} POST routes refusing; ` +
        `${formsSeen.size} forms by action (${[...formsSeen.values()].reduce((a, b) => a + b, 0)} on pages): ` +
        `${[...formsSeen.keys()].sort().join(' ')}; ${probes} probe checks`,
    );
    expect(formsSeen.size).toBeGreaterThan(20);
  });
});
