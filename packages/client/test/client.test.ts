import { describe, expect, it } from 'vitest';
import { createNogPetsClient, isChange, READ_ONLY_REQUESTS } from '../src/index.js';

/** A fetch that answers 200 `{}` and keeps each request it was given, as the client sent it. */
function recordingFetch() {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request);
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { requests, fetch };
}

const quoteBody = {
  category: 'grooming' as const,
  address: 'Die Boord',
  pets: [
    {
      name: 'Rex',
      type: 'DOG' as const,
      weightKg: 12,
      coat: 'SHORT' as const,
      serviceIds: ['groom-dog-bath'],
    },
  ],
};
const bookBody = {
  category: 'grooming' as const,
  addressId: 'adr_1',
  pets: [{ petId: 'pet_1', serviceIds: ['groom-dog-bath'] }],
  start: '2026-11-25T07:00:00.000Z',
  resourceId: 'van-1',
  paymentMethod: 'CARD' as const,
};

describe('createNogPetsClient', () => {
  it('sends the token as a Bearer credential, to the base URL without a doubled slash', async () => {
    const { requests, fetch } = recordingFetch();
    const api = createNogPetsClient({ baseUrl: 'http://localhost:3000/', token: 'npk_abc', fetch });
    await api.GET('/v1/me');
    expect(requests[0]!.url).toBe('http://localhost:3000/v1/me');
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer npk_abc');
    expect(requests[0]!.headers.get('idempotency-key')).toBeNull();
  });

  it('sends no Authorization header without a token', async () => {
    const { requests, fetch } = recordingFetch();
    const api = createNogPetsClient({ baseUrl: 'http://localhost:3000', fetch });
    await api.POST('/v1/quote', { body: quoteBody });
    expect(requests[0]!.headers.has('authorization')).toBe(false);
  });

  it('gives each change a fresh Idempotency-Key, and read-only POSTs none', async () => {
    const { requests, fetch } = recordingFetch();
    const api = createNogPetsClient({ baseUrl: 'http://localhost:3000', token: 'k', fetch });
    await api.POST('/v1/bookings', { body: bookBody });
    await api.POST('/v1/bookings', { body: bookBody });
    await api.POST('/v1/bookings/{bookingId}/cancel', {
      params: { path: { bookingId: 'bkg_1' } },
      body: { confirm: true },
    });
    await api.POST('/v1/quote', { body: quoteBody });
    await api.POST('/v1/availability', { body: quoteBody });
    await api.POST('/v1/bookings/{bookingId}/times', { params: { path: { bookingId: 'bkg_1' } }, body: {} });
    const keys = requests.map((r) => r.headers.get('idempotency-key'));
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(keys[0]).toMatch(uuid);
    expect(keys[1]).toMatch(uuid);
    expect(keys[2]).toMatch(uuid);
    expect(new Set(keys.slice(0, 3)).size).toBe(3);
    expect(keys.slice(3)).toEqual([null, null, null]);
  });

  it("keeps the caller's own Idempotency-Key (a retry with it is answered once)", async () => {
    const { requests, fetch } = recordingFetch();
    const api = createNogPetsClient({ baseUrl: 'http://localhost:3000', token: 'k', fetch });
    await api.POST('/v1/bookings', {
      body: bookBody,
      params: { header: { 'Idempotency-Key': 'book-rex-1' } },
    });
    await api.POST('/v1/bookings', { body: bookBody, headers: { 'idempotency-key': 'book-rex-2' } });
    expect(requests.map((r) => r.headers.get('idempotency-key'))).toEqual(['book-rex-1', 'book-rex-2']);
  });

  it('adds no key with idempotencyKeys: false', async () => {
    const { requests, fetch } = recordingFetch();
    const api = createNogPetsClient({ baseUrl: 'http://x.example', idempotencyKeys: false, fetch });
    await api.POST('/v1/bookings', { body: bookBody });
    expect(requests[0]!.headers.has('idempotency-key')).toBe(false);
  });

  it('names changes by method and path', () => {
    expect(isChange('POST', '/v1/bookings')).toBe(true);
    expect(isChange('post', '/v1/bookings/{bookingId}/pay')).toBe(true);
    expect(isChange('POST', '/v1/quote')).toBe(false);
    expect(isChange('GET', '/v1/bookings')).toBe(false);
    expect(READ_ONLY_REQUESTS).toContain('POST /v1/orders/quote');
  });
});
