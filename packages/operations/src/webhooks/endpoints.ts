/**
 * The webhook operations, defined once for each kind of owner: a business (owners and managers,
 * `/v1/business/webhooks`, scope business:manage) and a person using the API for their own bookings
 * and orders (`/v1/webhooks`, scope bookings:read, tools named `…_my_…`). docs/decisions.md, "Webhooks".
 */
import { randomBytes } from 'node:crypto';
import {
  deleteWebhookEndpoint as deleteEndpointRow,
  enableWebhookEndpoint,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookDeliveries as listDeliveryRows,
  listWebhookEndpoints as listEndpointRows,
  lockAndCountWebhookEndpoints,
  lockWebhookDelivery,
  newId,
  type Queryable,
  requeueWebhookDelivery,
  transaction,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  type WebhookOwner,
} from '@nogpets/store';
import { z } from 'zod';
import {
  auditChange,
  defineOperation,
  keysetCursor,
  type OperationContext,
  READ_ONLY,
  ServiceError,
  singleLine,
} from '../core/index.js';
import { inBusiness, RUN_ACCESS_ERRORS, RunBusinessIdShape } from '../staff/index.js';
import { checkWebhookUrl, DEFAULT_WEBHOOK_SETTINGS, MAX_WEBHOOK_URL } from './address.js';
import { MAX_WEBHOOK_ATTEMPTS } from './deliveries.js';
import { ALL_EVENTS, BUSINESS_EVENT_TYPES, PERSON_EVENT_TYPES } from './types.js';

/** Endpoints one business, or one person, may have at once. */
export const MAX_WEBHOOK_ENDPOINTS = 10;

const CHANGES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
const REMOVES = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

/** A new Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const IdSchema = (what: string, example: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, 'Letters, digits, _ and -, 1 to 128.')
    .meta({ description: what, example });

const EndpointSchema = z
  .object({
    endpointId: z.string(),
    businessId: z
      .string()
      .nullable()
      .meta({ description: "The business's endpoint; null for a person's own." }),
    url: z.string(),
    description: z.string().nullable(),
    eventTypes: z.array(z.string()).meta({ description: 'The event types it receives; `*` is every one.' }),
    status: z.enum(['ENABLED', 'DISABLED']).meta({
      description:
        'DISABLED: every attempt failed for about three days; redeliver a delivery to enable it again.',
    }),
    disabledAt: z.iso.datetime().nullable(),
    disabledReason: z.string().nullable(),
    lastSuccessAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookEndpoint', description: 'Where events are POSTed, signed (Standard Webhooks).' });

const DeliverySchema = z
  .object({
    deliveryId: z.string(),
    endpointId: z.string(),
    eventId: z.string().meta({ description: 'Also the `webhook-id` header: the same on every attempt.' }),
    eventType: z.string(),
    status: z.enum(['PENDING', 'SUCCEEDED', 'FAILED']).meta({
      description: `PENDING: to be sent (again) at nextAttemptAt; SUCCEEDED: a 2xx came back; FAILED: all ${MAX_WEBHOOK_ATTEMPTS} attempts failed.`,
    }),
    attempts: z.int().meta({ description: 'Attempts so far in this round (a redelivery starts a new one).' }),
    nextAttemptAt: z.iso.datetime().nullable(),
    lastAttemptAt: z.iso.datetime().nullable(),
    lastStatus: z
      .int()
      .nullable()
      .meta({ description: 'The HTTP status of the last attempt; null when none came back.' }),
    lastError: z.string().nullable(),
    createdAt: z.iso.datetime(),
    succeededAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'WebhookDelivery', description: 'One event to one endpoint, and how its attempts went.' });

const CreatedSchema = EndpointSchema.extend({
  secret: z.string().meta({
    description: 'The signing secret (`whsec_` + base64): shown this once; verify every webhook with it.',
  }),
  message: z.string(),
}).meta({ id: 'WebhookEndpointCreated', description: 'The endpoint, with its secret shown once.' });

const EndpointListSchema = z
  .object({ endpoints: z.array(EndpointSchema), limit: z.int() })
  .meta({ id: 'WebhookEndpointList', description: 'Webhook endpoints, oldest first.' });

const DeletedSchema = z
  .object({ endpointId: z.string(), deleted: z.literal(true), message: z.string() })
  .meta({ id: 'WebhookEndpointDeleted', description: 'The endpoint deleted.' });

const DeliveryListSchema = z
  .object({ endpointId: z.string(), deliveries: z.array(DeliverySchema), next: z.string().nullable() })
  .meta({ id: 'WebhookDeliveryList', description: "An endpoint's deliveries, newest first." });

const RedeliverySchema = z
  .object({ delivery: DeliverySchema, endpointEnabled: z.boolean(), message: z.string() })
  .meta({ id: 'WebhookRedelivery', description: 'The delivery, due again now.' });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toEndpoint(e: WebhookEndpointRow): z.input<typeof EndpointSchema> {
  return {
    endpointId: e.id,
    businessId: e.businessId,
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes,
    status: e.status,
    disabledAt: iso(e.disabledAt),
    disabledReason: e.disabledReason,
    lastSuccessAt: iso(e.lastSuccessAt),
    createdAt: e.createdAt.toISOString(),
  };
}

function toDelivery(d: WebhookDeliveryRow): z.input<typeof DeliverySchema> {
  return {
    deliveryId: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'PENDING' ? iso(d.nextAttemptAt) : null,
    lastAttemptAt: iso(d.lastAttemptAt),
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
    succeededAt: iso(d.succeededAt),
  };
}

const deliveryCursor = keysetCursor('whd', { createdAt: 'instant', id: 'id' });

type Side = 'business' | 'person';

/** What an operation's body is handed: the transaction, whose endpoints, and the types they may choose. */
interface Owned {
  q: Queryable;
  owner: WebhookOwner;
  whose: string;
}

