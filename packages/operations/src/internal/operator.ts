/**
 * NogPets' operator's tasks (the CLI's commands and the operator console's pages) as internal
 * operations, each run by an `operator` principal that names the operator. Each wraps the function
 * that does the work; the operator's name and account (none for the CLI) go where those functions
 * record who acted.
 */
import { listFailedMail as listFailedMailRows, listMail as listMailRows } from '@nogpets/store';
import { z } from 'zod';
import { defineInternalOperation, createApiKey as makeApiKey } from '../core/index.js';
import {
  acceptBooking,
  closeLeadWithNote,
  leadsToFollowUp,
  paymentsToRefund,
  refundsDue,
} from '../bookings/index.js';
import {
  chargesToRefund,
  createPayout as makePayout,
  markPayoutDone,
  paymentProblems,
  resolvePaymentProblem,
} from '../money/index.js';
import {
  applicationsToReview,
  applicationToReview,
  approveApplication as approve,
  areasToReview,
  decideArea as decide,
  grantOperatorAccess as grant,
  markRefundDone as markRefund,
  refundsOwed,
  rejectApplication as reject,
  revokeOperatorAccess as revoke,
} from '../onboarding/index.js';
import { moveOrder as move, ordersToPack, shopStatus as readShop, setShopOpenAs } from '../shop/index.js';
import { NO_INPUT, operatorOf, typed } from '../core/index.js';

const OPERATOR = { principal: ['operator'] } as const;
const ID = z.string().min(1);
const NOTE = z.string().optional();

type Result<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

export const createApiKey = defineInternalOperation({
  operationId: 'createApiKey',
  title: 'Create an API key for a person',
  description: 'A personal API key with the scopes given, for the account with this email (made if absent).',
  auth: OPERATOR,
  input: z.object({ email: z.string(), scopes: z.array(z.string()), name: z.string().optional() }).strict(),
  output: typed<Result<typeof makeApiKey>>(),
  events: [],
  async handler(ctx, input) {
    return makeApiKey(ctx.deps.sql, {
      email: input.email,
      scopes: input.scopes,
      ...(input.name !== undefined ? { name: input.name } : {}),
    });
  },
});

export const acceptPendingBooking = defineInternalOperation({
  operationId: 'acceptPendingBooking',
  title: 'Accept a pending booking',
  description: 'Accepts a PENDING booking for its business.',
  auth: OPERATOR,
  input: z.object({ bookingId: ID }).strict(),
  output: typed<Result<typeof acceptBooking>>(),
  events: ['booking.accepted'],
  async handler(ctx, input) {
    return acceptBooking(ctx.deps, input.bookingId, operatorOf(ctx).name);
  },
});

export const listRefundsOwed = defineInternalOperation({
  operationId: 'listRefundsOwed',
  title: 'Refunds owed',
  description:
    'Cancelled paid bookings, payments made twice, and money the gateway confirmed that no booking takes: each still to refund.',
  auth: OPERATOR,
  input: NO_INPUT,
  output: typed<{
    bookings: Result<typeof refundsDue>;
    payments: Result<typeof paymentsToRefund>;
    charges: Result<typeof chargesToRefund>;
  }>(),
  async handler(ctx) {
    const [bookings, payments, charges] = await Promise.all([
      refundsDue(ctx.deps),
      paymentsToRefund(ctx.deps),
      chargesToRefund(ctx.deps),
    ]);
    return { bookings, payments, charges };
  },
});

export const listAllRefundsOwed = defineInternalOperation({
  operationId: 'listAllRefundsOwed',
  title: 'Refunds owed, in one list',
  description:
    'Every refund still owed in one list, each with its amount and what it is in words: cancelled paid bookings, payments made twice, stray charges.',
  auth: OPERATOR,
  input: NO_INPUT,
  output: typed<Result<typeof refundsOwed>>(),
  async handler(ctx) {
    return refundsOwed(ctx.deps);
  },
});

export const markRefundDone = defineInternalOperation({
  operationId: 'markRefundDone',
  title: 'Mark a refund made',
  description: 'A booking REFUND_REQUESTED, a payment or a notification REFUND_DUE becomes REFUNDED.',
  auth: OPERATOR,
  input: z.object({ id: ID, note: NOTE }).strict(),
  output: typed<Result<typeof markRefund>>(),
  events: [],
  async handler(ctx, input) {
    return markRefund(ctx.deps, input.id, operatorOf(ctx), input.note);
  },
});

export const listPaymentProblems = defineInternalOperation({
  operationId: 'listPaymentProblems',
  title: 'Payment problems',
  description: 'Notifications claiming a payment that could not be confirmed, oldest first.',
  auth: OPERATOR,
  input: NO_INPUT,
  output: typed<Result<typeof paymentProblems>>(),
  async handler(ctx) {
    return paymentProblems(ctx.deps);
  },
});

