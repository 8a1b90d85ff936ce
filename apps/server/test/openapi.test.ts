import { Validator } from '@seriousme/openapi-schema-validator';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { operations, QuoteSchema, SCOPE_NAMES, STATUS_OF } from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

type Json = Record<string, any>;

describe('the OpenAPI document', () => {
  let server: TestServer;
  let doc: any;
  const ajv = new AjvJsonSchemaValidator();
  /** Whether `value` fits `schema`, its `$ref`s read in the document (as a client's validator reads them). */
  const fits = (schema: unknown, value: unknown) => {
    const check = ajv.getValidator({ ...(schema as Json), components: doc.components } as never)(value);
    return { valid: check.valid, why: check.errorMessage };
  };
  const entries = () =>
    operations.map((op) => ({
      op,
      entry: doc.paths[op.path.replace(/:(\w+)/g, '{$1}')][op.method.toLowerCase()],
    }));
  const bodySchema = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema;
  const key = async (scopes: string[]) =>
    ({
      authorization: `Bearer ${(await createApiKey(server.db.sql, { email: `p${scopes.length}@example.com`, scopes: scopes as never })).key}`,
    }) as Record<string, string>;
  const groom = {
    category: 'grooming',
    address: '12 Dorp Street, Die Boord, Stellenbosch',
    pets: [{ name: 'Rex', type: 'DOG', weightKg: 12.5, coat: 'SHORT', serviceIds: ['groom-dog-bath'] }],
  };

  beforeAll(async () => {
    server = await startTestServer();
    doc = (await server.get('/v1/openapi.json')).body;
  });
  afterAll(() => server?.stop());

  it('is valid OpenAPI 3.1 by a real validator', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.8.0');
    expect(doc.servers).toEqual([{ url: server.url }]);
  });

  it('has every operation with its operationId, tag, MCP tool and error responses', () => {
    for (const op of operations) {
      const path = op.path.replace(/:(\w+)/g, '{$1}');
      const entry = doc.paths[path]?.[op.method.toLowerCase()];
      expect(entry, `${op.method} ${path}`).toBeDefined();
      expect(entry.operationId).toBe(op.operationId);
      expect(entry.tags).toEqual([op.tag]);
      // Where an assistant finds it: the tool and its endpoint, or neither for an operation of /v1 alone.
      if (op.mcp === 'none') {
        expect(entry['x-mcp-tool']).toBeUndefined();
        expect(entry.description).toMatch(/HTTP only: no MCP endpoint lists it\.$/);
      } else {
        expect(entry['x-mcp-tool']).toBe(op.toolName);
        expect(entry['x-mcp-endpoint']).toBe(op.mcp === 'person' ? '/mcp' : '/mcp/business');
        expect(entry.description).toContain(
          `MCP tool: \`${op.toolName}\` at \`${entry['x-mcp-endpoint']}\`.`,
        );
      }
      expect(entry.responses['400'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/Error',
      });
      expect(entry.responses['429']).toBeDefined();
    }
    expect(doc.components.schemas.Error).toBeDefined();
  });

  it('describes only routes the server answers', async () => {
    for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(item)) {
        const url = path.replace(/\{(\w+)\}/g, 'x');
        const res = await fetch(server.url + url, {
          method: method.toUpperCase(),
          headers: { 'content-type': 'application/json' },
          body: method === 'get' ? undefined : '{}',
        });
        const body = (await res.json()) as { error?: { message?: string } };
        // Whatever the input, the route exists: never the unknown-route answer.
        expect(body?.error?.message ?? '', `${method} ${path}`).not.toMatch(/^No route/);
        expect(res.status).not.toBe(500);
      }
    }
  });

  it('declares the Idempotency-Key header on every POST, with the refusals it brings, and the server keeps to it', async () => {
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({
      in: 'header',
      name: 'Idempotency-Key',
      schema: { type: 'string' },
    });
    expect(doc.components.parameters.IdempotencyKey.required ?? false).toBe(false);
    const posts = entries().filter(({ op }) => op.method === 'POST');
    expect(posts.length).toBeGreaterThan(5);
    for (const { op, entry } of entries()) {
      const refs = (entry.parameters ?? []).map((p: { $ref?: string }) => p.$ref);
      if (op.method === 'POST') {
        expect(refs, op.operationId).toContain('#/components/parameters/IdempotencyKey');
        expect(entry.responses['409'].description, op.operationId).toMatch(/REQUEST_IN_PROGRESS/);
        expect(entry.responses['422'].description, op.operationId).toMatch(/IDEMPOTENCY_KEY_REUSED/);
      } else {
        expect(refs, op.operationId).not.toContain('#/components/parameters/IdempotencyKey');
      }
    }
    // A public POST honours the key when a credential is sent: the same key with another body is refused.
    const as = { ...(await key(['profile'])), 'idempotency-key': 'quote-1' };
    expect((await server.post('/v1/quote', groom, as)).status).toBe(200);
    const reused = await server.post('/v1/quote', { ...groom, category: 'walking' }, as);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('declares 401 on every operation (public ones check a credential that is sent) and 403/404 on quotes and times', async () => {
    for (const { op, entry } of entries()) expect(entry.responses['401'], op.operationId).toBeDefined();
    for (const path of ['/v1/quote', '/v1/availability']) {
      expect(Object.keys(doc.paths[path].post.responses)).toEqual(
        expect.arrayContaining(['401', '403', '404']),
      );
    }
    const bad = { authorization: 'Bearer npk_notakeynotakeynotakeynotakey' };
    for (const { op } of entries().filter(({ op }) => op.auth === 'public')) {
      const res =
        op.method === 'GET' ? await server.get(op.path, bad) : await server.post(op.path, groom, bad);
      expect(res.status, op.operationId).toBe(401);
    }
    const saved = {
      ...groom,
      pets: [{ petId: 'pet_none', serviceIds: ['groom-dog-bath'] }],
    };
    for (const path of ['/v1/quote', '/v1/availability']) {
      expect((await server.post(path, saved, await key(['profile']))).status, path).toBe(403);
      expect((await server.post(path, saved, await key([...SCOPE_NAMES]))).status, path).toBe(404);
    }
  });

  it('declares the RateLimit-* headers on every answer and WWW-Authenticate on every 401 and 403', async () => {
    for (const name of [
      'RateLimitPolicy',
      'RateLimitLimit',
      'RateLimitRemaining',
      'RateLimitReset',
      'WWWAuthenticate',
    ])
      expect(doc.components.headers[name], name).toBeDefined();
    for (const { op, entry } of entries()) {
      for (const [status, response] of Object.entries<Json>(entry.responses)) {
        const headers = Object.keys(response.headers ?? {});
        expect(headers, `${op.operationId} ${status}`).toEqual(
          expect.arrayContaining([
            'RateLimit-Limit',
            'RateLimit-Remaining',
            'RateLimit-Reset',
            'RateLimit-Policy',
          ]),
        );
        if (status === '401' || status === '403')
          expect(headers, `${op.operationId} ${status}`).toContain('WWW-Authenticate');
        if (status === '429' || status === '503') expect(headers, op.operationId).toContain('Retry-After');
      }
      // A database out of reach is 503 on every operation (test/db-away.test.ts sends it).
      expect(entry.responses['503'], op.operationId).toBeDefined();
      // Every GET may be served from a cache: its ETag, and 304 when it is sent back.
      if (op.method === 'GET') {
        expect(Object.keys(entry.responses['200'].headers), op.operationId).toContain('ETag');
        expect(entry.responses['304'], op.operationId).toBeDefined();
      }
    }
    // That the catalogue's ETag sent back is 304: test/services.test.ts (a server with its cache on).
    const ok = await server.get('/v1/services');
    const refused = await server.get('/v1/me');
    for (const res of [ok, refused]) {
      expect(res.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
      expect(res.headers.get('ratelimit-policy')).toBeTruthy();
    }
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('gives categories, coverage lines and error codes as enums of the values the code uses', async () => {
    const lineIds = QuoteSchema.shape.category.options;
    expect(doc.components.schemas.LineId.enum).toEqual(lineIds);
    const served = (await server.get('/v1/services')).body.lines.map((l: { id: string }) => l.id);
    expect(lineIds).toEqual(expect.arrayContaining(served));
    const lineRef = { $ref: '#/components/schemas/LineId' };
    expect(doc.components.schemas.Quote.properties.category).toEqual(lineRef);
    expect(doc.components.schemas.Booking.properties.category).toEqual(lineRef);
    expect(doc.components.schemas.CoverageAnswer.properties.lines.items.properties.id).toEqual(lineRef);
    expect(doc.components.schemas.ErrorCode.enum.sort()).toEqual(Object.keys(STATUS_OF).sort());
    // The error is a union on `code`; each code is in exactly one branch, which says its details.
    const branches = doc.components.schemas.Error.properties.error.oneOf as Json[];
    const codesOf = (b: Json) =>
      b.properties.code.const ? [b.properties.code.const] : b.properties.code.enum;
    expect(branches.flatMap(codesOf).sort()).toEqual(Object.keys(STATUS_OF).sort());
    const detailsOf = (code: string) => {
      const ref = branches.find((b) => codesOf(b).includes(code))!.properties.details.$ref as string;
      return doc.components.schemas[ref.split('/').at(-1)!];
    };
    expect(detailsOf('CONFIRM_REQUIRED').required).toContain('summary');
    expect(detailsOf('BAD_REQUEST').properties.fields.items).toEqual({
      $ref: '#/components/schemas/FieldProblem',
    });
    expect(detailsOf('NO_COVERAGE').required).toContain('message');
    expect(detailsOf('NO_COVERAGE').properties.leadId).toBeDefined();
  });

  it('declares error bodies that real refusals fit, and refuses to fit one that mixes up its code', async () => {
    const error = { $ref: '#/components/schemas/Error' };
    const all = await key([...SCOPE_NAMES]);
    const refusals = [
      await server.post('/v1/quote', { ...groom, pets: [{ ...groom.pets[0], weightKg: '12' }] }),
      await server.post('/v1/quote', { ...groom, address: 'Paris' }),
      await server.get('/v1/me'),
      await server.get('/v1/me', await key(['pets'])),
      await server.get('/v1/bookings/bkg_none', all),
      await server.post('/v1/bookings/bkg_none/cancel', {}, all),
    ];
    expect(refusals.map((r) => r.body.error.code)).toEqual([
      'BAD_REQUEST',
      'NO_COVERAGE',
      'UNAUTHORIZED',
      'FORBIDDEN',
      'NOT_FOUND',
      'NOT_FOUND',
    ]);
    for (const r of refusals)
      expect(fits(error, r.body), JSON.stringify(r.body)).toMatchObject({ valid: true });
    const confirm = {
      error: { code: 'CONFIRM_REQUIRED', message: 'Agree first.', details: { message: 'x' } },
    };
    expect(fits(error, confirm).valid).toBe(false); // no summary
  });

  it('describes every component schema', () => {
    for (const [name, schema] of Object.entries<Json>(doc.components.schemas))
      expect(schema.description, name).toBeTruthy();
  });

  it('names its license and contact', () => {
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(doc.info.contact).toEqual({ name: 'NogPets', url: `${server.url}/docs` });
  });

  it('gives examples of the main bodies and schemas, each valid against its schema', () => {
    const found: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Json;
      if ('example' in schema && (schema.type || schema.properties || schema.$ref || schema.enum)) {
        const { example, ...rest } = schema;
        expect(fits(rest, example), `${where}: ${JSON.stringify(example)}`).toMatchObject({ valid: true });
        found.push(where);
      }
      for (const [k, v] of Object.entries(schema)) walk(v, `${where}/${k}`);
    };
    walk(doc.components.schemas, '#/components/schemas');
    walk(doc.components.parameters, '#/components/parameters');
    walk(doc.components.headers, '#/components/headers');
    walk(doc.paths, '#/paths');
    for (const path of ['/v1/quote', '/v1/availability', '/v1/bookings', '/v1/bookings/{bookingId}/cancel'])
      expect(bodySchema(path).example, path).toBeDefined();
    for (const name of ['Quote', 'Error', 'CoverageAnswer', 'BookResult', 'Slot'])
      expect(doc.components.schemas[name].example, name).toBeDefined();
    expect(found.length).toBeGreaterThan(15);
  });

  it('writes "one way to say where" and "a slot, a stay or visits" as oneOf, as the server judges them', async () => {
    const quote = bodySchema('/v1/quote');
    const times = bodySchema('/v1/availability');
    const book = bodySchema('/v1/bookings');
    for (const schema of [quote, times, book]) expect(schema.oneOf.length).toBeGreaterThanOrEqual(3);
    const { address: _a, ...nowhere } = groom;
    const cases: [Json, boolean][] = [
      [groom, true],
      [nowhere, true], // where is optional for a price
      [{ ...nowhere, lat: -33.9477, lng: 18.8502 }, true],
      [{ ...nowhere, postalCode: '7600' }, true],
      [{ ...groom, postalCode: '7600' }, false],
      [{ ...nowhere, lat: -33.9477 }, false],
    ];
    for (const [body, valid] of cases) {
      expect(fits(quote, body).valid, JSON.stringify(body)).toBe(valid);
      const res = await server.post('/v1/quote', body);
      expect(res.status === 400, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(!valid);
    }
    expect(fits(times, groom).valid).toBe(true);
    expect(fits(times, nowhere).valid).toBe(false); // someone has to come somewhere
    expect((await server.post('/v1/availability', nowhere)).status).toBe(400);
    const booking = book.example;
    const stay = { startDate: '2026-12-18', nights: 2 };
    const { start: _s, resourceId: _r, ...planned } = booking;
    expect(fits(book, booking).valid).toBe(true);
    expect(fits(book, { ...planned, category: 'sitting', stay }).valid).toBe(true);
    expect(fits(book, { ...booking, category: 'sitting', stay }).valid).toBe(false); // a slot and a stay
    expect(fits(book, { ...planned, stay }).valid).toBe(false); // a stay is for sitting
    expect(fits(book, planned).valid).toBe(false); // no time at all
    expect(
      fits(book, {
        ...planned,
        category: 'sitting',
        stay,
        visits: { startDate: '2026-12-18', days: 2, perDay: 1 },
      }).valid,
    ).toBe(false);
  });
});
