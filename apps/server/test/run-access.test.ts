// Who may run which business: every Run operation × every role, over HTTP and MCP; the
// default business, several businesses, invitations joined only when accepted, and one 404 for a
// business that is not yours whether or not it exists.
import { createApiKey } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, toolJson } from './harness.js';
import { insertPartner, STELLENBOSCH_PARTNER } from './partner-fixture.js';

type Json = any;

const BIZ = 'biz_boland_paws';
const OTHER = STELLENBOSCH_PARTNER.id;
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg

const OPERATIONS = [
  { tool: 'get_day_plan', path: '/v1/business/day-plan' },
  { tool: 'list_business_bookings', path: '/v1/business/bookings' },
] as const;

type Role = 'owner' | 'manager' | 'crew' | 'other' | 'nobody';

/** What each role gets from each operation at Boland Paws (businessId given). */
const EXPECTED: Record<Role, Record<(typeof OPERATIONS)[number]['tool'], number>> = {
  owner: { get_day_plan: 200, list_business_bookings: 200 },
  manager: { get_day_plan: 200, list_business_bookings: 200 },
  crew: { get_day_plan: 200, list_business_bookings: 403 },
  other: { get_day_plan: 404, list_business_bookings: 404 },
  nobody: { get_day_plan: 403, list_business_bookings: 403 },
};

const CODE: Record<number, string> = { 400: 'BAD_REQUEST', 403: 'FORBIDDEN', 404: 'NOT_FOUND' };

