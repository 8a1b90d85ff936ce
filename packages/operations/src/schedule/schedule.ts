/**
 * The schedule of a range, for every way of booking: what find_times offers, what book and
 * reschedule check, where a stay or visits go, which weeks a series gets. Each function gathers
 * the business's resources, bookings and time off through one store read and hands them to the
 * slot engine, which decides.
 */
import {
  type BusyInterval,
  checkSlot as slotStatus,
  DEFAULT_DAYS,
  type DayResult,
  type EmptyReason,
  type FindSlotsInput,
  findSlots,
  LOOKAHEAD_DAYS,
  nextOpenSlots,
  nextSittings,
  planStay,
  planVisits,
  rangeFromToday,
  type Resource,
  type SittingPlan,
  SlotEngineError,
  sittingReason,
  type Stay,
  type Visits,
} from '@nogpets/slot-engine';
import { readSchedule, type ScheduleRows } from '@nogpets/store';
import { DAY_MS, localDate, MINUTE, type OperationContext, ServiceError } from '../core/index.js';
import type { PricedRequest } from '../catalogue/index.js';

/** The kind of resource each line books. */
const KIND_OF = { grooming: 'VAN', walking: 'WALKER', sitting: 'SITTER' } as const;

/**
 * Why a day has no open time, in words that read after "Grooming is" and after "2026-12-23:".
 * The one map of these reasons: find_times and the weeks a series skips both say them.
 */
export const WHY_CLOSED: Record<EmptyReason, string> = {
  CLOSED_DAY: 'closed',
  TIME_OFF: 'closed (holiday or time off)',
  OUTSIDE_HOURS: 'not open at those hours',
  FULLY_BOOKED: 'fully booked',
  PAST: 'too soon to book',
};

/**
 * Why nothing is open on the days asked for, and the next open times (any hour, from the first day
 * asked, on the same resources and notice): find_times and find_business_times both say it so.
 * `message` ends before what the caller adds when there are no alternatives.
 */
export function nothingOpen(
  label: string,
  days: DayResult[],
  input: FindSlotsInput,
): { reason: EmptyReason; message: string; alternatives: ReturnType<typeof nextOpenSlots> } {
  const whys = new Set(days.map((d) => d.why));
  const reason: EmptyReason = whys.has('FULLY_BOOKED')
    ? 'FULLY_BOOKED'
    : whys.has('OUTSIDE_HOURS')
      ? 'OUTSIDE_HOURS'
      : whys.has('PAST')
        ? 'PAST'
        : 'CLOSED_DAY';
  const { windowStart: _ws, windowEnd: _we, to: _to, ...open } = input;
  const alternatives = nextOpenSlots({ ...open, from: days[0]!.date }, 5);
  const range = days.length === 1 ? days[0]!.date : `${days[0]!.date} and ${days.at(-1)!.date}`;
  let message = `${label} is ${WHY_CLOSED[reason]} ${days.length === 1 ? 'on' : 'between'} ${range}.`;
  if (alternatives[0])
    message += ` The next open time is ${alternatives[0].date} at ${alternatives[0].time}.`;
  return { reason, message, alternatives };
}

/** A slot-engine refusal of its input as the service's 400 (`details.reason` is the engine's code). */
export function engineError(err: unknown): never {
  if (err instanceof SlotEngineError) {
    const field =
      (err.details.field as string | undefined) ??
      (err.code === 'RANGE_TOO_LONG' || err.code === 'BAD_RANGE' ? 'to' : '(input)');
    throw new ServiceError('BAD_REQUEST', err.message, {
      fields: [{ field, message: err.message }],
      reason: err.code,
    });
  }
  throw err;
}

/** The group a quote's walk joins, if it is a group walk: its key (the service), capacity and places taken. */
export function groupOf(priced: PricedRequest): { key: string; capacity: number; size: number } | undefined {
  const { offer, quote } = priced;
  const primary = offer.lines
    .flatMap((l) => l.services)
    .find((s) => s.id === quote.pets[0]?.items[0]?.serviceId);
  return quote.groupSize && primary
    ? { key: primary.id, capacity: primary.groupSize, size: quote.groupSize }
    : undefined;
}

