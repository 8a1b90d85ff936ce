import { describe, expect, it } from 'vitest';
import { mergeWeeks } from './merge-weeks.js';

describe('mergeWeeks', () => {
  it('joins the ranges any resource works each day, in order, and leaves out days none works', () => {
    expect(
      mergeWeeks([
        { mon: [{ start: '11:00', end: '17:00' }], sat: [{ start: '08:00', end: '13:00' }] },
        {
          mon: [
            { start: '08:00', end: '12:00' },
            { start: '18:00', end: '24:00' },
          ],
          tue: [],
        },
        { mon: [{ start: '17:00', end: '17:30' }] },
      ]),
    ).toEqual({
      mon: [
        { start: '08:00', end: '17:30' },
        { start: '18:00', end: '24:00' },
      ],
      sat: [{ start: '08:00', end: '13:00' }],
    });
  });

  it('is empty with no resources', () => {
    expect(mergeWeeks([])).toEqual({});
  });
});
