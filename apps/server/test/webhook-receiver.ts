// A webhook receiver on loopback for the webhook and fault tests: it keeps every POST, checks its
// Standard Webhooks signature (`standardwebhooks`) against the secret of its path, and answers as
// `behave` says for that path (200 unless told: a status, or 'hang' to never answer).
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  path: string;
  /** The `webhook-id` header: the event's id, the same on every attempt. */
  id: string;
  type: string;
  verified: boolean;
  headers: Record<string, string>;
  body: string;
  /** The body parsed (null when it is no JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: tests read any field of what was sent
  json: any;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port><path>`, for an endpoint's URL. */
  url(path: string): string;
  /** The secret each path's signatures are checked with (`whsec_…`, as registration shows it once). */
  secrets: Map<string, string>;
  received: ReceivedWebhook[];
  /** What was POSTed to `path`, in order. */
  at(path: string): ReceivedWebhook[];
  /** How a path answers its n-th POST (1-based): a status, or 'hang'. */
  behave: Map<string, (n: number) => number | 'hang'>;
  port: number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const secrets = new Map<string, string>();
  const behave = new Map<string, (n: number) => number | 'hang'>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = req.headers as Record<string, string>;
      let verified = false;
      const secret = secrets.get(path);
      if (secret) {
        try {
          new Webhook(secret).verify(body, headers);
          verified = true;
        } catch {}
      }
      let json: { type?: unknown } | null = null;
      try {
        json = JSON.parse(body) as { type?: unknown };
      } catch {}
      const type = String(json?.type ?? '');
      received.push({ path, id: headers['webhook-id'] ?? '', type, verified, headers, body, json });
      const n = received.filter((r) => r.path === path).length;
      const answer = behave.get(path)?.(n) ?? 200;
      if (answer === 'hang') return; // never answers: the sender's timeout ends it
      res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    secrets,
    received,
    at: (path) => received.filter((r) => r.path === path),
    behave,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
