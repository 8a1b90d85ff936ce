import { type BusinessRow, findOperator, loadOffer, type Offer, type Sql } from '@nogpets/store';
import { ServiceError } from './errors.js';

/**
 * The public offer (catalogue, areas, towns) is read on every catalogue, coverage and quote call
 * and changes rarely, so each process keeps it for `ttlMs` (docs/decisions.md: offer cache).
 */
export interface OfferCache {
  /** The offer, from the cache while fresh, else loaded through `via` (default: the pool). */
  operator(via?: Sql): Promise<Offer>;
  invalidate(): void;
}

/**
 * The cache as a handler running inside a transaction sees it: a load goes through that
 * transaction, never the pool, so a request holding a connection never waits for a second one.
 */
export function offersThrough(offers: OfferCache, tx: Sql): OfferCache {
  return { operator: () => offers.operator(tx), invalidate: () => offers.invalidate() };
}

export function createOfferCache(sql: Sql, options: { ttlMs: number; now?: () => number }): OfferCache {
  const now = options.now ?? Date.now;
  let cached: { at: number; offer: Promise<Offer> } | null = null;
  return {
    operator(via = sql) {
      if (cached && now() - cached.at < options.ttlMs) return cached.offer;
      const offer = (async () => {
        const business: BusinessRow | null = await findOperator(via);
        if (!business)
          throw new ServiceError('UNAVAILABLE', 'The service is starting up; try again in a moment.');
        return loadOffer(via, business);
      })();
      cached = { at: now(), offer };
      // A failed load must not be served from the cache.
      offer.catch(() => {
        if (cached?.offer === offer) cached = null;
      });
      return offer;
    },
    invalidate() {
      cached = null;
    },
  };
}
