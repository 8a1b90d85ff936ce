/**
 * fast-check arbitraries from JSON Schema: the subset the OpenAPI document and the MCP tool
 * schemas use (type, properties, required, enum, const, minimum/maximum, exclusiveMinimum/Maximum,
 * minLength/maxLength, pattern, format date/date-time/uuid/email, items, minItems/maxItems,
 * anyOf/oneOf/allOf, additionalProperties, $ref to the same document).
 *
 * `validOf` makes values the schema accepts (strings may still hold NUL or lone surrogates: the
 * schema does not forbid them); `mutatedOf` makes values that are wrong in one place, anywhere in
 * the tree (a dropped required field, a wrong type, an extra property, an extreme number...).
 */
import fc from 'fast-check';
import { weirdNumber, weirdString, wrongType } from './weird.js';

export type JsonSchema = Record<string, unknown>;

/** Realistic values by property name (`serviceIds[]` for the items of `serviceIds`), mixed in often. */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

export interface SchemaContext {
  /** What `$ref`s point into: the OpenAPI document, or the tool's input schema. */
  root: unknown;
  hints?: Hints;
}

const MAX_DEPTH = 8;

/** Follows `$ref` (JSON pointers into the root only). */
export function resolve(schema: unknown, ctx: SchemaContext): JsonSchema {
  let s = schema as JsonSchema;
  for (let i = 0; i < 20 && s && typeof s.$ref === 'string'; i++) {
    const ref = s.$ref as string;
    if (!ref.startsWith('#')) throw new Error(`Only local $refs are supported: ${ref}`);
    let target: unknown = ctx.root;
    for (const part of ref.slice(1).split('/').filter(Boolean)) {
      target = (target as Record<string, unknown>)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    if (target === undefined) throw new Error(`Unresolved $ref ${ref}`);
    const { $ref: _ignored, ...rest } = s;
    s = { ...(target as JsonSchema), ...rest };
  }
  return s ?? {};
}

function typesOf(s: JsonSchema): string[] {
  if (Array.isArray(s.type)) return s.type as string[];
  if (typeof s.type === 'string') return [s.type];
  if (s.properties || s.additionalProperties !== undefined || s.required) return ['object'];
  if (s.items) return ['array'];
  if (s.enum || s.const !== undefined) return [];
  return [];
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Mixes realistic values in; for patterned strings only those the pattern allows (`start` is a date-time in one place, HH:MM in another). */
function hinted(
  base: fc.Arbitrary<unknown>,
  hint: fc.Arbitrary<unknown> | undefined,
  s?: JsonSchema,
): fc.Arbitrary<unknown> {
  if (!hint) return base;
  const pattern = s && typeof s.pattern === 'string' ? safeRegExp(s.pattern) : undefined;
  if (!pattern) return fc.oneof({ arbitrary: hint, weight: 3 }, { arbitrary: base, weight: 1 });
  // Only hints the pattern allows; none when none does (a filter that never passes never ends).
  const fits = (v: unknown) => typeof v !== 'string' || pattern.test(v);
  const seen = fc.sample(hint, { numRuns: 50, seed: 1 });
  if (!seen.some(fits)) return base;
  return fc.oneof({ arbitrary: hint.filter(fits), weight: 3 }, { arbitrary: base, weight: 1 });
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

function dateArb(): fc.Arbitrary<Date> {
  return fc.date({
    min: new Date('1999-01-01T00:00:00Z'),
    max: new Date('2099-12-31T00:00:00Z'),
    noInvalidDate: true,
  });
}

function stringOf(s: JsonSchema): fc.Arbitrary<string> {
  const minLength = num(s.minLength) ?? 0;
  const maxLength = Math.min(num(s.maxLength) ?? 40, Math.max(minLength, 80));
  const fitting = (a: fc.Arbitrary<string>) =>
    a.filter((x) => [...x].length >= minLength && x.length <= (num(s.maxLength) ?? Number.POSITIVE_INFINITY));
  switch (s.format) {
    case 'date-time':
      return fitting(
        fc.oneof(
          dateArb().map((d) => d.toISOString()),
          dateArb().map((d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')),
          fc
            .tuple(dateArb(), fc.constantFrom('+02:00', '-05:30', '+00:00'))
            .map(([d, off]) => d.toISOString().replace(/\.\d{3}Z$/, off)),
        ),
      );
    case 'date':
      return fitting(dateArb().map((d) => d.toISOString().slice(0, 10)));
    case 'uuid':
      return fitting(fc.uuid());
    case 'email':
      return fitting(fc.emailAddress());
    case 'uri':
    case 'url':
      return fitting(fc.webUrl());
  }
  const matching = typeof s.pattern === 'string' ? safeRegExp(s.pattern) : undefined;
  if (matching) return fitting(fc.stringMatching(matching)).filter((x) => matching.test(x));
  return fc.oneof(
    { arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme-ascii' }), weight: 6 },
    { arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }), weight: 2 },
    // Any code point, lone surrogates and NUL included: valid for the schema, if not for the service.
    { arbitrary: fitting(fc.string({ minLength, maxLength, unit: 'binary' })), weight: 1 },
  );
}

function numberOf(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = num(s.minimum);
  const max = num(s.maximum);
  const exMin = num(s.exclusiveMinimum);
  const exMax = num(s.exclusiveMaximum);
  if (integer) {
    const lo = Math.max(
      min ?? -1e6,
      exMin !== undefined ? Math.floor(exMin) + 1 : Number.NEGATIVE_INFINITY,
      Number.MIN_SAFE_INTEGER,
    );
    const hi = Math.min(
      max ?? 1e6,
      exMax !== undefined ? Math.ceil(exMax) - 1 : Number.POSITIVE_INFINITY,
      Number.MAX_SAFE_INTEGER,
    );
    return fc.integer({ min: lo, max: Math.max(lo, hi) });
  }
  const lo = exMin ?? min ?? -1e6;
  const hi = exMax ?? max ?? 1e6;
  const cents = fc
    .integer({ min: Math.ceil(lo * 100), max: Math.floor(hi * 100) })
    .map((n) => n / 100)
    .filter((n) => (exMin === undefined || n > exMin) && (exMax === undefined || n < exMax));
  return fc.oneof(
    // Two decimals at most, as people write them (weights are refused with more).
    cents,
    cents,
    fc.double({
      min: lo,
      max: hi,
      minExcluded: exMin !== undefined,
      maxExcluded: exMax !== undefined,
      noNaN: true,
      noDefaultInfinity: true,
    }),
    fc
      .integer({ min: Math.ceil(lo), max: Math.floor(hi) })
      .filter((n) => (exMin === undefined || n > exMin) && (exMax === undefined || n < exMax)),
  );
}

/**
 * The alternatives of `anyOf`/`oneOf`, each with what the schema says beside them. A rule across
 * fields (`oneOf` groups of `required` fields beside `properties`, as the OpenAPI document writes
 * "one way to say where") is the whole object with one group's requirements; a field that an
 * alternative forbids (`false`) is left out.
 */
function alternativesOf(s: JsonSchema, ctx: SchemaContext): unknown[] | undefined {
  const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (!Array.isArray(alternatives) || !alternatives.length) return undefined;
  const { anyOf: _any, oneOf: _one, ...base } = s;
  if (!base.properties) return alternatives;
  return alternatives.map((a) => {
    const alt = resolve(a, ctx);
    const properties = { ...(base.properties as Record<string, unknown>) };
    for (const [k, v] of Object.entries((alt.properties ?? {}) as Record<string, unknown>)) {
      if (v === false) delete properties[k];
      else properties[k] = { ...(properties[k] as object), ...(v as object) };
    }
    const required = [
      ...new Set([...((base.required as string[]) ?? []), ...((alt.required as string[]) ?? [])]),
    ];
    return { ...base, ...alt, properties, required };
  });
}

/** Values the schema accepts. `name` is the property the value is for (for hints). */
export function validOf(
  schema: unknown,
  ctx: SchemaContext,
  name?: string,
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = resolve(schema, ctx);
  const hint = name ? ctx.hints?.[name] : undefined;
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const alternatives = alternativesOf(s, ctx);
  if (alternatives) {
    return hinted(fc.oneof(...alternatives.map((a) => validOf(a, ctx, name, depth + 1))), hint);
  }
  if (Array.isArray(s.allOf) && s.allOf.length) {
    const merged: JsonSchema = { properties: {}, required: [] };
    for (const part of (s.allOf as unknown[]).map((p) => resolve(p, ctx))) {
      Object.assign(merged, part, {
        properties: { ...(merged.properties as object), ...(part.properties as object) },
        required: [...(merged.required as string[]), ...((part.required as string[]) ?? [])],
      });
    }
    const { allOf: _drop, ...rest } = s;
    return validOf({ ...rest, ...merged }, ctx, name, depth + 1);
  }
  const types = typesOf(s);
  if (types.length === 0) return depth > MAX_DEPTH ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  const arbs = types.map((t): fc.Arbitrary<unknown> => {
    switch (t) {
      case 'string':
        return hinted(stringOf(s), hint, s);
      case 'integer':
        return hinted(numberOf(s, true), hint);
      case 'number':
        return hinted(numberOf(s, false), hint);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const minLength = num(s.minItems) ?? 0;
        const maxLength = Math.max(minLength, Math.min(num(s.maxItems) ?? 4, 4));
        const items =
          s.items === undefined
            ? fc.jsonValue({ maxDepth: 1 })
            : validOf(s.items, ctx, name ? `${name}[]` : undefined, depth + 1);
        const arr = depth > MAX_DEPTH ? fc.constant([]) : fc.array(items, { minLength, maxLength });
        return hinted(arr, hint);
      }
      case 'object':
        return hinted(objectOf(s, ctx, depth), hint);
      default:
        return fc.constant(null);
    }
  });
  return arbs.length === 1 ? arbs[0]! : fc.oneof(...arbs);
}

function objectOf(s: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  const keys = Object.keys(properties);
  if (depth > MAX_DEPTH) return fc.constant({});
  // Optional properties come one time in three: rules across fields ("one way only", "not both")
  // are not in the schema, and fewer extras get more requests past them.
  const ABSENT = Symbol('absent');
  const record = fc
    .tuple(
      ...keys.map((k) => {
        const value = validOf(properties[k], ctx, k, depth + 1);
        return required.has(k)
          ? value
          : fc.oneof({ arbitrary: fc.constant(ABSENT), weight: 2 }, { arbitrary: value, weight: 1 });
      }),
    )
    .map((values) => {
      const out: Record<string, unknown> = {};
      keys.forEach((k, i) => {
        if (values[i] !== ABSENT)
          Object.defineProperty(out, k, {
            value: values[i],
            enumerable: true,
            configurable: true,
            writable: true,
          });
      });
      return out;
    });
  const extra = s.additionalProperties;
  if (extra === undefined || extra === false) return record;
  const valueArb = extra === true ? fc.jsonValue({ maxDepth: 1 }) : validOf(extra, ctx, undefined, depth + 1);
  return fc
    .tuple(
      record,
      fc.dictionary(
        fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !(k in properties) && k !== '__proto__'),
        valueArb,
        { maxKeys: 2 },
      ),
    )
    .map(([r, d]) => ({ ...d, ...r }));
}

/** Keys that mean something to JavaScript objects: a service must treat them as plain names. */
export const TRICKY_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  'a\u0000b',
  '\ud800',
  'é',
  '$where',
  'x'.repeat(300),
];

/**
 * Values that are wrong in (at least) one place: the schema's own value with one spot changed, or
 * something of another shape altogether.
 */
export function mutatedOf(
  schema: unknown,
  ctx: SchemaContext,
  name?: string,
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = resolve(schema, ctx);
  const valid = validOf(s, ctx, name, depth);
  const options: fc.WeightedArbitrary<unknown>[] = [{ arbitrary: wrongType(), weight: 2 }];
  const types = typesOf(s);
  const alternatives = alternativesOf(s, ctx);
  if (alternatives && depth < MAX_DEPTH) {
    options.push({
      arbitrary: fc.oneof(...alternatives.map((a) => mutatedOf(a, ctx, name, depth + 1))),
      weight: 4,
    });
  }
  if (Array.isArray(s.enum) || s.const !== undefined) {
    const known = (Array.isArray(s.enum) ? s.enum : [s.const]) as unknown[];
    const strings = known.filter((v): v is string => typeof v === 'string');
    options.push({
      arbitrary: fc.oneof(
        fc.constantFrom(...(strings.length ? strings : ['x'])).map((v) => v.toLowerCase()),
        fc.constantFrom(...(strings.length ? strings : ['x'])).map((v) => `${v} `),
        fc.constantFrom(...(strings.length ? strings : ['x'])).map((v) => v.toUpperCase()),
        weirdString(),
      ),
      weight: 4,
    });
  }
  if (types.includes('string')) options.push({ arbitrary: weirdString(num(s.maxLength)), weight: 6 });
  if (types.includes('number') || types.includes('integer')) {
    options.push({ arbitrary: weirdNumber(s), weight: 6 });
  }
  if (types.includes('array') && depth < MAX_DEPTH) {
    const items =
      s.items === undefined
        ? fc.jsonValue({ maxDepth: 1 })
        : validOf(s.items, ctx, name ? `${name}[]` : undefined, depth + 1);
    const badItems =
      s.items === undefined
        ? wrongType()
        : mutatedOf(s.items, ctx, name ? `${name}[]` : undefined, depth + 1);
    const max = num(s.maxItems) ?? 10;
    options.push(
      { arbitrary: fc.constant([]), weight: 1 },
      { arbitrary: fc.array(items, { minLength: max + 1, maxLength: max + 3 }), weight: 1 },
      { arbitrary: fc.array(items, { minLength: 300, maxLength: 400 }), weight: 1 },
      {
        arbitrary: fc.tuple(fc.array(items, { maxLength: 2 }), badItems).map(([ok, bad]) => [...ok, bad]),
        weight: 5,
      },
      { arbitrary: valid.map((v) => (Array.isArray(v) && v.length ? [...v, v[0]] : v)), weight: 1 },
    );
  }
  if (types.includes('object') && depth < MAX_DEPTH) {
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    const keys = Object.keys(properties);
    const required = (s.required as string[] | undefined) ?? [];
    const objects = valid.filter(
      (v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v),
    );
    if (required.length) {
      options.push({
        arbitrary: fc.tuple(objects, fc.subarray(required, { minLength: 1 })).map(([v, drop]) => {
          const copy = { ...v };
          for (const k of drop) delete copy[k];
          return copy;
        }),
        weight: 3,
      });
    }
    options.push({
      arbitrary: fc
        .tuple(
          objects,
          fc.oneof(fc.constantFrom(...TRICKY_KEYS), fc.string({ maxLength: 10 })),
          fc.jsonValue({ maxDepth: 2 }),
        )
        .map(([v, k, x]) => {
          const copy = { ...v };
          Object.defineProperty(copy, k, { value: x, enumerable: true, configurable: true, writable: true });
          return copy;
        }),
      weight: 2,
    });
    if (keys.length) {
      // One property, chosen among them, made wrong; the rest stay as the schema wants.
      options.push({
        arbitrary: fc.oneof(
          ...keys.map((k) =>
            fc.tuple(objects, mutatedOf(properties[k], ctx, k, depth + 1)).map(([v, bad]) => {
              const copy = { ...v };
              if (bad === undefined) delete copy[k];
              else
                Object.defineProperty(copy, k, {
                  value: bad,
                  enumerable: true,
                  configurable: true,
                  writable: true,
                });
              return copy;
            }),
          ),
        ),
        weight: 10,
      });
      options.push({ arbitrary: fc.constant({}), weight: 1 });
      options.push({ arbitrary: valid.map((v) => [v]), weight: 1 });
      options.push({
        arbitrary: fc.tuple(objects, fc.constantFrom(...keys)).map(([v, k]) => ({ ...v, [k]: null })),
        weight: 2,
      });
    }
  }
  return fc.oneof(...options);
}
