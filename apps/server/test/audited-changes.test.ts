import {
  authenticate,
  type Deps,
  identityOperations as identity,
  type OperationContext,
  runOperation,
} from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { createTestDatabase, fixedClock, type TestDatabase } from '@nogpets/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// The pages run these as operations (identity/page-operations.ts): so does this test, each through
// runOperation as the pages' door calls it, a visitor or the person signed in.
type TestDeps = { sql: TestDatabase['sql']; clock: ReturnType<typeof fixedClock> };
const quiet = { info() {}, warn() {}, error() {} };
const call = (deps: TestDeps, person?: string): OperationContext => ({
  deps: { ...deps, checkOutputs: true } as unknown as Deps,
  requestId: 'audited-changes',
  clientName: null,
  log: quiet,
  ...(person
    ? {
        auth: {
          userId: person,
          credentialId: 'web-session',
          kind: 'WEB_SESSION' as const,
          scopes: [],
          clientId: null,
          clientName: null,
        },
      }
    : { auth: null, principal: { kind: 'visitor' as const } }),
});
const registerOAuthClient = (deps: TestDeps, client: { client_name: string; redirect_uris: string[] }) =>
  runOperation(identity.registerOAuthClientOp, call(deps), { client }) as Promise<{ client_id: string }>;
const requestAuthorization = (
  deps: TestDeps,
  request: {
    clientId: string;
    redirectUri: string;
    scopes: string[];
    state: string | null;
    codeChallenge: string;
    resource: string | null;
  },
) => runOperation(identity.requestAuthorizationOp, call(deps), request) as Promise<string>;
const answerAuthorizationRequest = (
  deps: TestDeps,
  a: { requestId: string; userId: string; approve: boolean },
) =>
  runOperation(identity.answerAuthorizationRequestOp, call(deps, a.userId), {
    requestId: a.requestId,
    approve: a.approve,
  }) as Promise<{ redirectUri: string; state: string | null; code: string | null } | null>;
const exchangeAuthorizationCode = (
  deps: TestDeps,
  e: { clientId: string; code: string; redirectUri?: string },
) =>
  runOperation(identity.exchangeAuthorizationCodeOp, call(deps), e) as Promise<{
    accessToken: string;
    refreshToken: string;
  }>;
const exchangeRefreshToken = (deps: TestDeps, e: { clientId: string; refreshToken: string }) =>
  runOperation(identity.exchangeRefreshTokenOp, call(deps), e) as Promise<{ accessToken: string }>;
const listApiKeys = (deps: TestDeps, userId: string) =>
  runOperation(identity.listApiKeysOp, call(deps, userId), {}) as Promise<unknown[]>;
const createAccountApiKey = (
  deps: TestDeps,
  user: { id: string },
  request: { scopes: string[]; name: string },
) =>
  runOperation(identity.createAccountApiKeyOp, call(deps, user.id), request) as Promise<{
    key: string;
    id: string;
  }>;
const revokeApiKey = (deps: TestDeps, userId: string, keyId: string) =>
  runOperation(identity.revokeApiKeyOp, call(deps, userId), { keyId }) as Promise<boolean>;
const listAssistantConnections = (deps: TestDeps, userId: string) =>
  runOperation(identity.listAssistantConnectionsOp, call(deps, userId), {}) as Promise<unknown[]>;
const removeConnection = (deps: TestDeps, userId: string, clientId: string) =>
  runOperation(identity.removeConnectionOp, call(deps, userId), { clientId }) as Promise<number>;
const signInWithUpstreamIdentity = (
  deps: TestDeps,
  verified: { issuer: string; subject: string; email: string; name: string },
) => runOperation(identity.signInWithUpstreamIdentityOp, call(deps), verified) as Promise<{ token: string }>;
const findWebSessionUser = (deps: TestDeps, token: string) =>
  runOperation(identity.findWebSessionUserOp, call(deps), { token }) as Promise<{
    id: string;
    email: string;
  } | null>;

