import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { DATABASE_RETRY_AFTER_SECONDS, ServiceError, toServiceError } from '@nogpets/operations';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import './express-request.js';
import { hostCheck } from './hosts.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

export interface BaseAppDeps {
  logger: Logger;
  metrics: Metrics;
  /** Express's 'trust proxy': a number of hops, or the proxies' addresses/CIDRs (TRUST_PROXY). */
  trustProxy: number | string[];
  /** Resolves true when the app can serve (database reachable, migrations applied). */
  ready: () => Promise<boolean>;
  /** True once shutdown has begun: readiness fails so a load balancer stops sending work. */
  draining: () => boolean;
  /** PUBLIC_URL is https: browsers are told to come back only over https (HSTS). */
  https: boolean;
  /** The Bearer token `/metrics` wants (METRICS_TOKEN); without one `/metrics` is not served. */
  metricsToken?: string;
  /** The shared request limit: `/metrics` requests without the right token count in it. */
  rateLimit: (req: Request, res: Response, next: NextFunction) => void;
  /** The public URL (read per request: with PORT=0 it is known only once listening). */
  publicUrl: () => string;
  /** ALLOWED_HOSTS: host names served besides the public URL's. */
  allowedHosts: readonly string[];
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const QUIET = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Gives each request an id (echoed in `X-Request-Id`) and a logger bound to it, made only when
 * something logs, and writes one JSON line when the response is done. Light on purpose: it runs
 * on every request (with pino-http's per-request child logger, GET /v1/services served about 20% fewer
 * requests per second in our benchmark).
 */
export function requestLogging(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      get: () => {
        child ??= logger.child({ reqId: id });
        return child;
      },
    });
    res.on('finish', () => {
      // Health checks and scrapes would drown the log; their failures (a guessed metrics token) do not.
      if (QUIET.has(req.path) && res.statusCode < 400) return;
      const responseTime = Number(process.hrtime.bigint() - started) / 1e6;
      const line = {
        reqId: id,
        req: { method: req.method, url: loggableUrl(req.originalUrl), remoteAddress: req.ip },
        res: { statusCode: res.statusCode },
        responseTime,
      };
      if (res.statusCode >= 500) logger.error(line, 'request failed');
      else logger.info(line, 'request completed');
    });
    next();
  };
}

/**
 * The headers every answer of every door carries (helmet): no sniffing, no referrer (pay links
 * carry a secret in the path), no framing, and HSTS when the public URL is https. The CSP here is
 * a baseline for JSON and for HTML that sets none; HTML routes (pages, pay, docs) set their own,
 * each with `frame-ancestors 'none'`.
 */
export function securityHeaders(options: { https: boolean }) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
      },
    },
    // Same-origin COOP would cut an assistant's sign-in popup off from the window that opened it.
    crossOriginOpenerPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
  });
}

/**
 * Refuses a request with more than one Authorization header: Node keeps only the first, so the
 * credential used could differ from the one a proxy or log in front of us looked at.
 */
export function refuseRepeatedAuthorization(req: Request, _res: Response, next: NextFunction): void {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]?.toLowerCase() === 'authorization') count += 1;
  }
  if (count > 1) {
    next(
      new ServiceError('BAD_REQUEST', 'Send one Authorization header, not several.', {
        reason: 'repeated_header',
        header: 'Authorization',
        count,
      }),
    );
    return;
  }
  next();
}

/** Equal secrets, compared in constant time (hashed first, so lengths do not show either). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * `/metrics` for a scraper holding METRICS_TOKEN: route and outcome counts are not for everyone.
 * A request without the right token is 401 and counts in the shared request limit, so the token
 * cannot be guessed at speed.
 */
function metricsRoute(app: Express, deps: BaseAppDeps, token: string): void {
  app.get('/metrics', (req, res, next) => {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1];
    if (given !== undefined && sameSecret(given, token)) {
      deps.metrics.registry.metrics().then((text) => {
        res.setHeader('Content-Type', deps.metrics.registry.contentType);
        res.send(text);
      }, next);
      return;
    }
    deps.rateLimit(req, res, (err?: unknown) => {
      if (err) next(err);
      else
        next(
          new ServiceError(
            'UNAUTHORIZED',
            'Metrics need "Authorization: Bearer <METRICS_TOKEN>".',
            given === undefined ? {} : { error: 'invalid_token' },
          ),
        );
    });
  });
}

/**
 * A request's URL as logged: without its query (sign-in link tokens, OAuth codes and states) and
 * with the secret of a pay link replaced, so logs hold no credential.
 */
export function loggableUrl(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.replace(/^\/pay\/[^/]+/, '/pay/[token]') + (url.includes('?') ? '?[query]' : '');
}

/** How long `/readyz` waits for the database before it says 503 "not ready". */
const READY_TIMEOUT_MS = 2_000;

