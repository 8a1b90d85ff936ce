import { SlotEngineError } from './errors.js';
import { findSlots } from './find-slots.js';
import { checkTimeZone, hhmm, instantMs, localDay, minutesOf, parseDate } from './local-time.js';
import { LOOKAHEAD_DAYS } from './next-open-slots.js';
import type { BusyInterval, EmptyReason, Resource, TimeOff } from './types.js';

/** An overnight or multi-night house sit: the sitter arrives on `startDate` and leaves after `nights`. */
export interface Stay {
  startDate: string;
  /** 1 to 30. */
  nights: number;
  /** Local arrival time on each evening; default 17:30. */
  arriveAt?: string;
  /** Local leaving time on the last morning; default 07:30. */
  leaveAt?: string;
}

export type VisitWindowName = 'morning' | 'midday' | 'afternoon' | 'evening';

/** Drop-in visits on consecutive days. */
export interface Visits {
  startDate: string;
  /** 1 to 31. */
  days: number;
  /** 1 to 4 visits a day. */
  perDay: number;
  /** One window per visit of the day; default by `perDay` (1: morning; 2: morning, evening; 3: + midday; 4: + afternoon). */
  windows?: (VisitWindowName | { start: string; end: string })[];
}

export const VISIT_WINDOWS: Record<VisitWindowName, { start: string; end: string }> = {
  morning: { start: '07:00', end: '10:00' },
  midday: { start: '11:30', end: '14:00' },
  afternoon: { start: '14:00', end: '16:30' },
  evening: { start: '16:30', end: '19:30' },
};

const DEFAULT_WINDOWS: VisitWindowName[][] = [
  [],
  ['morning'],
  ['morning', 'evening'],
  ['morning', 'midday', 'evening'],
  ['morning', 'midday', 'afternoon', 'evening'],
];

export interface PlanEntry {
  date: string;
  /** Instants, ISO 8601 UTC. */
  start: string;
  end: string;
  /** Local `HH:MM` of the start. */
  time: string;
  resourceId: string;
}

export interface SittingPlan {
  mode: 'STAY' | 'VISITS';
  /** True when every night or visit found a sitter. */
  ok: boolean;
  /** The local windows used: for a stay its arrival and leaving times, for visits one per visit of the day. */
  windows: { name: string; start: string; end: string }[];
  plan: PlanEntry[];
  /**
   * What could not be planned, and why: `PAST` (before now plus the notice), `FULLY_BOOKED`, `NO_SITTER`
   * (the business has none), and for visits the day's own reason when the sitters do not work then
   * (`CLOSED_DAY`, `OUTSIDE_HOURS`, `TIME_OFF`).
   */
  unplanned: { date: string; window: string; reason: EmptyReason | 'NO_SITTER' }[];
}

interface SittingContext {
  resources: Resource[];
  busy?: BusyInterval[];
  timeOff?: TimeOff[];
  timeZone: string;
  now: string;
  minNoticeMin?: number;
}

function overlaps(
  list: (BusyInterval | TimeOff)[],
  resourceId: string | undefined,
  start: number,
  end: number,
): boolean {
  return list.some(
    (x) =>
      (x.resourceId === undefined || x.resourceId === resourceId) &&
      instantMs(x.start, 'start') < end &&
      instantMs(x.end, 'end') > start,
  );
}

/**
 * One sitter for a whole stay, from arrival on the first evening to leaving on the last morning.
 * A sitter staying over is booked for the whole span: their weekly hours do not limit it, their
 * bookings and time off do. The same sitter stays throughout; sitters are tried in id order.
 *
 * @example planStay({ resources, timeZone: 'Africa/Johannesburg', now, stay: { startDate: '2026-12-20', nights: 3 } })
 */
