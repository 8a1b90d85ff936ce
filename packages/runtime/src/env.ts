import { isIP } from 'node:net';
import { payfastSettingProblems } from '@nogpets/operations';
import { z } from 'zod';
import { allowedHostEntry, allowedOriginEntry } from './hosts.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An address or CIDR range (`10.0.0.0/8`, `::1`). */
const isAddressOrRange = (value: string) => {
  const [addr = '', bits, ...rest] = value.split('/');
  const kind = isIP(addr);
  if (!kind || rest.length) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (kind === 4 ? 32 : 128));
};

/**
 * Which proxies' `X-Forwarded-For` to believe, in Express's terms: a number of hops (`true` is
 * one hop, `false` none), or a comma list of the proxies' addresses / CIDRs (or Express's names
 * `loopback`, `linklocal`, `uniquelocal`). Never "all": the left-most entry is the client's to write.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): number | string[] => {
    const lower = v.toLowerCase();
    if (['true', 'yes'].includes(lower)) return 1;
    if (['false', 'no'].includes(lower)) return 0;
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops <= 20) return hops;
    }
    const list = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    // A range covering every address (0.0.0.0/0, ::/0) is "trust all" under another name.
    const everyone = (s: string) => /\/0$/.test(s);
    const bad = list.filter(
      (s) => (!['loopback', 'linklocal', 'uniquelocal'].includes(s) && !isAddressOrRange(s)) || everyone(s),
    );
    if (!list.length || bad.length || /^\d+$/.test(v)) {
      ctx.addIssue({
        code: 'custom',
        message: `true, false, a number of proxy hops (0 to 20) or a comma list of proxy addresses/CIDRs; not ${bad.join(', ') || v}`,
      });
      return z.NEVER;
    }
    return list;
  });

/** A comma list whose every entry `normalise` accepts; the normalised entries (the unset default: none). */
const commaList = (normalise: (entry: string) => string | null, what: string) =>
  z
    .string()
    .transform((v, ctx): string[] => {
      const entries = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = entries.filter((e) => normalise(e) === null);
      if (bad.length) {
        ctx.addIssue({ code: 'custom', message: `a comma list of ${what}; not ${bad.join(', ')}` });
        return z.NEVER;
      }
      return entries.map((e) => normalise(e) as string);
    })
    .default([]);