/** `promise`, or false once `ms` have passed without it settling. */
function withTimeout(promise: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  promise.catch(() => {}); // settles after the timeout: not an unhandled rejection
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Express with what every door shares: security headers, request ids, JSON logs, metrics, health and readiness. */
export function createBaseApp(deps: BaseAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy);
  app.set('query parser', 'simple');
  // ETags are set where they pay off (cached reads, see the API routes), not hashed on every body.
  app.set('etag', false);
  app.use(securityHeaders({ https: deps.https }));
  app.use(requestLogging(deps.logger));
  app.use(deps.metrics.middleware);
  app.use(refuseRepeatedAuthorization);
  // While draining, each answer closes its connection, so keep-alive clients reconnect elsewhere.
  app.use((_req: Request, res: Response, next: NextFunction) => {
    if (deps.draining()) res.setHeader('Connection', 'close');
    next();
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    // Answers within READY_TIMEOUT_MS even while the database is away (a check that hangs is no answer).
    const ok = !deps.draining() && (await withTimeout(deps.ready(), READY_TIMEOUT_MS).catch(() => false));
    if (!ok) res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : deps.draining() ? 'draining' : 'not ready' });
  });
  // Without METRICS_TOKEN there is no /metrics: it answers 404 like any unknown route.
  if (deps.metricsToken) metricsRoute(app, deps, deps.metricsToken);
  // Every route mounted after this (API, MCP, OAuth, pages, pay) answers only requests addressed to
  // this service (DNS rebinding). Health, readiness and metrics above are exempt: balancers and
  // scrapers address an instance by its own IP.
  app.use(hostCheck({ publicUrl: deps.publicUrl, allowedHosts: deps.allowedHosts }));
  return app;
}

/** JSON bodies up to 100 kB; anything else is refused in the error shape by `finishApp`. */
export const jsonBody = express.json({
  limit: '100kb',
  strict: true,
  type: ['application/json', 'application/*+json'],
});

const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * A body sent as something other than JSON (a form, plain text, no type at all) is refused with
 * 415, not read as an empty object and answered with field errors. An empty body needs no type.
 */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  // A GET's body means nothing to us and is not read, whatever its type.
  const takesBody = req.method !== 'GET' && req.method !== 'HEAD';
  const sent =
    Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (takesBody && sent && !req.is(JSON_TYPES)) {
    next(
      new ServiceError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the body as JSON, with "Content-Type: application/json".',
        { contentType: req.get('content-type') ?? null },
      ),
    );
    return;
  }
  next();
}

export function sendError(res: Response, err: ServiceError): void {
  // RFC 6750: a 401 or 403 for a Bearer resource says what it wants.
  if (err.status === 401 || err.status === 403) {
    const params = [`realm="nogpets"`];
    if (typeof err.details.error === 'string') params.push(`error="${err.details.error}"`);
    if (typeof err.details.scope === 'string') params.push(`scope="${err.details.scope}"`);
    // RFC 9728: where an MCP or API client finds how to get a token for this resource.
    if (typeof res.locals.resourceMetadata === 'string')
      params.push(`resource_metadata="${res.locals.resourceMetadata}"`);
    res.setHeader('WWW-Authenticate', `Bearer ${params.join(', ')}`);
  }
  // A refusal to come back to later (503 while the database is away) says when.
  if (typeof err.details.retryAfterSeconds === 'number' && !res.hasHeader('Retry-After')) {
    res.setHeader('Retry-After', String(err.details.retryAfterSeconds));
  }
  res.status(err.status).json(err.toBody());
}

interface BodyParserError {
  type?: string;
  status?: number;
  /** The text that was read, on a parse failure. */
  body?: string;
}

/** Whether `text` is JSON at all (body-parser's strict mode refuses JSON that is not an object or array). */
export function isJsonText(text: string | undefined): boolean {
  if (text === undefined) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Turns what body parsing and routing throw into the spec's error shape. */
export function toHttpError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  const e = err as BodyParserError;
  switch (e?.type) {
    case 'entity.parse.failed':
      // `null`, `12` or `"text"` are JSON, but not the object every operation takes.
      return isJsonText(e.body)
        ? new ServiceError('BAD_REQUEST', 'The request body must be a JSON object ({...}).', {
            reason: 'body_not_object',
          })
        : new ServiceError('BAD_REQUEST', 'The request body is not valid JSON.', {
            reason: 'malformed_json',
          });
    case 'entity.too.large':
      return new ServiceError('PAYLOAD_TOO_LARGE', 'The request body is larger than 100 kB.', {
        limitBytes: 102400,
      });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ServiceError('BAD_REQUEST', 'The request body must be UTF-8 JSON.', {
        reason: 'unsupported_encoding',
      });
    case 'request.aborted':
      return new ServiceError('BAD_REQUEST', 'The request was aborted.', { reason: 'aborted' });
    default:
      if (e?.status && e.status >= 400 && e.status < 500) {
        return new ServiceError('BAD_REQUEST', 'The request could not be read.', {
          reason: e.type ?? 'bad_request',
        });
      }
      return toServiceError(err);
  }
}

/**
 * What Node's HTTP parser refuses before Express sees the request (URL and headers over 16 kB,
 * bytes that are not HTTP) is answered in the error shape too, not with Node's bare status line.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // An answer already started on this connection (a pipelined request) must not be cut into.
  const started =
    (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (err.code === 'ECONNRESET' || !socket.writable || started) {
    socket.destroy();
    return;
  }
  const [status, message, reason] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'The request line and headers are larger than 16 kB. Send long input in a JSON body.',
          'headers_too_large',
        ]
      : err.code === 'HPE_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request was not received in time.', 'request_timeout']
        : [400, 'The request could not be read as HTTP.', 'malformed_http'];
  const body = JSON.stringify(new ServiceError('BAD_REQUEST', message, { reason }, status).toBody());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Unknown routes are 404 in the error shape; every error leaves through here. */
export function finishApp(app: Express): void {
  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(
      new ServiceError('NOT_FOUND', `No route ${req.method} ${req.path}.`, {
        method: req.method,
        path: req.path,
      }),
    );
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const error = toHttpError(err);
    if (error.status >= 500) req.log?.error({ err }, 'request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    sendError(res, error);
  });
}
