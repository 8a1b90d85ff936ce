import {
  type BusinessRow,
  findBusiness,
  findBusinessContact,
  findOperator,
  loadOffer,
  type Offer,
  type Sql,
} from '@nogpets/store';
import { z } from 'zod';
import { type GeoData, type OfferCache, ServiceError } from '../core/index.js';

/** The part of the handlers' Deps (core/context.ts) an offer lookup uses. */
interface OfferDeps {
  offers: OfferCache;
  sql: Sql;
  geo: () => Promise<GeoData>;
}

/** The answer to an id that names no business: the same for every unknown id. */
export function noBusiness(id: string): ServiceError {
  return new ServiceError(
    'NOT_FOUND',
    `No business ${id}. Take the businessId from the directory's bookWith (find_pet_businesses), or leave it out for NogPets itself.`,
    { businessId: id },
  );
}

export function createOfferCache(sql: Sql, options: { ttlMs: number; now?: () => number }): OfferCache {
  const now = options.now ?? Date.now;
  // One entry per business id; the operator's under a key no business id can take.
  const cached = new Map<string, { at: number; offer: Promise<Offer> }>();
  const OPERATOR = '@operator';

  function get(key: string, load: () => Promise<Offer>): Promise<Offer> {
    const known = cached.get(key);
    if (known && now() - known.at < options.ttlMs) return known.offer;
    const offer = load();
    cached.set(key, { at: now(), offer });
    // A failed load (an unknown id, the database away) must not be served from the cache.
    offer.catch(() => {
      if (cached.get(key)?.offer === offer) cached.delete(key);
    });
    return offer;
  }

  return {
    operator(via = sql) {
      return get(OPERATOR, async () => {
        const business: BusinessRow | null = await findOperator(via);
        if (!business)
          throw new ServiceError('UNAVAILABLE', 'The service is starting up; try again in a moment.');
        return loadOffer(via, business);
      });
    },
    business(id, via = sql) {
      return get(id, async () => {
        const business = await findBusiness(via, id);
        if (!business) throw noBusiness(id);
        return loadOffer(via, business);
      });
    },
    invalidate() {
      cached.clear();
    },
  };
}

/** Where booking through the service is open: South Africa (rand, Johannesburg time; spec rule 6). */
export const BOOKABLE_COUNTRY = 'ZA';

/** A business id as the booking tools take it. */
export const BusinessIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'Letters, digits, _ and -, 1 to 128: a businessId from the directory.')
  .meta({
    description:
      "The business to book with: a partner's `businessId`, from the directory's `bookWith` (find_pet_businesses). " +
      'Leave it out for NogPets itself. An unknown id answers 404; a business outside South Africa answers 409 ' +
      'NOT_AVAILABLE_IN_COUNTRY (book directly with it).',
    example: 'biz_stellenbosch_groomer',
  });

/** The optional `businessId` of listServices, checkCoverage, getQuote, findTimes and book. */
export const BusinessIdShape = { businessId: BusinessIdSchema.optional() };

/** What the booking tools may answer about the business asked for, besides their own errors. */
export const BUSINESS_ERRORS = {
  notFound: { status: 404, description: 'No business with that `businessId`.' },
  conflict:
    '`NOT_AVAILABLE_IN_COUNTRY`: the business is outside South Africa, so it is booked directly with it ' +
    '(`details.phone`, `details.website` when its listing has them)',
};

/**
 * The offer a booking tool acts on: the business asked for (default: the operator's own). A
 * business outside South Africa is not bookable through the service: 409 NOT_AVAILABLE_IN_COUNTRY,
 * saying how to reach it directly (docs/decisions.md).
 */
export async function bookableOffer(deps: OfferDeps, businessId: string | undefined): Promise<Offer> {
  const offer =
    businessId === undefined ? await deps.offers.operator() : await deps.offers.business(businessId);
  if (offer.business.country !== BOOKABLE_COUNTRY) throw await notAvailableInCountry(deps, offer.business);
  return offer;
}

async function notAvailableInCountry(
  deps: Pick<OfferDeps, 'sql' | 'geo'>,
  business: BusinessRow,
): Promise<ServiceError> {
  const [contact, geo] = await Promise.all([findBusinessContact(deps.sql, business.id), deps.geo()]);
  const ways = [
    contact?.phone ? `phone ${contact.phone}` : null,
    contact?.website ? `website ${contact.website}` : null,
    !contact?.phone && !contact?.website && contact?.email ? `email ${contact.email}` : null,
  ].filter(Boolean);
  const where = geo.countryName(business.country);
  const message =
    `${business.name} is in ${where}: bookings with ${business.name} are made directly with them, not through ` +
    `NogPets (its booking tools book businesses in South Africa)${ways.length ? `. Reach them by ${ways.join(' or ')}` : ''}.`;
  return new ServiceError('NOT_AVAILABLE_IN_COUNTRY', message, {
    businessId: business.id,
    country: business.country,
    ...(contact?.phone ? { phone: contact.phone } : {}),
    ...(contact?.website ? { website: contact.website } : {}),
    ...(contact?.email ? { email: contact.email } : {}),
  });
}
