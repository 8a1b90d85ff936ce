import {
  defineOperation,
  type EventData,
  EventEnvelopeSchema,
  type EventType,
  envelopeOf,
  type OperationContext,
  runOperation,
  ServiceError,
} from '@nogpets/operations';
import { recordEvent, sourceOf, systemSource } from '@nogpets/operations/testing';
import { listEvents } from '@nogpets/store';
import { createTestDatabase, fixedClock, type TestDatabase } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// Domain events are written in the transaction of their change: they commit with it or not at all,
// they are never changed afterwards, and (under CHECK_OUTPUTS, as in every test) a call may write
// only the events its operation declares, and none when it is refused.
describe('domain events commit with their change or not at all', () => {
  let db: TestDatabase;
  const clock = fixedClock('2026-12-07T09:00:00Z');
  let n = 0;
  /** A subject of its own for each event, so a test counts only what it wrote. */
  const nextSubject = () => `app_events_atomic_${++n}`;

  beforeAll(async () => {
    db = await createTestDatabase({ demoData: false });
  });
  afterAll(() => db?.drop());

  const submitted = (subjectId: string) => ({
    type: 'application.submitted' as const,
    businessId: null,
    personId: 'usr_events_atomic',
    subjectId,
    data: {
      applicationId: subjectId,
      businessName: 'Suds & Tails',
      country: 'ZA',
      category: ['grooming'],
    } satisfies EventData<'application.submitted'>,
  });
  const eventsOf = (subjectId: string) => listEvents(db.sql, { subjectId });
  const source = () => systemSource('events-atomic-test', clock.now());

  it('keeps an event whose transaction committed, in the documented envelope', async () => {
    const subject = nextSubject();
    await db.sql.begin((tx) => recordEvent(tx, source(), submitted(subject)));
    const [row, ...more] = await eventsOf(subject);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ type: 'application.submitted', version: 1, subjectKind: 'application' });
    const envelope = EventEnvelopeSchema.parse(envelopeOf(row!));
    expect(envelope).toMatchObject({
      subject: { kind: 'application', id: subject },
      occurredAt: '2026-12-07T09:00:00.000Z',
      actor: { kind: 'system', userId: null, clientName: null },
      data: submitted(subject).data,
    });
  });

  it('leaves no row when the transaction it was written in fails afterwards', async () => {
    const subject = nextSubject();
    await expect(
      db.sql.begin(async (tx) => {
        await recordEvent(tx, source(), submitted(subject));
        // Written and visible inside the transaction...
        expect((await listEvents(tx, { subjectId: subject })).length).toBe(1);
        throw new Error('the change failed after its event');
      }),
    ).rejects.toThrow('the change failed after its event');
    // ...and gone with it.
    expect(await eventsOf(subject)).toEqual([]);
  });

  it('refuses to change or remove a written event', async () => {
    const subject = nextSubject();
    await db.sql.begin((tx) => recordEvent(tx, source(), submitted(subject)));
    const [before] = await eventsOf(subject);
    await expect(
      db.sql`update domain_events set type = 'application.rejected' where subject_id = ${subject}`,
    ).rejects.toThrow(/append-only/);
    await expect(
      db.sql`update domain_events set data = '{}'::jsonb where subject_id = ${subject}`,
    ).rejects.toThrow(/append-only/);
    await expect(db.sql`delete from domain_events where subject_id = ${subject}`).rejects.toThrow(
      /append-only/,
    );
    expect(await eventsOf(subject)).toEqual([before]);
  });

  it('refuses data that does not match its shape, writing nothing', async () => {
    const subject = nextSubject();
    const bad = { ...submitted(subject), data: { ...submitted(subject).data, country: 'South Africa' } };
    await expect(recordEvent(db.sql, source(), bad)).rejects.toThrow(
      /application\.submitted does not match its shape: country/,
    );
    const missing = { ...submitted(subject), data: { applicationId: subject } as never };
    await expect(recordEvent(db.sql, source(), missing)).rejects.toThrow(/businessName/);
    expect(await eventsOf(subject)).toEqual([]);

    // In a transaction, the bad event takes the change and its other events down with it.
    const other = nextSubject();
    await expect(
      db.sql.begin(async (tx) => {
        await recordEvent(tx, source(), submitted(other));
        await recordEvent(tx, source(), bad);
      }),
    ).rejects.toThrow(/does not match its shape/);
    expect(await eventsOf(other)).toEqual([]);
    expect(await eventsOf(subject)).toEqual([]);
  });

  describe('under CHECK_OUTPUTS, a call writes only what its operation declares', () => {
    const CHANGE = {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    };

    /** A change operation declaring `events`, whose handler does what the test says. */
    const fakeOperation = (
      operationId: string,
      events: EventType[],
      handler: (ctx: OperationContext, subject: string) => Promise<void>,
    ) =>
      defineOperation({
        operationId,
        toolName: operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
        title: operationId,
        tag: 'Test',
        mcp: 'none',
        method: 'POST',
        path: `/v1/test/${operationId}`,
        inputIn: 'body',
        auth: 'public',
        description: 'A change operation of this test only.',
        input: z.object({ subject: z.string() }),
        output: z.object({ done: z.boolean() }),
        successStatus: 200,
        errors: [],
        events,
        annotations: CHANGE,
        async handler(ctx, input) {
          await handler(ctx, input.subject);
          return { done: true };
        },
      });

    const call = (op: ReturnType<typeof fakeOperation>, subject: string) =>
      runOperation(
        op,
        {
          deps: { sql: db.sql, clock, checkOutputs: true },
          requestId: `req_${subject}`,
          clientName: 'Events test',
          auth: null,
          log: { info() {}, warn() {}, error() {} },
        } as unknown as OperationContext,
        { subject },
      );

    it('passes a call that writes an event it declares, naming the call on the row', async () => {
      const subject = nextSubject();
      const op = fakeOperation('submitDeclared', ['application.submitted'], (ctx, s) =>
        ctx.deps.sql.begin((tx) => recordEvent(tx, sourceOf(ctx), submitted(s))),
      );
      await expect(call(op, subject)).resolves.toEqual({ done: true });
      const [row, ...more] = await eventsOf(subject);
      expect(more).toEqual([]);
      expect(row).toMatchObject({ operation: 'submitDeclared', requestId: `req_${subject}` });
      expect(row!.callId).toMatch(/^[0-9a-f-]{36}$/);
      expect(row!.actor).toEqual({ kind: 'system', userId: null, clientName: 'Events test' });
    });

    it('fails a call that writes an event it does not declare', async () => {
      const subject = nextSubject();
      const op = fakeOperation('submitUndeclared', ['application.submitted'], (ctx, s) =>
        ctx.deps.sql.begin((tx) =>
          recordEvent(tx, sourceOf(ctx), {
            ...submitted(s),
            type: 'application.rejected',
            data: { ...submitted(s).data, note: null },
          }),
        ),
      );
      await expect(call(op, subject)).rejects.toThrow(
        'submitUndeclared wrote events it does not declare: application.rejected',
      );
      const none = fakeOperation('declaresNone', [], (ctx, s) =>
        ctx.deps.sql.begin((tx) => recordEvent(tx, sourceOf(ctx), submitted(s))),
      );
      await expect(call(none, nextSubject())).rejects.toThrow(
        'declaresNone wrote events it does not declare: application.submitted',
      );
    });

    it('reports a call refused after its events committed as "refused but wrote events"', async () => {
      const subject = nextSubject();
      const op = fakeOperation('refusedAfterWriting', ['application.submitted'], async (ctx, s) => {
        await ctx.deps.sql.begin((tx) => recordEvent(tx, sourceOf(ctx), submitted(s)));
        throw new ServiceError('NOT_READY', 'Refused after the change committed.');
      });
      const failure = await call(op, subject).catch((err: unknown) => err);
      expect(failure).not.toBeInstanceOf(ServiceError);
      expect(String(failure)).toContain(
        'refusedAfterWriting was refused or failed but wrote events: application.submitted',
      );
      expect((await eventsOf(subject)).map((e) => e.type)).toEqual(['application.submitted']);
    });

    it('passes the refusal through when the refused transaction took its events with it', async () => {
      const subject = nextSubject();
      const op = fakeOperation('refusedInTransaction', ['application.submitted'], (ctx, s) =>
        ctx.deps.sql.begin(async (tx) => {
          await recordEvent(tx, sourceOf(ctx), submitted(s));
          throw new ServiceError('NOT_READY', 'Refused inside the transaction.');
        }),
      );
      const failure = await call(op, subject).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(ServiceError);
      expect(failure).toMatchObject({ code: 'NOT_READY', message: 'Refused inside the transaction.' });
      expect(await eventsOf(subject)).toEqual([]);
    });
  });
});
