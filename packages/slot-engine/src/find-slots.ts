import { dayLabel } from './day-label.js';
import { SlotEngineError } from './errors.js';
import {
  checkTimeZone,
  dateOfEpochDay,
  epochDay,
  hhmm,
  instantMs,
  localDay,
  minutesOf,
  parseDate,
  localDateText,
} from './local-time.js';
import type {
  BusyInterval,
  DayResult,
  EmptyReason,
  FindSlotsInput,
  FindSlotsResult,
  GroupRequest,
  InstantInput,
  Resource,
  Slot,
  SlotCheck,
  SlotCheckInput,
} from './types.js';

export const MAX_RANGE_DAYS = 31;
export const DEFAULT_DAYS = 7;
export const DEFAULT_STEP_MIN = 30;
export const DEFAULT_VAN_BUFFER_MIN = 15;
export const DEFAULT_MIN_NOTICE_MIN = 120;
export const MAX_RANGES_PER_DAY = 6;

interface Interval {
  start: number;
  end: number;
  groupKey: string | undefined;
  size: number;
}

interface PreparedResource {
  resource: Resource;
  step: number;
  bufferMs: number;
  busy: Interval[];
  timeOff: Interval[];
}

function byStart(a: Interval, b: Interval): number {
  return a.start - b.start;
}

function toInterval(
  x: { start: InstantInput; end: InstantInput; groupKey?: string; size?: number },
  field: string,
): Interval {
  return {
    start: instantMs(x.start, `${field}.start`),
    end: instantMs(x.end, `${field}.end`),
    groupKey: x.groupKey,
    size: x.size ?? 1,
  };
}

