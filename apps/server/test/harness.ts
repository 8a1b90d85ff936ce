import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type Clock,
  type createSandboxGateway,
  jobOperations,
  MCP_PATHS,
  type McpSurface,
  operations,
  runOperation,
} from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { type Config, createLogger, loadConfig, type RunningService, startService } from '@nogpets/runtime';
import {
  type Browser,
  createTestDatabase,
  type TestDatabase,
  type TestDatabaseOptions,
} from '@nogpets/test-utils';
import { runCli } from '../src/cli-program.js';
import { allInOne } from '../src/parts.js';

/** The tools /mcp/business lists. */
const BUSINESS_TOOLS = new Set(operations.filter((op) => op.mcp === 'business').map((op) => op.toolName));

export interface TestServer {
  url: string;
  service: RunningService;
  db: TestDatabase;
  get(
    path: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  post(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /**
   * An anonymous MCP client; `headers` go with every request (such as `x-client-name`). Connected
   * to the endpoint `surface` names; without one, to /mcp, with each call of a business tool sent
   * to /mcp/business (the endpoint that lists it), so tests of a tool need not say where it lives.
   */
  mcp(headers?: Record<string, string>, surface?: McpSurface): Promise<Client>;
  /** An MCP client sending a Bearer credential; `surface` as for `mcp`. */
  mcpAs(token: string, surface?: McpSurface): Promise<Client>;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  db?: TestDatabase;
  database?: TestDatabaseOptions;
  worker?: boolean;
  clock?: Clock;
}

/** The real all-in-one server on port 0 against a fresh database of its own. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const db = options.db ?? (await createTestDatabase(options.database));
  const config: Config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: db.url,
    LOG_LEVEL: 'silent',
    OFFER_CACHE_TTL_MS: '0',
    RATE_LIMIT_POINTS: '10000',
    // Every answer of every test is checked against its operation's declared output schema.
    CHECK_OUTPUTS: 'true',
    ...options.env,
  });
  const service = await startService(allInOne({ worker: options.worker ?? false }), {
    config,
    logger: createLogger(config.LOG_LEVEL),
    clock: options.clock,
  });
  const clients: Client[] = [];
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await fetch(service.url + path, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: res.status, body: parsed as any, headers: res.headers };
  };
  const connectTo = async (surface: McpSurface, headers?: Record<string, string>): Promise<Client> => {
    const client = new Client({ name: 'nogpets-tests', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(
        new URL(`${service.url}${MCP_PATHS[surface]}`),
        headers ? { requestInit: { headers } } : undefined,
      ),
    );
    clients.push(client);
    return client;
  };
  /** A client of one endpoint, or (no surface) of /mcp sending business tools' calls to /mcp/business. */
  const connectMcp = async (headers?: Record<string, string>, surface?: McpSurface): Promise<Client> => {
    if (surface) return connectTo(surface, headers);
    const person = await connectTo('person', headers);
    let business: Promise<Client> | undefined;
    const callTool: Client['callTool'] = async (params, ...rest) => {
      if (BUSINESS_TOOLS.has(params.name))
        return (await (business ??= connectTo('business', headers))).callTool(params, ...rest);
      return person.callTool(params, ...rest);
    };
    return new Proxy(person, {
      get: (target, prop, receiver) => (prop === 'callTool' ? callTool : Reflect.get(target, prop, receiver)),
    });
  };
  return {
    url: service.url,
    service,
    db,
    get: (path, headers) => request('GET', path, undefined, headers),
    post: (path, body, headers) => request('POST', path, body, headers),
    async mcp(headers, surface) {
      return connectMcp(headers, surface);
    },
    async mcpAs(token, surface) {
      return connectMcp({ authorization: `Bearer ${token}` }, surface);
    },
    async stop() {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      await service.stop();
      if (!options.db) await db.drop();
    },
  };
}

/** The JSON a tool answered with: structured content on success, the error body on failure. */
export function toolJson(answer: unknown): any {
  const result = answer as { structuredContent?: unknown; content?: unknown };
  if (result.structuredContent !== undefined) return result.structuredContent;
  const first = (result.content as { type: string; text: string }[] | undefined)?.[0];
  return first ? JSON.parse(first.text) : undefined;
}

/** What the sandbox gateway's pay page posts: a notification it signs. */
export interface SandboxNotice {
  paymentId: string;
  gatewayRef: string;
  amountCents: number;
  outcome: 'COMPLETE' | 'FAILED';
}

/** A notification body signed by the server's own sandbox gateway, as its TEST pay page makes one. */
export function signSandboxNotice(server: TestServer, notice: SandboxNotice): Promise<string> {
  const gateway = server.service.runtime.deps.payments.gateway as ReturnType<typeof createSandboxGateway>;
  return gateway.sign(notice);
}

/** Posts a notification body to the sandbox gateway's notify endpoint; the HTTP status. */
export async function notifySandbox(server: TestServer, body: string): Promise<number> {
  const res = await fetch(`${server.url}/payments/sandbox/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  await res.body?.cancel();
  return res.status;
}

/** The newest open pay link of a booking: its payment id and amount. */
export async function openPayment(
  server: TestServer,
  bookingId: string,
): Promise<{ id: string; amount: number }> {
  const [payment] = await server.db.sql<{ id: string; amount: number }[]>`
    select id, amount_cents as amount from payments where ${bookingId} = any(booking_ids) and status = 'OPEN' order by created_at desc limit 1`;
  if (!payment) throw new Error(`no open payment for ${bookingId}`);
  return payment;
}

/** The gateway reports the card payment of a booking's open link (200 expected). */
export async function payInSandbox(server: TestServer, bookingId: string): Promise<number> {
  const payment = await openPayment(server, bookingId);
  return notifySandbox(
    server,
    await signSandboxNotice(server, {
      paymentId: payment.id,
      gatewayRef: `sbx_${bookingId}`,
      amountCents: payment.amount,
      outcome: 'COMPLETE',
    }),
  );
}

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type CliResult = { status: number | null; stdout: string; stderr: string; lastLine: string };

function cliEnv(databaseUrl: string | undefined, env: Record<string, string>): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (databaseUrl) e.DATABASE_URL = databaseUrl;
  else delete e.DATABASE_URL;
  return e;
}

/**
 * `pnpm --silent cli ...` against the test database: the CLI's own `runCli` (the commands, their
 * settings from `env`, their output and exit status) in this process, which saves a Node start
 * per call. Asynchronous, so the server in this process keeps serving meanwhile. `cliProcess`
 * runs the real entry point in a process of its own.
 */
export async function cli(
  databaseUrl: string | undefined,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const status = await runCli(args, {
    env: cliEnv(databaseUrl, env),
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
  });
  return { status, stdout, stderr, lastLine: stdout.trim().split('\n').at(-1) ?? '' };
}

/** `pnpm --silent cli ...` as the operator runs it: `src/cli.ts` in a Node process of its own. */
export function cliProcess(
  databaseUrl: string | undefined,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      cwd: serverDir,
      env: cliEnv(databaseUrl, env),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) =>
      resolve({ status, stdout, stderr, lastLine: stdout.trim().split('\n').at(-1) ?? '' }),
    );
  });
}

/**
 * A person's browser steps of an authorization: open the URL, sign in if asked, answer the consent
 * page. Returns the consent page's text and the URL the browser was sent back to (under `returnTo`).
 */
export async function consentInBrowser(
  browser: Browser,
  url: string,
  options: {
    email: string;
    password: string;
    returnTo: string;
    decision?: 'Allow' | 'Deny';
    expectClient?: string;
  },
) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    if (page.url().includes('/signin')) {
      await page.getByLabel('Email').fill(options.email);
      await page.getByLabel('Password').fill(options.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    if (options.expectClient) await page.getByText(options.expectClient).first().waitFor();
    const consent = (await page.locator('main').textContent()) ?? '';
    await page.getByRole('button', { name: options.decision ?? 'Allow' }).click();
    await page.waitForURL((u) => u.href.startsWith(options.returnTo));
    return { back: new URL(page.url()), consent };
  } finally {
    await context.close();
  }
}

/** A browser's pre-session as our form pages give it: the cookie and the form's token. */
export interface FormSession {
  cookie: string;
  csrf: string;
}

/**
 * A pet owner as most booking tests need one: an API key for bookings, pets and addresses, one
 * saved dog and one saved address in Die Boord (inside the demo coverage).
 */
export async function newPetOwner(
  server: TestServer,
  owner: { email: string; pet: { name: string; weightKg: number }; line1: string },
): Promise<{ key: string; petId: string; addressId: string }> {
  const { key } = await createApiKey(server.db.sql, {
    email: owner.email,
    scopes: ['bookings:read', 'bookings:write', 'pets', 'addresses'],
  });
  const as = { authorization: `Bearer ${key}` };
  const pet = await server.post('/v1/pets', { ...owner.pet, type: 'DOG', coat: 'SHORT' }, as);
  const address = await server.post(
    '/v1/addresses',
    { label: 'Home', line1: owner.line1, suburb: 'Die Boord' },
    as,
  );
  if (pet.status !== 201 || address.status !== 201)
    throw new Error(`owner setup failed: ${pet.status} ${address.status}`);
  return { key, petId: pet.body.id, addressId: address.body.id };
}

/**
 * The owner's first open grooming slot on `day` (a dog bath for their saved pet at their saved
 * address), booked by card; throws when none is open or booking fails.
 */
export async function bookFirstCardSlot(
  server: TestServer,
  owner: { key: string; petId: string; addressId: string },
  day: string,
): Promise<{ bookingId: string; when: string; start: string; payUrl: string }> {
  const as = { authorization: `Bearer ${owner.key}` };
  const body = {
    category: 'grooming',
    addressId: owner.addressId,
    pets: [{ petId: owner.petId, serviceIds: ['groom-dog-bath'] }],
  };
  const found = await server.post('/v1/availability', { ...body, from: day, to: day }, as);
  const slot = found.body.days?.[0]?.slots?.[0];
  if (found.status !== 200 || !slot) throw new Error(`no open slot on ${day}: ${JSON.stringify(found.body)}`);
  const booked = await server.post(
    '/v1/bookings',
    { ...body, start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD' },
    as,
  );
  if (booked.status !== 201)
    throw new Error(`booking failed: ${booked.status} ${JSON.stringify(booked.body)}`);
  return {
    bookingId: booked.body.bookingId,
    when: booked.body.when,
    start: slot.start,
    payUrl: booked.body.payUrl,
  };
}

/** Signs in with email and password as the sign-in page would; the session's cookie and the account page's form token. */
export async function signedInForm(
  server: TestServer,
  email: string,
  password: string,
): Promise<FormSession> {
  const signin = await openForm(server, '/signin');
  const signedIn = await postForm(server, '/signin', { email, password, next: '/account' }, signin);
  if (signedIn.status !== 303) throw new Error(`sign-in refused: ${signedIn.status}`);
  const cookie = (signedIn.headers.getSetCookie() ?? []).map((c) => c.split(';')[0]).join('; ');
  const page = await fetch(`${server.url}/account`, { headers: { cookie } });
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1];
  if (!csrf) throw new Error('no form token on /account');
  return { cookie, csrf };
}

/** Opens a form page as a browser would (GET), keeping the cookie it sets and the form's token. */
export async function openForm(server: TestServer, path: string): Promise<FormSession> {
  const res = await fetch(server.url + path, { redirect: 'manual' });
  const cookie = (res.headers.getSetCookie() ?? []).map((c) => c.split(';')[0]).join('; ');
  const text = await res.text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(text)?.[1];
  if (!csrf) throw new Error(`no form token on ${path} (${res.status})`);
  return { cookie, csrf };
}

/** Posts a form as the page would (same-site unless headers say otherwise); the answer is not followed. */
export function postForm(
  server: TestServer,
  path: string,
  fields: Record<string, string>,
  form?: FormSession,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(server.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(form ? { cookie: form.cookie } : {}),
      ...headers,
    },
    body: new URLSearchParams({ ...(form ? { csrf: form.csrf } : {}), ...fields }).toString(),
  });
}

/** The sign-in link of the newest mail to `email`, read as the operator does: `pnpm cli mail list`. */
export async function mailedLink(
  server: TestServer,
  email: string,
): Promise<{ link: string; subject: string; body: string }> {
  const out = await cli(server.db.url, ['mail', 'list', '--to', email, '--limit', '1']);
  if (out.status !== 0) throw new Error(out.stderr);
  const link = /https?:\/\/\S+\/signin\/email\?token=[A-Za-z0-9_-]+/.exec(out.stdout)?.[0];
  if (!link) throw new Error(`no link mailed to ${email}:\n${out.stdout}`);
  return { link, subject: /^Subject: (.*)$/m.exec(out.stdout)?.[1] ?? '', body: out.stdout };
}

/**
 * Runs one of the worker's jobs once, as the worker runs it: its internal operation through
 * runOperation as the `system` principal named after the job, on the server's dependencies.
 */
export async function runJob<K extends keyof typeof jobOperations>(
  server: TestServer,
  operation: K,
  job: string,
): Promise<Awaited<ReturnType<(typeof jobOperations)[K]['handler']>>> {
  return (await runOperation(
    jobOperations[operation] as (typeof jobOperations)['dispatchNotices'],
    {
      deps: server.service.runtime.deps,
      requestId: `test-${job}`,
      clientName: null,
      auth: null,
      log: { info() {}, warn() {}, error() {} },
      principal: { kind: 'system', job },
    },
    {},
  )) as Awaited<ReturnType<(typeof jobOperations)[K]['handler']>>;
}
