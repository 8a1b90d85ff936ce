import { ServiceError } from '@nogpets/operations';
import type { NextFunction, Request, Response } from 'express';
import pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { watchConnections } from './connections.js';

export interface RateLimiter {
  middleware: (req: Request, res: Response, next: NextFunction) => void;
  /** A counter of failures (sign-in attempts, say) in the same shared store. */
  failures(name: string, points: number, windowSec: number): FailureCounter;
  close(): Promise<void>;
}

export interface FailureCounter {
  /** Seconds until `key` may try again; 0 when it may now. */
  blockedFor(key: string): Promise<number>;
  /** Counts one failure of `key`. */
  fail(key: string): Promise<void>;
  /** Forgets `key`'s failures (after a success). */
  clear(key: string): Promise<void>;
}

export interface RateLimitOptions {
  databaseUrl: string;
  /** Named prepared statements (rate-limiter-flexible names its queries); false behind a transaction-mode pooler. */
  prepare?: boolean;
  points: number;
  windowSec: number;
}

interface Held {
  /** Points reserved in PostgreSQL and not yet spent by this instance. */
  left: number;
  /** What the client may still spend in this window, as last known. */
  remaining: number;
  resetAt: number;
  /** Set when the window is spent: refuse from memory until it resets. */
  refused: boolean;
}

type Decision = { ok: true; remaining: number; msBeforeNext: number } | { ok: false; msBeforeNext: number };

/**
 * A pg pool whose queries are never named: node-postgres prepares a named query once per
 * connection and reuses it by name, which a pooler in transaction mode breaks (the next
 * transaction runs on another server connection: "prepared statement … does not exist" or
 * "… already exists"). Unnamed, each query is parsed where it runs.
 */
export function unnamedQueries(pool: pg.Pool): Pick<pg.Pool, 'query'> {
  return {
    query: ((q: pg.QueryConfig | string, values?: unknown[]) =>
      typeof q === 'string'
        ? pool.query(q, values)
        : pool.query({ text: q.text, values: q.values ?? values })) as pg.Pool['query'],
  };
}

/**
 * The rate limiter's own pool (node-postgres, as rate-limiter-flexible wants), bounded like the
 * main pool: while PostgreSQL is unreachable a request waits seconds here, not the operating
 * system's two-minute connect timeout (docs/reliability.md). `store` is what the limiter queries
 * through: the pool, or with `prepare: false` the pool with its queries unnamed.
 */
export function rateLimitPool(
  databaseUrl: string,
  options: { prepare?: boolean; max?: number } = {},
): { pool: pg.Pool; store: Pick<pg.Pool, 'query'> } {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.max ?? 4,
    application_name: 'nogpets-ratelimit',
    connectionTimeoutMillis: 5_000,
    query_timeout: 10_000,
    statement_timeout: 10_000,
  });
  // A broken idle connection must not take the process down; the next query reconnects.
  pool.on('error', () => {});
  return { pool, store: (options.prepare ?? true) ? pool : unnamedQueries(pool) };
}

/**
 * Requests per client address per window, counted in PostgreSQL (rate-limiter-flexible's
 * RateLimiterPostgres) so every instance shares one count. Answers carry the IETF draft
 * `RateLimit-*` headers; a refusal is 429 `RateLimited` with `Retry-After`.
 *
 * A busy instance reserves points in small blocks (at most 1/50 of the limit; 1 for small limits,
 * which stay exact) and spends them locally, and remembers a spent window until it resets, so the
 * counter row is not written on every request. An instance holds at most block-1 unspent points.
 */
