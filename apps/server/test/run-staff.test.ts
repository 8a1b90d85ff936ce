// The staff of a business (list_staff, invite_staff_member, change_staff_role,
// remove_staff_member) and the areas it proposes (propose_service_area), over HTTP and MCP, for
// every role: owners change the staff, crew see only themselves, the last owner stays, an invited
// person gets in only by accepting, a removed one is out at once; a proposed area is PENDING until the
// operator approves it (console list and `pnpm cli area list|approve`).
import { areasToReview, createApiKey } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startTestServer, type TestServer, toolJson } from './harness.js';
import { insertPartner, LISBON_PARTNER, STELLENBOSCH_PARTNER } from './partner-fixture.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as a client reads them
type Json = any;

const BIZ = 'biz_boland_paws';
const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg

type Role = 'owner' | 'manager' | 'crew' | 'other' | 'nobody';

describe('the staff and the areas of a running business', () => {
  let server: TestServer;
  const keys = {} as Record<Role | 'lisbon', string>;
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const key = async (email: string) =>
    (await createApiKey(server.db.sql, { email, scopes: ['business:manage'] })).key;
  const userId = async (email: string) =>
    (await server.db.sql`select id from users where lower(email) = lower(${email})`)[0]!.id as string;
  const verify = (email: string) =>
    server.db.sql`update users set email_verified = true where lower(email) = lower(${email})`;
  const mcp = async (who: string, tool: string, args: Record<string, unknown> = {}) =>
    toolJson(await (await server.mcpAs(who)).callTool({ name: tool, arguments: args })) as Json;
  const staffOf = async (who: string) => (await server.get('/v1/business/staff', as(who))).body as Json;
  /** The invited person says yes themselves, as the confirm step asks. */
  const accept = async (who: string, invitationId: string) => {
    const res = await server.post(
      `/v1/business/invitations/${invitationId}/accept`,
      { confirm: true },
      as(who),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Json;
  };
  const roleAt = async (email: string) =>
    (
      await server.db.sql`select m.role from business_members m join users u on u.id = m.user_id
        where m.business_id = ${BIZ} and lower(u.email) = lower(${email})`
    )[0]?.role as string | undefined;

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    await insertPartner(server.db.sql, STELLENBOSCH_PARTNER);
    await insertPartner(server.db.sql, LISBON_PARTNER);
    keys.owner = await key('owner@partner.example');
    keys.manager = await key('manager@partner.example');
    keys.crew = await key('crew@partner.example');
    keys.other = await key('other-owner@example.com');
    keys.nobody = await key('nobody@example.com');
    keys.lisbon = await key('dona@tosquias.example');
    for (const [biz, email] of [
      [STELLENBOSCH_PARTNER.id, 'other-owner@example.com'],
      [LISBON_PARTNER.id, 'dona@tosquias.example'],
    ])
      await server.db.sql`
        insert into business_members (business_id, user_id, role, created_at)
        select ${biz!}, id, 'owner', now() from users where email = ${email!}`;
  }, 60_000);
  afterAll(() => server?.stop());

  it('list_staff: owners and managers see everyone, crew only themselves; HTTP and MCP agree', async () => {
    for (const role of ['owner', 'manager'] as Role[]) {
      const res = await server.get('/v1/business/staff', as(keys[role]));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.members.map((m: Json) => [m.email, m.role])).toEqual([
        ['owner@partner.example', 'owner'],
        ['manager@partner.example', 'manager'],
        ['crew@partner.example', 'crew'],
      ]);
      expect(res.body.yourRole).toBe(role);
      expect(res.body.members.find((m: Json) => m.you).email).toBe(`${role}@partner.example`);
      const crew = res.body.members[2];
      expect(crew).toMatchObject({ name: 'Johan Fourie', jobTitle: 'Groomer, Van 1' });
      expect(crew.resources).toEqual([{ resourceId: 'bp-van-1', name: 'Van 1 (Johan)' }]);
      expect(await mcp(keys[role], 'list_staff')).toEqual(res.body);
    }
    const crew = await server.get('/v1/business/staff', as(keys.crew));
    expect(crew.status).toBe(200);
    expect(crew.body.members).toHaveLength(1);
    expect(crew.body.members[0]).toMatchObject({ email: 'crew@partner.example', role: 'crew', you: true });
    expect(crew.body.invitations).toEqual([]);
    expect((await mcp(keys.crew, 'list_staff')).members).toHaveLength(1);
    // Another business's owner asking for Boland Paws: 404; a person on no staff: 403.
    const other = await server.get(`/v1/business/staff?businessId=${BIZ}`, as(keys.other));
    expect(other.status).toBe(404);
    expect(JSON.stringify(other.body)).not.toMatch(/partner\.example/);
    expect((await mcp(keys.other, 'list_staff', { businessId: BIZ })).error.code).toBe('NOT_FOUND');
    expect((await server.get('/v1/business/staff', as(keys.nobody))).status).toBe(403);
    expect((await mcp(keys.nobody, 'list_staff')).error.code).toBe('FORBIDDEN');
  });

  it('invite (HTTP): the confirm step, then the invited person gets in with the role only once they accept', async () => {
    const body = {
      email: 'New.Groomer@example.com',
      role: 'crew',
      jobTitle: 'Groomer',
      resourceIds: ['bp-van-2'],
    };
    const ask = await server.post('/v1/business/staff', body, as(keys.owner));
    expect(ask.status).toBe(409);
    expect(ask.body.error.code).toBe('CONFIRM_REQUIRED');
    expect(ask.body.error.details.summary).toMatch(
      /New\.Groomer@example\.com.*crew \(Groomer\) on Van 2 \(Nomsa\)/,
    );
    expect(await server.db.sql`select 1 from business_invitations where business_id = ${BIZ}`).toHaveLength(
      0,
    );

    const made = await server.post('/v1/business/staff', { ...body, confirm: true }, as(keys.owner));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.invitation).toMatchObject({
      email: 'New.Groomer@example.com',
      role: 'crew',
      jobTitle: 'Groomer',
      resources: [{ resourceId: 'bp-van-2', name: 'Van 2 (Nomsa)' }],
    });
    const invitationId = made.body.invitation.invitationId;
    expect((await staffOf(keys.owner)).invitations.map((v: Json) => v.invitationId)).toEqual([invitationId]);
    const [audit] = await server.db
      .sql`select action, client_name from audit_log where target = ${invitationId}`;
    expect(audit!.action).toBe('business.staff.invite');

    // The account exists but its email is not verified: not in, and it cannot accept.
    const groomer = await key('new.groomer@example.com');
    expect((await server.get('/v1/business/day-plan', as(groomer))).status).toBe(403);
    const unverified = await server.post(
      `/v1/business/invitations/${invitationId}/accept`,
      { confirm: true },
      as(groomer),
    );
    expect(unverified.status).toBe(403);
    expect(unverified.body.error.details.reason).toBe('email_not_verified');
    await verify('new.groomer@example.com');
    // Verified, but not in until they say yes: the refusal names the invitation waiting.
    const waiting = await server.get('/v1/business/day-plan', as(groomer));
    expect(waiting.status).toBe(403);
    expect(waiting.body.error.details.invitations).toEqual([{ invitationId, businessName: 'Boland Paws' }]);
    expect(await roleAt('new.groomer@example.com')).toBeUndefined();
    await accept(groomer, invitationId);
    const first = await server.get('/v1/business/staff', as(groomer));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.members).toEqual([
      expect.objectContaining({
        email: 'new.groomer@example.com',
        role: 'crew',
        jobTitle: 'Groomer',
        resources: [{ resourceId: 'bp-van-2', name: 'Van 2 (Nomsa)' }],
        you: true,
      }),
    ]);
    expect((await server.get('/v1/business/bookings', as(groomer))).status).toBe(403); // crew
    expect((await staffOf(keys.owner)).invitations).toEqual([]);
  });

  it('invite (MCP) as manager, change role and remove: each with its confirm step; the removed key gets 403', async () => {
    const ask = await mcp(keys.owner, 'invite_staff_member', { email: 'desk@example.com', role: 'manager' });
    expect(ask.error.code).toBe('CONFIRM_REQUIRED');
    const made = await mcp(keys.owner, 'invite_staff_member', {
      email: 'desk@example.com',
      role: 'manager',
      confirm: true,
    });
    expect(made.invitation.role).toBe('manager');
    const desk = await key('desk@example.com');
    await verify('desk@example.com');
    expect((await server.get('/v1/business/bookings', as(desk))).status).toBe(403);
    const joined = await mcp(desk, 'accept_invitation', {
      invitationId: made.invitation.invitationId,
      confirm: true,
    });
    expect(joined).toMatchObject({ status: 'accepted', businessId: BIZ, role: 'manager' });
    expect((await server.get('/v1/business/bookings', as(desk))).status).toBe(200);
    const deskId = await userId('desk@example.com');

    // Manager → crew on Van 2, over HTTP: asked first, nothing changed.
    const change = { role: 'crew', resourceIds: ['bp-van-2'], jobTitle: 'Walker' };
    const askRole = await server.post(`/v1/business/staff/${deskId}/role`, change, as(keys.owner));
    expect(askRole.status).toBe(409);
    expect(askRole.body.error.code).toBe('CONFIRM_REQUIRED');
    expect(askRole.body.error.details.summary).toMatch(/crew .*instead of manager/);
    expect(await roleAt('desk@example.com')).toBe('manager');
    const changed = await server.post(
      `/v1/business/staff/${deskId}/role`,
      { ...change, confirm: true },
      as(keys.owner),
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.member).toMatchObject({ role: 'crew', jobTitle: 'Walker' });
    expect((await server.get('/v1/business/bookings', as(desk))).status).toBe(403);
    expect((await staffOf(desk)).members).toHaveLength(1);

    // Back to manager over MCP, keeping the title; then the same again changes nothing.
    const back = await mcp(keys.owner, 'change_staff_role', {
      staffId: deskId,
      role: 'manager',
      confirm: true,
    });
    expect(back.member).toMatchObject({ role: 'manager', jobTitle: 'Walker' });
    const same = await mcp(keys.owner, 'change_staff_role', { staffId: deskId, role: 'manager' });
    expect(same.message).toMatch(/Nothing to change/);

    // Remove over MCP: confirm first, then their key is refused at once.
    const askRemove = await mcp(keys.owner, 'remove_staff_member', { staffId: deskId });
    expect(askRemove.error.code).toBe('CONFIRM_REQUIRED');
    expect(await roleAt('desk@example.com')).toBe('manager');
    const removed = await mcp(keys.owner, 'remove_staff_member', { staffId: deskId, confirm: true });
    expect(removed.member.email).toBe('desk@example.com');
    expect(await roleAt('desk@example.com')).toBeUndefined();
    const after = await server.get('/v1/business/day-plan', as(desk));
    expect(after.status).toBe(403);
    expect(after.body.error.code).toBe('FORBIDDEN');
    expect((await mcp(desk, 'list_staff')).error.code).toBe('FORBIDDEN');
    const actions = await server.db.sql`select action from audit_log where target = ${deskId} order by id`;
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(['business.staff.role', 'business.staff.remove']),
    );

    // Removing the new groomer over HTTP too.
    const groomerId = await userId('new.groomer@example.com');
    const gone = await server.post(
      `/v1/business/staff/${groomerId}/remove`,
      { confirm: true },
      as(keys.owner),
    );
    expect(gone.status).toBe(200);
    expect(await roleAt('new.groomer@example.com')).toBeUndefined();
  });

  it('a waiting invitation: invited again replaces it, its role changes, it is withdrawn', async () => {
    const first = await server.post(
      '/v1/business/staff',
      { phone: '+27 82 555 0101', role: 'crew', confirm: true },
      as(keys.owner),
    );
    expect(first.status).toBe(201);
    expect(first.body.invitation.waiting).toMatch(/phone number cannot be verified/);
    const again = await server.post(
      '/v1/business/staff',
      { phone: '082-555-0101'.replace(/^0/, '+27 '), role: 'crew', jobTitle: 'Bather', confirm: true },
      as(keys.owner),
    );
    expect(again.body.invitation.invitationId).toBe(first.body.invitation.invitationId);
    const id = first.body.invitation.invitationId;
    const owner = await server.post(`/v1/business/staff/${id}/role`, { role: 'owner' }, as(keys.owner));
    expect(owner.status).toBe(400);
    const mgr = await mcp(keys.owner, 'change_staff_role', { staffId: id, role: 'manager', confirm: true });
    expect(mgr.invitation).toMatchObject({ role: 'manager', jobTitle: 'Bather' });
    const ask = await server.post(`/v1/business/staff/${id}/remove`, {}, as(keys.owner));
    expect(ask.body.error.code).toBe('CONFIRM_REQUIRED');
    const withdrawn = await mcp(keys.owner, 'remove_staff_member', { staffId: id, confirm: true });
    expect(withdrawn.message).toMatch(/withdrawn/);
    expect((await staffOf(keys.owner)).invitations).toEqual([]);
  });

  it('the last owner is neither removed nor demoted (409 LAST_OWNER, even confirmed); a co-owner may be', async () => {
    const ownerId = await userId('owner@partner.example');
    const remove = await server.post(
      `/v1/business/staff/${ownerId}/remove`,
      { confirm: true },
      as(keys.owner),
    );
    expect(remove.status).toBe(409);
    expect(remove.body.error.code).toBe('LAST_OWNER');
    const demote = await mcp(keys.owner, 'change_staff_role', {
      staffId: ownerId,
      role: 'manager',
      confirm: true,
    });
    expect(demote.error.code).toBe('LAST_OWNER');
    expect(await roleAt('owner@partner.example')).toBe('owner');

    // The manager made co-owner; then either owner may be removed, and the last one stays.
    const managerId = await userId('manager@partner.example');
    const co = await server.post(
      `/v1/business/staff/${managerId}/role`,
      { role: 'owner', confirm: true },
      as(keys.owner),
    );
    expect(co.status, JSON.stringify(co.body)).toBe(200);
    expect(co.body.member.role).toBe('owner');
    // Now the manager (an owner) may change the staff too: they make themselves manager again.
    const down = await mcp(keys.manager, 'change_staff_role', {
      staffId: managerId,
      role: 'manager',
      confirm: true,
    });
    expect(down.member.role).toBe('manager');
    expect(await roleAt('manager@partner.example')).toBe('manager');
    expect(
      (await mcp(keys.manager, 'change_staff_role', { staffId: ownerId, role: 'crew' })).error.code,
    ).toBe('FORBIDDEN');
  });

  it('managers, crew, another business and people on no staff may not change the staff', async () => {
    const crewId = await userId('crew@partner.example');
    const calls = [
      {
        tool: 'invite_staff_member',
        path: '/v1/business/staff',
        args: { email: 'x@example.com', role: 'crew' },
      },
      { tool: 'change_staff_role', path: `/v1/business/staff/${crewId}/role`, args: { role: 'manager' } },
      { tool: 'remove_staff_member', path: `/v1/business/staff/${crewId}/remove`, args: {} },
    ];
    const want: Record<Exclude<Role, 'owner'>, [number, string]> = {
      manager: [403, 'FORBIDDEN'],
      crew: [403, 'FORBIDDEN'],
      other: [404, 'NOT_FOUND'],
      nobody: [403, 'FORBIDDEN'],
    };
    for (const [role, [status, code]] of Object.entries(want) as [Role, [number, string]][]) {
      for (const c of calls) {
        const args = { businessId: BIZ, ...c.args, confirm: true };
        const res = await server.post(c.path, args, as(keys[role]));
        expect(res.status, `${c.tool} as ${role}`).toBe(status);
        expect(res.body.error.code).toBe(code);
        const overMcp = await mcp(keys[role], c.tool, {
          ...args,
          ...(c.tool === 'invite_staff_member' ? {} : { staffId: crewId }),
        });
        expect(overMcp.error.code, `${c.tool} as ${role} over MCP`).toBe(code);
      }
    }
    expect(await roleAt('crew@partner.example')).toBe('crew');
    expect(
      await server.db.sql`select 1 from business_invitations where email = 'x@example.com'`,
    ).toHaveLength(0);
  });

  it('bounds: who, role, title, resources, another business’s people, an existing member', async () => {
    const bad = async (path: string, body: Record<string, unknown>, status = 400) => {
      const res = await server.post(path, { ...body, confirm: true }, as(keys.owner));
      expect(res.status, `${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(status);
      return res.body;
    };
    await bad('/v1/business/staff', { role: 'crew' });
    await bad('/v1/business/staff', { email: 'not-an-email', role: 'crew' });
    await bad('/v1/business/staff', { email: 'a@example.com', role: 'owner' });
    await bad('/v1/business/staff', { email: 'a@example.com', role: 'crew', jobTitle: 'x'.repeat(81) });
    await bad('/v1/business/staff', { email: 'a@example.com', role: 'crew', extra: 1 });
    await bad('/v1/business/staff', { phone: '12', role: 'crew' });
    const other = await bad('/v1/business/staff', {
      email: 'a@example.com',
      role: 'crew',
      resourceIds: ['bp-van-1', STELLENBOSCH_PARTNER.vanId],
    });
    expect(other.error.details.fields).toEqual([expect.objectContaining({ field: 'resourceIds.1' })]);
    await bad('/v1/business/staff', {
      email: 'a@example.com',
      role: 'crew',
      resourceIds: ['bp-van-1', 'bp-van-1'],
    });
    const member = await bad('/v1/business/staff', { email: 'MANAGER@partner.example', role: 'crew' }, 409);
    expect(member.error.code).toBe('ALREADY_STAFF');
    await bad('/v1/business/staff/usr_nobody_at_all/role', { role: 'crew' }, 404);
    await bad(`/v1/business/staff/${await userId('other-owner@example.com')}/remove`, {}, 404);
    await bad('/v1/business/staff/bad id!/role', { role: 'crew' }, 400);
    await bad(`/v1/business/staff/${await userId('crew@partner.example')}/role`, { role: 'boss' });
    expect(
      await server.db.sql`select 1 from business_invitations where email = 'a@example.com'`,
    ).toHaveLength(0);
  });

  it('propose_service_area: confirm, PENDING, overlaps, then the operator approves it (console list and CLI)', async () => {
    const body = { suburbs: [{ name: 'Kayamandi', postalCode: '7600' }, { name: 'Die Boord' }] };
    const ask = await server.post('/v1/business/areas', body, as(keys.manager));
    expect(ask.status, JSON.stringify(ask.body)).toBe(409);
    expect(ask.body.error.code).toBe('CONFIRM_REQUIRED');
    expect(ask.body.error.details.summary).toMatch(/Kayamandi \(7600\).*PENDING/);
    expect(ask.body.error.details.summary).not.toMatch(/Die Boord/);
    expect(
      await server.db.sql`select 1 from service_areas where business_id = ${BIZ} and status = 'PENDING'`,
    ).toHaveLength(0);

    const made = await server.post('/v1/business/areas', { ...body, confirm: true }, as(keys.manager));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.proposed).toEqual([
      expect.objectContaining({ name: 'Kayamandi (7600)', status: 'PENDING' }),
    ]);
    expect(made.body.alreadyYours).toEqual(['Die Boord']);
    expect(made.body.areas.filter((a: Json) => a.status === 'APPROVED')).toHaveLength(12);
    // 7600 is Stellenbosch's code: the operator and the other Stellenbosch partner serve it.
    expect(made.body.overlaps[0].area).toBe('Kayamandi (7600)');
    expect(made.body.overlaps[0].businesses).toBeGreaterThanOrEqual(1);
    const areaId = made.body.proposed[0].areaId;
    const [audit] = await server.db
      .sql`select action, details from audit_log where action = 'business.area.propose'`;
    expect(JSON.stringify(audit!.details)).toContain(areaId);

    // Over MCP: a radius around a point, by the owner.
    const radius = await mcp(keys.owner, 'propose_service_area', {
      radiusKm: 3,
      center: { lat: -33.9, lng: 18.96 },
      centerName: 'the Franschhoek road',
      confirm: true,
    });
    expect(radius.proposed).toEqual([
      expect.objectContaining({ name: '3 km around the Franschhoek road', status: 'PENDING', radiusKm: 3 }),
    ]);

    // The operator sees both, named by the business, in the console's list and `pnpm cli area list`.
    const waiting = await areasToReview({ sql: server.db.sql, clock });
    const ours = waiting.filter((a) => a.businessId === BIZ);
    expect(ours.map((a) => [a.name, a.applicationName, a.applicationId])).toEqual([
      ['Kayamandi (7600)', 'Boland Paws', null],
      ['3 km around the Franschhoek road', 'Boland Paws', null],
    ]);
    const list = await cli(server.db.url, ['area', 'list']);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(`${areaId}\\tPENDING\\tKayamandi \\(7600\\)\\t7600\\t-\\tBoland Paws\\t${BIZ}`),
    );
    const approve = await cli(server.db.url, ['area', 'approve', areaId]);
    expect(approve.status, approve.stderr).toBe(0);
    expect(approve.lastLine).toBe(`${areaId}\tAPPROVED\tKayamandi (7600)\t-\t${BIZ}`);
    const [row] = await server.db
      .sql`select status from service_areas where business_id = ${BIZ} and id = ${areaId}`;
    expect(row!.status).toBe('APPROVED');
    const again = await cli(server.db.url, ['area', 'approve', areaId]);
    expect(again.status).toBe(1);
    expect((await cli(server.db.url, ['area', 'list'])).stdout).not.toContain(areaId);
    const [decided] = await server.db
      .sql`select client_name from audit_log where action = 'area.approve' and target = ${areaId}`;
    expect(decided!.client_name).toBe('operator (CLI)');
    // Approved: the business's list shows it so.
    const now = await mcp(keys.owner, 'propose_service_area', { suburbs: [{ name: 'Kayamandi' }] });
    expect(now.alreadyYours).toEqual(['Kayamandi']);
    expect(now.areas.find((a: Json) => a.areaId === areaId).status).toBe('APPROVED');
  });

  it('propose_service_area: roles, bounds, and a business in Lisbon (works there, places found in Portugal)', async () => {
    const body = { suburbs: [{ name: 'Jamestown' }] };
    expect((await server.post('/v1/business/areas', body, as(keys.crew))).status).toBe(403);
    expect((await mcp(keys.crew, 'propose_service_area', body)).error.code).toBe('FORBIDDEN');
    expect(
      (await server.post('/v1/business/areas', { ...body, businessId: BIZ }, as(keys.other))).status,
    ).toBe(404);
    expect((await server.post('/v1/business/areas', body, as(keys.nobody))).status).toBe(403);
    for (const b of [
      {},
      { radiusKm: 5 },
      { radiusKm: 0.1, centerAddress: 'Stellenbosch' },
      { radiusKm: 5, centerAddress: 'Stellenbosch', center: { lat: -33.9, lng: 18.8 } },
      { suburbs: [{ name: 'A' }, { name: 'a' }] },
      { postalCodes: ['!'] },
      { suburbs: Array.from({ length: 51 }, (_, i) => ({ name: `S${i}` })) },
    ]) {
      const res = await server.post('/v1/business/areas', { ...b, confirm: true }, as(keys.owner));
      expect(res.status, JSON.stringify(b)).toBe(400);
    }
    const unknown = await server.post(
      '/v1/business/areas',
      { radiusKm: 5, centerAddress: 'Nowhere-upon-Nothing', confirm: true },
      as(keys.owner),
    );
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('UNKNOWN_PLACE');

    const lisbon = await server.post(
      '/v1/business/areas',
      { postalCodes: ['1100-001'], suburbs: [{ name: 'Alfama', postalCode: '1100-001' }] },
      as(keys.lisbon),
    );
    expect(lisbon.body.error.code).toBe('CONFIRM_REQUIRED');
    const done = await mcp(keys.lisbon, 'propose_service_area', {
      postalCodes: ['1100-001'],
      suburbs: [{ name: 'Alfama', postalCode: '1100-001' }],
      confirm: true,
    });
    expect(done.businessId).toBe(LISBON_PARTNER.id);
    expect(done.proposed.map((a: Json) => a.name)).toEqual(['Alfama (1100-001)']);
    const [town] = await server.db
      .sql`select town from service_areas where business_id = ${LISBON_PARTNER.id} and status = 'PENDING'`;
    expect(town!.town).toBe(LISBON_PARTNER.town);
    // Lisbon's owner sees their own staff only.
    const staff = await mcp(keys.lisbon, 'list_staff');
    expect(staff.members.map((m: Json) => m.email)).toEqual(['dona@tosquias.example']);
  });
});
