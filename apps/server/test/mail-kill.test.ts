// A worker killed with SIGKILL while it delivers a mail (the outbox pass in its own process, nodemailer
// to a real SMTP server on loopback): killed before the SMTP server accepted the mail, the next pass
// sends it once; killed after the accept and before the mail was marked sent, the next pass sends it
// again with the same Message-ID (at least once: docs/decisions.md, "Mail to people"). No mail is
// lost either way.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deliverPendingMail } from '@nogpets/operations/testing';
import { insertNoticeMails } from '@nogpets/store';
import { fixedClock } from '@nogpets/test-utils';
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
  /** The next pass, once the killed worker's transaction has ended (its row lock goes with it). */
  const nextPass = async () => {
    await expect
      .poll(() => deliverPendingMail({ ...server.service.runtime.deps, clock }), { timeout: 15_000 })
      .toBe(1);
  };
  const copies = (to: string) => received.filter((m) => m.subject === `Booked (${to})`);

  it('killed before the SMTP server accepted: the mail is still due, and the next pass sends it once', async () => {
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
    expect((await row(id)).sentAt).toEqual(clock.now());
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
    expect((await row(id)).sentAt).toEqual(clock.now());
    // Marked sent: no third copy.
    expect(await deliverPendingMail({ ...server.service.runtime.deps, clock })).toBe(0);
  });
});
