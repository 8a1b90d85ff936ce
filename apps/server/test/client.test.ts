import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNogPetsClient, type ErrorBody } from '@nogpets/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startTestServer, type TestServer } from './harness.js';

const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../packages/client');

/** `node examples/book.mjs` in packages/client, as the package's README runs it. */
function runExample(
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['examples/book.mjs'], {
      cwd: clientDir,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('@nogpets/client against the real server', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    // The key as the package's README makes it.
    const made = await cli(server.db.url, [
      'key',
      'create',
      '--email',
      'client-example@example.com',
      '--scopes',
      'pets,addresses,bookings:read,bookings:write',
    ]);
    expect(made.status, made.stderr).toBe(0);
    key = made.lastLine;
    expect(key).toMatch(/^\S{20,}$/);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves the OpenAPI document the client was generated from (but for its address)', async () => {
    const committed = JSON.parse(await readFile(path.join(clientDir, 'openapi.json'), 'utf8'));
    const served = (await server.get('/v1/openapi.json')).body;
    const withoutAddress = (doc: { servers: unknown; info: { contact: object } }) => ({
      ...doc,
      servers: undefined,
      info: { ...doc.info, contact: { ...doc.info.contact, url: undefined } },
    });
    expect(served.servers).toEqual([{ url: server.url }]);
    expect(withoutAddress(served)).toEqual(withoutAddress(committed));
  });

  it('runs examples/book.mjs as written: quote, first open time, a card booking and its pay link', async () => {
    const run = await runExample({ NOGPETS_URL: server.url, NOGPETS_KEY: key });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^Quote: .+R\d/);
    expect(lines[1]).toMatch(/^First open time: .+ \d\d:\d\d$/);
    const booked = /^Booked (\S+): PENDING, (R[\d ,.]+) by card, .+$/.exec(lines[2]!);
    expect(booked, lines[2]).not.toBeNull();
    const payUrl = /^Pay here: (.+)$/.exec(lines[3]!)?.[1];
    expect(payUrl).toMatch(new RegExp(`^${server.url}/pay/npl_`));

    // The booking is the person's, waiting for the card payment behind that link.
    const api = createNogPetsClient({ baseUrl: server.url, token: key });
    const { data, error } = await api.GET('/v1/bookings/{bookingId}', {
      params: { path: { bookingId: booked![1]! } },
    });
    expect(error).toBeUndefined();
    expect(data).toMatchObject({
      id: booked![1],
      status: 'PENDING',
      paymentStatus: 'PENDING',
      canPay: true,
      total: booked![2],
    });
    const page = await fetch(payUrl!);
    expect(page.status).toBe(200);
    await page.body?.cancel();

    // A second run reuses the saved Rex and Home, and books the next open time.
    const again = await runExample({ NOGPETS_URL: server.url, NOGPETS_KEY: key });
    expect(again.status, again.stderr).toBe(0);
    const second = /^Booked (\S+):/m.exec(again.stdout)?.[1];
    expect(second).toBeDefined();
    expect(second).not.toBe(booked![1]);
    expect((await api.GET('/v1/pets')).data?.pets.map((p) => p.name)).toEqual(['Rex']);
    expect((await api.GET('/v1/addresses')).data?.addresses.map((a) => a.label)).toEqual(['Home']);
  });

  it('says why on stderr and exits 1 when the key is wrong', async () => {
    const run = await runExample({ NOGPETS_URL: server.url, NOGPETS_KEY: 'npk_not_a_key' });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^401 UNAUTHORIZED: /);
  });

  it('answers refusals typed in error: a 400 BAD_REQUEST naming the field, a 409 NO_COVERAGE, a 401, a 403', async () => {
    const anonymous = createNogPetsClient({ baseUrl: server.url });
    const bad = await anonymous.POST('/v1/quote', {
      body: {
        category: 'grooming',
        address: 'Die Boord',
        pets: [{ name: 'Rex', type: 'DOG', weightKg: -3, coat: 'SHORT', serviceIds: ['groom-dog-bath'] }],
      },
    });
    expect(bad.data).toBeUndefined();
    expect(bad.response.status).toBe(400);
    const refusal: ErrorBody | undefined = bad.error;
    expect(refusal?.error.code).toBe('BAD_REQUEST');
    if (refusal?.error.code !== 'BAD_REQUEST') throw new Error('not BAD_REQUEST');
    // Narrowed by its code, details are ValidationErrorDetails.
    expect(refusal.error.details.fields?.map((f) => f.field)).toEqual(['pets.0.weightKg']);

    const outside = await anonymous.POST('/v1/availability', {
      body: {
        category: 'grooming',
        address: 'Paarl',
        pets: [{ name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['groom-dog-bath'] }],
      },
    });
    expect(outside.response.status).toBe(409);
    if (outside.error?.error.code !== 'NO_COVERAGE') throw new Error(JSON.stringify(outside.error));
    expect(outside.error.error.details.message).toMatch(/\w/);

    const stranger = createNogPetsClient({ baseUrl: server.url, token: 'npk_not_a_key' });
    const unauthorized = await stranger.GET('/v1/bookings');
    expect(unauthorized.response.status).toBe(401);
    expect(unauthorized.error?.error.code).toBe('UNAUTHORIZED');
    expect(unauthorized.response.headers.get('www-authenticate')).toMatch(/^Bearer /);

    const api = createNogPetsClient({ baseUrl: server.url, token: key });
    const forbidden = await api.GET('/v1/me');
    expect(forbidden.response.status).toBe(403);
    const denied = forbidden.error?.error;
    if (denied?.code !== 'FORBIDDEN') throw new Error(`not FORBIDDEN: ${JSON.stringify(forbidden.error)}`);
    expect(denied.details.error).toBe('insufficient_scope');
    expect(denied.details.scope?.split(' ')).toContain('profile');
  });

  it("answers a booking retried with the caller's Idempotency-Key once, and books once", async () => {
    const api = createNogPetsClient({ baseUrl: server.url, token: key });
    const pet = (await api.GET('/v1/pets')).data!.pets[0]!;
    const home = (await api.GET('/v1/addresses')).data!.addresses[0]!;
    const request = {
      category: 'grooming' as const,
      addressId: home.id,
      pets: [{ petId: pet.id, serviceIds: ['groom-dog-bath'] }],
    };
    const times = await api.POST('/v1/availability', { body: request });
    const slot = times.data!.days.flatMap((d) => d.slots)[0]!;
    const body = {
      ...request,
      start: slot.start,
      resourceId: slot.resourceId,
      paymentMethod: 'CARD' as const,
    };
    const header = { 'Idempotency-Key': `client-test-${slot.start}` };
    const first = await api.POST('/v1/bookings', { body, params: { header } });
    const retry = await api.POST('/v1/bookings', { body, params: { header } });
    expect(first.response.status).toBe(201);
    expect(retry.response.status).toBe(201);
    expect(retry.data?.bookingId).toBe(first.data?.bookingId);
    const [row] = await server.db.sql<{ n: number }[]>`
      select count(*)::int as n from bookings
      where starts_at = ${slot.start} and user_id = (select user_id from bookings where id = ${first.data!.bookingId})`;
    expect(row!.n).toBe(1);

    // Without a key of the caller's, each call is a new request: the same slot again is taken.
    const other = await api.POST('/v1/bookings', { body });
    expect(other.response.status).toBe(409);
    expect(other.error?.error.code).toBe('SLOT_TAKEN');
  });

  it('books once when a fetch retries the request (its answer lost): the retry carries the key the client gave it', async () => {
    // A fetch that sends each request, drops the answer as a lost connection would, and sends it again.
    const keys: (string | null)[] = [];
    const retrying = async (request: Request) => {
      const again = request.clone();
      keys.push(request.headers.get('idempotency-key'));
      const lost = await fetch(request);
      await lost.body?.cancel();
      keys.push(again.headers.get('idempotency-key'));
      return fetch(again);
    };
    const plain = createNogPetsClient({ baseUrl: server.url, token: key });
    const api = createNogPetsClient({ baseUrl: server.url, token: key, fetch: retrying });
    const pet = (await plain.GET('/v1/pets')).data!.pets[0]!;
    const home = (await plain.GET('/v1/addresses')).data!.addresses[0]!;
    const request = {
      category: 'grooming' as const,
      addressId: home.id,
      pets: [{ petId: pet.id, serviceIds: ['groom-dog-bath'] }],
    };
    const slot = (await plain.POST('/v1/availability', { body: request })).data!.days.flatMap(
      (d) => d.slots,
    )[0]!;

    const count = async () =>
      (await server.db.sql<{ n: number }[]>`select count(*)::int as n from bookings`)[0]!.n;
    const before = await count();
    const booked = await api.POST('/v1/bookings', {
      body: { ...request, start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD' },
    });
    // Answered as the first request was (201), not SLOT_TAKEN by its own booking; one booking made.
    expect(booked.error).toBeUndefined();
    expect(booked.response.status).toBe(201);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(await count()).toBe(before + 1);
    expect(
      (
        await plain.GET('/v1/bookings/{bookingId}', {
          params: { path: { bookingId: booked.data!.bookingId } },
        })
      ).data,
    ).toMatchObject({ start: slot.start, paymentStatus: 'PENDING' });
  });
});
