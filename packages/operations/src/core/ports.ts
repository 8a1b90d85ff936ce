/**
 * The ports of the context: what the deps of every call (context.ts) name of other modules, declared
 * here so that core imports no domain module (docs/architecture.md, "Module layers"). The modules
 * implement them: places/world-data.ts loads the GeoData, the offer cache (createOfferCache) is an
 * OfferCache, money/payfast.ts and money/sandbox.ts are PaymentGateways, and events/catalog.ts names
 * the event types an operation may declare (EventTypeNames).
 */
import type { CountryName, Town } from '@nogpets/coverage-geo';
import type { Offer, Sql } from '@nogpets/store';

/** The world's towns and country names (places/world-data.ts loads them once per process). */
export interface GeoData {
  worldTowns: Town[];
  countries: CountryName[];
  countryName(code: string): string;
}

/**
 * The public offer (catalogue, areas, towns) is read on every catalogue, coverage and quote call
 * and changes rarely, so each process keeps it for `ttlMs` (docs/decisions.md: offer cache), per
 * business: the operator's own and each partner's.
 */
export interface OfferCache {
  /** The operator's offer, from the cache while fresh, else loaded through `via` (default: the pool). */
  operator(via?: Sql): Promise<Offer>;
  /** A business's offer by its id (the operator's or a partner's); 404 NOT_FOUND when there is no such business. */
  business(id: string, via?: Sql): Promise<Offer>;
  invalidate(): void;
}

/**
 * The cache as a handler running inside a transaction sees it: a load goes through that
 * transaction, never the pool, so a request holding a connection never waits for a second one.
 */
export function offersThrough(offers: OfferCache, tx: Sql): OfferCache {
  return {
    operator: () => offers.operator(tx),
    business: (id) => offers.business(id, tx),
    invalidate: () => offers.invalidate(),
  };
}

/**
 * A payment gateway: it makes the checkout the person is sent to, and verifies the notifications
 * it sends back. Money never passes through the service; card data never reaches it.
 */
export interface CheckoutRequest {
  /** Our payment id: the reference the gateway echoes back (PayFast `m_payment_id`). */
  paymentId: string;
  amountCents: number;
  currency: string;
  itemName: string;
  email?: string;
  returnUrl: string;
  cancelUrl: string;
  notifyUrl: string;
}

/** Either our own TEST page (sandbox) or a form the browser posts to the gateway. */
export type Checkout = { kind: 'sandbox' } | { kind: 'form'; action: string; fields: [string, string][] };

export type NotificationOutcome = 'COMPLETE' | 'FAILED' | 'PENDING' | 'CANCELLED';

export type VerifiedNotification =
  | { ok: true; paymentId: string; gatewayRef: string; amountCents: number; outcome: NotificationOutcome }
  | {
      ok: false;
      reason: string;
      paymentId?: string | undefined;
      gatewayRef?: string | undefined;
      /** The signature was ours (so the fields are what the gateway, or someone with our secret, wrote). */
      signed: boolean;
      /** What a signed notification says happened (a refused COMPLETE may be money that arrived). */
      claimed?: NotificationOutcome | undefined;
      amountCents?: number | undefined;
    };

export interface PaymentGateway {
  name: 'sandbox' | 'payfast';
  /** True when no real money moves (the pay page says TEST). */
  test: boolean;
  /**
   * Answer the notification at once and check it after (PayFast: it wants a quick 200 and retries
   * otherwise); false when the caller waits for the outcome (the sandbox's own pay page shows it).
   */
  answerFirst: boolean;
  checkout(request: CheckoutRequest): Checkout;
  /** Checks a notification as received (raw body, the caller's address): authentic, untampered, from the gateway. */
  verify(rawBody: string, from: { ip: string }): Promise<VerifiedNotification>;
}

/**
 * The domain event types an operation may declare (`events: [...]` in define.ts). Core names no
 * event: events/catalog.ts fills this in by declaration merging, one key per type of its catalog,
 * so the check is the catalog's and core stays below the events module.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by events/catalog.ts (declaration merging)
export interface EventTypeNames {}

/** A domain event type's name, as events/catalog.ts lists them. */
export type EventTypeName = keyof EventTypeNames;
