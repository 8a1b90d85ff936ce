// Webhooks end to end: endpoints registered over HTTP and MCP by a business's owner and by pet
// owners using the API; the worker's jobs turn the domain events into deliveries and POST them to a
// real receiver on loopback that verifies every signature with `standardwebhooks`. Retries after
// 500s and a timeout (the clock moved), redelivery, deletion, disabling after about three days of
// failure (the owner mailed), two send passes at once, and SSRF refusals at registration and at
// connect time on a server that does not allow loopback.
import { checkWebhookUrl, createApiKey } from '@nogpets/operations/testing';
import { appendEvents, findOrCreateUser, newId } from '@nogpets/store';
import { fixedClock } from '@nogpets/test-utils';
import { fanOutWebhooks, sendWebhooks } from '@nogpets/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookFirstCardSlot, newPetOwner, startTestServer, type TestServer, toolJson } from './harness.js';
import { insertPartner, STELLENBOSCH_PARTNER } from './partner-fixture.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

/** The one row a query answers. */
const one = <T>(rows: readonly T[]): T => rows[0]!;

const BP = 'biz_boland_paws';
const SECOND = 1000;
const HOUR = 3600 * SECOND;

/** Polls `check` until it holds or the deadline passes; each round runs `step` first. */
async function until(step: () => Promise<unknown>, check: () => boolean | Promise<boolean>, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    await step();
    if (await check()) return;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('webhooks, loopback allowed (development and tests)', () => {
  const clock = fixedClock('2026-11-23T04:00:00Z'); // Monday 06:00 in Johannesburg
  let server: TestServer;
  let receiver: WebhookReceiver;
  const keys = {} as Record<'owner' | 'crew' | 'other', string>;
  let alice: { key: string; petId: string; addressId: string };
  let bongani: { key: string; petId: string; addressId: string };
  const as = (key: string, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${key}`,
    ...extra,
  });
  const jobCtx = () => ({ sql: server.db.sql, now: () => clock.now(), deps: server.service.runtime.deps });
  const fanOut = () => fanOutWebhooks.run(jobCtx());
  const send = () => sendWebhooks.run(jobCtx());
  const drain = async () => {
    await fanOut();
    await send();
  };

  /** Registers an endpoint on the receiver's `path` and lets the receiver verify with its secret. */
  async function register(
    key: string,
    path: string,
    eventTypes: string[],
    options: { person?: boolean; businessId?: string } = {},
  ): Promise<Json> {
    const res = await server.post(
      options.person ? '/v1/webhooks' : '/v1/business/webhooks',
      {
        url: receiver.url(path),
        eventTypes,
        ...(options.businessId ? { businessId: options.businessId } : {}),
      },
      as(key),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    receiver.secrets.set(path, res.body.secret);
    return res.body;
  }

  /** Boland Paws books its client Anele (cash) on `date`: a booking.created of the business. */
  async function bookAtBolandPaws(date: string): Promise<string> {
    const pets = [{ petId: 'pet_bp_bongo', serviceIds: ['bp-groom-bath'] }];
    const times = await server.post(
      '/v1/business/times',
      { pets, clientId: 'cli_bp_anele', from: date, to: date, resourceId: 'bp-van-2' },
      as(keys.owner),
    );
    expect(times.status, JSON.stringify(times.body)).toBe(200);
    const slot = times.body.days[0].slots[0];
    const made = await server.post(
      '/v1/business/bookings',
      {
        client: { clientId: 'cli_bp_anele' },
        pets,
        address: { addressId: 'adr_bp_anele' },
        start: slot.start,
        resourceId: slot.resourceId,
        paymentMethod: 'CASH',
        confirm: true,
      },
      as(keys.owner),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body.booking.bookingId;
  }

  const deliveries = async (key: string, endpointId: string, person = false) => {
    const res = await server.get(
      `${person ? '/v1/webhooks' : '/v1/business/webhooks'}/${endpointId}/deliveries`,
      as(key),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.deliveries as Json[];
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    server = await startTestServer({
      clock,
      database: { demoDataAt: clock.now() },
      env: { WEBHOOKS_ALLOW_LOOPBACK: 'true', WEBHOOKS_TIMEOUT_MS: '1000' },
    });
    await insertPartner(server.db.sql, STELLENBOSCH_PARTNER);
    const key = async (email: string) =>
      (await createApiKey(server.db.sql, { email, scopes: ['business:manage'] })).key;
    keys.owner = await key('owner@partner.example');
    keys.crew = await key('crew@partner.example');
    keys.other = await key('other-business@example.com');
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${STELLENBOSCH_PARTNER.id}, id, 'owner', now() from users where email = 'other-business@example.com'`;
    alice = await newPetOwner(server, {
      email: 'alice.hooks@example.com',
      pet: { name: 'Rex', weightKg: 12 },
      line1: '4 Rustenburg Road',
    });
    bongani = await newPetOwner(server, {
      email: 'bongani.hooks@example.com',
      pet: { name: 'Max', weightKg: 20 },
      line1: '6 Rustenburg Road',
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it("a booking made and cancelled reaches its business's endpoint and the person's own, signed; nobody else's", async () => {
    const biz = await register(keys.owner, '/biz', ['*']);
    expect(biz.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(biz.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(biz).toMatchObject({ businessId: BP, eventTypes: ['*'], status: 'ENABLED' });
    await register(keys.other, '/other', ['*']);
    const mine = await register(alice.key, '/alice', ['booking.created', 'booking.cancelled'], {
      person: true,
    });
    expect(mine.businessId).toBeNull();
    await register(bongani.key, '/bongani', ['*'], { person: true });

    // The secret is shown once: never in a list.
    const listed = await server.get('/v1/business/webhooks', as(keys.owner));
    expect(listed.status).toBe(200);
    expect(listed.body.endpoints.map((e: Json) => e.endpointId)).toEqual([biz.endpointId]);
    expect(JSON.stringify(listed.body)).not.toContain(biz.secret);
    // And over MCP, the same list.
    const mcp = await server.mcpAs(keys.owner);
    const overMcp = toolJson(await mcp.callTool({ name: 'list_webhook_endpoints', arguments: {} }));
    expect(overMcp.endpoints.map((e: Json) => e.endpointId)).toEqual([biz.endpointId]);

    // Alice's own booking (at the operator's groomer) and one Boland Paws makes for its client.
    const own = await bookFirstCardSlot(server, alice, '2026-11-25');
    const cancelled = await server.post(
      `/v1/bookings/${own.bookingId}/cancel`,
      { confirm: true },
      as(alice.key),
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const atBp = await bookAtBolandPaws('2026-11-26');
    const called = await server.post(
      `/v1/business/bookings/${atBp}/cancel`,
      { reason: 'The van is in for repairs.', confirm: true },
      as(keys.owner),
    );
    expect(called.status, JSON.stringify(called.body)).toBe(200);

    const of = (path: string, bookingId: string) =>
      receiver.at(path).filter((r) => r.json.data.subject.id === bookingId);
    await until(drain, () => of('/biz', atBp).length >= 2 && of('/alice', own.bookingId).length >= 2);
    for (const [path, bookingId] of [
      ['/biz', atBp],
      ['/alice', own.bookingId],
    ] as const) {
      const got = of(path, bookingId);
      // Order is not promised (deliveries are sent at once): the types, whatever the order.
      expect(got.map((r) => r.json.type).sort()).toEqual(['booking.cancelled', 'booking.created']);
      for (const r of got) {
        expect(r.verified, `${path} signature`).toBe(true);
        expect(r.headers['webhook-id']).toBe(r.json.data.id);
        expect(r.headers['webhook-signature']).toMatch(/^v1,/);
        expect(r.json).toMatchObject({
          timestamp: r.json.data.occurredAt,
          data: { type: r.json.type, version: 1, subject: { kind: 'booking', id: bookingId } },
        });
        expect(r.json.data.data.booking.bookingId).toBe(bookingId);
      }
    }
    // Each hears only its own: not another business's bookings, not another person's.
    expect(of('/biz', own.bookingId)).toEqual([]);
    expect(of('/alice', atBp)).toEqual([]);
    expect(receiver.at('/other')).toEqual([]);
    expect(receiver.at('/bongani')).toEqual([]);

    const sent = await deliveries(keys.owner, biz.endpointId);
    expect(sent.filter((d: Json) => d.status === 'SUCCEEDED').length).toBeGreaterThanOrEqual(2);
    expect(sent[0]).toMatchObject({ endpointId: biz.endpointId, attempts: 1, lastStatus: 200 });

    // Fan-out again: nothing doubles (one delivery per endpoint and event).
    await drain();
    expect(of('/biz', atBp)).toHaveLength(2);
  });

  it('retries after 500s and after a timeout, with backoff, the same webhook-id each time', async () => {
    receiver.behave.set('/flaky', (n) => (n <= 2 ? 500 : 200));
    receiver.behave.set('/slow', (n) => (n === 1 ? 'hang' : 204));
    const flaky = await register(keys.owner, '/flaky', ['booking.created']);
    const slow = await register(keys.owner, '/slow', ['booking.created']);
    const bookingId = await bookAtBolandPaws('2026-12-01');
    await until(drain, () => receiver.at('/flaky').length >= 1 && receiver.at('/slow').length >= 1);
    let [f] = await deliveries(keys.owner, flaky.endpointId);
    let [s] = await deliveries(keys.owner, slow.endpointId);
    expect(f).toMatchObject({ status: 'PENDING', attempts: 1, lastStatus: 500, lastError: 'HTTP 500' });
    expect(new Date(f.nextAttemptAt).getTime()).toBe(clock.now().getTime() + 5 * SECOND);
    expect(s).toMatchObject({ status: 'PENDING', attempts: 1, lastStatus: null });
    expect(s.lastError).toMatch(/no answer within 1000 ms/);

    // Not yet due: nothing is sent.
    await send();
    expect(receiver.at('/flaky')).toHaveLength(1);
    clock.advance(5 * SECOND);
    await send();
    [f] = await deliveries(keys.owner, flaky.endpointId);
    [s] = await deliveries(keys.owner, slow.endpointId);
    expect(f).toMatchObject({ status: 'PENDING', attempts: 2, lastStatus: 500 });
    expect(new Date(f.nextAttemptAt).getTime()).toBe(clock.now().getTime() + 5 * 60 * SECOND);
    expect(s).toMatchObject({ status: 'SUCCEEDED', attempts: 2, lastStatus: 204 });
    clock.advance(5 * 60 * SECOND);
    await send();
    [f] = await deliveries(keys.owner, flaky.endpointId);
    expect(f).toMatchObject({ status: 'SUCCEEDED', attempts: 3, lastStatus: 200, nextAttemptAt: null });

    for (const path of ['/flaky', '/slow']) {
      const got = receiver.at(path);
      expect(got.every((r) => r.verified)).toBe(true);
      expect(new Set(got.map((r) => r.headers['webhook-id']))).toEqual(new Set([f.eventId]));
      expect(got.every((r) => r.json.data.subject.id === bookingId)).toBe(true);
    }
    expect(receiver.at('/flaky')).toHaveLength(3);
    expect(receiver.at('/slow')).toHaveLength(2);
  });

  it('redelivers on request; crew are refused; another business finds none of the endpoints or deliveries', async () => {
    const endpoint = (await server.get('/v1/business/webhooks', as(keys.owner))).body.endpoints.find(
      (e: Json) => e.url === receiver.url('/biz'),
    );
    const [delivery] = await deliveries(keys.owner, endpoint.endpointId);
    const before = receiver.at('/biz').length;
    const again = await server.post(
      `/v1/business/webhooks/deliveries/${delivery.deliveryId}/redeliver`,
      {},
      as(keys.owner, { 'idempotency-key': 'redeliver-1' }),
    );
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.delivery).toMatchObject({
      deliveryId: delivery.deliveryId,
      status: 'PENDING',
      attempts: 0,
    });
    await until(send, () => receiver.at('/biz').length > before);
    const last = receiver.at('/biz').at(-1)!;
    expect(last.headers['webhook-id']).toBe(delivery.eventId);
    expect(last.verified).toBe(true);

    // Crew may not see or make endpoints.
    for (const res of [
      await server.get('/v1/business/webhooks', as(keys.crew)),
      await server.post(
        '/v1/business/webhooks',
        { url: receiver.url('/crew'), eventTypes: ['*'] },
        as(keys.crew),
      ),
      await server.get(`/v1/business/webhooks/${endpoint.endpointId}/deliveries`, as(keys.crew)),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    // Another business's owner and a person: someone else's ids are 404.
    for (const key of [keys.other, bongani.key]) {
      const base = key === keys.other ? '/v1/business/webhooks' : '/v1/webhooks';
      for (const res of [
        await server.get(`${base}/${endpoint.endpointId}/deliveries`, as(key)),
        await server.post(`${base}/${endpoint.endpointId}/delete`, {}, as(key)),
        await server.post(`${base}/deliveries/${delivery.deliveryId}/redeliver`, {}, as(key)),
      ]) {
        expect(res.status, JSON.stringify(res.body)).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    }
    expect((await server.get('/v1/business/webhooks', as(keys.owner))).body.endpoints[0].status).toBe(
      'ENABLED',
    );
  });

  it('the same Idempotency-Key makes one endpoint; at most 10 per owner; types and URLs are checked', async () => {
    const carol = await newPetOwner(server, {
      email: 'carol.hooks@example.com',
      pet: { name: 'Bo', weightKg: 8 },
      line1: '8 Rustenburg Road',
    });
    const body = { url: receiver.url('/carol'), eventTypes: ['booking.created'] };
    const first = await server.post('/v1/webhooks', body, as(carol.key, { 'idempotency-key': 'carol-1' }));
    const second = await server.post('/v1/webhooks', body, as(carol.key, { 'idempotency-key': 'carol-1' }));
    expect(first.status).toBe(201);
    expect(second.body.endpointId).toBe(first.body.endpointId);
    for (let i = 1; i < 10; i++)
      expect((await server.post('/v1/webhooks', body, as(carol.key))).status).toBe(201);
    const eleventh = await server.post('/v1/webhooks', body, as(carol.key));
    expect(eleventh.status).toBe(400);
    expect(eleventh.body.error.details.limit).toBe(10);
    // A person's endpoint takes only the types of their own bookings and orders.
    const wrongType = await server.post(
      '/v1/webhooks',
      { ...body, eventTypes: ['payout.paid'] },
      as(bongani.key),
    );
    expect(wrongType.status).toBe(400);
    const unknown = await server.post(
      '/v1/business/webhooks',
      { ...body, eventTypes: ['booking.nope'] },
      as(keys.owner),
    );
    expect(unknown.status).toBe(400);
    const nul = await server.post(
      '/v1/business/webhooks',
      { ...body, description: 'a\u0000b' },
      as(keys.owner),
    );
    expect(nul.status).toBe(400);
    const notUrl = await server.post(
      '/v1/business/webhooks',
      { ...body, url: 'ftp://x.example/' },
      as(keys.owner),
    );
    expect(notUrl.status).toBe(400);
    expect(notUrl.body.error.details.fields[0].field).toBe('url');
    // Private addresses stay refused with loopback allowed.
    const privateNet = await server.post(
      '/v1/business/webhooks',
      { ...body, url: 'http://10.0.0.1/' },
      as(keys.owner),
    );
    expect(privateNet.status).toBe(400);
  });

  it('deleting an endpoint stops its deliveries, retries included', async () => {
    receiver.behave.set('/gone', () => 500);
    const gone = await register(keys.owner, '/gone', ['booking.created']);
    await bookAtBolandPaws('2026-12-02');
    await until(drain, () => receiver.at('/gone').length >= 1);
    const deleted = await server.post(`/v1/business/webhooks/${gone.endpointId}/delete`, {}, as(keys.owner));
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    clock.advance(10 * 60 * SECOND);
    await drain();
    expect(receiver.at('/gone')).toHaveLength(1);
    const { n } = one(
      await server.db.sql<{ n: number }[]>`
      select count(*)::int as n from webhook_deliveries where endpoint_id = ${gone.endpointId}`,
    );
    expect(n).toBe(0);
    expect(
      (await server.get(`/v1/business/webhooks/${gone.endpointId}/deliveries`, as(keys.owner))).status,
    ).toBe(404);
  });

  it('two fan-outs and three send passes at once never make or send one delivery twice', async () => {
    receiver.behave.set('/count', () => 200);
    const count = await register(keys.owner, '/count', ['booking.moved']);
    // Forty events of the business, written as an operation would (the fan-out reads them all).
    const events = Array.from({ length: 40 }, (_, i) => ({
      type: 'booking.moved',
      version: 1,
      occurredAt: clock.now(),
      businessId: BP,
      personId: null,
      subjectKind: 'booking',
      subjectId: `bkg_concurrent_${i}`,
      actor: { kind: 'system' as const, userId: null, clientName: null },
      data: { i },
      operation: null,
      requestId: null,
      callId: null,
    }));
    const ids = await appendEvents(server.db.sql, events as never);
    // Two fan-outs at once take turns on the reader's bookmark: one delivery per event still.
    await until(
      () => Promise.all([fanOut(), fanOut()]),
      async () => {
        const { n } = one(
          await server.db.sql<{ n: number }[]>`
        select count(*)::int as n from webhook_deliveries where endpoint_id = ${count.endpointId}`,
        );
        return n === 40;
      },
    );
    await Promise.all([send(), send(), send()]);
    const got = receiver.at('/count').map((r) => r.headers['webhook-id']);
    expect(got.sort()).toEqual([...ids].sort());
    expect(receiver.at('/count').every((r) => r.verified)).toBe(true);
  });

  it('an endpoint failing every attempt for about three days is disabled and its owner mailed', async () => {
    receiver.behave.set('/dead', () => 503);
    const dora = await newPetOwner(server, {
      email: 'dora.hooks@example.com',
      pet: { name: 'Fluffy', weightKg: 5 },
      line1: '10 Rustenburg Road',
    });
    const dead = await register(dora.key, '/dead', ['*'], { person: true });
    await bookFirstCardSlot(server, dora, '2026-12-03');
    await until(drain, () => receiver.at('/dead').length >= 1);
    const start = clock.now().getTime();
    for (let i = 0; i < 12; i++) {
      clock.advance(10 * HOUR + SECOND);
      await send();
    }
    const [d] = await deliveries(dora.key, dead.endpointId, true);
    expect(d).toMatchObject({ status: 'FAILED', attempts: 13, lastStatus: 503, nextAttemptAt: null });
    expect(receiver.at('/dead')).toHaveLength(13);
    expect(clock.now().getTime() - start).toBeGreaterThan(72 * HOUR);
    const [endpoint] = (await server.get('/v1/webhooks', as(dora.key))).body.endpoints;
    expect(endpoint).toMatchObject({ endpointId: dead.endpointId, status: 'DISABLED' });
    expect(endpoint.disabledReason).toMatch(/three days/);
    const mails = await server.db.sql<{ subject: string; body: string }[]>`
      select subject, body from mail_outbox where to_address = 'dora.hooks@example.com' and subject ilike '%webhook%'`;
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain(dead.endpointId);

    // A disabled endpoint gets nothing new; redelivering enables it again.
    receiver.behave.set('/dead', () => 200);
    await bookFirstCardSlot(server, dora, '2026-12-09');
    await drain();
    expect(receiver.at('/dead')).toHaveLength(13);
    const again = await server.post(`/v1/webhooks/deliveries/${d.deliveryId}/redeliver`, {}, as(dora.key));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.endpointEnabled).toBe(true);
    await until(send, () => receiver.at('/dead').length === 14);
    expect(receiver.at('/dead').at(-1)!.verified).toBe(true);
  });
});

describe('webhooks, loopback not allowed (SSRF)', () => {
  const clock = fixedClock('2026-11-23T04:00:00Z');
  let server: TestServer;
  let receiver: WebhookReceiver;
  let ownerKey: string;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    ownerKey = (
      await createApiKey(server.db.sql, { email: 'owner@partner.example', scopes: ['business:manage'] })
    ).key;
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it.each([
    'https://127.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/hook',
    'http://10.0.0.1/hook',
    'http://192.168.1.10/hook',
    'http://100.64.0.1/hook',
    'http://[fd00::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://0.0.0.0/hook',
    'http://localhost/hook',
  ])('refuses %s at registration', async (url) => {
    const res = await server.post('/v1/business/webhooks', { url, eventTypes: ['*'] }, as(ownerKey));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.details.fields).toEqual([{ field: 'url', message: expect.any(String) }]);
    const { n } = one(await server.db.sql<{ n: number }[]>`select count(*)::int as n from webhook_endpoints`);
    expect(n).toBe(0);
  });

  it('https only in production; a name that does not resolve is refused', async () => {
    const production = { allowLoopback: false, httpsOnly: true, timeoutMs: 1000 };
    await expect(checkWebhookUrl('http://hooks.example.com/x', production)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      details: { fields: [{ field: 'url', message: 'https only' }] },
    });
    await expect(
      checkWebhookUrl('https://hooks.example.com/x', production, async () => ['93.184.216.34']),
    ).resolves.toBe('https://hooks.example.com/x');
    // A name resolving to a private address is refused; so is one that does not resolve.
    // Both in the same words, naming no address: the answer tells nothing of what internal names
    // resolve to, or whether they exist.
    const rebind = await checkWebhookUrl('https://rebind.example.com/x', production, async () => [
      '93.184.216.34',
      '10.1.2.3',
    ]).catch((e: unknown) => e);
    expect(rebind).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'url: rebind.example.com does not resolve to a public address.',
    });
    expect(JSON.stringify(rebind)).not.toContain('10.1.2.3');
    await expect(
      checkWebhookUrl('https://nowhere.invalid/x', production, async () => {
        throw new Error('ENOTFOUND');
      }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'url: nowhere.invalid does not resolve to a public address.',
    });
  });

  it('refuses a private or loopback address again at connect time (a row that bypassed registration)', async () => {
    const { id: ownerId } = one(
      await server.db.sql<{ id: string }[]>`
      select id from users where email = 'owner@partner.example'`,
    );
    const [eventId] = await appendEvents(server.db.sql, [
      {
        type: 'booking.moved',
        version: 1,
        occurredAt: clock.now(),
        businessId: BP,
        personId: null,
        subjectKind: 'booking',
        subjectId: 'bkg_rebound',
        actor: { kind: 'system', userId: null, clientName: null },
        data: {},
        operation: null,
        requestId: null,
        callId: null,
      },
    ] as never);
    const urls = [
      receiver.url('/direct'),
      `http://localhost:${receiver.port}/by-name`,
      'http://10.0.0.1:9/private',
    ];
    const deliveryIds: string[] = [];
    for (const url of urls) {
      const endpointId = newId('whe');
      await server.db.sql`
        insert into webhook_endpoints (id, business_id, url, event_types, secret, created_by, created_at)
        values (${endpointId}, ${BP}, ${url}, ${['*']}, 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0', ${ownerId}, ${clock.now()})`;
      const deliveryId = newId('whd');
      deliveryIds.push(deliveryId);
      await server.db.sql`
        insert into webhook_deliveries (id, endpoint_id, event_id, event_type, next_attempt_at, created_at)
        values (${deliveryId}, ${endpointId}, ${eventId!}, 'booking.moved', ${clock.now()}, ${clock.now()})`;
    }
    await sendWebhooks.run({ sql: server.db.sql, now: () => clock.now(), deps: server.service.runtime.deps });
    expect(receiver.received).toEqual([]);
    const rows = await server.db.sql<{ id: string; attempts: number; lastError: string }[]>`
      select id, attempts, last_error as "lastError" from webhook_deliveries where id = any(${deliveryIds})`;
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.attempts).toBe(1);
      expect(row.lastError).toBe('not allowed: the host does not resolve to a public address');
    }
  });

  it("sends a business's events only while whoever registered the endpoint is still its owner or manager", async () => {
    const [owner] = await server.db.sql<
      { id: string }[]
    >`select id from users where email = 'owner@partner.example'`;
    const gone = await findOrCreateUser(server.db.sql, 'gone-manager@example.com');
    const kept = newId('whe');
    const stale = newId('whe');
    for (const [id, by] of [
      [kept, owner!.id],
      [stale, gone.id], // a manager since removed from the staff: no membership left
    ] as const)
      await server.db.sql`
        insert into webhook_endpoints (id, business_id, url, event_types, secret, created_by, created_at)
        values (${id}, ${BP}, 'https://93.184.216.34/members', ${['*']}, 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0', ${by}, ${clock.now()})`;
    const [eventId] = await appendEvents(server.db.sql, [
      {
        type: 'booking.moved',
        version: 1,
        occurredAt: clock.now(),
        businessId: BP,
        personId: null,
        subjectKind: 'booking',
        subjectId: 'bkg_members',
        actor: { kind: 'system', userId: null, clientName: null },
        data: {},
        operation: null,
        requestId: null,
        callId: null,
      },
    ] as never);
    const deliveriesOf = async (endpointId: string) =>
      (
        await server.db.sql<{ n: number }[]>`
          select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpointId} and event_id = ${eventId!}`
      )[0]!.n;
    const fanOut = () =>
      fanOutWebhooks.run({ sql: server.db.sql, now: () => clock.now(), deps: server.service.runtime.deps });
    await until(fanOut, async () => (await deliveriesOf(kept)) === 1);
    expect(await deliveriesOf(stale)).toBe(0);
  });
});
