import { type Browser, launchBrowser } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

describe('the API reference page', () => {
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

  it('renders every operation from /v1/openapi.json and tries one out, in real Chromium', async () => {
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    await page.goto(`${server.url}/docs`);
    await page.getByText('NogPets API').first().waitFor();
    await expect(
      page.locator('.opblock-summary-path').filter({ hasText: '/v1/services' }).count(),
    ).resolves.toBeGreaterThan(0);
    await page.locator('.opblock-summary-path', { hasText: '/v1/services' }).first().click();
    await page.getByRole('button', { name: 'Execute' }).click();
    await page.locator('.responses-table .response-col_status').filter({ hasText: '200' }).first().waitFor();
    await expect(page.locator('.responses-wrapper').first().textContent()).resolves.toContain(
      'serviceFeeCents',
    );
    // Everything came from our own host: no CDN.
    expect(failed).toEqual([]);
  });
});
