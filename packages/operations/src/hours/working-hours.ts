/**
 * When the business works: setWorkingHours / set_working_hours, addTimeOff /
 * add_time_off, listTimeOff / list_time_off, removeTimeOff / remove_time_off. Owners and managers
 * change them; a change that leaves live bookings outside working time lists them and needs
 * `confirm: true`, and then flags them for the business to move (shown as `needsMove` on the day
 * plan and the bookings list), never drops them. Hours are the sign-up's week (its schema and
 * rules); local times become instants through the slot engine, as find_times reads them.
 */
import { DAY_KEYS, localInstant, workingIntervals } from '@nogpets/slot-engine';
import {
  clearHoursFlags,
  deleteTimeOff,
  findJobs,
  findTimeOff,
  flagBookingsToMove,
  insertTimeOff,
  type LiveBookingRow,
  listResources,
  listTimeOffEntries,
  liveBookingsAhead,
  lockResource,
  type Queryable,
  type ResourceRow,
  setResourceWeeks,
  type TimeOffEntry,
} from '@nogpets/store';
import { z } from 'zod';
import {
  auditChange,
  badRequest,
  type ConfirmParts,
  confirmStep,
  DAY_MS,
  defineOperation,
  localDate,
  localTime,
  type OperationContext,
  READ_ONLY,
  ServiceError,
  whenText,
} from '../core/index.js';
import {
  checkDateBounds,
  DATE,
  outsideHours,
  sameWeek,
  type Week,
  WeekSchema,
  weekWords,
} from '../schedule/index.js';
import { recordEvent, sourceOf } from '../events/index.js';
import { inBusiness, RUN_ACCESS_ERRORS, type RunAccess, RunBusinessIdShape } from '../staff/index.js';
import { JobSchema, resourceRefused, toJobs } from '../bookings/index.js';

const CHANGES = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
const HOUR_MS = 3_600_000;

/** The longest one time off may last. */
export const MAX_TIME_OFF_DAYS = 366;

const ConfirmShape = {
  confirm: z
    .boolean()
    .optional()
    .meta({
      description:
        'true only after the person agreed to the summary; left out or false: 409 CONFIRM_REQUIRED when bookings ' +
        'are affected.',
    }),
};

const ResourceIdSchema = z.string().min(1).max(128);

type Resource = ResourceRow & { active: boolean };

/** A booking a change would leave outside working time, as the confirm step lists it. */
const AffectedSchema = z.object({
  bookingId: z.string(),
  resourceId: z.string(),
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  when: z.string().meta({ description: 'Local date and times in words.' }),
  client: z.string().nullable(),
  reason: z.string().meta({ description: 'Why it would need moving.' }),
});
type Affected = z.infer<typeof AffectedSchema>;

const CONFIRM_ERROR = {
  status: 409,
  description:
    '`CONFIRM_REQUIRED`: live bookings would be left outside working time; `details.summary` says so in words and ' +
    '`details.bookings` lists them (bookingId, when, client, reason). Show them; on the person’s yes send the same ' +
    'request with `confirm: true`: they are flagged to move (needsMove), not cancelled.',
};

/** The person's resources by id: a resource of another business (or none) is missing. */
function resourceOf(access: RunAccess, resources: Resource[], id: string): Resource {
  const found = resources.find((r) => r.id === id);
  if (!found) throw resourceRefused(id, access.role, access.business.name);
  return found;
}

/** Queues on each resource's booking lock (in id order), so no booking lands while hours or time off change. */
async function lockAll(q: Queryable, businessId: string, ids: string[]): Promise<void> {
  for (const id of [...ids].sort()) await lockResource(q, businessId, id);
}

