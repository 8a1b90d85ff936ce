// The directory's search over many listings: served by the trigram index, with the same answers
// as word_similarity(q, search_text) >= 0.4 gives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findListings,
  inWordSimilarity,
  type ListingQuery,
  type ListingRow,
  listingsStatement,
  WORD_SIMILARITY,
} from './directory.js';
import type { Queryable, Sql } from './sql.js';
import { availableServers, createTestDatabase, type TestDatabase } from './testing/index.js';

const GENERATED = 5_000;
const WORDS = [
  'dog',
  'cat',
  'grooming',
  'walkers',
  'clinic',
  'whiskers',
  'paws',
  'kennels',
  'boarding',
  'parlour',
  'canine',
  'feline',
  'puppy',
  'school',
  'taxi',
  'trail',
  'valley',
  'obedience',
  'cattery',
];

/** GENERATED listings named from WORDS and a hash, in 50 towns; a few partners. */
async function generateListings(sql: Sql): Promise<void> {
  await sql`
    insert into directory_listings (id, name, categories, area, town, services, business_id, fictional, search_text)
    select 'gen-' || i, name, '{GROOMING}', null, 'town-' || (i % 50), services,
      case when i % 1000 = 0 then 'nogpets' end, true, lower(name || ' ' || array_to_string(services, ' ') || ' ')
    from (
      select i,
        initcap((${WORDS}::text[])[1 + i % ${WORDS.length}]) || ' ' ||
          initcap((${WORDS}::text[])[1 + (i / ${WORDS.length}) % ${WORDS.length}]) || ' ' ||
          substr(md5(i::text), 1, 6) as name,
        array[(${WORDS}::text[])[1 + (i * 7) % ${WORDS.length}]] as services
      from generate_series(1, ${GENERATED}) i
    ) g`;
  // As autovacuum would: the planner then knows the trigram index's size.
  await sql`vacuum analyze directory_listings`;
}

/** The search as it was before the index could serve it: word_similarity() as a function. */
async function findListingsAsBefore(
  sql: Queryable,
  query: ListingQuery & { q: string },
): Promise<ListingRow[]> {
  const q = query.q.trim().toLowerCase();
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<ListingRow[]>`
    select l.id, l.name, l.categories, l.area, l.town, l.services, l.website, l.phone, l.email,
      l.business_id as "businessId", l.fictional, coalesce(b.is_operator, false) as "isOperator"
    from directory_listings l left join businesses b on b.id = l.business_id
    where (l.search_text like ${like} or word_similarity(${q}, l.search_text) >= 0.4)
      ${query.town ? sql`and l.town = ${query.town}` : sql``}
    order by (l.business_id is not null) desc, word_similarity(${q}, l.search_text) desc, l.name, l.id
    limit ${query.limit + 1} offset ${query.offset}`;
}

type PlanNode = { 'Node Type': string; 'Index Name'?: string; 'Relation Name'?: string; Plans?: PlanNode[] };
const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];

/** The plan PostgreSQL makes for the statement findListings runs, where it runs it. */
async function planOf(sql: Sql, query: ListingQuery, options: { seqscan: boolean }): Promise<PlanNode[]> {
  return sql.begin(async (tx) => {
    if (!options.seqscan) await tx`set local enable_seqscan = off`;
    return inWordSimilarity(tx, async (t) => {
      const [row] = await t<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>`
        explain (format json) ${listingsStatement(t, query)}`;
      return nodesOf(row!['QUERY PLAN'][0].Plan);
    });
  }) as Promise<PlanNode[]>;
}

const scansOfListings = (nodes: PlanNode[]) =>
  nodes.filter(
    (n) => n['Relation Name'] === 'directory_listings' || n['Index Name']?.startsWith('directory_'),
  );

describe.each(availableServers())('the directory search on %s PostgreSQL', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ kind });
    await generateListings(db.sql);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('filters with the trigram index directory_listings_search, not a scan of every listing', async () => {
    const plan = async (q: string, seqscan: boolean) =>
      scansOfListings(await planOf(db.sql, { q, limit: 20, offset: 0 }, { seqscan })).map(
        (n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name']}`,
      );
    // A word few listings have (md5('10') starts 3c59dc), and a typo of it that only `<%` finds:
    // the planner chooses the index over 5,000 listings.
    for (const q of ['3c59dc', '3c59dd']) {
      expect(await plan(q, true), q).toEqual([
        'Bitmap Heap Scan directory_listings',
        'Bitmap Index Scan directory_listings_search',
        'Bitmap Index Scan directory_listings_search',
      ]);
    }
    // Words many listings have: a scan of every row may be cheaper, but the index can serve them
    // (with scans of every row made the last resort).
    for (const q of ['obedeince', 'whiskers 3c59dc', '3c59dd']) {
      const scans = await plan(q, false);
      expect(scans, q).toContain('Bitmap Index Scan directory_listings_search');
      expect(scans, q).not.toContain('Seq Scan directory_listings');
    }
  });

  it('finds the same listings in the same order as word_similarity(q, search_text) >= 0.4', async () => {
    let found = 0;
    for (const q of [
      'obedeince',
      'cat',
      'Grooming Paws',
      'kenels',
      'pupy scool',
      'taxi 1f0e3d',
      'zzzz',
      '%',
    ]) {
      for (const query of [
        { q, limit: GENERATED, offset: 0 },
        { q, limit: 7, offset: 3 },
        { q, town: 'town-7', limit: 50, offset: 0 },
      ]) {
        const rows = await findListings(db.sql, query);
        expect(rows, JSON.stringify(query)).toEqual(await findListingsAsBefore(db.sql, query));
        found += rows.length;
      }
    }
    // Not vacuous: the queries find listings, some of them only as close (typos) and not containing q.
    expect(found).toBeGreaterThan(1000);
    const typos = await findListings(db.sql, { q: 'kenels', limit: GENERATED, offset: 0 });
    expect(typos.some((l) => l.name.toLowerCase().includes('kennels'))).toBe(true);
  });

  it("inside a caller's transaction, puts pg_trgm.word_similarity_threshold back as it was", async () => {
    const setting = async (tx: Queryable) =>
      (await tx<{ v: string }[]>`select current_setting('pg_trgm.word_similarity_threshold') as v`)[0]!.v;
    await db.sql.begin(async (tx) => {
      await tx`set local pg_trgm.word_similarity_threshold = 0.7`;
      expect(await findListings(tx, { q: 'obedeince', limit: 5, offset: 0 })).not.toEqual([]);
      expect(await setting(tx)).toBe('0.7');
      await inWordSimilarity(tx, async (t) => expect(await setting(t)).toBe(String(WORD_SIMILARITY)));
      expect(await setting(tx)).toBe('0.7');
    });
  });
});
