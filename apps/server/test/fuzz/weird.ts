/** The awkward inputs a fuzzer throws at every door: strings, numbers, bodies, path segments. */
import fc from 'fast-check';

const NUL = String.fromCharCode(0);
const LONE_HIGH = String.fromCharCode(0xd800);
const LONE_LOW = String.fromCharCode(0xdc00);

/** Strings a careless service trips on; `maxLength` (when the schema has one) gives its edges. */
export function weirdString(maxLength?: number): fc.Arbitrary<string> {
  const edges = maxLength !== undefined ? [maxLength + 1, maxLength * 2 + 1] : [1000];
  return fc.oneof(
    { arbitrary: constants, weight: 6 },
    { arbitrary: fc.constantFrom(...edges).map((n) => 'x'.repeat(n)), weight: 2 },
    // Past the 100 kB body limit in JSON, past Node's 16 kB header limit in a URL.
    { arbitrary: fc.constantFrom(5_000, 60_000).map((n) => 'é'.repeat(n)), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }), weight: 2 },
    {
      arbitrary: fc.string({
        unit: fc.constantFrom(NUL, LONE_HIGH, LONE_LOW, 'a', '\u0085', '\uffff', '\ufffe'),
        minLength: 1,
        maxLength: 8,
      }),
      weight: 2,
    },
  );
}

const constants = fc.constantFrom(
  '',
  ' ',
  '   ',
  `a${NUL}b`,
  NUL,
  `${LONE_HIGH}`,
  `x${LONE_LOW}y`,
  `${LONE_LOW}${LONE_HIGH}`,
  '\u202egnp.exe',
  '😀🐶🐱',
  'e\u0301\u0301\u0301',
  '\ufeffBOM',
  '\u2028\u2029',
  '\r\n\t',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '0x10',
  "'; drop table bookings; --",
  '%00',
  '%ED%A0%80',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  ['$', '{7*7}{{7*7}}'].join(''),
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '9999-12-31',
  '2026-11-25T25:00:00Z',
  '2026-11-25T10:00:00',
  '+275760-09-13T00:00:00.000Z',
  '24:00',
  '23:60',
  '__proto__',
  'constructor',
);

/** Numbers at and past the edges, and number-like values of other types. */
export function weirdNumber(schema: Record<string, unknown> = {}): fc.Arbitrary<unknown> {
  const edges: unknown[] = [
    1e308,
    -1e308,
    -0,
    0,
    0.001,
    -0.001,
    5e-324,
    1.5,
    2 ** 53 + 2,
    -(2 ** 53) - 2,
    2 ** 31,
    -(2 ** 31) - 1,
    'NaN',
    'Infinity',
    '-Infinity',
    '12',
    '1e3',
    '',
    true,
    null,
  ];
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
    const v = schema[key];
    if (typeof v === 'number') edges.push(v, v - 1, v + 1, v - 1e-9, v + 1e-9);
  }
  return fc.oneof(fc.constantFrom(...edges), fc.double(), fc.integer());
}

/** A value of some other JSON type (or deeply nested) than whatever was asked for. */
export function wrongType(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(null, true, false, 0, -1, 1e308, '', 'x', [], {}, [null], { a: 1 }, [[[[[]]]]]),
    fc.constant(undefined),
    fc.jsonValue({ maxDepth: 2 }),
    fc.constant(nested(200)),
  );
}

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

/**
 * A path or query component: either text (percent-encoded when sent) or `raw`, sent as written
 * (byte sequences that are not UTF-8, stray `%`, encoded slashes and dots).
 */
export type UrlPart = { text: string } | { raw: string };

export function weirdUrlPart(): fc.Arbitrary<UrlPart> {
  return fc.oneof(
    weirdString().map((text) => ({ text })),
    fc
      .constantFrom(
        '%00',
        '%ED%A0%80',
        '%ED%B0%80',
        '%FF',
        '%C0%AF',
        '%',
        '%zz',
        '%2',
        '%2F',
        '%2e%2e',
        '..',
        '.',
        '%E2%80%AE',
        '%F0%9F%90%B6',
        'a%00b',
        '%25',
        '+',
        '%20',
        ';x=1',
        'a#b',
        'a?b=c',
      )
      .map((raw) => ({ raw })),
  );
}

/** encodeURIComponent, except that a lone surrogate (which it refuses) goes out as its raw CESU-8 bytes. */
export function encodePart(part: UrlPart): string {
  if ('raw' in part) return part.raw;
  let out = '';
  for (const ch of part.text) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += `%ED%${(0xa0 | ((code >> 6) & 0x1f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

/** Request bodies that are not (valid, UTF-8, object) JSON. */
export function malformedBody(): fc.Arbitrary<string | Uint8Array> {
  return fc.oneof(
    fc.constantFrom<string | Uint8Array>(
      '',
      '{',
      '}',
      '{"a":',
      '{"a":1,}',
      "{'a':1}",
      'nul',
      'null',
      'true',
      '0',
      '"text"',
      '[]',
      '[1,2',
      '{"a":1}{"b":2}',
      '{"a":1e999}',
      '{"a":-1e999}',
      '{"a":123456789012345678901234567890}',
      '{"a":"\\ud800"}',
      '{"a":"\\u0000"}',
      '{"a":"\\x00"}',
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      '\ufeff{}',
      ' \n\t{} \n',
      '{"a":1,"a":2}',
      '['.repeat(40_000) + ']'.repeat(40_000),
      '{"a":'.repeat(15_000) + '1' + '}'.repeat(15_000),
      `{"a":"${'x'.repeat(120_000)}"}`,
      new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), // {"a":"<invalid UTF-8>"}
      new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]), // a CESU-8 surrogate
      new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), // UTF-16LE with a BOM
      new Uint8Array([0x00, 0x00, 0x00, 0x00]),
    ),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
  );
}

/** Content types to send a body with: right, wrong, odd charsets, or none. */
export function contentType(): fc.Arbitrary<string | undefined> {
  return fc.constantFrom(
    undefined,
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=UTF-16',
    'application/json; charset=latin1',
    'application/json; charset=nope',
    'application/merge-patch+json',
    'application/vnd.api+json',
    'text/plain',
    'text/json',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/octet-stream',
    '*/*',
    'application/json, text/plain',
    'garbage',
  );
}

/** Idempotency-Key header values: good ones (some reused across requests) and bad ones. */
export function idempotencyKey(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.uuid(), weight: 4 },
    { arbitrary: fc.constantFrom('fuzz-reused-1', 'fuzz-reused-2'), weight: 2 },
    {
      arbitrary: fc.constantFrom('', ' ', 'k'.repeat(256), 'k'.repeat(255), 'a b', 'ü', '"quoted"', 'x,y'),
      weight: 2,
    },
  );
}
