import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { OperationContext } from './context.js';
import { defineOperation, READ_ONLY } from './define.js';
import { runOperation } from './run-operation.js';

/** An operation whose handler answers whatever the test hands it. */
const echo = defineOperation({
  operationId: 'echo',
  toolName: 'echo',
  title: 'Echo',
  tag: 'Test',
  mcp: 'none',
  method: 'GET',
  path: '/v1/echo',
  inputIn: 'query',
  auth: 'public',
  description: 'Answers its input.',
  input: z.object({ answer: z.unknown() }).strict(),
  output: z.object({ count: z.int(), names: z.array(z.string()) }),
  successStatus: 200,
  errors: [],
  annotations: READ_ONLY,
  async handler(_ctx, input) {
    return input.answer as { count: number; names: string[] };
  },
});

const context = (checkOutputs: boolean) =>
  ({
    deps: { checkOutputs },
    requestId: 'test',
    clientName: null,
    auth: null,
    log: { info() {}, warn() {}, error() {} },
  }) as unknown as OperationContext;

describe('runOperation with CHECK_OUTPUTS', () => {
  it('passes an answer that matches the declared output schema', async () => {
    const answer = { count: 2, names: ['Rex', 'Milo'] };
    await expect(runOperation(echo, context(true), { answer })).resolves.toEqual(answer);
  });

  it('refuses an answer that drifted from the declared output schema, naming where', async () => {
    const drifted = { count: '2', names: ['Rex'], extra: true };
    await expect(runOperation(echo, context(true), { answer: drifted })).rejects.toThrow(
      /echo answered outside its output schema: count: /,
    );
    await expect(runOperation(echo, context(true), { answer: { count: 1 } })).rejects.toThrow(/names/);
    // Unchecked (production default), the answer goes out as it is.
    await expect(runOperation(echo, context(false), { answer: drifted })).resolves.toEqual(drifted);
  });
});
