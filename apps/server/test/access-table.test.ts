// The access table, generated from the registry. Every operation × every scope (a key
// holding that one scope) and no credential, over HTTP and MCP: exactly the cells the table below
// allows answer 2xx; every other cell is 401 (no credential) or 403 (wrong scope) in the error
// shape, and changes nothing in the database (every table's rows, the audit log included). Then
// another person's ids: a person calling with someone else's booking, pet, address, order or
// application gets the answer an id that never existed gets (404; the shop's own answers for a
// booking it cannot ride with), and nothing changes.
//
// The scopes are pinned here, not read from the registry, so a loosened scope fails the test. An
// operation added to the registry without a row here fails it too.
//
// Run roles (owner, manager, crew, another business, no business) are run-roles.test.ts's table:
// every Run operation × those five roles over HTTP and MCP, plus another business's owner reaching
// for Boland Paws' bookings and clients from inside their own business. Not repeated here; Run
// operations are called here as Boland Paws' owner holding one scope at a time.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type Operation, operations, SCOPE_NAMES, type Scope, STATUS_OF } from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { appendEvents } from '@nogpets/store';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShapeProblem, preview } from './fuzz/checks.js';
import { bookFirstCardSlot, newPetOwner, startTestServer, type TestServer, toolJson } from './harness.js';
import { insertPartner, STELLENBOSCH_PARTNER } from './partner-fixture.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const BIZ = 'biz_boland_paws';
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg

/** The ids the calls below use: person A's own things and Boland Paws' (A is not its owner). */
interface Ids {
  petId: string;
  addressId: string;
  /** A's card booking, unpaid: read, moved and paid. */
  bookingId: string;
  /** Another of A's bookings, to cancel. */
  cancelId: string;
  /** An open time for A's grooming (book), and another (reschedule). */
  slot: { start: string; resourceId: string };
  moveTo: { start: string; resourceId: string };
  orderId: string;
  applicationId: string;
  run: {
    pending: string[];
    accepted: string[];
    unpaid: string;
    clientId: string;
    crewUserId: string;
    rebookTo: { start: string; resourceId: string };
    moveTo: { start: string; resourceId: string };
  };
}

type Credential = Scope | 'none';
const CREDENTIALS: Credential[] = ['none', ...SCOPE_NAMES];

interface Row {
  /** The scope the operation needs, pinned: the registry must say the same. */
  scope: Scope | 'public';
  /** A call that succeeds for the allowed credential (run in registry order, once per allowed cell). */
  call: (ids: Ids) => Record<string, unknown>;
}

const groomingFor = (ids: Pick<Ids, 'petId' | 'addressId'>) => ({
  category: 'grooming',
  addressId: ids.addressId,
  pets: [{ petId: ids.petId, serviceIds: ['groom-dog-bath'] }],
});
const byValue = {
  category: 'grooming',
  address: 'Die Boord',
  pets: [{ name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['groom-dog-bath'] }],
};
const runPet = { name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['bp-groom-bath'] };

