/**
 * Where the time goes in a V8 CPU profile (`node --cpu-prof`, as `BENCH_PROFILE=dir` runs the server):
 * the top functions by self time and by total time (file:line of the .ts source where the bench
 * saved tsx's source maps), the top of our own code (apps/*, packages/*) by total time, and the
 * time by package (ours, postgres, express, zod, pino, the MCP SDK, node internals, GC, idle).
 *
 *   npx tsx bench/profile-top.ts prof                      # the newest profile in prof/
 *   npx tsx bench/profile-top.ts prof --case distinct      # only while that case ran
 *   npx tsx bench/profile-top.ts prof/CPU....cpuprofile --top 40
 *
 * Case windows (`--case`) come from `windows-<pid>.json`, written by the bench scripts beside the
 * profile. Total time is of synchronous stacks: an async function's time after an `await` is
 * counted under whatever resumed it (the microtask queue), not under its caller.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const cases = option('--case')?.split(',');
const topN = Number(option('--top') ?? 30);
const target = args[0];
if (!target) {
  console.error('usage: profile-top.ts <file.cpuprofile | dir> [--case name[,name]] [--top 30]');
  process.exit(2);
}

/** The file itself, or the newest main-thread profile in the folder (tsx's loader thread writes one too). */
function profileFile(p: string): string {
  if (!statSync(p).isDirectory()) return p;
  const found = readdirSync(p)
    .filter((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f))
    .map((f) => path.join(p, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!found[0]) throw new Error(`no main-thread .cpuprofile (CPU.*.<pid>.0.*) in ${p}`);
  return found[0];
}

// Paths as given where the command was typed (pnpm runs scripts in the package's folder).
const file = profileFile(path.resolve(process.env.INIT_CWD ?? process.cwd(), target));
const dir = path.dirname(file);
const pid = path.basename(file).split('.')[3]; // CPU.<date>.<time>.<pid>.<tid>.<seq>.cpuprofile
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

// --- Which samples: all, or those inside the named cases' windows. ---
let windows: [number, number][] = [[Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]];
if (cases) {
  const windowsFile = path.join(dir, `windows-${pid}.json`);
  if (!existsSync(windowsFile)) throw new Error(`--case needs ${windowsFile}`);
  const all = JSON.parse(readFileSync(windowsFile, 'utf8')) as Record<string, [number, number]>;
  windows = cases.map((c) => {
    if (!all[c]) throw new Error(`no case ${c} in ${windowsFile}; there are ${Object.keys(all).join(', ')}`);
    return all[c]!;
  });
}

// --- Source maps: saved by sourcemaps.ts (tsx), or a built package's own .js.map beside its dist file. ---
const mapsFile = path.join(dir, `sourcemaps-${pid}.json`);
const payloads = existsSync(mapsFile)
  ? (JSON.parse(readFileSync(mapsFile, 'utf8')) as Record<string, SourceMapPayload>)
  : {};
const maps = new Map<string, SourceMap | null>();
function mapOf(url: string): SourceMap | null {
  if (maps.has(url)) return maps.get(url)!;
  let payload = payloads[url];
  if (!payload && url.startsWith('file://') && !url.includes('/node_modules/')) {
    const file = `${fileURLToPath(url)}.map`;
    if (existsSync(file)) payload = JSON.parse(readFileSync(file, 'utf8')) as SourceMapPayload;
  }
  const map = payload ? new SourceMap(payload) : null;
  maps.set(url, map);
  return map;
}

/** The source file and 1-based line of a frame: the .ts source where a map tells it. */
function sourceOf(frame: CallFrame): { file: string; line: number } {
  const file = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url;
  const entry = mapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber) as
    | { originalSource?: string; originalLine?: number }
    | undefined;
  if (entry?.originalLine === undefined) return { file, line: frame.lineNumber + 1 };
  const original = entry.originalSource ?? file;
  return {
    file: original.startsWith('file://')
      ? fileURLToPath(original)
      : path.resolve(path.dirname(file), original),
    line: entry.originalLine + 1,
  };
}

/** `apps/x/...` or `packages/x/...` of a workspace file (of whichever checkout the profile ran), or null. */
function ourPath(file: string): string | null {
  if (file.includes('/node_modules/')) return null;
  return file.match(/\/((?:apps|packages)\/[^/]+\/.*)$/)?.[1] ?? null;
}

/** Where a frame's code lives, for the by-package summary. */
function groupOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native/V8 builtins)';
  if (url.startsWith('node:')) return 'node internals';
  const p = url.startsWith('file://') ? fileURLToPath(url) : url;
  const nm = p.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = p.slice(nm + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const ours = ourPath(p);
  return ours ? `ours: ${ours.split('/').slice(0, 2).join('/')}` : p;
}

