// For each published package: build it, `pnpm pack` it, install the tarball into a blank project
// (npm, with @types/node from the registry), then
//   1. run the README's first example as example.mjs with plain node (the examples assert with
//      node:assert, so a wrong claim fails the run);
//   2. typecheck the same text as example.ts (tsc, module nodenext, strict, lib checks on) and run it with tsx;
//   3. the same text as example.cts: typechecked against the CommonJS types (index.d.cts), compiled by
//      tsc to example.cjs (its imports become require()) and run with plain node, require(esm) off, on
//      the CommonJS build (index.cjs), asserts and all;
//   4. require() the package from a .cjs file with require(esm) turned off, and compare its export
//      names with the ESM build's.
// Usage: node check.mjs [package-dir-name ...]   (default: all five). Exit code 1 on any failure.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Listed, not discovered: only these are published with this check.
const PACKAGES = ['pricing-tiers', 'coverage-geo', 'slot-engine', 'booking-rules', 'onboarding-checklist'];

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const tsx = require.resolve('tsx/cli');

const run = (cmd, args, cwd, extra = {}) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...extra });

/** The README's first ```ts or ```js block (the install block is ```sh). */
export function firstExample(readme) {
  const fence = /^```(\w*)[^\n]*\n([\s\S]*?)^```\s*$/gm;
  for (const m of readme.matchAll(fence)) {
    if (['ts', 'js', 'typescript', 'javascript', 'mjs'].includes(m[1])) return m[2];
  }
  return null;
}

const TSCONFIG = {
  compilerOptions: {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    strict: true,
    outDir: 'out',
    skipLibCheck: false,
    types: ['node'],
  },
  files: ['example.ts', 'example.cts'],
};

const NAMES_CJS = `const name = process.argv[2];
const resolved = require.resolve(name);
if (!resolved.endsWith('.cjs')) throw new Error(name + ' resolved to ' + resolved + ', not the CommonJS build');
console.log(JSON.stringify(Object.keys(require(name)).sort()));
`;
const NAMES_MJS = `const mod = await import(process.argv[2]);
console.log(JSON.stringify(Object.keys(mod).filter((k) => k !== 'default').sort()));
`;

function check(dir) {
  const pkgDir = path.join(root, 'packages', dir);
  const { name, version } = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const example = firstExample(fs.readFileSync(path.join(pkgDir, 'README.md'), 'utf8'));
  if (!example) throw new Error(`${dir}/README.md has no \`\`\`ts or \`\`\`js example`);

  const work = fs.mkdtempSync(path.join(os.tmpdir(), `pack-check-${dir}-`));
  const steps = [];
  try {
    // pnpm pack rewrites workspace: ranges, as publishing does.
    run('pnpm', ['pack', '--pack-destination', work], pkgDir);
    const tarball = fs.readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error('pnpm pack made no tarball');
    const listing = run('tar', ['-tzf', path.join(work, tarball)], work).split('\n');
    for (const f of [
      'package/LICENSE',
      'package/README.md',
      'package/CHANGELOG.md',
      'package/dist/index.js',
      'package/dist/index.cjs',
      'package/dist/index.d.ts',
      'package/dist/index.d.cts',
    ]) {
      if (!listing.includes(f)) throw new Error(`${tarball} lacks ${f.slice('package/'.length)}`);
    }
    steps.push(`packed ${tarball} (${listing.filter(Boolean).length} files)`);

    const project = path.join(work, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(
      path.join(project, 'package.json'),
      `${JSON.stringify({ name: 'blank', private: true, type: 'module' }, null, 2)}\n`,
    );
    run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        path.join(work, tarball),
        '@types/node@^20.19.0',
      ],
      project,
    );
    steps.push(`installed into a blank project with npm`);

    fs.writeFileSync(path.join(project, 'example.mjs'), example);
    run(process.execPath, ['example.mjs'], project);
    steps.push('README example ran as example.mjs (node)');

    fs.writeFileSync(path.join(project, 'example.ts'), example);
    fs.writeFileSync(path.join(project, 'example.cts'), example);
    fs.writeFileSync(path.join(project, 'tsconfig.json'), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], project);
    run(process.execPath, [tsx, 'example.ts'], project);
    steps.push('README example typechecked as example.ts (tsc: nodenext, strict) and ran with tsx');
    const compiled = fs.readFileSync(path.join(project, 'out/example.cjs'), 'utf8');
    if (!compiled.includes(`require("${name}")`))
      throw new Error(`out/example.cjs does not require("${name}")`);
    run(process.execPath, ['--no-experimental-require-module', 'out/example.cjs'], project);
    steps.push('README example typechecked as example.cts (the .d.cts types), ran as CommonJS on index.cjs');
    fs.writeFileSync(path.join(project, 'names.cjs'), NAMES_CJS);
    fs.writeFileSync(path.join(project, 'names.mjs'), NAMES_MJS);
    const cjs = JSON.parse(
      run(process.execPath, ['--no-experimental-require-module', 'names.cjs', name], project),
    );
    const esm = JSON.parse(run(process.execPath, ['names.mjs', name], project));
    if (cjs.length === 0 || JSON.stringify(cjs) !== JSON.stringify(esm)) {
      throw new Error(`require() gives [${cjs.join(', ')}], import gives [${esm.join(', ')}]`);
    }
    steps.push(
      `require() (no require(esm)) loads the CommonJS build: ${cjs.length} exports, the same as import`,
    );
    fs.rmSync(work, { recursive: true, force: true });
    return { ok: true, label: `${name}@${version}`, steps };
  } catch (err) {
    const detail = [err.message, err.stdout, err.stderr].filter(Boolean).join('\n').trim();
    return { ok: false, label: `${name}@${version}`, steps, detail: `${detail}\n(kept ${work})` };
  }
}

/** The check over `dirs` (all five when empty): builds them, checks each, prints, sets the exit code. */
function main(wanted) {
  for (const w of wanted) if (!PACKAGES.includes(w)) throw new Error(`not a published package: ${w}`);
  const dirs = wanted.length ? wanted : PACKAGES;

  const filters = dirs.map((d) => `--filter=./packages/${d}`);
  execFileSync('pnpm', ['exec', 'turbo', 'run', 'build', ...filters, '--output-logs=errors-only'], {
    cwd: root,
    stdio: 'inherit',
  });

  let failed = 0;
  for (const dir of dirs) {
    const r = check(dir);
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.label}`);
    for (const s of r.steps) console.log(`     - ${s}`);
    if (!r.ok) {
      failed++;
      console.log(r.detail.replace(/^/gm, '     '));
    }
  }
  console.log(failed ? `${failed} of ${dirs.length} packages failed` : `all ${dirs.length} packages passed`);
  process.exitCode = failed ? 1 : 0;
}

// Run as a script only: importing `firstExample` builds and packs nothing.
if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2));
}
