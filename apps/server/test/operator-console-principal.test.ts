// The operator console runs its changes as operations with an operator principal naming the
// signed-in operator: what they approve or reject from the page in real Chromium writes its events
// with their account as the actor and the id of the call, and a refusal still reads as the
// operation worded it, writing nothing.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { CLI_REVIEWER, systemClock } from '@nogpets/operations';
import { grantOperatorAccess } from '@nogpets/operations/testing';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { type Browser, launchBrowser, type Page } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm, signedInForm, startTestServer, type TestServer } from './harness.js';
import { applicationForReview } from './review-fixture.js';

const PASSWORD = 'a long enough password';
const OPERATOR_EMAIL = 'console.ops@nogpets.example';
const screens = process.env.PAGE_SCREENS;

interface EventRow {
  type: string;
  actor: { kind: string; userId: string | null };
  operation: string | null;
  callId: string | null;
}

describe('the operator console as an operator principal', () => {
  let server: TestServer;
  let browser: Browser;
  let operatorId: string;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    const ops = await findOrCreateUser(server.db.sql, OPERATOR_EMAIL);
    operatorId = ops.id;
    await setPassword(server.db.sql, ops.id, await hash(PASSWORD));
    await grantOperatorAccess({ sql: server.db.sql, clock: systemClock }, OPERATOR_EMAIL, CLI_REVIEWER);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const eventsOf = async (subjectId: string): Promise<EventRow[]> =>
    (await server.db.sql`
      select type, actor, operation, call_id as "callId" from domain_events
      where subject_id = ${subjectId} order by seq`) as unknown as EventRow[];

  const eventsOfCall = async (callId: string): Promise<EventRow[]> =>
    (await server.db.sql`
      select type, actor, operation, call_id as "callId" from domain_events
      where call_id = ${callId} order by seq`) as unknown as EventRow[];

  async function submit(page: Page, button: ReturnType<Page['locator']>): Promise<void> {
    await Promise.all([page.waitForNavigation(), button.click()]);
  }

  const seen = (page: Page, selector = 'main') => page.locator(selector).innerText();

  it("writes an approval's and a rejection's events with the operator's account and the call's id", async () => {
    const owner = 'principal.groomer@example.com';
    const other = 'principal.walker@example.com';
    const name = 'Dorp Street Dogs';
    const app = await applicationForReview(server, owner, { name, staff: ['crew.principal@example.com'] });
    const refused = await applicationForReview(server, other, { name: 'Jonkershoek Walkers' });
    const types = async (id: string) => (await eventsOf(id)).map((e) => e.type);
    expect(await types(app.applicationId)).toEqual(['application.submitted']);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/operator`);
      await page.waitForURL(/\/signin\?next=/);
      await page.getByLabel('Email').fill(OPERATOR_EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await Promise.all([
        page.waitForURL(`${server.url}/operator`),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      expect(await seen(page, `#application-${app.applicationId}`)).toContain(name);

      await submit(page, page.getByRole('button', { name: `Approve ${name}` }));
      expect(await seen(page, 'h1')).toBe(`Approve ${name}?`);
      await submit(page, page.getByRole('button', { name: `Yes, approve ${name}` }));
      expect(await seen(page, '[role=status]')).toMatch(/^Approved: business biz_\S+ is made/);
      // Who approved it, as the audit and the application keep it: the signed-in operator.
      expect(await seen(page, '#other-applications')).toContain(`by operator console (${OPERATOR_EMAIL})`);
      if (screens) {
        mkdirSync(screens, { recursive: true });
        await page.screenshot({ path: path.join(screens, 'operator-console-principal.png'), fullPage: true });
      }

      const [approved] = (await eventsOf(app.applicationId)).filter((e) => e.type === 'application.approved');
      expect(approved).toMatchObject({
        actor: { kind: 'operator', userId: operatorId },
        operation: 'approveApplication',
      });
      expect(approved!.callId).not.toBeNull();
      // Everything that one call wrote (the approval and its staff invitation) names the operator.
      const call = await eventsOfCall(approved!.callId!);
      expect(call.map((e) => e.type).sort()).toEqual(['application.approved', 'invitation.sent']);
      for (const e of call) expect(e.actor).toMatchObject({ kind: 'operator', userId: operatorId });

      // A rejection without a note is refused in the operation's own words, and writes no event.
      const form = await signedInForm(server, OPERATOR_EMAIL, PASSWORD);
      const empty = await postForm(
        server,
        `/operator/applications/${refused.applicationId}/reject`,
        { reviewNote: '  ' },
        form,
      );
      expect(empty.status).toBe(400);
      expect(await empty.text()).toContain(
        'note: say why it is rejected, in 1 to 1000 characters; the applicant reads it.',
      );
      expect(await types(refused.applicationId)).toEqual(['application.submitted']);

      // With a note, from the page: its own call, its own event, the same operator.
      await page.reload();
      const other$ = page.locator(`#application-${refused.applicationId}`);
      await other$.getByLabel('Why it is rejected').fill('We need a price list we can check.');
      await submit(page, other$.getByRole('button', { name: 'Reject Jonkershoek Walkers' }));
      expect(await seen(page, '[role=status]')).toBe(
        'Rejected Jonkershoek Walkers; the applicant sees your note.',
      );
      const rejected = (await eventsOf(refused.applicationId)).filter(
        (e) => e.type !== 'application.submitted',
      );
      expect(rejected).toHaveLength(1);
      expect(rejected[0]).toMatchObject({
        type: 'application.rejected',
        actor: { kind: 'operator', userId: operatorId },
        operation: 'rejectApplication',
      });
      expect(rejected[0]!.callId).not.toBeNull();
      expect(rejected[0]!.callId).not.toBe(approved!.callId);
    } finally {
      await context.close();
    }
  });
});