/** The affected bookings as the confirm step shows them, with their clients' names. */
async function describe(
  q: Queryable,
  access: RunAccess,
  found: { row: LiveBookingRow; reason: string }[],
): Promise<Affected[]> {
  const jobs = await findJobs(
    q,
    access.business.id,
    found.map((f) => f.row.id),
  );
  const byId = new Map(jobs.map((j) => [j.id, j]));
  const tz = access.business.timezone;
  return found.map(({ row, reason }) => {
    const job = byId.get(row.id);
    return {
      bookingId: row.id,
      resourceId: row.resourceId,
      start: row.start.toISOString(),
      end: row.end.toISOString(),
      when: whenText(row.start, row.end, tz),
      client: job?.clientName ?? job?.madeBy ?? null,
      reason,
    };
  });
}

/** 409 CONFIRM_REQUIRED listing the bookings, unless the person agreed. */
function needConfirm(
  ctx: OperationContext,
  confirm: boolean | undefined,
  change: ConfirmParts<'hours'> | ConfirmParts<'timeOff'>,
  affected: Affected[],
): void {
  if (affected.length === 0) return;
  const n = affected.length;
  const list = affected.map((a) => `${a.when}${a.client ? ` (${a.client})` : ''}`).join('; ');
  confirmStep(
    ctx,
    confirm,
    {
      ...change,
      after:
        `${n} booking${n === 1 ? ' falls' : 's fall'} outside working time and will be flagged for you ` +
        `to move (they stay booked and their clients are not told until you move or cancel them): ${list}.`,
    },
    {
      message:
        `${change.what} leaves ${n} booking${n === 1 ? '' : 's'} outside working time: show the person the summary and ` +
        'the bookings; once they agree, send the same request with confirm: true.',
      details: { bookings: affected },
    },
  );
}

const ResourceWeekSchema = z.object({
  resourceId: z.string(),
  name: z.string(),
  week: z.partialRecord(z.enum(DAY_KEYS), z.array(z.object({ start: z.string(), end: z.string() }))),
  hours: z.string().meta({ description: 'The week in words.' }),
});

const MoveResultShape = {
  toMove: z.array(JobSchema).meta({
    description: 'The bookings now outside working time, flagged (needsMove) for the business to move.',
  }),
  message: z.string().meta({ description: 'What was done, in words to tell the person.' }),
};