export function planStay(input: SittingContext & { stay: Stay }): SittingPlan {
  checkTimeZone(input.timeZone);
  const { stay } = input;
  if (!Number.isInteger(stay.nights) || stay.nights < 1 || stay.nights > 30) {
    throw new SlotEngineError('BAD_RANGE', `nights must be 1 to 30, got ${stay.nights}.`, {
      nights: stay.nights,
    });
  }
  const arriveAt = stay.arriveAt ?? '17:30';
  const leaveAt = stay.leaveAt ?? '07:30';
  const arriveMin = minutesOf(arriveAt, 'arriveAt');
  const leaveMin = minutesOf(leaveAt, 'leaveAt');
  const first = parseDate(stay.startDate, 'startDate');
  const windows = [{ name: 'stay', start: arriveAt, end: leaveAt }];
  const nights = Array.from({ length: stay.nights }, (_, i) => first.add({ days: i }));
  const arrive = localDay(first, input.timeZone).toEpochMs(arriveMin);
  const leave = localDay(first.add({ days: stay.nights }), input.timeZone).toEpochMs(leaveMin);
  const earliest = instantMs(input.now, 'now') + (input.minNoticeMin ?? 120) * 60_000;
  const all = (reason: SittingPlan['unplanned'][number]['reason']): SittingPlan => ({
    mode: 'STAY',
    ok: false,
    windows,
    plan: [],
    unplanned: nights.map((d) => ({ date: d.toString(), window: 'stay', reason })),
  });
  if (arrive === null || leave === null || arrive < earliest) return all('PAST');
  const sitters = input.resources.filter((r) => r.kind === 'SITTER').sort((a, b) => (a.id < b.id ? -1 : 1));
  if (sitters.length === 0) return all('NO_SITTER');
  const sitter = sitters.find(
    (s) =>
      !overlaps(input.busy ?? [], s.id, arrive, leave) && !overlaps(input.timeOff ?? [], s.id, arrive, leave),
  );
  if (!sitter) return all('FULLY_BOOKED');
  const plan = nights.map((d, i) => {
    const start = localDay(d, input.timeZone).toEpochMs(arriveMin) ?? arrive;
    const end =
      i === nights.length - 1
        ? leave
        : (localDay(d.add({ days: 1 }), input.timeZone).toEpochMs(arriveMin) ?? leave);
    return {
      date: d.toString(),
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
      time: hhmm(arriveMin),
      resourceId: sitter.id,
    };
  });
  return { mode: 'STAY', ok: true, windows, plan, unplanned: [] };
}

/**
 * Drop-in visits: each visit of each day gets a slot of `durationMin` inside its window on a
 * sitter, preferring the sitter of the first visit throughout, then the earliest time.
 *
 * @example planVisits({ resources, timeZone, now, durationMin: 30, visits: { startDate: '2026-12-20', days: 5, perDay: 2 } })
 */
