import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutText, findUnstorableText, toStorableText, unstorableReason } from './text.js';

describe('findUnstorableText', () => {
  it('names the path to NUL or a lone surrogate, in values and keys', () => {
    expect(findUnstorableText({ pets: [{ name: 'ok' }, { name: 'a\u0000' }] })).toMatchObject({
      field: 'pets.1.name',
    });
    expect(findUnstorableText({ notes: 'x\ud800' })).toMatchObject({
      field: 'notes',
      message: expect.stringContaining('lone surrogate'),
    });
    expect(findUnstorableText({ notes: '\udc00x' })).toMatchObject({ field: 'notes' });
    expect(findUnstorableText({ 'k\u0000': 1 })).toMatchObject({ field: 'k\\u0000' });
    expect(findUnstorableText('\u0000')).toMatchObject({ field: '(input)' });
    expect(findUnstorableText('a\u0000', 'path')).toMatchObject({ field: 'path' });
  });

  it('passes every well-formed string without NUL, emoji included', () => {
    expect(findUnstorableText({ name: 'Rex 🐕', n: 1, ok: true, none: null })).toBeNull();
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        fc.pre(!s.includes('\u0000'));
        expect(findUnstorableText({ s, list: [s] })).toBeNull();
      }),
    );
  });

  it('finds every string that is not well-formed', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const wellFormed = (s as unknown as { isWellFormed(): boolean }).isWellFormed();
        expect(unstorableReason(s) === null).toBe(wellFormed && !s.includes('\u0000'));
      }),
    );
  });
});

describe('cutText', () => {
  it('never cuts a surrogate pair in half', () => {
    expect(cutText('ab🐕cd', 3)).toBe('ab🐕');
    expect(cutText('🐕'.repeat(5), 2)).toBe('🐕🐕');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.nat(50), (s, max) => {
        const cut = cutText(s, max);
        expect(s.startsWith(cut)).toBe(true);
        expect([...cut].length).toBeLessThanOrEqual(max);
        expect(unstorableReason(cut.replaceAll('\u0000', ''))).toBeNull();
      }),
    );
  });
});

describe('toStorableText', () => {
  it('replaces NUL and lone surrogates with U+FFFD and keeps everything else', () => {
    expect(toStorableText('a\u0000b\ud800c🐕')).toBe('a\uFFFDb\uFFFDc🐕');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(unstorableReason(toStorableText(s))).toBeNull();
      }),
    );
  });
});

describe('deep input', () => {
  it('refuses nesting deeper than 32 levels without exhausting the stack, however deep', () => {
    const deep = JSON.parse(`{"name":${'['.repeat(50_000)}${']'.repeat(50_000)}}`);
    expect(findUnstorableText(deep)).toMatchObject({
      field: expect.stringMatching(/^name(\.0)+$/),
      message: expect.stringContaining('32 levels'),
    });
    let ok: unknown = 'x';
    for (let i = 0; i < 31; i += 1) ok = [ok];
    expect(findUnstorableText({ a: ok })).toBeNull();
  });

  it('names the first offending field in document order', () => {
    expect(findUnstorableText({ a: 'ok', b: 'x\u0000', c: 'y\u0000' })).toMatchObject({ field: 'b' });
    expect(findUnstorableText({ list: ['ok', { 'k\ud800': 1 }] })).toMatchObject({
      field: 'list.1.k\\ud800',
      message: expect.stringContaining('lone surrogate'),
    });
  });
});
