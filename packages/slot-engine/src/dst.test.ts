import { Temporal } from '@js-temporal/polyfill';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSlots } from './find-slots.js';
import type { Resource } from './types.js';

const zones = [
  { timeZone: 'Europe/London', days: ['2026-03-29', '2026-10-25'] },
  { timeZone: 'America/New_York', days: ['2026-03-08', '2026-11-01'] },
  { timeZone: 'Africa/Johannesburg', days: ['2026-03-29', '2026-10-25'] },
];

const allWeek = (start: string, end: string) =>
  Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start, end }]]));

describe('findSlots across DST changes', () => {
  it('skips the hour that does not exist on the spring-forward day', () => {
    const night: Resource = { id: 'sitter-1', kind: 'SITTER', week: allWeek('00:00', '05:00') };
    const slots = findSlots({
      resources: [night],
      durationMin: 30,
      timeZone: 'Europe/London',
      now: '2026-03-01T00:00:00Z',
      from: '2026-03-29',
      to: '2026-03-29',
    }).days[0]!.slots;
    const t = slots.map((s) => s.time);
    expect(t).toContain('00:30');
    expect(t).not.toContain('01:00');
    expect(t).not.toContain('01:30');
    expect(t).toContain('02:00');
  });

  it('uses the earlier of a repeated time on the fall-back day, once', () => {
    const night: Resource = { id: 'sitter-1', kind: 'SITTER', week: allWeek('00:00', '04:00') };
    const slots = findSlots({
      resources: [night],
      durationMin: 30,
      timeZone: 'America/New_York',
      now: '2026-10-01T00:00:00Z',
      from: '2026-11-01',
      to: '2026-11-01',
    }).days[0]!.slots;
    const one = slots.filter((s) => s.time === '01:00');
    expect(one).toEqual([{ start: '2026-11-01T05:00:00.000Z', time: '01:00', resourceId: 'sitter-1' }]);
  });

  it.each(zones)(
    'keeps every rule in $timeZone over transition days',
    ({ timeZone, days }) => {
      const hhmm = fc
        .integer({ min: 0, max: 47 })
        .map((h) => `${String(Math.floor(h / 2)).padStart(2, '0')}:${h % 2 ? '30' : '00'}`);
      fc.assert(
        fc.property(
          fc.constantFrom(...days),
          hhmm,
          hhmm,
          fc.constantFrom(15, 30, 45, 60, 90),
          fc.constantFrom(15, 30),
          fc.array(
            fc.record({
              startMin: fc.integer({ min: 0, max: 2880 }),
              lenMin: fc.integer({ min: 15, max: 240 }),
            }),
            { maxLength: 6 },
          ),
          fc.integer({ min: 0, max: 48 * 60 }),
          (date, a, b, duration, step, bookings, nowOffsetMin) => {
            const [start, end] = a < b ? [a, b] : [b, a];
            if (start === end) return;
            const resource: Resource = { id: 'r', kind: 'VAN', week: allWeek(start, end), slotStepMin: step };
            const dayStart = Temporal.PlainDate.from(date).toZonedDateTime({ timeZone }).epochMilliseconds;
            const busy = bookings.map((x) => ({
              resourceId: 'r',
              start: new Date(dayStart - 86_400_000 + x.startMin * 60_000).toISOString(),
              end: new Date(dayStart - 86_400_000 + (x.startMin + x.lenMin) * 60_000).toISOString(),
            }));
            const now = new Date(dayStart - 86_400_000 + nowOffsetMin * 60_000).toISOString();
            const { days: result } = findSlots({
              resources: [resource],
              busy,
              durationMin: duration,
              timeZone,
              now,
              from: date,
              to: date,
              minNoticeMin: 60,
            });
            const seen = new Set<string>();
            for (const slot of result[0]!.slots) {
              const zdt = Temporal.Instant.from(slot.start).toZonedDateTimeISO(timeZone);
              // time is the local wall time of start, on that date
              expect(zdt.toPlainDate().toString()).toBe(date);
              expect(`${String(zdt.hour).padStart(2, '0')}:${String(zdt.minute).padStart(2, '0')}`).toBe(
                slot.time,
              );
              // inside the working range, by wall clock
              expect(slot.time >= start).toBe(true);
              const endWall = zdt.hour * 60 + zdt.minute + duration;
              expect(endWall).toBeLessThanOrEqual(Number(end.slice(0, 2)) * 60 + Number(end.slice(3)));
              // once per start
              expect(seen.has(slot.start)).toBe(false);
              seen.add(slot.start);
              // not before now + notice
              const s = Date.parse(slot.start);
              expect(s).toBeGreaterThanOrEqual(Date.parse(now) + 60 * 60_000);
              // clear of bookings and the 15-minute van buffer
              for (const bk of busy) {
                const overlap =
                  Date.parse(bk.start) - 15 * 60_000 < s + duration * 60_000 &&
                  Date.parse(bk.end) + 15 * 60_000 > s;
                expect(overlap).toBe(false);
              }
            }
          },
        ),
        { numRuns: 300 },
      );
      // 300 runs through the Temporal polyfill: seconds on a busy two-core machine, so not the 5 s default.
    },
    60_000,
  );
});
