// The directory of pet businesses: listings anyone can search, partners (businesses on the
// service) first.
import type { Sql as PoolSql, Queryable as Sql, TransactionSql } from './sql.js';
import type { ResourceRow, ServiceRow } from './types.js';

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

/** How close (pg_trgm word similarity) a query must be to some words of a listing to find it. */
export const WORD_SIMILARITY = 0.4;
const THRESHOLD_SETTING = 'pg_trgm.word_similarity_threshold';

/**
 * The statement findListings runs (a postgres.js fragment, so a test can EXPLAIN the same text).
 * With `q` it filters with `like` and `<%`, both of which the trigram index directory_listings_search
 * serves (word_similarity() as a function cannot use it); `<%` is word_similarity(q, text) >=
 * pg_trgm.word_similarity_threshold, so it must run where that is WORD_SIMILARITY (inWordSimilarity).
 */
export function listingsStatement(sql: Sql, query: ListingQuery) {
  const q = searchWords(query);
  return sql<ListingRow[]>`
    select l.id, l.name, l.categories, l.area, l.town, l.services, l.website, l.phone, l.email,
      l.business_id as "businessId", l.fictional, coalesce(b.is_operator, false) as "isOperator"
    from directory_listings l left join businesses b on b.id = l.business_id
    where true
      ${query.town ? sql`and l.town = ${query.town}` : sql``}
      ${query.categories?.length ? sql`and l.categories && ${query.categories}::text[]` : sql``}
      ${q ? sql`and (l.search_text like ${`%${likeText(q)}%`} or ${q} <% l.search_text)` : sql``}
    order by (l.business_id is not null) desc,
      ${q ? sql`word_similarity(${q}, l.search_text) desc,` : sql``}
      l.name, l.id
    limit ${query.limit + 1} offset ${query.offset}`;
}

const searchWords = (query: ListingQuery) => query.q?.trim().toLowerCase() || null;

/**
 * Runs `work` with pg_trgm.word_similarity_threshold at WORD_SIMILARITY: on a pool in a transaction
 * of its own (`set_config(…, true)` lasts until its end); inside the caller's transaction, set for
 * `work` and put back after it, so the caller's later statements see what they saw before.
 */
export async function inWordSimilarity<T>(sql: Sql, work: (tx: Sql) => Promise<T>): Promise<T> {
  const set = (tx: Sql, value: string) => tx`select set_config(${THRESHOLD_SETTING}, ${value}, true)`;
  if (typeof (sql as Partial<Pick<TransactionSql, 'savepoint'>>).savepoint !== 'function') {
    return (sql as PoolSql).begin(async (tx) => {
      await set(tx, String(WORD_SIMILARITY));
      return work(tx);
    }) as Promise<T>;
  }
  const [before] = await sql<{ value: string | null }[]>`
    select current_setting(${THRESHOLD_SETTING}, true) as value`;
  await set(sql, String(WORD_SIMILARITY));
  try {
    return await work(sql);
  } finally {
    // Unset before pg_trgm was loaded it is '' or absent; its default then is 0.6.
    await set(sql, before?.value || '0.6');
  }
}

/**
 * One page of listings: partners first, then (with `q`) the closest matches, then by name.
 * Answers up to `limit + 1` rows so the caller can tell whether another page follows.
 */
export async function findListings(sql: Sql, query: ListingQuery): Promise<ListingRow[]> {
  if (!searchWords(query)) return await listingsStatement(sql, query);
  return inWordSimilarity(sql, async (tx) => await listingsStatement(tx, query));
}

/** What a business on the service publishes in its listing: the weeks its active resources work, and its price list. */
export interface PublishedFacts {
  businessId: string;
  weeks: ResourceRow['week'][];
  services: (Pick<ServiceRow, 'id' | 'name' | 'kind' | 'priceCents' | 'tiers'> & { line: string })[];
}

/** The published hours and prices of these businesses (two queries), in the order of `businessIds`. */
export async function findPublishedFacts(sql: Sql, businessIds: string[]): Promise<PublishedFacts[]> {
  if (!businessIds.length) return [];
  const weeks = await sql<{ businessId: string; week: ResourceRow['week'] }[]>`
    select business_id as "businessId", week from resources
    where business_id = any(${businessIds}::text[]) and active
    order by business_id, sort, id`;
  const services = await sql<(PublishedFacts['services'][number] & { businessId: string })[]>`
    select s.business_id as "businessId", s.id, s.name, s.kind, s.price_cents as "priceCents", s.tiers,
           l.label as line
    from services s join service_lines l on l.business_id = s.business_id and l.id = s.line_id
    where s.business_id = any(${businessIds}::text[])
    order by s.business_id, l.sort, l.id, s.sort, s.id`;
  return businessIds.map((businessId) => ({
    businessId,
    weeks: weeks.filter((w) => w.businessId === businessId).map((w) => w.week),
    services: services.filter((s) => s.businessId === businessId).map(({ businessId: _b, ...s }) => s),
  }));
}
