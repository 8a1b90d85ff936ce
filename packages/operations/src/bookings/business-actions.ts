/**
 * The business acts on a booking: accept, decline, move, cancel. Each is the booking
 * core's own rule (booking-rules' transitions, the slot checks and locks of reschedule_booking, the
 * refund rules and pay-link voiding of cancel_booking), asked by an owner or a manager, confirmed,
 * audited with the assistant's name, and told to the client in the record the client sees
 * (booking_messages: get_booking, list_bookings and the account page show it).
 */
import { isActive } from '@nogpets/booking-rules';
import { formatMoney } from '@nogpets/pricing-tiers';
import {
  type BookingMessageKind,
  type BookingRow,
  type BusinessRow,
  findBooking,
  findJobs,
  findUserById,
  insertBookingMessages,
  listResources,
  type Queryable,
} from '@nogpets/store';
import { z } from 'zod';
import {
  auditChange,
  confirmStep,
  defineOperation,
  momentText,
  type OperationContext,
  ServiceError,
  whenText,
} from '../core/index.js';
import { recordBookingEvents, recordCancellations } from './events.js';
import { cancelWithRefunds, movedFrom, moveTarget, slotTakenOnConflict, writeMove } from './manage.js';
import { applyTransition } from './operator.js';
import { bookingMoney, bookingParts, cancelMoney } from './confirm-parts.js';
import { sourceOf } from '../events/index.js';
import { bookableOffer } from '../places/index.js';
import { inBusiness, RUN_ACCESS_ERRORS, type RunAccess, RunBusinessIdShape } from '../staff/index.js';
import { type Job, JobSchema, toJobs } from './jobs.js';

const CHANGES = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

const BookingIdShape = {
  bookingId: z.string().min(1).max(128).meta({
    description: 'From list_business_bookings or get_day_plan.',
    example: 'bkg_ftp8sjc07qhmzr6hv5kv',
  }),
};

const ConfirmShape = {
  // Left out or false: 409 CONFIRM_REQUIRED with the summary, as cancel_booking.
  confirm: z.boolean().optional().meta({
    description: 'true only after the person agreed to the summary; left out or false: 409 CONFIRM_REQUIRED.',
  }),
};

const ReasonSchema = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .meta({ description: 'Why, in words the client reads (1 to 300 characters).' });

const ResultSchema = z
  .object({
    booking: JobSchema.meta({ description: 'The booking as it now is.' }),
    message: z.string().meta({ description: 'What was done, in words to tell the person.' }),
    toldClient: z
      .string()
      .nullable()
      .meta({
        description:
          'What the client now reads on their booking (get_booking, list_bookings, the account page); null when ' +
          'nothing changed.',
      }),
    cancelled: z.array(z.string()).optional().meta({
      description: 'Decline and cancel: the bookings cancelled (with `series`, the later weeks too).',
    }),
    refundRequested: z.array(z.string()).optional().meta({
      description: 'Paid bookings among them: the operator refunds the card in 5 to 7 working days.',
    }),
  })
  .meta({
    id: 'RunBookingResult',
    description: 'A booking after the business acted on it, what was done, and what the client was told.',
  });

type Result = z.infer<typeof ResultSchema>;

const notFound = {
  status: 404,
  description: 'No business of that id of the person’s, or no such booking at it.',
};

/** The booking of the business asked for, locked; another business's booking is missing (the same words). */
async function businessBooking(q: Queryable, access: RunAccess, bookingId: string): Promise<BookingRow> {
  const row = await findBooking(q, bookingId, { forUpdate: true });
  if (!row || row.businessId !== access.business.id)
    throw new ServiceError('NOT_FOUND', `No booking ${bookingId} at ${access.business.name}.`, { bookingId });
  return row;
}

