// Sign-in, sessions, API keys, connections and the OAuth server's endpoints run as internal
// operations through runOperation (identity/page-operations.ts): each refuses a caller of the wrong
// kind (an API key, an assistant's token, a visitor where the person is needed, NogPets' own
// principals) with 403 and changes nothing, and what runs them logs no password, key or token.
import { createHash, randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import {
  type AuthContext,
  authenticate,
  type Deps,
  identityOperations as identity,
  type InternalOperation,
  type OperationContext,
  type Principal,
  runOperation,
  ServiceError,
} from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { findOrCreateUser, setPassword } from '@nogpets/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedLink, openForm, postForm, signedInForm, startTestServer, type TestServer } from './harness.js';

const PASSWORD = 'correct horse battery staple 7Q';
const WRONG_PASSWORD = 'wrong-but-secret-guess-4417';
const LINK_PASSWORD = 'chosen on the link page 93KX';
const EMAIL = 'door.person@example.com';
const REDIRECT = 'http://127.0.0.1:9/callback';
const quiet = { info() {}, warn() {}, error() {} };

/** The tables sign-in, sessions, keys and the OAuth server write: a fingerprint of every row. */
const IDENTITY_TABLES = [
  'users',
  'sessions',
  'credentials',
  'audit_log',
  'oauth_clients',
  'oauth_requests',
  'oauth_codes',
  'oidc_logins',
  'user_identities',
  'settings',
  'email_links',
  'mail_outbox',
  'link_mail_requests',
  'domain_events',
  'idempotency_keys',
  'mcp_sessions',
];

async function fingerprint(server: TestServer): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of IDENTITY_TABLES) {
    const [row] = await server.db.sql.unsafe(
      `select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from ${table} t`,
    );
    out[table] = `${row!.n}:${row!.h}`;
  }
  return out;
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

