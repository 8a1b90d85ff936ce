import { describe, expect, it } from 'vitest';
import { SlotEngineError } from './errors.js';
import { findSlots } from './find-slots.js';
import { nextOpenSlots } from './next-open-slots.js';
import { aResource, anInput } from './test-utils.js';

const times = (input: Parameters<typeof findSlots>[0], day = 0) =>
  findSlots(input).days[day]!.slots.map((s) => `${s.time} ${s.resourceId}`);

describe('findSlots', () => {
  it('offers every step of the working day that the duration fits, as instants and local times', () => {
    const { days } = findSlots(anInput());
    expect(days).toHaveLength(1);
    expect(days[0]).toMatchObject({ date: '2026-11-23', label: 'Today' });
    expect(days[0]!.slots[0]).toEqual({
      start: '2026-11-23T06:00:00.000Z',
      time: '08:00',
      resourceId: 'van-1',
    });
    expect(days[0]!.slots.map((s) => s.time).at(-1)).toBe('16:00');
    expect(days[0]!.slots).toHaveLength(17);
  });

  it('defaults to today and the next 6 days, with days off empty and explained', () => {
    const { days } = findSlots(anInput({ from: undefined, to: undefined }));
    expect(days.map((d) => d.date)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    expect(days[1]!.label).toBe('Tomorrow');
    expect(days[2]!.label).toMatch(/Wednesday 25 November/);
    expect(days[6]).toMatchObject({ slots: [], why: 'CLOSED_DAY' });
    expect(days[5]!.slots.at(-1)!.time).toBe('12:00');
  });

  it('accepts 31 days and refuses 32, and a range that ends before it starts', () => {
    expect(findSlots(anInput({ to: '2026-12-23' })).days).toHaveLength(31);
    expect(() => findSlots(anInput({ to: '2026-12-24' }))).toThrow(
      expect.objectContaining({ code: 'RANGE_TOO_LONG' }),
    );
    expect(() => findSlots(anInput({ to: '2026-11-22' }))).toThrow(
      expect.objectContaining({ code: 'BAD_RANGE' }),
    );
  });

  it('gives no slot in the past or inside the minimum notice', () => {
    const slots = findSlots(anInput({ now: '2026-11-23T08:10:00Z', minNoticeMin: 120 })).days[0]!.slots;
    // 10:10 local now; notice to 12:10; the first start on the half-hour grid after that is 12:30.
    expect(slots[0]!.time).toBe('12:30');
    expect(findSlots(anInput({ now: '2026-11-23T16:00:00Z' })).days[0]).toMatchObject({
      slots: [],
      why: 'PAST',
    });
  });

  it('keeps the van travel buffer clear around bookings', () => {
    const busy = [{ resourceId: 'van-1', start: '2026-11-23T08:00:00Z', end: '2026-11-23T09:00:00Z' }]; // 10:00-11:00 local
    const t = times(anInput({ busy })).map((x) => x.slice(0, 5));
    expect(t).toContain('08:30'); // ends 09:30, buffer to 09:45 < 10:00
    expect(t).not.toContain('09:00'); // ends 10:00: no 15 minutes before the booking
    expect(t).not.toContain('11:00'); // starts as the booking ends: no buffer after
    expect(t).toContain('11:30');
  });

  it('lets walkers start as a walk ends (no buffer unless set)', () => {
    const walker = aResource({ id: 'walker-1', kind: 'WALKER' });
    const busy = [{ resourceId: 'walker-1', start: '2026-11-23T08:00:00Z', end: '2026-11-23T09:00:00Z' }];
    expect(times(anInput({ resources: [walker], busy }))).toContain('11:00 walker-1');
  });

  it('respects time off of the resource and of the whole business', () => {
    const own = [{ resourceId: 'van-1', start: '2026-11-23T06:00:00Z', end: '2026-11-23T10:00:00Z' }];
    expect(times(anInput({ timeOff: own }))[0]).toBe('12:00 van-1');
    const holiday = [{ start: '2026-11-22T22:00:00Z', end: '2026-11-23T22:00:00Z' }];
    expect(findSlots(anInput({ timeOff: holiday })).days[0]).toMatchObject({ slots: [], why: 'TIME_OFF' });
  });

  it('says a day is fully booked when bookings take every time', () => {
    const busy = [{ resourceId: 'van-1', start: '2026-11-23T05:00:00Z', end: '2026-11-23T16:00:00Z' }];
    expect(findSlots(anInput({ busy })).days[0]).toMatchObject({ slots: [], why: 'FULLY_BOOKED' });
  });

  it('keeps slots inside the daily window, and says when the window leaves nothing', () => {
    expect(times(anInput({ windowStart: '14:00', windowEnd: '16:00' }))).toEqual([
      '14:00 van-1',
      '14:30 van-1',
      '15:00 van-1',
    ]);
    expect(findSlots(anInput({ windowStart: '18:00', windowEnd: '20:00' })).days[0]!.why).toBe(
      'OUTSIDE_HOURS',
    );
  });

  it('uses several ranges a day and the step of each resource', () => {
    const split = aResource({
      week: {
        mon: [
          { start: '08:00', end: '09:00' },
          { start: '14:00', end: '15:00' },
        ],
      },
      slotStepMin: 15,
    });
    expect(times(anInput({ resources: [split], durationMin: 30 }))).toEqual([
      '08:00 van-1',
      '08:15 van-1',
      '08:30 van-1',
      '14:00 van-1',
      '14:15 van-1',
      '14:30 van-1',
    ]);
  });

  it('sorts slots of several resources by time, then resource', () => {
    const t = times(
      anInput({ resources: [aResource({ id: 'van-b' }), aResource({ id: 'van-a' })], windowEnd: '09:30' }),
    );
    expect(t).toEqual(['08:00 van-a', '08:00 van-b', '08:30 van-a', '08:30 van-b']);
  });

  it('keeps a group walk open until it is full', () => {
    const walker = aResource({ id: 'walker-1', kind: 'WALKER' });
    const at = (n: number) =>
      Array.from({ length: n }, () => ({
        resourceId: 'walker-1',
        start: '2026-11-23T08:00:00Z',
        end: '2026-11-23T08:30:00Z',
        groupKey: 'walk-group-30',
      }));
    const open = (n: number, size: number) =>
      times(
        anInput({
          resources: [walker],
          durationMin: 30,
          busy: at(n),
          group: { key: 'walk-group-30', capacity: 4, size },
        }),
      ).includes('10:00 walker-1');
    expect(open(3, 1)).toBe(true);
    expect(open(4, 1)).toBe(false);
    expect(open(3, 2)).toBe(false);
    expect(open(2, 2)).toBe(true);
    // A solo walk cannot join a group walk.
    expect(times(anInput({ resources: [walker], durationMin: 30, busy: at(1) }))).not.toContain(
      '10:00 walker-1',
    );
  });

  it('lets a booking being moved ignore itself', () => {
    const busy = [{ resourceId: 'van-1', start: '2026-11-23T08:00:00Z', end: '2026-11-23T09:00:00Z' }];
    expect(times(anInput({ busy, ignoreBusy: (b) => b.start === '2026-11-23T08:00:00Z' }))).toContain(
      '10:00 van-1',
    );
  });

  it.each([
    [{ timeZone: 'Mars/Olympus' }, 'BAD_TIME_ZONE'],
    [{ from: '2026-02-30' }, 'BAD_DATE'],
    [{ windowStart: '25:00' }, 'BAD_TIME'],
    [{ durationMin: 0 }, 'BAD_DURATION'],
    [
      { resources: [aResource({ week: { mon: Array(7).fill({ start: '08:00', end: '09:00' }) } })] },
      'TOO_MANY_RANGES',
    ],
  ])('refuses %j with %s', (overrides, code) => {
    expect(() => findSlots(anInput(overrides))).toThrow(SlotEngineError);
    expect(() => findSlots(anInput(overrides))).toThrow(expect.objectContaining({ code }));
  });
});

describe('nextOpenSlots', () => {
  it('finds the next open times across days, and none within 14 days when all is booked', () => {
    const busy = [{ resourceId: 'van-1', start: '2026-11-23T00:00:00Z', end: '2026-11-26T00:00:00Z' }];
    const next = nextOpenSlots({ ...anInput({ busy }), from: '2026-11-23' }, 2);
    expect(next.map((s) => `${s.date} ${s.time}`)).toEqual(['2026-11-26 08:00', '2026-11-26 08:30']);
    const all = [{ resourceId: 'van-1', start: '2026-11-23T00:00:00Z', end: '2026-12-07T00:00:00Z' }];
    expect(nextOpenSlots({ ...anInput({ busy: all }), from: '2026-11-23' }, 3)).toEqual([]);
  });
});