export const resolvePaymentNotice = defineInternalOperation({
  operationId: 'resolvePaymentNotice',
  title: 'Resolve a payment problem',
  description: 'Marks a problem notification dealt with: RESOLVED.',
  auth: OPERATOR,
  input: z.object({ id: ID, note: NOTE }).strict(),
  output: typed<Result<typeof resolvePaymentProblem>>(),
  events: [],
  async handler(ctx, input) {
    return resolvePaymentProblem(ctx.deps, input.id, operatorOf(ctx).name, input.note);
  },
});

export const listLeads = defineInternalOperation({
  operationId: 'listLeads',
  title: 'Open leads',
  description: 'Places and times people asked for that could not be served, newest first.',
  auth: OPERATOR,
  input: z.object({ limit: z.int().min(1).max(1000).optional() }).strict(),
  output: typed<Result<typeof leadsToFollowUp>>(),
  async handler(ctx, input) {
    return leadsToFollowUp(ctx.deps, input.limit);
  },
});

export const closeLead = defineInternalOperation({
  operationId: 'closeLead',
  title: 'Close a lead',
  description: 'Closes a lead once followed up, with a note of what was done.',
  auth: OPERATOR,
  input: z.object({ leadId: ID, note: NOTE }).strict(),
  output: typed<Result<typeof closeLeadWithNote>>(),
  events: [],
  async handler(ctx, input) {
    return closeLeadWithNote(ctx.deps, input.leadId, operatorOf(ctx).name, input.note);
  },
});

export const grantOperatorAccess = defineInternalOperation({
  operationId: 'grantOperatorAccess',
  title: 'Grant the operator console',
  description: 'Grants the operator console to the account with this email (made if absent).',
  auth: OPERATOR,
  input: z.object({ email: z.string() }).strict(),
  output: typed<Result<typeof grant>>(),
  events: [],
  async handler(ctx, input) {
    return grant(ctx.deps, input.email, operatorOf(ctx));
  },
});

export const revokeOperatorAccess = defineInternalOperation({
  operationId: 'revokeOperatorAccess',
  title: 'Take the operator console away',
  description: 'Takes the operator console away from the account with this email.',
  auth: OPERATOR,
  input: z.object({ email: z.string() }).strict(),
  output: typed<Result<typeof revoke>>(),
  events: [],
  async handler(ctx, input) {
    return revoke(ctx.deps, input.email, operatorOf(ctx));
  },
});

const APPLICATION_STATUS = z.enum(['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED']);

export const listApplications = defineInternalOperation({
  operationId: 'listApplications',
  title: 'Business applications',
  description: 'Applications, SUBMITTED first (longest waiting first), then the others, newest first.',
  auth: OPERATOR,
  input: z
    .object({ limit: z.int().min(1).max(1000).optional(), statuses: z.array(APPLICATION_STATUS).optional() })
    .strict(),
  output: typed<Result<typeof applicationsToReview>>(),
  async handler(ctx, input) {
    return applicationsToReview(ctx.deps, {
      ...(input.limit !== undefined ? { limit: input.limit } : {}),
      ...(input.statuses ? { statuses: input.statuses } : {}),
    });
  },
});

export const getApplicationForReview = defineInternalOperation({
  operationId: 'getApplicationForReview',
  title: 'One application to review',
  description:
    'One application as the operator reads it, with its checklist and claim; null when there is none.',
  auth: OPERATOR,
  input: z.object({ applicationId: ID }).strict(),
  output: typed<Result<typeof applicationToReview>>(),
  async handler(ctx, input) {
    return applicationToReview(ctx.deps, input.applicationId);
  },
});

export const approveApplication = defineInternalOperation({
  operationId: 'approveApplication',
  title: 'Approve an application',
  description: 'Approves a SUBMITTED application: the business is made.',
  auth: OPERATOR,
  input: z.object({ applicationId: ID, claimChecked: z.boolean().optional() }).strict(),
  output: typed<Result<typeof approve>>(),
  events: ['application.approved', 'invitation.sent'],
  async handler(ctx, input) {
    return approve(ctx.deps, input.applicationId, operatorOf(ctx), {
      claimChecked: input.claimChecked === true,
    });
  },
});

export const rejectApplication = defineInternalOperation({
  operationId: 'rejectApplication',
  title: 'Reject an application',
  description: 'Rejects a SUBMITTED application with a note saying why.',
  auth: OPERATOR,
  input: z.object({ applicationId: ID, note: NOTE }).strict(),
  output: typed<Result<typeof reject>>(),
  events: ['application.rejected'],
  async handler(ctx, input) {
    return reject(ctx.deps, input.applicationId, operatorOf(ctx), input.note);
  },
});

