import { describe, expect, it } from 'vitest';
import { listNames, listWords, nameOf } from './text.js';

describe('nameOf', () => {
  it('keeps a typed name on one line, without the dots that would end a sentence', () => {
    expect(nameOf('Dr. Paws & Co.', 'x')).toBe('Dr Paws & Co');
    expect(nameOf('Nails!\n and  more', 'x')).toBe('Nails and more');
    expect(nameOf('v1.2 groom', 'x')).toBe('v1.2 groom');
  });

  it('cuts a long name at 60 characters and falls back for a blank or missing one', () => {
    expect(nameOf('a'.repeat(80), 'x')).toBe(`${'a'.repeat(59)}…`);
    expect(nameOf('  ', 'a service without a name')).toBe('a service without a name');
    expect(nameOf(undefined, 'fallback')).toBe('fallback');
  });
});

describe('listWords and listNames', () => {
  it('joins with commas and a last word', () => {
    expect(listWords([])).toBe('');
    expect(listWords(['A'])).toBe('A');
    expect(listWords(['A', 'B'], 'or')).toBe('A or B');
    expect(listWords(['A', 'B', 'C'])).toBe('A, B and C');
  });

  it('names five and counts the rest', () => {
    expect(listNames(['1', '2', '3', '4', '5', '6', '7'])).toBe('1, 2, 3, 4, 5 and 2 more');
  });
});