describe('the identity operations through the one door', () => {
  let server: TestServer;
  let deps: Deps;
  let userId: string;
  /** Every log line the service wrote, as written. */
  const logged: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env: { LOG_LEVEL: 'trace' } });
    deps = server.service.runtime.deps as Deps;
    const logger = server.service.runtime.logger as unknown as Record<symbol, unknown>;
    const stream = Object.getOwnPropertySymbols(logger).find((s) => s.description === 'pino.stream');
    if (!stream) throw new Error('no pino stream to capture');
    logger[stream] = { write: (line: string) => logged.push(line) };
    const user = await findOrCreateUser(server.db.sql, EMAIL, 'Door Person');
    userId = user.id;
    await setPassword(server.db.sql, userId, await hash(PASSWORD));
  });
  afterAll(() => server?.stop());

  const call = (c: { auth?: AuthContext; principal?: Principal }): OperationContext => ({
    deps,
    requestId: 'identity-door-test',
    clientName: null,
    auth: c.auth ?? null,
    log: quiet,
    ...(c.principal ? { principal: c.principal } : {}),
  });
  const visitor = () => call({ principal: { kind: 'visitor' } });
  const person = (id = userId) =>
    call({
      auth: {
        userId: id,
        credentialId: 'web-session',
        kind: 'WEB_SESSION',
        scopes: [],
        clientId: null,
        clientName: null,
      },
    });
  const run = <Op extends InternalOperation>(op: Op, ctx: OperationContext, input: unknown) =>
    runOperation(op, ctx, input) as Promise<Awaited<ReturnType<Op['handler']>>>;

  /** An assistant connected to the person through the operations: its client and tokens. */
  async function connect(name: string) {
    const client = await run(identity.registerOAuthClientOp, visitor(), {
      client: { client_name: name, redirect_uris: [REDIRECT] },
    });
    const requestId = await run(identity.requestAuthorizationOp, visitor(), {
      clientId: client.client_id,
      redirectUri: REDIRECT,
      scopes: ['profile'],
      state: null,
      codeChallenge: pkce().challenge,
      resource: null,
    });
    const answer = await run(identity.answerAuthorizationRequestOp, person(), { requestId, approve: true });
    const tokens = await run(identity.exchangeAuthorizationCodeOp, visitor(), {
      clientId: client.client_id,
      code: answer!.code!,
    });
    return { clientId: client.client_id, tokens };
  }

  it('refuses each operation to a caller of the wrong kind with 403, changing nothing; the right caller changes something', async () => {
    // Real credentials of the two kinds the pages never take: an API key and an assistant's token.
    const key = await createApiKey(server.db.sql, { email: EMAIL, scopes: ['profile', 'pets'] });
    const apiKey = await authenticate(server.db.sql, key.key, deps.clock.now());
    const assistant = await connect('Principal test assistant');
    const token = await authenticate(server.db.sql, assistant.tokens.accessToken, deps.clock.now());
    expect([apiKey.kind, token.kind]).toEqual(['API_KEY', 'ACCESS']);
    const forRefresh = await connect('Refreshing assistant');
    const forRevoke = await connect('Revoked assistant');
    const forRemoval = await connect('Removed assistant');
    const session = await run(identity.signInWithPasswordOp, visitor(), {
      email: EMAIL,
      password: PASSWORD,
    });
    expect(session).not.toBeNull();
    const pending = await run(identity.requestAuthorizationOp, visitor(), {
      clientId: forRemoval.clientId,
      redirectUri: REDIRECT,
      scopes: ['pets'],
      state: 'st',
      codeChallenge: pkce().challenge,
      resource: null,
    });

    const notAPerson: OperationContext[] = [
      call({ auth: apiKey }),
      call({ auth: token }),
      visitor(),
      call({ principal: { kind: 'system', job: 'test' } }),
      call({ principal: { kind: 'operator', userId, name: 'op' } }),
      call({}),
    ];
    const notAVisitor: OperationContext[] = [
      call({ auth: apiKey }),
      call({ auth: token }),
      person(),
      call({ principal: { kind: 'gateway', gateway: 'payfast' } }),
      call({ principal: { kind: 'system', job: 'test' } }),
      call({}),
    ];
    // MCP sessions the door opened for clients that can show the confirmation page.
    const declared = {
      endpoint: '/mcp',
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: { url: {} } },
      clientName: 'Door test',
    };
    const toFind = await run(identity.openMcpSessionOp, visitor(), declared);
    const toEnd = await run(identity.openMcpSessionOp, visitor(), declared);
    // Each operation with an input that would change something (or read something) if it ran.
    const cases: {
      op: InternalOperation;
      input: unknown;
      right: () => OperationContext;
      changes: boolean;
    }[] = [
      {
        op: identity.createAccountApiKeyOp,
        input: { scopes: ['pets'], name: 'Phone' },
        right: person,
        changes: true,
      },
      { op: identity.revokeApiKeyOp, input: { keyId: key.id }, right: person, changes: true },
      { op: identity.listApiKeysOp, input: {}, right: person, changes: false },
      { op: identity.listAssistantConnectionsOp, input: {}, right: person, changes: false },
      { op: identity.pageHeaderOfOp, input: {}, right: person, changes: false },
      {
        op: identity.findAuthorizationRequestOp,
        input: { requestId: pending },
        right: person,
        changes: false,
      },
      {
        op: identity.answerAuthorizationRequestOp,
        input: { requestId: pending, approve: true },
        right: person,
        changes: true,
      },
      {
        op: identity.removeConnectionOp,
        input: { clientId: forRemoval.clientId },
        right: person,
        changes: true,
      },
      { op: identity.endWebSessionOp, input: { token: session!.token }, right: person, changes: true },
      {
        op: identity.signInWithPasswordOp,
        input: { email: EMAIL, password: PASSWORD },
        right: visitor,
        changes: true,
      },
      {
        op: identity.signInWithUpstreamIdentityOp,
        input: {
          issuer: 'https://id.example',
          subject: 'sub-9',
          email: 'upstream.door@example.com',
          name: 'Up',
        },
        right: visitor,
        changes: true,
      },
      {
        op: identity.keepUpstreamLoginOp,
        input: { state: 'state-1', login: { codeVerifier: 'v'.repeat(43), nonce: 'n-1', next: '/account' } },
        right: visitor,
        changes: true,
      },
      { op: identity.takeUpstreamLoginOp, input: { state: 'state-1' }, right: visitor, changes: true },
      {
        op: identity.sendSignInLinkOp,
        input: { email: EMAIL, reason: 'signin', publicUrl: server.url, next: '/account' },
        right: visitor,
        changes: true,
      },
      { op: identity.peekSignInLinkOp, input: { token: 'not-a-link' }, right: visitor, changes: false },
      {
        op: identity.followSignInLinkOp,
        input: { token: 'not-a-link', password: null },
        right: visitor,
        changes: false,
      },
      {
        op: identity.findWebSessionUserOp,
        input: { token: 'not-a-session' },
        right: visitor,
        changes: false,
      },
      { op: identity.formTokenKeyOp, input: {}, right: visitor, changes: false },
      {
        op: identity.registerOAuthClientOp,
        input: { client: { client_name: 'Another', redirect_uris: [REDIRECT] } },
        right: visitor,
        changes: true,
      },
      {
        op: identity.findOAuthClientMetadataOp,
        input: { clientId: forRefresh.clientId },
        right: visitor,
        changes: false,
      },
      {
        op: identity.clientFromMetadataDocumentOp,
        input: {
          clientId: 'https://assistant.example/client.json',
          fetchDocument: async (id: string) => ({
            client: { client_id: id, client_name: 'Doc assistant', redirect_uris: [REDIRECT] },
            cacheSeconds: 60,
          }),
        },
        right: visitor,
        changes: true,
      },
      {
        op: identity.requestAuthorizationOp,
        input: {
          clientId: forRefresh.clientId,
          redirectUri: REDIRECT,
          scopes: ['profile'],
          state: null,
          codeChallenge: pkce().challenge,
          resource: null,
        },
        right: visitor,
        changes: true,
      },
      {
        op: identity.exchangeRefreshTokenOp,
        input: { clientId: forRefresh.clientId, refreshToken: forRefresh.tokens.refreshToken },
        right: visitor,
        changes: true,
      },
      {
        op: identity.revokeOAuthTokenOp,
        input: { clientId: forRevoke.clientId, token: forRevoke.tokens.accessToken },
        right: visitor,
        changes: true,
      },
      { op: identity.openMcpSessionOp, input: declared, right: visitor, changes: true },
      {
        op: identity.findMcpSessionOp,
        input: { endpoint: '/mcp', sessionId: toFind.sessionId },
        right: visitor,
        changes: false,
      },
      {
        op: identity.endMcpSessionOp,
        input: { endpoint: '/mcp', sessionId: toEnd.sessionId },
        right: visitor,
        changes: true,
      },
    ];
    // Every identity operation is here, and each is open to exactly the kind it is tested with.
    expect(new Set(cases.map((c) => c.op.operationId))).toEqual(
      new Set(
        Object.values(identity)
          .map((op) => (op as InternalOperation).operationId)
          .filter((id) => !['codeChallengeFor', 'exchangeAuthorizationCode'].includes(id)),
      ),
    );

    for (const { op, input, right, changes } of cases) {
      const before = await fingerprint(server);
      const wrong = right === person ? notAPerson : notAVisitor;
      for (const ctx of wrong) {
        const err = await runOperation(op, ctx, input).catch((e: unknown) => e);
        expect(err, op.operationId).toBeInstanceOf(ServiceError);
        expect(err, op.operationId).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      }
      expect(await fingerprint(server), `${op.operationId} refused changed nothing`).toEqual(before);
      await runOperation(op, right(), input);
      if (changes) expect(await fingerprint(server), `${op.operationId} did its work`).not.toEqual(before);
    }
  });

  it('refuses the exchange of a code and the PKCE lookup to anyone but a visitor too', async () => {
    const client = await run(identity.registerOAuthClientOp, visitor(), {
      client: { client_name: 'Code assistant', redirect_uris: [REDIRECT] },
    });
    const { challenge } = pkce();
    const requestId = await run(identity.requestAuthorizationOp, visitor(), {
      clientId: client.client_id,
      redirectUri: REDIRECT,
      scopes: ['profile'],
      state: null,
      codeChallenge: challenge,
      resource: null,
    });
    const answer = await run(identity.answerAuthorizationRequestOp, person(), { requestId, approve: true });
    const code = answer!.code!;
    const before = await fingerprint(server);
    for (const ctx of [person(), call({ principal: { kind: 'system', job: 'test' } }), call({})]) {
      for (const [op, input] of [
        [identity.codeChallengeForOp, { clientId: client.client_id, code }],
        [identity.exchangeAuthorizationCodeOp, { clientId: client.client_id, code }],
      ] as [InternalOperation, unknown][]) {
        const err = await runOperation(op, ctx, input).catch((e: unknown) => e);
        expect(err).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      }
    }
    expect(await fingerprint(server)).toEqual(before);
    expect(await run(identity.codeChallengeForOp, visitor(), { clientId: client.client_id, code })).toBe(
      challenge,
    );
    const tokens = await run(identity.exchangeAuthorizationCodeOp, visitor(), {
      clientId: client.client_id,
      code,
    });
    expect(tokens.accessToken).toMatch(/^nat_/);
  });

  it('holds the password rule itself, counts names as the pages cut them, ends only your own session, and treats a bad cookie as none', async () => {
    // The password rule is the operation's: a short one is refused and the link stays usable.
    const linkForm = await openForm(server, '/signin/link');
    expect((await postForm(server, '/signin/link', { email: EMAIL }, linkForm)).status).toBe(200);
    const { link } = await mailedLink(server, EMAIL);
    const linkToken = new URL(link).searchParams.get('token')!;
    const short = await runOperation(identity.followSignInLinkOp, visitor(), {
      token: linkToken,
      password: 'short',
    }).catch((e: unknown) => e);
    expect(short).toBeInstanceOf(ServiceError);
    expect((short as ServiceError).status).toBe(400);
    expect((short as ServiceError).message).toMatch(/10 to 200 characters/);
    expect(await run(identity.peekSignInLinkOp, visitor(), { token: linkToken })).not.toBeNull();

    // Names as the pages cut them (in characters): 60 emoji are 120 UTF-16 units.
    const emojiName = '🐕'.repeat(60);
    const key = await run(identity.createAccountApiKeyOp, person(), { scopes: ['pets'], name: emojiName });
    const listed = await run(identity.listApiKeysOp, person(), {});
    expect(listed.map((k) => k.name)).toContain(emojiName);
    expect(key.key).toMatch(/^npk_/);
    const upstream = await run(identity.signInWithUpstreamIdentityOp, visitor(), {
      issuer: 'https://id.example',
      subject: 'sub-emoji',
      email: 'emoji.upstream@example.com',
      name: '🐈'.repeat(120),
    });
    expect(upstream).not.toBeNull();

    // Someone else's session is not yours to end: told as unknown, and it still signs them in.
    const other = await findOrCreateUser(server.db.sql, 'other.session@example.com', 'Other');
    await setPassword(server.db.sql, other.id, await hash(PASSWORD));
    const theirs = await run(identity.signInWithPasswordOp, visitor(), {
      email: 'other.session@example.com',
      password: PASSWORD,
    });
    const ended = await runOperation(identity.endWebSessionOp, person(), { token: theirs!.token }).catch(
      (e: unknown) => e,
    );
    expect((ended as ServiceError).status).toBe(404);
    expect((await run(identity.findWebSessionUserOp, visitor(), { token: theirs!.token }))?.id).toBe(
      other.id,
    );

    // A session cookie holding NUL signs in nobody: the pages answer as to a visitor, not a 400.
    for (const path of ['/signin', '/account']) {
      const res = await fetch(`${server.url}${path}`, {
        headers: { cookie: 'nogpets_session=abc%00def' },
        redirect: 'manual',
      });
      expect([200, 303], path).toContain(res.status);
    }

    // An empty client_id at /token is an unknown client (RFC 6749 §5.2), as before.
    const tokenRes = await fetch(`${server.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: '' }),
    });
    expect(tokenRes.status).toBeGreaterThanOrEqual(400);
    expect(tokenRes.status).toBeLessThan(500);
    expect(((await tokenRes.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('logs no password, session, key, code or token while people sign in and assistants connect', async () => {
    logged.length = 0;
    // A wrong password, then the right one, through the sign-in form.
    const signin = await openForm(server, '/signin');
    const refused = await postForm(server, '/signin', { email: EMAIL, password: WRONG_PASSWORD }, signin);
    expect(refused.status).toBe(401);
    const form = await signedInForm(server, EMAIL, PASSWORD);
    const sessionToken = /nogpets_session=([^;]+)/.exec(form.cookie)![1]!;
    // An API key made on the account page.
    const made = await postForm(server, '/account/keys', { name: 'Laptop', scopes: 'pets' }, form);
    const apiKey = /id="new-key">([^<]+)</.exec(await made.text())?.[1];
    expect(apiKey).toMatch(/^npk_/);
    // A sign-in link, followed with a new password chosen on its page.
    const linkForm = await openForm(server, '/signin/link');
    expect((await postForm(server, '/signin/link', { email: EMAIL }, linkForm)).status).toBe(200);
    const { link } = await mailedLink(server, EMAIL);
    const linkToken = new URL(link).searchParams.get('token')!;
    const linkPage = await openForm(server, `/signin/email?token=${linkToken}`);
    const followed = await postForm(
      server,
      '/signin/email',
      { token: linkToken, password: LINK_PASSWORD },
      linkPage,
    );
    expect(followed.status).toBe(303);
    // An assistant connects through the OAuth endpoints: register, authorize, consent, token, refresh, revoke.
    const registered = await server.post('/register', {
      redirect_uris: [REDIRECT],
      client_name: 'Log test assistant',
      token_endpoint_auth_method: 'none',
    });
    expect(registered.status).toBe(201);
    const clientId = String(registered.body.client_id);
    const { verifier, challenge } = pkce();
    const authorize = await fetch(
      `${server.url}/authorize?${new URLSearchParams({
        client_id: clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'profile',
        state: 'st-1',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      })}`,
      { redirect: 'manual' },
    );
    const consentPath = authorize.headers.get('location')!;
    const consentPage = await fetch(`${server.url}${consentPath}`, { headers: { cookie: form.cookie } });
    const requestId = new URL(consentPath, server.url).searchParams.get('request')!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(await consentPage.text())![1]!;
    const approved = await postForm(
      server,
      '/oauth/consent',
      { request: requestId, decision: 'approve' },
      { cookie: form.cookie, csrf },
    );
    const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
    const tokenAt = (body: Record<string, string>) =>
      fetch(`${server.url}/token`, {
        method: 'POST',
        body: new URLSearchParams({ client_id: clientId, ...body }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, string> }));
    const first = await tokenAt({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    });
    expect(first.status).toBe(200);
    const second = await tokenAt({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token! });
    expect(second.status).toBe(200);
    const revoked = await fetch(`${server.url}/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ client_id: clientId, token: second.body.access_token! }),
    });
    expect(revoked.status).toBe(200);

    // The log is there (one line per request at least), and none of the secrets are in it.
    const log = logged.join('\n');
    expect(logged.filter((l) => l.includes('request completed')).length).toBeGreaterThanOrEqual(10);
    const secrets = {
      password: PASSWORD,
      wrongPassword: WRONG_PASSWORD,
      linkPassword: LINK_PASSWORD,
      sessionToken,
      apiKey: apiKey!,
      linkToken,
      code,
      verifier,
      accessToken: first.body.access_token!,
      refreshToken: first.body.refresh_token!,
      rotatedRefresh: second.body.refresh_token!,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThan(8);
      expect(log.includes(secret), `${name} is in the log`).toBe(false);
      expect(log.includes(encodeURIComponent(secret)), `${name} (encoded) is in the log`).toBe(false);
    }
  });
});
