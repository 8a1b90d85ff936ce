import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Clock } from '@nogpets/operations';
import type { Express } from 'express';
import { type Config, ConfigError, loadConfig } from './env.js';
import { answerClientError, createBaseApp, finishApp } from './http.js';
import { createLogger, type Logger } from './logger.js';
import { type Runtime, startRuntime } from './runtime.js';

export interface ServiceParts {
  name: string;
  /** Adds this service's routes to the app (API, MCP, pages). */
  mount?: (app: Express, runtime: Runtime, publicUrl: () => string) => void;
  /** Starts background work (the worker); the returned function stops it. */
  background?: (runtime: Runtime) => Promise<() => Promise<void>>;
}

export interface RunningService {
  runtime: Runtime;
  server: Server;
  url: string;
  stop(): Promise<void>;
  /**
   * While `stop()` waits out SHUTDOWN_DELAY_MS: ends the wait now (the port closes and requests in
   * flight still finish) and answers true; false when there is no such wait going on.
   */
  endDelay(): boolean;
}

/** The folder holding `pnpm-workspace.yaml` above `from`, or `from` itself: where `.data/` lives. */
export function findRepoRoot(from = process.cwd()): string {
  let dir = path.resolve(from);
  for (;;) {
    if (existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(from);
    dir = parent;
  }
}

const dataDirOf = (config: Config) => config.DATA_DIR ?? path.join(findRepoRoot(), '.data');

export interface StartOptions {
  config: Config;
  logger: Logger;
  clock?: Clock;
}

/** Builds and starts one service: runtime, routes, background work, listening socket. */
export async function startService(parts: ServiceParts, options: StartOptions): Promise<RunningService> {
  const { config, logger } = options;
  const runtime = await startRuntime({
    config,
    logger,
    clock: options.clock,
    dataDir: dataDirOf(config),
  });
  const app = createBaseApp({
    logger,
    metrics: runtime.metrics,
    trustProxy: config.TRUST_PROXY,
    ready: runtime.ready,
    draining: runtime.draining,
    https: config.PUBLIC_URL?.startsWith('https:') ?? false,
    metricsToken: config.METRICS_TOKEN,
    rateLimit: runtime.rateLimiter.middleware,
    publicUrl: () => runtime.publicUrl(),
    allowedHosts: config.ALLOWED_HOSTS,
  });
  let server: Server | undefined;
  let stopBackground: (() => Promise<void>) | undefined;
  try {
    // With PORT=0 the real port is known only after listen; routes read the public URL lazily.
    parts.mount?.(app, runtime, () => runtime.publicUrl());
    finishApp(app);
    server = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(config.PORT, config.HOST, (err?: Error) => (err ? reject(err) : resolve(s)));
    });
    server.on('clientError', answerClientError);
    // Idle keep-alive connections are closed by the client or the load balancer in front (60 s is
    // the common idle timeout), not by us first: a request sent on a connection just as the server
    // closes it is lost (ECONNRESET), which Node's 5 s default makes likely under load.
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    runtime.setPublicUrl(config.PUBLIC_URL ?? `http://localhost:${port}`);
    const publicUrl = runtime.publicUrl();
    stopBackground = parts.background ? await parts.background(runtime) : undefined;
    let stopping: Promise<void> | null = null;
    let delaying: AbortController | null = null;
    const srv = server;
    return {
      runtime,
      server: srv,
      url: publicUrl,
      stop() {
        stopping ??= (async () => {
          runtime.beginDrain();
          // Behind a balancer: keep serving while /readyz says draining, so its health checks take
          // this instance out before the port closes (answers meanwhile carry Connection: close).
          if (config.SHUTDOWN_DELAY_MS > 0) {
            delaying = new AbortController();
            await delay(config.SHUTDOWN_DELAY_MS, undefined, { signal: delaying.signal }).catch(() => {});
            delaying = null;
          }
          // Stop accepting, let requests in flight finish, then close what is left.
          const closed = new Promise<void>((resolve) => srv.close(() => resolve()));
          srv.closeIdleConnections();
          const timer = setTimeout(() => srv.closeAllConnections(), config.SHUTDOWN_TIMEOUT_MS);
          await closed;
          clearTimeout(timer);
          await stopBackground?.().catch((err) => logger.error({ err }, 'background stop failed'));
          await runtime.close();
        })();
        return stopping;
      },
      endDelay() {
        if (!delaying) return false;
        delaying.abort();
        delaying = null;
        return true;
      },
    };
  } catch (err) {
    server?.close();
    await stopBackground?.().catch(() => {});
    await runtime.close();
    throw err;
  }
}

