import { listServices, operations } from '@nogpets/operations';
import { describe, expect, it } from 'vitest';
import { toolOf } from './tools.js';

describe('toolOf', () => {
  it('derives name, schemas and annotations from the operation', () => {
    const tool = toolOf(listServices as never);
    expect(tool.name).toBe('list_services');
    expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(tool.outputSchema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['currency', 'lines']),
    });
    expect(tool.annotations).toMatchObject({
      readOnlyHint: true,
      idempotentHint: true,
      destructiveHint: false,
    });
  });

  it('gives every operation an object schema at the top, as MCP requires', () => {
    for (const op of operations) {
      const tool = toolOf(op);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      // destructiveHint defaults to true when absent, so it is always written out.
      expect(typeof tool.annotations?.destructiveHint).toBe('boolean');
    }
  });
});