/** 409 CONFIRM_REQUIRED carrying what would happen to the booking, unless the person agreed. */
function needConfirm(
  ctx: OperationContext,
  confirm: boolean | undefined,
  row: BookingRow,
  business: BusinessRow,
  change: { what: string; after?: string; at?: Pick<BookingRow, 'start' | 'end'> },
): void {
  const parts = bookingParts([row], business);
  confirmStep(
    ctx,
    confirm,
    {
      kind: 'booking',
      what: change.what,
      ...parts,
      when: change.at ? { ...parts.when, start: change.at.start, end: change.at.end } : parts.when,
      money: bookingMoney([row]),
      ...(change.after ? { after: change.after } : {}),
    },
    {
      message:
        'This changes a booking: show the person the summary and, once they agree, send the same request with confirm: true.',
      details: { bookingId: row.id },
    },
  );
}

/** Who acted, as the client's record names them: the person's name at the business. */
async function actor(ctx: OperationContext, q: Queryable, business: BusinessRow) {
  const user = await findUserById(q, ctx.auth!.userId);
  const name = user?.name || user?.email.split('@')[0] || 'staff';
  return { byUserId: ctx.auth!.userId, byName: `${name} (${business.name})` };
}

/** Records what the client of each booking is told, in the change's transaction. */
async function tellClient(
  ctx: OperationContext,
  q: Queryable,
  business: BusinessRow,
  bookingIds: string[],
  kind: BookingMessageKind,
  text: string,
  reason: string | null,
): Promise<void> {
  const by = await actor(ctx, q, business);
  await insertBookingMessages(
    q,
    bookingIds.map((bookingId) => ({ bookingId, businessId: business.id, kind, text, reason, ...by })),
    ctx.deps.clock.now(),
  );
}

/** The booking as Run shows it. */
async function jobOf(q: Queryable, business: BusinessRow, bookingId: string): Promise<Job> {
  const [job] = await toJobs(q, business.id, business, await findJobs(q, business.id, [bookingId]));
  return job!;
}

const when = (row: Pick<BookingRow, 'start' | 'end'>, business: BusinessRow) =>
  whenText(row.start, row.end, business.timezone);

/** The client's name for a summary: the business's client, else who made it. */
async function clientOf(q: Queryable, business: BusinessRow, row: BookingRow): Promise<string> {
  const [job] = await findJobs(q, business.id, [row.id]);
  return job?.clientName || row.clientName || 'the client';
}

/**
 * An unpaid card booking still lapses when its hold runs out, accepted or moved by the business or
 * not (booking-rules' HOLD_EXPIRED): the client reads that it is still to be paid, and by when.
 */
function stillToPay(
  row: Pick<BookingRow, 'paymentMethod' | 'paymentStatus' | 'holdUntil'>,
  business: BusinessRow,
): string {
  if (row.paymentMethod !== 'CARD' || row.paymentStatus !== 'PENDING') return '';
  const by = row.holdUntil ? ` by ${momentText(row.holdUntil, business.timezone)}` : '';
  return ` It is still to be paid by card${by}, or the time is released.`;
}

/** What happens to the money of a cancelled booking, in the client's words. */
function moneyWords(row: BookingRow, business: BusinessRow): string {
  const amount = formatMoney(row.totalCents, business.currency);
  if (row.paymentStatus === 'PAID')
    return ` Your payment of ${amount} is refunded to your card in 5 to 7 working days.`;
  if (row.paymentStatus === 'PENDING' || row.paymentStatus === 'CASH_DUE') return ' Nothing is owed.';
  return '';
}

