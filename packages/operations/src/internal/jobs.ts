/**
 * The worker's timed rules as internal operations, each run by a `system` principal (the job).
 * Each wraps the function that does the work; the worker calls them through runOperation.
 */
import {
  purgeDonePaymentNotices,
  purgeEmailLinks as purgeEmailLinkRows,
  purgeExpiredDrafts,
  purgeIdempotencyKeys,
  purgeLinkMailRequests,
  purgeRateLimits,
  purgeUnsubscribeLinks,
  latestEventSeq,
} from '@nogpets/store';
import { completeBookings, expireHolds, extendSeries, remindBookings } from '../bookings/index.js';
import { defineInternalOperation, NO_INPUT, typed } from '../core/index.js';
import { deliverPendingMail } from '../identity/index.js';
import { recheckNotices, remindUnpaid } from '../money/index.js';
import { dispatchAllNotices } from '../notices/index.js';
import { expireOrders, releaseStrandedVisitOrders } from '../shop/index.js';
import { fanOutWebhookEvents, sendDueWebhooks } from '../webhooks/index.js';

const SYSTEM = { principal: ['system'] } as const;
const HOUR = 3600_000;
const ago = (now: Date, ms: number) => new Date(now.getTime() - ms);
/** How long the dispatch job may go on taking work (events, then mail): its expiry is 2 minutes. */
const JOB_CLAIMS_MS = 60_000;

export const purgeExpiredRateLimits = defineInternalOperation({
  operationId: 'purgeExpiredRateLimits',
  title: 'Purge expired rate-limit counters',
  description: 'Removes rate-limit counters an hour past their window.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ deleted: number }>(),
  events: [],
  async handler(ctx) {
    return { deleted: await purgeRateLimits(ctx.deps.sql, ago(ctx.deps.clock.now(), HOUR)) };
  },
});

export const expireUnpaidHolds = defineInternalOperation({
  operationId: 'expireUnpaidHolds',
  title: 'Expire unpaid holds',
  description: 'Unpaid card bookings whose hold lapsed free their time; answers their ids.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ expired: string[] }>(),
  events: ['booking.expired'],
  async handler(ctx) {
    return { expired: await expireHolds(ctx.deps) };
  },
});

export const expireUnpaidOrders = defineInternalOperation({
  operationId: 'expireUnpaidOrders',
  title: 'Expire unpaid orders',
  description:
    'Closes card orders unpaid 24 hours after they were made, and visit add-ons whose booking was cancelled or lapsed.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ expired: string[]; released: string[] }>(),
  events: ['order.cancelled'],
  async handler(ctx) {
    const expired = await expireOrders(ctx.deps);
    const released = await releaseStrandedVisitOrders(ctx.deps);
    return { expired, released };
  },
});

export const completeFinishedBookings = defineInternalOperation({
  operationId: 'completeFinishedBookings',
  title: 'Complete finished bookings',
  description: 'Bookings whose time is over become DONE; answers their ids.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ done: string[] }>(),
  events: [],
  async handler(ctx) {
    return { done: await completeBookings(ctx.deps) };
  },
});

export const remindBookingsDue = defineInternalOperation({
  operationId: 'remindBookingsDue',
  title: 'Remind bookings due tomorrow',
  description:
    'Confirmed bookings whose reminder is due (18:00 local the evening before) get a booking.reminder_due event, once per start; answers their ids.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ reminded: string[] }>(),
  events: ['booking.reminder_due'],
  async handler(ctx) {
    return { reminded: await remindBookings(ctx.deps) };
  },
});

export const remindUnpaidLinks = defineInternalOperation({
  operationId: 'remindUnpaidLinks',
  title: 'Tell people their pay links are about to lapse',
  description:
    'Unpaid card bookings and orders 6 hours before their deadline get booking.payment_due or order.payment_due, once per deadline; answers their ids.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ bookings: string[]; orders: string[] }>(),
  events: ['booking.payment_due', 'order.payment_due'],
  async handler(ctx) {
    return remindUnpaid(ctx.deps);
  },
});

export const keepSeriesBooked = defineInternalOperation({
  operationId: 'keepSeriesBooked',
  title: 'Keep series booked ahead',
  description: 'Books weekly series four weeks ahead; answers how many bookings it made.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ booked: number }>(),
  events: ['booking.created'],
  async handler(ctx) {
    return { booked: await extendSeries(ctx.deps) };
  },
});

export const purgeOldIdempotencyKeys = defineInternalOperation({
  operationId: 'purgeOldIdempotencyKeys',
  title: 'Purge old idempotency keys',
  description: 'Removes idempotency keys older than a day.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ deleted: number }>(),
  events: [],
  async handler(ctx) {
    return { deleted: await purgeIdempotencyKeys(ctx.deps.sql, ago(ctx.deps.clock.now(), 24 * HOUR)) };
  },
});