export function planVisits(input: SittingContext & { durationMin: number; visits: Visits }): SittingPlan {
  checkTimeZone(input.timeZone);
  const { visits } = input;
  if (!Number.isInteger(visits.days) || visits.days < 1 || visits.days > 31) {
    throw new SlotEngineError('BAD_RANGE', `days must be 1 to 31, got ${visits.days}.`, {
      days: visits.days,
    });
  }
  if (!Number.isInteger(visits.perDay) || visits.perDay < 1 || visits.perDay > 4) {
    throw new SlotEngineError('BAD_RANGE', `perDay must be 1 to 4, got ${visits.perDay}.`, {
      perDay: visits.perDay,
    });
  }
  const named = visits.windows ?? DEFAULT_WINDOWS[visits.perDay]!;
  if (named.length !== visits.perDay) {
    throw new SlotEngineError(
      'BAD_RANGE',
      `Give one window per visit: ${visits.perDay} visits, ${named.length} windows.`,
    );
  }
  const windows = named.map((w, i) =>
    typeof w === 'string' ? { name: w, ...VISIT_WINDOWS[w] } : { name: `visit ${i + 1}`, ...w },
  );
  const first = parseDate(visits.startDate, 'startDate');
  const sitters = input.resources.filter((r) => r.kind === 'SITTER');
  const busy: BusyInterval[] = [...(input.busy ?? [])];
  const plan: PlanEntry[] = [];
  const unplanned: SittingPlan['unplanned'] = [];
  let preferred: string | undefined;
  for (let d = 0; d < visits.days; d++) {
    const date = first.add({ days: d }).toString();
    for (const w of windows) {
      if (sitters.length === 0) {
        unplanned.push({ date, window: w.name, reason: 'NO_SITTER' });
        continue;
      }
      const [day] = findSlots({
        resources: sitters,
        busy,
        timeOff: input.timeOff,
        timeZone: input.timeZone,
        now: input.now,
        minNoticeMin: input.minNoticeMin,
        durationMin: input.durationMin,
        from: date,
        to: date,
        windowStart: w.start,
        windowEnd: w.end,
      }).days;
      const slot = day!.slots.find((s) => s.resourceId === preferred) ?? day!.slots[0];
      if (!slot) {
        unplanned.push({ date, window: w.name, reason: day!.why ?? 'FULLY_BOOKED' });
        continue;
      }
      preferred ??= slot.resourceId;
      const end = new Date(Date.parse(slot.start) + input.durationMin * 60_000).toISOString();
      plan.push({ date, start: slot.start, end, time: slot.time, resourceId: slot.resourceId });
      busy.push({ resourceId: slot.resourceId, start: slot.start, end });
    }
  }
  return { mode: 'VISITS', ok: unplanned.length === 0, windows, plan, unplanned };
}

/** A stay or visits to plan: the same input as {@link planStay} or {@link planVisits}. */
export type SittingInput = SittingContext & ({ stay: Stay } | { durationMin: number; visits: Visits });

/**
 * Why a stay or visits cannot be booked, as find_times says it of a range: `PAST` when any of it
 * starts before now plus the notice (no sitter can make it, however free), else `FULLY_BOOKED` when
 * sitters are booked, else `OUTSIDE_HOURS`, else `CLOSED_DAY` (no sitter works then: closed, time off,
 * or none at all).
 *
 * @example sittingReason(planStay({ ...context, stay: { startDate: today, nights: 2 } })) // 'PAST' at 19:52
 */
export function sittingReason(plan: SittingPlan): 'PAST' | 'FULLY_BOOKED' | 'OUTSIDE_HOURS' | 'CLOSED_DAY' {
  const reasons = new Set(plan.unplanned.map((u) => u.reason));
  if (reasons.has('PAST')) return 'PAST';
  if (reasons.has('FULLY_BOOKED')) return 'FULLY_BOOKED';
  if (reasons.has('OUTSIDE_HOURS')) return 'OUTSIDE_HOURS';
  return 'CLOSED_DAY';
}

/**
 * The next stays or visits like the one asked for (same nights or days, windows and times) that can be
 * booked: starting on each later day within 14 days of its start, the first `limit` that plan in full, soonest first. Empty means none within 14 days. The context must hold the
 * bookings and time off of those days too.
 *
 * @example nextSittings({ ...context, stay: { startDate: today, nights: 2 } }, 3) // [{ startDate, plan }, ...]
 */
export function nextSittings(input: SittingInput, limit: number): { startDate: string; plan: SittingPlan }[] {
  const asked = 'stay' in input ? input.stay : input.visits;
  const first = parseDate(asked.startDate, 'startDate');
  const out: { startDate: string; plan: SittingPlan }[] = [];
  for (let d = 1; d < LOOKAHEAD_DAYS && out.length < limit; d++) {
    const startDate = first.add({ days: d }).toString();
    const plan =
      'stay' in input
        ? planStay({ ...input, stay: { ...input.stay, startDate } })
        : planVisits({ ...input, visits: { ...input.visits, startDate } });
    if (plan.ok) out.push({ startDate, plan });
  }
  return out;
}