export const acceptBusinessBooking = defineOperation({
  operationId: 'acceptBooking',
  confirmKind: 'booking',
  toolName: 'accept_booking',
  title: 'Accept a booking',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/bookings/:bookingId/accept',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Accepts a booking waiting for the business (PENDING: a new booking, or a time the client moved it to): it becomes ' +
    'ACCEPTED and the client reads that it is confirmed. An unpaid card booking stays unpaid (its time is held until ' +
    'its link expires: send_payment_link sends a new one). First tell the person what will be accepted; send ' +
    '`confirm: true` only after they agree (otherwise 409 CONFIRM_REQUIRED with `details.summary`). An accepted one ' +
    'answers that it already is; cancelled, lapsed or done ones 409 NOT_ACTIVE. Owners and managers only.',
  input: z
    .object({ ...RunBusinessIdShape, ...BookingIdShape, ...ConfirmShape })
    .strict()
    .meta({ example: { bookingId: 'bkg_ftp8sjc07qhmzr6hv5kv', confirm: true } }),
  output: ResultSchema,
  successStatus: 200,
  errors: [
    ...RUN_ACCESS_ERRORS.filter((e) => e.status !== 404),
    notFound,
    { status: 409, description: '`CONFIRM_REQUIRED` (show `details.summary`) or `NOT_ACTIVE`.' },
  ],
  events: ['booking.accepted'],
  annotations: CHANGES,
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    return inBusiness(ctx, input.businessId, 'change', async ({ q, access }): Promise<Result> => {
      const biz = access.business;
      const row = await businessBooking(q, access, input.bookingId);
      if (row.status === 'ACCEPTED')
        return {
          booking: await jobOf(q, biz, row.id),
          message: `The booking of ${when(row, biz)} was already confirmed; nothing changed.`,
          toldClient: null,
        };
      if (row.status === 'PENDING') {
        const unpaid = row.paymentMethod === 'CARD' && row.paymentStatus === 'PENDING';
        needConfirm(ctx, input.confirm, row, biz, {
          what: `Accept ${await clientOf(q, biz, row)}'s booking`,
          after:
            'The client is told it is confirmed.' +
            (unpaid ? ' It is still unpaid by card: the time is held only until the pay link expires.' : ''),
        });
      }
      // The CLI's rule (booking-rules' ACCEPT): a closed booking is refused here, nothing changed.
      const accepted = await applyTransition(q, row, { type: 'ACCEPT' }, now);
      await auditChange(ctx, q, 'business.booking.accept', row.id, {
        businessId: biz.id,
        from: row.status,
        to: accepted.status,
      });
      const toldClient = `${biz.name} confirmed your booking of ${when(row, biz)}.${stillToPay(accepted, biz)}`;
      await tellClient(ctx, q, biz, [row.id], 'ACCEPTED', toldClient, null);
      await recordBookingEvents(q, sourceOf(ctx, 'staff'), 'booking.accepted', [row.id], { message: null });
      return {
        booking: await jobOf(q, biz, row.id),
        message: `Accepted the booking of ${when(row, biz)}; the client is told it is confirmed.`,
        toldClient,
      };
    });
  },
});

