import { describe, expect, it } from 'vitest';
import { nextSittings, planStay, planVisits, sittingReason } from './plan-sitting.js';
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

  it("lists the visits it cannot place, with the day's own reason (Sunday: the sitters do not work)", () => {
    const plan = planVisits({
      ...base,
      durationMin: 30,
      visits: { startDate: '2026-11-29', days: 1, perDay: 1 },
    });
    expect(plan).toMatchObject({
      ok: false,
      unplanned: [{ date: '2026-11-29', window: 'morning', reason: 'CLOSED_DAY' }],
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

describe('sittingReason and nextSittings', () => {
  // Monday 23 November 2026, 19:52 in Johannesburg: inside the two hours' notice of a 17:30 arrival today.
  const evening = { ...base, now: '2026-11-23T17:52:00Z' };

  it('a stay starting inside the notice is too soon (PAST), not fully booked, and the next stays are offered', () => {
    const stay = { startDate: '2026-11-23', nights: 2 };
    const plan = planStay({ ...evening, stay });
    expect(plan.ok).toBe(false);
    expect(sittingReason(plan)).toBe('PAST');
    const next = nextSittings({ ...evening, stay }, 3);
    expect(next.map((n) => `${n.startDate} ${n.plan.plan[0]!.time} ${n.plan.plan[0]!.resourceId}`)).toEqual([
      '2026-11-24 17:30 sitter-a',
      '2026-11-25 17:30 sitter-a',
      '2026-11-26 17:30 sitter-a',
    ]);
    expect(next.every((n) => n.plan.ok && n.plan.plan.length === 2)).toBe(true);
  });

  it('the next stays skip nights no sitter is free for, and look 14 days ahead at most', () => {
    const stay = { startDate: '2026-11-23', nights: 1 };
    const busy = sitters.map((s) => ({
      resourceId: s.id,
      start: '2026-11-24T12:00:00Z',
      end: '2026-11-26T12:00:00Z',
    }));
    expect(nextSittings({ ...evening, busy, stay }, 2).map((n) => n.startDate)).toEqual([
      '2026-11-26',
      '2026-11-27',
    ]);
    const allBusy = sitters.map((s) => ({
      resourceId: s.id,
      start: '2026-11-24T00:00:00Z',
      end: '2026-12-08T00:00:00Z',
    }));
    expect(
      sittingReason(planStay({ ...base, busy: allBusy, stay: { startDate: '2026-11-24', nights: 1 } })),
    ).toBe('FULLY_BOOKED');
    expect(nextSittings({ ...evening, busy: allBusy, stay }, 3)).toEqual([]);
  });

  it('visits whose first windows are past are too soon, with the next visits offered', () => {
    const visits = { startDate: '2026-11-23', days: 2, perDay: 2 };
    const plan = planVisits({ ...evening, durationMin: 30, visits });
    expect(plan.unplanned.map((u) => `${u.date} ${u.window} ${u.reason}`)).toEqual([
      '2026-11-23 morning PAST',
      '2026-11-23 evening PAST',
    ]);
    expect(sittingReason(plan)).toBe('PAST');
    const [next] = nextSittings({ ...evening, durationMin: 30, visits }, 1);
    expect(next!.startDate).toBe('2026-11-24');
    expect(next!.plan.plan[0]).toMatchObject({ date: '2026-11-24', time: '08:00', resourceId: 'sitter-a' });
  });

  it('visits on a day no sitter works are closed, not fully booked', () => {
    // Sunday 29 November: the sitters work Monday to Saturday.
    const plan = planVisits({
      ...base,
      durationMin: 30,
      visits: { startDate: '2026-11-29', days: 1, perDay: 1 },
    });
    expect(plan.unplanned).toEqual([{ date: '2026-11-29', window: 'morning', reason: 'CLOSED_DAY' }]);
    expect(sittingReason(plan)).toBe('CLOSED_DAY');
    expect(
      sittingReason(planStay({ ...base, resources: [], stay: { startDate: '2026-12-20', nights: 1 } })),
    ).toBe('CLOSED_DAY');
  });
});
