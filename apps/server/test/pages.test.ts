import { hashSecret, newSecret } from '@nogpets/operations/testing';
import { type Browser, launchBrowser } from '@nogpets/test-utils';
import { hash } from '@node-rs/argon2';
import { findOrCreateUser, insertCredential, setPassword } from '@nogpets/store';
import { SIGN_IN_TRIES, SIGN_IN_WINDOW_SEC } from '@nogpets/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedLink, openForm, postForm, startTestServer, type TestServer } from './harness.js';

describe('account pages in real Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs up, makes an API key that works, revokes it, removes a connected assistant, signs out and back in', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/account`);
    // Not signed in: sent to sign in, then on to create an account.
    expect(page.url()).toContain('/signin?next=%2Faccount');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Your name').fill('Lerato <script>alert(1)</script>');
    await page.getByLabel('Email').fill('lerato@example.com');
    await page.getByRole('button', { name: 'Create account' }).click();
    // No account yet: the address is proven first, by the link mailed to it (here, the outbox).
    await expect
      .poll(() => page.locator('main').innerText())
      .toContain('We have sent a mail to lerato@example.com');
    const { link, subject } = await mailedLink(server, 'lerato@example.com');
    expect(subject).toBe('Confirm your email to finish your NogPets account');
    await page.goto(link);
    await page.getByLabel(/Choose a password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Continue as lerato@example.com' }).click();
    await page.waitForURL(`${server.url}/account`);
    // Text from people is shown as text, never run as markup.
    await expect(page.getByText('Lerato <script>alert(1)</script>').count()).resolves.toBe(1);

    await page.getByLabel('New key name').fill('Kitchen tablet');
    await page.getByLabel('See your name, email and phone').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).toMatch(/^npk_/);
    const me = await server.get('/v1/me', { authorization: `Bearer ${key}` });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'lerato@example.com', scopes: ['profile'] });
    await page.goto(`${server.url}/account`);
    await expect(page.locator('#keys').textContent()).resolves.toContain('Kitchen tablet');
    // Shown once: the page never shows the key again.
    await expect(page.content()).resolves.not.toContain(key);
    await page.locator('#keys').getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(`${server.url}/account`);
    expect((await server.get('/v1/me', { authorization: `Bearer ${key}` })).status).toBe(401);

    // A connected assistant (as the OAuth flow leaves it) is listed in plain words and removed at once.
    const [user] = await server.db.sql`select id from users where email = 'lerato@example.com'`;
    await server.db.sql`insert into oauth_clients (id, name) values ('cli_test', 'Claude')`;
    const token = newSecret('nat');
    await insertCredential(server.db.sql, {
      userId: user!.id,
      kind: 'ACCESS',
      tokenHash: hashSecret(token),
      scopes: ['profile', 'bookings:read'],
      clientId: 'cli_test',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    expect((await server.get('/v1/me', { authorization: `Bearer ${token}` })).body.client).toEqual({
      id: 'cli_test',
      name: 'Claude',
    });
    await page.goto(`${server.url}/account`);
    const row = page.locator('#connections tr', { hasText: 'Claude' });
    await expect(row.textContent()).resolves.toContain('See your bookings and find times to move them');
    await row.getByRole('button', { name: 'Remove' }).click();
    await page.waitForURL(`${server.url}/account`);
    expect((await server.get('/v1/me', { authorization: `Bearer ${token}` })).status).toBe(401);
    await expect(page.getByText('No assistant is connected.').count()).resolves.toBe(1);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin/);
    await page.getByLabel('Email').fill('lerato@example.com');
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The error is a paragraph a person reads, not markup shown as text.
    await expect(page.locator('p.error').innerText()).resolves.toBe('That email and password do not match.');
    await expect(page.locator('main').innerText()).resolves.not.toContain('<p');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/account`);

    const audit = (
      await server.db.sql`select action from audit_log where user_id = ${user!.id} order by id`
    ).map((r) => r.action);
    expect(audit).toEqual([
      'account.signup',
      'account.password_set',
      'apikey.create',
      'apikey.revoke',
      'connection.remove',
    ]);
  });

  it("refuses a form posted without the session's token", async () => {
    const res = await fetch(`${server.url}/account/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=x&scopes=profile',
      redirect: 'manual',
    });
    // No session at all: sent to sign in, nothing made.
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/signin/);
  });

  it('slows password guessing: after 10 failures per address and email, even the right password waits', async () => {
    const user = await findOrCreateUser(server.db.sql, 'thabo@example.com', 'Thabo');
    await setPassword(server.db.sql, user.id, await hash('the right password'));
    const form = await openForm(server, '/signin');
    const signIn = (email: string, password: string) =>
      postForm(server, '/signin', { email, password, next: '/account' }, form);
    for (let i = 0; i < SIGN_IN_TRIES; i++)
      expect((await signIn('thabo@example.com', `guess ${i}`)).status).toBe(401);
    const blocked = await signIn('THABO@example.com', 'the right password');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(SIGN_IN_WINDOW_SEC - 60);
    expect(await blocked.text()).toContain('Too many tries');
    // Another person from the same address is not held up.
    const other = await findOrCreateUser(server.db.sql, 'zanele@example.com', 'Zanele');
    await setPassword(server.db.sql, other.id, await hash('her right password'));
    const ok = await signIn('zanele@example.com', 'her right password');
    expect(ok.status).toBe(303);
    expect(ok.headers.get('set-cookie')).toContain('nogpets_session=');
  });

  it('counts the OAuth endpoints in the shared request limit', async () => {
    const res = await fetch(`${server.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('ratelimit-limit')).toBe('10000');
  });
});
