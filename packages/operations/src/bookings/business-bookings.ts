/** listBusinessBookings / list_business_bookings: a business's bookings by date range. */
import { listBusinessBookings as listRows, listResources } from '@nogpets/store';
import { z } from 'zod';
import {
  addDays,
  DAY_MS,
  defineOperation,
  keysetCursor,
  localDate,
  localDaysWindow,
  READ_ONLY,
  ServiceError,
} from '../core/index.js';
import { BookingStatusSchema } from './booking-model.js';
import { checkDateBounds, DATE } from '../schedule/index.js';
import { inBusiness, RUN_ACCESS_ERRORS, RunBusinessIdShape } from '../staff/index.js';
import { JobSchema, resourceRefused, toJobs } from './jobs.js';

/** The instants a business's booking list covers: its local dates `from` to `to`, as slot-engine counts them. */
export const bookingListWindow = (from: string, to: string, timeZone: string) =>
  localDaysWindow(from, to, timeZone);

/** The longest range one list covers: about a quarter. */
export const MAX_LIST_DAYS = 92;

/** A page's position: the (start, id) of its last booking. */
const cursor = keysetCursor('k', { start: 'instant', id: 'id' });

export const listBusinessBookings = defineOperation({
  operationId: 'listBusinessBookings',
  toolName: 'list_business_bookings',
  title: "List the business's bookings",
  tag: 'Run',
  mcp: 'business',
  method: 'GET',
  path: '/v1/business/bookings',
  inputIn: 'query',
  auth: { scope: 'business:manage' },
  description:
    "The bookings of the person's business starting in a range of local dates (`from`, `to` inclusive, in the " +
    'business’s zone; default today and the next 6 days; at most 92 days), oldest first, filtered by `status`, ' +
    '`resourceId` or `clientId`; each with the client, pets, services, address, money and status. `limit` 1 to 50 ' +
    '(default 20); when `next` is not null, send it back as `cursor` (with the same filters) for the next page. ' +
    'Owners and managers only: crew use get_day_plan.',
  input: z
    .object({
      ...RunBusinessIdShape,
      from: DATE.optional().meta({ description: 'First local date, YYYY-MM-DD; default today.' }),
      to: DATE.optional().meta({ description: 'Last local date (inclusive); default `from` plus 6 days.' }),
      status: BookingStatusSchema.optional(),
      resourceId: z.string().min(1).max(128).optional(),
      clientId: z.string().min(1).max(128).optional(),
      limit: z.int().min(1).max(50).default(20),
      cursor: z.string().min(1).max(400).optional().meta({ description: 'The `next` of the previous page.' }),
    })
    .strict(),
  output: z
    .object({
      businessId: z.string(),
      from: z.string(),
      to: z.string(),
      bookings: z.array(JobSchema),
      next: z
        .string()
        .nullable()
        .meta({ description: 'Send as `cursor` for the next page; null on the last.' }),
    })
    .meta({ id: 'BusinessBookingList', description: "A page of the business's bookings, oldest first." }),
  successStatus: 200,
  errors: RUN_ACCESS_ERRORS,
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const after = cursor.after(input.cursor);
    return inBusiness(ctx, input.businessId, 'read', async ({ q, access }) => {
      const biz = access.business;
      const tz = biz.timezone;
      checkDateBounds('records', localDate(ctx.deps.clock.now(), tz), tz, { from: input.from, to: input.to });
      const from = input.from ?? localDate(ctx.deps.clock.now(), tz);
      const to = input.to ?? addDays(from, 6);
      const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
      if (days < 1 || days > MAX_LIST_DAYS)
        throw new ServiceError(
          'BAD_REQUEST',
          days < 1
            ? `to (${to}) is before from (${from}).`
            : `From ${from} to ${to} is ${days} days; at most ${MAX_LIST_DAYS} at once.`,
          { fields: [{ field: 'to', message: `from 0 to ${MAX_LIST_DAYS - 1} days after from` }] },
        );
      if (input.resourceId && !(await listResources(q, biz.id)).some((r) => r.id === input.resourceId))
        throw resourceRefused(input.resourceId, access.role, biz.name);
      const rows = await listRows(q, biz.id, {
        ...bookingListWindow(from, to, tz),
        status: input.status,
        resourceId: input.resourceId,
        clientId: input.clientId,
        after,
        limit: input.limit + 1,
      });
      const page = rows.slice(0, input.limit);
      const last = page.at(-1);
      return {
        businessId: biz.id,
        from,
        to,
        bookings: await toJobs(q, biz.id, biz, page),
        next: rows.length > input.limit && last ? cursor.of({ start: last.start, id: last.id }) : null,
      };
    });
  },
});
