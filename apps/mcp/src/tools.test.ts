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

describe('toolOf schemas', () => {
  it('writes every schema in place, with no $ref or $defs, and leaves out what is for OpenAPI only', () => {
    for (const op of operations) {
      const text = JSON.stringify(toolOf(op));
      expect(text, op.toolName).not.toMatch(/"\$ref"|"\$defs"|"override"|"param"/);
    }
  });

  it('writes a named enum in place, with its values and its description', () => {
    const quote = operations.find((op) => op.toolName === 'get_quote')!;
    const category = (toolOf(quote).inputSchema.properties as Record<string, Record<string, unknown>>)
      .category!;
    expect(category).toMatchObject({ type: 'string', enum: ['grooming', 'walking', 'sitting'] });
    expect(typeof category.description).toBe('string');
  });
});