/** Every setting of the service, read from the environment in this one place. */
export const ConfigSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    /** The address people and assistants use; links and OAuth metadata are built from it. */
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** An external PostgreSQL; without it an embedded one runs with its data under DATA_DIR. */
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    DATA_DIR: z.string().min(1).optional(),
    EMBEDDED_PG_PORT: z.coerce.number().int().min(0).max(65535).default(0),
    DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    /**
     * Named prepared statements on the service's pools (postgres.js's, the rate limiter's, the
     * CLI's; `prepare=false` in DATABASE_URL counts as false too). `false` behind a pooler in
     * transaction mode (PgBouncer before 1.21, or without max_prepared_statements): a statement
     * prepared on one server connection is not there on the next.
     */
    DB_PREPARE: bool.default(true),
    /**
     * Whether a start applies the migrations and the demo data: `true` (every instance, serialised
     * by an advisory lock), `false` (a release step did; the start refuses if any is missing), or
     * `only` (the release step: apply them, then exit 0 without listening).
     */
    MIGRATE: z
      .enum(['true', 'false', '1', '0', 'yes', 'no', 'only'])
      .default('true')
      .transform((v) => (v === 'only' ? ('only' as const) : v === 'true' || v === '1' || v === 'yes')),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    RATE_LIMIT_POINTS: z.coerce.number().int().min(1).default(300),
    RATE_LIMIT_WINDOW_SEC: z.coerce.number().int().min(1).default(60),
    OFFER_CACHE_TTL_MS: z.coerce.number().int().min(0).default(10_000),
    TRUST_PROXY: trustProxy.default(0),
    /**
     * Host names besides PUBLIC_URL's under which the service is reached (another domain, an
     * internal name the balancer uses); any port. Requests naming any other host are refused
     * (DNS rebinding), and /mcp also refuses browser pages on other hosts.
     */
    ALLOWED_HOSTS: commaList(
      allowedHostEntry,
      'host names or addresses without scheme or port (pets.example, 10.0.0.5)',
    ),
    /** Origins of browser-based MCP clients on other sites allowed to call /mcp (`https://app.example`). */
    ALLOWED_ORIGINS: commaList(allowedOriginEntry, 'origins (https://app.example, http://localhost:6274)'),
    RUN_WORKER: bool.default(true),
    /**
     * How long a worker job may stay active before pg-boss takes it for dead (its worker killed or
     * stuck) and runs it again, for every queue; unset: each job's own (`expireInSeconds` in
     * apps/worker/src/jobs.ts, 2 to 10 minutes). Tests set a few seconds.
     */
    WORKER_JOB_EXPIRE_SEC: z.coerce.number().int().min(1).max(3600).optional(),
    /** How often a worker looks for jobs past their expiry (pg-boss's maintenance). */
    WORKER_MAINTENANCE_SEC: z.coerce.number().int().min(1).max(3600).default(60),
    /**
     * How often a worker looks whether new domain events were written, to run the jobs that read
     * them (mails, webhooks) at once rather than at their next minute; 0: only by their schedule.
     */
    WORKER_EVENT_WATCH_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
    /**
     * On a stop signal, how long the instance keeps serving while `/readyz` says draining, before it
     * stops accepting: the balancer's health checks take it out first, so no request meets a
     * closed port. 0 (the default) stops accepting at once, as a single process should. A second
     * signal during the delay ends it.
     */
    SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(300_000).default(0),
    /** An upstream OpenID Connect provider people may sign in through (with OIDC_CLIENT_ID). */
    OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    /** Absent for a public client (PKCE only). */
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    /** The provider's name on the sign-in button. */
    OIDC_NAME: z.string().min(1).max(60).default('single sign-on'),
    /** Where people pay: the built-in sandbox (TEST, no money moves) or PayFast. */
    PAYMENT_GATEWAY: z.enum(['sandbox', 'payfast']).default('sandbox'),
    PAYFAST_MERCHANT_ID: z.string().min(1).optional(),
    PAYFAST_MERCHANT_KEY: z.string().min(1).optional(),
    PAYFAST_PASSPHRASE: z.string().min(1).optional(),
    /** https://www.payfast.co.za for live payments (https only; http only for a loopback stand-in). */
    PAYFAST_URL: z.url({ protocol: /^https?$/ }).default('https://sandbox.payfast.co.za'),
    /** Comma-separated CIDR ranges ITNs may come from besides what PayFast's hosts resolve to; default PayFast's published ranges. */
    PAYFAST_SOURCES: z
      .string()
      .min(1)
      .refine(
        (v) =>
          v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
            .every(isAddressOrRange),
        'a comma list of addresses or CIDR ranges',
      )
      .optional(),
    /** The Bearer token a Prometheus scraper sends to /metrics; unset, /metrics is not served. */
    METRICS_TOKEN: z.string().min(16).max(200).regex(/^\S+$/, 'no spaces').optional(),
    /** Where mail goes out (sign-in links): `smtp://user:pass@host:587` or `smtps://…`. Unset: the outbox table. */
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    /** The sender of that mail; default `NogPets <no-reply@` the PUBLIC_URL host `>`. */
    MAIL_FROM: z.string().min(3).max(200).optional(),
    /**
     * Webhooks may go to loopback addresses and over plain http: local development and tests only
     * (private, link-local and metadata addresses stay refused). docs/security.md, "Webhooks".
     */
    WEBHOOKS_ALLOW_LOOPBACK: bool.default(false),
    /** How long one webhook POST may take before it counts as failed (and is retried). */
    WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** Check every answer against its operation's declared output schema (tests, staging): a drift is a 500 and a log line. */
    CHECK_OUTPUTS: bool.default(false),
  })
  .refine((c) => !c.OIDC_ISSUER || c.OIDC_CLIENT_ID, {
    message: 'OIDC_CLIENT_ID is required with OIDC_ISSUER',
    path: ['OIDC_CLIENT_ID'],
  })
  .refine((c) => c.PAYMENT_GATEWAY !== 'payfast' || (c.PAYFAST_MERCHANT_ID && c.PAYFAST_MERCHANT_KEY), {
    message: 'PAYFAST_MERCHANT_ID and PAYFAST_MERCHANT_KEY are required with PAYMENT_GATEWAY=payfast',
    path: ['PAYFAST_MERCHANT_ID'],
  })
  // Settings that would take money it cannot keep track of (plain http, the sandbox merchant live, no public https address).
  .superRefine((c, ctx) => {
    if (c.PAYMENT_GATEWAY !== 'payfast') return;
    for (const problem of payfastSettingProblems({
      baseUrl: c.PAYFAST_URL,
      merchantId: c.PAYFAST_MERCHANT_ID,
      merchantKey: c.PAYFAST_MERCHANT_KEY,
      publicUrl: c.PUBLIC_URL,
    })) {
      const at = problem.indexOf(': ');
      ctx.addIssue({ code: 'custom', message: problem.slice(at + 2), path: [problem.slice(0, at)] });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; a bad value stops the start with a message naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as in most shells' `VAR= cmd`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = ConfigSchema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  return result.data;
}