describe('who may run which business', () => {
  let server: TestServer;
  const keys = {} as Record<Role | 'two', string>;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const key = async (email: string) =>
    (await createApiKey(server.db.sql, { email, scopes: ['business:manage'] })).key;

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    await insertPartner(server.db.sql, STELLENBOSCH_PARTNER);
    keys.owner = await key('owner@partner.example');
    keys.manager = await key('manager@partner.example');
    keys.crew = await key('crew@partner.example');
    keys.other = await key('other-owner@example.com');
    keys.nobody = await key('nobody@example.com');
    keys.two = await key('two-hats@example.com');
    // The other business's owner, with a booking of their own on their van.
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${OTHER}, id, 'owner', now() from users where email in ('other-owner@example.com', 'two-hats@example.com')`;
    await server.db.sql`
      insert into business_members (business_id, user_id, role, created_at)
      select ${BIZ}, id, 'manager', now() from users where email = 'two-hats@example.com'`;
    await server.db.sql`
      insert into bookings (id, business_id, resource_id, line_id, status, payment_method, payment_status, starts_at, ends_at, total_cents, client_name)
      values ('bkg_other_van', ${OTHER}, ${STELLENBOSCH_PARTNER.vanId}, 'grooming', 'ACCEPTED', 'CASH', 'CASH_DUE',
        '2026-03-11T08:00:00Z', '2026-03-11T09:00:00Z', 33000, 'test')`;
  }, 60_000);
  afterAll(() => server?.stop());

  const http = (path: string, who: string, query: Record<string, string> = {}) => {
    const qs = new URLSearchParams(query).toString();
    return server.get(`${path}${qs ? `?${qs}` : ''}`, as(who));
  };
  const mcp = async (tool: string, who: string, args: Record<string, unknown> = {}) => {
    const client = await server.mcpAs(who);
    const answer = (await client.callTool({ name: tool, arguments: args })) as { isError?: boolean };
    return { isError: answer.isError === true, body: toolJson(answer) };
  };

  for (const role of Object.keys(EXPECTED) as Role[]) {
    for (const op of OPERATIONS) {
      const status = EXPECTED[role][op.tool];
      it(`${op.tool} for ${role} at Boland Paws: ${status}, the same over MCP, never another business's data`, async () => {
        const res = await http(op.path, keys[role], { businessId: BIZ });
        expect(res.status, JSON.stringify(res.body)).toBe(status);
        const overMcp = await mcp(op.tool, keys[role], { businessId: BIZ });
        if (status === 200) {
          expect(res.body.businessId).toBe(BIZ);
          expect(overMcp.isError).toBe(false);
          expect(overMcp.body.businessId).toBe(BIZ);
          const text = JSON.stringify(res.body);
          expect(text).not.toContain('bkg_other_van');
          if (role === 'crew')
            expect(res.body.resources.map((r: Json) => r.resourceId)).toEqual(['bp-van-1']);
        } else {
          expect(res.body.error.code).toBe(CODE[status]);
          expect(overMcp.isError).toBe(true);
          expect(overMcp.body.error.code).toBe(CODE[status]);
          expect(overMcp.body.error.message).toBe(res.body.error.message);
          expect(JSON.stringify(res.body)).not.toMatch(/Anele|bp-van|demo-bp/);
        }
      });
    }
  }

  it("defaults to the person's only business; a member of another business sees only theirs", async () => {
    const own = await http('/v1/business/day-plan', keys.owner);
    expect(own.status).toBe(200);
    expect(own.body.businessId).toBe(BIZ);
    const theirs = await http('/v1/business/bookings', keys.other, { from: '2026-03-11', to: '2026-03-11' });
    expect(theirs.status).toBe(200);
    expect(theirs.body.businessId).toBe(OTHER);
    expect(theirs.body.bookings.map((b: Json) => b.bookingId)).toEqual(['bkg_other_van']);
    const day = await http('/v1/business/day-plan', keys.other);
    expect(day.body.resources.map((r: Json) => r.resourceId)).toEqual([STELLENBOSCH_PARTNER.vanId]);
  });

  it('asks which business (400, listing them) from a person on the staff of two; either may be named', async () => {
    for (const op of OPERATIONS) {
      const res = await http(op.path, keys.two);
      expect(res.status).toBe(400);
      expect(res.body.error.details.businesses.map((b: Json) => b.businessId).sort()).toEqual(
        [BIZ, OTHER].sort(),
      );
      expect(res.body.error.details.businesses).toContainEqual({
        businessId: BIZ,
        name: 'Boland Paws',
        role: 'manager',
      });
      const overMcp = await mcp(op.tool, keys.two);
      expect(overMcp.body.error.code).toBe('BAD_REQUEST');
      expect((await http(op.path, keys.two, { businessId: OTHER })).status).toBe(200);
      expect((await http(op.path, keys.two, { businessId: BIZ })).status).toBe(200);
    }
  });

  it('answers a business that does not exist and one that is not yours with the same 404 words', async () => {
    for (const op of OPERATIONS) {
      const missing = await http(op.path, keys.owner, { businessId: 'biz_nope' });
      const foreign = await http(op.path, keys.owner, { businessId: OTHER });
      expect(missing.status).toBe(404);
      expect(foreign.status).toBe(404);
      expect(missing.body.error.message.replace('biz_nope', 'X')).toBe(
        foreign.body.error.message.replace(OTHER, 'X'),
      );
      expect(missing.body.error.message).toBe('No business biz_nope of yours.');
    }
  });

  it('a pending invitation is never taken up by a Run call: only accept_invitation by the verified invitee joins', async () => {
    await server.db.sql`
      insert into business_invitations (id, business_id, email, role, job_title, resource_ids, created_at, expires_at)
      values ('binv_test', ${BIZ}, 'Invited.Groomer@Example.com', 'crew', 'Groomer, Van 2', ${['bp-van-2']}, now(),
        now() + interval '14 days')`;
    const invited = await key('invited.groomer@example.com');
    // Not verified: anyone could have made an account with that address.
    const before = await http('/v1/business/day-plan', invited);
    expect(before.status).toBe(403);
    expect(before.body.error.message).toMatch(/not on the staff of any business/);

    await server.db
      .sql`update users set email_verified = true where lower(email) = 'invited.groomer@example.com'`;
    // Verified: still not joined by using a Run tool; the refusal says an invitation waits.
    const still = await mcp('get_day_plan', invited);
    expect(still.isError).toBe(true);
    expect(still.body.error.code).toBe('FORBIDDEN');
    expect(still.body.error.message).toMatch(/invitation waits for you \(Boland Paws\).*accept_invitation/);
    const [pending] = await server.db
      .sql`select accepted_at from business_invitations where id = 'binv_test'`;
    expect(pending!.accepted_at).toBeNull();

    const accepted = await mcp('accept_invitation', invited, { invitationId: 'binv_test', confirm: true });
    expect(accepted.isError).toBe(false);
    const after = await mcp('get_day_plan', invited);
    expect(after.isError).toBe(false);
    expect(after.body).toMatchObject({ businessId: BIZ, role: 'crew' });
    expect(after.body.resources.map((r: Json) => r.resourceId)).toEqual(['bp-van-2']);
    const members = await server.db.sql`
      select m.role, m.job_title, m.resource_ids from business_members m join users u on u.id = m.user_id
      where lower(u.email) = 'invited.groomer@example.com'`;
    expect(members).toEqual([{ role: 'crew', job_title: 'Groomer, Van 2', resource_ids: ['bp-van-2'] }]);
    const [audit] = await server.db.sql`select action from audit_log where target = 'binv_test'`;
    expect(audit!.action).toBe('business.invitation.accept');
    // As crew, the bookings list is not theirs.
    expect((await http('/v1/business/bookings', invited)).status).toBe(403);
  });

  it('refuses a credential without business:manage (403) and none (401)', async () => {
    const { key: bookingsOnly } = await createApiKey(server.db.sql, {
      email: 'owner@partner.example',
      scopes: ['bookings:read'],
    });
    for (const op of OPERATIONS) {
      expect((await http(op.path, bookingsOnly)).status).toBe(403);
      expect((await server.get(op.path)).status).toBe(401);
    }
  });
});
