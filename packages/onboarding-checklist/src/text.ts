// Plain-words helpers shared by the checklist's items. Not exported from the package.

/** Up to this many zones or names are listed in a sentence; more are counted. */
export const MAX_LISTED_ZONES = 6;
const MAX_LISTED_NAMES = 5;

/** "A", "A and B", "A, B and C" (or "or"). */
export function listWords(words: readonly string[], last: 'and' | 'or' = 'and'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${last} ${words[words.length - 1]}`;
}

/** Names in a sentence: the first five, then "and 3 more". */
export function listNames(names: readonly string[]): string {
  if (names.length <= MAX_LISTED_NAMES) return listWords(names);
  return `${names.slice(0, MAX_LISTED_NAMES).join(', ')} and ${names.length - MAX_LISTED_NAMES} more`;
}

/** "1 service", "3 services". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * A name the person typed, fit for a sentence: one line, at most 60 characters, without the dots
 * that would end a sentence early ("Dr. Paws" stays readable as "Dr Paws").
 */
export function nameOf(name: unknown, fallback: string): string {
  if (typeof name !== 'string') return fallback;
  const line = name
    .replace(/[.!?]+(\s|$)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  if (line === '') return fallback;
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** A string field that is set: not absent, not blank. */
export function isSet(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}