/** The store's schedule rows as the slot engine takes them. */
function toEngine(rows: ScheduleRows) {
  return {
    resources: rows.resources.map(
      (r): Resource => ({
        id: r.id,
        kind: r.kind,
        week: r.week,
        ...(r.slotStepMin != null ? { slotStepMin: r.slotStepMin } : {}),
        ...(r.travelBufferMin != null ? { travelBufferMin: r.travelBufferMin } : {}),
      }),
    ),
    busy: rows.busy.map(
      (b): BusyInterval => ({
        resourceId: b.resourceId,
        start: b.start,
        end: b.end,
        ...(b.groupKey ? { groupKey: b.groupKey, size: b.size } : {}),
      }),
    ),
    timeOff: rows.timeOff.map((t) => ({
      ...(t.resourceId ? { resourceId: t.resourceId } : {}),
      start: t.start,
      end: t.end,
    })),
  };
}

/**
 * The schedule of [fromMs, toMs) for a priced request's line: the business's resources of that
 * kind (or the one `resourceId`), their bookings other than `except`, and time off.
 */
export async function scheduleOf(
  ctx: OperationContext,
  priced: PricedRequest,
  fromMs: number,
  toMs: number,
  except: string[] = [],
  resourceId?: string,
) {
  return toEngine(
    await readSchedule(ctx.deps.sql, {
      businessId: priced.offer.business.id,
      kind: KIND_OF[priced.line.id],
      resourceId,
      from: new Date(fromMs),
      to: new Date(toMs),
      except,
    }),
  );
}

/**
 * What the slot engine needs to find slots for a priced request over local dates (default today
 * and the next 6 days), bookings other than `except` counted. The schedule read covers the range
 * and the 14 days from its first date that alternatives look at, a day either side for zones and
 * travel buffers.
 */
export async function slotInputFor(
  ctx: OperationContext,
  priced: PricedRequest,
  range: {
    from?: string | undefined;
    to?: string | undefined;
    windowStart?: string | undefined;
    windowEnd?: string | undefined;
  },
  except: string[] = [],
) {
  const now = ctx.deps.clock.now();
  const from = range.from;
  const fromDate = from ?? localDate(now, priced.offer.business.timezone);
  const fromMs = Date.parse(`${fromDate}T00:00:00Z`);
  const toMs = range.to ? Date.parse(`${range.to}T00:00:00Z`) : fromMs + (DEFAULT_DAYS - 1) * DAY_MS;
  const lastMs = Math.max(toMs, fromMs + (LOOKAHEAD_DAYS - 1) * DAY_MS);
  const sched = await scheduleOf(
    ctx,
    priced,
    fromMs - DAY_MS,
    // A range the engine refuses (over 31 days) is read for its first 31 days only.
    Math.min(lastMs, fromMs + 31 * DAY_MS) + 2 * DAY_MS,
    except,
  );
  const group = groupOf(priced);
  return {
    timeZone: priced.offer.business.timezone,
    now: now.toISOString(),
    ...sched,
    durationMin: priced.quote.durationMin,
    ...(from ? { from } : {}),
    ...(range.to ? { to: range.to } : {}),
    ...(range.windowStart ? { windowStart: range.windowStart } : {}),
    ...(range.windowEnd ? { windowEnd: range.windowEnd } : {}),
    ...(group ? { group } : {}),
  };
}

/**
 * The dates a person asked to see open times for (find_times, find_reschedule_times), from today
 * on: slot-engine's rule, its refusal a 400 naming the field.
 */
export function askedRange(
  range: { from?: string | undefined; to?: string | undefined },
  today: string,
): { from?: string; to?: string } {
  try {
    return rangeFromToday(range, today);
  } catch (err) {
    return engineError(err);
  }
}

