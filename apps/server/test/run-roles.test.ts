// The roles table test: every Run operation in the registry × every role (owner, manager, crew, a
// member of another business, a person on no business's staff), over HTTP and MCP. Owners and
// managers get through; crew only to their day; the other business's member gets 404 for Boland
// Paws, and 404 for Boland Paws' bookings and clients from inside their own business; a person on
// no staff gets 403. A Run operation added to the registry without a row here fails the test.
import { type Operation, operations } from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, toolJson } from './harness.js';
import { insertPartner, STELLENBOSCH_PARTNER } from './partner-fixture.js';

const BIZ = 'biz_boland_paws';
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg
/**
 * The invited person's own operations (list_my_invitations, accept_invitation, decline_invitation)
 * act on invitations to them, not on a business they are staff of: staff-consent.test.ts.
 */
const INVITEE_OWN = new Set(['list_my_invitations', 'accept_invitation', 'decline_invitation']);
const run = operations.filter((op) => op.tag === 'Run' && !INVITEE_OWN.has(op.toolName)) as Operation[];

type Role = 'owner' | 'manager' | 'crew' | 'other' | 'nobody';
type Ids = { bookingId: string; clientId: string; start: string; crewUserId: string };

/** A well-formed call of each Run operation at Boland Paws, without `confirm` (nothing is changed). */
const CALLS: Record<string, (ids: Ids) => Record<string, unknown>> = {
  get_day_plan: () => ({ date: '2026-03-11' }),
  list_business_bookings: () => ({}),
  accept_booking: ({ bookingId }) => ({ bookingId }),
  decline_booking: ({ bookingId }) => ({ bookingId, reason: 'The van is in for repairs.' }),
  find_business_times: () => ({
    pets: [{ name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['bp-groom-bath'] }],
  }),
  book_for_client: ({ start }) => ({
    client: { name: 'Walk-in Wendy', phone: '082 555 0100' },
    pets: [{ name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['bp-groom-bath'] }],
    start,
    resourceId: 'bp-van-1',
    address: { line1: '3 Rustenburg Road', suburb: 'Die Boord' },
    paymentMethod: 'CASH',
  }),
  rebook_booking: ({ bookingId, start }) => ({ bookingId, start }),
  move_booking: ({ bookingId, start }) => ({ bookingId, start }),
  cancel_business_booking: ({ bookingId }) => ({ bookingId, reason: 'The van is in for repairs.' }),
  list_clients: () => ({}),
  get_client: ({ clientId }) => ({ clientId }),
  add_client_note: ({ clientId }) => ({ clientId, text: 'Nervous of clippers.' }),
  send_payment_link: ({ bookingId }) => ({ bookingId }),
  create_invoice_link: () => ({ amountCents: 25000, description: 'Flea treatment' }),
  propose_service_area: () => ({ suburbs: [{ name: 'Kayamandi', postalCode: '7600' }] }),
  list_staff: () => ({}),
  invite_staff_member: () => ({ email: 'roles-invite@example.com', role: 'crew' }),
  change_staff_role: ({ crewUserId }) => ({ staffId: crewUserId, role: 'manager' }),
  remove_staff_member: ({ crewUserId }) => ({ staffId: crewUserId }),
  leave_business: () => ({}),
  list_prices: () => ({}),
  update_prices: () => ({ changes: [{ serviceId: 'bp-groom-bath', priceCents: 33000 }] }),
  // Hours and time off that would leave Van 1's bookings outside working time: CONFIRM_REQUIRED.
  set_working_hours: () => ({ resourceIds: ['bp-van-1'], week: { sun: [{ start: '09:00', end: '10:00' }] } }),
  add_time_off: () => ({ resourceId: 'bp-van-1', start: '2026-03-12', end: '2026-03-20' }),
  list_time_off: () => ({}),
  remove_time_off: () => ({ timeOffId: 'tof_roles' }), // made in beforeAll
  get_earnings: () => ({ from: '2026-03-01', to: '2026-03-11' }),
  list_payouts: () => ({}),
  list_unpaid_clients: () => ({}),
  // The business's feed: owners and managers (crew have their own jobs' feed, calendar-feeds.test.ts).
  get_business_calendar_feed: () => ({ scope: 'business' }),
  rotate_business_calendar_feed: () => ({ scope: 'business' }),
  // A public address (no DNS asked); endpoints and a delivery made in beforeAll, one to delete per call.
  create_webhook_endpoint: () => ({ url: 'https://93.184.216.34/roles', eventTypes: ['booking.created'] }),
  list_webhook_endpoints: () => ({}),
  delete_webhook_endpoint: () => ({ endpointId: `whe_roles_${deletable++}` }),
  list_webhook_deliveries: () => ({ endpointId: 'whe_roles_keep' }),
  redeliver_webhook: () => ({ deliveryId: 'whd_roles' }),
  // Which notifications the business's staff get: owners and managers choose.
  get_notification_settings: () => ({}),
  update_notification_settings: () => ({ settings: { business_booking_moved: true } }),
};

