import { MAIL_BATCH } from '@nogpets/operations';
import { deliverPendingMail } from '@nogpets/operations/testing';
import {
  appendEvents,
  claimDueMail,
  markMailFailed,
  findOrCreateUser,
  insertNoticeMails,
  registerEventReader,
  takeEvents,
  transaction,
} from '@nogpets/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, openForm, postForm, startTestServer, type TestServer } from './harness.js';
import { type SmtpReceiver, startSmtpReceiver } from './smtp-receiver.js';

describe('mail through SMTP_URL (nodemailer to a real SMTP server on loopback)', () => {
  let smtp: SmtpReceiver;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'NogPets <hello@nogpets.test>' },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  it('delivers the sign-up mail at once, and keeps no copy of its link', async () => {
    const form = await openForm(server, '/signup');
    const res = await postForm(
      server,
      '/signup',
      { name: 'Anele', email: 'anele@example.com', next: '/account' },
      form,
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain('pnpm cli mail list');
    // Delivered right after the answer (not before it: its time would tell who has an account).
    await expect.poll(() => smtp.received.length).toBeGreaterThan(0);
    const mail = smtp.received.find((m) => m.subject === 'Confirm your email to finish your NogPets account');
    expect(mail?.from?.value[0]).toMatchObject({ name: 'NogPets', address: 'hello@nogpets.test' });
    expect(mail?.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe('anele@example.com');
    const link = /http:\/\/\S+\/signin\/email\?token=[\w-]+/.exec(mail?.text ?? '')?.[0];
    expect(link).toBeDefined();
    // The link from the real mail opens the confirmation page.
    const page = await fetch(link!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Continue as anele@example.com');
    await expect
      .poll(
        async () =>
          (
            await server.db.sql`select sent_at, body from mail_outbox where to_address = 'anele@example.com'`
          )[0],
      )
      .toMatchObject({ sent_at: expect.any(Date), body: null });
    const listed = await cli(server.db.url, ['mail', 'list', '--to', 'anele@example.com']);
    expect(listed.stdout).toContain('(text not kept after delivery)');
    expect(listed.stdout).not.toContain('token=');
  });

  it('when the SMTP server refuses, answers the same, keeps the mail, and the worker delivers it later', async () => {
    await findOrCreateUser(server.db.sql, 'later@example.com');
    smtp.refuse.add('later@example.com');
    const form = await openForm(server, '/signin/link');
    const res = await postForm(server, '/signin/link', { email: 'later@example.com' }, form);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('We have sent a mail to <strong>later@example.com</strong>');
    await expect
      .poll(
        async () =>
          (
            await server.db
              .sql`select sent_at, attempts, last_error from mail_outbox where to_address = 'later@example.com'`
          )[0],
      )
      .toMatchObject({
        sent_at: null,
        attempts: 1,
        last_error: expect.stringContaining('Mailbox unavailable'),
      });
    smtp.refuse.delete('later@example.com');
    const deps = server.service.runtime.deps;
    // A link mail that failed waits a minute before the worker's deliver-mail job tries it again.
    expect(await deliverPendingMail(deps)).toBe(0);
    const later = { ...deps, clock: { now: () => new Date(Date.now() + 61_000) } };
    expect(await deliverPendingMail(later)).toBe(1);
    expect(smtp.received.filter((m) => m.subject === 'Your NogPets sign-in link')).toHaveLength(1);
    // Delivered once: a second pass finds nothing to send.
    expect(await deliverPendingMail(later)).toBe(0);
  });

  it('sends several at once on a slow server, holding no transaction open meanwhile: readers of the events go on, and two passes never send one mail twice', async () => {
    const deps = server.service.runtime.deps;
    const now = deps.clock.now();
    const count = MAIL_BATCH + 3;
    const ids = await insertNoticeMails(
      server.db.sql,
      Array.from({ length: count }, (_, i) => ({
        to: `slow-${i}@example.com`,
        subject: `Slow ${i}`,
        body: 'Your booking is confirmed.',
        html: '<p>Your booking is confirmed.</p>',
        attachments: [],
        headers: {},
        kind: 'booking_confirmed',
        optional: false,
        eventId: `evt_slow_${i}`,
      })),
      now,
    );
    expect(ids).toHaveLength(count);
    const release = smtp.hold();
    let first: Promise<number> | undefined;
    let second: Promise<number> | undefined;
    try {
      first = deliverPendingMail(deps);
      // A whole batch is with the server at once, each waiting for its answer.
      await expect.poll(() => smtp.holding(), { timeout: 20_000 }).toBe(MAIL_BATCH);
      // A second pass meanwhile takes only what the first has not claimed.
      second = deliverPendingMail(deps);
      await expect
        .poll(
          async () =>
            (
              await server.db.sql<{ n: number }[]>`select count(*)::int as n from mail_outbox
                where id = any(${ids}) and leased_until > ${now}`
            )[0]!.n,
        )
        .toBe(count);
      // An event written now is read while the server still holds every mail: no sender holds
      // the transaction horizon the event readers wait behind.
      await registerEventReader(server.db.sql, 'slow-smtp-probe');
      const [eventId] = await appendEvents(server.db.sql, [
        {
          type: 'test.probe',
          version: 1,
          occurredAt: now,
          businessId: null,
          personId: null,
          subjectKind: 'test',
          subjectId: 'probe',
          actor: { kind: 'system', userId: null, clientName: null },
          data: {},
          operation: null,
          requestId: null,
          callId: null,
        },
      ]);
      await expect
        .poll(
          () =>
            transaction(server.db.sql, async (q) =>
              (await takeEvents(q, 'slow-smtp-probe', 1000)).events.map((e) => e.id),
            ),
          { timeout: 20_000 },
        )
        .toContain(eventId);
      expect(smtp.holding()).toBeGreaterThanOrEqual(MAIL_BATCH);
    } finally {
      release();
    }
    const [a, b] = await Promise.all([first!, second!]);
    expect(a + b).toBe(count);
    const got = smtp.received.filter((m) => m.subject?.startsWith('Slow '));
    expect(got).toHaveLength(count);
    expect(new Set(got.map((m) => m.messageId)).size).toBe(count);
    const rows = await server.db.sql<{ sent: number }[]>`select count(*)::int as sent from mail_outbox
      where id = any(${ids}) and sent_at is not null and leased_until is null and attempts = 1`;
    expect(rows[0]!.sent).toBe(count);
  });

  it('a sender whose lease ran out cannot mark failed the mail another sender has claimed since', async () => {
    const sql = server.db.sql;
    const t0 = new Date('2030-01-01T00:00:00Z');
    const [id] = await insertNoticeMails(
      sql,
      [
        {
          to: 'lease@example.com',
          subject: 'Lease',
          body: 'Body',
          html: '<p>Body</p>',
          attachments: [],
          headers: {},
          kind: 'booking_confirmed',
          optional: false,
          eventId: 'evt_lease',
        },
      ],
      t0,
    );
    const claim = (now: Date) =>
      claimDueMail(sql, { since: t0, now, leaseUntil: new Date(now.getTime() + 120_000), limit: 1, id });
    const [first] = await claim(t0);
    // While the first lease lives, nobody else takes it.
    expect(await claim(new Date(t0.getTime() + 60_000))).toEqual([]);
    const [second] = await claim(new Date(t0.getTime() + 121_000));
    expect(second?.leasedUntil).toEqual(new Date(t0.getTime() + 241_000));
    // The first sender's late failure changes nothing: the mail stays the second sender's.
    await markMailFailed(sql, id!, 'late', { retryAt: t0 }, first!.leasedUntil);
    const row = async () =>
      (
        await sql<{ attempts: number; leased: Date | null }[]>`
          select attempts, leased_until as leased from mail_outbox where id = ${id!}`
      )[0];
    expect(await row()).toEqual({ attempts: 0, leased: second!.leasedUntil });
    await markMailFailed(sql, id!, 'refused', { retryAt: t0 }, second!.leasedUntil);
    expect(await row()).toEqual({ attempts: 1, leased: null });
  });
});
