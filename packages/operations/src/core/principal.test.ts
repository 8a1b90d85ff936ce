import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AuthContext } from './auth.js';
import type { Deps, OperationContext, Principal } from './context.js';
import { defineInternalOperation, type PrincipalKind } from './define.js';
import { ServiceError } from './errors.js';
import { runOperation } from './run-operation.js';

const quiet = { info() {}, warn() {}, error() {} };
const deps = { checkOutputs: false } as unknown as Deps;

function who(kinds: readonly PrincipalKind[]) {
  return defineInternalOperation({
    operationId: 'whoAmI',
    title: 'Who am I',
    description: 'Answers who ran it.',
    auth: { principal: kinds },
    input: z.object({}).strict(),
    output: z.string(),
    events: [],
    async handler(ctx) {
      return ctx.auth ? `${ctx.auth.kind}:${ctx.auth.userId}` : (ctx.principal?.kind ?? 'none');
    },
  });
}

const credential = (kind: AuthContext['kind']): AuthContext => ({
  userId: 'usr_1',
  credentialId: 'cred_1',
  kind,
  scopes: [],
  clientId: null,
  clientName: null,
});

function call(c: { auth?: AuthContext; principal?: Principal }): OperationContext {
  return {
    deps,
    requestId: 'principal-test',
    clientName: null,
    auth: c.auth ?? null,
    log: quiet,
    ...(c.principal ? { principal: c.principal } : {}),
  };
}

async function refused(p: Promise<unknown>): Promise<ServiceError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}

describe('who may run an internal operation', () => {
  it("'person' is the person's own browser session, never an API key or an assistant's token", async () => {
    const op = who(['person']);
    expect(await runOperation(op, call({ auth: credential('WEB_SESSION') }), {})).toBe('WEB_SESSION:usr_1');
    for (const kind of ['API_KEY', 'ACCESS'] as const) {
      expect((await refused(runOperation(op, call({ auth: credential(kind) }), {}))).status).toBe(403);
    }
    // A session with a principal beside it, or no one at all, is not the person.
    const operator: Principal = { kind: 'operator', userId: null, name: 'op' };
    expect(
      (await refused(runOperation(op, call({ auth: credential('WEB_SESSION'), principal: operator }), {})))
        .status,
    ).toBe(403);
    expect((await refused(runOperation(op, call({}), {}))).status).toBe(403);
  });

  it("'visitor' and 'gateway' are principals without a credential; each runs only what names it", async () => {
    const visitorOnly = who(['visitor']);
    expect(await runOperation(visitorOnly, call({ principal: { kind: 'visitor' } }), {})).toBe('visitor');
    const gateway: Principal = { kind: 'gateway', gateway: 'payfast' };
    expect((await refused(runOperation(visitorOnly, call({ principal: gateway }), {}))).status).toBe(403);
    // A signed-in person is not a visitor, even with the visitor principal beside the session.
    expect(
      (
        await refused(
          runOperation(
            visitorOnly,
            call({ auth: credential('WEB_SESSION'), principal: { kind: 'visitor' } }),
            {},
          ),
        )
      ).status,
    ).toBe(403);
    expect(await runOperation(who(['gateway']), call({ principal: gateway }), {})).toBe('gateway');
    expect(
      (await refused(runOperation(who(['person']), call({ principal: { kind: 'visitor' } }), {}))).status,
    ).toBe(403);
  });
});
