/**
 * One webhook POST: the Standard Webhooks payload and headers, signed with the endpoint's secret
 * (the `standardwebhooks` package), sent through request-filtering-agent so that a connection to
 * a private, link-local or metadata address is refused at connect time whatever the name resolves
 * to now. Redirects are not followed (a 3xx is a failure).
 */
import http from 'node:http';
import https from 'node:https';
import type { DomainEventRow } from '@nogpets/store';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { Webhook } from 'standardwebhooks';
import type { WebhookSettings } from '../core/index.js';
import { envelopeOf } from '../events/index.js';
import { LOOPBACK_RANGES } from './address.js';

/** The body of a webhook: the Standard Webhooks shape around the event's envelope. */
export function webhookPayload(event: DomainEventRow): string {
  return JSON.stringify({
    type: event.type,
    timestamp: event.occurredAt.toISOString(),
    data: envelopeOf(event),
  });
}

/** What an attempt came to: the HTTP status (null when none came back) and the failure in words. */
export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** The most of an answer's body read (then dropped): a receiver's answer is not kept. */
const MAX_ANSWER_BYTES = 64 * 1024;

const agents = new Map<boolean, { http: http.Agent; https: https.Agent }>();

/** The filtering agents (one pair per loopback setting, reused): no keep-alive, each send connects and is checked. */
function agentsFor(allowLoopback: boolean) {
  let pair = agents.get(allowLoopback);
  if (!pair) {
    const options = { keepAlive: false, allowIPAddressList: allowLoopback ? LOOPBACK_RANGES : [] };
    pair = { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
    agents.set(allowLoopback, pair);
  }
  return pair;
}

/** The headers of a signed webhook; `webhook-id` is the event's id, the same on every attempt. */
export function signedHeaders(
  secret: string,
  eventId: string,
  body: string,
  at: Date,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'NogPets-Webhooks/1.0',
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, at, body),
  };
}

/** POSTs one event to `url`; never throws: a refusal, a timeout or a non-2xx is a failed attempt. */
export function postWebhook(
  url: string,
  secret: string,
  event: DomainEventRow,
  settings: WebhookSettings,
): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ ok: false, status: null, error: 'not a URL' });
      return;
    }
    const secure = target.protocol === 'https:';
    if (!secure && (target.protocol !== 'http:' || (settings.httpsOnly && !settings.allowLoopback))) {
      resolve({ ok: false, status: null, error: 'https only' });
      return;
    }
    const body = webhookPayload(event);
    // The receiver checks the signature's time against its own clock: the real time of sending.
    const headers = signedHeaders(secret, event.id, body, new Date());
    const pair = agentsFor(settings.allowLoopback);
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = (secure ? https : http).request(
      target,
      {
        method: 'POST',
        agent: secure ? pair.https : pair.http,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const done = () => {
          const status = res.statusCode ?? null;
          const ok = status !== null && status >= 200 && status < 300;
          finish({ ok, status, error: ok ? null : `HTTP ${status}` });
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, status: null, error: `no answer within ${settings.timeoutMs} ms` });
      request.destroy();
    }, settings.timeoutMs);
    // The filtering agent's refusal names the address the host resolved to: the endpoint's owner
    // reads this error, and must not learn what the service's resolver knows of internal names.
    request.on('error', (err) =>
      finish({
        ok: false,
        status: null,
        error: /is not allowed/i.test(err.message)
          ? 'not allowed: the host does not resolve to a public address'
          : err.message.slice(0, 300),
      }),
    );
    request.end(body);
  });
}
