import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WEEKDAYS } from './constants.js';
import { parseRepeat } from './parse-repeat.js';

describe('parseRepeat', () => {
  describe('accepts', () => {
    it.each([
      [['mon']],
      [['mon', 'thu']],
      [['thu', 'mon']],
      [['sun', 'sat', 'fri', 'thu', 'wed', 'tue', 'mon']],
    ])('a weekly repeat on %j, days in the order given', (days) => {
      expect(parseRepeat({ freq: 'WEEKLY', days })).toEqual({ ok: true, repeat: { freq: 'WEEKLY', days } });
    });

    it('and ignores extra properties', () => {
      expect(parseRepeat({ freq: 'WEEKLY', days: ['wed'], interval: 2, until: '2026-12-31' })).toEqual({
        ok: true,
        repeat: { freq: 'WEEKLY', days: ['wed'] },
      });
    });

    it('and returns its own days array, so later changes to the input change nothing', () => {
      const input = { freq: 'WEEKLY', days: ['mon', 'fri'] };
      const outcome = parseRepeat(input);
      input.days.push('sun');
      expect(outcome.ok && outcome.repeat.days).toEqual(['mon', 'fri']);
      expect(input.days).toEqual(['mon', 'fri', 'sun']);
    });

    it('any non-empty list of distinct days, in any order', () => {
      fc.assert(
        fc.property(fc.shuffledSubarray([...WEEKDAYS], { minLength: 1 }), (days) => {
          expect(parseRepeat({ freq: 'WEEKLY', days })).toEqual({
            ok: true,
            repeat: { freq: 'WEEKLY', days },
          });
        }),
        { numRuns: 200 },
      );
    }, 60_000);
  });

  describe('refuses, naming what is wrong', () => {
    it.each([
      ['nothing', undefined, /repeat must be an object.*got nothing/],
      ['null', null, /repeat must be an object.*got null/],
      ['a string', 'WEEKLY', /repeat must be an object.*got 'WEEKLY'/],
      ['a number', 7, /repeat must be an object.*got number 7/],
      ['an array', [{ freq: 'WEEKLY', days: ['mon'] }], /repeat must be an object.*got an array/],
      ['a missing freq', { days: ['mon'] }, /repeat\.freq must be 'WEEKLY', got nothing/],
      ['a lowercase freq', { freq: 'weekly', days: ['mon'] }, /repeat\.freq must be 'WEEKLY', got 'weekly'/],
      ['another freq', { freq: 'DAILY', days: ['mon'] }, /repeat\.freq must be 'WEEKLY', got 'DAILY'/],
      ['missing days', { freq: 'WEEKLY' }, /repeat\.days must be a non-empty array.*got nothing/],
      ['no days', { freq: 'WEEKLY', days: [] }, /repeat\.days must be a non-empty array.*got an empty array/],
      [
        'days as a string',
        { freq: 'WEEKLY', days: 'mon' },
        /repeat\.days must be a non-empty array.*got 'mon'/,
      ],
      [
        'days as an object',
        { freq: 'WEEKLY', days: { 0: 'mon' } },
        /repeat\.days must be a non-empty array.*got an object/,
      ],
      [
        'a capitalised day',
        { freq: 'WEEKLY', days: ['Mon'] },
        /repeat\.days\[0\] must be a lowercase 3-letter day.*got 'Mon'/,
      ],
      [
        'a full day name',
        { freq: 'WEEKLY', days: ['mon', 'tuesday'] },
        /repeat\.days\[1\] must be .*got 'tuesday'/,
      ],
      [
        'a day number',
        { freq: 'WEEKLY', days: ['mon', 'tue', 3] },
        /repeat\.days\[2\] must be .*got number 3/,
      ],
      ['a null day', { freq: 'WEEKLY', days: [null] }, /repeat\.days\[0\] must be .*got null/],
      [
        'a day listed twice',
        { freq: 'WEEKLY', days: ['mon', 'thu', 'mon'] },
        /repeat\.days lists 'mon' more than once/,
      ],
    ])('%s', (_, value, message) => {
      const outcome = parseRepeat(value);
      expect(outcome).toEqual({ ok: false, message: expect.stringMatching(message) });
    });

    it('lists the valid days in the message', () => {
      const outcome = parseRepeat({ freq: 'WEEKLY', days: ['xyz'] });
      expect(outcome.ok ? '' : outcome.message).toContain('mon, tue, wed, thu, fri, sat, sun');
    });

    it('never throws on untrusted input, and accepts only the exact shape', () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.anything(),
            fc.record({ freq: fc.oneof(fc.constant('WEEKLY'), fc.anything()), days: fc.anything() }),
            fc.record({
              freq: fc.constant('WEEKLY'),
              days: fc.array(fc.oneof(fc.constantFrom(...WEEKDAYS), fc.string({ maxLength: 4 })), {
                maxLength: 9,
              }),
            }),
          ),
          (value) => {
            const outcome = parseRepeat(value);
            if (!outcome.ok) {
              expect(outcome.message).toMatch(/^repeat/);
              return;
            }
            const { freq, days } = value as { freq: unknown; days: unknown[] };
            expect(freq).toBe('WEEKLY');
            expect(outcome.repeat.days).toEqual(days);
            expect(new Set(days).size).toBe(days.length);
            for (const day of days) expect(WEEKDAYS).toContain(day);
          },
        ),
        { numRuns: 500 },
      );
    }, 60_000);
  });
});
