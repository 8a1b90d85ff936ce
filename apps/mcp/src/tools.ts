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

/** zod's bounds of an integer with none of its own: true of every integer, so they say nothing. */
const SAFE_INTEGER_BOUNDS: Json = { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

/** Keywords an answer's schema drops: limits on what we send are ours to keep, not a reader's. */
const OUTPUT_LIMITS = new Set(['minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'multipleOf']);

/** A schema without zod's safe-integer bounds, which every unbounded integer carries. */
function withoutSafeBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeBounds);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key in SAFE_INTEGER_BOUNDS && value === SAFE_INTEGER_BOUNDS[key]) continue;
    out[key] = key === 'properties' ? mapValues(value as Json, withoutSafeBounds) : withoutSafeBounds(value);
  }
  return out;
}

function mapValues(obj: Json, f: (v: unknown) => unknown): Json {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, f(v)]));
}

/**
 * An answer's schema as a tool lists it: the top level of the answer (each field's type, enum and
 * whether it is always there), with nested objects and list items as plain `object`s, and no
 * prose (docs/decisions.md, "Two MCP endpoints"). Clients validate `structuredContent` against it;
 * what each nested field means is in the tool's description and the OpenAPI document. Open to new
 * fields (no `additionalProperties: false`), so adding one breaks no client that validates.
 */
export function compactOutput(node: unknown, depth = 0): unknown {
  if (Array.isArray(node)) return node.map((item) => compactOutput(item, depth));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === 'description' || key === 'title' || OUTPUT_LIMITS.has(key)) continue;
    if (key === 'additionalProperties' && value === false) continue;
    if (key === 'properties' || key === 'required') {
      if (depth > 0) continue;
      out[key] = key === 'properties' ? mapValues(value as Json, (v) => compactOutput(v, depth + 1)) : value;
      continue;
    }
    out[key] = compactOutput(value, depth);
  }
  return out;
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
    inputSchema: withoutSafeBounds(jsonSchema(op.input, 'input')) as JsonSchemaObject,
    outputSchema: compactOutput(withoutSafeBounds(jsonSchema(op.output, 'output'))) as JsonSchemaObject,
    // The title is the tool's own (`title` above); annotations carry only the hints.
    annotations: { ...op.annotations },
  };
}
