import { type BusinessRow, findOperator, loadOffer, type Offer, type Sql } from '@nogpets/store';
import { ServiceError } from './errors.js';

/**
 * The public offer (catalogue, areas, towns) is read on every catalogue, coverage and quote call
 * and changes rarely, so each process keeps it for `ttlMs` (docs/decisions.md: offer cache).
 */
export interface OfferCache {
  operator(): Promise<Offer>;
  invalidate(): void;
}

export function createOfferCache(sql: Sql, options: { ttlMs: number; now?: () => number }): OfferCache {
  const now = options.now ?? Date.now;
  let cached: { at: number; offer: Promise<Offer> } | null = null;
  return {
    operator() {
      if (cached && now() - cached.at < options.ttlMs) return cached.offer;
      const offer = (async () => {
        const business: BusinessRow | null = await findOperator(sql);
        if (!business) throw new ServiceError('UNAVAILABLE', 'The service is starting up; try again in a moment.');
        return loadOffer(sql, business);
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
