// The clients of a business: list_clients, get_client and add_client_note on the demo
// partner Boland Paws over HTTP and MCP. Search by name, phone, email and pet; paging; a client's
// pets, addresses, history, balance and notes as the database holds them; notes kept and audited;
// bounds; every role; and never another business's clients, bookings or notes.
import { createApiKey } from '@nogpets/operations/testing';
import { insertClient, insertClientNote } from '@nogpets/store';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookFirstCardSlot, newPetOwner, startTestServer, type TestServer, toolJson } from './harness.js';
import { insertPartner, LISBON_PARTNER, STELLENBOSCH_PARTNER } from './partner-fixture.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const BIZ = 'biz_boland_paws';
const OTHER = STELLENBOSCH_PARTNER.id;
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg

type Role = 'owner' | 'manager' | 'crew' | 'other' | 'nobody';
const ROLES: Role[] = ['owner', 'manager', 'crew', 'other', 'nobody'];
const CODE: Record<number, string> = { 400: 'BAD_REQUEST', 403: 'FORBIDDEN', 404: 'NOT_FOUND' };

/** What each role gets at Boland Paws (businessId given). */
const EXPECTED: Record<Role, { list_clients: number; get_client: number; add_client_note: number }> = {
  owner: { list_clients: 200, get_client: 200, add_client_note: 201 },
  manager: { list_clients: 200, get_client: 200, add_client_note: 201 },
  crew: { list_clients: 403, get_client: 403, add_client_note: 403 },
  other: { list_clients: 404, get_client: 404, add_client_note: 404 },
  nobody: { list_clients: 403, get_client: 403, add_client_note: 403 },
};

