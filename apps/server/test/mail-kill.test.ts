// A worker killed with SIGKILL while it delivers a mail (the outbox pass in its own process, nodemailer
// to a real SMTP server on loopback): the mail was claimed for a lease, so no other pass sends it
// while the lease lives; killed before the SMTP server accepted the mail, the first pass after the
// lease sends it once; killed after the accept and before the mail was marked sent, that pass sends
// it again with the same Message-ID (at least once: docs/decisions.md, "Mail to people"). No mail is
// lost either way.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAIL_LEASE_MS } from '@nogpets/operations';
import { deliverPendingMail } from '@nogpets/operations/testing';
import { insertNoticeMails } from '@nogpets/store';
import { fixedClock, type TestClock } from '@nogpets/test-utils';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('a worker killed while it delivers a mail', () => {
  const clock = fixedClock('2026-11-23T04:00:00Z');
  const received: ParsedMail[] = [];
  /** What the SMTP server does when a mail's data arrives: accept it, or not. */
  let onMail: (accept: () => void, refuse: () => void) => void = (accept) => accept();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) =>
          onMail(
            () => {
              received.push(mail);
              callback();
            },
            () => callback(Object.assign(new Error('gone'), { responseCode: 451 })),
          ),
        (err: Error) => callback(err),
      );
    },
  });
  let server: TestServer;
  let smtpUrl = '';

  beforeAll(async () => {
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
    server = await startTestServer({
      clock,
      env: { SMTP_URL: smtpUrl, MAIL_FROM: 'NogPets <hello@nogpets.test>' },
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  /** A notice in the outbox, due now. */
  async function queue(to: string): Promise<string> {
    const [id] = await insertNoticeMails(
      server.db.sql,
      [
        {
          to,
          subject: `Booked (${to})`,
          body: 'Your booking is confirmed.',
          html: '<p>Your booking is confirmed.</p>',
          attachments: [],
          headers: {},
          kind: 'booking_confirmed',
          optional: false,
          eventId: `evt_${to}`,
        },
      ],
      clock.now(),
    );
    return id!;
  }

  function worker(): ChildProcess {
    return spawn(process.execPath, ['--import', 'tsx', path.join(here, 'mail-kill-child.ts')], {
      cwd: path.join(here, '..'),
      env: { ...process.env, DATABASE_URL: server.db.url, SMTP_URL: smtpUrl, NOW: clock.now().toISOString() },
      stdio: 'ignore',
    });
  }
  const exited = (child: ChildProcess) =>
    new Promise<void>((r) =>
      child.exitCode !== null || child.signalCode !== null ? r() : child.on('exit', () => r()),
    );
  const row = async (id: string) =>
    (
      await server.db.sql<{ sentAt: Date | null; attempts: number }[]>`
        select sent_at as "sentAt", attempts from mail_outbox where id = ${id}`
    )[0]!;
  const pass = (at: TestClock) => deliverPendingMail({ ...server.service.runtime.deps, clock: at });
  /** The killed worker's lease holds the mail back; the first pass after it sends it. */
  const nextPass = async () => {
    expect(await pass(clock)).toBe(0);
    expect(await pass(fixedClock(new Date(clock.now().getTime() + MAIL_LEASE_MS - 1000)))).toBe(0);
    expect(await pass(afterLease)).toBe(1);
  };
  const afterLease = fixedClock(new Date(clock.now().getTime() + MAIL_LEASE_MS + 1000));
  const copies = (to: string) => received.filter((m) => m.subject === `Booked (${to})`);

  it('killed before the SMTP server accepted: the mail waits out its lease, and the next pass sends it once', async () => {
    const to = 'before-accept@example.com';
    const id = await queue(to);
    const child = worker();
    onMail = (_accept, refuse) => {
      child.kill('SIGKILL');
      refuse();
    };
    await exited(child);
    onMail = (accept) => accept();
    expect(await row(id)).toMatchObject({ sentAt: null });
    expect(copies(to)).toHaveLength(0);
    await nextPass();
    expect(copies(to)).toHaveLength(1);
    expect((await row(id)).sentAt).toEqual(afterLease.now());
  });

  it('killed after the accept, before the mail was marked sent: sent again, with the same Message-ID', async () => {
    const to = 'after-accept@example.com';
    const id = await queue(to);
    const child = worker();
    onMail = (accept) => {
      accept();
      // Before the worker can read the server's 250 and commit.
      child.kill('SIGKILL');
    };
    await exited(child);
    onMail = (accept) => accept();
    expect(copies(to)).toHaveLength(1);
    expect(await row(id)).toMatchObject({ sentAt: null, attempts: 0 });
    await nextPass();
    const both = copies(to);
    expect(both).toHaveLength(2);
    expect(both[0]!.messageId).toBe(`<${id}@nogpets.test>`);
    expect(both[1]!.messageId).toBe(both[0]!.messageId);
    expect((await row(id)).sentAt).toEqual(afterLease.now());
    // Marked sent: no third copy.
    expect(await pass(afterLease)).toBe(0);
  });
});
