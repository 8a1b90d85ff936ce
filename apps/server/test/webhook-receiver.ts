// A webhook receiver on loopback for the fault tests: it answers 200 to every POST, keeps each one
// and checks its Standard Webhooks signature (`standardwebhooks`) against the secret of its path.
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
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port><path>`, for an endpoint's URL. */
  url(path: string): string;
  /** The secret each path's signatures are checked with (`whsec_…`, as registration shows it once). */
  secrets: Map<string, string>;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const secrets = new Map<string, string>();
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
      let type = '';
      try {
        type = String((JSON.parse(body) as { type?: unknown }).type ?? '');
      } catch {}
      received.push({ path, id: headers['webhook-id'] ?? '', type, verified });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    secrets,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
