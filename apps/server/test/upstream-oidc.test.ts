import { createServer, type Server } from 'node:http';
import { hash } from '@node-rs/argon2';
import { findOrCreateUser, findUserByEmail, setPassword } from '@nogpets/store';
import { type Browser, launchBrowser, type Page } from '@nogpets/test-utils';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

/** The people the upstream provider knows, by the login typed on its page. */
const PEOPLE: Record<string, { email: string; email_verified: boolean; name: string }> = {
  naledi: { email: 'naledi@example.com', email_verified: true, name: 'Naledi Dlamini' },
  pieter: { email: 'pieter@example.com', email_verified: true, name: 'Pieter Botha' },
  mallory: { email: 'naledi@example.com', email_verified: false, name: 'Not Naledi' },
};

describe('sign-in through an upstream OpenID Connect provider (oidc-provider on loopback)', () => {
  let issuerServer: Server;
  let issuer: string;
  let server: TestServer;
  let browser: Browser;
  let nalediId: string;

  beforeAll(async () => {
    // The provider's address first (our server is configured with it), the provider itself once
    // our callback URL is known.
    issuerServer = createServer();
    await new Promise<void>((r) => issuerServer.listen(0, '127.0.0.1', () => r()));
    issuer = `http://127.0.0.1:${(issuerServer.address() as { port: number }).port}`;
    server = await startTestServer({
      env: {
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: 'nogpets',
        OIDC_CLIENT_SECRET: 'a-client-secret',
        OIDC_NAME: 'Example ID',
      },
    });
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: 'nogpets',
          client_secret: 'a-client-secret',
          redirect_uris: [`${server.url}/signin/oidc/callback`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      findAccount: (_ctx, id) =>
        PEOPLE[id] ? { accountId: id, claims: () => ({ sub: id, ...PEOPLE[id] }) } : undefined,
      cookies: { keys: ['test-cookie-key'] },
      pkce: { required: () => true },
    });
    issuerServer.on('request', provider.callback());
    browser = await launchBrowser();
    const naledi = await findOrCreateUser(server.db.sql, 'naledi@example.com', 'Naledi');
    await setPassword(server.db.sql, naledi.id, await hash('her own password'));
    nalediId = naledi.id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise((r) => issuerServer?.close(r));
  });

  /** From our sign-in page through the provider's login and consent pages, back to us. */
  async function signInUpstream(page: Page, login: string, next = '/account') {
    await page.goto(`${server.url}/signin?next=${encodeURIComponent(next)}`);
    await page.getByRole('link', { name: 'Sign in with Example ID' }).click();
    await page.waitForURL((u) => u.href.startsWith(issuer));
    await page.locator('input[name=login]').fill(login);
    await page.locator('input[name=password]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((u) => u.href.startsWith(server.url));
  }

  it('links a verified email to the existing account and signs in to it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInUpstream(page, 'naledi');
    expect(new URL(page.url()).pathname).toBe('/account');
    await expect.poll(() => page.locator('main').textContent()).toContain('naledi@example.com');
    const [link] = await server.db.sql<{ userId: string; email: string }[]>`
      select user_id as "userId", email from user_identities where issuer = ${issuer} and subject = 'naledi'`;
    expect(link).toEqual({ userId: nalediId, email: 'naledi@example.com' });
    const [audit] = await server.db.sql<
      { action: string }[]
    >`select action from audit_log where user_id = ${nalediId} and action = 'account.link'`;
    expect(audit).toBeDefined();
    // The password still works too: linking added a way in, it took nothing away.
    await context.clearCookies();
    await page.goto(`${server.url}/signin?next=/account`);
    await page.getByLabel('Email').fill('naledi@example.com');
    await page.getByLabel('Password').fill('her own password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${server.url}/account`);
    await context.close();
  });

  it('creates the account of a new person, and signs in to the same one next time', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInUpstream(page, 'pieter');
    const pieter = await findUserByEmail(server.db.sql, 'pieter@example.com');
    expect(pieter).toMatchObject({ name: 'Pieter Botha', passwordHash: null });
    await context.clearCookies();
    await signInUpstream(page, 'pieter');
    await expect.poll(() => page.locator('main').textContent()).toContain('pieter@example.com');
    const rows = await server.db.sql`select 1 from users where lower(email) = 'pieter@example.com'`;
    expect(rows).toHaveLength(1);
    await context.close();
  });

  it('refuses an email the provider has not verified, and a callback replayed or forged', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInUpstream(page, 'mallory');
    await expect
      .poll(() => page.locator('main').textContent())
      .toContain('has not verified naledi@example.com');
    expect((await context.cookies()).find((c) => c.name === 'nogpets_session')).toBeUndefined();
    const [link] = await server.db.sql`select 1 from user_identities where subject = 'mallory'`;
    expect(link).toBeUndefined();
    // The same callback again (state already used), and one with a state we never issued.
    const callback = page.url();
    expect(callback).toContain('/signin/oidc/callback?');
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    for (const url of [callback, `${server.url}/signin/oidc/callback?code=x&state=made-up`]) {
      const again = await fetch(url, { redirect: 'manual', headers: { cookie } });
      expect(again.status).toBe(400);
      expect(again.headers.getSetCookie().some((c) => c.startsWith('nogpets_session='))).toBe(false);
    }
    await context.close();
  });

  it("refuses a sign-in another browser started: the attacker's callback does not sign the victim in", async () => {
    // The attacker starts a sign-in (their client keeps our state cookie) ...
    const begin = await fetch(`${server.url}/signin/oidc?next=/account`, { redirect: 'manual' });
    expect(begin.status).toBe(303);
    const attackerCookie = begin.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    // ... and gets the victim's browser to finish it at the provider (as the attacker, pieter).
    const victim = await browser.newContext();
    const page = await victim.newPage();
    await page.goto(begin.headers.get('location')!);
    await page.locator('input[name=login]').fill('pieter');
    await page.locator('input[name=password]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((u) => u.href.startsWith(`${server.url}/signin/oidc/callback`));
    await expect
      .poll(() => page.locator('main').innerText())
      .toContain('This sign-in was not started in this browser.');
    expect((await victim.cookies()).find((c) => c.name === 'nogpets_session')).toBeUndefined();
    // The browser that started it can still finish it: the refusal used nothing up.
    const finish = await fetch(page.url(), { redirect: 'manual', headers: { cookie: attackerCookie } });
    expect(finish.status).toBe(303);
    expect(finish.headers.getSetCookie().some((c) => c.startsWith('nogpets_session='))).toBe(true);
    await victim.close();
  });
});
