// The invitation to a business's staff as a mail (issue 30: "invitations with accept/decline
// links"): its own outbox kind, sent over real SMTP on loopback by the worker's deliver-mail
// operation and parsed as it arrived (mailparser): a text and an HTML part, the business's name
// escaped, the time in the business's zone, two links. Each link opens the invitation's page in
// Chromium with that answer shown and changes nothing by itself; the button does. A refused SMTP
// attempt is retried with the notices' backoff, so the mail still goes after the sign-in link's
// 30-minute window.
import { mkdirSync } from 'node:fs';
import { hash } from '@node-rs/argon2';
import { createApiKey } from '@nogpets/operations/testing';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { type Browser, fixedClock, launchBrowser, type Page } from '@nogpets/test-utils';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob, startTestServer, type TestServer } from './harness.js';
import { type SmtpReceiver, startSmtpReceiver } from './smtp-receiver.js';

const clock = fixedClock('2026-03-11T04:00:00Z'); // Wednesday 06:00 in Johannesburg, 00:00 in New York
const PASSWORD = 'a long enough password';
const BUSINESS = 'biz_boland_paws';
/** Markup and quotes in the business's name and the job title: text in the HTML part, never markup. */
const NAME = 'Boland <b>Paws</b> & "Co"';
const JOB_TITLE = 'Walker <i>&"';
const OWNER = 'owner@partner.example';
const INVITED = 'invited.walker@example.com';
const REFUSED = 'slow.mailbox@example.com';

const toOf = (m: ParsedMail) => (m.to && !Array.isArray(m.to) ? m.to.value[0]?.address : '') ?? '';
const header = (m: ParsedMail, name: string) => m.headerLines.find((h) => h.key === name)?.line ?? '';

