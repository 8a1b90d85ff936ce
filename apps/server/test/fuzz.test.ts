/**
 * The project's own fuzzer. It reads `/v1/openapi.json`, makes fast-check arbitraries
 * from each operation's parameters and request body, and sends schema-valid, mutated and raw
 * (malformed bytes, wrong content types, odd paths) requests to every operation with each kind of
 * credential: none, a key with every scope, a key with one scope no operation asks for, and broken
 * ones. Then the MCP tools, through a real MCP client, with arbitraries from their input schemas.
 *
 * It asserts: no answer is a 5xx; every error is `{error: {code, message, details}}`; a refused
 * change (4xx to anything but GET) leaves every table's row count as it was (the audit log
 * included); no tool answers INTERNAL or fails at the transport. All failures are gathered and
 * listed at the end, each with the shortest request that showed it.
 *
 * Short form (this file, in `pnpm test`): FUZZ_RUNS requests (3000 by default), fixed seed.
 * Long form: `pnpm fuzz` (100,000 requests). FUZZ_SEED sets the seed, FUZZ_RUNS the count,
 * FUZZ_MCP_RUNS the calls per tool; FUZZ_DEBUG=1 prints each schema-valid request with the full key
 * that was refused anyway (to see how deep the valid requests get).
 */
import { fieldProblems, operations, SCOPE_NAMES } from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  captureServerErrors,
  type Counts,
  countChanges,
  errorShapeProblem,
  Failures,
  preview,
  rowCounter,
  squeeze,
} from './fuzz/checks.js';
import {
  type FuzzCase,
  invalidAuthorization,
  type OperationInfo,
  type OpenApiDocument,
  operationsOf,
  requestsFor,
  scopesUsed,
} from './fuzz/openapi.js';
import { type Hints, mutatedOf, type SchemaContext, validOf } from './fuzz/schema.js';
import { idempotencyKey } from './fuzz/weird.js';
import { startTestServer, type TestServer, toolJson } from './harness.js';
import { approvedPartner } from './review-fixture.js';

/** Why `body` is not what operation `operationId` declares it answers, or null when it is. */
function outputProblem(operationId: string, body: unknown): string | null {
  const op = operations.find((o) => o.operationId === operationId);
  if (!op) return `no operation ${operationId}`;
  const result = op.output.safeParse(body);
  return result.success
    ? null
    : fieldProblems(result.error)
        .map((f) => `${f.field}: ${f.message}`)
        .join('; ')
        .slice(0, 300);
}

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const MCP_RUNS = Number(process.env.FUZZ_MCP_RUNS ?? (RUNS > 10_000 ? 400 : 12));
/** Cases drawn per operation in one round; rounds go through the operations in turn. */
const BATCH = 25;
const REQUEST_TIMEOUT_MS = 30_000;

