import type { Sql } from '@nogpets/store';
import type { AgreementCall } from './agreement.js';
import type { AuthContext } from './auth.js';
import type { GeoData, OfferCache, PaymentGateway } from './ports.js';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The outbox row's id: the transport makes the Message-ID of it, the same on every attempt. */
  id?: string;
  html?: string | null;
  attachments?: { filename: string; contentType: string; content: string }[];
  /** Extra headers (List-Unsubscribe on optional mail). */
  headers?: Record<string, string>;
}

/** Delivers one mail (SMTP through nodemailer in the service); throws when the server refuses it. */
export interface MailTransport {
  send(message: MailMessage): Promise<void>;
  /** Closes the connections it keeps open (a pool), when the process stops. */
  close?(): void;
}

/** What every handler may use; built once per process. */
export interface Deps {
  sql: Sql;
  clock: Clock;
  offers: OfferCache;
  geo: () => Promise<GeoData>;
  /** Where people pay: the configured gateway and the service's public address for links. */
  payments: Payments;
  /** Mail over SMTP when SMTP_URL is set; otherwise mail waits in the outbox table. */
  mail?: MailTransport | null;
  /** Check every answer against its operation's output schema (CHECK_OUTPUTS): a drift is an error, not a reply. */
  checkOutputs?: boolean;
  /** Where webhooks may go and how long a send may take; absent: https only, no loopback, 10 s. */
  webhooks?: WebhookSettings;
  /** True once the process is stopping: long passes (mail, events, webhooks) stop taking more work. */
  stopping?: () => boolean;
}

/** The webhook settings (WEBHOOKS_* in packages/runtime/src/env.ts; docs/security.md "Webhooks"). */
export interface WebhookSettings {
  /** Loopback addresses (and plain http) allowed: local development and tests only. */
  allowLoopback: boolean;
  /** Endpoints must be https (production: PUBLIC_URL is https), unless loopback is allowed. */
  httpsOnly: boolean;
  /** How long one POST may take, connection to the last byte of the answer. */
  timeoutMs: number;
}

export interface Payments {
  gateway: PaymentGateway;
  /** The service's public base URL (pay links, return and notify URLs). */
  publicUrl(): string;
}

/**
 * Who runs an internal call when it is not a person's credential: a scheduled job of the worker,
 * NogPets' operator (the console names the signed-in operator; the CLI has no account: `userId`
 * null), a visitor of our pages who is not signed in (sign-in, the OAuth server's endpoints), or a
 * payment gateway's notification. A person signed in on our own pages is not a principal: their
 * browser session is their credential (`auth.kind` WEB_SESSION), and an internal operation open to
 * `person` takes exactly that.
 */
export type Principal =
  | { kind: 'system'; job: string }
  | { kind: 'operator'; userId: string | null; name: string }
  | { kind: 'visitor' }
  | { kind: 'gateway'; gateway: string };

/** One call of one operation: from HTTP or MCP (a person's credential or none), or NogPets' own (a principal). */
export interface OperationContext {
  deps: Deps;
  requestId: string;
  /** The assistant making the call, when it says (MCP clientInfo, or the API's `X-Client-Name`). */
  clientName: string | null;
  /** Who the Bearer credential speaks for; null without one. */
  auth: AuthContext | null;
  log: Logger;
  /** NogPets' own caller (a job, the operator) for internal operations; absent for people. */
  principal?: Principal | undefined;
  /** The `Idempotency-Key` the caller sent with a change, if any. */
  idempotencyKey?: string | undefined;
  /** The client's network address as the door saw it (per-caller limits); absent outside HTTP. */
  callerAddress?: string | undefined;
  /** The operation being run (set by runOperation): events written by the call name it. */
  operationId?: string | undefined;
  /** This one call's id (set by runOperation, unique): its events carry it. */
  callId?: string | undefined;
  /**
   * How the person agrees to a change that needs it. Absent: the caller's `confirm: true` (the API,
   * MCP clients that cannot show a page). `page` (an MCP client that declared URL-mode
   * elicitation): only the signed-in person, on our confirmation page; `confirm` is ignored.
   */
  agreement?: { mode: 'page' } | undefined;
  /** The page-mode call's confirmation (set by runOperation, read by confirmStep). */
  agreementCall?: AgreementCall | undefined;
}

const CLIENT_NAME = /^[\p{L}\p{N} ._()/-]{1,80}$/u;

/**
 * The assistant's name as a caller states it in `X-Client-Name` (HTTP and MCP alike), or null when
 * absent or not a plain name (letters, digits, spaces and `._()/-`, up to 80).
 */
export function statedClientName(header: string | undefined): string | null {
  return header && CLIENT_NAME.test(header) ? header : null;
}

/** The name to put on records a change touches: the connected assistant, else what the caller said. */
export function actorName(ctx: OperationContext): string | null {
  return ctx.auth?.clientName ?? ctx.clientName;
}