export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const { pool, store } = rateLimitPool(options.databaseUrl, { prepare: options.prepare });
  const connectionsClosed = watchConnections(pool);
  const limiter = new RateLimiterPostgres({
    storeClient: store,
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true, // created by migration 0001, so instances never race to create it
    clearExpiredByTimeout: false, // the worker purges expired rows
    keyPrefix: 'rl',
    points: options.points,
    duration: options.windowSec,
  });
  const policy = `${options.points};w=${options.windowSec}`;
  const block = Math.max(1, Math.min(50, Math.floor(options.points / 50)));
  const held = new Map<string, Held>();
  const refilling = new Map<string, Promise<void>>();

  async function refill(key: string): Promise<void> {
    let result: RateLimiterRes;
    let taken = block;
    try {
      result = await limiter.consume(key, block);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      if (block === 1) {
        held.set(key, { left: 0, remaining: 0, resetAt: Date.now() + err.msBeforeNext, refused: true });
        return;
      }
      // Not a whole block left: give it back and take the last points one at a time, exactly.
      await limiter.reward(key, block);
      try {
        result = await limiter.consume(key, 1);
        taken = 1;
      } catch (last) {
        if (!(last instanceof RateLimiterRes)) throw last;
        held.set(key, { left: 0, remaining: 0, resetAt: Date.now() + last.msBeforeNext, refused: true });
        return;
      }
    }
    if (held.size > 10_000) held.clear(); // bounded memory under address churn
    held.set(key, {
      left: taken,
      remaining: result.remainingPoints + taken,
      resetAt: Date.now() + result.msBeforeNext,
      refused: false,
    });
  }

  async function decide(key: string): Promise<Decision> {
    for (;;) {
      const now = Date.now();
      const h = held.get(key);
      if (h && h.resetAt > now) {
        if (h.refused) return { ok: false, msBeforeNext: h.resetAt - now };
        if (h.left > 0) {
          h.left -= 1;
          h.remaining = Math.max(0, h.remaining - 1);
          return { ok: true, remaining: h.remaining, msBeforeNext: h.resetAt - now };
        }
      }
      // One refill per key at a time; the others wait for it and look again.
      let pending = refilling.get(key);
      if (!pending) {
        pending = refill(key).finally(() => refilling.delete(key));
        refilling.set(key, pending);
      }
      await pending;
    }
  }

  const setHeaders = (res: Response, remaining: number, msBeforeNext: number) => {
    res.setHeader('RateLimit-Policy', policy);
    res.setHeader('RateLimit-Limit', String(options.points));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, remaining)));
    res.setHeader('RateLimit-Reset', String(Math.ceil(msBeforeNext / 1000)));
  };

  return {
    middleware(req, res, next) {
      const key = req.ip ?? req.socket.remoteAddress ?? 'unknown';
      decide(key).then(
        (d) => {
          if (d.ok) {
            setHeaders(res, d.remaining, d.msBeforeNext);
            next();
            return;
          }
          setHeaders(res, 0, d.msBeforeNext);
          const retryAfter = Math.max(1, Math.ceil(d.msBeforeNext / 1000));
          res.setHeader('Retry-After', String(retryAfter));
          next(
            new ServiceError('RateLimited', `Too many requests. Try again in ${retryAfter} seconds.`, {
              limit: options.points,
              windowSeconds: options.windowSec,
              retryAfterSeconds: retryAfter,
            }),
          );
        },
        (err: unknown) => {
          // The counter store failed: serve the request rather than refuse everyone (fail open).
          req.log?.warn({ err }, 'rate limiter unavailable; request let through');
          next();
        },
      );
    },
    failures(name, points, windowSec) {
      const counter = new RateLimiterPostgres({
        storeClient: store,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix: `fail-${name}`,
        points,
        duration: windowSec,
      });
      // Like the request limiter, a failing store lets people through rather than lock everyone out.
      return {
        async blockedFor(key) {
          const res = await counter.get(key).catch(() => null);
          return res && res.consumedPoints >= points ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 0;
        },
        async fail(key) {
          await counter.penalty(key, 1).catch(() => {});
        },
        async clear(key) {
          await counter.delete(key).catch(() => {});
        },
      };
    },
    async close() {
      await pool.end();
      // Closed, not only asked to close, before PostgreSQL may be stopped.
      await connectionsClosed(5_000);
    },
  };
}