/** The next of the endpoints made to be deleted (each call deletes one). */
let deletable = 0;

/** Crew reach only their own day (and their own entry in the staff list), and may leave. */
const CREW_MAY = new Set(['list_staff', 'get_day_plan', 'leave_business']);

/** Only owners change the staff: managers get 403. */
const OWNER_ONLY = new Set(['invite_staff_member', 'change_staff_role', 'remove_staff_member']);

function expected(role: Role, tool: string): 'through' | 403 | 404 {
  if (role === 'owner' || (role === 'manager' && !OWNER_ONLY.has(tool))) return 'through';
  if (role === 'manager') return 403;
  if (role === 'crew') return CREW_MAY.has(tool) ? 'through' : 403;
  return role === 'other' ? 404 : 403;
}

describe('every Run operation × every role', () => {
  let server: TestServer;
  let ids: Ids;
  const keys = {} as Record<Role, string>;

  /** The operation called over HTTP as its definition says: path parameters, query or body. */
  async function http(op: Operation, key: string, args: Record<string, unknown>) {
    let path = op.path;
    const rest: Record<string, unknown> = { ...args };
    for (const [, name] of op.path.matchAll(/:(\w+)/g)) {
      path = path.replace(`:${name}`, encodeURIComponent(String(rest[name!])));
      delete rest[name!];
    }
    const auth = { authorization: `Bearer ${key}` };
    if (op.method === 'GET') {
      const qs = new URLSearchParams(rest as Record<string, string>).toString();
      return server.get(`${path}${qs ? `?${qs}` : ''}`, auth);
    }
    return server.post(path, rest, auth);
  }

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    await insertPartner(server.db.sql, STELLENBOSCH_PARTNER);
    const key = async (email: string) =>
      (await createApiKey(server.db.sql, { email, scopes: ['business:manage'] })).key;
    keys.owner = await key('owner@partner.example');
    keys.manager = await key('manager@partner.example');
    keys.crew = await key('crew@partner.example');
    keys.other = await key('other-business@example.com');
    keys.nobody = await key('no-business@example.com');
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${STELLENBOSCH_PARTNER.id}, id, 'owner', now() from users where email = 'other-business@example.com'`;
    const [booking] = await server.db.sql`
      select id from bookings where business_id = ${BIZ} and status in ('PENDING', 'ACCEPTED')
        and payment_status = 'PENDING' and starts_at > ${clock.now()} order by starts_at limit 1`;
    const [client] = await server.db.sql`select id from business_clients where business_id = ${BIZ} limit 1`;
    const [crew] = await server.db.sql`select id from users where email = 'crew@partner.example'`;
    await server.db.sql`
      insert into time_off (id, business_id, resource_id, starts_at, ends_at, reason)
      values ('tof_roles', ${BIZ}, 'bp-walker', '2026-04-20T05:00:00Z', '2026-04-20T08:00:00Z', 'Roles test')`;
    const [owner] = await server.db.sql`select id from users where email = 'owner@partner.example'`;
    for (const id of ['whe_roles_keep', ...Array.from({ length: 12 }, (_, i) => `whe_roles_${i}`)])
      await server.db.sql`
        insert into webhook_endpoints (id, business_id, url, event_types, secret, created_by, created_at)
        values (${id}, ${BIZ}, 'https://93.184.216.34/roles', ${['*']},
          'whsec_cm9sZXNyb2xlc3JvbGVzcm9sZXNyb2xlc3JvbGVz', ${owner!.id}, ${clock.now()})`;
    const [event] = await server.db.sql`
      insert into domain_events (id, type, version, occurred_at, business_id, subject_kind, subject_id, actor, data)
      values ('evt_roles', 'booking.created', 1, ${clock.now()}, ${BIZ}, 'booking', ${booking!.id},
        '{"kind":"system","userId":null,"clientName":null}', '{}') returning id`;
    await server.db.sql`
      insert into webhook_deliveries (id, endpoint_id, event_id, event_type, status, attempts, created_at)
      values ('whd_roles', 'whe_roles_keep', ${event!.id}, 'booking.created', 'SUCCEEDED', 1, ${clock.now()})`;
    ids = {
      bookingId: booking!.id,
      clientId: client!.id,
      crewUserId: crew!.id,
      start: '2026-03-16T07:00:00Z', // Monday 09:00 in Johannesburg, a week on
    };
  }, 60_000);
  afterAll(() => server?.stop());

  it('has a row for every Run operation in the registry', () => {
    expect(run.length).toBeGreaterThanOrEqual(14);
    expect(run.map((op) => op.toolName).filter((t) => !CALLS[t])).toEqual([]);
  });

  for (const role of ['owner', 'manager', 'crew', 'other', 'nobody'] as Role[]) {
    it(`${role}: each Run operation at Boland Paws answers as the role allows, on HTTP and MCP alike`, async () => {
      const client = await server.mcpAs(keys[role]);
      for (const op of run) {
        const args = { businessId: BIZ, ...CALLS[op.toolName]!(ids) };
        const res = await http(op, keys[role], args);
        const mcpArgs = { businessId: BIZ, ...CALLS[op.toolName]!(ids) };
        // A Run operation no MCP endpoint lists (`mcp: 'none'`) is HTTP's alone: its answer stands for both.
        const overMcp =
          op.mcp === 'none'
            ? res.body
            : toolJson(await client.callTool({ name: op.toolName, arguments: mcpArgs }));
        const want = expected(role, op.toolName);
        const label = `${op.toolName} as ${role}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
        if (want === 'through') {
          // Through the door: an answer, or the operation's own refusal (CONFIRM_REQUIRED, ...).
          expect(res.status, label).toBeLessThan(500);
          expect([401, 403, 404], label).not.toContain(res.status);
          expect(['FORBIDDEN', 'NOT_FOUND', 'UNAUTHORIZED'], label).not.toContain(overMcp.error?.code);
        } else {
          expect(res.status, label).toBe(want);
          expect(res.body.error.code, label).toBe(want === 403 ? 'FORBIDDEN' : 'NOT_FOUND');
          expect(overMcp.error?.code, label).toBe(res.body.error.code);
        }
        // Crew's staff list holds their own entry only.
        if (role === 'crew' && op.toolName === 'list_staff') {
          expect(
            res.body.members.map((m: { email: string }) => m.email),
            label,
          ).toEqual(['crew@partner.example']);
          expect(overMcp.members, label).toHaveLength(1);
        }
        // Never Boland Paws' client names or notes in a refusal.
        if (want !== 'through') expect(JSON.stringify(res.body), label).not.toMatch(/Walk-in|Nervous/);
      }
    });
  }

  it("another business's owner, in their own business, finds none of Boland Paws' bookings or clients", async () => {
    const client = await server.mcpAs(keys.other);
    for (const op of run.filter((o) => /:(bookingId|clientId)/.test(o.path))) {
      const args = CALLS[op.toolName]!(ids); // no businessId: their own business
      const res = await http(op, keys.other, args);
      const label = `${op.toolName}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
      expect(res.status, label).toBe(404);
      expect(res.body.error.code, label).toBe('NOT_FOUND');
      const overMcp = toolJson(await client.callTool({ name: op.toolName, arguments: args }));
      expect(overMcp.error?.code, label).toBe('NOT_FOUND');
    }
    // Nothing changed at Boland Paws: no note added, the booking as it was.
    const notes = await server.db.sql`select 1 from client_notes where text = 'Nervous of clippers.'`;
    const owners = await server.db
      .sql`select 1 from client_notes n join business_clients c on c.id = n.client_id
      where c.business_id = ${BIZ} and n.text = 'Nervous of clippers.'`;
    // Owner and manager added one each in the table above; the other business none.
    expect(owners.length).toBe(notes.length);
    expect(notes.length).toBe(4); // owner and manager, each over HTTP and MCP
  });
});
