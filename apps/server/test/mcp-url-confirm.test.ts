// The person confirms money themselves where the client can show a page (issue 31, part 3): an MCP
// client that declares URL-mode elicitation (MCP 2025-11-25) gets an Mcp-Session-Id; a change that
// needs agreement then answers the URL elicitation required error (-32042) naming /confirm/<id>,
// where the signed-in person sees the same summary and confirms or refuses in Chromium; the
// assistant's retried call goes through exactly once, only if they confirmed. `confirm: true` from
// the assistant counts for nothing there. Clients that declare nothing keep CONFIRM_REQUIRED and
// `confirm: true` as before. The database is read here only to check that nothing was written.
import { mkdirSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { hash } from '@node-rs/argon2';
import { createApiKey } from '@nogpets/operations/testing';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { type Browser, fixedClock, launchBrowser, type Page } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newPetOwner,
  postForm,
  signedInForm,
  startTestServer,
  type TestServer,
  toolJson,
} from './harness.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const clock = fixedClock('2026-11-23T04:00:00Z'); // Monday 06:00 in Johannesburg
const PASSWORD = 'a long enough password';
const PERSON = 'confirm-page-owner@example.com';
const OTHER = 'someone-else@example.com';
const OWNER = 'owner@partner.example'; // Boland Paws' owner in the demo data
const BIZ = 'biz_boland_paws';
const SHOTS = '/tmp/shots/mcp-url-confirm';
const BUSINESS_ENDPOINT = '/mcp/business';