export const setWorkingHours = defineOperation({
  operationId: 'setWorkingHours',
  confirmKind: 'hours',
  toolName: 'set_working_hours',
  title: 'Set the working hours',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/hours',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Sets when the business works, as local times in its own time zone (summer time is taken care of): without ' +
    '`resourceIds` every van, walker and sitter gets this week; with them only those. Up to 6 ranges a day (a lunch ' +
    'break makes two), days off left out; it replaces the week it sets. find_times and find_business_times offer ' +
    'the new hours at once. When live bookings would fall outside the new hours the answer is 409 CONFIRM_REQUIRED ' +
    'listing them: show the person, and on their yes send the same request with `confirm: true`; those bookings stay ' +
    'booked and are flagged (needsMove) on get_day_plan and list_business_bookings for the business to move with ' +
    'move_booking or cancel. Without such bookings it applies at once. Owners and managers.',
  input: z
    .object({
      ...RunBusinessIdShape,
      week: WeekSchema,
      resourceIds: z
        .array(ResourceIdSchema)
        .min(1)
        .max(100)
        .refine((ids) => new Set(ids).size === ids.length, 'each resource once')
        .optional()
        .meta({ description: 'Only these resources (ids from get_day_plan); left out: every one.' }),
      ...ConfirmShape,
    })
    .strict()
    .meta({
      example: {
        week: {
          mon: [
            { start: '08:00', end: '13:00' },
            { start: '14:00', end: '17:00' },
          ],
        },
        resourceIds: ['bp-van-1'],
        confirm: true,
      },
    }),
  output: z
    .object({
      businessId: z.string(),
      timezone: z.string(),
      resources: z.array(ResourceWeekSchema).meta({ description: 'The resources whose week was set.' }),
      ...MoveResultShape,
    })
    .meta({ id: 'WorkingHoursResult', description: 'The weeks set and the bookings flagged to move.' }),
  successStatus: 200,
  errors: [
    ...RUN_ACCESS_ERRORS.map((e) =>
      e.status === 400
        ? {
            status: 400,
            description:
              'Invalid input: a time not HH:MM, a start not before its end, overlapping ranges, more than 6 a day, ' +
              'a week without working time; or no `businessId` from a person on the staff of several businesses.',
          }
        : e.status === 404
          ? { status: 404, description: 'No business of that id of the person’s, or no such resource at it.' }
          : e,
    ),
    CONFIRM_ERROR,
  ],
  events: ['hours.changed'],
  annotations: CHANGES,
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    const week = input.week as Week;
    const out = await inBusiness(ctx, input.businessId, 'change', async ({ q, access }) => {
      const biz = access.business;
      const all = await listResources(q, biz.id);
      const chosen = input.resourceIds ? input.resourceIds.map((id) => resourceOf(access, all, id)) : all;
      const ids = chosen.map((r) => r.id);
      await lockAll(q, biz.id, ids);
      const ahead = await liveBookingsAhead(q, biz.id, { after: now, resourceIds: ids });
      const names = new Map(chosen.map((r) => [r.id, r.name]));
      const stranded: { row: LiveBookingRow; reason: string }[] = [];
      for (const row of ahead) {
        const reason = outsideHours(row, week, biz.timezone, names.get(row.resourceId) ?? row.resourceId);
        if (reason) stranded.push({ row, reason });
      }
      const whose = input.resourceIds
        ? chosen.map((r) => r.name).join(', ')
        : `every resource of ${biz.name}`;
      const change = `Set the hours of ${whose} to ${weekWords(week)}`;
      needConfirm(
        ctx,
        input.confirm,
        { kind: 'hours', what: change, when: null, place: null, pets: null, amount: null, money: null },
        await describe(q, access, stranded),
      );
      await setResourceWeeks(q, biz.id, input.resourceIds ? ids : null, week);
      // Flags of these resources are read again against the new hours: a booking they now hold is not flagged.
      await clearHoursFlags(q, biz.id, ids);
      await flagBookingsToMove(
        q,
        biz.id,
        stranded.map(({ row, reason }) => ({
          bookingId: row.id,
          cause: 'hours',
          reason,
          resourceId: row.resourceId,
          start: row.start,
        })),
        now,
      );
      await auditChange(ctx, q, 'business.hours.set', biz.id, {
        resourceIds: ids,
        week: weekWords(week),
        toMove: stranded.map((s) => s.row.id),
      });
      // Hours set to what they were already change nothing anyone would be told about.
      const changed = chosen.filter((r) => !sameWeek(r.week as Week, week)).map((r) => r.id);
      if (changed.length)
        await recordEvent(q, sourceOf(ctx, 'staff'), {
          type: 'hours.changed',
          businessId: biz.id,
          personId: null,
          subjectId: biz.id,
          data: {
            resourceIds: changed,
            summary: `${change} (${biz.timezone} time).`,
            bookingsToMove: stranded.map((s) => s.row.id),
          },
        });
      const jobs = await toJobs(
        q,
        biz.id,
        biz,
        await findJobs(
          q,
          biz.id,
          stranded.map((s) => s.row.id),
        ),
      );
      const n = jobs.length;
      return {
        businessId: biz.id,
        timezone: biz.timezone,
        resources: chosen.map((r) => ({ resourceId: r.id, name: r.name, week, hours: weekWords(week) })),
        toMove: jobs,
        message:
          `${change} (${biz.timezone} time); new bookings are offered in these hours from now on.` +
          (n
            ? ` ${n} booking${n === 1 ? ' is' : 's are'} flagged to move: move_booking or cancel_business_booking.`
            : ''),
      };
    });
    // The booking tools read hours fresh; the cached offer is dropped all the same, so nothing shows the old week.
    ctx.deps.offers.invalidate();
    return out;
  },
});

