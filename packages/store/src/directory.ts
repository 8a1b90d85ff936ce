// The directory of pet businesses: listings anyone can search, partners (businesses on the
// service) first.
import type { Queryable as Sql } from './sql.js';

export interface NewListing {
  id: string;
  name: string;
  categories: string[];
  area: string | null;
  /** A slug: lowercase letters, digits and hyphens. */
  town: string;
  services: string[];
  website: string | null;
  phone: string | null;
  email: string | null;
  /** The business on the service this listing is, if any (a partner). */
  businessId: string | null;
  fictional: boolean;
}

export interface ListingRow extends NewListing {
  /** Whether the business is the operator's own. */
  isOperator: boolean;
}

/** What a search looks in, as stored: name, services and area in lower case. */
export function listingSearchText(l: Pick<NewListing, 'name' | 'services' | 'area'>): string {
  return [l.name, ...l.services, l.area ?? ''].join(' ').toLowerCase();
}

export interface ListingQuery {
  town?: string | undefined;
  categories?: string[] | undefined;
  /** Words to look for, ranked by trigram word similarity; a listing matches when it contains them or is close. */
  q?: string | undefined;
  limit: number;
  offset: number;
}

/** Escapes LIKE's wildcards so a query's `%` and `_` are only themselves. */
const likeText = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page of listings: partners first, then (with `q`) the closest matches, then by name.
 * Answers up to `limit + 1` rows so the caller can tell whether another page follows.
 */
export async function findListings(sql: Sql, query: ListingQuery): Promise<ListingRow[]> {
  const q = query.q?.trim().toLowerCase() || null;
  return sql<ListingRow[]>`
    select l.id, l.name, l.categories, l.area, l.town, l.services, l.website, l.phone, l.email,
      l.business_id as "businessId", l.fictional, coalesce(b.is_operator, false) as "isOperator"
    from directory_listings l left join businesses b on b.id = l.business_id
    where true
      ${query.town ? sql`and l.town = ${query.town}` : sql``}
      ${query.categories?.length ? sql`and l.categories && ${query.categories}::text[]` : sql``}
      ${q ? sql`and (l.search_text like ${`%${likeText(q)}%`} or word_similarity(${q}, l.search_text) >= 0.4)` : sql``}
    order by (l.business_id is not null) desc,
      ${q ? sql`word_similarity(${q}, l.search_text) desc,` : sql``}
      l.name, l.id
    limit ${query.limit + 1} offset ${query.offset}`;
}