/**
 * A signal this soon after the first is the same request to stop: Ctrl-C (or a signal to the
 * process group) reaches us and `pnpm start`, which passes it on. Only a later one forces an exit,
 * except during SHUTDOWN_DELAY_MS: there the instance is still serving its full share of requests,
 * so a later signal ends the delay (the port closes, requests in flight finish) and only the next
 * one forces the exit.
 */
const REPEAT_WINDOW_MS = 1_000;

/** `main` of every app: read config, start, print the URL, stop cleanly on SIGINT, SIGTERM or SIGHUP. */
export async function runMain(parts: ServiceParts): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const logger = createLogger(config.LOG_LEVEL, `nogpets-${parts.name}`);
  if (config.MIGRATE === 'only') {
    // The release step: the migrations and the demo data, then exit; no routes, no worker.
    try {
      const runtime = await startRuntime({ config, logger, dataDir: dataDirOf(config), migrate: true });
      await runtime.close();
    } catch (err) {
      logger.fatal({ err }, 'migrations failed');
      process.stderr.write(
        `NogPets migrations failed: ${err instanceof Error ? err.message : String(err)}\n`,
      );
      process.exit(1);
    }
    process.stdout.write('NogPets migrations and demo data applied (MIGRATE=only)\n');
    process.exit(0);
  }
  let running: RunningService | undefined;
  let stoppingSince: number | null = null;
  const stop = (service: RunningService) =>
    service.stop().then(
      () => {
        logger.info({}, 'stopped');
        process.exit(0);
      },
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  const shutdown = (signal: NodeJS.Signals | 'parent exited') => {
    if (stoppingSince !== null) {
      if (performance.now() - stoppingSince <= REPEAT_WINDOW_MS) return;
      if (running?.endDelay()) {
        logger.warn({ signal }, 'signal again: shutdown delay ended, stopping now');
        stoppingSince = performance.now();
        return;
      }
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stoppingSince = performance.now();
    logger.info({ signal }, 'shutting down');
    // During the start (PostgreSQL, migrations) the start finishes first, then stops: a process
    // killed halfway would leave its PostgreSQL, in its own process group, running.
    if (running) void stop(running);
  };
  // From the first moment, so a signal during the start is a clean stop too. SIGHUP: the terminal
  // was closed.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, shutdown);
  try {
    running = await startService(parts, { config, logger });
  } catch (err) {
    // Always with its cause: a start that fails with nothing to say is no help to an operator.
    const error =
      err instanceof Error ? err : new Error(`start failed with a non-error: ${String(err)}`, { cause: err });
    logger.fatal({ err: error }, 'start failed');
    process.stderr.write(`NogPets ${parts.name} failed to start: ${error.message}\n`);
    process.exit(1);
  }
  if (stoppingSince !== null) {
    void stop(running);
    return;
  }
  logger.info({ url: running.url, database: running.runtime.db.kind }, 'listening');
  process.stdout.write(`NogPets ${parts.name} is running at ${running.url}\n`);
  // Under `pnpm start`, pnpm passes on the SIGINT or SIGTERM it gets, but when it dies without
  // doing so (SIGKILL) we are orphaned: noticing the new parent still stops the service cleanly.
  if (process.env.npm_lifecycle_event) {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent && stoppingSince === null) shutdown('parent exited');
    }, 500).unref();
  }
}