/** A local date `YYYY-MM-DD` or date and time `YYYY-MM-DDTHH:MM` in the business's zone. */
const LocalMomentSchema = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}(T([01]\d|2[0-3]):[0-5]\d)?$/,
    'a local date YYYY-MM-DD or date and time YYYY-MM-DDTHH:MM (no offset: the business’s time zone)',
  );

/** Every minute of every day: `workingIntervals` of it is a whole local day as instants. */
const ALL_DAY = Object.fromEntries(DAY_KEYS.map((d) => [d, [{ start: '00:00', end: '24:00' }]])) as Week;

/**
 * The instant of a local moment. A date alone is its whole local day as the slot engine reads
 * one: `start` is the day's first instant (01:00 where the clocks skip midnight), `end` the next
 * day's first. A date and time the clocks skip is refused.
 */
function instantOf(field: 'start' | 'end', text: string, tz: string): Date {
  const [date, time] = text.split('T') as [string, string | undefined];
  const bad = (message: string) => badRequest([{ field, message }]);
  if (
    Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ||
    new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date
  )
    throw bad(`${date} is not a date`);
  if (time === undefined) {
    const [day] = workingIntervals(ALL_DAY, date, tz);
    return new Date(field === 'start' ? day!.start : day!.end);
  }
  const ms = localInstant(date, time, tz);
  if (ms === null)
    throw bad(`${text} does not exist in ${tz}: the clocks go forward then; give a later time`);
  return new Date(ms);
}

/** "2026-10-25 01:30" in the zone. */
const localStamp = (at: Date, tz: string) => `${localDate(at, tz)} ${localTime(at, tz)}`;

const TimeOffSchema = z
  .object({
    timeOffId: z.string(),
    resourceId: z.string().nullable().meta({ description: 'null: the whole business (every resource).' }),
    resourceName: z.string().meta({ description: 'The resource’s name, or “the whole business”.' }),
    start: z.iso.datetime(),
    end: z.iso.datetime(),
    startLocal: z.string().meta({ description: 'YYYY-MM-DD HH:MM in the business’s zone.' }),
    endLocal: z
      .string()
      .meta({ description: 'YYYY-MM-DD HH:MM in the business’s zone (the first minute back).' }),
    hours: z.number().meta({ description: 'How long it lasts, in real hours (a DST change counts).' }),
    when: z.string().meta({ description: 'In words.' }),
    reason: z.string(),
  })
  .meta({ id: 'TimeOff', description: 'A time the business or one of its resources does not work.' });
type TimeOffOut = z.infer<typeof TimeOffSchema>;

function timeOffOut(t: TimeOffEntry, tz: string, resources: Resource[]): TimeOffOut {
  return {
    timeOffId: t.id,
    resourceId: t.resourceId,
    resourceName: t.resourceId
      ? (resources.find((r) => r.id === t.resourceId)?.name ?? t.resourceId)
      : 'the whole business',
    start: t.start.toISOString(),
    end: t.end.toISOString(),
    startLocal: localStamp(t.start, tz),
    endLocal: localStamp(t.end, tz),
    hours: Math.round(((t.end.getTime() - t.start.getTime()) / HOUR_MS) * 100) / 100,
    when: whenText(t.start, t.end, tz),
    reason: t.reason,
  };
}

const TimeOffIdShape = {
  timeOffId: z
    .string()
    .min(1)
    .max(128)
    .meta({ description: 'From list_time_off or add_time_off.', example: 'tof_3k9vd0ab12cdefgh' }),
};