/** The one opening: a business's owners and managers (inBusiness), or the person themselves. */
function owned<T>(
  ctx: OperationContext,
  side: Side,
  businessId: string | undefined,
  need: 'read' | 'change',
  body: (o: Owned) => Promise<T>,
): Promise<T> {
  if (side === 'business')
    return inBusiness(ctx, businessId, need, ({ q, access }) =>
      body({ q, owner: { businessId: access.business.id }, whose: `${access.business.name}'s` }),
    );
  return transaction(ctx.deps.sql, (q) => body({ q, owner: { personId: ctx.auth!.userId }, whose: 'your' }));
}

function noEndpoint(endpointId: string, whose: string): ServiceError {
  return new ServiceError('NOT_FOUND', `No webhook endpoint ${endpointId} among ${whose} endpoints.`, {
    endpointId,
  });
}

/** The five operations for one kind of owner. */
function webhookOperations(side: Side) {
  const biz = side === 'business';
  const base = biz ? '/v1/business/webhooks' : '/v1/webhooks';
  const tool = (business: string, person: string) => (biz ? business : person);
  const opId = (name: string) => (biz ? name : name.replace(/Webhook/, 'MyWebhook'));
  const auth = { scope: biz ? ('business:manage' as const) : ('bookings:read' as const) };
  const tag = biz ? 'Run' : 'Webhooks';
  // A business's assistant keeps its endpoints; deliveries, redelivery and a person's own endpoints
  // are a developer's, on /v1 (docs/decisions.md, "Two MCP endpoints").
  const listed = biz ? ('business' as const) : ('none' as const);
  const who = biz
    ? 'Owners and managers of the business only.'
    : "The person's own endpoints: they receive the events of the person's own bookings and orders.";
  const types = biz ? BUSINESS_EVENT_TYPES : PERSON_EVENT_TYPES;
  const businessShape = biz ? RunBusinessIdShape : {};
  const errors = biz
    ? RUN_ACCESS_ERRORS
    : [
        { status: 400, description: 'Invalid input.' },
        { status: 401, description: 'No or an invalid credential.' },
        { status: 403, description: 'The credential lacks bookings:read.' },
        { status: 429, description: 'Too many requests.' },
      ];
  const with404 = [
    ...errors.filter((e) => e.status !== 404),
    {
      status: 404,
      description: `No such webhook endpoint or delivery of ${biz ? "the business's" : "the person's"}.`,
    },
  ];
  const EndpointIdShape = { endpointId: IdSchema('The endpoint (`whe_…`).', 'whe_x7k2m9q4') };

  const create = defineOperation({
    operationId: opId('createWebhookEndpoint'),
    toolName: tool('create_webhook_endpoint', 'create_my_webhook_endpoint'),
    title: biz
      ? 'Register a webhook endpoint for the business'
      : 'Register a webhook endpoint for your own bookings',
    tag,
    mcp: listed,
    method: 'POST',
    path: base,
    inputIn: 'body',
    auth,
    description:
      `Registers a URL that NogPets POSTs ${biz ? "the business's events" : "the events of the person's own bookings and orders"} to, ` +
      'signed as Standard Webhooks specifies (`webhook-id` is the event id: de-duplicate on it; `webhook-timestamp`; ' +
      '`webhook-signature` `v1,` HMAC-SHA256 with the secret). The body is `{type, timestamp, data}` with the event ' +
      'envelope in `data` (docs/events.md). `eventTypes` chooses the types (`*`: all). The answer holds `secret` ' +
      '(`whsec_…`) ONCE: keep it, it is never shown again. A 2xx answer within 10 s is a delivery; anything else is ' +
      `retried with backoff for about three days (${MAX_WEBHOOK_ATTEMPTS} attempts), and an endpoint failing that long ` +
      `is disabled and its owner mailed. https only in production; private, loopback, link-local and metadata ` +
      `addresses are refused. At most ${MAX_WEBHOOK_ENDPOINTS} endpoints. ${who}`,
    input: z
      .object({
        ...businessShape,
        url: z.string().min(1).max(MAX_WEBHOOK_URL).meta({
          description: 'An https URL of a public host (its name must resolve to public addresses).',
          example: 'https://hooks.example.com/nogpets',
        }),
        eventTypes: z
          .array(z.enum([ALL_EVENTS, ...types] as [string, ...string[]]))
          .min(1)
          .max(40)
          .meta({ description: `Types to receive, or \`*\` for all: ${types.join(', ')}.` }),
        description: singleLine(200)
          .optional()
          .meta({ description: 'What it is for, to tell endpoints apart.' }),
      })
      .strict(),

    output: CreatedSchema,
    successStatus: 201,
    errors: [
      ...errors,
      {
        status: 400,
        description:
          'A URL that is not https, or whose host is private, loopback or link-local; too many endpoints.',
      },
    ],
    events: [],
    annotations: CHANGES,
    async handler(ctx, input) {
      const settings = ctx.deps.webhooks ?? DEFAULT_WEBHOOK_SETTINGS;
      const eventTypes = input.eventTypes.includes(ALL_EVENTS)
        ? [ALL_EVENTS]
        : [...new Set(input.eventTypes)];
      const bizId = (input as { businessId?: string }).businessId;
      // Access first (a crew member learns nothing of the URL check), then the URL outside the
      // transaction (DNS may take seconds), then the write.
      if (biz) await owned(ctx, side, bizId, 'change', async () => undefined);
      const url = await checkWebhookUrl(input.url, settings);
      return owned(ctx, side, bizId, 'change', async ({ q, owner, whose }) => {
        const count = await lockAndCountWebhookEndpoints(q, owner);
        if (count >= MAX_WEBHOOK_ENDPOINTS)
          throw new ServiceError(
            'BAD_REQUEST',
            `${whose[0]!.toUpperCase()}${whose.slice(1)} ${count} webhook endpoints are the most there may be: delete one first.`,
            { limit: MAX_WEBHOOK_ENDPOINTS, fields: [{ field: 'url', message: 'too many endpoints' }] },
          );
        const secret = newWebhookSecret();
        const row = await insertWebhookEndpoint(
          q,
          {
            id: newId('whe'),
            owner,
            url,
            description: input.description || null,
            eventTypes,
            secret,
            createdBy: ctx.auth!.userId,
          },
          ctx.deps.clock.now(),
        );
        await auditChange(ctx, q, 'webhook.endpoint.create', row.id, { ...owner, url, eventTypes });
        return {
          ...toEndpoint(row),
          secret,
          message: `Webhook endpoint ${row.id} registered for ${eventTypes.join(', ')}. Keep the secret now: it is not shown again.`,
        };
      });
    },
  });

  const list = defineOperation({
    operationId: opId('listWebhookEndpoints'),
    toolName: tool('list_webhook_endpoints', 'list_my_webhook_endpoints'),
    title: biz ? "The business's webhook endpoints" : 'Your webhook endpoints',
    tag,
    mcp: listed,
    method: 'GET',
    path: base,
    inputIn: 'query',
    auth,
    description: `The webhook endpoints registered, oldest first, with their status (never their secrets). ${who}`,
    input: z.object({ ...businessShape }).strict(),
    output: EndpointListSchema,

    successStatus: 200,
    errors,
    annotations: READ_ONLY,
    async handler(ctx, input) {
      return owned(
        ctx,
        side,
        (input as { businessId?: string }).businessId,
        'read',
        async ({ q, owner }) => ({
          endpoints: (await listEndpointRows(q, owner)).map(toEndpoint),
          limit: MAX_WEBHOOK_ENDPOINTS,
        }),
      );
    },
  });

  const remove = defineOperation({
    operationId: opId('deleteWebhookEndpoint'),
    toolName: tool('delete_webhook_endpoint', 'delete_my_webhook_endpoint'),
    title: biz ? "Delete a business's webhook endpoint" : 'Delete your webhook endpoint',
    tag,
    mcp: listed,
    method: 'POST',
    path: `${base}/:endpointId/delete`,
    inputIn: 'body',
    auth,
    description: `Deletes a webhook endpoint and its deliveries: nothing more is sent to it, retries included. ${who}`,
    input: z.object({ ...businessShape, ...EndpointIdShape }).strict(),
    output: DeletedSchema,

    successStatus: 200,
    errors: with404,
    events: [],
    annotations: REMOVES,
    async handler(ctx, input) {
      return owned(
        ctx,
        side,
        (input as { businessId?: string }).businessId,
        'change',
        async ({ q, owner, whose }) => {
          const endpoint = await findWebhookEndpoint(q, owner, input.endpointId);
          if (!endpoint || !(await deleteEndpointRow(q, owner, endpoint.id)))
            throw noEndpoint(input.endpointId, whose);
          await auditChange(ctx, q, 'webhook.endpoint.delete', endpoint.id, { ...owner, url: endpoint.url });
          return {
            endpointId: endpoint.id,
            deleted: true as const,
            message: `Webhook endpoint ${endpoint.id} (${endpoint.url}) deleted: nothing more is sent to it.`,
          };
        },
      );
    },
  });

  const deliveries = defineOperation({
    operationId: opId('listWebhookDeliveries'),
    toolName: tool('list_webhook_deliveries', 'list_my_webhook_deliveries'),
    title: biz ? "A business webhook endpoint's deliveries" : "Your webhook endpoint's deliveries",
    tag,
    mcp: 'none',
    method: 'GET',
    path: `${base}/:endpointId/deliveries`,
    inputIn: 'query',
    auth,
    description:
      'The deliveries of one endpoint, newest first: each event sent (or to send), its attempts, the last HTTP status ' +
      'or error, and when it is tried next. `status` filters; `limit` 1 to 50 (default 20); send `next` back as ' +
      `\`cursor\` for older ones. ${who}`,
    input: z
      .object({
        ...businessShape,
        ...EndpointIdShape,
        status: z.enum(['PENDING', 'SUCCEEDED', 'FAILED']).optional(),
        limit: z.int().min(1).max(50).default(20),
        cursor: z
          .string()
          .min(1)
          .max(400)
          .optional()
          .meta({ description: 'The `next` of the previous page.' }),
      })
      .strict(),
    output: DeliveryListSchema,
    successStatus: 200,
    errors: with404,
    annotations: READ_ONLY,
    async handler(ctx, input) {
      const after = deliveryCursor.after(input.cursor);
      return owned(
        ctx,
        side,
        (input as { businessId?: string }).businessId,
        'read',
        async ({ q, owner, whose }) => {
          const endpoint = await findWebhookEndpoint(q, owner, input.endpointId);
          if (!endpoint) throw noEndpoint(input.endpointId, whose);
          const rows = await listDeliveryRows(q, endpoint.id, {
            limit: input.limit + 1,
            after,
            status: input.status,
          });
          const page = rows.slice(0, input.limit);
          const last = page.at(-1);
          return {
            endpointId: endpoint.id,
            deliveries: page.map(toDelivery),
            next:
              rows.length > input.limit && last
                ? deliveryCursor.of({ createdAt: last.createdAt, id: last.id })
                : null,
          };
        },
      );
    },
  });

  const redeliver = defineOperation({
    operationId: opId('redeliverWebhook'),
    toolName: tool('redeliver_webhook', 'redeliver_my_webhook'),
    title: biz ? 'Send a business webhook again' : 'Send your webhook again',
    tag,
    mcp: 'none',
    method: 'POST',
    path: `${base}/deliveries/:deliveryId/redeliver`,
    inputIn: 'body',
    auth,
    description:
      'Sends a delivery again now, as a new round of attempts with the same event id (receivers that saw it ignore ' +
      `it); on a DISABLED endpoint it enables the endpoint again. ${who}`,
    input: z
      .object({ ...businessShape, deliveryId: IdSchema('The delivery (`whd_…`).', 'whd_p3n8c2r5') })
      .strict(),
    output: RedeliverySchema,
    successStatus: 200,
    errors: with404,
    events: [],
    annotations: CHANGES,
    async handler(ctx, input) {
      return owned(
        ctx,
        side,
        (input as { businessId?: string }).businessId,
        'change',
        async ({ q, owner, whose }) => {
          const found = await lockWebhookDelivery(q, owner, input.deliveryId);
          if (!found)
            throw new ServiceError(
              'NOT_FOUND',
              `No webhook delivery ${input.deliveryId} among ${whose} endpoints'.`,
              {
                deliveryId: input.deliveryId,
              },
            );
          const enabled = found.endpointStatus === 'DISABLED';
          if (enabled) await enableWebhookEndpoint(q, found.endpointId);
          const row = await requeueWebhookDelivery(q, found.id, ctx.deps.clock.now());
          await auditChange(ctx, q, 'webhook.delivery.redeliver', row.id, {
            ...owner,
            endpointId: row.endpointId,
          });
          return {
            delivery: toDelivery(row),
            endpointEnabled: enabled,
            message: `Delivery ${row.id} (${row.eventType}) will be sent again within a minute${enabled ? '; its endpoint is enabled again' : ''}.`,
          };
        },
      );
    },
  });

  return { create, list, remove, deliveries, redeliver };
}

const business = webhookOperations('business');
const person = webhookOperations('person');

export const createWebhookEndpoint = business.create;
export const listWebhookEndpoints = business.list;
export const deleteWebhookEndpoint = business.remove;
export const listWebhookDeliveries = business.deliveries;
export const redeliverWebhook = business.redeliver;

export const createMyWebhookEndpoint = person.create;
export const listMyWebhookEndpoints = person.list;
export const deleteMyWebhookEndpoint = person.remove;
export const listMyWebhookDeliveries = person.deliveries;
export const redeliverMyWebhook = person.redeliver;