const TABLE: Record<string, Row> = {
  list_services: { scope: 'public', call: () => ({}) },
  check_coverage: { scope: 'public', call: () => ({ address: 'Die Boord' }) },
  get_quote: { scope: 'public', call: () => byValue },
  find_times: { scope: 'public', call: () => ({ ...byValue, from: '2026-03-16', to: '2026-03-17' }) },
  list_bookings: { scope: 'bookings:read', call: () => ({}) },
  book: {
    scope: 'bookings:write',
    call: (ids) => ({ ...groomingFor(ids), ...ids.slot, paymentMethod: 'CARD' }),
  },
  get_booking: { scope: 'bookings:read', call: (ids) => ({ bookingId: ids.bookingId }) },
  find_reschedule_times: { scope: 'bookings:read', call: (ids) => ({ bookingId: ids.bookingId }) },
  reschedule_booking: {
    scope: 'bookings:write',
    call: (ids) => ({ bookingId: ids.bookingId, ...ids.moveTo }),
  },
  cancel_booking: { scope: 'bookings:write', call: (ids) => ({ bookingId: ids.cancelId, confirm: true }) },
  pay_booking: { scope: 'bookings:write', call: (ids) => ({ bookingId: ids.bookingId }) },
  my_profile: { scope: 'profile', call: () => ({}) },
  list_pets: { scope: 'pets', call: () => ({}) },
  add_pet: { scope: 'pets', call: () => ({ name: 'Table', type: 'CAT', weightKg: 4, coat: 'SHORT' }) },
  list_addresses: { scope: 'addresses', call: () => ({}) },
  add_address: {
    scope: 'addresses',
    call: () => ({ label: 'Work', line1: '1 Plein Street', suburb: 'Die Boord' }),
  },
  browse_shop: { scope: 'public', call: () => ({}) },
  quote_order: {
    scope: 'public',
    call: () => ({
      items: [{ productId: 'dental-treats', qty: 1 }],
      shippingMethod: 'courier',
      province: 'WC',
    }),
  },
  buy: {
    scope: 'orders:write',
    call: () => ({
      items: [{ productId: 'dental-treats', qty: 1 }],
      shippingMethod: 'courier',
      shipTo: { line1: '12 Dorp Street', city: 'Stellenbosch', postalCode: '7600' },
    }),
  },
  list_orders: { scope: 'orders:write', call: () => ({}) },
  get_order: { scope: 'orders:write', call: (ids) => ({ orderId: ids.orderId }) },
  pay_order: { scope: 'orders:write', call: (ids) => ({ orderId: ids.orderId }) },
  find_pet_businesses: { scope: 'public', call: () => ({ town: 'stellenbosch' }) },
  prepare_business_signup: {
    scope: 'public',
    call: () => ({ businessName: 'Table Test Grooming', town: 'Stellenbosch', consent: true }),
  },
  get_signup_status: { scope: 'business:write', call: (ids) => ({ applicationId: ids.applicationId }) },
  start_business_signup: {
    scope: 'business:write',
    call: (ids) => ({ applicationId: ids.applicationId, tradingName: 'Table Grooming' }),
  },
  add_business_services: {
    scope: 'business:write',
    call: (ids) => ({ applicationId: ids.applicationId, useTemplate: true, priceAdjustPct: 0 }),
  },
  set_service_area: {
    scope: 'business:write',
    call: (ids) => ({ applicationId: ids.applicationId, radiusKm: 5, centerAddress: 'Stellenbosch' }),
  },
  add_resources: {
    scope: 'business:write',
    call: (ids) => ({ applicationId: ids.applicationId, resources: [{ kind: 'VAN', name: 'Van 1' }] }),
  },
  set_operating_hours: {
    scope: 'business:write',
    call: (ids) => ({ applicationId: ids.applicationId, week: { mon: [{ start: '08:00', end: '17:00' }] } }),
  },
  invite_staff: {
    scope: 'business:write',
    call: (ids) => ({
      applicationId: ids.applicationId,
      people: [{ email: 'table-crew@example.com', role: 'crew' }],
    }),
  },
  connect_gateway: {
    scope: 'business:write',
    call: (ids) => ({ applicationId: ids.applicationId, merchantId: '10000100' }),
  },
  submit_business_for_review: {
    scope: 'business:write',
    call: (ids) => ({ applicationId: ids.applicationId, confirm: true }),
  },
  get_day_plan: { scope: 'business:manage', call: () => ({ date: '2026-03-11' }) },
  list_business_bookings: { scope: 'business:manage', call: () => ({}) },
  accept_booking: {
    scope: 'business:manage',
    call: (ids) => ({ bookingId: ids.run.pending[0], confirm: true }),
  },
  decline_booking: {
    scope: 'business:manage',
    call: (ids) => ({ bookingId: ids.run.pending[1], reason: 'The van is in for repairs.', confirm: true }),
  },
  find_business_times: { scope: 'business:manage', call: () => ({ pets: [runPet] }) },
  book_for_client: {
    scope: 'business:manage',
    call: () => ({
      client: { name: 'Walk-in Wendy', phone: '082 555 0100' },
      pets: [runPet],
      start: '2026-03-16T07:00:00Z',
      resourceId: 'bp-van-1',
      address: { line1: '3 Rustenburg Road', suburb: 'Die Boord' },
      paymentMethod: 'CASH',
      confirm: true,
    }),
  },
  rebook_booking: {
    scope: 'business:manage',
    call: (ids) => ({ bookingId: ids.run.accepted[0], ...ids.run.rebookTo, confirm: true }),
  },
  move_booking: {
    scope: 'business:manage',
    call: (ids) => ({ bookingId: ids.run.accepted[1], ...ids.run.moveTo, confirm: true }),
  },
  cancel_business_booking: {
    scope: 'business:manage',
    call: (ids) => ({ bookingId: ids.run.accepted[2], reason: 'The van is in for repairs.', confirm: true }),
  },
  list_clients: { scope: 'business:manage', call: () => ({}) },
  get_client: { scope: 'business:manage', call: (ids) => ({ clientId: ids.run.clientId }) },
  add_client_note: {
    scope: 'business:manage',
    call: (ids) => ({ clientId: ids.run.clientId, text: 'Nervous of clippers.' }),
  },
  send_payment_link: {
    scope: 'business:manage',
    call: (ids) => ({ bookingId: ids.run.unpaid, confirm: true }),
  },
  create_invoice_link: {
    scope: 'business:manage',
    call: () => ({ amountCents: 25000, description: 'Flea treatment', confirm: true }),
  },
  list_prices: { scope: 'business:manage', call: () => ({}) },
  update_prices: {
    scope: 'business:manage',
    call: () => ({ changes: [{ serviceId: 'bp-groom-bath', priceCents: 33000 }], confirm: true }),
  },
  set_working_hours: {
    scope: 'business:manage',
    call: () => ({
      resourceIds: ['bp-walker'],
      week: { sat: [{ start: '08:00', end: '12:00' }] },
      confirm: true,
    }),
  },
  add_time_off: {
    scope: 'business:manage',
    call: () => ({ resourceId: 'bp-van-1', start: '2026-04-01', end: '2026-04-02', confirm: true }),
  },
  list_time_off: { scope: 'business:manage', call: () => ({}) },
  remove_time_off: { scope: 'business:manage', call: () => ({ timeOffId: 'tof_table', confirm: true }) },
  propose_service_area: {
    scope: 'business:manage',
    call: () => ({ suburbs: [{ name: 'Kayamandi', postalCode: '7600' }], confirm: true }),
  },
  list_staff: { scope: 'business:manage', call: () => ({}) },
  invite_staff_member: {
    scope: 'business:manage',
    call: () => ({ email: 'table-invite@example.com', role: 'crew', confirm: true }),
  },
  change_staff_role: {
    scope: 'business:manage',
    call: (ids) => ({ staffId: ids.run.crewUserId, role: 'manager', confirm: true }),
  },
  remove_staff_member: {
    scope: 'business:manage',
    call: (ids) => ({ staffId: ids.run.crewUserId, confirm: true }),
  },
  // Boland Paws' owner (verified) is invited to another business's staff twice: one to accept, then
  // leave again (so the calls after it still name one business), one to decline.
  list_my_invitations: { scope: 'business:manage', call: () => ({}) },
  accept_invitation: {
    scope: 'business:manage',
    call: () => ({ invitationId: 'binv_table_accept', confirm: true }),
  },
  decline_invitation: { scope: 'business:manage', call: () => ({ invitationId: 'binv_table_decline' }) },
  leave_business: {
    scope: 'business:manage',
    call: () => ({ businessId: STELLENBOSCH_PARTNER.id, confirm: true }),
  },
  get_earnings: { scope: 'business:manage', call: () => ({ from: '2026-03-01', to: '2026-03-11' }) },
  list_payouts: { scope: 'business:manage', call: () => ({}) },
  list_unpaid_clients: { scope: 'business:manage', call: () => ({}) },
  get_calendar_feed: { scope: 'bookings:read', call: () => ({}) },
  rotate_calendar_feed: { scope: 'bookings:read', call: () => ({}) },
  get_business_calendar_feed: { scope: 'business:manage', call: () => ({ scope: 'business' }) },
  rotate_business_calendar_feed: { scope: 'business:manage', call: () => ({ scope: 'business' }) },
  // Webhooks: a public address (no DNS asked); the endpoints and deliveries are made in beforeAll.
  create_webhook_endpoint: {
    scope: 'business:manage',
    call: () => ({ url: 'https://93.184.216.34/table', eventTypes: ['*'] }),
  },
  list_webhook_endpoints: { scope: 'business:manage', call: () => ({}) },
  delete_webhook_endpoint: { scope: 'business:manage', call: () => ({ endpointId: 'whe_table_biz_gone' }) },
  list_webhook_deliveries: { scope: 'business:manage', call: () => ({ endpointId: 'whe_table_biz' }) },
  redeliver_webhook: { scope: 'business:manage', call: () => ({ deliveryId: 'whd_table_biz' }) },
  create_my_webhook_endpoint: {
    scope: 'bookings:read',
    call: () => ({ url: 'https://93.184.216.34/table-a', eventTypes: ['booking.created'] }),
  },
  list_my_webhook_endpoints: { scope: 'bookings:read', call: () => ({}) },
  delete_my_webhook_endpoint: { scope: 'bookings:read', call: () => ({ endpointId: 'whe_table_a_gone' }) },
  list_my_webhook_deliveries: { scope: 'bookings:read', call: () => ({ endpointId: 'whe_table_a' }) },
  redeliver_my_webhook: { scope: 'bookings:read', call: () => ({ deliveryId: 'whd_table_a' }) },
  get_notification_settings: { scope: 'business:manage', call: () => ({}) },
  update_notification_settings: {
    scope: 'business:manage',
    call: () => ({ settings: { business_booking_moved: true } }),
  },
};