export const addTimeOff = defineOperation({
  operationId: 'addTimeOff',
  confirmKind: 'timeOff',
  toolName: 'add_time_off',
  title: 'Add time off',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/time-off',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Marks a time one van, walker or sitter (`resourceId`) or the whole business (left out: a public holiday, a ' +
    'closed week) does not work. `start` and `end` are local, in the business’s time zone: a date (`2026-12-25`: ' +
    '`start` from its midnight, `end` through the end of that day) or a date and time (`2026-12-24T13:00`; `end` is ' +
    'the first minute back). No booking is offered in it from now on. When live bookings fall in it the answer is ' +
    '409 CONFIRM_REQUIRED listing them: show the person, and on their yes send the same request with `confirm: ' +
    'true`; they stay booked and are flagged (needsMove) for the business to move or cancel. Without such bookings ' +
    'it applies at once. Owners and managers.',
  input: z
    .object({
      ...RunBusinessIdShape,
      resourceId: ResourceIdSchema.optional().meta({
        description: 'One resource; left out: the whole business.',
      }),
      start: LocalMomentSchema.meta({ example: '2026-12-24T13:00' }),
      end: LocalMomentSchema.meta({ example: '2026-12-26' }),
      reason: z
        .string()
        .trim()
        .max(200)
        .default('')
        .meta({ description: 'Why (shown to the staff on the day plan), up to 200 characters.' }),
      ...ConfirmShape,
    })
    .strict(),
  output: z
    .object({ timeOff: TimeOffSchema, ...MoveResultShape })
    .meta({ id: 'TimeOffAdded', description: 'The time off and the bookings flagged to move.' }),
  successStatus: 201,
  errors: [
    ...RUN_ACCESS_ERRORS.map((e) =>
      e.status === 400
        ? {
            status: 400,
            description:
              'Invalid input: not a local date or date and time, a time the clocks skip, `end` not after `start`, ' +
              `already over, longer than ${MAX_TIME_OFF_DAYS} days, or a date more than five years back or two years ahead.`,
          }
        : e.status === 404
          ? { status: 404, description: 'No business of that id of the person’s, or no such resource at it.' }
          : e,
    ),
    CONFIRM_ERROR,
  ],
  events: ['hours.changed'],
  annotations: CHANGES,
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    const out = await inBusiness(ctx, input.businessId, 'change', async ({ q, access }) => {
      const biz = access.business;
      const tz = biz.timezone;
      const all = await listResources(q, biz.id);
      const resource = input.resourceId ? resourceOf(access, all, input.resourceId) : null;
      checkDateBounds('records', localDate(now, tz), tz, {
        start: input.start.slice(0, 10),
        end: input.end.slice(0, 10),
      });
      const start = instantOf('start', input.start, tz);
      const end = instantOf('end', input.end, tz);
      if (end <= start)
        throw badRequest([{ field: 'end', message: `${input.end} is not after start (${input.start})` }]);
      if (end <= now) throw badRequest([{ field: 'end', message: `${input.end} is already over` }]);
      if (end.getTime() - start.getTime() > MAX_TIME_OFF_DAYS * DAY_MS)
        throw badRequest([{ field: 'end', message: `at most ${MAX_TIME_OFF_DAYS} days at once` }]);
      const ids = resource ? [resource.id] : all.map((r) => r.id);
      await lockAll(q, biz.id, ids);
      const inIt = await liveBookingsAhead(q, biz.id, {
        after: now,
        resourceIds: resource ? [resource.id] : null,
        from: start,
        to: end,
      });
      const whose = resource ? resource.name : biz.name;
      const when = whenText(start, end, tz);
      const reasonWords = input.reason ? `: ${input.reason}` : '';
      const affected = inIt.map((row) => ({
        row,
        reason: `${resource ? resource.name : 'The business'} is off ${when}${reasonWords}.`,
      }));
      needConfirm(
        ctx,
        input.confirm,
        {
          kind: 'timeOff',
          what: `Time off for ${whose}${reasonWords}`,
          when: { start, end, timeZone: tz },
          place: null,
          pets: null,
          amount: null,
          money: null,
        },
        await describe(q, access, affected),
      );
      const entry = await insertTimeOff(q, {
        businessId: biz.id,
        resourceId: resource?.id ?? null,
        start,
        end,
        reason: input.reason,
      });
      await flagBookingsToMove(
        q,
        biz.id,
        affected.map(({ row, reason }) => ({
          bookingId: row.id,
          cause: entry.id,
          reason,
          resourceId: row.resourceId,
          start: row.start,
        })),
        now,
      );
      await auditChange(ctx, q, 'business.time_off.add', entry.id, {
        businessId: biz.id,
        resourceId: entry.resourceId,
        start: entry.start.toISOString(),
        end: entry.end.toISOString(),
        reason: entry.reason,
        toMove: inIt.map((b) => b.id),
      });
      await recordEvent(q, sourceOf(ctx, 'staff'), {
        type: 'hours.changed',
        businessId: biz.id,
        personId: null,
        subjectId: biz.id,
        data: {
          resourceIds: ids,
          summary: `${whose} is off ${when}${reasonWords}.`,
          bookingsToMove: inIt.map((b) => b.id),
        },
      });
      const jobs = await toJobs(
        q,
        biz.id,
        biz,
        await findJobs(
          q,
          biz.id,
          inIt.map((b) => b.id),
        ),
      );
      const n = jobs.length;
      return {
        timeOff: timeOffOut(entry, tz, all),
        toMove: jobs,
        message:
          `${whose} is off ${when}; no booking is offered in it.` +
          (n
            ? ` ${n} booking${n === 1 ? ' is' : 's are'} flagged to move: move_booking or cancel_business_booking.`
            : ''),
      };
    });
    ctx.deps.offers.invalidate();
    return out;
  },
});

