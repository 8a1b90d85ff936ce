// What the shop tests share: one caller for the five shop operations over HTTP and MCP
// alike, buyers with an orders:write key, their own bookings for `visit` orders, and paying an
// order's link as the sandbox's TEST page does.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { STATUS_OF } from '@nogpets/operations';
import { createApiKey } from '@nogpets/operations/testing';
import { expect } from 'vitest';
import { newPetOwner, payInSandbox, type TestServer, toolJson } from './harness.js';

type Json = any;

/** Monday 06:00 in Johannesburg: WINTER25 has ended, SUMMER27 not begun. */
export const NOW = '2026-11-23T04:00:00Z';

export type Door = 'http' | 'mcp';
export const DOORS: Door[] = ['http', 'mcp'];

export type ShopTool = 'browse_shop' | 'quote_order' | 'buy' | 'list_orders' | 'get_order' | 'pay_order';

const ROUTES: Record<ShopTool, { method: 'GET' | 'POST'; path: string; success: number }> = {
  browse_shop: { method: 'GET', path: '/v1/products', success: 200 },
  quote_order: { method: 'POST', path: '/v1/orders/quote', success: 200 },
  buy: { method: 'POST', path: '/v1/orders', success: 201 },
  list_orders: { method: 'GET', path: '/v1/orders', success: 200 },
  get_order: { method: 'GET', path: '/v1/orders/:orderId', success: 200 },
  pay_order: { method: 'POST', path: '/v1/orders/:orderId/pay', success: 200 },
};

export interface Answer {
  status: number;
  body: Json;
}

/**
 * Calls a shop operation through one door. MCP has no status line: a success is given the
 * operation's own status and a refusal the status of its error code, so one table can assert both.
 */