/** Input fields that name one person's own thing. */
const PERSON_ID_FIELDS = ['bookingId', 'petId', 'addressId', 'orderId', 'applicationId'];

/**
 * Person B's calls with person A's ids, for every operation outside Run that takes one (Run's
 * bookings and clients are a business's, covered by run-roles.test.ts). Each answers as for an id that never existed: 404, but
 * for the shop's two noted below.
 */
const OTHERS: Record<string, (ids: Ids) => Record<string, unknown>> = {
  get_quote: (ids) => groomingFor(ids),
  find_times: (ids) => ({ ...groomingFor(ids), from: '2026-03-16', to: '2026-03-17' }),
  book: (ids) => ({ ...groomingFor(ids), ...ids.slot, paymentMethod: 'CARD' }),
  get_booking: (ids) => ({ bookingId: ids.bookingId }),
  find_reschedule_times: (ids) => ({ bookingId: ids.bookingId }),
  reschedule_booking: (ids) => ({ bookingId: ids.bookingId, ...ids.slot }),
  cancel_booking: (ids) => ({ bookingId: ids.bookingId, confirm: true }),
  pay_booking: (ids) => ({ bookingId: ids.bookingId }),
  // The shop's answers to a booking that cannot take an order, the person's or not (documented):
  // a quote with BOOKING_NEEDED that cannot be bought, and buy's 409 CANNOT_DELIVER.
  quote_order: (ids) => ({
    items: [{ productId: 'dental-treats', qty: 1 }],
    shippingMethod: 'visit',
    bookingId: ids.bookingId,
  }),
  buy: (ids) => ({
    items: [{ productId: 'dental-treats', qty: 1 }],
    shippingMethod: 'visit',
    bookingId: ids.bookingId,
  }),
  get_order: (ids) => ({ orderId: ids.orderId }),
  pay_order: (ids) => ({ orderId: ids.orderId }),
  get_signup_status: (ids) => ({ applicationId: ids.applicationId }),
  start_business_signup: (ids) => ({ applicationId: ids.applicationId, tradingName: 'Not Mine' }),
  add_business_services: (ids) => ({ applicationId: ids.applicationId, useTemplate: true }),
  set_service_area: (ids) => ({ applicationId: ids.applicationId, postalCodes: ['7600'] }),
  add_resources: (ids) => ({ applicationId: ids.applicationId, resources: [{ kind: 'VAN', name: 'Van' }] }),
  set_operating_hours: (ids) => ({
    applicationId: ids.applicationId,
    week: { mon: [{ start: '08:00', end: '12:00' }] },
  }),
  invite_staff: (ids) => ({
    applicationId: ids.applicationId,
    people: [{ email: 'x@example.com', role: 'crew' }],
  }),
  connect_gateway: (ids) => ({ applicationId: ids.applicationId, merchantId: '10000100' }),
  submit_business_for_review: (ids) => ({ applicationId: ids.applicationId, confirm: true }),
};