export const MAX_TIME_OFF_LISTED = 100;

export const listTimeOff = defineOperation({
  operationId: 'listTimeOff',
  toolName: 'list_time_off',
  title: 'List time off',
  tag: 'Run',
  mcp: 'business',
  method: 'GET',
  path: '/v1/business/time-off',
  inputIn: 'query',
  auth: { scope: 'business:manage' },
  description:
    'The business’s time off (its own and each resource’s) ending on or after `from` and starting on or before ' +
    '`to` (local dates; default from today, no end), oldest first, each with its local start and end, its length in ' +
    'hours and its reason; `resourceId`: that resource’s and the whole business’s. At most `limit` (1 to 100, ' +
    'default 50). Owners and managers: crew see their own time off on get_day_plan.',
  input: z
    .object({
      ...RunBusinessIdShape,
      from: DATE.optional().meta({ description: 'First local date, YYYY-MM-DD; default today.' }),
      to: DATE.optional().meta({ description: 'Last local date (inclusive); default none.' }),
      resourceId: ResourceIdSchema.optional(),
      limit: z.int().min(1).max(MAX_TIME_OFF_LISTED).default(50),
    })
    .strict(),
  output: z
    .object({
      businessId: z.string(),
      timezone: z.string(),
      timeOff: z.array(TimeOffSchema),
    })
    .meta({ id: 'TimeOffList', description: 'Time off of the business, oldest first.' }),
  successStatus: 200,
  errors: RUN_ACCESS_ERRORS,
  annotations: READ_ONLY,
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'read', async ({ q, access }) => {
      const biz = access.business;
      const tz = biz.timezone;
      const all = await listResources(q, biz.id);
      if (input.resourceId) resourceOf(access, all, input.resourceId);
      checkDateBounds('records', localDate(ctx.deps.clock.now(), tz), tz, { from: input.from, to: input.to });
      const from = input.from ?? localDate(ctx.deps.clock.now(), tz);
      if (input.to && input.to < from)
        throw badRequest([{ field: 'to', message: `${input.to} is before from (${from})` }]);
      const rows = await listTimeOffEntries(q, biz.id, {
        from: instantOf('start', from, tz),
        ...(input.to ? { to: instantOf('end', input.to, tz) } : {}),
        ...(input.resourceId ? { resourceId: input.resourceId } : {}),
        limit: input.limit,
      });
      return { businessId: biz.id, timezone: tz, timeOff: rows.map((t) => timeOffOut(t, tz, all)) };
    });
  },
});

