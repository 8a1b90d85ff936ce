import { deliverPendingMail } from '@nogpets/operations/testing';
import { findOrCreateUser } from '@nogpets/store';
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
    // The worker's deliver-mail job.
    expect(await deliverPendingMail(server.service.runtime.deps)).toBe(1);
    expect(smtp.received.filter((m) => m.subject === 'Your NogPets sign-in link')).toHaveLength(1);
    // Delivered once: a second pass finds nothing to send.
    expect(await deliverPendingMail(server.service.runtime.deps)).toBe(0);
  });
});