export const declineBooking = defineOperation({
  operationId: 'declineBooking',
  confirmKind: 'booking',
  toolName: 'decline_booking',
  title: 'Decline a booking',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/bookings/:bookingId/decline',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Declines a booking waiting for the business (PENDING: a new booking or a time the client moved it to), with a ' +
    '`reason` the client reads. The booking is cancelled by the refund rules: a paid one becomes REFUND_REQUESTED ' +
    '(the operator refunds the card in 5 to 7 working days), unpaid card and cash ones owe nothing, and a pay link ' +
    'sent for it stops working. First tell the person what will happen; send `confirm: true` only after they agree ' +
    '(otherwise 409 CONFIRM_REQUIRED with `details.summary`). A confirmed (ACCEPTED) booking is cancelled with ' +
    'cancel_business_booking instead (409 NOT_ACTIVE here). Owners and managers only.',
  input: z
    .object({ ...RunBusinessIdShape, ...BookingIdShape, reason: ReasonSchema, ...ConfirmShape })
    .strict()
    .meta({
      example: {
        bookingId: 'bkg_ftp8sjc07qhmzr6hv5kv',
        reason: 'Both vans are in for service that day.',
        confirm: true,
      },
    }),
  output: ResultSchema,
  successStatus: 200,
  errors: [
    ...RUN_ACCESS_ERRORS.filter((e) => e.status !== 404),
    notFound,
    {
      status: 409,
      description:
        '`CONFIRM_REQUIRED` (show `details.summary`), `NOT_ACTIVE` (not waiting for the business) or `TOO_LATE` (it has started).',
    },
  ],
  events: ['booking.declined', 'booking.refund_due'],
  annotations: CHANGES,
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'change', async ({ q, access }): Promise<Result> => {
      const biz = access.business;
      const row = await businessBooking(q, access, input.bookingId);
      if (row.status === 'ACCEPTED')
        throw new ServiceError(
          'NOT_ACTIVE',
          `The booking of ${when(row, biz)} is already confirmed, so it cannot be declined: cancel it with cancel_business_booking (the client is told).`,
          { bookingId: row.id, status: row.status },
        );
      const client = await clientOf(q, biz, row);
      const { cancelled, refundRequested } = await cancelWithRefunds(ctx, q, row, {
        series: false,
        confirm: input.confirm === true,
        action: 'business.booking.decline',
        details: { businessId: biz.id, reason: input.reason },
        summary: () => {
          const parts = bookingParts([row], biz);
          return {
            kind: 'booking',
            what: `Decline ${client}'s booking`,
            ...parts,
            money: cancelMoney([row], parts.amount.currency),
            after: `They are told: “${input.reason}”.`,
          };
        },
      });
      const toldClient = `${biz.name} declined your booking of ${when(row, biz)}: “${input.reason}”.${moneyWords(row, biz)}`;
      await tellClient(ctx, q, biz, cancelled, 'DECLINED', toldClient, input.reason);
      await recordCancellations(q, sourceOf(ctx, 'staff'), cancelled, {
        type: 'booking.declined',
        by: 'business',
        message: input.reason,
      });
      return {
        booking: await jobOf(q, biz, row.id),
        message: `Declined the booking of ${when(row, biz)}; the client is told why.${refundRequested.length ? ' The payment is refunded to the card in 5 to 7 working days.' : ''}`,
        toldClient,
        cancelled,
        refundRequested,
      };
    });
  },
});

