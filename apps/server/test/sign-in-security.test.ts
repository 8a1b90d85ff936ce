import { createServer, type Server } from 'node:http';
import { hash } from '@node-rs/argon2';
import { findOrCreateUser, findUserByEmail, setPassword } from '@nogpets/store';
import { type Browser, fixedClock, launchBrowser } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, mailedLink, openForm, postForm, startTestServer, type TestServer } from './harness.js';

const hasSession = (res: Response) =>
  res.headers
    .getSetCookie()
    .some((c) => c.startsWith('nogpets_session=') && !c.startsWith('nogpets_session=;'));

describe('sign-up and sign-in links: nobody takes over an account', () => {
  const clock = fixedClock('2026-11-23T08:00:00Z');
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer({ clock });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a sign-up with the email of an account without a password signs nobody in and changes nothing', async () => {
    // The account an assistant's API key made: no password, a pet with a gate code in its notes.
    const key = (
      await cli(server.db.url, ['key', 'create', '--email', 'victim@example.com', '--scopes', 'profile,pets'])
    ).lastLine;
    const pet = await server.post(
      '/v1/pets',
      { name: 'Bella', type: 'DOG', weightKg: 20, coat: 'LONG', notes: 'Gate code 4321' },
      { authorization: `Bearer ${key}` },
    );
    expect(pet.status).toBe(201);
    const before = await findUserByEmail(server.db.sql, 'victim@example.com');

    const form = await openForm(server, '/signup');
    const res = await postForm(
      server,
      '/signup',
      { name: 'Mallory', email: 'victim@example.com', next: '/account' },
      form,
    );
    expect(res.status).toBe(200);
    expect(hasSession(res)).toBe(false);
    expect(await res.text()).toContain('We have sent a mail to <strong>victim@example.com</strong>');
    expect(await findUserByEmail(server.db.sql, 'victim@example.com')).toEqual(before);
    // Nothing behind the account opens with the form's cookies.
    const account = await fetch(`${server.url}/account`, {
      headers: { cookie: form.cookie },
      redirect: 'manual',
    });
    expect(account.status).toBe(303);
    expect(account.headers.get('location')).toMatch(/^\/signin/);
    const audit = await server.db
      .sql`select action from audit_log where user_id = ${before!.id} and action like 'account.%'`;
    expect(audit).toEqual([]);

    // The owner is told, in the mail, that nothing changed and how to sign in if it was them.
    const mail = await mailedLink(server, 'victim@example.com');
    expect(mail.subject).toBe('You already have a NogPets account');
    expect(mail.body).toContain('nothing was created or changed');
  });

  it('answers a sign-up the same whether the address is new, has an account, or has one with a password', async () => {
    const owner = await findOrCreateUser(server.db.sql, 'owner@example.com', 'Owner');
    await setPassword(server.db.sql, owner.id, await hash('the owner password'));
    await findOrCreateUser(server.db.sql, 'nopassword@example.com');
    const answers: string[] = [];
    for (const email of ['fresh@example.com', 'nopassword@example.com', 'owner@example.com']) {
      const form = await openForm(server, '/signup');
      const res = await postForm(server, '/signup', { name: 'Someone', email, next: '/account' }, form);
      expect(res.status).toBe(200);
      expect(hasSession(res)).toBe(false);
      answers.push((await res.text()).replaceAll(email, 'EMAIL'));
    }
    expect(new Set(answers).size).toBe(1);
    expect(await findUserByEmail(server.db.sql, 'fresh@example.com')).toBeNull();
    expect((await mailedLink(server, 'fresh@example.com')).subject).toBe(
      'Confirm your email to finish your NogPets account',
    );
    expect((await mailedLink(server, 'owner@example.com')).body).toContain('Your password is unchanged');
  });

  it('the link shows whose account it opens, signs in on a click with a password chosen there, and works once', async () => {
    const { link } = await mailedLink(server, 'victim@example.com');
    const context = await browser.newContext();
    const page = await context.newPage();
    // Opening it (as a mail scanner would, too) uses nothing up.
    await page.goto(link);
    await page.goto(link);
    await expect(page.locator('main').innerText()).resolves.toContain(
      'Sign in to NogPets as victim@example.com.',
    );
    await page.getByLabel(/Choose a password/).fill('the victim chose this');
    await page.getByRole('button', { name: 'Continue as victim@example.com' }).click();
    await page.waitForURL(`${server.url}/account`);
    await expect(page.locator('main').innerText()).resolves.toContain('victim@example.com');
    const user = await findUserByEmail(server.db.sql, 'victim@example.com');
    // The name Mallory typed on the sign-up form is not put on an existing account.
    expect(user).toMatchObject({ name: '', passwordHash: expect.stringMatching(/^\$argon2id\$/) });
    // Used: the same link again is refused, in any browser.
    await page.goto(link);
    await expect(page.locator('main').innerText()).resolves.toContain(
      'This sign-in link has expired or was already used.',
    );
    await context.close();
    // The password chosen on the link's page signs in.
    const form = await openForm(server, '/signin');
    const signIn = await postForm(
      server,
      '/signin',
      { email: 'victim@example.com', password: 'the victim chose this', next: '/account' },
      form,
    );
    expect(signIn.status).toBe(303);
    expect(hasSession(signIn)).toBe(true);
  });

  it('keeps only a hash of the link, and refuses it once its 30 minutes are over', async () => {
    const form = await openForm(server, '/signin/link');
    expect(
      (await postForm(server, '/signin/link', { email: 'owner@example.com', next: '/account' }, form)).status,
    ).toBe(200);
    const { link } = await mailedLink(server, 'owner@example.com');
    const token = new URL(link).searchParams.get('token')!;
    const rows = await server.db.sql`select token_hash from email_links`;
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(token);
    for (const r of rows) expect(r.token_hash).toMatch(/^[0-9a-f]{64}$/);
    clock.advance(31 * 60_000);
    try {
      const page = await openForm(server, '/signin');
      const used = await postForm(server, '/signin/email', { token }, page);
      expect(used.status).toBe(400);
      expect(hasSession(used)).toBe(false);
      expect((await fetch(link)).status).toBe(400);
    } finally {
      clock.advance(-31 * 60_000);
    }
  });

  it('asks for a sign-in link without telling who has an account, and mails only an account holder', async () => {
    const answers: string[] = [];
    for (const email of ['nobody@example.com', 'nopassword@example.com']) {
      const form = await openForm(server, '/signin/link');
      const res = await postForm(server, '/signin/link', { email, next: '/account' }, form);
      expect(res.status).toBe(200);
      answers.push((await res.text()).replaceAll(email, 'EMAIL'));
    }
    expect(answers[0]).toBe(answers[1]);
    await expect(mailedLink(server, 'nobody@example.com')).rejects.toThrow(/no link mailed/);
    expect((await mailedLink(server, 'nopassword@example.com')).subject).toBe('Your NogPets sign-in link');
  });

  it.each([
    'ceo.example.com<a@evil.example>',
    'a,b,victim@example.com',
    'victim@example.com (boss)',
    '"x"@example.com',
  ])(
    'refuses %s: one plain mailbox or nothing, so no mail goes to an address the account does not name',
    async (email) => {
      const form = await openForm(server, '/signup');
      const res = await postForm(server, '/signup', { name: 'Someone', email }, form);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('That is not an email address.');
      expect(
        (await server.db.sql`select count(*)::int as n from mail_outbox where to_address = ${email}`)[0]!.n,
      ).toBe(0);
    },
  );

  it('answers NUL in the sign-up, sign-in and link forms with a 400 page naming the field, and writes nothing', async () => {
    const form = await openForm(server, '/signup');
    const refused = async (path: string, fields: Record<string, string>, field: string) => {
      const res = await postForm(server, path, fields, form);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(
        `The ${field} field was not accepted. Text may not contain the NUL character`,
      );
    };
    await refused('/signup', { name: 'Nul\u0000Name', email: 'nul@example.com' }, 'name');
    expect(await server.db.sql`select 1 from email_links where email = 'nul@example.com'`).toHaveLength(0);
    await refused('/signup', { name: 'x', email: 'a\u0000@example.com' }, 'email');
    await refused('/signin', { email: 'a\u0000@example.com', password: 'whatever it is' }, 'email');
    await refused('/signin/link', { email: 'a\u0000@example.com' }, 'email');
    await refused('/signin/email', { token: 'x\u0000y' }, 'token');
    // Other control characters in a name are still only blanked.
    expect(
      (await postForm(server, '/signup', { name: 'Tab\u0001Name', email: 'ctl@example.com' }, form)).status,
    ).toBe(200);
    expect((await server.db.sql`select name from email_links where email = 'ctl@example.com'`)[0]?.name).toBe(
      'Tab Name',
    );
  });

  it('mails at most 5 links an hour to one address, then refuses with 429 saying so', async () => {
    const before = (
      await server.db.sql`select count(*)::int as n from mail_outbox where to_address = 'flood@example.com'`
    )[0]!.n;
    expect(before).toBe(0);
    await findOrCreateUser(server.db.sql, 'flood@example.com');
    for (let i = 0; i < 7; i++) {
      const form = await openForm(server, '/signin/link');
      const res = await postForm(server, '/signin/link', { email: 'flood@example.com' }, form);
      expect(res.status).toBe(i < 5 ? 200 : 429);
      if (i >= 5) expect(await res.text()).toContain('No mail was sent to');
    }
    const [{ n }] = (await server.db
      .sql`select count(*)::int as n from mail_outbox where to_address = 'flood@example.com'`) as unknown as [
      { n: number },
    ];
    expect(n).toBe(5);
  });
});

