import type { Sql } from '@nogpets/store';
import type { AuthContext } from './auth.js';
import type { GeoData } from './geo/world-data.js';
import type { OfferCache } from './offer-cache.js';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What every handler may use; built once per process. */
export interface Deps {
  sql: Sql;
  clock: Clock;
  offers: OfferCache;
  geo: () => Promise<GeoData>;
}

/** One call of one operation, from HTTP or MCP. */
export interface OperationContext {
  deps: Deps;
  requestId: string;
  /** The assistant making the call, when it says (MCP clientInfo, or the API's `X-Client-Name`). */
  clientName: string | null;
  /** Who the Bearer credential speaks for; null without one. */
  auth: AuthContext | null;
  log: Logger;
}

/** The name to put on records a change touches: the connected assistant, else what the caller said. */
export function actorName(ctx: OperationContext): string | null {
  return ctx.auth?.clientName ?? ctx.clientName;
}
