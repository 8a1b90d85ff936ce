/**
 * Text the service can store: PostgreSQL's text and jsonb refuse NUL (U+0000), and a lone UTF-16
 * surrogate (half of a pair, e.g. "\ud800") is not a character at all. Every door checks what it
 * was sent with the one function here before anything runs, and answers 400 naming the field.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface TextProblem {
  /** Where the text is, as `details.fields[].field` names it: `pets.0.name`, `client_id`, `path`. */
  field: string;
  message: string;
}

/** Why `text` cannot be stored, or null when it can. */
export function unstorableReason(text: string): string | null {
  if (text.includes('\u0000')) return 'Text may not contain the NUL character (U+0000).';
  if (LONE_SURROGATE.test(text))
    return 'Text may not contain a lone surrogate (half of a UTF-16 pair, not a character).';
  return null;
}

/** Deeper than this, input is refused: no request of ours nests more than a few levels. */
export const MAX_INPUT_DEPTH = 32;

/**
 * The first string (value or object key) in `value` that cannot be stored, with the path to it;
 * null when all of it can. Walks JSON-like values (objects, arrays, strings) without recursion,
 * and refuses nesting deeper than MAX_INPUT_DEPTH, so no input can exhaust the stack.
 */
export function findUnstorableText(value: unknown, field = ''): TextProblem | null {
  const join = (parent: string, key: string) => (parent ? `${parent}.${key}` : key);
  const stack: { value: unknown; field: string; depth: number; keyReason?: string }[] = [
    { value, field, depth: 0 },
  ];
  while (stack.length) {
    const item = stack.pop()!;
    if (item.keyReason) return { field: item.field, message: item.keyReason };
    if (typeof item.value === 'string') {
      const message = unstorableReason(item.value);
      if (message) return { field: item.field || '(input)', message };
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= MAX_INPUT_DEPTH)
      return {
        field: item.field || '(input)',
        message: `Input may not be nested more than ${MAX_INPUT_DEPTH} levels deep.`,
      };
    const entries: [string, unknown][] = Array.isArray(item.value)
      ? item.value.map((v, i) => [String(i), v])
      : Object.entries(item.value);
    // Pushed in reverse, so the first offending field in document order is the one named.
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, inner] = entries[i]!;
      const keyReason = unstorableReason(key);
      // A bad key is named escaped: the key itself cannot be echoed as text.
      if (keyReason)
        stack.push({
          value: null,
          field: join(item.field, JSON.stringify(key).slice(1, -1)),
          depth: item.depth + 1,
          keyReason,
        });
      else stack.push({ value: inner, field: join(item.field, key), depth: item.depth + 1 });
    }
  }
  return null;
}

/** The first `max` characters of `text`, counted in code points: a pair is never cut in half. */
export function cutText(text: string, max: number): string {
  let out = '';
  let count = 0;
  for (const ch of text) {
    if (count === max) break;
    out += ch;
    count += 1;
  }
  return out;
}

/**
 * Text from elsewhere that we keep rather than refuse (a name an identity provider sends): NUL
 * and lone surrogates become U+FFFD, the replacement character, as a UTF-8 decoder would.
 */
export function toStorableText(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');
}