export const removeTimeOff = defineOperation({
  operationId: 'removeTimeOff',
  confirmKind: 'timeOff',
  toolName: 'remove_time_off',
  title: 'Remove time off',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/time-off/:timeOffId/remove',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Removes a time off: its hours are offered for booking again at once, and bookings flagged only because of it ' +
    'no longer need moving. Clients may book the freed time straight away, so first tell the person what opens up; ' +
    'send `confirm: true` only after they agree (otherwise 409 CONFIRM_REQUIRED with `details.summary`). Owners and ' +
    'managers.',
  input: z
    .object({
      ...RunBusinessIdShape,
      ...TimeOffIdShape,
      confirm: z.boolean().optional().meta({
        description:
          'true only after the person agreed to the summary; left out or false: 409 CONFIRM_REQUIRED.',
      }),
    })
    .strict(),
  output: z
    .object({
      removed: TimeOffSchema,
      unflagged: z.array(z.string()).meta({
        description:
          'Bookings that were flagged to move because of this time off (they no longer are for it).',
      }),
      message: z.string(),
    })
    .meta({ id: 'TimeOffRemoved', description: 'The time off removed.' }),
  successStatus: 200,
  errors: [
    ...RUN_ACCESS_ERRORS.map((e) =>
      e.status === 404
        ? { status: 404, description: 'No business of that id of the person’s, or no such time off at it.' }
        : e,
    ),
    {
      status: 409,
      description: '`CONFIRM_REQUIRED`: show `details.summary`; send `confirm: true` once they agree.',
    },
  ],
  events: ['hours.changed'],
  annotations: CHANGES,
  async handler(ctx, input) {
    const out = await inBusiness(ctx, input.businessId, 'change', async ({ q, access }) => {
      const biz = access.business;
      const entry = await findTimeOff(q, biz.id, input.timeOffId, { forUpdate: true });
      if (!entry)
        throw new ServiceError('NOT_FOUND', `No time off ${input.timeOffId} at ${biz.name}.`, {
          timeOffId: input.timeOffId,
        });
      const all = await listResources(q, biz.id);
      const shown = timeOffOut(entry, biz.timezone, all);
      const what = `${shown.resourceName === 'the whole business' ? biz.name : shown.resourceName}'s time off ${shown.when}${entry.reason ? ` (${entry.reason})` : ''}`;
      confirmStep(
        ctx,
        input.confirm,
        {
          kind: 'timeOff',
          what: `Remove ${shown.resourceName === 'the whole business' ? biz.name : shown.resourceName}'s time off${entry.reason ? ` (${entry.reason})` : ''}`,
          when: { start: entry.start, end: entry.end, timeZone: biz.timezone },
          place: null,
          pets: null,
          amount: null,
          money: null,
          after: 'That time is offered for booking again at once.',
        },
        {
          message:
            'This opens time for booking: show the person the summary and, once they agree, send the same request with confirm: true.',
          details: { timeOffId: entry.id },
        },
      );
      const { unflagged } = await deleteTimeOff(q, biz.id, entry.id);
      await auditChange(ctx, q, 'business.time_off.remove', entry.id, {
        businessId: biz.id,
        resourceId: entry.resourceId,
        start: entry.start.toISOString(),
        end: entry.end.toISOString(),
        unflagged,
      });
      await recordEvent(q, sourceOf(ctx, 'staff'), {
        type: 'hours.changed',
        businessId: biz.id,
        personId: null,
        subjectId: biz.id,
        data: {
          resourceIds: entry.resourceId ? [entry.resourceId] : all.map((r) => r.id),
          summary: `Removed ${what}: that time is open for booking again.`,
          bookingsToMove: [],
        },
      });
      return {
        removed: shown,
        unflagged,
        message: `Removed ${what}; that time is offered for booking again.`,
      };
    });
    ctx.deps.offers.invalidate();
    return out;
  },
});
