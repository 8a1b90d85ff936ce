/**
 * Where a webhook may be sent (docs/security.md, "Webhooks"): checked when an endpoint is
 * registered (its host resolved now) and again at every connection by the filtering agent
 * (send.ts), since a name may resolve elsewhere later (DNS rebinding).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ServiceError, type WebhookSettings } from '../core/index.js';

/** The longest endpoint URL kept. */
export const MAX_WEBHOOK_URL = 2000;

/** How long a registration waits for the host's addresses. */
const LOOKUP_TIMEOUT_MS = 5000;

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  allowLoopback: false,
  httpsOnly: true,
  timeoutMs: 10_000,
};

/** Loopback ranges the filtering agent lets through when loopback is allowed. */
export const LOOPBACK_RANGES = ['127.0.0.0/8', '::1'];

/**
 * Why an address may not receive webhooks, or null when it may: only public unicast addresses
 * (loopback too when allowed). Private, link-local (cloud metadata), CGNAT, unique-local,
 * unspecified, multicast and reserved ranges are refused, IPv4 written inside IPv6 as itself.
 */
export function addressProblem(address: string, allowLoopback: boolean): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return `${address} is not an address`;
  }
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && allowLoopback) return null;
  return `${address} is a ${range} address, not a public one`;
}

type Lookup = (host: string) => Promise<string[]>;

const systemLookup: Lookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * A name refused for what it resolves to, in the same words whether it resolves to a private
 * address or not at all: the answer must not tell a caller what the service's own resolver knows
 * of internal names (which exist, and where they point).
 */
const notPublic = (host: string) => `${host} does not resolve to a public address`;

function refuse(message: string, url: string, extra: Record<string, unknown> = {}): ServiceError {
  return new ServiceError('BAD_REQUEST', `url: ${message}.`, {
    fields: [{ field: 'url', message }],
    url: url.slice(0, 200),
    ...extra,
  });
}

/**
 * The endpoint URL as it will be kept, or 400 BAD_REQUEST naming the problem: an absolute http(s)
 * URL (https only when the settings say so), no user name or password, no fragment, a host whose
 * every address may receive webhooks (addressProblem).
 */
export async function checkWebhookUrl(
  raw: string,
  settings: WebhookSettings,
  lookup: Lookup = systemLookup,
): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('not an absolute URL', raw);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('http or https only', raw);
  if (url.protocol === 'http:' && settings.httpsOnly && !settings.allowLoopback)
    throw refuse('https only', raw);
  if (url.username || url.password) throw refuse('no user name or password in the URL', raw);
  if (url.hash) throw refuse('no fragment (#…)', raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) throw refuse('no host', raw);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await Promise.race([
        lookup(host),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('timeout')), LOOKUP_TIMEOUT_MS).unref(),
        ),
      ]);
    } catch {
      throw refuse(notPublic(host), raw, { host });
    }
    if (!addresses.length) throw refuse(notPublic(host), raw, { host });
  }
  const problems = addresses
    .map((a) => addressProblem(a, settings.allowLoopback))
    .filter((p): p is string => p !== null);
  if (problems.length) throw refuse(isIP(host) ? problems[0]! : notPublic(host), raw, { host });
  return url.toString();
}
