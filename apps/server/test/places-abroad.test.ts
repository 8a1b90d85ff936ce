// Towns abroad as people write them: a Portuguese business sets its area around
// "Lisboa" and around an address in it; places are found by their local and other names (a table
// of hand-picked ones over HTTP), and every other name the GeoNames data gives the 200 most
// populous cities finds that city, unless a more populous town or a country goes by it.
import {
  createGazetteer,
  haversineKm,
  normalizePlaceText,
  resolveText,
  type Town,
} from '@nogpets/coverage-geo';
import { loadGeoData } from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { insertPartner, LISBON_PARTNER } from './partner-fixture.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const LISBON = { lat: 38.72, lng: -9.14 };
const near = (a: { lat: number; lng: number }, b: { lat: number; lng: number }, km = 30) =>
  haversineKm(a, b) <= km;

describe('places abroad by the names people write', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  it('sets a Portuguese business’s radius around "Lisboa" and around an address in Lisbon, saying it is the town’s centre', async () => {
    const auth = `Bearer ${(await createApiKey(server.db.sql, { email: 'caes@example.com', scopes: ['business:write'] })).key}`;
    const started = await server.post(
      '/v1/business/applications',
      { businessName: 'Cães da Baixa', town: 'Lisboa', phone: '+351 912 345 111', categories: ['walking'] },
      { authorization: auth },
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const area = (body: Record<string, unknown>) =>
      server.post(`/v1/business/applications/${started.body.applicationId}/area`, body, {
        authorization: auth,
      });

    for (const centerAddress of [
      'Lisboa',
      'Praça do Comércio, Lisboa',
      'praca do comercio, 1100-148 LISBOA',
    ]) {
      const res = await area({ radiusKm: 5, centerAddress });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const [radius] = res.body.areas as Json[];
      expect(radius).toMatchObject({
        name: `5 km around ${centerAddress}`,
        kind: 'RADIUS',
        centerAddress,
        centerPlacedAt: 'the centre of Lisbon (PT)',
      });
      expect(near(radius.center, LISBON, 5)).toBe(true);
    }

    // A Lisbon street that names no town is still a question for the person, not a guess.
    const street = await area({ radiusKm: 5, centerAddress: 'Rua Augusta 100' });
    expect(street.status).toBe(422);
    expect(street.body.error.code).toBe('UNKNOWN_PLACE');
    // A town of that name in another country is not the business's.
    const abroad = await area({ radiusKm: 5, centerAddress: 'München' });
    expect(abroad.status).toBe(422);
    expect(abroad.body.error.message).toMatch(/in PT/);
    // A point is placed at itself.
    const point = await area({ radiusKm: 5, center: LISBON });
    expect(point.body.areas[0].centerPlacedAt).toBeNull();
  });

  it('lets a running Lisbon business propose a radius around an address in "Lisboa", saying where it is centred', async () => {
    await insertPartner(server.db.sql, LISBON_PARTNER);
    const { key } = await createApiKey(server.db.sql, {
      email: 'dona@graca.example',
      scopes: ['business:manage'],
    });
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${LISBON_PARTNER.id}, id, 'owner', now() from users where email = 'dona@graca.example'`;
    const res = await server.post(
      '/v1/business/areas',
      { radiusKm: 3, centerAddress: 'Largo do Chafariz de Dentro, Lisboa', confirm: true },
      { authorization: `Bearer ${key}` },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.proposed).toMatchObject([
      { name: '3 km around Largo do Chafariz de Dentro, Lisboa', status: 'PENDING' },
    ]);
    expect(res.body.message).toContain(
      '3 km around Largo do Chafariz de Dentro, Lisboa is centred at the centre of Lisbon (PT).',
    );
    const [row] = await server.db.sql`
      select lat, lng from service_areas where business_id = ${LISBON_PARTNER.id} and name like '3 km%'`;
    expect(near({ lat: Number(row!.lat), lng: Number(row!.lng) }, LISBON, 5)).toBe(true);
  });

  it.each([
    ['Lisboa', 'PT', 38.717, -9.133],
    ['München', 'DE', 48.137, 11.575],
    ['Köln', 'DE', 50.933, 6.95],
    ['Wien', 'AT', 48.208, 16.372],
    ['Praha', 'CZ', 50.088, 14.421],
    ['Roma', 'IT', 41.892, 12.511],
    ['Zürich', 'CH', 47.367, 8.55],
    ['Kraków', 'PL', 50.061, 19.937],
    ['São Paulo', 'BR', -23.548, -46.636],
    ['Ciudad de México', 'MX', 19.428, -99.128],
    ['東京', 'JP', 35.69, 139.692],
    ['Москва', 'RU', 55.752, 37.616],
    ['Muenchen', 'DE', 48.137, 11.575],
    ['Sao Paulo, Brasil', 'BR', -23.548, -46.636],
    ['Calle de Alcalá 50, Madrid', 'ES', 40.417, -3.704],
    ['Firenze', 'IT', 43.77, 11.25],
    ['Den Haag', 'NL', 52.077, 4.3],
    ['Warszawa', 'PL', 52.23, 21.01],
    ['Αθήνα', 'GR', 37.98, 23.73],
  ])('finds %s in %s over HTTP', async (address, country, lat, lng) => {
    const res = await server.get(`/v1/coverage?${new URLSearchParams({ address })}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.place).toMatchObject({ country });
    expect(near(res.body.place, { lat, lng }), JSON.stringify(res.body.place)).toBe(true);
  });

  it('finds each of the 200 most populous cities of the data by every other name it gives them', async () => {
    const geo = await loadGeoData();
    const g = createGazetteer({
      country: 'ZA',
      homeTown: 'Stellenbosch',
      areas: [],
      nearbyTowns: [],
      worldTowns: geo.worldTowns,
      countries: geo.countries,
    });
    // Every town and the largest population that goes by a name (its own or another).
    const largest = new Map<string, Town[]>();
    const add = (key: string, t: Town) => {
      const list = largest.get(key);
      if (list) list.push(t);
      else largest.set(key, [t]);
    };
    for (const t of geo.worldTowns) {
      add(normalizePlaceText(t.name), t);
      for (const n of new Set((t.altNames ?? []).map(normalizePlaceText))) add(n, t);
    }
    const cities = [...geo.worldTowns]
      .sort((a, b) => (b.population ?? 0) - (a.population ?? 0))
      .slice(0, 200);
    let tried = 0;
    const wrong: string[] = [];
    const found = new Map<Town, number>();
    for (const city of cities) {
      for (const name of new Set(city.altNames ?? [])) {
        const key = normalizePlaceText(name);
        const tokens = key.split(' ');
        // Not a name: an airport's code, a number, a word of addresses, or longer than a place's name.
        if (/^[A-Z0-9]{2,4}$/.test(name) || !key || tokens.length > 5 || /^\d+$/.test(key)) continue;
        if ([...key.replace(/ /g, '')].length < 3 && !/\p{Script=Han}|\p{Script=Hangul}/u.test(key)) continue;
        // A name a country goes by (in part), or a more populous town elsewhere, is rightly theirs.
        if (
          tokens.some((_, i) =>
            tokens.some((__, j) => j >= i && g.countryByName.has(tokens.slice(i, j + 1).join(' '))),
          )
        )
          continue;
        const rivals = largest.get(key) ?? [];
        if (rivals.some((t) => (t.population ?? 0) >= (city.population ?? 0) && !near(t, city))) continue;
        tried++;
        const place = resolveText(g, name);
        if (place.kind === 'town' && near(place, city)) found.set(city, (found.get(city) ?? 0) + 1);
        else wrong.push(`${name} (${city.name}, ${city.country}) → ${JSON.stringify(place)}`);
      }
    }
    console.log(`200 most populous cities: ${tried} other names tried, ${wrong.length} not found`);
    expect(wrong).toEqual([]);
    expect(tried).toBeGreaterThan(5000);
    // Nearly all have names of their own that find them (a few have none the data does not give a
    // larger town too: Zhongshan's other names are Zhongshan's elsewhere).
    expect(found.size).toBeGreaterThanOrEqual(195);
  });
});
