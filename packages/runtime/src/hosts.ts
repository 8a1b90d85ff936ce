import { isIP } from 'node:net';
import { ServiceError } from '@nogpets/operations';
import type { NextFunction, Request, Response } from 'express';

/** The loopback names, accepted when the public URL is itself on loopback. */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** A Host header (or X-Forwarded-Host entry): a name or address, an optional port, nothing else. */
const HOST_VALUE = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

/**
 * The host name of a Host header value, normalised as a URL would (lower case, IPv6 in brackets,
 * without the port or a final dot); null for anything that is not a bare host[:port] (`a@b`,
 * `a/b`, empty).
 */
export function hostnameOf(value: string): string | null {
  const trimmed = value.trim();
  if (!HOST_VALUE.test(trimmed)) return null;
  try {
    return new URL(`http://${trimmed}`).hostname.replace(/\.$/, '');
  } catch {
    return null;
  }
}

/** A name ALLOWED_HOSTS may hold (`pets.example`, `10.0.0.5`, `::1` or `[::1]`), normalised; null if not one. */
export function allowedHostEntry(value: string): string | null {
  const v = value.trim();
  // An IPv6 address may be written without brackets.
  const candidate = isIP(v) === 6 ? `[${v}]` : v;
  // A name, not a port: the check is on the name (any port), as for the public URL's own.
  if (/:\d+$/.test(candidate.replace(/^\[[^\]]*\]/, ''))) return null;
  if (candidate.startsWith('.') || candidate.includes('..')) return null;
  return hostnameOf(candidate);
}

/** An origin ALLOWED_ORIGINS may hold (`https://app.example`, `http://localhost:6274`), normalised; null if not one. */
export function allowedOriginEntry(value: string): string | null {
  const v = value.trim();
  if (!URL.canParse(v)) return null;
  const url = new URL(v);
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  return bare && (url.protocol === 'http:' || url.protocol === 'https:') ? url.origin : null;
}

const isLoopbackName = (name: string) => LOOPBACK.includes(name);

/**
 * The host names requests may name: the public URL's, the loopback names when the public URL is
 * on loopback, and ALLOWED_HOSTS.
 */
export function allowedHostnames(publicUrl: string, extra: readonly string[]): Set<string> {
  const own = new URL(publicUrl).hostname;
  return new Set([own, ...(isLoopbackName(own) ? LOOPBACK : []), ...extra]);
}

export interface HostCheckOptions {
  /** The public URL (read per request: with PORT=0 it is known only once listening). */
  publicUrl: () => string;
  /** ALLOWED_HOSTS, normalised. */
  allowedHosts: readonly string[];
}

/** The allowed host names, recomputed only when the public URL changes. */
function hostnamesFor(options: HostCheckOptions): () => { publicUrl: string; names: Set<string> } {
  let cached: { publicUrl: string; names: Set<string> } | undefined;
  return () => {
    const publicUrl = options.publicUrl();
    if (cached?.publicUrl !== publicUrl)
      cached = { publicUrl, names: allowedHostnames(publicUrl, options.allowedHosts) };
    return cached;
  };
}

/** A 403 in the error shape, without a Bearer challenge: no credential would change the answer. */
function refuse(res: Response, error: ServiceError): void {
  res.status(error.status).json(error.toBody());
}

/**
 * The host names a request was addressed to: its Host header, or behind a trusted proxy
 * (TRUST_PROXY) every entry of X-Forwarded-Host when the proxy sent one. Every entry, not just the
 * first: a proxy that appends would otherwise let the client's own entry stand in for the real one.
 */
function requestedHosts(req: Request): string[] {
  const trust = req.app.get('trust proxy fn') as
    | ((addr: string | undefined, i: number) => boolean)
    | undefined;
  const forwarded = req.get('x-forwarded-host');
  if (forwarded && trust?.(req.socket.remoteAddress, 0)) return forwarded.split(',');
  const host = req.get('host');
  return host === undefined ? [] : [host];
}

/**
 * DNS rebinding protection for every route mounted after it: a request whose Host (or trusted
 * X-Forwarded-Host) names anything but this service is refused with 403 before any handler runs.
 * A page on `evil.example` whose name was rebound to this server's address sends `Host:
 * evil.example`; a request meant for the service names the public URL's host.
 */
export function hostCheck(options: HostCheckOptions) {
  const allowed = hostnamesFor(options);
  return (req: Request, res: Response, next: NextFunction): void => {
    const hosts = requestedHosts(req);
    const { publicUrl, names } = allowed();
    if (!hosts.length) {
      refuse(
        res,
        new ServiceError(
          'BAD_REQUEST',
          `Send a Host header naming this service (${new URL(publicUrl).host}).`,
          {
            reason: 'host_missing',
          },
        ),
      );
      return;
    }
    for (const host of hosts) {
      const name = hostnameOf(host);
      if (name === null || !names.has(name)) {
        refuse(
          res,
          new ServiceError(
            'FORBIDDEN',
            `This service answers at ${publicUrl}, not at the host ${JSON.stringify(host.trim().slice(0, 100))}. ` +
              'Use that address; an operator who serves it under another name adds the name to ALLOWED_HOSTS.',
            { reason: 'host_not_allowed', host: host.trim().slice(0, 255) },
          ),
        );
        return;
      }
    }
    next();
  };
}

export interface OriginCheckOptions extends HostCheckOptions {
  /** ALLOWED_ORIGINS, normalised: browser apps on other sites allowed to call. */
  allowedOrigins: readonly string[];
}

/**
 * The MCP transport's Origin rule: a request from a browser page (it carries `Origin`) is served
 * only when that page is on one of this service's own hosts (any port) or in ALLOWED_ORIGINS;
 * otherwise 403. Requests without `Origin` (assistants, servers, command-line clients) pass.
 */
export function originCheck(options: OriginCheckOptions) {
  const allowed = hostnamesFor(options);
  const origins = new Set(options.allowedOrigins);
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.get('origin');
    if (origin === undefined) {
      next();
      return;
    }
    const { publicUrl, names } = allowed();
    const url = URL.canParse(origin) ? new URL(origin) : null;
    const ok =
      url !== null &&
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      (origins.has(url.origin) || names.has(url.hostname));
    if (ok) {
      next();
      return;
    }
    refuse(
      res,
      new ServiceError(
        'FORBIDDEN',
        `Requests from pages on ${JSON.stringify(origin.slice(0, 100))} are refused: only pages of ${publicUrl} may call it from a browser. ` +
          "An operator who runs a browser-based client elsewhere adds that page's origin to ALLOWED_ORIGINS.",
        { reason: 'origin_not_allowed', origin: origin.slice(0, 255) },
      ),
    );
  };
}
