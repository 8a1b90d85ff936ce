// The pages' own internal operations (pageOperations): each runs only for the principal its page
// is for — the person signed in on our pages (their web session), a visitor holding a link, the
// payment gateway — and refuses an API key, an assistant's token, no one and every other principal
// with 403, changing nothing. The gateway's check writes exactly the events it declares.
import {
  type AuthContext,
  type Deps,
  identityOperations,
  type InternalOperation,
  internalOperations,
  type OperationContext,
  pageOperations,
  type Principal,
  runOperation,
  ServiceError,
} from '@nogpets/operations';
import { findOrCreateUser, grantOperator, insertInvitation } from '@nogpets/store';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookFirstCardSlot,
  newPetOwner,
  openPayment,
  signSandboxNotice,
  startTestServer,
  type TestServer,
} from './harness.js';
import { insertPartner, STELLENBOSCH_PARTNER } from './partner-fixture.js';

const NOW = '2026-11-23T04:00:00Z'; // Monday 06:00 in Johannesburg
const EMAIL = 'page.door@example.com';
const quiet = { info() {}, warn() {}, error() {} };

type Who = { auth?: AuthContext; principal?: Principal };
type Kind = 'person' | 'visitor' | 'gateway' | 'operator' | 'system';

describe("the pages' internal operations", () => {
  const clock = fixedClock(NOW);
  let server: TestServer;
  let deps: Deps;
  let userId: string;
  let owner: { key: string; petId: string; addressId: string };

  const call = (who: Who): OperationContext => ({
    deps,
    requestId: 'page-operations-test',
    clientName: null,
    auth: who.auth ?? null,
    log: quiet,
    ...(who.principal ? { principal: who.principal } : {}),
  });
  const credential = (kind: AuthContext['kind'], clientId: string | null): AuthContext => ({
    userId,
    credentialId: kind === 'WEB_SESSION' ? 'web-session' : `cred_${kind.toLowerCase()}`,
    kind,
    scopes: ['bookings:read', 'bookings:write', 'pets', 'addresses', 'orders:write', 'business:write'],
    clientId,
    clientName: clientId ? 'Some Assistant' : null,
  });
  /** The person signed in on our pages: their web session, no principal. */
  const person = (): Who => ({ auth: credential('WEB_SESSION', null) });
  const principals: Record<Exclude<Kind, 'person'>, Principal> = {
    visitor: { kind: 'visitor' },
    gateway: { kind: 'gateway', gateway: 'sandbox' },
    operator: { kind: 'operator', userId: null, name: 'operator (test)' },
    system: { kind: 'system', job: 'test-job' },
  };
  const as = (kind: Kind): Who => (kind === 'person' ? person() : { principal: principals[kind] });

  /** Every caller an operation open to `allowed` must refuse. */
  function strangers(allowed: Kind[]): [string, Who][] {
    const others = (['person', 'visitor', 'gateway', 'operator', 'system'] as Kind[]).filter(
      (k) => !allowed.includes(k),
    );
    return [
      ['an API key', { auth: credential('API_KEY', null) }],
      ["an assistant's token", { auth: credential('ACCESS', 'cli_assistant') }],
      ['no one', {}],
      // A web session beside a principal is not the person alone.
      [
        'a web session with a principal',
        { auth: credential('WEB_SESSION', null), principal: principals.system },
      ],
      ...others.map((k): [string, Who] => [k, as(k)]),
    ];
  }

  /** Each stranger is refused with 403 FORBIDDEN, before the operation reads or writes anything. */
  async function refusesStrangers(op: InternalOperation, input: unknown, allowed: Kind[]): Promise<void> {
    expect([...op.auth.principal].sort()).toEqual([...allowed].sort());
    for (const [name, who] of strangers(allowed)) {
      const err = await runOperation(op, call(who), input).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, `${op.operationId} for ${name}`).toBeInstanceOf(ServiceError);
      expect(err, `${op.operationId} for ${name}`).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    }
  }

  const badInput = async (op: InternalOperation, who: Who, input: unknown) => {
    const err = await runOperation(op, call(who), input).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
  };

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    deps = server.service.runtime.deps;
    userId = (await findOrCreateUser(server.db.sql, EMAIL, 'Pat Door')).id;
    owner = await newPetOwner(server, {
      email: EMAIL,
      pet: { name: 'Rex', weightKg: 12 },
      line1: '12 Dorp Street',
    });
  });
  afterAll(() => server?.stop());

  it('every page operation is an internal one, each named once', () => {
    const ids = new Set(internalOperations.map((o) => o.operationId));
    for (const op of Object.values(pageOperations))
      expect(ids.has(op.operationId), op.operationId).toBe(true);
  });

  it("the account page's reads run for the person (the pages' time zone for the operator too), and for no one else", async () => {
    const booked = await bookFirstCardSlot(server, owner, '2026-11-25');
    await refusesStrangers(pageOperations.accountBookings, {}, ['person']);
    const mine = await runOperation(pageOperations.accountBookings, call(person()), {});
    expect(mine.upcoming.map((b) => b.id)).toEqual([booked.bookingId]);
    expect(mine.upcoming[0]).toMatchObject({ cancellable: true, movable: expect.stringMatching(/^Until /) });
    await badInput(pageOperations.accountBookings, person(), { earlier: 5 });

    await refusesStrangers(pageOperations.pagesTimeZone, {}, ['person', 'operator']);
    for (const kind of ['person', 'operator'] as const)
      expect(await runOperation(pageOperations.pagesTimeZone, call(as(kind)), {})).toBe(
        'Africa/Johannesburg',
      );
  });

  it("changes a saved pet's notes and removes an address only for the person; refused, nothing changes", async () => {
    const notesOf = async () =>
      (await server.db.sql<{ notes: string | null }[]>`select notes from pets where id = ${owner.petId}`)[0]!
        .notes;
    const before = await notesOf();
    const change = { kind: 'pet', id: owner.petId, notes: 'Shy of the dryer.' };
    await refusesStrangers(pageOperations.changeSavedNotes, change, ['person']);
    expect(await notesOf()).toBe(before);
    expect(await runOperation(pageOperations.changeSavedNotes, call(person()), change)).toEqual({
      saved: true,
    });
    expect(await notesOf()).toBe('Shy of the dryer.');
    await badInput(pageOperations.changeSavedNotes, person(), { ...change, kind: 'cat' });
    await badInput(pageOperations.changeSavedNotes, person(), { ...change, id: 'p'.repeat(101) });
    await badInput(pageOperations.changeSavedNotes, person(), { ...change, extra: 1 });

    const spare = await server.post(
      '/v1/addresses',
      { label: 'Work', line1: '1 Bird Street', suburb: 'Die Boord' },
      { authorization: `Bearer ${owner.key}` },
    );
    expect(spare.status).toBe(201);
    const exists = async () =>
      (await server.db.sql`select 1 from addresses where id = ${spare.body.id}`).length === 1;
    const remove = { kind: 'address', id: spare.body.id };
    await refusesStrangers(pageOperations.removeSaved, remove, ['person']);
    expect(await exists()).toBe(true);
    expect(await runOperation(pageOperations.removeSaved, call(person()), remove)).toEqual({
      removed: true,
      message: 'Removed Work.',
    });
    expect(await exists()).toBe(false);
  });

  it('shows an invitation to the person it was mailed to, and to no one else', async () => {
    await insertPartner(server.db.sql, STELLENBOSCH_PARTNER);
    await server.db.sql`update users set email_verified = true where id = ${userId}`;
    const now = clock.now();
    const invitation = await insertInvitation(
      server.db.sql,
      STELLENBOSCH_PARTNER.id,
      { email: EMAIL, phone: null, role: 'crew', jobTitle: null, resourceIds: [] },
      now,
      new Date(now.getTime() + 14 * 86_400_000),
    );
    const input = { invitationId: invitation.id };
    await refusesStrangers(pageOperations.invitationForPerson, input, ['person']);
    expect(await runOperation(pageOperations.invitationForPerson, call(person()), input)).toMatchObject({
      invitationId: invitation.id,
      businessName: STELLENBOSCH_PARTNER.name,
      state: 'waiting',
    });
    await badInput(pageOperations.invitationForPerson, person(), { invitationId: '' });
  });

  it('lists the businesses the person owns or manages, for the person only; crew and pet owners get none', async () => {
    await refusesStrangers(pageOperations.managedBusinesses, {}, ['person']);
    expect(await runOperation(pageOperations.managedBusinesses, call(person()), {})).toEqual([]);
    const sql = server.db.sql;
    if (!(await sql`select 1 from businesses where id = ${STELLENBOSCH_PARTNER.id}`).length)
      await insertPartner(sql, STELLENBOSCH_PARTNER);
    await sql`insert into business_members (business_id, user_id, role, created_at)
      values (${STELLENBOSCH_PARTNER.id}, ${userId}, 'crew', ${clock.now()})`;
    try {
      expect(await runOperation(pageOperations.managedBusinesses, call(person()), {})).toEqual([]);
      await sql`update business_members set role = 'manager' where user_id = ${userId}`;
      expect(await runOperation(pageOperations.managedBusinesses, call(person()), {})).toEqual([
        { businessId: STELLENBOSCH_PARTNER.id, name: STELLENBOSCH_PARTNER.name, role: 'manager' },
      ]);
      await badInput(pageOperations.managedBusinesses, person(), { businessId: STELLENBOSCH_PARTNER.id });
    } finally {
      await sql`delete from business_members where user_id = ${userId}`;
    }
  });

  it('opens a sign-up draft for anyone holding its link; keeps one only for the person signed in', async () => {
    const made = await server.post('/v1/signup-drafts', {
      businessName: 'Door Grooming',
      town: 'Stellenbosch',
      consent: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const draftId = made.body.draftId as string;
    await refusesStrangers(pageOperations.draftForPage, { draftId }, ['visitor', 'person']);
    for (const kind of ['visitor', 'person'] as const)
      expect(await runOperation(pageOperations.draftForPage, call(as(kind)), { draftId })).toMatchObject({
        draftId,
        name: 'Door Grooming',
        ownerId: null,
      });
    expect(
      await runOperation(pageOperations.draftForPage, call(as('visitor')), { draftId: 'drf_none' }),
    ).toBeNull();
    await badInput(pageOperations.draftForPage, as('visitor'), { draftId: 'd'.repeat(101) });

    const ownerOf = async () =>
      (
        await server.db.sql<
          { user_id: string | null }[]
        >`select user_id from signup_drafts where id = ${draftId}`
      )[0]!.user_id;
    await refusesStrangers(pageOperations.keepDraft, { draftId }, ['person']);
    expect(await ownerOf()).toBeNull();
    const applicationId = await runOperation(pageOperations.keepDraft, call(person()), { draftId });
    expect(applicationId).toMatch(/^app_/);
    expect(await ownerOf()).toBe(userId);
  });

  it('opens a pay link for a visitor only: its token is all it takes', async () => {
    const booked = await bookFirstCardSlot(server, owner, '2026-12-01');
    const token = new URL(booked.payUrl).pathname.split('/').at(-1)!;
    await refusesStrangers(pageOperations.findPayLink, { token }, ['visitor']);
    const link = await runOperation(pageOperations.findPayLink, call(as('visitor')), { token });
    expect(link).toMatchObject({ state: 'open' });
    expect(link!.bookings.map((b) => b.id)).toEqual([booked.bookingId]);
    expect(
      await runOperation(pageOperations.findPayLink, call(as('visitor')), { token: 'no-such-token' }),
    ).toBeNull();
    await badInput(pageOperations.findPayLink, as('visitor'), { token: 't'.repeat(201) });
  });

  it("keeps and checks a gateway's notification only for that gateway; the check writes the events it declares", async () => {
    const booked = await bookFirstCardSlot(server, owner, '2026-11-27');
    const payment = await openPayment(server, booked.bookingId);
    const body = await signSandboxNotice(server, {
      paymentId: payment.id,
      gatewayRef: 'sbx_page_door_1',
      amountCents: payment.amount,
      outcome: 'COMPLETE',
    });
    const notices = async () => (await server.db.sql`select id from payment_notices`).length;
    const kept = await notices();
    const keep = { body, sourceIp: '127.0.0.1' };
    await refusesStrangers(pageOperations.keepPaymentNotice, keep, ['gateway']);
    // Another gateway than the one in use is not this one.
    const payfast = { principal: { kind: 'gateway', gateway: 'payfast' } as Principal };
    await expect(runOperation(pageOperations.keepPaymentNotice, call(payfast), keep)).rejects.toMatchObject({
      status: 403,
    });
    expect(await notices()).toBe(kept);
    const notice = await runOperation(pageOperations.keepPaymentNotice, call(as('gateway')), keep);
    expect(await notices()).toBe(kept + 1);

    const status = async () =>
      (
        await server.db.sql<
          { payment_status: string }[]
        >`select payment_status from bookings where id = ${booked.bookingId}`
      )[0]!.payment_status;
    const check = { noticeId: notice.id };
    await refusesStrangers(pageOperations.checkPaymentNotice, check, ['gateway']);
    await expect(runOperation(pageOperations.checkPaymentNotice, call(payfast), check)).rejects.toMatchObject(
      {
        status: 403,
      },
    );
    expect(await status()).toBe('PENDING');
    expect(
      await server.db
        .sql`select type from domain_events where subject_id = ${booked.bookingId} and type = 'booking.paid'`,
    ).toEqual([]);

    const settled = await runOperation(pageOperations.checkPaymentNotice, call(as('gateway')), check);
    expect(settled).toMatchObject({ outcome: 'APPLIED', bookingIds: [booked.bookingId], notice: 'DONE' });
    expect(await status()).toBe('PAID');
    const written = await server.db.sql<{ type: string; call_id: string | null; actor: { kind: string } }[]>`
      select type, call_id, actor from domain_events
      where call_id = (select call_id from domain_events where subject_id = ${booked.bookingId} and type = 'booking.paid')`;
    expect(written.map((e) => e.type)).toEqual(['booking.paid']);
    expect(written[0]!.call_id).not.toBeNull();
    expect(written[0]!.actor.kind).toBe('system');
    for (const e of written) expect(pageOperations.checkPaymentNotice.events).toContain(e.type);
    await badInput(pageOperations.checkPaymentNotice, as('gateway'), { noticeId: notice.id, body });
  });

  it('money for a booking cancelled meanwhile is owed back: booking.refund_due, declared', async () => {
    const booked = await bookFirstCardSlot(server, owner, '2026-11-30');
    const payment = await openPayment(server, booked.bookingId);
    const gone = await server.post(
      `/v1/bookings/${booked.bookingId}/cancel`,
      { confirm: true },
      { authorization: `Bearer ${owner.key}` },
    );
    expect(gone.status).toBe(200);
    const body = await signSandboxNotice(server, {
      paymentId: payment.id,
      gatewayRef: 'sbx_page_door_2',
      amountCents: payment.amount,
      outcome: 'COMPLETE',
    });
    const gateway = call(as('gateway'));
    const notice = await runOperation(pageOperations.keepPaymentNotice, gateway, {
      body,
      sourceIp: '127.0.0.1',
    });
    const settled = await runOperation(pageOperations.checkPaymentNotice, gateway, { noticeId: notice.id });
    expect(settled.outcome).toBe('APPLIED');
    const written = await server.db.sql<{ type: string }[]>`
      select type from domain_events
      where call_id = (select call_id from domain_events where subject_id = ${booked.bookingId} and type = 'booking.refund_due')`;
    expect(written.map((e) => e.type)).toEqual(['booking.refund_due']);
    for (const e of written) expect(pageOperations.checkPaymentNotice.events).toContain(e.type);
  });

  it('answers a URL the operation refuses with a 400 page saying why, never a 500', async () => {
    for (const [path, field] of [
      [`/pay/${'t'.repeat(201)}`, 'token'],
      [`/pay/${'t'.repeat(201)}/done`, 'token'],
      [`/business/drafts/drf_${'d'.repeat(100)}`, 'draftId'],
    ] as const) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(400);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain(`The request is not valid. ${field}:`);
    }
  });

  it('answers whether the person signed in is an operator, for that person only', async () => {
    await refusesStrangers(pageOperations.isOperator, {}, ['person']);
    expect(await runOperation(pageOperations.isOperator, call(person()), {})).toBe(false);
    await grantOperator(server.db.sql, userId, 'operator (test)', clock.now());
    expect(await runOperation(pageOperations.isOperator, call(person()), {})).toBe(true);
  });

  it("the confirmation page's read and answer run for the person, for their own confirmations only", async () => {
    const input = { confirmationId: 'cfm_none' };
    await refusesStrangers(pageOperations.confirmationForPage, input, ['person']);
    await refusesStrangers(pageOperations.answerConfirmation, { ...input, answer: 'confirm' }, ['person']);
    for (const op of [pageOperations.confirmationForPage, pageOperations.answerConfirmation]) {
      const err = await runOperation(op, call(person()), { ...input, answer: 'refuse' }).catch(
        (e: unknown) => e,
      );
      expect(err).toMatchObject({
        code: op === pageOperations.answerConfirmation ? 'NOT_FOUND' : 'BAD_REQUEST',
      });
    }
    await badInput(pageOperations.answerConfirmation, person(), { ...input, answer: 'maybe' });
    await badInput(pageOperations.confirmationForPage, person(), { confirmationId: 'c'.repeat(101) });
  });

  it("the MCP door's sessions run for a visitor (a client not yet known) only", async () => {
    const open = { endpoint: '/mcp', protocolVersion: '2025-11-25', capabilities: {}, clientName: null };
    await refusesStrangers(identityOperations.openMcpSessionOp, open, ['visitor']);
    const session = { endpoint: '/mcp', sessionId: 'nms_none' };
    await refusesStrangers(identityOperations.findMcpSessionOp, session, ['visitor']);
    await refusesStrangers(identityOperations.endMcpSessionOp, session, ['visitor']);
    const { sessionId } = await runOperation(identityOperations.openMcpSessionOp, call(as('visitor')), open);
    const found = (endpoint: string) =>
      runOperation(identityOperations.findMcpSessionOp, call(as('visitor')), { endpoint, sessionId });
    expect(await found('/mcp')).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientName: null,
    });
    expect(await found('/mcp/business')).toBeNull();
  });
});