describe('the clients of a business', () => {
  let server: TestServer;
  const keys = {} as Record<Role | 'lisbon', string>;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const key = async (email: string) =>
    (await createApiKey(server.db.sql, { email, scopes: ['business:manage'] })).key;
  const get = (path: string, who: string, query: Record<string, string | number> = {}) => {
    const qs = new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    return server.get(`${path}${qs ? `?${qs}` : ''}`, as(who));
  };
  const mcp = async (tool: string, who: string, args: Record<string, unknown> = {}) => {
    const client = await server.mcpAs(who);
    const answer = (await client.callTool({ name: tool, arguments: args })) as { isError?: boolean };
    return { isError: answer.isError === true, body: toolJson(answer) };
  };
  /** Every client of a search, page by page. */
  const allPages = async (query: Record<string, string | number>) => {
    const out: Json[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const res = await get('/v1/business/clients', keys.owner, { ...query, ...(cursor ? { cursor } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      out.push(...res.body.clients);
      cursor = res.body.next ?? undefined;
      if (!cursor) break;
    }
    return out;
  };
  let operatorClientId: string;
  let otherClientId: string;

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    await insertPartner(server.db.sql, STELLENBOSCH_PARTNER);
    await insertPartner(server.db.sql, LISBON_PARTNER);
    keys.owner = await key('owner@partner.example');
    keys.manager = await key('manager@partner.example');
    keys.crew = await key('crew@partner.example');
    keys.other = await key('other-owner@example.com');
    keys.nobody = await key('nobody@example.com');
    keys.lisbon = await key('lisbon-owner@example.com');
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${OTHER}, id, 'owner', now() from users where email = 'other-owner@example.com'`;
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${LISBON_PARTNER.id}, id, 'owner', now() from users where email = 'lisbon-owner@example.com'`;
    // The other business's client, with a booking and a note of its own, named like a Boland Paws client.
    const other = await insertClient(
      server.db.sql,
      { businessId: OTHER, name: 'Anele Other', phone: '+27 82 555 0101', email: 'anele.other@example.com' },
      clock.now(),
    );
    otherClientId = other.id;
    await insertClientNote(
      server.db.sql,
      {
        businessId: OTHER,
        clientId: other.id,
        petId: null,
        text: 'OTHER BUSINESS SECRET',
        authorUserId: null,
        authorName: 'Other owner',
      },
      clock.now(),
    );
    await server.db.sql`
      insert into bookings (id, business_id, resource_id, line_id, status, payment_method, payment_status, starts_at, ends_at,
        total_cents, client_name, business_client_id, details)
      values ('bkg_other_client', ${OTHER}, ${STELLENBOSCH_PARTNER.vanId}, 'grooming', 'ACCEPTED', 'CASH', 'CASH_DUE',
        '2026-03-12T08:00:00Z', '2026-03-12T09:00:00Z', 33000, 'test', ${other.id},
        ${server.db.sql.json({ pets: [{ name: 'Bongo', serviceIds: [] }] } as never)})`;
    // A pet owner who booked only the operator (through the booking tools): a client of the operator, not of Boland Paws.
    const owner = await newPetOwner(server, {
      email: 'operator-only@example.com',
      pet: { name: 'Pixelwoof', weightKg: 12 },
      line1: '1 Operator Lane',
    });
    await bookFirstCardSlot(server, owner, '2026-03-13');
    const [c] = await server.db.sql<{ id: string; businessId: string }[]>`
      select c.id, c.business_id as "businessId" from business_clients c join users u on u.id = c.user_id
      where u.email = 'operator-only@example.com'`;
    expect(c!.businessId).toBe('nogpets');
    operatorClientId = c!.id;
    // A client in Lisbon with cash due: the rest works there, in euro.
    const lisbonClient = await insertClient(
      server.db.sql,
      { businessId: LISBON_PARTNER.id, name: 'Inês Costa', phone: '+351 91 555 0100', email: null },
      clock.now(),
    );
    await server.db.sql`
      insert into bookings (id, business_id, resource_id, line_id, status, payment_method, payment_status, starts_at, ends_at,
        total_cents, client_name, business_client_id)
      values ('bkg_lisbon_cash', ${LISBON_PARTNER.id}, ${LISBON_PARTNER.vanId}, 'grooming', 'ACCEPTED', 'CASH', 'CASH_DUE',
        '2026-03-12T10:00:00Z', '2026-03-12T11:00:00Z', 3500, 'test', ${lisbonClient.id})`;
  }, 90_000);
  afterAll(() => server?.stop());

  it('finds clients by name, phone (any spacing, 0 or +27), email and pet name; % is taken literally', async () => {
    const names = async (q: string) =>
      (await get('/v1/business/clients', keys.owner, { q })).body.clients.map((c: Json) => c.name);
    expect(await names('anele')).toEqual(['Anele Dlamini']);
    expect(await names('DLAMINI')).toEqual(['Anele Dlamini']);
    expect(await names('082 555 0101')).toEqual(['Anele Dlamini']);
    expect(await names('+27825550101')).toEqual(['Anele Dlamini']);
    expect(await names('83-555-0102')).toEqual(['Pieter van Wyk']);
    expect(await names('fatima.isaacs@')).toEqual(['Fatima Isaacs']);
    expect(await names('Bongo')).toEqual(['Anele Dlamini']);
    expect(await names('bella')).toEqual(['Johan Steyn']);
    expect(await names('luna')).toEqual(['Lerato Nkosi']);
    expect(await names('%')).toEqual([]);
    expect(await names('Pixelwoof')).toEqual([]);
    expect(await names('operator-only')).toEqual([]);
    const found = await get('/v1/business/clients', keys.owner, { q: 'Bongo' });
    expect(found.body.businessId).toBe(BIZ);
    expect(found.body.clients[0]).toMatchObject({
      clientId: 'cli_bp_anele',
      phone: '+27 82 555 0101',
      email: 'anele.dlamini@clients.example',
      pets: ['Bongo'],
    });
    expect(JSON.stringify(found.body)).not.toMatch(/Anele Other|OTHER BUSINESS/);
    const overMcp = await mcp('list_clients', keys.owner, { q: 'bongo' });
    expect(overMcp.isError).toBe(false);
    expect(overMcp.body.clients.map((c: Json) => c.clientId)).toEqual(['cli_bp_anele']);
  });

  it('pages through every client by name with the cursor, each once; last and next bookings and balance agree with the database', async () => {
    const all = await allPages({ limit: 2 });
    const db = await server.db.sql<{ id: string; name: string }[]>`
      select id, name from business_clients where business_id = ${BIZ} order by lower(name), id`;
    expect(all.map((c) => c.clientId)).toEqual(db.map((c) => c.id));
    expect(db.length).toBeGreaterThanOrEqual(5);
    const onePage = await get('/v1/business/clients', keys.owner, { limit: 50 });
    expect(onePage.body.next).toBeNull();
    expect(onePage.body.clients.map((c: Json) => c.clientId)).toEqual(db.map((c) => c.id));
    const now = clock.now();
    for (const c of all) {
      const [money] = await server.db.sql<{ owed: number }[]>`
        select coalesce(sum(total_cents), 0)::int as owed from bookings
        where business_id = ${BIZ} and business_client_id = ${c.clientId} and status in ('PENDING', 'ACCEPTED', 'DONE')
          and (payment_status = 'CASH_DUE' or (payment_method = 'CARD' and payment_status = 'PENDING'))`;
      expect(c.owedCents, c.name).toBe(money!.owed);
      if (money!.owed === 0) expect(c.balance).toBe('Nothing unpaid.');
      else expect(c.balance).toMatch(/^R[\d ,.]+ unpaid: /);
      const [last] = await server.db.sql<{ id: string }[]>`
        select id from bookings where business_id = ${BIZ} and business_client_id = ${c.clientId}
          and starts_at < ${now} and status in ('PENDING', 'ACCEPTED', 'DONE') order by starts_at desc, id desc limit 1`;
      const [next] = await server.db.sql<{ id: string }[]>`
        select id from bookings where business_id = ${BIZ} and business_client_id = ${c.clientId}
          and starts_at >= ${now} and status in ('PENDING', 'ACCEPTED') order by starts_at, id limit 1`;
      expect(c.lastBooking?.bookingId ?? null).toBe(last?.id ?? null);
      expect(c.nextBooking?.bookingId ?? null).toBe(next?.id ?? null);
    }
    expect(all.some((c) => c.owedCents > 0)).toBe(true);
    // A cursor that no list gave is a 400, not a 500.
    const bad = await get('/v1/business/clients', keys.owner, { cursor: 'bm9wZQ' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields[0].field).toBe('cursor');
  });

  it("get_client: pets, addresses, history, balance and notes as the database holds them, and only this business's", async () => {
    const [owing] = await server.db.sql<{ id: string; owed: number }[]>`
      select business_client_id as id, sum(total_cents)::int as owed from bookings
      where business_id = ${BIZ} and status in ('PENDING', 'ACCEPTED', 'DONE')
        and (payment_status = 'CASH_DUE' or (payment_method = 'CARD' and payment_status = 'PENDING'))
      group by business_client_id order by owed desc limit 1`;
    for (const clientId of ['cli_bp_anele', 'cli_bp_pieter', owing!.id]) {
      const res = await get(`/v1/business/clients/${clientId}`, keys.owner);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const c = res.body;
      expect(c.clientId).toBe(clientId);
      expect(c.hasAccount).toBe(true);
      // Pets: the saved pets named in this business's bookings of the client.
      const pets = await server.db.sql<{ id: string; name: string; notes: string | null; weight: number }[]>`
        select distinct s.id, s.name, s.notes, s.weight_kg::float8 as weight
        from bookings b cross join lateral jsonb_array_elements(b.details->'pets') p join pets s on s.id = p->>'petId'
        where b.business_id = ${BIZ} and b.business_client_id = ${clientId} order by s.id`;
      expect(c.pets.map((p: Json) => p.petId).sort()).toEqual(pets.map((p) => p.id));
      for (const p of pets) {
        const shown = c.pets.find((x: Json) => x.petId === p.id);
        expect(shown).toMatchObject({ name: p.name, notes: p.notes, weightKg: p.weight });
      }
      // History: the newest 20 bookings, newest first; the total.
      const history = await server.db.sql<{ id: string }[]>`
        select id from bookings where business_id = ${BIZ} and business_client_id = ${clientId}
        order by starts_at desc, id desc limit 20`;
      const [{ total }] = (await server.db.sql`
        select count(*)::int as total from bookings where business_id = ${BIZ} and business_client_id = ${clientId}`) as unknown as [
        { total: number },
      ];
      expect(c.history.map((b: Json) => b.bookingId)).toEqual(history.map((h) => h.id));
      expect(c.historyTotal).toBe(total);
      for (const b of c.history) expect(b.client.clientId).toBe(clientId);
      // Balance.
      const [money] = await server.db.sql<{ cash: number; card: number }[]>`
        select coalesce(sum(total_cents) filter (where payment_status = 'CASH_DUE'), 0)::int as cash,
          coalesce(sum(total_cents) filter (where payment_method = 'CARD' and payment_status = 'PENDING'), 0)::int as card
        from bookings where business_id = ${BIZ} and business_client_id = ${clientId} and status in ('PENDING', 'ACCEPTED', 'DONE')`;
      expect(c.balance).toMatchObject({
        currency: 'ZAR',
        cashDueCents: money!.cash,
        unpaidCardCents: money!.card,
        owedCents: money!.cash + money!.card,
      });
      // Notes: every note of this business on the client, newest first.
      const notes = await server.db.sql<{ id: string; text: string }[]>`
        select id, text from client_notes where business_id = ${BIZ} and client_id = ${clientId} order by created_at desc, id`;
      expect(c.notes.map((n: Json) => n.noteId)).toEqual(notes.map((n) => n.id));
      expect(JSON.stringify(c)).not.toMatch(/OTHER BUSINESS|bkg_other_client|Anele Other/);
    }
    expect((await get(`/v1/business/clients/${owing!.id}`, keys.owner)).body.balance.owedCents).toBe(
      owing!.owed,
    );
    const anele = (await get('/v1/business/clients/cli_bp_anele', keys.owner)).body;
    expect(anele).toMatchObject({ name: 'Anele Dlamini', phone: '+27 82 555 0101' });
    expect(anele.addresses).toEqual([
      expect.objectContaining({
        addressId: 'adr_bp_anele',
        address: '14 Rustenburg Road, Die Boord, 7600, Stellenbosch',
        accessNotes: 'Gate code 4721. Park on the street, not in the driveway.',
      }),
    ]);
    expect(anele.pets[0]).toMatchObject({ petId: 'pet_bp_bongo', type: 'DOG', coat: 'LONG', weightKg: 28 });
    expect(anele.notes).toContainEqual(
      expect.objectContaining({
        petId: 'pet_bp_bongo',
        petName: 'Bongo',
        text: 'Muzzle is in the blue bag by the gate; use it for nails only.',
        author: 'Marelize Botha',
      }),
    );
    const overMcp = await mcp('get_client', keys.manager, { clientId: 'cli_bp_anele' });
    expect(overMcp.isError).toBe(false);
    expect(overMcp.body.history.map((b: Json) => b.bookingId)).toEqual(
      anele.history.map((b: Json) => b.bookingId),
    );
  });

  it('add_client_note keeps a note on a client or a pet, shown first by get_client, audited with the assistant', async () => {
    clock.advance(60_000);
    const res = await server.post(
      '/v1/business/clients/cli_bp_anele/notes',
      { text: '  New gate code: 5813.  ', kind: 'ACCESS' },
      { ...as(keys.owner), 'x-client-name': 'Test assistant' },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.note).toMatchObject({
      kind: 'ACCESS',
      text: 'New gate code: 5813.',
      petId: null,
      author: expect.any(String),
    });
    expect(res.body.notes[0].noteId).toBe(res.body.note.noteId);
    clock.advance(60_000);
    const onPet = await mcp('add_client_note', keys.manager, {
      clientId: 'cli_bp_anele',
      petId: 'pet_bp_bongo',
      kind: 'TEMPERAMENT',
      text: 'Calmer with the radio on.',
    });
    expect(onPet.isError, JSON.stringify(onPet.body)).toBe(false);
    expect(onPet.body.note).toMatchObject({ petId: 'pet_bp_bongo', petName: 'Bongo', kind: 'TEMPERAMENT' });
    const client = (await get('/v1/business/clients/cli_bp_anele', keys.owner)).body;
    expect(client.notes.slice(0, 2).map((n: Json) => n.text)).toEqual([
      'Calmer with the radio on.',
      'New gate code: 5813.',
    ]);
    expect(client.notes[0].author).toBe('Kabelo Mokoena');
    const [row] = await server.db.sql<{ kind: string; author: string }[]>`
      select kind, author_name as author from client_notes where id = ${onPet.body.note.noteId}`;
    expect(row).toEqual({ kind: 'TEMPERAMENT', author: 'Kabelo Mokoena' });
    const audit = async (noteId: string) =>
      server.db.sql<{ clientName: string | null; details: Json }[]>`
        select client_name as "clientName", details from audit_log where action = 'client.note.add' and target = ${noteId}`;
    const first = await audit(res.body.note.noteId);
    expect(first).toHaveLength(1);
    expect(first[0]!.clientName).toBe('Test assistant');
    expect(first[0]!.details).toMatchObject({
      businessId: BIZ,
      clientId: 'cli_bp_anele',
      petId: null,
      kind: 'ACCESS',
    });
    const second = await audit(onPet.body.note.noteId);
    expect(second).toHaveLength(1);
    expect(second[0]!.details).toMatchObject({
      businessId: BIZ,
      clientId: 'cli_bp_anele',
      petId: 'pet_bp_bongo',
    });
    // A pet that is not this client's (another client's, or the operator's client's) is a 404, and nothing is kept.
    const before = await server.db.sql`select count(*)::int as n from client_notes`;
    for (const petId of ['pet_bp_rex', 'pet_nope']) {
      const wrong = await server.post(
        '/v1/business/clients/cli_bp_anele/notes',
        { text: 'x', petId },
        as(keys.owner),
      );
      expect(wrong.status).toBe(404);
      expect(wrong.body.error.code).toBe('NOT_FOUND');
    }
    expect(await server.db.sql`select count(*)::int as n from client_notes`).toEqual(before);
  });

  it('refuses text of 0 or over 1000 characters, q over 100, NUL and unknown fields with 400, keeping nothing', async () => {
    const before = await server.db.sql`select count(*)::int as n from client_notes`;
    const post = (body: Json) => server.post('/v1/business/clients/cli_bp_anele/notes', body, as(keys.owner));
    for (const body of [
      { text: '' },
      { text: '   ' },
      { text: 'x'.repeat(1001) },
      { text: 'a\u0000b' },
      { text: 'ok', kind: 'GOSSIP' },
      { text: 'ok', confirm: true },
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    }
    expect((await post({ text: 'x'.repeat(1000) })).status).toBe(201);
    const after = await server.db.sql<{ n: number }[]>`select count(*)::int as n from client_notes`;
    expect(after[0]!.n).toBe((before[0] as { n: number }).n + 1);
    for (const q of ['x'.repeat(101), 'a\u0000b']) {
      const res = await get('/v1/business/clients', keys.owner, { q });
      expect(res.status).toBe(400);
    }
    expect((await get('/v1/business/clients', keys.owner, { q: 'x'.repeat(100) })).status).toBe(200);
    for (const limit of [0, 51])
      expect((await get('/v1/business/clients', keys.owner, { limit })).status).toBe(400);
    const overMcp = await mcp('add_client_note', keys.owner, {
      clientId: 'cli_bp_anele',
      text: 'x'.repeat(1001),
    });
    expect(overMcp.isError).toBe(true);
    expect(overMcp.body.error.code).toBe('BAD_REQUEST');
  });

  it("answers another business's client, the operator's client and a missing one with the same 404 words", async () => {
    const words = async (clientId: string) => {
      const res = await get(`/v1/business/clients/${clientId}`, keys.owner);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      expect(JSON.stringify(res.body)).not.toMatch(/Anele Other|OTHER BUSINESS|Pixelwoof|operator-only/);
      return res.body.error.message.replace(clientId, 'X');
    };
    const missing = await words('cli_nope');
    expect(missing).toBe('No client X at Boland Paws.');
    expect(await words(otherClientId)).toBe(missing);
    expect(await words(operatorClientId)).toBe(missing);
    const note = await server.post(
      `/v1/business/clients/${otherClientId}/notes`,
      { text: 'x' },
      as(keys.owner),
    );
    expect(note.status).toBe(404);
    expect(note.body.error.message.replace(otherClientId, 'X')).toBe(missing);
    const overMcp = await mcp('get_client', keys.owner, { clientId: operatorClientId });
    expect(overMcp.body.error.message.replace(operatorClientId, 'X')).toBe(missing);
    // The other business sees its own client, and none of Boland Paws's.
    const theirs = await get('/v1/business/clients', keys.other);
    expect(theirs.body.clients.map((c: Json) => c.clientId)).toEqual([otherClientId]);
    expect((await get('/v1/business/clients/cli_bp_anele', keys.other)).status).toBe(404);
    const theirClient = (await get(`/v1/business/clients/${otherClientId}`, keys.other)).body;
    expect(theirClient.notes.map((n: Json) => n.text)).toEqual(['OTHER BUSINESS SECRET']);
    expect(theirClient.pets).toEqual([expect.objectContaining({ petId: null, name: 'Bongo' })]);
    expect(JSON.stringify(theirClient)).not.toMatch(/pet_bp_bongo|Muzzle|demo-bp/);
  });

  it('works in Lisbon in euro (no booking tool is involved)', async () => {
    const res = await get('/v1/business/clients', keys.lisbon, { q: '91 555' });
    expect(res.status).toBe(200);
    expect(res.body.clients).toHaveLength(1);
    expect(res.body.clients[0]).toMatchObject({ name: 'Inês Costa', owedCents: 3500 });
    expect(res.body.clients[0].balance).toContain('€');
    const one = await get(`/v1/business/clients/${res.body.clients[0].clientId}`, keys.lisbon);
    expect(one.body.balance).toMatchObject({ currency: 'EUR', cashDueCents: 3500 });
    expect(one.body.history[0].when).toMatch(/10:00 to 11:00/); // Lisbon keeps UTC in March
  });

  for (const role of ROLES) {
    it(`roles: ${role} at Boland Paws over HTTP and MCP, never another business's data`, async () => {
      const exp = EXPECTED[role];
      const calls = [
        {
          tool: 'list_clients',
          status: exp.list_clients,
          http: () => get('/v1/business/clients', keys[role], { businessId: BIZ }),
          args: { businessId: BIZ },
        },
        {
          tool: 'get_client',
          status: exp.get_client,
          http: () => get('/v1/business/clients/cli_bp_pieter', keys[role], { businessId: BIZ }),
          args: { businessId: BIZ, clientId: 'cli_bp_pieter' },
        },
        {
          tool: 'add_client_note',
          status: exp.add_client_note,
          http: () =>
            server.post(
              '/v1/business/clients/cli_bp_pieter/notes',
              { businessId: BIZ, text: `Note by ${role}` },
              as(keys[role]),
            ),
          args: { businessId: BIZ, clientId: 'cli_bp_pieter', text: `Note by ${role} over MCP` },
        },
      ];
      for (const call of calls) {
        const before = await server.db.sql<{ n: number }[]>`select count(*)::int as n from client_notes`;
        const res = await call.http();
        expect(res.status, `${call.tool} ${JSON.stringify(res.body)}`).toBe(call.status);
        const overMcp = await mcp(call.tool, keys[role], call.args);
        const after = await server.db.sql<{ n: number }[]>`select count(*)::int as n from client_notes`;
        if (call.status < 300) {
          expect(overMcp.isError, JSON.stringify(overMcp.body)).toBe(false);
          expect(res.body.businessId).toBe(BIZ);
          expect(overMcp.body.businessId).toBe(BIZ);
          expect(JSON.stringify(res.body)).not.toMatch(
            /Anele Other|OTHER BUSINESS|bkg_other_client|Pixelwoof/,
          );
          expect(after[0]!.n).toBe(before[0]!.n + (call.tool === 'add_client_note' ? 2 : 0));
        } else {
          expect(res.body.error.code).toBe(CODE[call.status]);
          expect(overMcp.isError).toBe(true);
          expect(overMcp.body.error.code).toBe(CODE[call.status]);
          expect(overMcp.body.error.message).toBe(res.body.error.message);
          expect(JSON.stringify(res.body)).not.toMatch(/Pieter|Daisy|Anele|demo-bp/);
          expect(after[0]!.n).toBe(before[0]!.n);
        }
      }
    });
  }
});
