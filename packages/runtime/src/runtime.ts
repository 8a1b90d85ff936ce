import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import {
  type Clock,
  createOfferCache,
  createPayFastGateway,
  createSandboxGateway,
  type Deps,
  loadGeoData,
  PAYFAST_SOURCES,
  type PaymentGateway,
  systemClock,
} from '@nogpets/operations';
import {
  type Database,
  loadDemoData,
  MIGRATIONS_DIR,
  migrate,
  openDatabase,
  type Sql,
  settingOrCreate,
} from '@nogpets/store';
import type { Config } from './env.js';
import type { Logger } from './logger.js';
import { createMailTransport } from './mail.js';
import { createMetrics, type Metrics } from './metrics.js';
import { createRateLimiter, type RateLimiter } from './rate-limit.js';

export interface Runtime {
  config: Config;
  logger: Logger;
  db: Database;
  deps: Deps;
  metrics: Metrics;
  rateLimiter: RateLimiter;
  /** The address people and assistants use (known once listening; PUBLIC_URL when set). */
  publicUrl(): string;
  setPublicUrl(url: string): void;
  ready(): Promise<boolean>;
  draining(): boolean;
  /** Marks the runtime as draining, then closes the rate limiter's pool and the database. */
  close(): Promise<void>;
  beginDrain(): void;
}

export interface RuntimeOptions {
  config: Config;
  logger: Logger;
  /** Where `.data/` lives when no DATABASE_URL is set. */
  dataDir: string;
  clock?: Clock;
  /** Apply migrations (default: unless MIGRATE=false; the advisory lock serialises instances). */
  migrate?: boolean;
  /** Load the demo data (default: as `migrate`). */
  demoData?: boolean;
}

/** Opens the database (embedded or DATABASE_URL), migrates, loads demo data, builds the deps. */
export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { config, logger } = options;
  const migrating = options.migrate ?? config.MIGRATE !== false;
  const db = await openDatabase({
    databaseUrl: poolDatabaseUrl(config),
    dataDir: options.dataDir,
    embeddedPort: config.EMBEDDED_PG_PORT,
    poolMax: config.DB_POOL_MAX,
    log: (line) => logger.debug({ component: 'postgres' }, line),
    notice: (line) => logger.warn({ component: 'postgres' }, line),
  });
  try {
    await readySchema(db.sql, {
      migrate: migrating,
      demoData: options.demoData ?? migrating,
      now: (options.clock ?? systemClock).now(),
      onApplied: (applied) => logger.info({ applied }, 'migrations applied'),
    });
  } catch (err) {
    await db.close();
    throw err;
  }
  logger.info({ database: db.kind }, 'database ready');
  let publicUrl = publicBaseUrl(config);
  const deps = serviceDeps(config, db, {
    publicUrl: () => publicUrl,
    clock: options.clock ?? systemClock,
    mail: createMailTransport(
      config.SMTP_URL,
      config.MAIL_FROM ?? `NogPets <no-reply@${new URL(publicUrl).hostname}>`,
    ),
  });
  const rateLimiter = createRateLimiter({
    databaseUrl: db.url,
    prepare: preparesStatements(config),
    points: config.RATE_LIMIT_POINTS,
    windowSec: config.RATE_LIMIT_WINDOW_SEC,
  });
  let draining = false;
  let closed: Promise<void> | null = null;
  deps.stopping = () => draining;
  return {
    config,
    logger,
    db,
    deps,
    metrics: createMetrics(),
    rateLimiter,
    publicUrl: () => publicUrl,
    setPublicUrl(url) {
      publicUrl = url.replace(/\/$/, '');
    },
    async ready() {
      await db.sql`select 1`;
      return true;
    },
    draining: () => draining,
    beginDrain() {
      draining = true;
    },
    close() {
      draining = true;
      closed ??= (async () => {
        await rateLimiter.close().catch(() => {});
        deps.mail?.close?.();
        await db.close();
      })();
      return closed;
    },
  };
}

/** What the service's operations use, on an open database: one recipe for instances and the CLI. */
export function serviceDeps(
  config: Config,
  db: Database,
  options: { publicUrl: () => string; clock: Clock; mail: Deps['mail'] },
): Deps {
  return {
    sql: db.sql,
    clock: options.clock,
    offers: createOfferCache(db.sql, { ttlMs: config.OFFER_CACHE_TTL_MS }),
    geo: loadGeoData,
    payments: { gateway: paymentGateway(config, db), publicUrl: options.publicUrl },
    mail: options.mail,
    checkOutputs: config.CHECK_OUTPUTS,
    webhooks: webhookSettings(config),
  };
}

/**
 * The configured database and the service's dependencies on it, for the operator's CLI: attached
 * to the running embedded cluster of `pnpm start` if it is up (else started for the command), a
 * small pool, the schema made ready as an instance would (checked, never migrated, under
 * MIGRATE=false). Mail is not sent from here: it waits in the outbox for the worker, as it did.
 */