/** Tables a refused call may still write: the request counter, and a credential's last use. */
const NOT_STATE = new Set(['rate_limits', 'credentials']);

describe('access table: every operation × every scope, and another person’s ids', () => {
  let server: TestServer;
  let ids: Ids;
  let state: () => Promise<Record<string, string>>;
  /** keys[person][scope]: person A (the pet owner) and Boland Paws' owner, one scope per key. */
  const keys = { a: {} as Record<Scope, string>, owner: {} as Record<Scope, string> };
  const clients = new Map<string, Client>();
  /** What was checked, printed at the end for docs/security.md. */
  const tally = { cells: 0, allowed: 0, refused401: 0, refused403: 0, mcpCalls: 0, others: 0 };

  const keyOf = (op: Operation, credential: Credential) =>
    credential === 'none' ? undefined : (op.tag === 'Run' ? keys.owner : keys.a)[credential];

  /** The operation called over HTTP as its definition says: path parameters, query or body. */
  function http(op: Operation, key: string | undefined, args: Record<string, unknown>) {
    let path = op.path;
    const rest: Record<string, unknown> = { ...args };
    for (const [, name] of op.path.matchAll(/:(\w+)/g)) {
      path = path.replace(`:${name}`, encodeURIComponent(String(rest[name!])));
      delete rest[name!];
    }
    const auth: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
    if (op.method === 'GET') {
      const qs = new URLSearchParams(rest as Record<string, string>).toString();
      return server.get(`${path}${qs ? `?${qs}` : ''}`, auth);
    }
    return server.post(path, rest, auth);
  }

  /**
   * The tool called over MCP. A tool needing a scope is refused at the HTTP level (401/403 with the
   * error body); otherwise a success gets the operation's status and a refusal its error code's.
   */
  async function mcp(op: Operation, key: string | undefined, args: Record<string, unknown>) {
    let client = clients.get(key ?? '');
    if (!client) {
      client = key ? await server.mcpAs(key) : await server.mcp();
      clients.set(key ?? '', client);
    }
    try {
      const answer = (await client.callTool({ name: op.toolName, arguments: args })) as { isError?: boolean };
      const body = toolJson(answer);
      const code = body?.error?.code as keyof typeof STATUS_OF | undefined;
      return { status: answer.isError ? (code ? STATUS_OF[code] : 500) : op.successStatus, body };
    } catch (err) {
      const { code, message } = err as { code?: unknown; message: string };
      const json = /\{.*\}$/s.exec(message)?.[0];
      if (typeof code !== 'number' || !json) throw err;
      return { status: code, body: JSON.parse(json) };
    }
  }

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    const sql = server.db.sql;
    for (const scope of SCOPE_NAMES) {
      keys.a[scope] = (await createApiKey(sql, { email: 'table-a@example.com', scopes: [scope] })).key;
      keys.owner[scope] = (await createApiKey(sql, { email: 'owner@partner.example', scopes: [scope] })).key;
    }
    // Person A's things, made as a client makes them.
    const a = await newPetOwner(server, {
      email: 'table-a@example.com',
      pet: { name: 'Bongo', weightKg: 14 },
      line1: '3 Dorp Street',
    });
    const first = await bookFirstCardSlot(server, a, '2026-03-16');
    const second = await bookFirstCardSlot(server, a, '2026-03-16');
    const as = { authorization: `Bearer ${a.key}` };
    const times = await server.post(
      '/v1/availability',
      { ...groomingFor(a), from: '2026-03-19', to: '2026-03-20' },
      as,
    );
    const open = (times.body.days as Json[])
      .flatMap((d) => d.slots)
      .map((x: Json) => ({ start: x.start as string, resourceId: x.resourceId as string }));
    expect(open.length, preview(times.body)).toBeGreaterThan(2);
    const orders = (await createApiKey(sql, { email: 'table-a@example.com', scopes: ['orders:write'] })).key;
    const order = await server.post('/v1/orders', TABLE.buy!.call({} as Ids), {
      authorization: `Bearer ${orders}`,
    });
    expect(order.status, preview(order.body)).toBe(201);
    const writer = (await createApiKey(sql, { email: 'table-a@example.com', scopes: ['business:write'] }))
      .key;
    const app = await server.post(
      '/v1/business/applications',
      {
        businessName: 'Table Grooming',
        town: 'Stellenbosch',
        country: 'ZA',
        categories: ['grooming'],
        mode: 'MOBILE',
      },
      { authorization: `Bearer ${writer}` },
    );
    expect(app.status, preview(app.body)).toBe(201);
    // Boland Paws' bookings to accept, decline, rebook, move, cancel and send a link for.
    const upcoming = await sql<{ id: string; status: string; payment_status: string }[]>`
      select id, status, payment_status from bookings where business_id = ${BIZ} and line_id = 'grooming'
        and status in ('PENDING', 'ACCEPTED') and starts_at > ${clock.now()} order by starts_at`;
    const pending = upcoming.filter((b) => b.status === 'PENDING').map((b) => b.id);
    const accepted = upcoming.filter((b) => b.status === 'ACCEPTED').map((b) => b.id);
    const unpaid = upcoming.find(
      (b) =>
        b.payment_status === 'PENDING' &&
        !pending.slice(0, 2).includes(b.id) &&
        !accepted.slice(0, 3).includes(b.id),
    );
    expect(pending.length, preview(upcoming)).toBeGreaterThanOrEqual(2);
    expect(accepted.length, preview(upcoming)).toBeGreaterThanOrEqual(3);
    expect(unpaid, preview(upcoming)).toBeDefined();
    // Open grooming times at Boland Paws on two later days, to rebook and move to.
    const manage = { authorization: `Bearer ${keys.owner['business:manage']}` };
    const runTimes = await server.post(
      '/v1/business/times',
      { businessId: BIZ, pets: [runPet], from: '2026-03-23', to: '2026-03-24' },
      manage,
    );
    expect(runTimes.status, preview(runTimes.body)).toBe(200);
    const firstOf = (day: number) => {
      const x = (runTimes.body.days as Json[])[day].slots[0];
      return { start: x.start as string, resourceId: x.resourceId as string };
    };
    const [client] =
      await sql`select id from business_clients where business_id = ${BIZ} order by id limit 1`;
    const [crew] = await sql`select id from users where email = 'crew@partner.example'`;
    await sql`
      insert into time_off (id, business_id, resource_id, starts_at, ends_at, reason)
      values ('tof_table', ${BIZ}, 'bp-walker', '2026-04-20T05:00:00Z', '2026-04-20T08:00:00Z', 'Access table')`;
    await insertPartner(sql, STELLENBOSCH_PARTNER);
    await sql`update users set email_verified = true where email = 'owner@partner.example'`;
    // Webhook endpoints of Boland Paws and of person A, each with a delivery, and one each to delete.
    const [aUser] = await sql`select id from users where email = 'table-a@example.com'`;
    const [ownerUser] = await sql`select id from users where email = 'owner@partner.example'`;
    const [eventId] = await appendEvents(sql, [
      {
        type: 'booking.created',
        version: 1,
        occurredAt: clock.now(),
        businessId: BIZ,
        personId: aUser!.id,
        subjectKind: 'booking',
        subjectId: first.bookingId,
        actor: { kind: 'person', userId: aUser!.id, clientName: null },
        data: {},
        operation: null,
        requestId: null,
        callId: null,
      },
    ]);
    for (const [id, businessId, personId, by] of [
      ['whe_table_biz', BIZ, null, ownerUser!.id],
      ['whe_table_biz_gone', BIZ, null, ownerUser!.id],
      ['whe_table_a', null, aUser!.id, aUser!.id],
      ['whe_table_a_gone', null, aUser!.id, aUser!.id],
    ])
      await sql`
        insert into webhook_endpoints (id, business_id, person_id, url, event_types, secret, created_by, created_at)
        values (${id}, ${businessId}, ${personId}, 'https://93.184.216.34/table', ${['*']},
          'whsec_dGFibGV0YWJsZXRhYmxldGFibGV0YWJsZXRhYmxl', ${by}, ${clock.now()})`;
    for (const [id, endpointId] of [
      ['whd_table_biz', 'whe_table_biz'],
      ['whd_table_a', 'whe_table_a'],
    ])
      await sql`
        insert into webhook_deliveries (id, endpoint_id, event_id, event_type, status, attempts, created_at)
        values (${id!}, ${endpointId!}, ${eventId!}, 'booking.created', 'SUCCEEDED', 1, ${clock.now()})`;
    for (const id of ['binv_table_accept', 'binv_table_decline'])
      await sql`
        insert into business_invitations (id, business_id, email, role, created_at, expires_at)
        values (${id}, ${STELLENBOSCH_PARTNER.id}, 'owner@partner.example', 'crew', ${clock.now()},
          ${new Date(clock.now().getTime() + 86_400_000)})`;
    ids = {
      petId: a.petId,
      addressId: a.addressId,
      bookingId: first.bookingId,
      cancelId: second.bookingId,
      slot: open[0]!,
      moveTo: open.find((x) => x.start.slice(0, 10) !== open[0]!.start.slice(0, 10))!,
      orderId: order.body.orderId ?? order.body.id,
      applicationId: app.body.applicationId,
      run: {
        pending,
        accepted,
        unpaid: unpaid!.id,
        clientId: client!.id,
        crewUserId: crew!.id,
        rebookTo: firstOf(0),
        moveTo: firstOf(1),
      },
    };

    // Every table's rows, digested: a refused call leaves each as it was.
    const tables = (
      await sql<{ name: string }[]>`
        select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`
    )
      .map((r) => r.name)
      .filter((t) => !NOT_STATE.has(t));
    expect(tables).toContain('audit_log');
    const query = `select ${tables
      .map(
        (t, i) =>
          `(select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) from "${t}" x) as c${i}`,
      )
      .join(', ')}`;
    state = async () => {
      const [row] = await sql.unsafe(query);
      return Object.fromEntries(tables.map((t, i) => [t, String((row as Json)[`c${i}`])]));
    };
  }, 60_000);

  afterAll(async () => {
    console.log(
      `access table: ${tally.cells} cells (${operations.length} operations × ${CREDENTIALS.length} credentials: ` +
        `${SCOPE_NAMES.length} scopes and none), ${tally.allowed} allowed and answered 2xx, ` +
        `${tally.refused401 + tally.refused403} refused (${tally.refused401} with 401, ${tally.refused403} with 403) ` +
        `changing nothing; ${tally.mcpCalls} calls on MCP besides HTTP; ${tally.others} calls with another ` +
        `person's ids answered as for ids that never existed`,
    );
    await Promise.all([...clients.values()].map((c) => c.close().catch(() => {})));
    await server?.stop();
  });

  it('has a row for every operation in the registry, with the scope the registry gives it', () => {
    expect(operations.length).toBeGreaterThanOrEqual(60);
    expect(operations.map((op) => op.toolName).filter((t) => !TABLE[t])).toEqual([]);
    expect(Object.keys(TABLE).filter((t) => !operations.some((op) => op.toolName === t))).toEqual([]);
    // Pinned: a scope loosened in the registry (or made public) shows here first.
    for (const op of operations)
      expect(op.auth === 'public' ? 'public' : op.auth.scope, op.toolName).toBe(TABLE[op.toolName]!.scope);
  });

  it('has a row of another person’s ids for every operation that takes a person’s id', () => {
    const takes = operations.filter(
      (op) => op.tag !== 'Run' && PERSON_ID_FIELDS.some((f) => Object.hasOwn((op.input as Json).shape, f)),
    );
    expect(takes.length).toBeGreaterThanOrEqual(15);
    expect(takes.map((op) => op.toolName).filter((t) => !OTHERS[t])).toEqual([]);
  });

  for (const op of operations) {
    it(`${op.toolName}: only ${TABLE[op.toolName]?.scope ?? '(no row)'} gets through, on HTTP and MCP`, async () => {
      const row = TABLE[op.toolName];
      expect(row, `no row for ${op.toolName}`).toBeDefined();
      const args = row!.call(ids);
      const allowed = (c: Credential) => row!.scope === 'public' || row!.scope === c;
      const before = await state();
      // The refused cells first, on both doors: nothing they do may show in any table.
      for (const credential of CREDENTIALS.filter((c) => !allowed(c))) {
        const key = keyOf(op, credential);
        const want = credential === 'none' ? 401 : 403;
        // A tool no MCP endpoint lists (`mcp: 'none'`) is asked over HTTP only (mcp-surfaces.test).
        const answers: ['http' | 'mcp', { status: number; body: any }][] = [
          ['http', await http(op, key, args)],
        ];
        if (op.mcp !== 'none') answers.push(['mcp', await mcp(op, key, args)]);
        for (const [door, res] of answers) {
          const label = `${op.toolName} ${door} with ${credential}: ${res.status} ${preview(res.body)}`;
          expect(res.status, label).toBe(want);
          expect(errorShapeProblem(res.body), label).toBeNull();
          expect(res.body.error.code, label).toBe(want === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN');
          if (door === 'mcp') tally.mcpCalls++;
        }
        tally.cells++;
        tally[want === 401 ? 'refused401' : 'refused403']++;
      }
      const after = await state();
      const changed = Object.keys(after).filter((t) => after[t] !== before[t]);
      expect(changed, `${op.toolName}: refused calls changed these tables`).toEqual([]);
      // The allowed cells: 2xx. A change is made once (HTTP); reads are asked on MCP too.
      for (const credential of CREDENTIALS.filter(allowed)) {
        const key = keyOf(op, credential);
        const doors =
          op.annotations.readOnlyHint && op.mcp !== 'none' ? (['http', 'mcp'] as const) : (['http'] as const);
        for (const door of doors) {
          const res = door === 'http' ? await http(op, key, args) : await mcp(op, key, args);
          const label = `${op.toolName} ${door} with ${credential}: ${res.status} ${preview(res.body, 600)}`;
          expect(res.status, label).toBeGreaterThanOrEqual(200);
          expect(res.status, label).toBeLessThan(300);
          if (door === 'mcp') tally.mcpCalls++;
        }
        tally.cells++;
        tally.allowed++;
      }
    });
  }

  it('answers another person as if A’s ids did not exist (404), and changes nothing of A’s', async () => {
    const sql = server.db.sql;
    const b = (await createApiKey(sql, { email: 'table-b@example.com', scopes: SCOPE_NAMES })).key;
    // B has things of their own, so "not found" cannot mean "you have none".
    await newPetOwner(server, {
      email: 'table-b@example.com',
      pet: { name: 'Kwaai', weightKg: 20 },
      line1: '9 Dorp Street',
    });
    const fakes: Partial<Ids> = {
      petId: 'pet_nosuchpet000',
      addressId: 'adr_nosuchaddress0',
      bookingId: 'bkg_nosuchbooking0',
      orderId: 'ord_nosuchorder000',
      applicationId: 'app_nosuchapplication',
    };
    const missing = { ...ids, ...fakes } as Ids;
    /** An answer with the ids written as their field names, to compare A's with ones that never were. */
    const masked = (body: unknown, from: Ids) =>
      Object.keys(fakes).reduce(
        (text, field) => text.replaceAll(String(from[field as keyof Ids]), `<${field}>`),
        JSON.stringify(body),
      );
    const before = await state();
    for (const op of operations.filter((o) => OTHERS[o.toolName])) {
      const theirs = OTHERS[op.toolName]!;
      for (const door of op.mcp === 'none' ? (['http'] as const) : (['http', 'mcp'] as const)) {
        const send = door === 'http' ? http : mcp;
        const res = await send(op, b, theirs(ids));
        const none = await send(op, b, theirs(missing));
        const label = `${op.toolName} ${door} as B with A's ids: ${res.status} ${preview(res.body)}`;
        // The same answer as for an id that does not exist: nothing says A's is there.
        expect(masked(res.body, ids), label).toBe(masked(none.body, missing));
        expect(res.status, label).toBe(none.status);
        if (op.toolName === 'quote_order') {
          expect(res.status, label).toBe(200);
          expect(res.body, label).toMatchObject({ canBuy: false, shippingError: { code: 'BOOKING_NEEDED' } });
        } else if (op.toolName === 'buy') {
          expect(res.status, label).toBe(409);
          expect(res.body.error.code, label).toBe('CANNOT_DELIVER');
        } else {
          expect(res.status, label).toBe(404);
          expect(res.body.error.code, label).toBe('NOT_FOUND');
        }
        expect(JSON.stringify(res.body), label).not.toMatch(/Bongo|3 Dorp Street|table-a@/);
        tally.others++;
      }
    }
    const after = await state();
    expect(Object.keys(after).filter((t) => after[t] !== before[t])).toEqual([]);
  });
});