/** The open days between two local dates, bookings other than `except` counted. */
export async function openDays(
  ctx: OperationContext,
  priced: PricedRequest,
  from: string,
  to: string,
  except: string[] = [],
): Promise<DayResult[]> {
  const input = await slotInputFor(ctx, priced, { from, to }, except);
  try {
    return findSlots(input).days;
  } catch (err) {
    return engineError(err);
  }
}

/**
 * Checks that `start` on `resourceId` is a slot open now, against that resource's bookings and time
 * off around that day alone: SLOT_TAKEN when it is a slot but booked (taken since it was offered),
 * 400 when it never was one (not from find_times, or in the past). `minNoticeMin`: the notice a
 * business booking for its client asks (the slot engine's default otherwise).
 */
export async function checkSlot(
  ctx: OperationContext,
  priced: PricedRequest,
  start: Date,
  resourceId: string,
  except: string[] = [],
  minNoticeMin?: number,
): Promise<void> {
  const at = start.getTime();
  // Two days either side: the whole local day, whatever the zone and its DST, and any travel buffer.
  const sched = await scheduleOf(ctx, priced, at - 2 * DAY_MS, at + 2 * DAY_MS, except, resourceId);
  const group = groupOf(priced);
  let status: ReturnType<typeof slotStatus>['status'];
  try {
    status = slotStatus({
      ...sched,
      timeZone: priced.offer.business.timezone,
      now: ctx.deps.clock.now().toISOString(),
      durationMin: priced.quote.durationMin,
      ...(group ? { group } : {}),
      ...(minNoticeMin !== undefined ? { minNoticeMin } : {}),
      start,
      resourceId,
    }).status;
  } catch (err) {
    return engineError(err);
  }
  if (status === 'OPEN') return;
  if (status === 'TAKEN') {
    throw new ServiceError(
      'SLOT_TAKEN',
      'That time was just taken. Call find_times again and offer the person another time.',
      { start: start.toISOString(), resourceId },
    );
  }
  throw new ServiceError(
    'BAD_REQUEST',
    'That is not an open time. Pass a slot from find_times unchanged (start and resourceId).',
    { fields: [{ field: 'start', message: 'Not an open slot for this request.' }] },
  );
}

/** The first open slot at exactly `start` on some resource, `preferred` first (the engine's order otherwise). */
export async function freeResourceAt(
  ctx: OperationContext,
  priced: PricedRequest,
  start: Date,
  preferred: string,
  except: string[] = [],
): Promise<string | undefined> {
  const date = localDate(start, priced.offer.business.timezone);
  const days = await openDays(ctx, priced, date, date, except);
  const at = days.flatMap((d) => d.slots).filter((s) => Date.parse(s.start) === start.getTime());
  return (at.find((s) => s.resourceId === preferred) ?? at[0])?.resourceId;
}

/**
 * What planning sitting needs for `days` local dates from `startDate`: the sitters, their bookings
 * (other than `except`) and their time off, from the day before to the day after.
 */
export async function sittingContext(
  ctx: OperationContext,
  priced: PricedRequest,
  startDate: string,
  days: number,
  except: string[] = [],
) {
  const start = Date.parse(`${startDate}T00:00:00Z`);
  const sched = await scheduleOf(ctx, priced, start - DAY_MS, start + (days + 1) * DAY_MS, except);
  return { timeZone: priced.offer.business.timezone, now: ctx.deps.clock.now().toISOString(), ...sched };
}

export type SittingContext = Awaited<ReturnType<typeof sittingContext>>;

/** The local dates a stay (its nights and the last morning) or visits cover. */
export function sittingDays(request: { stay?: Stay | undefined; visits?: Visits | undefined }): number {
  return request.stay ? request.stay.nights + 1 : request.visits!.days;
}