describe('login CSRF: forms from other sites are refused', () => {
  let server: TestServer;
  let browser: Browser;
  let evil: Server;
  let evilUrl: string;
  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    const attacker = await findOrCreateUser(server.db.sql, 'attacker@example.com', 'Attacker');
    await setPassword(server.db.sql, attacker.id, await hash('attacker password'));
    // Another site (127.0.0.1 is another site than localhost) whose page auto-submits our sign-in form.
    evil = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><form id="f" method="post" action="${server.url}/signin">
        <input name="email" value="attacker@example.com"><input name="password" value="attacker password"><input name="next" value="/account">
        </form><script>document.getElementById('f').submit()</script>`);
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()));
    evilUrl = `http://127.0.0.1:${(evil.address() as { port: number }).port}/`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => evil?.close(r));
    await server?.stop();
  });

  it('a page on another site that auto-submits the sign-in form leaves the browser signed out', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // The victim has used NogPets before, so the browser holds a pre-session cookie.
    await page.goto(`${server.url}/signin`);
    await page.goto(evilUrl);
    await page.waitForURL(`${server.url}/signin`);
    await expect
      .poll(() => page.locator('main').innerText())
      .toContain('This form was sent from another site, so it was refused.');
    expect((await context.cookies()).find((c) => c.name === 'nogpets_session')).toBeUndefined();
    await context.close();
  });

  it('refuses sign-in and sign-up posts without the form token, or marked cross-site, or from another origin', async () => {
    const credentials = { email: 'attacker@example.com', password: 'attacker password', next: '/account' };
    const noToken = await postForm(server, '/signin', credentials);
    expect(noToken.status).toBe(403);
    expect(hasSession(noToken)).toBe(false);
    // A token from one browser does not fit another browser's cookie.
    const mine = await openForm(server, '/signin');
    const theirs = await openForm(server, '/signin');
    const mixed = await postForm(server, '/signin', credentials, { cookie: mine.cookie, csrf: theirs.csrf });
    expect(mixed.status).toBe(403);
    const foreign: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ];
    for (const headers of foreign) {
      for (const path of ['/signin', '/signup', '/signin/link', '/signin/email']) {
        const res = await postForm(server, path, { ...credentials, name: 'x' }, mine, headers);
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(hasSession(res)).toBe(false);
      }
    }
    // The same form, same-site and with its token, works.
    const ok = await postForm(server, '/signin', credentials, mine, {
      'sec-fetch-site': 'same-origin',
      origin: server.url,
    });
    expect(ok.status).toBe(303);
    expect(hasSession(ok)).toBe(true);
    expect((await server.db.sql`select count(*)::int as n from mail_outbox`)[0]!.n).toBe(0);
  });

  it('refuses a signed-in form (a new key) posted from another site, even with the session cookie', async () => {
    const form = await openForm(server, '/signin');
    const signedIn = await postForm(
      server,
      '/signin',
      { email: 'attacker@example.com', password: 'attacker password', next: '/account' },
      form,
    );
    const cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const page = await fetch(`${server.url}/account`, { headers: { cookie } });
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
    const res = await postForm(
      server,
      '/account/keys',
      { name: 'evil', scopes: 'profile' },
      { cookie, csrf },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(res.status).toBe(403);
    expect((await server.db.sql`select count(*)::int as n from credentials where name = 'evil'`)[0]!.n).toBe(
      0,
    );
  });
});

describe('the sandbox pay form', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  it('refuses a post from another site before looking at the link', async () => {
    const res = await postForm(server, '/pay/npl_unknown/sandbox', { decision: 'pay' }, undefined, {
      'sec-fetch-site': 'cross-site',
    });
    expect(res.status).toBe(403);
    // Same-site, the unknown link is simply sent back to its page.
    const same = await postForm(server, '/pay/npl_unknown/sandbox', { decision: 'pay' }, undefined, {
      'sec-fetch-site': 'same-origin',
    });
    expect(same.status).toBe(303);
  });
});
