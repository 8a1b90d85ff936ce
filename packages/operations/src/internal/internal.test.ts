import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AuthContext,
  defineInternalOperation,
  isInternal,
  type OperationContext,
  type Principal,
  runOperation,
  ServiceError,
} from '../core/index.js';
import { operations } from '../registry.js';
import { internalOperations } from './index.js';

/** An internal operation for the operator that answers who ran it. */
const whoRan = defineInternalOperation({
  operationId: 'whoRan',
  title: 'Who ran it',
  description: 'Answers the principal of the call.',
  auth: { principal: ['operator'] },
  input: z.object({ n: z.int() }).strict(),
  output: z.object({ kind: z.string(), n: z.int() }),
  events: [],
  async handler(ctx, input) {
    return { kind: ctx.principal!.kind, n: input.n };
  },
});

const person: AuthContext = {
  userId: 'usr_x',
  credentialId: 'key_x',
  kind: 'API_KEY',
  scopes: [],
  clientId: null,
  clientName: null,
};

const context = (who: { principal?: Principal; auth?: AuthContext }) =>
  ({
    deps: { checkOutputs: false },
    requestId: 'test',
    clientName: null,
    auth: who.auth ?? null,
    log: { info() {}, warn() {}, error() {} },
    principal: who.principal,
  }) as unknown as OperationContext;

const operator: Principal = { kind: 'operator', userId: null, name: 'operator (test)' };
const system: Principal = { kind: 'system', job: 'test' };

describe('an internal operation', () => {
  it('runs for the principal kind it names, with its input checked', async () => {
    await expect(runOperation(whoRan, context({ principal: operator }), { n: 2 })).resolves.toEqual({
      kind: 'operator',
      n: 2,
    });
    await expect(runOperation(whoRan, context({ principal: operator }), { n: 'two' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('refuses a person, another principal kind and a call with neither: 403 FORBIDDEN', async () => {
    for (const who of [{ auth: person }, { auth: person, principal: operator }, { principal: system }, {}]) {
      const err = await runOperation(whoRan, context(who), { n: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceError);
      expect(err).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    }
  });

  it('is in no door: the registry holds none, and every internal operation is marked and names its principals', () => {
    expect(operations.filter((op) => isInternal(op))).toEqual([]);
    const publicIds = new Set(operations.map((op) => op.operationId));
    expect(internalOperations.filter((op) => publicIds.has(op.operationId))).toEqual([]);
    expect(new Set(internalOperations.map((op) => op.operationId)).size).toBe(internalOperations.length);
    for (const op of internalOperations) {
      expect(isInternal(op)).toBe(true);
      expect(op.auth.principal.length).toBeGreaterThan(0);
      expect(op).not.toHaveProperty('path');
      expect(op).not.toHaveProperty('toolName');
    }
  });
});
