/**
 * From events to deliveries (the fan-out) and from deliveries to POSTs (the send pass), as the
 * worker runs them (internal/jobs.ts). docs/decisions.md, "Webhooks".
 */
import {
  advanceEventReader,
  type ClaimedWebhookDelivery,
  claimWebhookDeliveries,
  type DomainEventRow,
  disableWebhookEndpoint,
  enabledWebhookEndpointsFor,
  insertMail,
  insertWebhookDeliveries,
  lockWebhookEndpoint,
  markWebhookEndpointSucceeded,
  newId,
  recordWebhookAttempt,
  takeEvents,
  transaction,
  type WebhookEndpointRow,
  webhookOwnerEmails,
} from '@nogpets/store';
import type { Deps } from '../core/index.js';
import { DEFAULT_WEBHOOK_SETTINGS } from './address.js';
import { type AttemptResult, postWebhook } from './send.js';
import { endpointWants } from './types.js';

/** The event reader of the fan-out (migration 0042 registers it). */
export const WEBHOOK_READER = 'webhooks';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The wait after each failed attempt: Standard Webhooks' suggested schedule (5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, 10 h) with five more 10 h waits, so a delivery is tried 13 times over about
 * three days (77 h 35 min) before it is given up.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
];
export const MAX_WEBHOOK_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** A claimed attempt is the sender's this long; a worker killed mid-send leaves it due again after. */
export const WEBHOOK_LEASE_MS = 5 * MINUTE;

/** Events taken at a time by the fan-out; deliveries claimed at a time, and sent at once, by a send pass. */
const EVENT_BATCH = 500;
const SEND_BATCH = 20;
/** A fan-out run or a send pass stops after this long (the job's run must end well within its expiry). */
const SEND_PASS_MS = 45 * SECOND;

/**
 * Reads the next final events with the `webhooks` reader and writes one delivery per enabled
 * endpoint that wants each, in the transaction that moves the reader's bookmark: a delivery exists
 * for exactly the events read, once (unique endpoint and event).
 */
export async function fanOutWebhookEvents(deps: Deps): Promise<{ events: number; deliveries: number }> {
  let events = 0;
  let deliveries = 0;
  const started = Date.now();
  while (Date.now() - started < SEND_PASS_MS && !deps.stopping?.()) {
    const taken = await transaction(deps.sql, async (q) => {
      const now = deps.clock.now();
      const { events: batch, next } = await takeEvents(q, WEBHOOK_READER, EVENT_BATCH);
      if (!next) return { events: 0, deliveries: 0 };
      const endpoints = await enabledWebhookEndpointsFor(
        q,
        [...new Set(batch.flatMap((e) => (e.businessId ? [e.businessId] : [])))],
        [...new Set(batch.flatMap((e) => (e.personId ? [e.personId] : [])))],
      );
      const rows = deliveriesOf(batch, endpoints);
      const made = await insertWebhookDeliveries(q, rows, now);
      await advanceEventReader(q, WEBHOOK_READER, next, now);
      return { events: batch.length, deliveries: made };
    });
    events += taken.events;
    deliveries += taken.deliveries;
    if (taken.events < EVENT_BATCH) break;
  }
  return { events, deliveries };
}

/** The deliveries a batch of events makes: one per (endpoint wanting it, event). */
export function deliveriesOf(events: DomainEventRow[], endpoints: WebhookEndpointRow[]) {
  return events.flatMap((event) =>
    endpoints
      .filter((endpoint) => endpointWants(endpoint, event))
      .map((endpoint) => ({
        id: newId('whd'),
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
      })),
  );
}

/** What follows a failed attempt: the next try, or giving up after the last. */
export function afterFailure(
  attempt: number,
  now: Date,
): { status: 'PENDING' | 'FAILED'; nextAttemptAt: Date | null } {
  const wait = RETRY_DELAYS_MS[attempt - 1];
  return wait === undefined
    ? { status: 'FAILED', nextAttemptAt: null }
    : { status: 'PENDING', nextAttemptAt: new Date(now.getTime() + wait) };
}

