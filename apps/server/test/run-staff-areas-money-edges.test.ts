// The staff, areas and money tools at their edges: bad dates and cursors answer 400
// (never a 500), and an owner demoted while their staff change waited for the owners' lock
// does not go on to change the staff.
import { createApiKey } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startTestServer, type TestServer, toolJson } from './harness.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const BIZ = 'biz_boland_paws';
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg

describe('staff, areas and money at their edges', () => {
  let server: TestServer;
  let owner: string;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const key = async (email: string) =>
    (await createApiKey(server.db.sql, { email, scopes: ['business:manage'] })).key;
  const userId = async (email: string) =>
    (await server.db.sql`select id from users where lower(email) = lower(${email})`)[0]!.id as string;
  const mcp = async (who: string, tool: string, args: Record<string, unknown> = {}) =>
    toolJson(await (await server.mcpAs(who)).callTool({ name: tool, arguments: args })) as Json;

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    owner = await key('owner@partner.example');
  }, 60_000);
  afterAll(() => server?.stop());

  it('get_earnings: dates at the ends of the calendar are 400, not 500, on HTTP and MCP', async () => {
    for (const [from, to] of [
      ['9999-12-01', '9999-12-31'],
      ['0000-01-01', '0000-01-31'],
      ['0001-01-01', '0001-01-31'],
    ]) {
      // Outside five years back to two years ahead (date-bounds.test.ts): refused, naming the field.
      const res = await server.get(`/v1/business/earnings?from=${from}&to=${to}`, as(owner));
      expect(res.status, `${from}..${to}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
      expect(res.body.error.details.reason, `${from}..${to}`).toBe('DATE_OUT_OF_RANGE');
      expect(res.body.error.details.fields.map((f: Json) => f.field)).toContain('from');
      const viaMcp = await mcp(owner, 'get_earnings', { from, to });
      expect(viaMcp.error?.code ?? 'OK', `${from}..${to} over MCP`).toBe('BAD_REQUEST');
      expect(viaMcp.error.details.reason, `${from}..${to} over MCP`).toBe('DATE_OUT_OF_RANGE');
    }
    const bad = await server.get('/v1/business/earnings?from=2026-02-30&to=2026-03-01', as(owner));
    expect(bad.status).toBe(400);
  });

  it('list_payouts: a cursor of a year the database cannot hold is 400', async () => {
    for (const text of [
      'p:0000-01-01T00:00:00Z|x',
      'p:9999-12-31T23:59:59.999Z|x',
      'p:2026-02-30T00:00:00Z|x',
    ]) {
      const cursor = Buffer.from(text).toString('base64url');
      const res = await server.get(`/v1/business/payouts?cursor=${cursor}`, as(owner));
      expect(res.status, `${text}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
      expect(res.body.error.details.fields).toEqual([
        { field: 'cursor', message: 'not a cursor this list gave' },
      ]);
    }
  });

  it('payout create: bad and out-of-range dates are refused in words, nothing written', async () => {
    for (const to of ['2026-02-30', '0000-01-01', '0001-01-01', 'soon', '2026-3-1']) {
      const res = await cli(server.db.url, ['payout', 'create', BIZ, '--to', to]);
      expect(res.status, `${to}: ${res.stderr}`).toBe(1);
      expect(res.stderr, to).not.toMatch(/Something went wrong|RangeError|Invalid time value/);
    }
    expect(await server.db.sql`select 1 from payouts`).toHaveLength(0);
  });

  it("an owner demoted while their staff change waited for the owners' lock changes nothing (403)", async () => {
    const sql = server.db.sql;
    // Three owners: the owner, the manager made co-owner, and the crew member made co-owner.
    await sql`update business_members set role = 'owner' where business_id = ${BIZ}
      and user_id in (select id from users where email in ('manager@partner.example', 'crew@partner.example'))`;
    const manager = await key('manager@partner.example');
    const crewId = await userId('crew@partner.example');
    const managerId = await userId('manager@partner.example');
    const waitingForLock = async () => {
      for (let i = 0; i < 200; i++) {
        const [row] = await sql<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`;
        if (row!.n > 0) return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('the request never waited for the lock');
    };
    for (const [path, body] of [
      [`/v1/business/staff/${crewId}/role`, { role: 'manager', confirm: true }],
      [`/v1/business/staff/${crewId}/remove`, { confirm: true }],
    ] as const) {
      await sql`update business_members set role = 'owner' where business_id = ${BIZ} and user_id = ${managerId}`;
      let answer: Promise<{ status: number; body: Json }> | undefined;
      // The owner takes the owners' rows and makes the manager manager again, while the manager's
      // change of the crew member waits for those rows.
      await sql.begin(async (tx) => {
        await tx`select user_id from business_members where business_id = ${BIZ} and role = 'owner'
          order by user_id for update`;
        answer = server.post(path, body, as(manager));
        await waitingForLock();
        await tx`update business_members set role = 'manager' where business_id = ${BIZ} and user_id = ${managerId}`;
      });
      const res = await answer!;
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      const [crew] =
        await sql`select role from business_members where business_id = ${BIZ} and user_id = ${crewId}`;
      expect(crew?.role).toBe('owner');
    }
  });

  it('a phone-only invitation given an email later is that invitation, mailed, which lets them in once accepted', async () => {
    const first = await server.post(
      '/v1/business/staff',
      { phone: '+27 82 555 0199', role: 'crew', jobTitle: 'Bather', confirm: true },
      as(owner),
    );
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    // As the answer says: ask them for an email address and invite that.
    expect(first.body.invitation.waiting).toMatch(
      /ask \+27 82 555 0199 for an email address and invite that/,
    );
    const ask = await server.post(
      '/v1/business/staff',
      {
        email: 'Bather@Example.com',
        phone: '082 555 0199'.replace(/^0/, '+27 '),
        role: 'crew',
        jobTitle: 'Bather',
      },
      as(owner),
    );
    expect(ask.status).toBe(409);
    expect(ask.body.error.details.summary).toMatch(/Invite again .*replaces the invitation/);
    const again = await mcp(owner, 'invite_staff_member', {
      email: 'Bather@Example.com',
      phone: '+27 82 555 0199',
      role: 'crew',
      jobTitle: 'Bather',
      confirm: true,
    });
    expect(again.invitation).toMatchObject({
      invitationId: first.body.invitation.invitationId,
      email: 'Bather@Example.com',
      phone: '+27 82 555 0199',
    });
    const waiting = (await server.get('/v1/business/staff', as(owner))).body.invitations as Json[];
    expect(waiting.filter((v) => v.phone === '+27 82 555 0199')).toHaveLength(1);
    expect(waiting.find((v) => v.invitationId === first.body.invitation.invitationId).email).toBe(
      'Bather@Example.com',
    );
    // A new phone for an invitation by email is kept too.
    const phoned = await mcp(owner, 'invite_staff_member', {
      email: 'bather@example.com',
      phone: '+27 82 555 0200',
      role: 'crew',
      jobTitle: 'Bather',
      confirm: true,
    });
    expect(phoned.invitation).toMatchObject({
      invitationId: first.body.invitation.invitationId,
      phone: '+27 82 555 0200',
    });
    // Given an email, it is mailed (the phone-only one was not).
    const mailed = await server.db
      .sql`select body from mail_outbox where lower(to_address) = 'bather@example.com'`;
    expect(mailed.length).toBeGreaterThan(0);
    expect(mailed[0]!.body).toContain(`/invitations/${first.body.invitation.invitationId}`);
    // Their account, its email verified, accepts: in as crew, and nothing is left waiting for them.
    const bather = await key('bather@example.com');
    await server.db.sql`update users set email_verified = true where email = 'bather@example.com'`;
    const accepted = await mcp(bather, 'accept_invitation', {
      invitationId: first.body.invitation.invitationId,
      confirm: true,
    });
    expect(accepted.status, JSON.stringify(accepted)).toBe('accepted');
    const staff = await server.get('/v1/business/staff', as(bather));
    expect(staff.status, JSON.stringify(staff.body)).toBe(200);
    expect(staff.body.members).toEqual([
      expect.objectContaining({ role: 'crew', jobTitle: 'Bather', you: true }),
    ]);
    const left = (await server.get('/v1/business/staff', as(owner))).body.invitations as Json[];
    expect(left.filter((v) => v.phone?.startsWith('+27 82 555 0'))).toEqual([]);
  });
});
