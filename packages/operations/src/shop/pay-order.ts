import { orderPayLink } from '@nogpets/booking-rules';
import { formatMoney } from '@nogpets/pricing-tiers';
import {
  expireOrderPayments,
  findOrder,
  insertOrderPayment,
  lockOrderPayments,
  transaction,
} from '@nogpets/store';
import { z } from 'zod';
import {
  auditChange,
  defineOperation,
  hashSecret,
  momentText,
  newSecret,
  ServiceError,
} from '../core/index.js';
import { payUrlOf } from '../bookings/index.js';
import { findShop } from './shop-model.js';

export const payOrder = defineOperation({
  operationId: 'payOrder',
  toolName: 'pay_order',
  title: 'Get a pay link for a shop order',
  tag: 'Shop',
  mcp: 'person',
  method: 'POST',
  path: '/v1/orders/:orderId/pay',
  inputIn: 'body',
  auth: { scope: 'orders:write' },
  description:
    "A fresh pay link for one of the person's unpaid card orders (`canPay` in list_orders or get_order), when they " +
    'lost the one buy gave. The person opens `payUrl` to pay. It works until the order closes (`expiresAt`, 24 hours ' +
    'after it was bought; a new link never keeps the items longer); earlier links of the order stop working. Paid, ' +
    "cash, closed or expired orders answer 409 NOTHING_TO_PAY with what to do; another person's order answers 404.",
  input: z
    .object({ orderId: z.string().min(1).max(128).meta({ description: 'From buy or list_orders.' }) })
    .strict(),
  output: z
    .object({
      orderId: z.string(),
      totalCents: z.int(),
      total: z.string(),
      payUrl: z.url(),
      expiresAt: z.iso.datetime(),
      next: z.string(),
    })
    .meta({
      id: 'OrderPayLink',
      description:
        'A fresh link for the person to open and pay an unpaid card order, until the order closes.',
    }),
  successStatus: 200,
  errors: [
    { status: 401, description: 'No or an invalid credential.' },
    { status: 403, description: 'The credential lacks orders:write.' },
    { status: 404, description: 'No such order of the person.' },
    { status: 409, description: '`NOTHING_TO_PAY`: paid, cash, cancelled, or closed unpaid.' },
    { status: 429, description: 'Too many requests.' },
  ],
  events: [],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(ctx, input) {
    const now = ctx.deps.clock.now();
    const shop = await findShop(ctx.deps.sql);
    const token = newSecret('npl');
    const made = await transaction(ctx.deps.sql, async (q) => {
      // Whose it is, before any lock: another person's order is never held up by this call.
      const mine = await findOrder(q, input.orderId);
      // Payments first, then the order: the order a gateway's notification locks them in.
      if (mine && mine.userId === ctx.auth!.userId) await lockOrderPayments(q, input.orderId);
      const row =
        mine && mine.userId === ctx.auth!.userId
          ? await findOrder(q, input.orderId, { forUpdate: true })
          : null;
      if (!row || row.userId !== ctx.auth!.userId)
        throw new ServiceError(
          'NOT_FOUND',
          `No order ${input.orderId} of the person. list_orders shows theirs.`,
          {
            orderId: input.orderId,
          },
        );
      const link = orderPayLink(row, now);
      if (!link.ok)
        throw new ServiceError('NOTHING_TO_PAY', link.message, {
          orderId: row.id,
          status: row.status,
          paymentStatus: row.paymentStatus,
        });
      // The link given before stops: one open link per order.
      await expireOrderPayments(q, row.id, now);
      const { paymentId } = await insertOrderPayment(
        q,
        {
          orderId: row.id,
          businessId: row.businessId,
          userId: row.userId,
          amountCents: row.totalCents,
          currency: row.currency,
          gateway: ctx.deps.payments.gateway.name,
          linkTokenHash: hashSecret(token),
          expiresAt: link.expiresAt,
        },
        now,
      );
      await auditChange(ctx, q, 'order.paylink', row.id, { paymentId });
      return { row, expiresAt: link.expiresAt };
    });
    const total = formatMoney(made.row.totalCents, made.row.currency);
    const until = momentText(made.expiresAt, shop?.business.timezone ?? 'Africa/Johannesburg');
    return {
      orderId: made.row.id,
      totalCents: made.row.totalCents,
      total,
      payUrl: payUrlOf(ctx, token),
      expiresAt: made.expiresAt.toISOString(),
      next: `Give the person the payUrl to pay ${total} by card, by ${until}; unpaid, the order closes then and its items go back on the shelf.`,
    };
  },
});