/** file:line, shortened: workspace-relative for ours, package-relative for node_modules. */
function where(frame: CallFrame): string {
  if (!frame.url) return '';
  const { file, line } = sourceOf(frame);
  const nm = file.lastIndexOf('/node_modules/');
  const short = nm >= 0 ? file.slice(nm + '/node_modules/'.length) : (ourPath(file) ?? file);
  return `${short}:${line}`;
}

// --- Attribute each sample's time (to the next sample) to its function, stack and packages. ---
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const keyOf = (f: CallFrame) => `${f.functionName}\u0000${f.url}\u0000${f.lineNumber}\u0000${f.columnNumber}`;
const frames = new Map<string, CallFrame>();
const self = new Map<string, number>();
const total = new Map<string, number>();
const groupSelf = new Map<string, number>();
const groupTotal = new Map<string, number>();
const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);

let t = profile.startTime;
const times = profile.timeDeltas.map((d) => (t += d));
let sampled = 0;
let idle = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const at = times[i]!;
  if (!windows.some(([from, to]) => at >= from && at <= to)) continue;
  const dur = (times[i + 1] ?? profile.endTime) - at;
  if (dur <= 0) continue;
  sampled += dur;
  const leaf = byId.get(profile.samples[i]!)!;
  if (leaf.callFrame.functionName === '(idle)') {
    idle += dur;
    continue;
  }
  const leafKey = keyOf(leaf.callFrame);
  frames.set(leafKey, leaf.callFrame);
  add(self, leafKey, dur);
  add(groupSelf, groupOf(leaf.callFrame), dur);
  const seen = new Set<string>();
  const groups = new Set<string>();
  for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
    const f = byId.get(id)!.callFrame;
    if (f.functionName === '(root)') continue;
    const k = keyOf(f);
    frames.set(k, f);
    if (!seen.has(k)) {
      seen.add(k);
      add(total, k, dur);
    }
    groups.add(groupOf(f));
  }
  for (const g of groups) add(groupTotal, g, dur);
}

const busy = sampled - idle;
const pct = (x: number) => `${((100 * x) / busy).toFixed(1)}%`;
const msOf = (us: number) => (us / 1000).toFixed(0);
const name = (f: CallFrame) => f.functionName || '(anonymous)';
const isOurs = (f: CallFrame) => groupOf(f).startsWith('ours:');
const isMeta = (f: CallFrame) => !f.url && f.functionName.startsWith('(');

function list(title: string, entries: [string, number][]) {
  console.log(`\n${title}\n`);
  console.log('| self ms | self | total | function | where | package |');
  console.log('|---:|---:|---:|---|---|---|');
  for (const [k, _] of entries.slice(0, topN)) {
    const f = frames.get(k)!;
    console.log(
      `| ${msOf(self.get(k) ?? 0)} | ${pct(self.get(k) ?? 0)} | ${pct(total.get(k) ?? 0)} | ${name(f)} | ${where(f)} | ${groupOf(f)} |`,
    );
  }
}

const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
console.log(`profile ${file}${cases ? `, case ${cases.join(' + ')}` : ''}`);
console.log(
  `${(sampled / 1e6).toFixed(1)} s sampled: ${(busy / 1e6).toFixed(1)} s on the CPU (${((100 * busy) / sampled).toFixed(0)}%), ${(idle / 1e6).toFixed(1)} s idle (waiting: PostgreSQL, the network). Percentages are of the time on the CPU.`,
);
if (!Object.keys(payloads).length) console.log('(no source maps saved: .ts lines are of the generated code)');
list(`Top ${topN} by self time`, sorted(self));
list(
  `Top ${topN} by total time (synchronous stacks)`,
  sorted(total).filter(([k]) => !isMeta(frames.get(k)!)),
);
list(
  `Top ${topN} of our code (apps/*, packages/*) by total time`,
  sorted(total).filter(([k]) => isOurs(frames.get(k)!)),
);
console.log('\nBy package (self: in its own code; total: on the stack)\n');
console.log('| package | self | total |');
console.log('|---|---:|---:|');
const packages = sorted(groupTotal).sort((a, b) => (groupSelf.get(b[0]) ?? 0) - (groupSelf.get(a[0]) ?? 0));
for (const [g, v] of packages.slice(0, topN)) {
  console.log(`| ${g} | ${pct(groupSelf.get(g) ?? 0)} | ${pct(v)} |`);
}
