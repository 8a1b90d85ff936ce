import type { Operation } from '@nogpets/operations';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

type JsonSchemaObject = Tool['inputSchema'];

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchemaObject {
  const out = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete out.$schema;
  // A schema with a registered id comes out as {$ref, $defs}; MCP wants `type: "object"` at the top.
  const ref = out.$ref;
  const defs = out.$defs as Record<string, Record<string, unknown>> | undefined;
  if (typeof ref === 'string' && defs && ref.startsWith('#/$defs/')) {
    const name = ref.slice('#/$defs/'.length);
    const { [name]: root, ...others } = defs;
    const stillUsed = JSON.stringify(others).includes(`"#/$defs/${name}"`);
    if (root && !stillUsed) {
      return { ...root, ...(Object.keys(others).length ? { $defs: others } : {}) } as JsonSchemaObject;
    }
  }
  return out as JsonSchemaObject;
}

/** The MCP tool of an operation: name, description, schemas and annotations from its one definition. */
export function toolOf(op: Operation): Tool {
  const description =
    op.auth === 'public'
      ? op.description
      : `${op.description}\n\nNeeds the person's permission (scope \`${op.auth.scope}\`).`;
  return {
    name: op.toolName,
    title: op.title,
    description,
    inputSchema: jsonSchema(op.input, 'input'),
    outputSchema: jsonSchema(op.output, 'output'),
    annotations: { title: op.title, ...op.annotations },
  };
}
