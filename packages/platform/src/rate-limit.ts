import { ServiceError } from '@nogpets/operations';
import type { NextFunction, Request, Response } from 'express';
import pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateLimiter {
  middleware: (req: Request, res: Response, next: NextFunction) => void;
  close(): Promise<void>;
}

export interface RateLimitOptions {
  databaseUrl: string;
  points: number;
  windowSec: number;
}

/**
 * Requests per client address per window, counted in PostgreSQL (rate-limiter-flexible's
 * RateLimiterPostgres) so every instance shares one count. Answers carry the IETF draft
 * `RateLimit-*` headers; a refusal is 429 `RateLimited` with `Retry-After`.
 */
export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4, application_name: 'nogpets-ratelimit' });
  // A broken idle connection must not take the process down; the next query reconnects.
  pool.on('error', () => {});
  const limiter = new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true, // created by migration 0001, so instances never race to create it
    clearExpiredByTimeout: false, // the worker purges expired rows
    keyPrefix: 'rl',
    points: options.points,
    duration: options.windowSec,
  });
  const policy = `${options.points};w=${options.windowSec}`;

  const setHeaders = (res: Response, r: RateLimiterRes) => {
    res.setHeader('RateLimit-Policy', policy);
    res.setHeader('RateLimit-Limit', String(options.points));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, r.remainingPoints)));
    res.setHeader('RateLimit-Reset', String(Math.ceil(r.msBeforeNext / 1000)));
  };

  return {
    middleware(req, res, next) {
      const key = req.ip ?? req.socket.remoteAddress ?? 'unknown';
      limiter.consume(key).then(
        (r) => {
          setHeaders(res, r);
          next();
        },
        (r: unknown) => {
          if (r instanceof RateLimiterRes) {
            setHeaders(res, r);
            const retryAfter = Math.max(1, Math.ceil(r.msBeforeNext / 1000));
            res.setHeader('Retry-After', String(retryAfter));
            next(
              new ServiceError(
                'RateLimited',
                `Too many requests. Try again in ${retryAfter} seconds.`,
                { limit: options.points, windowSeconds: options.windowSec, retryAfterSeconds: retryAfter },
              ),
            );
            return;
          }
          // The counter store failed: serve the request rather than refuse everyone (fail open).
          req.log?.warn({ err: r }, 'rate limiter unavailable; request let through');
          next();
        },
      );
    },
    close: () => pool.end(),
  };
}
