import { randomUUID } from 'node:crypto';
import { ServiceError, toServiceError } from '@nogpets/operations';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import './express-request.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

export interface BaseAppDeps {
  logger: Logger;
  metrics: Metrics;
  trustProxy: boolean;
  /** Resolves true when the app can serve (database reachable, migrations applied). */
  ready: () => Promise<boolean>;
  /** True once shutdown has begun: readiness fails so a load balancer stops sending work. */
  draining: () => boolean;
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
    if (!QUIET.has(req.path)) {
      res.on('finish', () => {
        const responseTime = Number(process.hrtime.bigint() - started) / 1e6;
        const line = { reqId: id, req: { method: req.method, url: req.originalUrl, remoteAddress: req.ip }, res: { statusCode: res.statusCode }, responseTime };
        if (res.statusCode >= 500) logger.error(line, 'request failed');
        else logger.info(line, 'request completed');
      });
    }
    next();
  };
}

/** Express with what every door shares: request ids, JSON logs, metrics, health and readiness. */
export function createBaseApp(deps: BaseAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy);
  app.set('query parser', 'simple');
  // ETags are set where they pay off (cached reads, see the API routes), not hashed on every body.
  app.set('etag', false);
  app.use(requestLogging(deps.logger));
  app.use(deps.metrics.middleware);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const ok = !deps.draining() && (await deps.ready().catch(() => false));
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : deps.draining() ? 'draining' : 'not ready' });
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', deps.metrics.registry.contentType);
    res.send(await deps.metrics.registry.metrics());
  });
  return app;
}

/** JSON bodies up to 100 kB; anything else is refused in the error shape by `finishApp`. */
export const jsonBody = express.json({ limit: '100kb', strict: true, type: ['application/json', 'application/*+json'] });

export function sendError(res: Response, err: ServiceError): void {
  // RFC 6750: a 401 or 403 for a Bearer resource says what it wants.
  if (err.status === 401 || err.status === 403) {
    const params = [`realm="nogpets"`];
    if (typeof err.details.error === 'string') params.push(`error="${err.details.error}"`);
    if (typeof err.details.scope === 'string') params.push(`scope="${err.details.scope}"`);
    // RFC 9728: where an MCP or API client finds how to get a token for this resource.
    if (typeof res.locals.resourceMetadata === 'string') params.push(`resource_metadata="${res.locals.resourceMetadata}"`);
    res.setHeader('WWW-Authenticate', `Bearer ${params.join(', ')}`);
  }
  res.status(err.status).json(err.toBody());
}

interface BodyParserError {
  type?: string;
  status?: number;
}

/** Turns what body parsing and routing throw into the spec's error shape. */
export function toHttpError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  const e = err as BodyParserError;
  switch (e?.type) {
    case 'entity.parse.failed':
      return new ServiceError('BAD_REQUEST', 'The request body is not valid JSON.', { reason: 'malformed_json' });
    case 'entity.too.large':
      return new ServiceError('PAYLOAD_TOO_LARGE', 'The request body is larger than 100 kB.', { limitBytes: 102400 });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ServiceError('BAD_REQUEST', 'The request body must be UTF-8 JSON.', { reason: 'unsupported_encoding' });
    case 'request.aborted':
      return new ServiceError('BAD_REQUEST', 'The request was aborted.', { reason: 'aborted' });
    default:
      if (e?.status && e.status >= 400 && e.status < 500) {
        return new ServiceError('BAD_REQUEST', 'The request could not be read.', { reason: e.type ?? 'bad_request' });
      }
      return toServiceError(err);
  }
}

/** Unknown routes are 404 in the error shape; every error leaves through here. */
export function finishApp(app: Express): void {
  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(new ServiceError('NOT_FOUND', `No route ${req.method} ${req.path}.`, { method: req.method, path: req.path }));
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