/**
 * Sends the deliveries due: claims a batch (skip locked, so two workers never send one delivery at
 * once), POSTs them at once, records each outcome; again until none is due or the pass's time is up.
 */
export async function sendDueWebhooks(
  deps: Deps,
  passMs = SEND_PASS_MS,
): Promise<{ sent: number; failed: number; gaveUp: number; disabled: number }> {
  const settings = deps.webhooks ?? DEFAULT_WEBHOOK_SETTINGS;
  const counts = { sent: 0, failed: 0, gaveUp: 0, disabled: 0 };
  const started = Date.now();
  while (Date.now() - started < passMs && !deps.stopping?.()) {
    const now = deps.clock.now();
    const claimed = await claimWebhookDeliveries(
      deps.sql,
      now,
      new Date(now.getTime() + WEBHOOK_LEASE_MS),
      SEND_BATCH,
    );
    if (!claimed.length) break;
    await Promise.all(
      claimed.map(async (d) => {
        const result = await postWebhook(d.url, d.secret, d.event, settings);
        const outcome = await recordAttempt(deps, d, result);
        counts[outcome]++;
        if (outcome === 'gaveUp' && (await disableIfDead(deps, d))) counts.disabled++;
      }),
    );
    if (claimed.length < SEND_BATCH) break;
  }
  return counts;
}

async function recordAttempt(
  deps: Deps,
  d: ClaimedWebhookDelivery,
  result: AttemptResult,
): Promise<'sent' | 'failed' | 'gaveUp'> {
  const now = deps.clock.now();
  if (result.ok) {
    await transaction(deps.sql, async (q) => {
      if (
        await recordWebhookAttempt(
          q,
          d.id,
          d.attempts,
          { status: 'SUCCEEDED', nextAttemptAt: null, httpStatus: result.status, error: null },
          now,
        )
      )
        await markWebhookEndpointSucceeded(q, d.endpointId, now);
    });
    return 'sent';
  }
  const next = afterFailure(d.attempts, now);
  await recordWebhookAttempt(
    deps.sql,
    d.id,
    d.attempts,
    { ...next, httpStatus: result.status, error: result.error },
    now,
  );
  return next.status === 'FAILED' ? 'gaveUp' : 'failed';
}

/**
 * A delivery given up after every attempt (about three days) on an endpoint that has had no
 * success since that delivery was made: the endpoint is dead. It is disabled and its owner (the
 * person, or the business's owners) mailed, in one transaction. Answers whether it was disabled now.
 */
async function disableIfDead(deps: Deps, d: ClaimedWebhookDelivery): Promise<boolean> {
  return transaction(deps.sql, async (q) => {
    const endpoint = await lockWebhookEndpoint(q, d.endpointId);
    if (endpoint?.status !== 'ENABLED') return false;
    if (endpoint.lastSuccessAt && endpoint.lastSuccessAt >= d.createdAt) return false;
    const now = deps.clock.now();
    const reason = `Every attempt to deliver event ${d.event.id} (${d.event.type}) failed for about three days, with no delivery succeeding since.`;
    await disableWebhookEndpoint(q, endpoint.id, reason, now);
    const whose = endpoint.businessId ? `your business's webhook endpoint` : 'your webhook endpoint';
    for (const to of await webhookOwnerEmails(q, endpoint)) {
      await insertMail(
        q,
        {
          to,
          subject: 'NogPets disabled a webhook endpoint that kept failing',
          // Its own kind: retried with backoff and listed for the operator if it fails for good.
          kind: 'webhook_disabled',
          // The host only: a URL's path may carry the receiver's own secret.
          body:
            `NogPets has disabled ${whose} ${endpoint.id} (at ${new URL(endpoint.url).host}).\n\n${reason}\n\n` +
            'No more events are sent to it. Once it answers again, redeliver a failed delivery ' +
            '(redeliver_webhook) to enable it, or delete it and register a new one.\n',
        },
        now,
      );
    }
    return true;
  });
}
