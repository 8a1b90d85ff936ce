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
  if (LONE_SURROGATE.test(text)) return 'Text may not contain a lone surrogate (half of a UTF-16 pair, not a character).';
  return null;
}

/**
 * The first string (value or object key) in `value` that cannot be stored, with the path to it;
 * null when all of it can. Walks JSON-like values: objects, arrays, strings.
 */
export function findUnstorableText(value: unknown, field = ''): TextProblem | null {
  if (typeof value === 'string') {
    const message = unstorableReason(value);
    return message ? { field: field || '(input)', message } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = findUnstorableText(value[i], field ? `${field}.${i}` : String(i));
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const keyReason = unstorableReason(key);
      // A bad key is named by its parent and shown escaped: the key itself cannot be echoed as text.
      if (keyReason) return { field: field ? `${field}.${JSON.stringify(key).slice(1, -1)}` : JSON.stringify(key).slice(1, -1), message: keyReason };
      const found = findUnstorableText(inner, field ? `${field}.${key}` : key);
      if (found) return found;
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
