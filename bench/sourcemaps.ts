/**
 * Preloaded into the server child in profile mode (after tsx): as the process exits, writes the
 * source maps tsx made for the workspace's TypeScript (apps/*, packages/*), so that
 * `profile-top.ts` can name the line of the .ts source, not of the JavaScript V8 ran.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { findSourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.env.BENCH_PROFILE;

function tsFiles(from: string, into: string[]): string[] {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const p = path.join(from, entry.name);
    if (entry.isDirectory()) tsFiles(p, into);
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) into.push(p);
  }
  return into;
}

process.on('exit', () => {
  if (!dir) return;
  const maps: Record<string, unknown> = {};
  for (const top of ['apps', 'packages']) {
    for (const pkg of readdirSync(path.join(root, top))) {
      const src = path.join(root, top, pkg, 'src');
      let files: string[] = [];
      try {
        files = tsFiles(src, []);
      } catch {
        continue;
      }
      for (const file of files) {
        const url = pathToFileURL(file).href;
        const map = findSourceMap(url);
        if (map) maps[url] = map.payload;
      }
    }
  }
  writeFileSync(path.join(dir, `sourcemaps-${process.pid}.json`), JSON.stringify(maps));
});