export const moveBooking = defineOperation({
  operationId: 'moveBooking',
  confirmKind: 'booking',
  toolName: 'move_booking',
  title: 'Move a booking',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/bookings/:bookingId/move',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    "The business moves a booking to a new `start` on its own resources (`resourceId`, else the booking's own when " +
    'free then, else any free one): the slot must be open and free as for any booking (find_business_times gives ' +
    'them); a stay moves whole. No 12-hour cut-off for the business: it may move a booking until it starts. The ' +
    'booking is ACCEPTED at its new time (the business chose it); price and payment are unchanged, and the client ' +
    'reads where it moved (with `reason` when given). First tell the person what will happen; send `confirm: true` ' +
    'only after they agree (otherwise 409 CONFIRM_REQUIRED with `details.summary`). A business outside South Africa ' +
    'answers 409 NOT_AVAILABLE_IN_COUNTRY. Owners and managers only.',
  input: z
    .object({
      ...RunBusinessIdShape,
      ...BookingIdShape,
      start: z.iso
        .datetime({ offset: true })
        .meta({ description: 'The new start: a slot from find_business_times, unchanged.' }),
      resourceId: z.string().min(1).max(128).optional().meta({
        description:
          "The slot's resourceId. Left out: the booking's own resource if free then, else any free one.",
      }),
      reason: ReasonSchema.optional(),
      ignoreNotice: z
        .boolean()
        .optional()
        .meta({
          description:
            'true: waive the two hours of notice before the new start (as find_business_times with ignoreNotice); ' +
            'the time is still from now on, in working hours and clear of other jobs.',
        }),
      ...ConfirmShape,
    })
    .strict()
    .meta({
      example: {
        bookingId: 'bkg_ftp8sjc07qhmzr6hv5kv',
        start: '2026-03-12T08:30:00+02:00',
        reason: 'The van is in for service in the morning.',
        confirm: true,
      },
    }),
  output: ResultSchema,
  successStatus: 200,
  errors: [
    { status: 400, description: 'Invalid input, or not an open time for this booking.' },
    ...RUN_ACCESS_ERRORS.filter((e) => e.status !== 404 && e.status !== 400),
    notFound,
    {
      status: 409,
      description:
        '`CONFIRM_REQUIRED` (show `details.summary`), `SLOT_TAKEN`, `NO_AVAILABILITY` (no sitter free for every ' +
        'night of a moved stay), `NOT_ACTIVE`, `TOO_LATE` (it has started) or `NOT_AVAILABLE_IN_COUNTRY`.',
    },
  ],
  events: ['booking.moved'],
  annotations: CHANGES,
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    const start = new Date(input.start);
    // Who asks and whether the booking can move, then the slot (read like reschedule_booking's,
    // outside the writing transaction), then the move under the booking's and the resource's locks.
    const before = await inBusiness(ctx, input.businessId, 'change', async ({ q, access }) => {
      const row = await businessBooking(q, access, input.bookingId);
      await bookableOffer(ctx.deps, access.business.id);
      movable(row, access.business, now);
      return row;
    });
    const target = await moveTarget(ctx, before, start, input.resourceId, input.ignoreNotice ? 0 : undefined);
    return inBusiness(ctx, input.businessId, 'change', async ({ q, access }): Promise<Result> => {
      const biz = access.business;
      const row = await businessBooking(q, access, input.bookingId);
      movable(row, biz, now);
      const from = when(row, biz);
      const to = when(target, biz);
      // The resource by the name the business gave it ("Van 2"), not its id.
      const resourceNote =
        target.resourceId !== row.resourceId
          ? ` on ${(await listResources(q, biz.id)).find((r) => r.id === target.resourceId)?.name ?? target.resourceId}`
          : '';
      needConfirm(ctx, input.confirm, row, biz, {
        what: `Move ${await clientOf(q, biz, row)}'s booking (now ${from}) to the new time${resourceNote}`,
        at: target,
        after: `It is confirmed at the new time and the client is told${input.reason ? `: “${input.reason}”` : ''}.`,
      });
      const moved = await writeMove(q, row, target, 'ACCEPTED', now, 'find_business_times');
      await auditChange(ctx, q, 'business.booking.move', row.id, {
        businessId: biz.id,
        from: row.start.toISOString(),
        to: start.toISOString(),
        resourceId: target.resourceId,
        ...(input.reason ? { reason: input.reason } : {}),
      });
      const toldClient = `${biz.name} moved your booking from ${from} to ${to}${input.reason ? `: “${input.reason}”` : ''}. It is confirmed at the new time.${stillToPay(moved, biz)}`;
      await tellClient(ctx, q, biz, [row.id], 'MOVED', toldClient, input.reason ?? null);
      // A "move" to where it already is tells nobody anything new.
      if (start.getTime() !== row.start.getTime() || target.resourceId !== row.resourceId)
        await recordBookingEvents(q, sourceOf(ctx, 'staff'), 'booking.moved', [row.id], {
          from: movedFrom(row),
          by: 'business',
          message: input.reason ?? null,
        });
      return {
        booking: await jobOf(q, biz, row.id),
        message: `Moved the booking to ${to}${resourceNote}; it is confirmed and the client is told.`,
        toldClient,
      };
    }).catch(slotTakenOnConflict(input.start, 'find_business_times'));
  },
});

/**
 * Whether the business may move this booking: it is active (booking-rules) and has not started.
 * The person's 12-hour cut-off is theirs: the business moves until the start.
 */
function movable(row: BookingRow, business: BusinessRow, now: Date): void {
  if (!isActive({ ...row }))
    throw new ServiceError(
      'NOT_ACTIVE',
      `This booking is ${row.status.toLowerCase()}, so it can no longer be moved.`,
      { bookingId: row.id, status: row.status },
    );
  if (now.getTime() >= row.start.getTime())
    throw new ServiceError(
      'TOO_LATE',
      `The booking of ${when(row, business)} has already started, so it can no longer be moved.`,
      { bookingId: row.id },
    );
}

