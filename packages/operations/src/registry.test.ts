import { describe, expect, it } from 'vitest';
import { isInternal } from './core/index.js';
import { internalOperations } from './internal/index.js';
import { operations } from './registry.js';

describe('the operation registry', () => {
  it('gives every operation a unique id, tool name and route', () => {
    const unique = (xs: string[]) => new Set(xs).size === xs.length;
    expect(unique(operations.map((o) => o.operationId))).toBe(true);
    expect(unique(operations.map((o) => o.toolName))).toBe(true);
    expect(unique(operations.map((o) => `${o.method} ${o.path}`))).toBe(true);
  });

  it('holds no internal operation: what NogPets runs itself is served by no door', () => {
    expect(operations.filter((o) => isInternal(o)).map((o) => o.operationId)).toEqual([]);
    const ids = new Set(operations.map((o) => o.operationId));
    expect(internalOperations.filter((o) => ids.has(o.operationId)).map((o) => o.operationId)).toEqual([]);
  });

  it('names tools in snake_case and routes under /v1', () => {
    for (const op of operations) {
      expect(op.toolName).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(op.path.startsWith('/v1/')).toBe(true);
    }
  });

  it('marks reads read-only and idempotent, and never leaves destructiveHint to its default', () => {
    for (const op of operations) {
      expect(typeof op.annotations.destructiveHint).toBe('boolean');
      if (op.method === 'GET')
        expect(op.annotations).toMatchObject({
          readOnlyHint: true,
          idempotentHint: true,
          destructiveHint: false,
        });
    }
  });

  it('describes each operation for assistants and lists its error responses', () => {
    for (const op of operations) {
      expect(op.description.length).toBeGreaterThan(80);
      expect(op.errors.some((e) => e.status === 429)).toBe(true);
    }
  });
});
