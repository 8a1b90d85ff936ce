// The directory's text search over many listings : findListings as it runs now
// (`like` or `<%`, served by the trigram index directory_listings_search, in a transaction that
// sets pg_trgm.word_similarity_threshold) against the statement it replaced (`like` or
// word_similarity() >= 0.4, which no index can serve), and against itself with the index dropped.
// On a scratch database of DATABASE_URL's server (default the machine's), dropped at the end.
//
//   npx tsx bench/directory-search-bench.ts            # 20,000 listings
//   LISTINGS=50000 npx tsx bench/directory-search-bench.ts
import { randomBytes } from 'node:crypto';
import {
  createSql,
  ensureDatabase,
  findListings,
  type ListingQuery,
  listingsStatement,
  loadDemoData,
  migrate,
  type Queryable,
} from '../packages/store/src/index.js';
import { markdownTable, percentile } from './lib.js';

const serverUrl = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const LISTINGS = Number(process.env.LISTINGS ?? 20_000);
const RUNS = Number(process.env.RUNS ?? 200);
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
];

/** The statement findListings ran before: word_similarity() as a function, no index usable. */
async function findListingsAsBefore(sql: Queryable, query: ListingQuery & { q: string }) {
  const q = query.q.trim().toLowerCase();
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`
    select l.id, l.name, l.categories, l.area, l.town, l.services, l.website, l.phone, l.email,
      l.business_id as "businessId", l.fictional, coalesce(b.is_operator, false) as "isOperator"
    from directory_listings l left join businesses b on b.id = l.business_id
    where (l.search_text like ${like} or word_similarity(${q}, l.search_text) >= 0.4)
      ${query.town ? sql`and l.town = ${query.town}` : sql``}
    order by (l.business_id is not null) desc, word_similarity(${q}, l.search_text) desc, l.name, l.id
    limit ${query.limit + 1} offset ${query.offset}`;
}

async function median(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

const name = `nogpets_bench_directory_${randomBytes(4).toString('hex')}`;
const sql = createSql(await ensureDatabase(serverUrl, name), { max: 1 });
try {
  await migrate(sql);
  await loadDemoData(sql);
  await sql`
    insert into directory_listings (id, name, categories, town, services, fictional, search_text)
    select 'gen-' || i, name, '{GROOMING}', 'town-' || (i % 200), services, true,
      lower(name || ' ' || array_to_string(services, ' '))
    from (
      select i,
        initcap((${WORDS}::text[])[1 + i % ${WORDS.length}]) || ' ' ||
          initcap((${WORDS}::text[])[1 + (i / ${WORDS.length}) % ${WORDS.length}]) || ' ' ||
          substr(md5(i::text), 1, 8) as name,
        array[(${WORDS}::text[])[1 + (i * 7) % ${WORDS.length}]] as services
      from generate_series(1, ${LISTINGS}) i
    ) g`;
  await sql`vacuum analyze directory_listings`;
  const [{ version }] = (await sql`select current_setting('server_version') as version`) as unknown as [
    { version: string },
  ];

  const cases: [string, ListingQuery & { q: string }][] = [
    ['a word of one listing (`3c59dc04`)', { q: '3c59dc04', limit: 20, offset: 0 }],
    ['a typo of it (`3c59dc4`)', { q: '3c59dc4', limit: 20, offset: 0 }],
    ['a typo of a word a tenth of them have (`kenels`)', { q: 'kenels', limit: 20, offset: 0 }],
    ['`kenels` in one town', { q: 'kenels', town: 'town-7', limit: 20, offset: 0 }],
  ];
  const rows: (string | number)[][] = [];
  const before: number[] = [];
  const after: number[] = [];
  const statementAlone: number[] = [];
  for (const [, query] of cases) {
    before.push(await median(() => findListingsAsBefore(sql, query)));
    after.push(await median(() => findListings(sql, query)));
  }
  // The statement without its transaction (BEGIN, set_config, COMMIT): the threshold set for the
  // session (the pool has one connection), to tell the two costs apart.
  await sql`set pg_trgm.word_similarity_threshold = 0.4`;
  for (const [, query] of cases) statementAlone.push(await median(() => listingsStatement(sql, query)));
  await sql`reset pg_trgm.word_similarity_threshold`;
  await sql`drop index directory_listings_search`;
  for (const [i, [label, query]] of cases.entries()) {
    const noIndex = await median(() => findListings(sql, query));
    rows.push([
      label,
      before[i]!.toFixed(2),
      after[i]!.toFixed(2),
      statementAlone[i]!.toFixed(2),
      noIndex.toFixed(2),
    ]);
  }
  console.log(
    `PostgreSQL ${version}, ${LISTINGS} generated listings (+ the demo ones), median of ${RUNS} runs:\n`,
  );
  console.log(
    markdownTable(
      ['search', 'before ms', 'now ms', 'now, statement alone ms', 'now, index dropped ms'],
      rows,
      ['search'],
    ),
  );
} finally {
  await sql.end({ timeout: 5 });
  const admin = createSql(serverUrl, { max: 1 });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end({ timeout: 5 });
}