export function shopCaller(server: TestServer) {
  const clients = new Map<string, Client>();
  const clientOf = async (key: string | undefined) => {
    const id = key ?? '';
    let client = clients.get(id);
    if (!client) {
      client = key ? await server.mcpAs(key) : await server.mcp();
      clients.set(id, client);
    }
    return client;
  };
  return async function call(
    door: Door,
    tool: ShopTool,
    args: Record<string, unknown>,
    options: { key?: string | undefined; idempotencyKey?: string } = {},
  ): Promise<Answer> {
    const route = ROUTES[tool];
    if (door === 'mcp') {
      const client = await clientOf(options.key);
      let answer: { isError?: boolean };
      try {
        answer = (await client.callTool({
          name: tool,
          arguments: args,
          ...(options.idempotencyKey ? { _meta: { idempotencyKey: options.idempotencyKey } } : {}),
        })) as { isError?: boolean };
      } catch (err) {
        // A tool that needs a credential (or a wider one) is refused at the HTTP level, with the
        // status and error body that ask the client to authorize (401) or to ask for more (403).
        const { code, message } = err as { code?: unknown; message: string };
        const json = /\{.*\}$/s.exec(message)?.[0];
        if (typeof code !== 'number' || !json) throw err;
        return { status: code, body: JSON.parse(json) };
      }
      const body = toolJson(answer);
      const status = answer.isError
        ? (STATUS_OF[body.error.code as keyof typeof STATUS_OF] ?? 500)
        : route.success;
      return { status, body };
    }
    const headers: Record<string, string> = {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
    };
    const rest = { ...args };
    let path = route.path;
    if (path.includes(':orderId')) {
      path = path.replace(':orderId', encodeURIComponent(String(rest.orderId)));
      delete rest.orderId;
    }
    if (route.method === 'POST') return server.post(path, rest, headers);
    const query = new URLSearchParams(
      Object.entries(rest).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    return server.get(query ? `${path}?${query}` : path, headers);
  };
}

export type ShopCall = ReturnType<typeof shopCaller>;

/** A person who may buy: an API key with orders:write (and bookings:read), and their user id. */
export async function newBuyer(server: TestServer, email: string): Promise<{ key: string; userId: string }> {
  const { key, userId } = await createApiKey(server.db.sql, {
    email,
    scopes: ['orders:write', 'bookings:read'],
  });
  return { key, userId };
}

/**
 * A pet owner with an operator booking of their own on `day` or the first day after with room, paid by CARD or in CASH, and a key
 * with orders:write to buy a `visit` add-on for it. A card booking is paid through the sandbox.
 */
export async function buyerWithBooking(
  server: TestServer,
  email: string,
  day: string,
  paymentMethod: 'CARD' | 'CASH',
): Promise<{
  key: string;
  userId: string;
  bookingId: string;
  ownerKey: string;
  petId: string;
  addressId: string;
}> {
  const owner = await newPetOwner(server, {
    email,
    pet: { name: 'Bongo', weightKg: 14 },
    line1: '3 Dorp Street',
  });
  const as = { authorization: `Bearer ${owner.key}` };
  const body = {
    category: 'grooming',
    addressId: owner.addressId,
    pets: [{ petId: owner.petId, serviceIds: ['groom-dog-bath'] }],
  };
  // The first open slot from `day` on (the demo has some days fully booked).
  const to = new Date(Date.parse(`${day}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10);
  const found = await server.post('/v1/availability', { ...body, from: day, to }, as);
  const slot = found.body.days?.find((d: Json) => d.slots?.length)?.slots[0];
  if (found.status !== 200 || !slot) throw new Error(`no open slot on ${day}: ${JSON.stringify(found.body)}`);
  const booked = await server.post(
    '/v1/bookings',
    {
      ...body,
      start: slot.start,
      resourceId: slot.resourceId,
      paymentMethod,
      ...(paymentMethod === 'CASH' ? { confirm: true } : {}),
    },
    as,
  );
  if (booked.status !== 201)
    throw new Error(`booking failed: ${booked.status} ${JSON.stringify(booked.body)}`);
  // A card booking is paid: an unpaid one may still lapse, and no order rides with it.
  if (paymentMethod === 'CARD' && (await payInSandbox(server, booked.body.bookingId)) !== 200)
    throw new Error('paying the booking failed');
  const buyer = await newBuyer(server, email);
  return {
    ...buyer,
    bookingId: booked.body.bookingId,
    ownerKey: owner.key,
    petId: owner.petId,
    addressId: owner.addressId,
  };
}

/** Pays a card order's link as the sandbox's TEST page does (the pay button); the page's status. */
export async function payOrderLink(server: TestServer, payUrl: string): Promise<number> {
  const posted = await fetch(`${payUrl}/sandbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    body: 'decision=pay',
    redirect: 'manual',
  });
  await posted.body?.cancel();
  return posted.status;
}

/** How many of each variant browse_shop shows left. */
export async function stockNow(server: TestServer): Promise<Record<string, number>> {
  const res = await server.get('/v1/products');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Object.fromEntries(
    res.body.products.flatMap((p: Json) => p.variants.map((v: Json) => [v.id, v.stock])),
  );
}

/** What the database holds of the shop's counters (read only): orders, and each code's uses. */
export async function shopCounts(
  server: TestServer,
): Promise<{ orders: number; uses: Record<string, number> }> {
  const [{ orders }] = (await server.db.sql`select count(*)::int as orders from orders`) as unknown as [
    { orders: number },
  ];
  const codes = await server.db.sql<{ code: string; used: number }[]>`select code, used from discount_codes`;
  return { orders, uses: Object.fromEntries(codes.map((c) => [c.code, c.used])) };
}

/** A courier order to Stellenbosch by card, for `items`; fields may be overridden. */
export function courierOrder(items: Json[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    items,
    shippingMethod: 'courier',
    shipTo: { line1: '12 Dorp Street', city: 'Stellenbosch', postalCode: '7600' },
    ...extra,
  };
}
