// findPetBusinesses / find_pet_businesses: the public directory, partners first, over HTTP and MCP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, toolJson } from './harness.js';

type Listing = {
  id: string;
  name: string;
  categories: string[];
  town: string;
  partner: boolean;
  isNogPets: boolean;
  bookWith: string | null;
};

describe('findPetBusinesses / find_pet_businesses', () => {
  let server: TestServer;
  const find = async (query: Record<string, string | number> = {}) => {
    const qs = new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    return server.get(`/v1/directory${qs ? `?${qs}` : ''}`);
  };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  it('lists partners first (NogPets itself, with how to book it), then the rest by name, the same over MCP', async () => {
    const res = await find();
    expect(res.status).toBe(200);
    const listings = res.body.listings as Listing[];
    // 17 invented listings, NogPets and the demo partner Boland Paws.
    expect(listings).toHaveLength(19);
    expect(res.body.next).toBeNull();
    expect(listings[1]).toMatchObject({
      name: 'NogPets',
      partner: true,
      isNogPets: true,
      town: 'stellenbosch',
    });
    expect(listings[1]!.bookWith).toMatch(/list_services, check_coverage, get_quote, find_times, then book/);
    expect(listings[0]).toMatchObject({
      name: 'Boland Paws',
      partner: true,
      isNogPets: false,
      businessId: 'biz_boland_paws',
    });
    const rest = listings.slice(2);
    expect(rest.every((l) => !l.partner && !l.isNogPets && l.bookWith === null)).toBe(true);
    expect(rest.map((l) => l.name)).toEqual(
      [...rest.map((l) => l.name)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    const client = await server.mcp();
    const overMcp = toolJson(await client.callTool({ name: 'find_pet_businesses', arguments: {} }));
    expect(overMcp).toEqual(res.body);
  });

  it('filters by town and category, and ranks words in names and services, forgiving a typo', async () => {
    const franschhoek = (await find({ town: 'franschhoek' })).body.listings as Listing[];
    expect(franschhoek.map((l) => l.name)).toEqual(['Franschhoek Valley Pet Taxi']);
    const vets = (await find({ category: 'VET' })).body.listings as Listing[];
    expect(vets.map((l) => l.name)).toEqual(['Krigeville Critter Clinic', 'Mostertsdrift Veterinary Rooms']);
    // NogPets and the demo partner walk dogs too: partners lead the walkers.
    const walkers = (await find({ category: 'DOG_WALKING', town: 'stellenbosch' })).body
      .listings as Listing[];
    expect(walkers.map((l) => l.name)).toEqual([
      'Boland Paws',
      'NogPets',
      'Boord & Bark Dog Walkers',
      'Jonkershoek Trail Dogs',
    ]);
    const cats = (await find({ q: 'cattery' })).body.listings as Listing[];
    expect(cats[0]?.name).toBe('Welgevonden Whiskers Cattery');
    const typo = (await find({ q: 'obedeince' })).body.listings as Listing[];
    expect(typo.map((l) => l.name)).toEqual(
      expect.arrayContaining(['Cloetesville Canine Club', 'Paradyskloof Puppy School']),
    );
    // LIKE's wildcards are only themselves.
    expect((await find({ q: '%' })).body.listings).toEqual([]);
    expect((await find({ q: 'zzzz qqqq' })).body.listings).toEqual([]);
    expect((await find({ town: 'paarl' })).body.listings).toEqual([]);
  });

  it('pages with a cursor, and refuses what is out of bounds with 400 naming the field', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await find({ limit: 5, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      seen.push(...(res.body.listings as Listing[]).map((l) => l.id));
      cursor = res.body.next;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(new Set(seen).size).toBe(19);
    expect(seen).toEqual(((await find({ limit: 50 })).body.listings as Listing[]).map((l) => l.id));
    expect((await find({ limit: 1 })).body.listings).toHaveLength(1);
    for (const [query, field] of [
      [{ limit: 0 }, 'limit'],
      [{ limit: 51 }, 'limit'],
      [{ town: 'S' }, 'town'],
      [{ town: 'Stellenbosch' }, 'town'],
      [{ town: 'a'.repeat(41) }, 'town'],
      [{ category: 'GROOMER' }, 'category'],
      [{ q: 'x'.repeat(101) }, 'q'],
      [{ cursor: 'not-ours' }, 'cursor'],
      [{ colour: 'red' }, 'colour'],
    ] as const) {
      const res = await find(query as Record<string, string | number>);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(JSON.stringify(res.body.error), JSON.stringify(query)).toContain(field);
    }
    // At the bounds: accepted.
    expect((await find({ limit: 50, town: 'ab', q: 'x'.repeat(100) })).status).toBe(200);
    expect((await find({ town: 'a'.repeat(40) })).status).toBe(200);
  });
});