/** Index of the first interval whose end (plus pad) is after `t`, in intervals sorted by start. */
function firstEndingAfter(list: Interval[], t: number, pad: number, maxLen: number): number {
  // Intervals are sorted by start; any interval ending after t starts after t - maxLen.
  let lo = 0;
  let hi = list.length;
  const from = t - maxLen - pad;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.start < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Whether bookings (sorted by start, looked at from index `from`) block [start, end) on a
 * resource: each keeps the travel buffer clear on both sides, except bookings of the same group
 * walk at exactly these times, which are joined while places remain.
 */
function busyBlocks(
  busy: Interval[],
  from: number,
  start: number,
  end: number,
  buffer: number,
  group: GroupRequest | undefined,
): boolean {
  let taken = 0;
  let joined = false;
  for (let i = from; i < busy.length; i++) {
    const b = busy[i]!;
    if (b.start - buffer >= end) break;
    if (b.end + buffer <= start) continue;
    if (group && b.groupKey === group.key && b.start === start && b.end === end) {
      taken += b.size;
      joined = true;
      continue;
    }
    return true;
  }
  return joined && group !== undefined && taken + group.size > group.capacity;
}

/** The travel buffer kept clear around a resource's bookings, in ms (vans 15 minutes by default). */
function bufferMsOf(resource: Resource): number {
  return (resource.travelBufferMin ?? (resource.kind === 'VAN' ? DEFAULT_VAN_BUFFER_MIN : 0)) * 60_000;
}

/** The local dates of the range as epoch days (validated once with Temporal, then arithmetic). */
function dateRange(input: FindSlotsInput, today: string): number[] {
  const from = epochDay(input.from ? parseDate(input.from, 'from').toString() : today);
  const to = input.to ? epochDay(parseDate(input.to, 'to').toString()) : from + DEFAULT_DAYS - 1;
  const days = to - from + 1;
  if (days < 1) {
    throw new SlotEngineError(
      'BAD_RANGE',
      `to (${dateOfEpochDay(to)}) is before from (${dateOfEpochDay(from)}).`,
      {
        from: dateOfEpochDay(from),
        to: dateOfEpochDay(to),
      },
    );
  }
  if (days > MAX_RANGE_DAYS) {
    throw new SlotEngineError('RANGE_TOO_LONG', `The range is ${days} days; at most ${MAX_RANGE_DAYS}.`, {
      days,
      max: MAX_RANGE_DAYS,
    });
  }
  return Array.from({ length: days }, (_, i) => from + i);
}

/**
 * Open slots per day for a duration, over the business's resources, in its time zone.
 *
 * A slot at local time t on a resource is open when [t, t + duration) lies in one of the
 * resource's working ranges that day (and in the optional daily window), starts no sooner than
 * now + minimum notice, overlaps no time off, and keeps the travel buffer clear of every booking
 * on the resource. A group walk joins bookings of its group at the same times while places remain.
 *
 * @example
 * findSlots({
 *   resources: [{ id: 'van-1', kind: 'VAN', week: { mon: [{ start: '08:00', end: '12:00' }] } }],
 *   durationMin: 60, timeZone: 'Africa/Johannesburg', now: '2026-11-22T06:00:00Z',
 *   from: '2026-11-23', to: '2026-11-23',
 * }); // { days: [{ date: '2026-11-23', label: 'Tomorrow', slots: [{ start: '2026-11-23T06:00:00.000Z', time: '08:00', resourceId: 'van-1' }, ...] }] }
 */
export function findSlots(input: FindSlotsInput): FindSlotsResult {
  if (!Number.isInteger(input.durationMin) || input.durationMin <= 0 || input.durationMin > 60 * 24 * 2) {
    throw new SlotEngineError(
      'BAD_DURATION',
      `durationMin must be a whole number of minutes above 0, got ${input.durationMin}.`,
    );
  }
  checkTimeZone(input.timeZone);
  const nowMs = instantMs(input.now, 'now');
  const todayText = localDateText(nowMs, input.timeZone);
  const dates = dateRange(input, todayText);
  const earliest = nowMs + (input.minNoticeMin ?? DEFAULT_MIN_NOTICE_MIN) * 60_000;
  const windowStart = input.windowStart ? minutesOf(input.windowStart, 'windowStart') : 0;
  const windowEnd = input.windowEnd ? minutesOf(input.windowEnd, 'windowEnd') : 1440;
  const duration = input.durationMin;
  const durationMs = duration * 60_000;
  const group = input.group;
  const locale = input.locale ?? 'en-ZA';

  const businessOff: Interval[] = [];
  const offByResource = new Map<string, Interval[]>();
  for (const off of input.timeOff ?? []) {
    const iv = toInterval(off, 'timeOff');
    if (off.resourceId === undefined) businessOff.push(iv);
    else offByResource.set(off.resourceId, [...(offByResource.get(off.resourceId) ?? []), iv]);
  }
  const busyByResource = new Map<string, Interval[]>();
  let maxBusyMs = 0;
  for (const b of input.busy ?? []) {
    if (input.ignoreBusy?.(b as BusyInterval)) continue;
    const iv = toInterval(b, 'busy');
    if (iv.end - iv.start > maxBusyMs) maxBusyMs = iv.end - iv.start;
    const list = busyByResource.get(b.resourceId);
    if (list) list.push(iv);
    else busyByResource.set(b.resourceId, [iv]);
  }
  let maxOffMs = 0;
  // In id order: a slot's place in the day is its start, then its resource's index.
  const ordered = [...input.resources].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const prepared: PreparedResource[] = ordered.map((resource) => {
    for (const [day, ranges] of Object.entries(resource.week)) {
      if ((ranges?.length ?? 0) > MAX_RANGES_PER_DAY) {
        throw new SlotEngineError(
          'TOO_MANY_RANGES',
          `${resource.id} has ${ranges!.length} ranges on ${day}; at most ${MAX_RANGES_PER_DAY}.`,
          {
            resourceId: resource.id,
            day,
          },
        );
      }
    }
    const timeOff = [...businessOff, ...(offByResource.get(resource.id) ?? [])].sort(byStart);
    for (const t of timeOff) maxOffMs = Math.max(maxOffMs, t.end - t.start);
    return {
      resource,
      step: resource.slotStepMin ?? DEFAULT_STEP_MIN,
      bufferMs: bufferMsOf(resource),
      busy: (busyByResource.get(resource.id) ?? []).sort(byStart),
      timeOff,
    };
  });
  const rangesOf = new Map<Resource, Map<string, [number, number][]>>();
  for (const p of prepared) {
    const m = new Map<string, [number, number][]>();
    for (const [day, ranges] of Object.entries(p.resource.week)) {
      m.set(
        day,
        (ranges ?? []).map((r) => [
          minutesOf(r.start, `${p.resource.id}.${day}.start`),
          minutesOf(r.end, `${p.resource.id}.${day}.end`),
        ]),
      );
    }
    rangesOf.set(p.resource, m);
  }

  const iso = new Map<number, string>();
  const resourceCount = prepared.length;
  const ids = prepared.map((p) => p.resource.id);
  const days: DayResult[] = [];
  for (const date of dates) {
    const day = localDay(dateOfEpochDay(date), input.timeZone);
    // Found slots as integers (local minutes × resources + resource index), sorted natively at the
    // end of the day: local-minute order is instant order, as a repeated hour gives only its earlier
    // instant and a skipped hour gives nothing.
    let found = new Int32Array(64);
    let foundCount = 0;
    // Why a day ends up empty: the furthest stage any candidate time reached.
    let worked = false;
    let fitted = false;
    let future = false;
    let offClear = false;
    for (let r = 0; r < prepared.length; r++) {
      const p = prepared[r]!;
      const ranges = rangesOf.get(p.resource)!.get(day.dayKey);
      if (!ranges?.length) continue;
      worked = true;
      for (const [rangeStart, rangeEnd] of ranges) {
        // Starts only grow within a range, so the first booking and time off that can still matter
        // only move forward: two cursors instead of a search per start.
        let bi = -1;
        let oi = -1;
        const first = Math.max(rangeStart, windowStart);
        // Starts stay on the resource's grid: range start + k * step.
        const offset = (first - rangeStart) % p.step;
        for (
          let t = offset === 0 ? first : first + p.step - offset;
          t + duration <= rangeEnd && t + duration <= windowEnd;
          t += p.step
        ) {
          fitted = true;
          const start = day.stableMidnight !== null ? day.stableMidnight + t * 60_000 : day.toEpochMs(t);
          if (start === null || start < earliest) continue;
          future = true;
          const end = start + durationMs;
          let blocked = false;
          if (oi < 0) oi = firstEndingAfter(p.timeOff, start, 0, maxOffMs);
          while (oi < p.timeOff.length && p.timeOff[oi]!.start < start - maxOffMs) oi++;
          for (let i = oi; i < p.timeOff.length; i++) {
            const off = p.timeOff[i]!;
            if (off.start >= end) break;
            if (off.end > start) {
              blocked = true;
              break;
            }
          }
          if (blocked) continue;
          offClear = true;
          const buffer = p.bufferMs;
          // Sorted by start: nothing before start - longest - buffer can reach this slot.
          if (bi < 0) bi = firstEndingAfter(p.busy, start, buffer, maxBusyMs);
          while (bi < p.busy.length && p.busy[bi]!.start < start - maxBusyMs - buffer) bi++;
          if (busyBlocks(p.busy, bi, start, end, buffer, group)) continue;
          if (foundCount === found.length) {
            const bigger = new Int32Array(found.length * 2);
            bigger.set(found);
            found = bigger;
          }
          found[foundCount++] = t * resourceCount + r;
        }
      }
    }
    const keys = found.subarray(0, foundCount);
    if (resourceCount > 1) keys.sort();
    const slots: Slot[] = new Array(foundCount);
    let lastT = -1;
    let text = '';
    for (let i = 0; i < foundCount; i++) {
      const key = keys[i]!;
      const t = Math.floor(key / resourceCount);
      if (t !== lastT) {
        const start = day.toEpochMs(t)!;
        const cached = iso.get(start);
        if (cached === undefined) {
          text = new Date(start).toISOString();
          iso.set(start, text);
        } else text = cached;
        lastT = t;
      }
      slots[i] = { start: text, time: hhmm(t), resourceId: ids[key - t * resourceCount]! };
    }
    const result: DayResult = { date: day.date, label: dayLabel(day.date, todayText, locale), slots };
    if (slots.length === 0) {
      const why: EmptyReason = !worked
        ? 'CLOSED_DAY'
        : !fitted
          ? 'OUTSIDE_HOURS'
          : !future
            ? 'PAST'
            : !offClear
              ? 'TIME_OFF'
              : 'FULLY_BOOKED';
      result.why = why;
    }
    days.push(result);
  }
  return { days };
}

/**
 * Whether one start on one resource is open now, and if not, why: `TAKEN` when it is a slot but
 * bookings fill it (someone booked it since it was offered), `NOT_A_SLOT` when it never was one
 * (outside the resource's hours or off its grid, too soon, in time off; `why` says which, when
 * the day has no slot at all). The same rules as {@link findSlots}, for the one day of the start
 * and the one resource, so a booking can be checked against only that resource's day.
 *
 * @example
 * checkSlot({ resources, busy, durationMin: 60, timeZone: 'Africa/Johannesburg',
 *   now: '2026-11-22T06:00:00Z', start: '2026-11-23T06:00:00.000Z', resourceId: 'van-1' });
 * // { status: 'OPEN' } or { status: 'TAKEN' } or { status: 'NOT_A_SLOT', why?: 'CLOSED_DAY' }
 */
export function checkSlot(input: SlotCheckInput): SlotCheck {
  const startMs = instantMs(input.start, 'start');
  checkTimeZone(input.timeZone);
  const resource = input.resources.find((r) => r.id === input.resourceId);
  if (!resource) return { status: 'NOT_A_SLOT' };
  const date = localDateText(startMs, input.timeZone);
  const { start: _start, resourceId: _resourceId, busy, ...rest } = input;
  // Hours, grid, notice and time off: is it a slot at all, bookings aside?
  const [day] = findSlots({ ...rest, resources: [resource], from: date, to: date }).days;
  if (!day!.slots.some((s) => Date.parse(s.start) === startMs)) {
    return day!.why ? { status: 'NOT_A_SLOT', why: day!.why } : { status: 'NOT_A_SLOT' };
  }
  const mine: Interval[] = [];
  for (const b of busy ?? []) {
    if (b.resourceId !== resource.id || input.ignoreBusy?.(b)) continue;
    mine.push(toInterval(b, 'busy'));
  }
  mine.sort(byStart);
  const blocked = busyBlocks(
    mine,
    0,
    startMs,
    startMs + input.durationMin * 60_000,
    bufferMsOf(resource),
    input.group,
  );
  return { status: blocked ? 'TAKEN' : 'OPEN' };
}
