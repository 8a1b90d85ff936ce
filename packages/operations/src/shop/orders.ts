import type { DeliveryOptions } from '@nogpets/pricing-tiers';
import { findOrder, listUserOrders, type Queryable } from '@nogpets/store';
import { z } from 'zod';
import { defineOperation, keysetCursor, READ_ONLY, ServiceError } from '../core/index.js';
import { findShop, type Order, OrderSchema, toOrder } from './shop-model.js';

const auth401 = { status: 401, description: 'No or an invalid credential.' };
const forbidden = { status: 403, description: 'The credential lacks orders:write.' };
const tooMany = { status: 429, description: 'Too many requests.' };

/** A page's position: the (createdAt, id) of its last order. */
const cursor = keysetCursor('o', { createdAt: 'instant', id: 'id' });

/** The delivery labels to describe orders with (the shop's settings, open or closed). */
async function deliveryLabels(q: Queryable): Promise<DeliveryOptions | null> {
  return (await findShop(q))?.delivery ?? null;
}

/** The person's orders as shown (the account page lists them too). */
export async function ordersOfPerson(
  q: Queryable,
  userId: string,
  page: { limit: number; after?: { createdAt: Date; id: string } | undefined },
): Promise<Order[]> {
  const [rows, delivery] = await Promise.all([listUserOrders(q, userId, page), deliveryLabels(q)]);
  return rows.map((r) => toOrder(r, delivery));
}

export const listOrders = defineOperation({
  operationId: 'listOrders',
  toolName: 'list_orders',
  title: 'List shop orders',
  tag: 'Shop',
  mcp: 'person',
  method: 'GET',
  path: '/v1/orders',
  inputIn: 'query',
  auth: { scope: 'orders:write' },
  description:
    "The person's shop orders, newest first: what, the total, how it is delivered and the status in words " +
    '(`statusText`). Unpaid card orders (`canPay`) are paid at the payUrl buy gave, until `expiresAt`. `limit` 1 to ' +
    '50 (default 20); pass `next` back as `cursor` for more. Orders are shown even while the shop is closed.',
  input: z
    .object({
      limit: z.int().min(1).max(50).default(20),
      cursor: z.string().min(1).max(200).optional().meta({ description: 'The `next` of the previous page.' }),
    })
    .strict(),
  output: z
    .object({
      orders: z.array(OrderSchema),
      next: z
        .string()
        .nullable()
        .meta({ description: 'Pass as `cursor` for the next page; null at the end.' }),
    })
    .meta({ id: 'OrderList', description: "The person's orders, newest first." }),
  successStatus: 200,
  errors: [
    { status: 400, description: 'A limit outside 1..50 or a cursor not from this list.' },
    auth401,
    forbidden,
    tooMany,
  ],
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const after = cursor.after(input.cursor);
    const orders = await ordersOfPerson(ctx.deps.sql, ctx.auth!.userId, {
      limit: input.limit + 1,
      ...(after ? { after } : {}),
    });
    const page = orders.slice(0, input.limit);
    const last = page.at(-1);
    return {
      orders: page,
      next:
        orders.length > input.limit && last
          ? cursor.of({ createdAt: new Date(last.createdAt), id: last.orderId })
          : null,
    };
  },
});

export const getOrder = defineOperation({
  operationId: 'getOrder',
  toolName: 'get_order',
  title: 'Get a shop order',
  tag: 'Shop',
  mcp: 'person',
  method: 'GET',
  path: '/v1/orders/:orderId',
  inputIn: 'query',
  auth: { scope: 'orders:write' },
  description:
    "One of the person's shop orders by `orderId` (from buy or list_orders): lines, delivery, total, status in words, " +
    "and the courier's `tracking` reference once shipped. Another person's order answers 404.",
  input: z.object({ orderId: z.string().min(1).max(128) }).strict(),
  output: OrderSchema,
  successStatus: 200,
  errors: [auth401, forbidden, { status: 404, description: 'No such order of the person.' }, tooMany],
  annotations: READ_ONLY,
  async handler(ctx, input) {
    const row = await findOrder(ctx.deps.sql, input.orderId);
    if (!row || row.userId !== ctx.auth!.userId)
      throw new ServiceError('NOT_FOUND', `No order ${input.orderId}.`, { orderId: input.orderId });
    return toOrder(row, await deliveryLabels(ctx.deps.sql));
  },
});