describe(`fuzzing /v1 and /mcp from the OpenAPI document (seed ${SEED}, ${RUNS} requests)`, () => {
  const clock = fixedClock('2026-11-23T04:00:00Z'); // Monday 06:00 in Johannesburg
  let server: TestServer;
  let ops: OperationInfo[];
  let doc: OpenApiDocument;
  let counts: () => Promise<Counts>;
  let logs: ReturnType<typeof captureServerErrors>;
  let hints: Hints;
  let corpus: Record<string, Record<string, unknown>[]> = {};
  let bookingIds: string[] = [];
  const tokens: Record<'full' | 'narrow' | 'other', string> = { full: '', narrow: '', other: '' };

  /** A person with a pet, an address and a booking by card, made as a client would. */
  async function person(email: string, date: string) {
    const { key } = await createApiKey(server.db.sql, { email, scopes: SCOPE_NAMES });
    const as = { authorization: `Bearer ${key}` };
    const pet = await server.post('/v1/pets', { name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT' }, as);
    const address = await server.post(
      '/v1/addresses',
      { label: 'Home', line1: '12 Dorp Street', suburb: 'Die Boord' },
      as,
    );
    expect(pet.status, preview(pet.body)).toBe(201);
    expect(address.status, preview(address.body)).toBe(201);
    const grooming = {
      category: 'grooming',
      addressId: address.body.id,
      pets: [{ petId: pet.body.id, serviceIds: ['groom-dog-bath'] }],
    };
    // The first day with an open time from `date` on (demo bookings fill some days).
    const times = await server.post(
      '/v1/availability',
      { ...grooming, from: date, to: new Date(Date.parse(date) + 6 * 86_400_000).toISOString().slice(0, 10) },
      as,
    );
    expect(times.status, preview(times.body)).toBe(200);
    const slots = (times.body.days as { slots: { start: string; resourceId: string }[] }[]).find(
      (d) => d.slots.length,
    )!.slots;
    const booked = await server.post(
      '/v1/bookings',
      { ...grooming, start: slots[0]!.start, resourceId: slots[0]!.resourceId, paymentMethod: 'CARD' },
      as,
    );
    expect(booked.status, preview(booked.body)).toBe(201);
    return {
      key,
      petId: pet.body.id as string,
      addressId: address.body.id as string,
      bookingId: booked.body.bookingId as string,
      slots,
    };
  }

  beforeAll(async () => {
    server = await startTestServer({
      clock,
      database: { demoDataAt: clock.now() },
      env: { RATE_LIMIT_POINTS: '100000000' },
    });
    logs = captureServerErrors(server);
    const openapi = await server.get('/v1/openapi.json');
    expect(openapi.status).toBe(200);
    doc = openapi.body;
    ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThan(0);
    counts = await rowCounter(server);

    const me = await person('fuzz@example.com', '2026-11-25');
    const other = await person('fuzz-other@example.com', '2026-11-27');
    // The full key also runs a business (the demo partner's owner), so the Run operations are fuzzed
    // past their door; its ids are hints beside the person's own and another's.
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select 'biz_boland_paws', id, 'owner', now() from users where email = 'fuzz@example.com'`;
    const run = {
      bookingIds: (
        await server.db.sql<{ id: string }[]>`
          select id from bookings where business_id = 'biz_boland_paws' order by starts_at desc limit 4`
      ).map((r) => r.id),
      clientIds: (
        await server.db.sql<{ id: string }[]>`
          select id from business_clients where business_id = 'biz_boland_paws' order by id limit 3`
      ).map((r) => r.id),
    };
    // Partners whose approved areas are only suburbs, or only postal codes (what the sign-up's area
    // form makes), so coverage, quotes, times and bookings are fuzzed against them too.
    const partners = [
      await approvedPartner(server, 'fuzz-suburbs@partner.example', {
        name: 'Fuzz Suburbs Grooming',
        area: { suburbs: [{ name: 'Die Boord', postalCode: '7600' }, { name: 'Dalsig' }] },
      }),
      await approvedPartner(server, 'fuzz-codes@partner.example', {
        name: 'Fuzz Codes Grooming',
        area: { postalCodes: ['7600', '7681'] },
      }),
    ];
    // A shop order of the full key's own, so get_order is fuzzed with an id that exists.
    const order = await server.post(
      '/v1/orders',
      {
        items: [{ productId: 'dental-treats', qty: 1 }],
        shippingMethod: 'courier',
        shipTo: { line1: '12 Dorp Street', city: 'Stellenbosch', postalCode: '7600' },
      },
      { authorization: `Bearer ${me.key}` },
    );
    expect(order.status, preview(order.body)).toBe(201);
    tokens.full = me.key;
    tokens.other = other.key;
    // One scope that none of the document's operations asks for (or the least likely to help).
    const used = scopesUsed(ops);
    const unrelated = SCOPE_NAMES.find((s) => !used.has(s)) ?? 'profile';
    tokens.narrow = (
      await createApiKey(server.db.sql, { email: 'fuzz@example.com', scopes: [unrelated] })
    ).key;

    const catalogue = (await server.get('/v1/services')).body as { lines: { services: { id: string }[] }[] };
    const serviceIds = catalogue.lines.flatMap((l) => l.services.map((s) => s.id));
    const slots = [...me.slots, ...other.slots];
    const day = (n: number) => new Date(clock.now().getTime() + n * 86_400_000).toISOString().slice(0, 10);
    const dates = fc.integer({ min: -2, max: 60 }).map(day);
    hints = {
      // Ids that exist: the key's own, someone else's, and one that never did.
      bookingId: fc.constantFrom(
        me.bookingId,
        me.bookingId,
        other.bookingId,
        'bkg_doesnotexist',
        ...run.bookingIds,
      ),
      clientId: fc.constantFrom(...run.clientIds, 'cli_doesnotexist'),
      businessId: fc.constantFrom(
        'biz_boland_paws',
        ...partners.map((p) => p.businessId),
        'biz_doesnotexist',
      ),
      petId: fc.constantFrom(me.petId, me.petId, other.petId),
      addressId: fc.constantFrom(me.addressId, me.addressId, other.addressId),
      serviceIds: fc.subarray(serviceIds, { minLength: 1, maxLength: 3 }),
      'serviceIds[]': fc.constantFrom(...serviceIds),
      resourceId: fc.constantFrom(...new Set(slots.map((s) => s.resourceId))),
      start: fc.constantFrom(...slots.map((s) => s.start)),
      from: dates,
      to: dates,
      startDate: dates,
      address: fc.constantFrom(
        'Die Boord',
        '12 Dorp Street, Die Boord, Stellenbosch',
        '-33.9477,18.8502',
        'Paris',
        'Cape Town',
      ),
      postalCode: fc.constantFrom('7600', '7599', '8001'),
      lat: fc.constantFrom(-33.9477, -33.93),
      lng: fc.constantFrom(18.8502, 18.86),
      weightKg: fc.constantFrom(4, 12, 30),
      // The shop: products and variants that exist (one sold out, some nearly), an order, codes in each state.
      productId: fc.constantFrom(
        'dental-treats',
        'chew-rope',
        'cat-food',
        'ball-launcher',
        'dog-bed',
        'prd_nope',
      ),
      variantId: fc.constantFrom('chew-rope-l', 'cat-food-fish', 'dog-bed-l', 'dog-bed-m', 'var_nope'),
      orderId: fc.constantFrom(order.body.orderId as string, 'ord_doesnotexist'),
      discountCode: fc.constantFrom('WELCOME10', 'SAVE50', 'WINTER25', 'LAUNCH100', 'SUMMER27', 'NOPE'),
      province: fc.constantFrom('WC', 'GP', 'KZN'),
    };
    // A corpus of good bodies, by operation: the fuzzer mixes them in and mutates them, so requests
    // get past the rules across fields that JSON Schema cannot say ("one way only", "sitting only").
    type Line = { id: string; services: { id: string; kind: string; petTypes: string[] }[] };
    const primary = (line: string, pet = 'DOG') =>
      (catalogue.lines as Line[])
        .find((l) => l.id === line)
        ?.services.find((x) => x.kind === 'PRIMARY' && x.petTypes.includes(pet))?.id ?? 'unknown';
    const byValue = (line: string) => ({
      name: 'Rex',
      type: 'DOG',
      weightKg: 12,
      coat: 'SHORT',
      serviceIds: [primary(line)],
    });
    const saved = (line: string) => ({ petId: me.petId, serviceIds: [primary(line)] });
    const quotes = [
      { category: 'grooming', addressId: me.addressId, pets: [saved('grooming')] },
      { category: 'walking', address: 'Die Boord', pets: [byValue('walking')] },
      { category: 'grooming', lat: -33.9477, lng: 18.8502, pets: [byValue('grooming')] },
      { category: 'sitting', postalCode: '7600', pets: [byValue('sitting')] },
    ];
    // The same requests of the partners, with their own services.
    const partnerQuotes = partners.flatMap((p) =>
      quotes
        .filter((q) => q.category === 'grooming' || q.category === 'walking')
        .map((q) => ({
          ...q,
          businessId: p.businessId,
          pets: [{ ...q.pets[0], serviceIds: [p.serviceId] }],
          category: 'grooming',
        })),
    );
    const open = me.slots.slice(1, 6);
    corpus = {
      getQuote: [...quotes, ...partnerQuotes],
      findTimes: [
        ...[...quotes, ...partnerQuotes].map((q) => ({ ...q, from: day(2), to: day(4) })),
        {
          category: 'sitting',
          addressId: me.addressId,
          pets: [saved('sitting')],
          stay: { startDate: day(5), nights: 2 },
        },
        {
          category: 'sitting',
          addressId: me.addressId,
          pets: [saved('sitting')],
          visits: { startDate: day(5), days: 2, perDay: 2 },
        },
      ],
      book: [
        ...partnerQuotes.map((q) => ({ ...q, start: open[0]!.start, paymentMethod: 'CARD' })),
        ...open.map((slot) => ({
          category: 'grooming',
          addressId: me.addressId,
          pets: [saved('grooming')],
          start: slot.start,
          resourceId: slot.resourceId,
          paymentMethod: 'CARD',
        })),
        ...open.map((slot) => ({
          category: 'grooming',
          addressId: me.addressId,
          pets: [saved('grooming')],
          start: slot.start,
          paymentMethod: 'CASH',
          confirm: true,
        })),
        {
          category: 'sitting',
          addressId: me.addressId,
          pets: [saved('sitting')],
          stay: { startDate: day(8), nights: 1 },
          paymentMethod: 'CARD',
        },
      ],
      rescheduleTimes: [{ from: day(3), to: day(5) }, {}],
      rescheduleBooking: open.map((slot, i) =>
        i % 2 ? { start: slot.start } : { start: slot.start, resourceId: slot.resourceId },
      ),
      cancelBooking: [{ confirm: true }, { confirm: true, series: true }, { confirm: false }],
      addPet: [
        { name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT' },
        {
          name: 'Mia',
          type: 'CAT',
          weightKg: 4.25,
          coat: 'LONG',
          breed: 'Persian',
          birthYear: 2020,
          notes: 'Shy.',
        },
      ],
      quoteOrder: [
        {
          items: [{ productId: 'dental-treats', qty: 2 }],
          shippingMethod: 'courier',
          postalCode: '7600',
          discountCode: 'WELCOME10',
        },
        {
          items: [{ productId: 'chew-rope', variantId: 'chew-rope-m', qty: 1 }],
          shippingMethod: 'local',
          postalCode: '7600',
        },
        { items: [{ productId: 'cat-wand', qty: 1 }], shippingMethod: 'visit', bookingId: me.bookingId },
      ],
      buy: [
        {
          items: [
            { productId: 'dental-treats', qty: 1 },
            { productId: 'dog-bed', variantId: 'dog-bed-m', qty: 1 },
          ],
          shippingMethod: 'courier',
          shipTo: { line1: '12 Dorp Street', city: 'Stellenbosch', province: 'WC', postalCode: '7600' },
          discountCode: 'SAVE50',
        },
        {
          items: [{ productId: 'cat-food', variantId: 'cat-food-fish', qty: 1 }],
          shippingMethod: 'local',
          shipTo: {
            line1: '3 Ryneveld Street',
            city: 'Stellenbosch',
            postalCode: '7600',
            notes: 'Blue gate',
          },
        },
        {
          items: [{ productId: 'cat-wand', qty: 1 }],
          shippingMethod: 'visit',
          bookingId: me.bookingId,
          paymentMethod: 'CASH',
          confirm: true,
        },
      ],
      addAddress: [
        { label: 'Home', line1: '12 Dorp Street', suburb: 'Die Boord' },
        {
          label: 'Work',
          line1: '1 Main Road',
          postalCode: '7600',
          city: 'Stellenbosch',
          lat: -33.93,
          lng: 18.86,
          notes: 'Gate code 1234',
        },
      ],
    };
    for (const [operationId, bodies] of Object.entries(corpus))
      hints[`body:${operationId}`] = fc.constantFrom(...bodies);
    bookingIds = [me.bookingId, me.bookingId, other.bookingId];
    console.log(
      `fuzz: seed ${SEED} (FUZZ_SEED to change), ${RUNS} requests over ${ops.length} operations, ${MCP_RUNS} calls per MCP tool`,
    );
  });

  afterAll(async () => {
    await server?.stop();
  });

  const failures = new Failures();
  let lastCounts: Counts | undefined;
  /** Answers by operation and status, printed at the end: how deep the fuzzing got. */
  const statuses = new Map<string, Map<number | string, number>>();
  let sent = 0;

  function authorization(c: FuzzCase): string | undefined {
    switch (c.credential) {
      case 'none':
        return undefined;
      case 'full':
        return `Bearer ${tokens.full}`;
      case 'narrow':
        return `Bearer ${tokens.narrow}`;
      case 'invalid':
        return invalidAuthorization(c.invalidAuth, tokens.full);
    }
  }

  function describeCase(c: FuzzCase): string {
    const url = squeeze(c.url);
    const parts = [
      `${c.method} ${url.length > 300 ? `${url.slice(0, 300)}… (${c.url.length} chars)` : url}`,
      `credential=${c.credential}${c.credential === 'invalid' ? `#${c.invalidAuth}` : ''}`,
    ];
    if (c.contentType) parts.push(`content-type=${c.contentType}`);
    if (c.idempotencyKey !== undefined) parts.push(`idempotency-key=${JSON.stringify(c.idempotencyKey)}`);
    if (c.body !== undefined) parts.push(`body=${preview(c.body, 400)}`);
    return parts.join(' ');
  }

  /**
   * Rows a refusal may add by design: the first answer to an Idempotency-Key is kept for its
   * retries, and a request that cannot be served is recorded as a lead, whose id the answer gives
   * (spec: NO_COVERAGE, NO_AVAILABILITY).
   */
  function allowedChanges(withIdempotencyKey: boolean, body: unknown): Record<string, number> {
    const allowed: Record<string, number> = {};
    if (withIdempotencyKey) allowed.idempotency_keys = 1;
    const details = (body as { error?: { details?: { leadId?: unknown } } })?.error?.details;
    if (typeof details?.leadId === 'string') allowed.leads = 1;
    return allowed;
  }

  function sizeOf(c: FuzzCase): number {
    return (
      c.url.length +
      (typeof c.body === 'string' ? c.body.length : (c.body?.length ?? 0)) +
      (c.idempotencyKey?.length ?? 0)
    );
  }

  function serverErrorOf(reqId: string): string | undefined {
    const lines = logs.take();
    const mine = lines.filter((l) => l.reqId === reqId && l.err);
    const line = mine[0] ?? lines.find((l) => l.err);
    return line?.err ?? (lines.length ? lines.map((l) => l.msg).join('; ') : undefined);
  }

  async function send(c: FuzzCase): Promise<void> {
    const reqId = `fz-${++sent}`;
    const headers: Record<string, string> = { 'x-request-id': reqId };
    const auth = authorization(c);
    if (auth !== undefined) headers.authorization = auth;
    if (c.contentType) headers['content-type'] = c.contentType;
    if (c.idempotencyKey !== undefined) headers['idempotency-key'] = c.idempotencyKey;
    const write = c.method !== 'GET';
    // The counts after a refused change stand for the next change, if nothing else came between.
    const before = write ? (lastCounts ?? (await counts())) : undefined;
    lastCounts = undefined;
    logs.take();
    let status: number;
    let body: unknown;
    let where = c.operationId;
    try {
      const res = await fetch(server.url + c.url, {
        method: c.method,
        headers,
        ...(c.body !== undefined ? { body: c.body } : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      status = res.status;
      // Answered before the app saw it (no request id): Node's HTTP server itself, whatever the operation.
      if (res.headers.get('x-request-id') !== reqId) where = '(node http server, before the app)';
      const text = await res.text();
      try {
        body = text ? JSON.parse(text) : text;
      } catch {
        body = text;
      }
    } catch (err) {
      failures.add({
        kind: '5xx',
        where: c.operationId,
        status: 'no answer',
        error: String((err as Error).cause ?? err),
        serverError: serverErrorOf(reqId),
        sample: describeCase(c),
        size: sizeOf(c),
      });
      return;
    }
    if (process.env.FUZZ_DEBUG && c.mode === 'valid' && c.credential === 'full' && status >= 400) {
      console.log(
        `valid ${c.operationId} ${status} ${preview(body, 300)} <- ${describeCase(c).slice(0, 600)}`,
      );
    }
    const tally = statuses.get(c.operationId) ?? new Map<number | string, number>();
    statuses.set(c.operationId, tally.set(status, (tally.get(status) ?? 0) + 1));
    const error = (body as { error?: { code?: string; message?: string } })?.error;
    const errorText = error ? `${error.code}: ${error.message}` : preview(body, 120);
    if (status >= 500) {
      failures.add({
        kind: '5xx',
        where,
        status,
        error: errorText,
        serverError: serverErrorOf(reqId),
        sample: describeCase(c),
        size: sizeOf(c),
      });
    }
    // An empty path id (`/v1/bookings/`) is another route (non-strict routing: the list): not this operation's answer.
    // As fetch sent it: dot segments resolved (`/v1/bookings/.` is `/v1/bookings/`).
    const pathname = new URL(server.url + c.url).pathname;
    // Sent with another method, a path two operations share answers as the other one (GET
    // /v1/business/time-off lists what POST adds): that answer is not this operation's either.
    const ownMethod = ops.find((o) => o.operationId === c.operationId)?.method === c.method;
    if (status >= 200 && status < 300 && ownMethod && !pathname.endsWith('/') && !pathname.includes('//')) {
      // What is sent must be what the document declares: every answer is checked against the
      // operation's output schema (the one the OpenAPI document is made from).
      const problem = outputProblem(c.operationId, body);
      if (problem)
        failures.add({
          kind: 'output-schema',
          where,
          status,
          error: problem,
          sample: describeCase(c),
          size: sizeOf(c),
        });
    }
    if (status >= 400) {
      const problem = errorShapeProblem(body);
      if (problem)
        failures.add({
          kind: 'error-shape',
          where,
          status,
          error: problem,
          sample: describeCase(c),
          size: sizeOf(c),
        });
    }
    if (write && before && status >= 400 && status < 500) {
      // A key's first refusal is kept for its retries (docs: Idempotency-Key), so one row may appear there.
      const allowed = allowedChanges(c.idempotencyKey !== undefined, body);
      const after = await counts();
      const changed = countChanges(before, after, allowed);
      lastCounts = changed.length ? undefined : after;
      if (changed.length)
        failures.add({
          kind: 'rows-changed',
          where,
          status,
          error: `${error?.code} changed ${changed.join(', ')}`,
          sample: describeCase(c),
          size: sizeOf(c),
        });
    }
  }

  it(
    'answers every request to every operation without a 5xx, in the error shape, and refused changes change nothing',
    async () => {
      const started = Date.now();
      const arbitraries = ops.map((op) => requestsFor(op, { root: doc, hints }));
      const perOp = Math.max(1, Math.ceil(RUNS / ops.length));
      const byOp = new Map<string, number>();
      for (let round = 0; round * BATCH < perOp; round++) {
        for (const [i, op] of ops.entries()) {
          const n = Math.min(BATCH, perOp - round * BATCH);
          const cases = fc.sample(arbitraries[i]!, {
            seed: (SEED + i * 7919 + round * 104_729) | 0,
            numRuns: n,
          });
          for (const c of cases) {
            await send(c);
            byOp.set(op.operationId, (byOp.get(op.operationId) ?? 0) + 1);
          }
        }
        if (RUNS > 10_000)
          console.log(
            `fuzz: ${sent} requests, ${failures.size} distinct failures, ${Math.round((Date.now() - started) / 1000)} s`,
          );
      }
      console.log(
        `fuzz: ${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s; ${failures.size} distinct failures`,
      );
      console.log(
        `fuzz: answers by operation and status:\n${[...statuses]
          .map(
            ([op, tally]) =>
              `  ${op}: ${[...tally]
                .sort(([a], [b]) => String(a).localeCompare(String(b)))
                .map(([st, n]) => `${st}×${n}`)
                .join(' ')}`,
          )
          .join('\n')}`,
      );
      if (failures.size) console.log(`fuzz failures (seed ${SEED}):\n${failures.report()}`);
      expect([...byOp.keys()].sort()).toEqual(ops.map((o) => o.operationId).sort());
      expect(failures.size, `seed ${SEED}:\n${failures.report()}`).toBe(0);
    },
    Math.max(120_000, RUNS * 100),
  );

  it(
    'calls every MCP tool with arguments from its input schema: no INTERNAL, no transport error',
    async () => {
      const mcpFailures = new Failures();
      const started = Date.now();
      const full = await server.mcpAs(tokens.full);
      const anonymous = await server.mcp();
      // Both endpoints' tools; `full` sends each business tool's call to /mcp/business (harness).
      const tools = [
        ...(await full.listTools()).tools,
        ...(await (await server.mcpAs(tokens.full, 'business')).listTools()).tools,
      ];
      expect(tools.length).toBe(operations.filter((op) => op.mcp !== 'none').length);
      const publicTools = new Set(ops.filter((o) => o.scope === null && o.tool).map((o) => o.tool));
      let calls = 0;
      for (const [i, tool] of tools.entries()) {
        // The tool takes path parameters among its arguments: the corpus bodies get a booking id.
        const operationId = ops.find((o) => o.tool === tool.name)?.operationId ?? tool.name;
        const takesBookingId = Object.hasOwn((tool.inputSchema.properties ?? {}) as object, 'bookingId');
        const bodies = (corpus[operationId] ?? []).flatMap((b) =>
          takesBookingId ? bookingIds.map((bookingId) => ({ bookingId, ...b })) : [b],
        );
        const name = `body:${operationId}`;
        const ctx: SchemaContext = {
          root: tool.inputSchema,
          hints: bodies.length ? { ...hints, [name]: fc.constantFrom(...bodies) } : hints,
        };
        const args = fc
          .oneof(
            validOf(tool.inputSchema, ctx, name),
            validOf(tool.inputSchema, ctx, name),
            mutatedOf(tool.inputSchema, ctx, name),
          )
          .filter(
            (v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v),
          );
        const samples = fc.sample(fc.tuple(args, fc.option(idempotencyKey(), { freq: 3 }), fc.boolean()), {
          seed: (SEED + 31 * i) | 0,
          numRuns: MCP_RUNS,
        });
        const readOnly = tool.annotations?.readOnlyHint === true;
        for (const [a, key, anon] of samples) {
          const client = anon && publicTools.has(tool.name) ? anonymous : full;
          const sample = `${tool.name}(${preview(a, 400)})${key !== null ? ` _meta.idempotencyKey=${JSON.stringify(key)}` : ''}${client === anonymous ? ' anonymous' : ''}`;
          const before = readOnly ? undefined : await counts();
          logs.take();
          calls++;
          let answer: Awaited<ReturnType<typeof full.callTool>>;
          try {
            answer = await client.callTool({
              name: tool.name,
              arguments: a,
              ...(key !== null && !readOnly ? { _meta: { idempotencyKey: key } } : {}),
            });
          } catch (err) {
            // Arguments past the 100 kB body limit are refused at the HTTP level, in the error shape: right.
            if ((err as { code?: number }).code === 413 && Buffer.byteLength(JSON.stringify(a)) > 100_000)
              continue;
            const line = logs.take().find((l) => l.err);
            mcpFailures.add({
              kind: 'mcp-transport',
              where: `tool:${tool.name}`,
              status: (err as { code?: number }).code ?? 'thrown',
              error: String((err as Error).message ?? err).slice(0, 300),
              ...(line?.err ? { serverError: line.err } : {}),
              sample,
            });
            continue;
          }
          if (!answer.isError) {
            const op = operations.find((o) => o.toolName === tool.name);
            const problem = op
              ? outputProblem(op.operationId, answer.structuredContent)
              : `no operation for tool ${tool.name}`;
            if (problem)
              mcpFailures.add({
                kind: 'output-schema',
                where: `tool:${tool.name}`,
                status: 'ok',
                error: problem,
                sample,
              });
            continue;
          }
          let body: unknown;
          try {
            body = toolJson(answer);
          } catch {
            body = answer.content;
          }
          const problem = errorShapeProblem(body);
          if (problem)
            mcpFailures.add({
              kind: 'error-shape',
              where: `tool:${tool.name}`,
              status: 'isError',
              error: problem,
              sample,
            });
          const error = (body as { error?: { code?: string; message?: string } })?.error;
          if (error?.code === 'INTERNAL') {
            const line = logs.take().find((l) => l.err);
            mcpFailures.add({
              kind: 'mcp-internal',
              where: `tool:${tool.name}`,
              status: 'INTERNAL',
              error: `${error.code}: ${error.message}`,
              ...(line?.err ? { serverError: line.err } : {}),
              sample,
            });
          } else if (before) {
            const allowed = allowedChanges(key !== null, body);
            const changed = countChanges(before, await counts(), allowed);
            if (changed.length)
              mcpFailures.add({
                kind: 'rows-changed',
                where: `tool:${tool.name}`,
                status: 'isError',
                error: `${error?.code} changed ${changed.join(', ')}`,
                sample,
              });
          }
        }
      }
      console.log(
        `fuzz: ${calls} MCP tool calls over ${tools.length} tools in ${((Date.now() - started) / 1000).toFixed(1)} s; ${mcpFailures.size} distinct failures`,
      );
      if (mcpFailures.size) console.log(`fuzz MCP failures (seed ${SEED}):\n${mcpFailures.report()}`);
      expect(mcpFailures.size, `seed ${SEED}:\n${mcpFailures.report()}`).toBe(0);
    },
    Math.max(120_000, MCP_RUNS * 40 * 200),
  );
});
