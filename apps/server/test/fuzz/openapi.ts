/** Requests to fuzz, read from the OpenAPI document: one arbitrary of requests per operation. */
import fc from 'fast-check';
import { type Hints, type JsonSchema, mutatedOf, resolve, type SchemaContext, validOf } from './schema.js';
import {
  contentType,
  encodePart,
  idempotencyKey,
  malformedBody,
  type UrlPart,
  weirdNumber,
  weirdString,
  weirdUrlPart,
} from './weird.js';

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

export interface OperationInfo {
  operationId: string;
  method: string;
  /** The OpenAPI path, with `{name}` placeholders. */
  path: string;
  /** The scope it needs; null when public. */
  scope: string | null;
  parameters: Parameter[];
  body?: { required: boolean; schema: JsonSchema };
  tool?: string;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The parts of an OpenAPI 3.1 document the fuzzer reads. */
export interface OpenApiDocument {
  paths: Record<string, PathItem>;
  security?: Record<string, string[]>[];
  [key: string]: unknown;
}

interface OpenApiOperation {
  operationId?: string;
  parameters?: unknown[];
  security?: Record<string, string[]>[];
  requestBody?: unknown;
  'x-mcp-tool'?: string;
}

type PathItem = { parameters?: unknown[] } & Partial<Record<string, OpenApiOperation | unknown[]>>;

/** Every operation of the document. */
export function operationsOf(doc: OpenApiDocument): OperationInfo[] {
  const ctx: SchemaContext = { root: doc };
  const out: OperationInfo[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as OpenApiOperation | undefined;
      if (!op) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => resolve(p, ctx));
      const security = op.security ?? doc.security ?? [];
      const scope = security.flatMap((s) => Object.values(s).flat())[0] ?? null;
      const json = op.requestBody ? resolve(op.requestBody, ctx) : undefined;
      const bodySchema = (json?.content as Record<string, { schema?: JsonSchema }> | undefined)?.[
        'application/json'
      ]?.schema;
      out.push({
        operationId: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        scope,
        parameters: params.map((p) => ({
          name: String(p.name),
          in: p.in as Parameter['in'],
          required: Boolean(p.required),
          schema: (p.schema ?? {}) as JsonSchema,
        })),
        ...(bodySchema ? { body: { required: Boolean(json?.required), schema: bodySchema } } : {}),
        ...(op['x-mcp-tool'] ? { tool: op['x-mcp-tool'] } : {}),
      });
    }
  }
  return out;
}

/** The scopes the document's operations ask for. */
export function scopesUsed(ops: OperationInfo[]): Set<string> {
  return new Set(ops.flatMap((o) => (o.scope ? [o.scope] : [])));
}

export type Credential = 'none' | 'full' | 'narrow' | 'invalid';
export const CREDENTIALS: Credential[] = ['none', 'full', 'narrow', 'invalid'];

export type Mode = 'valid' | 'mutated' | 'raw';

export interface FuzzCase {
  operationId: string;
  mode: Mode;
  credential: Credential;
  /** For `invalid`: which malformed Authorization header. */
  invalidAuth: number;
  method: string;
  /** Path and query, encoded. */
  url: string;
  contentType?: string;
  body?: string | Uint8Array;
  idempotencyKey?: string;
  /** The JSON value the body was made from, when there is one (for the report). */
  value?: unknown;
}

function isEncodable(v: unknown): boolean {
  return v !== undefined;
}

/** A query/path value as text: numbers keep `-0`, objects go as JSON. */
function asPart(v: unknown): UrlPart {
  if (typeof v === 'string') return { text: v };
  if (typeof v === 'number') return { text: Object.is(v, -0) ? '-0' : String(v) };
  if (typeof v === 'boolean' || v === null) return { text: String(v) };
  return { text: JSON.stringify(v) ?? '' };
}

