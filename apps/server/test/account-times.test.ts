// A person's own pages show times in the person's zone. A pet owner in
// Stellenbosch reads their API keys and connected assistants in Johannesburg time, as their
// bookings are, not in UTC: a key made at 22:30 UTC on the 23rd was made at 00:30 on the 24th.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { createApiKey } from '@nogpets/operations/testing';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { type Browser, fixedClock, launchBrowser } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

const NOW = '2026-11-24T09:00:00Z';
const PASSWORD = 'a long enough password';
const screens = process.env.PAGE_SCREENS;

describe('times on the account page', () => {
  let server: TestServer;
  let browser: Browser;
  const clock = fixedClock(NOW);

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows when a key was made and last used, and when an assistant connected, in Johannesburg time', async () => {
    const email = 'thandi@example.com';
    const user = await findOrCreateUser(server.db.sql, email, 'Thandi Mokoena');
    await setPassword(server.db.sql, user.id, await hash(PASSWORD));
    await createApiKey(server.db.sql, { email, scopes: ['profile'], name: 'Kitchen tablet' });
    await server.db.sql`
      update credentials set created_at = '2026-11-23T22:30:00Z', last_used_at = '2026-11-24T06:05:00Z'
      where user_id = ${user.id} and kind = 'API_KEY'`;
    await server.db.sql`insert into oauth_clients (id, name) values ('cli_clock', 'Claude')`;
    await server.db.sql`
      insert into credentials (id, user_id, kind, token_hash, scopes, client_id, expires_at, created_at)
      values ('cred_clock', ${user.id}, 'ACCESS', 'hash-clock', ${['profile']}, 'cli_clock',
        '2026-11-25T00:00:00Z', '2026-11-23T23:15:00Z')`;

    const page = await browser.newPage();
    await page.goto(`${server.url}/signin?next=%2Faccount`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/account`);

    const keys = await page.locator('#keys').innerText();
    expect(keys).toContain('Kitchen tablet');
    expect(keys).toContain('Tue, 24 Nov 2026, 00:30');
    expect(keys).toContain('Tue, 24 Nov 2026, 08:05');
    const connections = await page.locator('#connections').innerText();
    expect(connections).toContain('Tue, 24 Nov 2026, 01:15');
    expect(connections).toContain('never');
    expect(await page.locator('main').innerText()).not.toContain('UTC');
    if (screens) {
      mkdirSync(screens, { recursive: true });
      await page.screenshot({ path: path.join(screens, 'account-times.png'), fullPage: true });
    }
    await page.close();
  });
});