describe('the person confirms on our page where the MCP client can show one', () => {
  let server: TestServer;
  let browser: Browser;
  let person: { key: string; petId: string; addressId: string };
  let ownerKey: string;
  let userId: string;
  const clients: Client[] = [];
  const as = (key: string) => ({ authorization: `Bearer ${key}` });

  /** An MCP client sending `key`, declaring URL-mode elicitation unless `pages` is false. */
  async function mcpClient(key: string, options: { pages?: boolean; path?: string } = {}) {
    const client = new Client(
      { name: 'Pager (confirm test)', version: '1.0.0' },
      options.pages === false ? {} : { capabilities: { elicitation: { url: {} } } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}${options.path ?? '/mcp'}`), {
      requestInit: { headers: as(key) },
    });
    await client.connect(transport);
    clients.push(client);
    return { client, transport };
  }

  /** The first open cash slot of the person's dog bath on `day`: the book tool's arguments. */
  async function cashBooking(day: string) {
    const body = {
      category: 'grooming',
      addressId: person.addressId,
      pets: [{ petId: person.petId, serviceIds: ['groom-dog-bath'] }],
    };
    const found = await server.post('/v1/availability', { ...body, from: day, to: day }, as(person.key));
    const slot = found.body.days?.[0]?.slots?.[0];
    expect(slot, `an open time on ${day}`).toBeDefined();
    return { ...body, start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CASH' };
  }

  /** The elicitation a call answered with: the URL elicitation required error, nothing else. */
  async function elicited(call: Promise<unknown>) {
    const err = await call.then(
      (answer) => {
        throw new Error(`expected -32042, got ${JSON.stringify(answer)}`);
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UrlElicitationRequiredError);
    const e = err as UrlElicitationRequiredError;
    expect(e.code).toBe(ErrorCode.UrlElicitationRequired);
    expect(e.elicitations).toHaveLength(1);
    const [el] = e.elicitations;
    expect(el!.mode).toBe('url');
    expect(el!.url).toBe(`${server.url}/confirm/${el!.elicitationId}`);
    return { id: el!.elicitationId, url: el!.url, message: el!.message };
  }

  const bookingsOf = async (id: string) =>
    (await server.db.sql<{ n: number }[]>`select count(*)::int as n from bookings where user_id = ${id}`)[0]!
      .n;
  const confirmation = async (id: string) =>
    (
      await server.db.sql<{ status: string; usedAt: Date | null }[]>`
        select status, used_at as "usedAt" from confirmations where id = ${id}`
    )[0]!;

  const seen = (page: Page) => page.locator('main').innerText();
  async function shot(page: Page, name: string) {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  }
  /**
   * Presses Confirm or Refuse and waits for the page the answer leads to (the same URL: the text
   * says it is there); its status.
   */
  async function answer(page: Page, button: 'Confirm' | 'Refuse', shows: string): Promise<number> {
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: button }).click(),
    ]);
    await page.getByText(shows).waitFor();
    return res.status();
  }
  /** A browser signed in as `email`, having opened `url` (sent to sign in first, then back). */
  async function openSignedIn(email: string, url: string) {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForURL(/\/signin\?next=/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await Promise.all([page.waitForURL(url), page.getByRole('button', { name: 'Sign in' }).click()]);
    return { page, context };
  }

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    browser = await launchBrowser();
    const sql = server.db.sql;
    const secret = await hash(PASSWORD);
    person = await newPetOwner(server, {
      email: PERSON,
      pet: { name: 'Rex', weightKg: 12 },
      line1: '12 Dorp Street',
    });
    for (const email of [PERSON, OTHER, OWNER]) {
      const user = await findOrCreateUser(sql, email);
      await setPassword(sql, user.id, secret);
      if (email === PERSON) userId = user.id;
    }
    ownerKey = (await createApiKey(sql, { email: OWNER, scopes: ['business:manage'] })).key;
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await browser?.close();
    await server?.stop();
  });

  it('a cash booking waits for the person on the page; confirm: true counts for nothing; the retry books exactly once', async () => {
    const { client, transport } = await mcpClient(person.key);
    expect(transport.sessionId).toMatch(/^nms_/);
    const args = await cashBooking('2026-11-25');
    const before = await bookingsOf(userId);
    const asked = await elicited(client.callTool({ name: 'book', arguments: { ...args, confirm: true } }));
    expect(asked.message).toMatch(/^Confirm or refuse on NogPets: Book mobile grooming for Rex at Home, /);
    expect(asked.message).toMatch(/in cash to the crew on the day\.$/);
    expect(await bookingsOf(userId)).toBe(before);
    // Asked again before the person answered: the same page, not a second question.
    expect(
      (await elicited(client.callTool({ name: 'book', arguments: { ...args, confirm: true } }))).id,
    ).toBe(asked.id);

    const { page, context } = await openSignedIn(PERSON, asked.url);
    try {
      const open = await seen(page);
      expect(open).toContain(
        'An assistant calling itself “Pager (confirm test)” asks to make this change for you.',
      );
      // Ten minutes, in the pages' zone (asked at 06:00 in Johannesburg).
      expect(open).toContain('Open until Mon, 23 Nov 2026, 06:10. Your answer counts once.');
      expect(open).toContain(asked.message.replace('Confirm or refuse on NogPets: ', ''));
      await shot(page, '1-open');
      expect(await answer(page, 'Confirm', 'You confirmed this change.')).toBe(303);
      expect(await seen(page)).toContain('You confirmed this change. Go back to your assistant');
      expect(await page.getByRole('button', { name: 'Confirm' }).count()).toBe(0);
      await shot(page, '2-confirmed');
      expect(await bookingsOf(userId)).toBe(before);

      // Two retries at once (any instance would do): one books, the confirmation is used once.
      const retries = await Promise.allSettled([
        client.callTool({ name: 'book', arguments: { ...args, confirm: false } }),
        client.callTool({ name: 'book', arguments: { ...args, confirm: false } }),
      ]);
      const booked = retries.filter(
        (r) => r.status === 'fulfilled' && !(r.value as { isError?: boolean }).isError,
      ) as PromiseFulfilledResult<unknown>[];
      expect(booked, JSON.stringify(retries)).toHaveLength(1);
      expect(toolJson(booked[0]!.value).bookingId).toMatch(/.+/);
      expect(await bookingsOf(userId)).toBe(before + 1);
      expect(await confirmation(asked.id)).toMatchObject({ status: 'confirmed', usedAt: expect.any(Date) });

      await page.reload();
      expect(await seen(page)).toContain('Your assistant made this change after you confirmed it.');
      await shot(page, '3-used');
    } finally {
      await context.close();
    }
  });

  it('refused on the page: the retry answers CONFIRM_REFUSED once and cancels nothing; other arguments ask anew', async () => {
    const { client } = await mcpClient(person.key);
    const args = await cashBooking('2026-11-24');
    const asked = await elicited(client.callTool({ name: 'book', arguments: { ...args, confirm: true } }));
    const { page, context } = await openSignedIn(PERSON, asked.url);
    let bookingId: string;
    try {
      await answer(page, 'Confirm', 'You confirmed this change.');
      bookingId = toolJson(await client.callTool({ name: 'book', arguments: args })).bookingId;

      const cancel = { bookingId, confirm: true };
      const ask = await elicited(client.callTool({ name: 'cancel_booking', arguments: cancel }));
      expect(ask.message).toMatch(/^Confirm or refuse on NogPets: Cancel /);
      // Other arguments (the weeks after it too) are another question, with a page of its own.
      const other = await elicited(
        client.callTool({ name: 'cancel_booking', arguments: { ...cancel, series: true } }),
      );
      expect(other.id).not.toBe(ask.id);

      await page.goto(ask.url);
      await answer(page, 'Refuse', 'You refused this change.');
      expect(await seen(page)).toContain('You refused this change. Nothing was changed');
      await shot(page, '4-refused');
    } finally {
      await context.close();
    }
    const refused = toolJson(
      await client.callTool({ name: 'cancel_booking', arguments: { bookingId, confirm: true } }),
    );
    expect(refused.error.code).toBe('CONFIRM_REFUSED');
    expect(refused.error.message).toMatch(/refused this change .* nothing was changed/);
    const [row] = await server.db.sql<
      { status: string }[]
    >`select status from bookings where id = ${bookingId}`;
    expect(row!.status).not.toBe('CANCELLED');
    // Told once: the same call asks the person again.
    const again = await elicited(
      client.callTool({ name: 'cancel_booking', arguments: { bookingId, confirm: true } }),
    );
    expect(again.id).not.toBe(asked.id);
  });

  it('an expired question, someone else’s and a replayed answer are pages that change nothing', async () => {
    const { client } = await mcpClient(person.key);
    const args = await cashBooking('2026-11-27');
    const before = await bookingsOf(userId);
    const asked = await elicited(client.callTool({ name: 'book', arguments: args }));

    // Someone else signed in: no such confirmation for them, and nothing of it shown.
    const stranger = await openSignedIn(OTHER, asked.url);
    try {
      const text = await seen(stranger.page);
      expect(text).toContain('There is no such confirmation for you.');
      expect(text).not.toContain('Rex');
      await shot(stranger.page, '5-someone-else');
      const res = await stranger.page.request.get(asked.url);
      expect(res.status()).toBe(404);
    } finally {
      await stranger.context.close();
    }

    // Two tabs of the person: confirmed in one, the other's Refuse is a replay, refused with a page.
    const { page, context } = await openSignedIn(PERSON, asked.url);
    try {
      const second = await context.newPage();
      await second.goto(asked.url);
      await answer(page, 'Confirm', 'You confirmed this change.');
      expect(await answer(second, 'Refuse', 'This confirmation was already answered.')).toBe(409);
      const replayed = await seen(second);
      expect(replayed).toContain('This confirmation was already answered.');
      expect(replayed).toContain('You confirmed this change.');
      await shot(second, '6-replayed');
      expect(await confirmation(asked.id)).toMatchObject({ status: 'confirmed', usedAt: null });

      // The assistant comes back too late: the confirmation expired, the call asks anew.
      clock.advance(11 * 60_000);
      await page.reload();
      expect(await seen(page)).toContain('This confirmation has expired, so nothing was changed.');
      await shot(page, '7-expired');
      const anew = await elicited(client.callTool({ name: 'book', arguments: args }));
      expect(anew.id).not.toBe(asked.id);
      expect(await bookingsOf(userId)).toBe(before);

      // An open question that expires while its page is open: the answer is refused.
      await page.goto(anew.url);
      clock.advance(11 * 60_000);
      expect(await answer(page, 'Confirm', 'This confirmation has expired. Ask your assistant')).toBe(409);
      expect(await seen(page)).toContain('This confirmation has expired. Ask your assistant');
      expect(await confirmation(anew.id)).toMatchObject({ status: 'pending', usedAt: null });
    } finally {
      await context.close();
    }
  });

  it('a form without the session’s token, from another site or with no answer changes nothing; signed out, the page asks to sign in', async () => {
    const { client } = await mcpClient(person.key);
    const asked = await elicited(
      client.callTool({ name: 'book', arguments: await cashBooking('2026-11-30') }),
    );
    const path = new URL(asked.url).pathname;
    const signedOut = await fetch(asked.url, { redirect: 'manual' });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('location')).toBe(`/signin?next=${encodeURIComponent(path)}`);
    const form = await signedInForm(server, PERSON, PASSWORD);
    const forged = await postForm(server, path, { answer: 'confirm' }, { ...form, csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('This form has expired.');
    const crossSite = await postForm(server, path, { answer: 'confirm' }, form, {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    const noAnswer = await postForm(server, path, { answer: 'yes please' }, form);
    expect(noAnswer.status).toBe(400);
    expect(await confirmation(asked.id)).toMatchObject({ status: 'pending', usedAt: null });
    const tooLong = await fetch(`${server.url}/confirm/${'c'.repeat(101)}`, {
      headers: { cookie: form.cookie },
    });
    expect(tooLong.status).toBe(400);
  });

  it('an Idempotency-Key does not keep the question as its answer: the retry with the same key books once confirmed', async () => {
    const { client } = await mcpClient(person.key);
    const args = await cashBooking('2026-12-02');
    const call = () =>
      client.callTool({ name: 'book', arguments: args, _meta: { idempotencyKey: 'confirm-page-key-1' } });
    const before = await bookingsOf(userId);
    const asked = await elicited(call());
    expect((await elicited(call())).id).toBe(asked.id);
    const form = await signedInForm(server, PERSON, PASSWORD);
    const answered = await postForm(server, new URL(asked.url).pathname, { answer: 'confirm' }, form);
    expect(answered.status).toBe(303);
    const booked = toolJson(await call());
    expect(booked.bookingId).toMatch(/.+/);
    // The key now keeps the booking: the same call again answers it, and books nothing more.
    expect(toolJson(await call()).bookingId).toBe(booked.bookingId);
    expect(await bookingsOf(userId)).toBe(before + 1);
  });

  it('confirm: true from a door without pages does not overrule the page: waiting, refused, then asked anew', async () => {
    const { client } = await mcpClient(person.key);
    const args = await cashBooking('2026-12-03');
    const before = await bookingsOf(userId);
    const asked = await elicited(client.callTool({ name: 'book', arguments: { ...args, confirm: true } }));
    // The same assistant, dropping its session (a client declaring nothing), or the API: the 409
    // names the page the person was asked on, and nothing is booked.
    const { client: plain } = await mcpClient(person.key, { pages: false });
    const waiting = toolJson(await plain.callTool({ name: 'book', arguments: { ...args, confirm: true } }));
    expect(waiting.error).toMatchObject({
      code: 'CONFIRM_REQUIRED',
      details: { confirmation: { url: asked.url } },
    });
    expect(waiting.error.message).toMatch(/confirms this themselves on a NogPets page/);
    const overApi = await server.post('/v1/bookings', { ...args, confirm: true }, as(person.key));
    expect(overApi.status).toBe(409);
    expect(overApi.body.error.details.confirmation.id).toBe(asked.id);
    expect(await bookingsOf(userId)).toBe(before);

    const form = await signedInForm(server, PERSON, PASSWORD);
    expect((await postForm(server, new URL(asked.url).pathname, { answer: 'refuse' }, form)).status).toBe(
      303,
    );
    const refused = toolJson(await plain.callTool({ name: 'book', arguments: { ...args, confirm: true } }));
    expect(refused.error.code).toBe('CONFIRM_REFUSED');
    // Told once; then the person is asked again, on a new page, and still nothing is booked.
    const again = toolJson(await plain.callTool({ name: 'book', arguments: { ...args, confirm: true } }));
    expect(again.error.code).toBe('CONFIRM_REQUIRED');
    expect(again.error.details.confirmation.id).not.toBe(asked.id);
    expect(await bookingsOf(userId)).toBe(before);
  });

  it('a refusal after the person confirmed (the slot taken meanwhile) keeps its Idempotency-Key answer and leaves the confirmation unused', async () => {
    const { client } = await mcpClient(person.key);
    const args = await cashBooking('2026-12-04');
    const call = () =>
      client.callTool({ name: 'book', arguments: args, _meta: { idempotencyKey: 'confirm-page-key-2' } });
    const asked = await elicited(call());
    const form = await signedInForm(server, PERSON, PASSWORD);
    expect((await postForm(server, new URL(asked.url).pathname, { answer: 'confirm' }, form)).status).toBe(
      303,
    );
    // Someone else books that very slot before the assistant retries.
    const other = await newPetOwner(server, {
      email: 'slot-taker@example.com',
      pet: { name: 'Bolt', weightKg: 12 },
      line1: '14 Dorp Street',
    });
    const taken = await server.post(
      '/v1/bookings',
      {
        ...args,
        addressId: other.addressId,
        pets: [{ petId: other.petId, serviceIds: ['groom-dog-bath'] }],
        paymentMethod: 'CARD',
      },
      as(other.key),
    );
    expect(taken.status, JSON.stringify(taken.body)).toBe(201);
    const first = toolJson(await call());
    expect(first.error.code).toBe('SLOT_TAKEN');
    const [kept] = await server.db.sql<{ status: number }[]>`
      select status from idempotency_keys where user_id = ${userId} and key = 'confirm-page-key-2'`;
    expect(kept?.status).toBe(409);
    expect(toolJson(await call()).error).toEqual(first.error);
    expect(await confirmation(asked.id)).toMatchObject({ status: 'confirmed', usedAt: null });
  });

  it('a Run tool of the business endpoint waits for the owner on the page too', async () => {
    const { client } = await mcpClient(ownerKey, { path: BUSINESS_ENDPOINT });
    const [b] = await server.db.sql<{ id: string }[]>`
      select id from bookings where business_id = ${BIZ} and id like 'demo-%' and status = 'ACCEPTED'
        and starts_at > ${new Date(clock.now().getTime() + 86_400_000)} order by starts_at, id limit 1`;
    const args = { businessId: BIZ, bookingId: b!.id, reason: 'Our groomer is ill.', confirm: true };
    const asked = await elicited(client.callTool({ name: 'cancel_business_booking', arguments: args }));
    expect(asked.message).toMatch(/^Confirm or refuse on NogPets: /);
    const state = async () =>
      (await server.db.sql<{ status: string }[]>`select status from bookings where id = ${b!.id}`)[0]!.status;
    expect(await state()).toBe('ACCEPTED');
    const { page, context } = await openSignedIn(OWNER, asked.url);
    try {
      await answer(page, 'Confirm', 'You confirmed this change.');
    } finally {
      await context.close();
    }
    const done = toolJson(await client.callTool({ name: 'cancel_business_booking', arguments: args }));
    expect(done.error).toBeUndefined();
    expect(await state()).not.toBe('ACCEPTED');
  });

  it('a client that declares nothing has no session and keeps CONFIRM_REQUIRED and confirm: true', async () => {
    const { client, transport } = await mcpClient(person.key, { pages: false });
    expect(transport.sessionId).toBeUndefined();
    // A day no other test asked about on the page (a call asked there is agreed there only).
    const args = await cashBooking('2026-12-07');
    const before = await bookingsOf(userId);
    const asked = toolJson(await client.callTool({ name: 'book', arguments: args }));
    expect(asked.error.code).toBe('CONFIRM_REQUIRED');
    expect(asked.error.details.summary).toMatch(/^Book mobile grooming for Rex/);
    expect(asked.error.details.confirmation).toBeUndefined();
    expect(await bookingsOf(userId)).toBe(before);
    const booked = toolJson(await client.callTool({ name: 'book', arguments: { ...args, confirm: true } }));
    expect(booked.bookingId).toMatch(/.+/);
    expect(await bookingsOf(userId)).toBe(before + 1);
    // /v1 too, as always.
    const http = await server.post('/v1/bookings', { ...(await cashBooking('2026-12-01')) }, as(person.key));
    expect(http.status).toBe(409);
    expect(http.body.error.code).toBe('CONFIRM_REQUIRED');
  });

  it('a client that negotiated a protocol before URL elicitation (2025-06-18) keeps confirm: true', async () => {
    const post = (body: unknown, session?: string) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          ...as(person.key),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
          ...(session ? { 'mcp-session-id': session } : {}),
        },
        body: JSON.stringify(body),
      });
    const init = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: { elicitation: { url: {} } },
        clientInfo: { name: 'older-client', version: '1' },
      },
    });
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id') ?? undefined;
    const args = await cashBooking('2026-12-08');
    const before = await bookingsOf(userId);
    const called = await post(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'book', arguments: { ...args, confirm: true } },
      },
      session,
    );
    const body = (await called.json()) as Json;
    expect(body.error, JSON.stringify(body)).toBeUndefined();
    expect(body.result.structuredContent.bookingId).toMatch(/.+/);
    expect(await bookingsOf(userId)).toBe(before + 1);
  });

  it('sessions: an unknown or ended one is 404 (initialize again); DELETE ends one; without one DELETE is 405', async () => {
    const { client, transport } = await mcpClient(person.key);
    const sessionId = transport.sessionId!;
    const post = (id: string | undefined, method = 'POST', path = '/mcp') =>
      fetch(`${server.url}${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          ...(id ? { 'mcp-session-id': id } : {}),
        },
        body: method === 'POST' ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) : undefined,
      });
    expect((await post(sessionId)).status).toBe(200);
    // A session belongs to the endpoint it was opened on.
    expect((await post(sessionId, 'POST', BUSINESS_ENDPOINT)).status).toBe(404);
    const unknown = await post('nms_not-a-session');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as Json).error.code).toBe(-32001);
    expect((await post(undefined, 'DELETE')).status).toBe(405);
    expect((await post(sessionId, 'DELETE')).status).toBe(204);
    expect((await post(sessionId)).status).toBe(404);
    expect((await post(sessionId, 'DELETE')).status).toBe(404);
    // The SDK's client is told so as an HTTP error (not a JSON-RPC one): it starts again with initialize.
    const err = await client.listTools().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(McpError);
    expect(String((err as Error).message)).toMatch(/Session not found/);
    const fresh = await mcpClient(person.key);
    expect(fresh.transport.sessionId).not.toBe(sessionId);
    expect((await fresh.client.listTools()).tools.length).toBeGreaterThan(0);
    // The SDK client's own DELETE ends its session.
    const ended = fresh.transport.sessionId!;
    await fresh.transport.terminateSession();
    expect(fresh.transport.sessionId).toBeUndefined();
    expect((await post(ended)).status).toBe(404);
  });
});