/** A stay or visits planned by the slot engine on `context`, on some of its sitters or all (a bad stay or visits: 400). */
export function planSitting(
  context: SittingContext,
  priced: PricedRequest,
  request: { stay?: Stay | undefined; visits?: Visits | undefined },
  sitterIds?: string[],
): SittingPlan {
  const resources = sitterIds ? context.resources.filter((r) => sitterIds.includes(r.id)) : context.resources;
  try {
    return request.stay
      ? planStay({ ...context, resources, stay: request.stay })
      : planVisits({ ...context, resources, durationMin: priced.quote.durationMin, visits: request.visits! });
  } catch (err) {
    return engineError(err);
  }
}

/** Plans a stay or visits on the schedule of the dates it covers, bookings other than `except` counted: what find_times offers, book places and a moved stay takes. */
export async function planSittingFor(
  ctx: OperationContext,
  priced: PricedRequest,
  request: { stay?: Stay | undefined; visits?: Visits | undefined },
  except: string[] = [],
): Promise<SittingPlan> {
  const startDate = (request.stay ?? request.visits)!.startDate;
  return planSitting(
    await sittingContext(ctx, priced, startDate, sittingDays(request), except),
    priced,
    request,
  );
}

/** The end of a booking of the request's duration starting at `start`. */
export function endOf(priced: PricedRequest, start: Date): Date {
  return new Date(start.getTime() + priced.quote.durationMin * MINUTE);
}

/** A next stay or visits that can be booked, offered when the one asked for cannot be: its first slot and the request to send. */
export interface SittingAlternative {
  date: string;
  start: string;
  time: string;
  resourceId: string;
  stay?: Stay;
  visits?: Visits;
}

/**
 * Why a stay or visits cannot be booked as planned and the next ones like it that can (slot-engine
 * decides both: `PAST` when it starts inside the notice, `FULLY_BOOKED` only when sitters are
 * booked), with the words to pass on. Reads the sitters' schedule of the 14 days after its start.
 */
export async function sittingUnavailable(
  ctx: OperationContext,
  priced: PricedRequest,
  request: { stay?: Stay | undefined; visits?: Visits | undefined },
  plan: SittingPlan,
  except: string[] = [],
): Promise<{ reason: EmptyReason; message: string; alternatives: SittingAlternative[] }> {
  const reason = sittingReason(plan);
  const asked = (request.stay ?? request.visits)!;
  const context = await sittingContext(
    ctx,
    priced,
    asked.startDate,
    sittingDays(request) + LOOKAHEAD_DAYS,
    except,
  );
  let next: ReturnType<typeof nextSittings>;
  try {
    next = request.stay
      ? nextSittings({ ...context, stay: request.stay }, 3)
      : nextSittings({ ...context, durationMin: priced.quote.durationMin, visits: request.visits! }, 3);
  } catch (err) {
    return engineError(err);
  }
  const alternatives = next.map(({ startDate, plan: p }): SittingAlternative => {
    const first = p.plan[0]!;
    return {
      date: startDate,
      start: first.start,
      time: first.time,
      resourceId: first.resourceId,
      ...(request.stay
        ? { stay: { ...request.stay, startDate } }
        : { visits: { ...request.visits!, startDate } }),
    };
  });
  const what = request.stay
    ? `A stay of ${request.stay.nights} night${request.stay.nights === 1 ? '' : 's'} from ${asked.startDate}`
    : `Visits from ${asked.startDate}`;
  // The dates that say the reason: the booked ones when sitters are booked, else every date not planned.
  const said = plan.unplanned.filter((u) => reason !== 'FULLY_BOOKED' || u.reason === 'FULLY_BOOKED');
  const dates = [...new Set(said.map((u) => u.date))];
  let message =
    reason === 'PAST'
      ? `${what} starts too soon to book (a sitter needs notice).`
      : `${what} cannot be booked: ${priced.line.label} is ${WHY_CLOSED[reason]} on ${dates.slice(0, 4).join(', ')}${dates.length > 4 ? ' and more' : ''}.`;
  if (alternatives[0])
    message += ` The next that can be booked starts ${alternatives[0].date} at ${alternatives[0].time}.`;
  return { reason, message, alternatives };
}