export const cancelBusinessBooking = defineOperation({
  operationId: 'cancelBusinessBooking',
  confirmKind: 'booking',
  toolName: 'cancel_business_booking',
  title: 'Cancel a booking of the business',
  tag: 'Run',
  mcp: 'business',
  method: 'POST',
  path: '/v1/business/bookings/:bookingId/cancel',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'The business cancels a booking before it starts, with a `reason` the client reads. The refund rules of ' +
    'cancel_booking: a paid booking becomes REFUND_REQUESTED (the operator refunds the card in 5 to 7 working ' +
    'days), unpaid card and cash ones owe nothing, and a pay link sent for it stops working. `series: true` also ' +
    'cancels the later weeks of a weekly repeat (and the repeat). First tell the person what will be cancelled; send ' +
    '`confirm: true` only after they agree (otherwise 409 CONFIRM_REQUIRED with `details.summary`). Owners and ' +
    'managers only.',
  input: z
    .object({
      ...RunBusinessIdShape,
      ...BookingIdShape,
      reason: ReasonSchema,
      series: z.boolean().default(false).meta({ description: 'Also the later weeks of its weekly repeat.' }),
      ...ConfirmShape,
    })
    .strict()
    .meta({
      example: {
        bookingId: 'bkg_ftp8sjc07qhmzr6hv5kv',
        reason: 'Our groomer is ill.',
        series: false,
        confirm: true,
      },
    }),
  output: ResultSchema,
  successStatus: 200,
  errors: [
    ...RUN_ACCESS_ERRORS.filter((e) => e.status !== 404),
    notFound,
    {
      status: 409,
      description:
        '`CONFIRM_REQUIRED` (show `details.summary`), `TOO_LATE` (it has started) or `NOT_ACTIVE`.',
    },
  ],
  events: ['booking.cancelled', 'booking.refund_due'],
  annotations: CHANGES,
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'change', async ({ q, access }): Promise<Result> => {
      const biz = access.business;
      const row = await businessBooking(q, access, input.bookingId);
      const client = await clientOf(q, biz, row);
      const { rows, cancelled, refundRequested } = await cancelWithRefunds(ctx, q, row, {
        series: input.series,
        confirm: input.confirm === true,
        action: 'business.booking.cancel',
        details: { businessId: biz.id, reason: input.reason },
        summary: (rows) => {
          const parts = bookingParts(rows, biz);
          return {
            kind: 'booking',
            what: `Cancel ${client}'s ${rows.length === 1 ? 'booking' : `${rows.length} bookings`}`,
            ...parts,
            money: cancelMoney(rows, parts.amount.currency),
            after: `They are told: “${input.reason}”.`,
          };
        },
      });
      const byId = new Map(rows.map((b) => [b.id, b]));
      for (const id of cancelled) {
        const b = byId.get(id)!;
        await tellClient(
          ctx,
          q,
          biz,
          [id],
          'CANCELLED',
          `${biz.name} cancelled your booking of ${when(b, biz)}: “${input.reason}”.${moneyWords(b, biz)}`,
          input.reason,
        );
      }
      await recordCancellations(q, sourceOf(ctx, 'staff'), cancelled, {
        type: 'booking.cancelled',
        by: 'business',
        message: input.reason,
      });
      const n = cancelled.length;
      return {
        booking: await jobOf(q, biz, row.id),
        message: `Cancelled ${n === 1 ? 'the booking' : `${n} bookings`}; the client is told why.${refundRequested.length ? ' The payment is refunded to the card in 5 to 7 working days.' : ''}`,
        toldClient: `${biz.name} cancelled your booking of ${when(row, biz)}: “${input.reason}”.${moneyWords(row, biz)}`,
        cancelled,
        refundRequested,
      };
    });
  },
});