export async function openOperatorDeps(
  config: Config,
  options: { dataDir: string; applicationName: string },
): Promise<{ deps: Deps; close(): Promise<void> }> {
  const db = await openDatabase({
    // DB_PREPARE=false holds here too: the CLI may be given the instances' pooler address.
    databaseUrl: poolDatabaseUrl(config),
    dataDir: options.dataDir,
    attach: true,
    poolMax: 2,
    applicationName: options.applicationName,
  });
  try {
    const migrating = config.MIGRATE !== false;
    await readySchema(db.sql, { migrate: migrating, demoData: migrating, now: systemClock.now() });
  } catch (err) {
    await db.close();
    throw err;
  }
  const deps = serviceDeps(config, db, {
    publicUrl: () => publicBaseUrl(config),
    clock: systemClock,
    mail: null,
  });
  return { deps, close: () => db.close() };
}

/**
 * The connection string the service's pool opens: with DB_PREPARE=false, postgres.js's `prepare`
 * option set through its URL (postgres.js reads its options from the query; node-postgres, which
 * the rate limiter and pg-boss use on the same URL, ignores the parameter and never prepares
 * named statements on its own).
 */
export function databaseUrlFor(databaseUrl: string, prepare: boolean): string {
  if (prepare) return databaseUrl;
  const url = new URL(databaseUrl);
  url.searchParams.set('prepare', 'false');
  return url.toString();
}

/**
 * Whether the service's pools name and prepare their statements: DB_PREPARE, unless DATABASE_URL
 * already turns postgres.js's off (`prepare=false` or `disable` in its query, which postgres.js
 * obeys): the rate limiter, whose node-postgres ignores that parameter, must then not name its
 * queries either.
 */
export function preparesStatements(config: Pick<Config, 'DATABASE_URL' | 'DB_PREPARE'>): boolean {
  if (!config.DB_PREPARE) return false;
  const given = config.DATABASE_URL && new URL(config.DATABASE_URL).searchParams.get('prepare');
  return given !== 'false' && given !== 'disable';
}

/** DATABASE_URL as every pool of the service opens it (see `databaseUrlFor`); undefined for the embedded one. */
export function poolDatabaseUrl(config: Pick<Config, 'DATABASE_URL' | 'DB_PREPARE'>): string | undefined {
  return config.DATABASE_URL && databaseUrlFor(config.DATABASE_URL, preparesStatements(config));
}

/**
 * The schema a process works on, made ready: with `migrate`, this build's migrations applied (under
 * the migrations' advisory lock) and, with `demoData`, the operator's demo data; without (MIGRATE=false:
 * a release step migrates), a database lacking one of this build's migrations refused. One rule for
 * every process: instances, the release step and the CLI.
 */
export async function readySchema(
  sql: Sql,
  options: { migrate: boolean; demoData: boolean; now: Date; onApplied?: (applied: string[]) => void },
): Promise<void> {
  if (options.migrate) {
    const result = await migrate(sql);
    if (result.applied.length) options.onApplied?.(result.applied);
  } else {
    const missing = await missingMigrations(sql);
    if (missing.length) {
      throw new Error(
        `MIGRATE=false but the database lacks migrations ${missing.join(', ')}: run the release step (MIGRATE=only) first`,
      );
    }
  }
  if (options.demoData) await loadDemoData(sql, options.now);
}

/** Migrations of this build not yet applied to the database (all of them on an empty one). */
export async function missingMigrations(sql: Sql, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const [table] = await sql<{ name: string | null }[]>`select to_regclass('schema_migrations')::text as name`;
  if (!table?.name) return files;
  const done = new Set(
    (await sql<{ name: string }[]>`select name from schema_migrations`).map((r) => r.name),
  );
  return files.filter((f) => !done.has(f));
}

/** The configured gateway; the sandbox signs with a secret kept in the database (shared by every instance). */
function paymentGateway(config: Config, db: Database): PaymentGateway {
  if (config.PAYMENT_GATEWAY === 'payfast') {
    return createPayFastGateway({
      merchantId: config.PAYFAST_MERCHANT_ID!,
      merchantKey: config.PAYFAST_MERCHANT_KEY!,
      ...(config.PAYFAST_PASSPHRASE ? { passphrase: config.PAYFAST_PASSPHRASE } : {}),
      baseUrl: config.PAYFAST_URL.replace(/\/$/, ''),
      allowedSources: config.PAYFAST_SOURCES
        ? config.PAYFAST_SOURCES.split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : PAYFAST_SOURCES,
    });
  }
  let secret: Promise<string> | undefined;
  return createSandboxGateway(() => {
    secret ??= settingOrCreate(db.sql, 'sandbox_gateway_secret', () => randomBytes(32).toString('hex'));
    return secret;
  });
}

/** The service's public address as configured: PUBLIC_URL, else this machine's port (the CLI's links too). */
export function publicBaseUrl(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
}

/**
 * Where webhooks may go: https only in production (PUBLIC_URL is https: the service is served
 * publicly), plain http otherwise; loopback (and http) only with WEBHOOKS_ALLOW_LOOPBACK.
 */
export function webhookSettings(
  config: Pick<Config, 'PUBLIC_URL' | 'WEBHOOKS_ALLOW_LOOPBACK' | 'WEBHOOKS_TIMEOUT_MS'>,
): NonNullable<Deps['webhooks']> {
  return {
    allowLoopback: config.WEBHOOKS_ALLOW_LOOPBACK,
    httpsOnly: !config.WEBHOOKS_ALLOW_LOOPBACK && (config.PUBLIC_URL?.startsWith('https:') ?? false),
    timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
  };
}
