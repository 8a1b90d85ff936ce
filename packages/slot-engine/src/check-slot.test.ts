import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSlot, findSlots } from './find-slots.js';
import { aResource, anInput } from './test-utils.js';
import type { BusyInterval, FindSlotsInput } from './types.js';

/** Monday 23 November 2026 in Johannesburg (UTC+2): local 10:00 is 08:00 UTC. */
const at = (hhmm: string) => `2026-11-23T${hhmm}:00.000Z`;

describe('checkSlot', () => {
  const base = { ...anInput(), from: undefined, to: undefined };

  it('is OPEN for a slot findSlots offers', () => {
    expect(checkSlot({ ...base, start: at('08:00'), resourceId: 'van-1' })).toEqual({ status: 'OPEN' });
  });

  it('is TAKEN when a booking (or its travel buffer) covers a real slot', () => {
    const busy = [{ resourceId: 'van-1', start: at('09:00'), end: at('10:00') }];
    expect(checkSlot({ ...base, busy, start: at('09:00'), resourceId: 'van-1' })).toEqual({
      status: 'TAKEN',
    });
    // 10:00 local + 60 min ends at 11:00 local = 09:00 UTC: the van's 15-minute buffer reaches it.
    expect(checkSlot({ ...base, busy, start: at('08:00'), resourceId: 'van-1' })).toEqual({
      status: 'TAKEN',
    });
    // Another van's booking does not matter.
    const other = [{ resourceId: 'van-2', start: at('09:00'), end: at('10:00') }];
    expect(checkSlot({ ...base, busy: other, start: at('09:00'), resourceId: 'van-1' })).toEqual({
      status: 'OPEN',
    });
  });

  it('is NOT_A_SLOT off the grid, outside hours, too soon, on a closed day or for an unknown resource', () => {
    expect(checkSlot({ ...base, start: at('08:10'), resourceId: 'van-1' }).status).toBe('NOT_A_SLOT');
    expect(checkSlot({ ...base, start: at('18:00'), resourceId: 'van-1' }).status).toBe('NOT_A_SLOT');
    // now is 04:00 UTC; two hours' notice: 06:00 UTC (08:00 local) is the earliest, 05:30 is too soon.
    expect(
      checkSlot({ ...base, now: '2026-11-23T04:30:00Z', start: at('06:00'), resourceId: 'van-1' }),
    ).toEqual({
      status: 'NOT_A_SLOT',
    });
    expect(checkSlot({ ...base, start: '2026-11-29T08:00:00.000Z', resourceId: 'van-1' })).toEqual({
      status: 'NOT_A_SLOT',
      why: 'CLOSED_DAY',
    });
    expect(checkSlot({ ...base, start: at('08:00'), resourceId: 'van-9' })).toEqual({ status: 'NOT_A_SLOT' });
  });

  it('is NOT_A_SLOT in time off, even when also booked', () => {
    const timeOff = [{ start: at('00:00'), end: '2026-11-24T00:00:00.000Z' }];
    const busy = [{ resourceId: 'van-1', start: at('08:00'), end: at('09:00') }];
    expect(checkSlot({ ...base, timeOff, busy, start: at('08:00'), resourceId: 'van-1' })).toEqual({
      status: 'NOT_A_SLOT',
      why: 'TIME_OFF',
    });
  });

  it('joins a group walk while places remain, and is TAKEN when it is full', () => {
    const walker = aResource({ id: 'walker-1', kind: 'WALKER' });
    const walk = (size: number): BusyInterval => ({
      resourceId: 'walker-1',
      start: at('08:00'),
      end: at('09:00'),
      groupKey: 'pack',
      size,
    });
    const input = { ...base, resources: [walker], group: { key: 'pack', capacity: 4, size: 2 } };
    expect(checkSlot({ ...input, busy: [walk(2)], start: at('08:00'), resourceId: 'walker-1' })).toEqual({
      status: 'OPEN',
    });
    expect(checkSlot({ ...input, busy: [walk(3)], start: at('08:00'), resourceId: 'walker-1' })).toEqual({
      status: 'TAKEN',
    });
  });

  it('does not count a booking being moved (ignoreBusy)', () => {
    const busy = [{ resourceId: 'van-1', start: at('09:00'), end: at('10:00'), id: 'b1' }];
    expect(
      checkSlot({
        ...base,
        busy,
        ignoreBusy: (b) => (b as { id?: string }).id === 'b1',
        start: at('09:00'),
        resourceId: 'van-1',
      }),
    ).toEqual({ status: 'OPEN' });
  });

  it('agrees with findSlots on every start of the day: OPEN with bookings, TAKEN only without them', () => {
    const resources = [aResource(), aResource({ id: 'van-2', travelBufferMin: 0 })];
    const busyArb = fc.array(
      fc.record({
        resourceId: fc.constantFrom('van-1', 'van-2'),
        startMin: fc.integer({ min: 5 * 60, max: 16 * 60 }),
        lengthMin: fc.constantFrom(30, 45, 60, 90, 120),
      }),
      { maxLength: 6 },
    );
    fc.assert(
      fc.property(
        busyArb,
        fc.integer({ min: 0, max: 6 * 60 }),
        fc.constantFrom(30, 45, 60, 90),
        fc.integer({ min: 0, max: 24 * 4 - 1 }),
        fc.constantFrom('van-1', 'van-2'),
        (raw, nowMin, durationMin, quarter, resourceId) => {
          const busy = raw.map((b) => ({
            resourceId: b.resourceId,
            start: new Date(Date.parse(at('00:00')) + b.startMin * 60_000).toISOString(),
            end: new Date(Date.parse(at('00:00')) + (b.startMin + b.lengthMin) * 60_000).toISOString(),
          }));
          const input: FindSlotsInput = {
            resources,
            busy,
            durationMin,
            timeZone: 'Africa/Johannesburg',
            now: new Date(Date.parse('2026-11-22T22:00:00Z') + nowMin * 60_000).toISOString(),
            from: '2026-11-23',
            to: '2026-11-23',
          };
          // Local midnight of the 23rd is 22:00 UTC the day before; quarters of the local day.
          const start = new Date(Date.parse('2026-11-22T22:00:00Z') + quarter * 15 * 60_000).toISOString();
          const offered = (i: FindSlotsInput) =>
            findSlots(i).days[0]!.slots.some((s) => s.start === start && s.resourceId === resourceId);
          const expected = offered(input) ? 'OPEN' : offered({ ...input, busy: [] }) ? 'TAKEN' : 'NOT_A_SLOT';
          const { from: _f, to: _t, ...rest } = input;
          expect(checkSlot({ ...rest, start, resourceId }).status).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