function partArb(p: Parameter, ctx: SchemaContext, bad: boolean): fc.Arbitrary<UrlPart[] | undefined> {
  const valid = validOf(p.schema, ctx, p.name).map((v) => [asPart(v)]);
  if (!bad) return valid;
  return fc.oneof(
    { arbitrary: weirdUrlPart().map((x) => [x]), weight: 4 },
    {
      arbitrary: mutatedOf(p.schema, ctx, p.name).map((v) => (isEncodable(v) ? [asPart(v)] : undefined)),
      weight: 3,
    },
    { arbitrary: weirdNumber(p.schema).map((v) => [asPart(v)]), weight: 1 },
    // The same query parameter twice: express hands the operation an array.
    { arbitrary: fc.tuple(valid, valid).map(([a, b]) => [...a, ...b]), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

/** Requests to one operation, of every mode and credential. Build it once: it is not cheap. */
export function requestsFor(op: OperationInfo, ctx: SchemaContext): fc.Arbitrary<FuzzCase> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  // One spot is wrong in a mutated request; the others stay valid so the wrong one is reached.
  const spots = [
    ...pathParams.map((p) => `path:${p.name}`),
    ...queryParams.map((p) => `query:${p.name}`),
    ...(op.body ? ['body'] : []),
    'query:+unknown',
  ];
  const build = (mode: Mode, badSpot: string | null): fc.Arbitrary<FuzzCase> => {
    const spotBad = (spot: string) => mode === 'raw' || (mode === 'mutated' && spot === badSpot);
    const path = fc.tuple(
      ...pathParams.map((p) => partArb(p, ctx, spotBad(`path:${p.name}`)).map((v) => [p.name, v] as const)),
    );
    const query = fc.tuple(
      ...queryParams.map((p) => {
        const present =
          p.required || spotBad(`query:${p.name}`)
            ? fc.constant(true)
            : fc.oneof(
                { arbitrary: fc.constant(false), weight: 2 },
                { arbitrary: fc.constant(true), weight: 1 },
              );
        return fc
          .tuple(present, partArb(p, ctx, spotBad(`query:${p.name}`)))
          .map(([on, v]) => [p.name, on ? v : undefined] as const);
      }),
    );
    const unknownQuery = spotBad('query:+unknown')
      ? fc.option(
          fc.tuple(fc.constantFrom('unknown', '__proto__', 'limit[$gt]', 'a%00', ''), weirdUrlPart()),
          { freq: 2 },
        )
      : fc.constant(null);
    const body = bodyArb(op, ctx, mode, spotBad('body'));
    const method =
      mode === 'raw'
        ? fc.oneof(
            { arbitrary: fc.constant(op.method), weight: 9 },
            { arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), weight: 1 },
          )
        : fc.constant(op.method);
    return fc
      .record({
        // The full key half the time: the other kinds stop at the door, it goes on to the handlers.
        credential: fc.constantFrom<Credential>('full', 'full', 'full', 'none', 'narrow', 'invalid'),
        invalidAuth: fc.nat({ max: 7 }),
        idempotency: fc.option(idempotencyKey(), { freq: 3 }),
        path,
        query,
        unknownQuery,
        body,
        method,
      })
      .map(({ credential, invalidAuth, idempotency, path, query, unknownQuery, body, method }): FuzzCase => {
        let url = op.path;
        for (const [name, parts] of path) {
          url = url.replace(`{${name}}`, parts ? parts.map(encodePart).join('') : '');
        }
        const pairs: string[] = [];
        for (const [name, parts] of query) {
          for (const part of parts ?? []) pairs.push(`${encodeURIComponent(name)}=${encodePart(part)}`);
        }
        if (unknownQuery) pairs.push(`${unknownQuery[0]}=${encodePart(unknownQuery[1])}`);
        if (pairs.length) url += `?${pairs.join('&')}`;
        const withBody = method !== 'GET' && body.body !== undefined;
        return {
          operationId: op.operationId,
          mode,
          credential,
          invalidAuth,
          method,
          url,
          ...(withBody ? body : {}),
          ...(idempotency !== null && (method !== 'GET' || mode === 'raw')
            ? { idempotencyKey: idempotency }
            : {}),
        };
      });
  };
  // About a third valid, half mutated (spread over the spots), a sixth raw.
  return fc.oneof(
    { arbitrary: build('valid', null), weight: 2 * spots.length },
    ...spots.map((spot) => ({ arbitrary: build('mutated', spot), weight: 3 })),
    { arbitrary: build('raw', null), weight: spots.length },
  );
}

interface BodyPart {
  contentType?: string;
  body?: string | Uint8Array;
  value?: unknown;
}

function bodyArb(op: OperationInfo, ctx: SchemaContext, mode: Mode, bad: boolean): fc.Arbitrary<BodyPart> {
  const json = (v: unknown): BodyPart =>
    v === undefined ? {} : { contentType: 'application/json', body: JSON.stringify(v), value: v };
  if (!op.body) {
    // No body is described: send none, or (when fuzzing) something anyway.
    if (!bad) return fc.constant({});
    return fc.oneof(
      fc.constant({}),
      fc.jsonValue({ maxDepth: 2 }).map(json),
      malformedBody().map((body) => ({ contentType: 'application/json', body })),
    );
  }
  const schema = op.body.schema;
  // `body:<operationId>` hints are whole bodies known to be good (a corpus), mixed in and mutated too.
  const name = `body:${op.operationId}`;
  const valid = validOf(schema, ctx, name);
  if (!bad) {
    return op.body.required ? valid.map(json) : fc.oneof(valid.map(json), fc.constant({}));
  }
  if (mode === 'mutated') {
    return fc.oneof(
      { arbitrary: mutatedOf(schema, ctx, name).map(json), weight: 9 },
      { arbitrary: fc.constant({}), weight: 1 },
    );
  }
  // Raw: bytes that are not the JSON asked for, or JSON under the wrong content type.
  return fc.oneof(
    {
      arbitrary: fc
        .tuple(malformedBody(), contentType())
        .map(([body, ct]) => ({ ...(ct ? { contentType: ct } : {}), body })),
      weight: 3,
    },
    {
      arbitrary: fc
        .tuple(valid, contentType())
        .map(([v, ct]) => ({ ...(ct ? { contentType: ct } : {}), body: JSON.stringify(v), value: v })),
      weight: 2,
    },
    {
      arbitrary: fc.tuple(valid, weirdString()).map(([v, s]) => ({
        contentType: 'application/x-www-form-urlencoded',
        body: new URLSearchParams(flat(v, s)).toString(),
      })),
      weight: 1,
    },
  );
}

function flat(v: unknown, s: string): Record<string, string> {
  const out: Record<string, string> = { weird: s };
  if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) out[k] = typeof x === 'string' ? x : JSON.stringify(x);
  }
  return out;
}

/** The malformed Authorization headers an `invalid` credential sends. */
export function invalidAuthorization(n: number, validKey: string): string {
  const variants = [
    `Bearer npk_${'A'.repeat(43)}`,
    `Bearer nat_${'b'.repeat(43)}`,
    'Bearer ',
    'Bearer',
    'Basic dXNlcjpwYXNz',
    `Bearer ${validKey}x`,
    `Bearer ${validKey.slice(0, -1)}`,
    `Bearer ${'x'.repeat(5000)}`,
  ];
  return variants[n % variants.length]!;
}

export type { Hints };
