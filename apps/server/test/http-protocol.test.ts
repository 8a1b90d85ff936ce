import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

/** What HTTP and JSON-RPC clients are told when they send something the API does not take. */
describe('answers in the protocols clients speak', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const send = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    fetch(server.url + path, { method, headers, ...(body === undefined ? {} : { body }) });
  // biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
  const json = async (res: Response): Promise<any> => res.json();
  const leads = async () => (await server.db.sql`select count(*)::int as n from leads`)[0]!.n as number;
  const quote = JSON.stringify({
    category: 'grooming',
    address: 'Rua Augusta 100, Lisbon',
    pets: [{ name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['groom-dog-bath'] }],
  });

  it('keeps an idle keep-alive connection open past Node’s 5 s default, so a request on it is answered', async () => {
    // A load balancer (or fetch's pool) reuses idle connections for up to a minute: the server must
    // not close one under it, or the request sent on it meets ECONNRESET.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let connections = 0;
    const get = () =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(`${server.url}/healthz`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('socket', (socket) => {
          if (!(socket as { _counted?: boolean })._counted) {
            (socket as { _counted?: boolean })._counted = true;
            connections += 1;
          }
        });
        req.on('error', reject);
      });
    try {
      expect(await get()).toBe(200);
      await new Promise((r) => setTimeout(r, 6_000));
      expect(await get()).toBe(200);
      expect(connections).toBe(1);
    } finally {
      agent.destroy();
    }
  }, 20_000);

  it('refuses a body sent as anything but JSON with 415, and does nothing with it', async () => {
    const before = await leads();
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await send('POST', '/v1/quote', quote, { 'content-type': type });
      expect(res.status, type).toBe(415);
      expect(await res.json()).toMatchObject({
        error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('application/json') },
      });
    }
    // The same body as JSON is read (a place abroad: recorded as a lead), so the 415s changed nothing.
    expect(await leads()).toBe(before);
    expect((await send('POST', '/v1/quote', quote, { 'content-type': 'application/json' })).status).toBe(409);
    expect(await leads()).toBe(before + 1);
    // A change with no body at all needs no type: it goes on to the credential check.
    expect((await send('POST', '/v1/bookings/bkg_x/pay')).status).toBe(401);
  });

  it('tells JSON that is not an object from text that is not JSON', async () => {
    for (const body of ['null', '12', '"text"']) {
      const res = await send('POST', '/v1/quote', body, { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect((await json(res)).error).toMatchObject({
        message: 'The request body must be a JSON object ({...}).',
        details: { reason: 'body_not_object' },
      });
    }
    const broken = await send('POST', '/v1/quote', '{"category":', { 'content-type': 'application/json' });
    expect((await json(broken)).error).toMatchObject({
      message: 'The request body is not valid JSON.',
      details: { reason: 'malformed_json' },
    });
  });

  it('names the field and what it expects when a pet matches neither way of giving one', async () => {
    const body = JSON.stringify({
      category: 'grooming',
      address: 'Die Boord',
      pets: [{ name: 'Rex', type: 'DOG', weightKg: '12', coat: 'SHORT', serviceIds: ['groom-dog-bath'] }],
    });
    const res = await send('POST', '/v1/quote', body, { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    const { error } = await json(res);
    expect(error.details.fields).toEqual([
      { field: 'pets.0.weightKg', message: 'Invalid input: expected number, received string' },
    ]);
    expect(error.message).toContain('pets.0.weightKg: Invalid input: expected number');
    // A saved pet with a stray field is told about that field.
    const saved = await send(
      'POST',
      '/v1/quote',
      JSON.stringify({
        category: 'grooming',
        address: 'Die Boord',
        pets: [{ petId: 'pet_x', serviceIds: [], colour: 'red' }],
      }),
      { 'content-type': 'application/json' },
    );
    expect((await json(saved)).error.details.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'pets.0', message: expect.stringContaining('colour') }),
      ]),
    );
  });

  it('answers a known path asked with another method 405 with Allow; OPTIONS lists the methods', async () => {
    const res = await send('DELETE', '/v1/services');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await json(res)).error).toMatchObject({
      code: 'METHOD_NOT_ALLOWED',
      details: { allow: ['GET', 'HEAD', 'OPTIONS'] },
    });
    const bookings = await send('PUT', '/v1/bookings', '{}', { 'content-type': 'application/json' });
    expect(bookings.status).toBe(405);
    expect(bookings.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    const options = await send('OPTIONS', '/v1/bookings/bkg_x/cancel');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('POST, OPTIONS');
    // A path that is not ours stays a 404.
    expect((await send('DELETE', '/v1/nothing-here')).status).toBe(404);
  });

  it('gives no error code to a 401 whose request sent no credential (RFC 6750 §3.1), on /v1 and /mcp', async () => {
    const none = await send('GET', '/v1/me');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer realm="nogpets", scope="profile"/);
    expect(none.headers.get('www-authenticate')).not.toContain('error=');
    const saved = await send(
      'POST',
      '/v1/quote',
      JSON.stringify({
        category: 'grooming',
        addressId: 'adr_x',
        pets: [{ petId: 'pet_x', serviceIds: ['groom-dog-bath'] }],
      }),
      { 'content-type': 'application/json' },
    );
    expect(saved.status).toBe(401);
    expect(saved.headers.get('www-authenticate')).not.toContain('error=');
    const tool = await send(
      'POST',
      '/mcp',
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_pets', arguments: {} },
      }),
      { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    );
    expect(tool.status).toBe(401);
    expect(tool.headers.get('www-authenticate')).toMatch(/scope="pets"/);
    expect(tool.headers.get('www-authenticate')).not.toContain('error=');
    // A credential that was sent and is bad is named so.
    const bad = await send('GET', '/v1/me', undefined, { authorization: 'Bearer npk_not-a-real-key-000000' });
    expect(bad.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('answers text that is not JSON on /mcp with the JSON-RPC parse error, and JSON that is no request with -32600', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const broken = await send('POST', '/mcp', '{"jsonrpc":', headers);
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: expect.stringContaining('Parse error') },
      id: null,
    });
    const nothing = await send('POST', '/mcp', 'null', headers);
    expect(nothing.status).toBe(400);
    expect((await json(nothing)).error.code).toBe(-32600);
  });

  it('declares 413 and 415 on every operation that takes a body, in the OpenAPI document', async () => {
    const doc = (await (await send('GET', '/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const posts = Object.values(doc.paths).flatMap((p) => (p.post ? [p.post] : []));
    expect(posts.length).toBeGreaterThan(5);
    for (const post of posts)
      expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['413', '415']));
  });
});