export const deliverMail = defineInternalOperation({
  operationId: 'deliverMail',
  title: 'Deliver pending mail',
  description:
    'Sends mail a request could not deliver at once (a sign-in link while it lives), and mail to people that is due (retried with backoff, then failed).',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ sent: number }>(),
  events: [],
  async handler(ctx) {
    return { sent: await deliverPendingMail(ctx.deps) };
  },
});

export const dispatchNotices = defineInternalOperation({
  operationId: 'dispatchNotices',
  title: 'Make mail from the events',
  description:
    'Reads the domain events not yet read for mail (reader notices), queues the mails they make to pet owners and businesses, then delivers what is due.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ events: number; mails: number; skipped: number; sent: number }>(),
  events: [],
  async handler(ctx) {
    const started = Date.now();
    const made = await dispatchAllNotices(ctx.deps);
    if (made.skipped)
      ctx.log.error(
        { skipped: made.skipped },
        'notices: events or mails that could not be made were skipped',
      );
    // Delivered now rather than at deliver-mail's next run: a confirmation is awaited.
    // One minute for the whole run's claiming (its last sends may take up to 50 s more with the SMTP
    // timeouts): well within the job's 2-minute expiry.
    const sent = made.mails
      ? await deliverPendingMail(ctx.deps, 2000, Math.max(0, JOB_CLAIMS_MS - (Date.now() - started)))
      : 0;
    return { ...made, sent };
  },
});

export const latestEvent = defineInternalOperation({
  operationId: 'latestEvent',
  title: 'The newest event',
  description:
    'The place of the newest domain event written (0 before any): the worker watches it and runs the jobs that read the events as soon as it moves, rather than at their next minute.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ seq: string }>(),
  events: [],
  async handler(ctx) {
    return { seq: await latestEventSeq(ctx.deps.sql) };
  },
});

export const purgeEmailLinks = defineInternalOperation({
  operationId: 'purgeEmailLinks',
  title: 'Purge old sign-in links',
  description:
    'Removes sign-in links a day past their time, link-mail counts older than a day, and unsubscribe links of mails older than a year.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ deleted: number; counts: number; unsubscribeLinks: number }>(),
  events: [],
  async handler(ctx) {
    const dayAgo = ago(ctx.deps.clock.now(), 24 * HOUR);
    return {
      deleted: await purgeEmailLinkRows(ctx.deps.sql, dayAgo),
      counts: await purgeLinkMailRequests(ctx.deps.sql, dayAgo),
      unsubscribeLinks: await purgeUnsubscribeLinks(ctx.deps.sql, ago(ctx.deps.clock.now(), 366 * 24 * HOUR)),
    };
  },
});

export const recheckPaymentNotices = defineInternalOperation({
  operationId: 'recheckPaymentNotices',
  title: 'Recheck payment notices',
  description: 'Checks again payment notices kept but not checked to the end.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ rechecked: number; failed: number }>(),
  events: ['booking.paid', 'order.paid', 'booking.refund_due', 'payment.refund_due'],
  async handler(ctx) {
    return recheckNotices(ctx.deps);
  },
});

export const purgeDoneNotices = defineInternalOperation({
  operationId: 'purgeDoneNotices',
  title: 'Purge done payment notices',
  description: 'Removes payment notices with nothing left to do after 90 days.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ deleted: number }>(),
  events: [],
  async handler(ctx) {
    return {
      deleted: await purgeDonePaymentNotices(ctx.deps.sql, ago(ctx.deps.clock.now(), 90 * 24 * HOUR)),
    };
  },
});

export const purgeSignupDrafts = defineInternalOperation({
  operationId: 'purgeSignupDrafts',
  title: 'Purge expired sign-up drafts',
  description:
    'Removes no-login sign-up drafts after 30 days, with their DRAFT application and the account made for nothing else.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ drafts: number; applications: number; accounts: number }>(),
  events: [],
  async handler(ctx) {
    return purgeExpiredDrafts(ctx.deps.sql, ctx.deps.clock.now());
  },
});

export const fanOutWebhooks = defineInternalOperation({
  operationId: 'fanOutWebhooks',
  title: 'Make webhook deliveries from events',
  description:
    'Reads the next domain events with the `webhooks` reader and writes one delivery per enabled endpoint that wants each, with the bookmark.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ events: number; deliveries: number }>(),
  events: [],
  async handler(ctx) {
    return fanOutWebhookEvents(ctx.deps);
  },
});

export const sendWebhooks = defineInternalOperation({
  operationId: 'sendWebhooks',
  title: 'Send due webhooks',
  description:
    'POSTs the webhook deliveries due, signed; schedules retries, gives up after about three days and disables an endpoint that only fails.',
  auth: SYSTEM,
  input: NO_INPUT,
  output: typed<{ sent: number; failed: number; gaveUp: number; disabled: number }>(),
  events: [],
  async handler(ctx) {
    return sendDueWebhooks(ctx.deps);
  },
});