export const listProposedAreas = defineInternalOperation({
  operationId: 'listProposedAreas',
  title: 'Proposed areas',
  description: 'PENDING areas of applications and businesses waiting for a decision.',
  auth: OPERATOR,
  input: NO_INPUT,
  output: typed<Result<typeof areasToReview>>(),
  async handler(ctx) {
    return areasToReview(ctx.deps);
  },
});

export const decideArea = defineInternalOperation({
  operationId: 'decideArea',
  title: 'Approve or reject a proposed area',
  description: 'Approves or rejects a PENDING area of an application or a running business.',
  auth: OPERATOR,
  input: z.object({ areaId: ID, decision: z.enum(['APPROVED', 'REJECTED']) }).strict(),
  output: typed<Result<typeof decide>>(),
  events: [],
  async handler(ctx, input) {
    return decide(ctx.deps, input.areaId, input.decision, operatorOf(ctx));
  },
});

export const createPayout = defineInternalOperation({
  operationId: 'createPayout',
  title: 'Make a payout',
  description:
    'A payout of everything settled for the business up to the end of a local date, in no payout yet.',
  auth: OPERATOR,
  input: z.object({ businessId: ID, through: z.string() }).strict(),
  output: typed<Result<typeof makePayout>>(),
  events: [],
  async handler(ctx, input) {
    return makePayout(ctx.deps, input.businessId, input.through, operatorOf(ctx).name);
  },
});

export const markPayoutPaid = defineInternalOperation({
  operationId: 'markPayoutPaid',
  title: 'Mark a payout paid',
  description: "Marks a CREATED payout as transferred (PAID), with the transfer's reference.",
  auth: OPERATOR,
  input: z.object({ payoutId: ID, note: z.string() }).strict(),
  output: typed<Result<typeof markPayoutDone>>(),
  events: ['payout.paid'],
  async handler(ctx, input) {
    return markPayoutDone(ctx.deps, input.payoutId, input.note, operatorOf(ctx).name);
  },
});

export const setShopOpen = defineInternalOperation({
  operationId: 'setShopOpen',
  title: 'Open or close the shop',
  description: "Opens or closes the operator's shop for buying.",
  auth: OPERATOR,
  input: z.object({ open: z.boolean() }).strict(),
  output: typed<Result<typeof setShopOpenAs>>(),
  events: [],
  async handler(ctx, input) {
    return setShopOpenAs(ctx.deps, input.open, operatorOf(ctx));
  },
});

export const shopStatus = defineInternalOperation({
  operationId: 'shopStatus',
  title: 'Shop status',
  description: 'Whether the shop is open, and when that last changed.',
  auth: OPERATOR,
  input: NO_INPUT,
  output: typed<Result<typeof readShop>>(),
  async handler(ctx) {
    return readShop(ctx.deps);
  },
});

export const listOrdersToPack = defineInternalOperation({
  operationId: 'listOrdersToPack',
  title: 'Orders to pack',
  description: 'Orders to pack and ship, oldest first (200 unless a limit is given).',
  auth: OPERATOR,
  input: z.object({ limit: z.int().min(1).max(1000).optional() }).strict(),
  output: typed<Result<typeof ordersToPack>>(),
  async handler(ctx, input) {
    return ordersToPack(ctx.deps, input.limit);
  },
});

export const moveOrder = defineInternalOperation({
  operationId: 'moveOrder',
  title: 'Move a shop order',
  description: 'Packs, ships, delivers or cancels an order, or marks its refund made.',
  auth: OPERATOR,
  input: z
    .object({
      orderId: ID,
      move: z.enum(['PACK', 'SHIP', 'DELIVER', 'CANCEL', 'REFUNDED']),
      tracking: z.string().optional(),
      note: NOTE,
    })
    .strict(),
  output: typed<Result<typeof move>>(),
  events: ['order.shipped', 'order.delivered', 'order.cancelled'],
  async handler(ctx, input) {
    return move(ctx.deps, input.orderId, input.move, operatorOf(ctx), {
      tracking: input.tracking,
      note: input.note,
    });
  },
});

export const listMail = defineInternalOperation({
  operationId: 'listMail',
  title: 'Mail the service sent',
  description: 'The newest mails first, with their text while it is kept.',
  auth: OPERATOR,
  input: z.object({ limit: z.int().min(1).max(100), to: z.string().optional() }).strict(),
  output: typed<Result<typeof listMailRows>>(),
  async handler(ctx, input) {
    return listMailRows(ctx.deps.sql, input.limit, input.to);
  },
});

export const listFailedMail = defineInternalOperation({
  operationId: 'listFailedMail',
  title: 'Mail that could not be delivered',
  description:
    'Mails whose last attempt failed (after retries with backoff), newest first, with the last error.',
  auth: OPERATOR,
  input: z.object({ limit: z.int().min(1).max(100) }).strict(),
  output: typed<Result<typeof listFailedMailRows>>(),
  async handler(ctx, input) {
    return listFailedMailRows(ctx.deps.sql, input.limit);
  },
});