// The account page's and the consent page's changes are operations that write the change and its
// audit record in one transaction: when the record cannot be written, the change is not made either.
describe('changes made on the pages commit together with their audit record', () => {
  let db: TestDatabase;
  const clock = fixedClock();
  const deps = () => ({ sql: db.sql, clock });
  const redirectUri = 'http://127.0.0.1:7777/callback';

  beforeAll(async () => {
    db = await createTestDatabase({ demoData: false });
  });
  afterAll(() => db?.drop());
  afterEach(() => db.sql`alter table audit_log drop constraint if exists test_refuses_action`);

  /** From now on the audit log refuses records of this action, as a failing insert would. */
  const refuseAudit = (
    action: 'apikey.create' | 'apikey.revoke' | 'connection.approve' | 'connection.remove' | 'account.link',
  ) =>
    db.sql.unsafe(
      `alter table audit_log add constraint test_refuses_action check (action <> '${action}') not valid`,
    );
  const allowAudit = () => db.sql`alter table audit_log drop constraint test_refuses_action`;
  const audited = async (action: string, target: string) =>
    (
      await db.sql`select count(*)::int as n from audit_log where action = ${action} and target = ${target}`
    )[0]!.n;
  const works = (token: string) =>
    authenticate(db.sql, token, clock.now()).then(
      () => true,
      () => false,
    );

  /** A person with an assistant connected through the whole authorization code flow. */
  async function connectedAssistant(email: string) {
    const { userId } = await createApiKey(db.sql, { email, scopes: ['profile'] });
    const client = await registerOAuthClient(deps(), {
      client_name: 'Test assistant',
      redirect_uris: [redirectUri],
    });
    const requestId = await requestAuthorization(deps(), {
      clientId: client.client_id,
      redirectUri,
      scopes: ['profile', 'pets'],
      state: null,
      codeChallenge: 'c'.repeat(43),
      resource: null,
    });
    const answer = await answerAuthorizationRequest(deps(), { requestId, userId, approve: true });
    const tokens = await exchangeAuthorizationCode(deps(), {
      clientId: client.client_id,
      code: answer!.code!,
    });
    return { userId, clientId: client.client_id, tokens };
  }

  it('rotates a refresh token once when two refreshes race with it: one gets tokens, the family is revoked', async () => {
    const { clientId, tokens } = await connectedAssistant('race@example.com');
    const refresh = () => exchangeRefreshToken(deps(), { clientId, refreshToken: tokens.refreshToken });
    const results = await Promise.allSettled(Array.from({ length: 8 }, refresh));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ details: { error: 'invalid_grant' } });
    // A second use of a refresh token is a reuse: the whole connection goes, the winner's tokens too.
    expect(await works((won[0] as PromiseFulfilledResult<{ accessToken: string }>).value.accessToken)).toBe(
      false,
    );
  });

  it('makes no API key when its creation cannot be audited', async () => {
    const { userId } = await createApiKey(db.sql, { email: 'create@example.com', scopes: ['profile'] });
    const user = { id: userId, email: 'create@example.com' };
    const before = (await listApiKeys(deps(), userId)).length;
    await refuseAudit('apikey.create');
    await expect(createAccountApiKey(deps(), user, { scopes: ['pets'], name: 'Phone' })).rejects.toThrow();
    expect(await listApiKeys(deps(), userId)).toHaveLength(before);
    await allowAudit();
    const made = await createAccountApiKey(deps(), user, { scopes: ['pets'], name: 'Phone' });
    expect(await works(made.key)).toBe(true);
    expect(await audited('apikey.create', made.id)).toBe(1);
  });

  it('leaves an API key working when its revocation cannot be audited', async () => {
    const key = await createApiKey(db.sql, { email: 'revoke@example.com', scopes: ['profile'] });
    await refuseAudit('apikey.revoke');
    await expect(revokeApiKey(deps(), key.userId, key.id)).rejects.toThrow();
    expect(await works(key.key)).toBe(true);
    await allowAudit();
    expect(await revokeApiKey(deps(), key.userId, key.id)).toBe(true);
    expect(await works(key.key)).toBe(false);
    expect(await audited('apikey.revoke', key.id)).toBe(1);
    // Already revoked: nothing changes, nothing more is recorded.
    expect(await revokeApiKey(deps(), key.userId, key.id)).toBe(false);
    expect(await audited('apikey.revoke', key.id)).toBe(1);
  });

  it("leaves an assistant's tokens working when removing it cannot be audited", async () => {
    const { userId, clientId, tokens } = await connectedAssistant('connection@example.com');
    await refuseAudit('connection.remove');
    await expect(removeConnection(deps(), userId, clientId)).rejects.toThrow();
    expect(await listAssistantConnections(deps(), userId)).toHaveLength(1);
    expect(await works(tokens.accessToken)).toBe(true);
    await allowAudit();
    expect(await removeConnection(deps(), userId, clientId)).toBe(2);
    expect(await listAssistantConnections(deps(), userId)).toEqual([]);
    expect(await works(tokens.accessToken)).toBe(false);
    expect(await audited('connection.remove', clientId)).toBe(1);
  });

  it('issues no code when an approval cannot be audited, and the request can still be answered', async () => {
    const { userId } = await createApiKey(db.sql, { email: 'consent@example.com', scopes: ['profile'] });
    const client = await registerOAuthClient(deps(), {
      client_name: 'Consent test',
      redirect_uris: [redirectUri],
    });
    const requestId = await requestAuthorization(deps(), {
      clientId: client.client_id,
      redirectUri,
      scopes: [],
      state: 'xyz',
      codeChallenge: 'c'.repeat(43),
      resource: null,
    });
    await refuseAudit('connection.approve');
    await expect(answerAuthorizationRequest(deps(), { requestId, userId, approve: true })).rejects.toThrow();
    expect(
      (await db.sql`select count(*)::int as n from oauth_codes where client_id = ${client.client_id}`)[0]!.n,
    ).toBe(0);
    await allowAudit();
    const answer = await answerAuthorizationRequest(deps(), { requestId, userId, approve: true });
    expect(answer).toMatchObject({ redirectUri, state: 'xyz', code: expect.any(String) });
    expect(await audited('connection.approve', client.client_id)).toBe(1);
    // One answer per request.
    expect(await answerAuthorizationRequest(deps(), { requestId, userId, approve: true })).toBeNull();
  });

  it('links no upstream identity and opens no session when the link cannot be audited', async () => {
    const identity = {
      issuer: 'https://id.example',
      subject: 'sub-1',
      email: 'upstream@example.com',
      name: 'Up Stream',
    };
    await refuseAudit('account.link');
    await expect(signInWithUpstreamIdentity(deps(), identity)).rejects.toThrow();
    const counts = async () =>
      (
        await db.sql`select (select count(*)::int from users where email = ${identity.email}) as users,
                            (select count(*)::int from user_identities where subject = ${identity.subject}) as links,
                            (select count(*)::int from sessions) as sessions`
      )[0];
    expect(await counts()).toEqual({ users: 0, links: 0, sessions: 0 });
    await allowAudit();
    const session = await signInWithUpstreamIdentity(deps(), identity);
    const user = await findWebSessionUser(deps(), session.token);
    expect(user?.email).toBe(identity.email);
    // Signing in again through the same identity is no new link.
    await signInWithUpstreamIdentity(deps(), identity);
    expect(await audited('account.link', user!.id)).toBe(1);
  });
});

