import {
  type AuthContext,
  type Deps,
  internalOperations,
  jobOperations,
  type OperationContext,
  operations,
  operatorOperations,
  type Principal,
  runOperation,
  SCOPE_NAMES,
  ServiceError,
} from '@nogpets/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

const quiet = { info() {}, warn() {}, error() {} };

function call(deps: Deps, who: { principal?: Principal; auth?: AuthContext }): OperationContext {
  return {
    deps,
    requestId: 'internal-operations-test',
    clientName: null,
    auth: who.auth ?? null,
    log: quiet,
    ...(who.principal ? { principal: who.principal } : {}),
  };
}

const SYSTEM: Principal = { kind: 'system', job: 'test-job' };
const OPERATOR: Principal = { kind: 'operator', userId: null, name: 'operator (test)' };

async function refusal(promise: Promise<unknown>): Promise<ServiceError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}

describe('internal operations', () => {
  let server: TestServer;
  let deps: Deps;
  let person: AuthContext;

  beforeAll(async () => {
    server = await startTestServer();
    deps = server.service.runtime.deps;
    const key = await runOperation(operatorOperations.createApiKey, call(deps, { principal: OPERATOR }), {
      email: 'internal-ops@example.com',
      scopes: [...SCOPE_NAMES],
    });
    // A person holding every scope there is: still not NogPets' own.
    person = {
      userId: key.userId,
      credentialId: key.id,
      kind: 'API_KEY',
      scopes: [...SCOPE_NAMES],
      clientId: null,
      clientName: null,
    };
  });
  afterAll(() => server?.stop());

  const shopOpen = async () =>
    (await runOperation(operatorOperations.shopStatus, call(deps, { principal: OPERATOR }), {})).open;

  it("an operator's operation refuses a person, the system and no one (403, nothing changed), and runs for the operator", async () => {
    const before = await shopOpen();
    const close = { open: !before };
    for (const who of [{ auth: person }, { auth: person, principal: OPERATOR }, { principal: SYSTEM }, {}]) {
      const err = await refusal(runOperation(operatorOperations.setShopOpen, call(deps, who), close));
      expect(err.code).toBe('FORBIDDEN');
      expect(err.status).toBe(403);
      expect(err.message).toMatch(/^setShopOpen is run by NogPets itself \(operator\)/);
    }
    expect(await shopOpen()).toBe(before);

    const done = await runOperation(
      operatorOperations.setShopOpen,
      call(deps, { principal: OPERATOR }),
      close,
    );
    expect(done).toEqual({ open: !before, changed: true });
    expect(await shopOpen()).toBe(!before);
    // Its input is checked as a public operation's is.
    const bad = await refusal(
      runOperation(operatorOperations.setShopOpen, call(deps, { principal: OPERATOR }), { open: 'yes' }),
    );
    expect(bad.code).toBe('BAD_REQUEST');
    await runOperation(operatorOperations.setShopOpen, call(deps, { principal: OPERATOR }), { open: before });
  });

  it("a job's operation refuses a person and the operator, and runs for the system", async () => {
    const now = deps.clock.now().getTime();
    await server.db
      .sql`insert into rate_limits (key, points, expire) values ('internal-stale', 1, ${now - 2 * 3600_000})`;
    const stale = async () =>
      (await server.db.sql`select count(*)::int as n from rate_limits where key = 'internal-stale'`)[0]!.n;
    for (const who of [{ auth: person }, { principal: OPERATOR }, { auth: person, principal: SYSTEM }]) {
      const err = await refusal(runOperation(jobOperations.purgeExpiredRateLimits, call(deps, who), {}));
      expect(err.status).toBe(403);
      expect(err.message).toMatch(/\(system\)/);
    }
    expect(await stale()).toBe(1);
    const done = await runOperation(
      jobOperations.purgeExpiredRateLimits,
      call(deps, { principal: SYSTEM }),
      {},
    );
    expect(done.deleted).toBeGreaterThanOrEqual(1);
    expect(await stale()).toBe(0);
  });

  it('no door serves an internal operation: not the registry, the API, its OpenAPI document nor MCP', async () => {
    expect(internalOperations.length).toBeGreaterThan(20);
    const internalIds = new Set(internalOperations.map((o) => o.operationId));
    for (const op of operations) {
      expect(internalIds.has(op.operationId), op.operationId).toBe(false);
      expect((op as { internal?: unknown }).internal).toBeUndefined();
    }
    const doc = (await server.get('/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const served = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(served.length).toBe(operations.length);
    expect(served.filter((id) => internalIds.has(id))).toEqual([]);
    const tools = [
      ...(await (await server.mcp(undefined, 'person')).listTools()).tools,
      ...(await (await server.mcp(undefined, 'business')).listTools()).tools,
    ];
    expect(tools.length).toBe(operations.filter((op) => op.mcp !== 'none').length);
    expect(tools.filter((t) => internalIds.has(t.name))).toEqual([]);
  });
});
