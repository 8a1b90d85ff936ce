import { describe, expect, it } from 'vitest';
import { planStay, planVisits } from './plan-sitting.js';
import { aResource } from './test-utils.js';

const sitters = [
  aResource({ id: 'sitter-a', kind: 'SITTER' }),
  aResource({ id: 'sitter-b', kind: 'SITTER' }),
];
const base = { resources: sitters, timeZone: 'Africa/Johannesburg', now: '2026-11-23T04:00:00Z' };

describe('planStay', () => {
  it('books one sitter from the first evening to the last morning', () => {
    const plan = planStay({ ...base, stay: { startDate: '2026-12-20', nights: 2 } });
    expect(plan).toMatchObject({
      mode: 'STAY',
      ok: true,
      windows: [{ name: 'stay', start: '17:30', end: '07:30' }],
    });
    expect(plan.plan).toEqual([
      {
        date: '2026-12-20',
        start: '2026-12-20T15:30:00.000Z',
        end: '2026-12-21T15:30:00.000Z',
        time: '17:30',
        resourceId: 'sitter-a',
      },
      {
        date: '2026-12-21',
        start: '2026-12-21T15:30:00.000Z',
        end: '2026-12-22T05:30:00.000Z',
        time: '17:30',
        resourceId: 'sitter-a',
      },
    ]);
  });

  it('takes the next sitter when the first is busy during the stay, and says when none is free', () => {
    const busy = [{ resourceId: 'sitter-a', start: '2026-12-21T08:00:00Z', end: '2026-12-21T09:00:00Z' }];
    expect(
      planStay({ ...base, busy, stay: { startDate: '2026-12-20', nights: 2 } }).plan[0]!.resourceId,
    ).toBe('sitter-b');
    const both = [
      ...busy,
      { resourceId: 'sitter-b', start: '2026-12-20T20:00:00Z', end: '2026-12-20T21:00:00Z' },
    ];
    const none = planStay({ ...base, busy: both, stay: { startDate: '2026-12-20', nights: 2 } });
    expect(none).toMatchObject({
      ok: false,
      plan: [],
      unplanned: [{ date: '2026-12-20', reason: 'FULLY_BOOKED' }, { date: '2026-12-21' }],
    });
  });

  it('refuses a stay that starts in the past, and bad nights', () => {
    expect(planStay({ ...base, stay: { startDate: '2026-11-20', nights: 1 } }).unplanned[0]!.reason).toBe(
      'PAST',
    );
    expect(() => planStay({ ...base, stay: { startDate: '2026-12-20', nights: 31 } })).toThrow(
      expect.objectContaining({ code: 'BAD_RANGE' }),
    );
  });
});

describe('planVisits', () => {
  it('plans each visit in its window, keeping one sitter', () => {
    const plan = planVisits({
      ...base,
      durationMin: 30,
      visits: { startDate: '2026-11-24', days: 2, perDay: 2 },
    });
    expect(plan.ok).toBe(true);
    expect(plan.windows.map((w) => w.name)).toEqual(['morning', 'evening']);
    expect(plan.plan.map((p) => `${p.date} ${p.time} ${p.resourceId}`)).toEqual([
      '2026-11-24 08:00 sitter-a',
      '2026-11-24 16:30 sitter-a',
      '2026-11-25 08:00 sitter-a',
      '2026-11-25 16:30 sitter-a',
    ]);
  });

  it('lists the visits it cannot place', () => {
    const plan = planVisits({
      ...base,
      durationMin: 30,
      visits: { startDate: '2026-11-29', days: 1, perDay: 1 },
    });
    expect(plan).toMatchObject({
      ok: false,
      unplanned: [{ date: '2026-11-29', window: 'morning', reason: 'FULLY_BOOKED' }],
    });
  });

  it('refuses windows that do not match the visits per day', () => {
    expect(() =>
      planVisits({
        ...base,
        durationMin: 30,
        visits: { startDate: '2026-11-24', days: 1, perDay: 2, windows: ['morning'] },
      }),
    ).toThrow(expect.objectContaining({ code: 'BAD_RANGE' }));
  });
});
