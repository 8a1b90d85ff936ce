import type { Operation } from '@nogpets/operations';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

type JsonSchemaObject = Tool['inputSchema'];
type Json = Record<string, unknown>;

/**
 * Keys of an operation's metadata that are for the OpenAPI document only (zod-openapi's), and its
 * examples: not a JSON Schema keyword, and a model copies them (cancel_booking's `confirm: true`).
 */
const OPENAPI_ONLY = ['override', 'param', 'header', 'example'] as const;

/**
 * Every `$ref` into `$defs` replaced by the schema it names, so a tool's schema says in place that
 * `category` is one of three values and `stay` an object: generic MCP clients (the Inspector's
 * CLI) do not follow references and sent such fields as strings.
 */
function inlineRefs(node: unknown, defs: Record<string, Json>, seen: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => inlineRefs(item, defs, seen));
  if (!node || typeof node !== 'object') return node;
  const { $ref, $defs: _defs, ...rest } = node as Json;
  const inlined: Json = {};
  for (const [key, value] of Object.entries(rest)) inlined[key] = inlineRefs(value, defs, seen);
  if (typeof $ref !== 'string') return inlined;
  const name = $ref.startsWith('#/$defs/') ? $ref.slice('#/$defs/'.length) : undefined;
  const target = name === undefined ? undefined : defs[name];
  // A schema that contains itself cannot be written out in place; none of ours does.
  if (!name || !target || seen.includes(name)) throw new Error(`Cannot inline ${$ref} in a tool schema.`);
  // Keys beside the reference (a description of this use) win over the referenced schema's own.
  return { ...(inlineRefs(target, defs, [...seen, name]) as Json), ...inlined };
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchemaObject {
  const out = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: ({ jsonSchema: s }) => {
      for (const key of OPENAPI_ONLY) delete (s as Json)[key];
    },
  }) as Json;
  delete out.$schema;
  const defs = (out.$defs ?? {}) as Record<string, Json>;
  return inlineRefs(out, defs) as JsonSchemaObject;
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
