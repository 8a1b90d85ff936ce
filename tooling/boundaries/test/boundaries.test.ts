// The project's import rules (.dependency-cruiser.cjs at the root), run by dependency-cruiser over a
// small fixture that breaks each of them once, and over the real sources against the known-violations
// baseline.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ICruiseResult, IViolation } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = fileURLToPath(new URL('./fixture/', import.meta.url));
const depcruise = fileURLToPath(new URL('../node_modules/.bin/depcruise', import.meta.url));

/** The CLI with the project's config, from `cwd` (the rules' paths are relative to it). */
function depcruiseIn(cwd: string, args: string[]) {
  return spawnSync(depcruise, ['--config', `${root}.dependency-cruiser.cjs`, '--no-cache', ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

function violationsIn(cwd: string, paths: string[]): IViolation[] {
  const run = depcruiseIn(cwd, ['-T', 'json', ...paths]);
  if (run.stdout === '') throw new Error(`depcruise printed nothing: ${run.stderr}`);
  return (JSON.parse(run.stdout) as ICruiseResult).summary.violations;
}

const brief = (v: IViolation): string =>
  v.cycle
    ? `${v.rule.name}: ${[v.from, ...v.cycle.map((step) => step.name)].join(' → ')}`
    : `${v.rule.name}: ${v.from} → ${v.to}`;

describe('the import rules over a fixture', () => {
  it('reports each broken rule, and nothing that keeps them', () => {
    const found = violationsIn(fixture, ['apps', 'packages']).map(brief).sort();
    expect(found).toEqual([
      'apps-not-to-store: apps/demo/src/reads-store.ts → packages/store/src/index.ts',
      'module-layers-listed: packages/operations/src/stray/unlisted.ts → packages/operations/src/core/index.ts',
      'module-layers: packages/operations/src/core/reaches-up.ts → packages/operations/src/bookings/index.ts',
      'no-cycle: apps/demo/src/a.ts → apps/demo/src/b.ts → apps/demo/src/a.ts',
      'no-cycle: apps/demo/src/c.ts → apps/demo/src/d.ts → apps/demo/src/c.ts',
      'no-deep-import: packages/operations/src/bookings/book.ts → packages/operations/src/core/clock.ts',
      'no-deep-import: packages/operations/src/registry.ts → packages/operations/src/schedule/slots.ts',
      'only-the-confirm-step: packages/operations/src/core/asks-bare.ts → packages/operations/src/core/confirm-code.ts',
      'packages-not-to-apps: packages/operations/src/calls-app.ts → apps/demo/src/a.ts',
      'pure-packages-no-io: packages/slot-engine/src/reads-disk.ts → fs',
      'store-not-to-operations: packages/store/src/calls-up.ts → packages/operations/src/index.ts',
      'testing-entry-for-tests: apps/demo/src/seeds-outside-tests.ts → packages/operations/src/testing.ts',
    ]);
  });

  it('fails the way `pnpm lint` runs it: exit code = the number of errors, each one named', () => {
    const run = depcruiseIn(fixture, ['-T', 'err', 'apps', 'packages']);
    expect(run.status).toBe(12);
    expect(run.stdout).toContain('error no-cycle: apps/demo/src/a.ts');
    expect(run.stdout).toContain('error apps-not-to-store: apps/demo/src/reads-store.ts');
    expect(run.stdout).toContain('error no-deep-import: packages/operations/src/bookings/book.ts');
    expect(run.stdout).toContain('error module-layers: packages/operations/src/core/reaches-up.ts');
  });
});

describe('the import rules over the sources', () => {
  it('find every known violation still there (the baseline only shrinks) and none beside it', () => {
    const key = (v: IViolation): string => `${v.rule.name}: ${v.from} → ${v.to}`;
    const known: IViolation[] = JSON.parse(
      readFileSync(`${root}.dependency-cruiser-known-violations.json`, 'utf8'),
    );
    const found = violationsIn(root, ['apps/*/src', 'packages/*/src']);
    // A known violation that is gone must be taken out of the file, so that it cannot come back.
    expect(known.map(key).sort()).toEqual(found.map(key).sort());
  });
});