describe('exchanging an authorization code', () => {
  let db: TestDatabase;
  const clock = fixedClock();
  const deps = () => ({ sql: db.sql, clock });
  const redirectUri = 'http://127.0.0.1:7777/callback';

  beforeAll(async () => {
    db = await createTestDatabase({ demoData: false });
  });
  afterAll(() => db?.drop());

  it('spends the code even when the exchange is refused, so it cannot be tried again', async () => {
    const { userId } = await createApiKey(db.sql, { email: 'spent@example.com', scopes: ['profile'] });
    const client = await registerOAuthClient(deps(), {
      client_name: 'Spender',
      redirect_uris: [redirectUri],
    });
    const requestId = await requestAuthorization(deps(), {
      clientId: client.client_id,
      redirectUri,
      scopes: ['profile'],
      state: null,
      codeChallenge: 'c'.repeat(43),
      resource: null,
    });
    const { code } = (await answerAuthorizationRequest(deps(), { requestId, userId, approve: true }))!;
    const exchange = (redirect: string) =>
      exchangeAuthorizationCode(deps(), { clientId: client.client_id, code: code!, redirectUri: redirect });
    await expect(exchange(`${redirectUri}/other`)).rejects.toMatchObject({
      details: { error: 'invalid_grant' },
      message: expect.stringMatching(/redirect_uri differs/),
    });
    await expect(exchange(redirectUri)).rejects.toMatchObject({
      details: { error: 'invalid_grant' },
      message: expect.stringMatching(/already used/),
    });
  });
});