describe('the invitation mail: its own kind, text and HTML, Accept and Decline links', () => {
  let smtp: SmtpReceiver;
  let server: TestServer;
  let browser: Browser;
  let ownerKey: string;
  /** The HTML part as it arrived, looked at in Chromium below. */
  let mailHtml = '';

  /** The worker's deliver-mail job once. */
  const deliver = () => runJob(server, 'deliverMail', 'deliver-mail');
  /** Runs the job until a mail to `to` arrived (with a deadline), and answers it. */
  async function mailTo(to: string): Promise<ParsedMail> {
    await expect
      .poll(
        async () => {
          await deliver();
          return smtp.received.some((m) => toOf(m) === to);
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe(true);
    return smtp.received.find((m) => toOf(m) === to)!;
  }
  const invite = (email: string) =>
    server.post(
      '/v1/business/staff',
      {
        businessId: BUSINESS,
        email,
        role: 'crew',
        jobTitle: JOB_TITLE,
        resourceIds: ['bp-van-1'],
        confirm: true,
      },
      { authorization: `Bearer ${ownerKey}` },
    );
  const outboxRow = async (to: string) =>
    (
      await server.db.sql<
        {
          id: string;
          kind: string;
          html: string | null;
          attempts: number;
          next: Date | null;
          failed: Date | null;
          sent: Date | null;
          error: string | null;
        }[]
      >`select id, kind, html, attempts, next_attempt_at as next, failed_at as failed, sent_at as sent,
          last_error as error from mail_outbox where lower(to_address) = lower(${to}) order by seq desc limit 1`
    )[0]!;
  const invitationOf = async (email: string) =>
    (
      await server.db.sql<{ id: string; accepted: Date | null; declined: Date | null }[]>`
        select id, accepted_at as accepted, declined_at as declined from business_invitations
        where business_id = ${BUSINESS} and lower(email) = lower(${email})`
    )[0]!;

  async function signIn(page: Page, email: string, link: string) {
    await page.goto(link);
    await page.waitForURL(/\/signin\?next=/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await Promise.all([page.waitForURL(link), page.getByRole('button', { name: 'Sign in' }).click()]);
  }
  const seen = (page: Page) => page.locator('main').innerText();

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({
      clock,
      database: { demoDataAt: clock.now() },
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'NogPets <hello@nogpets.test>' },
    });
    browser = await launchBrowser();
    const sql = server.db.sql;
    // A business in another zone (New York keeps DST; Johannesburg has none) with markup in its name.
    await sql`update businesses set name = ${NAME}, timezone = 'America/New_York' where id = ${BUSINESS}`;
    ownerKey = (await createApiKey(sql, { email: OWNER, scopes: ['business:manage'] })).key;
    const invited = await findOrCreateUser(sql, INVITED, 'Ina Vited');
    await setPassword(sql, invited.id, await hash(PASSWORD));
    await sql`update users set email_verified = true where id = ${invited.id}`;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('arrives over SMTP as its own kind with a text and an escaped HTML part, in the business’s zone, with both links', async () => {
    const made = await invite(INVITED);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const invitation = await invitationOf(INVITED);
    const row = await outboxRow(INVITED);
    // Its own kind: due now, then retried with backoff (not a sign-in link's 30 minutes).
    expect(row).toMatchObject({ kind: 'staff_invitation', attempts: 0, next: clock.now(), failed: null });
    expect(row.html).toContain('&lt;b&gt;Paws&lt;/b&gt;');
    // The invitation.sent event, as before: once, for this invitation.
    const events = await server.db.sql`
      select data from domain_events where type = 'invitation.sent' and subject_id = ${invitation.id}`;
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ email: INVITED, role: 'crew', businessName: NAME });

    const mail = await mailTo(INVITED);
    expect(mail.subject).toBe(`${NAME} invites you to its staff on NogPets`);
    expect(mail.from?.value[0]).toMatchObject({ name: 'NogPets', address: 'hello@nogpets.test' });
    const url = `${server.url}/invitations/${invitation.id}`;
    // The text part: who, as what, until when in the business's zone, and the two links.
    const text = mail.text ?? '';
    expect(text).toContain(
      `${NAME} invites you to join its staff on NogPets as crew (${JOB_TITLE}) on Van 1 (Johan): a crew sees only their own day.`,
    );
    expect(text).toContain('Answer by: Wed, 25 Mar 2026, 00:00 (America/New_York time)');
    expect(text).toContain(`Accept the invitation: ${url}?answer=accept`);
    expect(text).toContain(`Decline the invitation: ${url}?answer=decline`);
    expect(text).toContain('nothing changes unless you accept');
    // The HTML part: every value escaped, the links as links.
    const htmlPart = typeof mail.html === 'string' ? mail.html : '';
    mailHtml = htmlPart;
    expect(htmlPart).toContain('Boland &lt;b&gt;Paws&lt;/b&gt; &amp; &quot;Co&quot;');
    expect(htmlPart).toContain('Walker &lt;i&gt;&amp;&quot;');
    expect(htmlPart).not.toContain('<b>Paws');
    expect(htmlPart).not.toContain('<i>&');
    const hrefs = [...htmlPart.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual([`${url}?answer=accept`, `${url}?answer=decline`]);
    // A mail that must go: no unsubscribe header.
    expect(header(mail, 'list-unsubscribe')).toBe('');
    // Delivered: the row is sent and its parts dropped.
    expect(await outboxRow(INVITED)).toMatchObject({ attempts: 1, html: null, sent: expect.any(Date) });
  });

  it('each link opens the page with its answer shown and changes nothing; the button does', async () => {
    const invitation = await invitationOf(INVITED);
    const url = `${server.url}/invitations/${invitation.id}`;
    mkdirSync('/tmp/shots', { recursive: true });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      // The mail as a mail client shows it: the name as text, both links as buttons.
      await page.setContent(mailHtml);
      const read = await page.locator('body').innerText();
      expect(read).toContain(`${NAME} invites you to join its staff`);
      expect(await page.getByRole('link', { name: 'Accept the invitation' }).getAttribute('href')).toBe(
        `${url}?answer=accept`,
      );
      expect(await page.getByRole('link', { name: 'Decline the invitation' }).getAttribute('href')).toBe(
        `${url}?answer=decline`,
      );
      await page.screenshot({ path: '/tmp/shots/invitation-mail.png', fullPage: true });

      // Signed out, the Decline link leads to the sign-in and back to itself, its answer kept.
      await signIn(page, INVITED, `${url}?answer=decline`);
      let shown = await seen(page);
      expect(shown).toContain(
        `${NAME} invites you to join its staff as crew (${JOB_TITLE}) on Van 1 (Johan).`,
      );
      expect(shown).toContain('You chose Decline in the mail.');
      expect(shown).not.toContain('You chose Accept');
      expect(await page.locator('main button').first().innerText()).toBe('Decline');
      expect(await page.locator('main button:focus').innerText()).toBe('Decline');
      await page.screenshot({ path: '/tmp/shots/invitation-decline.png', fullPage: true });

      await page.goto(`${url}?answer=accept`);
      shown = await seen(page);
      expect(shown).toContain('You chose Accept in the mail.');
      expect(shown).not.toContain('You chose Decline');
      // The page says until when in the business's zone, named, as the mail does.
      expect(shown).toContain('It waits until Wed, 25 Mar 2026, 00:00 (America/New_York time).');
      expect(await page.locator('main button').first().innerText()).toBe(`Accept and join ${NAME}`);
      await page.screenshot({ path: '/tmp/shots/invitation-accept.png', fullPage: true });

      // Without an answer (or with one no link makes): no choice shown.
      for (const query of ['', '?answer=yes', '?answer=ACCEPT']) {
        await page.goto(url + query);
        shown = await seen(page);
        expect(shown).toContain(`${NAME} invites you to join its staff`);
        expect(shown).not.toContain('You chose');
      }

      // Opening the links (as a mail scanner would) answered nothing.
      expect(await invitationOf(INVITED)).toMatchObject({ accepted: null, declined: null });
      const members = () =>
        server.db.sql`select 1 from business_members m join users u on u.id = m.user_id
          where m.business_id = ${BUSINESS} and lower(u.email) = ${INVITED}`;
      expect(await members()).toHaveLength(0);

      // The person presses the button: then it is accepted.
      await page.goto(`${url}?answer=accept`);
      await Promise.all([
        page.waitForURL(`${url}/accept`),
        page.getByRole('button', { name: `Accept and join ${NAME}` }).click(),
      ]);
      expect(await seen(page)).toContain(`You are on the staff of ${NAME} now, as crew.`);
      expect(await invitationOf(INVITED)).toMatchObject({ accepted: expect.any(Date), declined: null });
      expect(await members()).toHaveLength(1);
      // Answered: a link opened later shows its state, and no choice.
      await page.goto(`${url}?answer=decline`);
      shown = await seen(page);
      expect(shown).toContain('You accepted this invitation');
      expect(shown).not.toContain('You chose');
    } finally {
      await context.close();
    }
  });

  it('a refused SMTP attempt is retried with backoff, and still sent after the 30 minutes a sign-in link lives', async () => {
    smtp.refuse.add(REFUSED);
    const start = clock.now();
    try {
      expect((await invite(REFUSED)).status).toBe(201);
      await expect
        .poll(
          async () => {
            await deliver();
            return (await outboxRow(REFUSED)).attempts;
          },
          { timeout: 60_000, interval: 100 },
        )
        .toBe(1);
      const failed = await outboxRow(REFUSED);
      expect(failed).toMatchObject({
        kind: 'staff_invitation',
        sent: null,
        failed: null,
        error: expect.stringContaining('Mailbox unavailable'),
      });
      // The notices' backoff: the next attempt a minute later, not the next pass.
      expect(failed.next!.getTime() - clock.now().getTime()).toBe(60_000);
      await deliver();
      expect((await outboxRow(REFUSED)).attempts).toBe(1);

      // 45 minutes on (a sign-in link's mail would no longer be tried), the mailbox takes it.
      clock.set(new Date(start.getTime() + 45 * 60_000));
      smtp.refuse.delete(REFUSED);
      const mail = await mailTo(REFUSED);
      expect(mail.subject).toBe(`${NAME} invites you to its staff on NogPets`);
      expect(typeof mail.html === 'string' && mail.html.includes('Boland &lt;b&gt;Paws')).toBe(true);
      expect(await outboxRow(REFUSED)).toMatchObject({ attempts: 2, sent: expect.any(Date), failed: null });
    } finally {
      smtp.refuse.delete(REFUSED);
      clock.set(start);
    }
  });
});
