// Import boundaries between the workspace's apps and packages (docs/architecture.md, "Import
// boundaries"). Run by `pnpm lint` over apps/*/src and packages/*/src, with the known violations in
// .dependency-cruiser-known-violations.json ignored: that file may only shrink.
//
// Paths are matched after resolution: a workspace import such as '@nogpets/store' resolves through
// pnpm's symlink to packages/store/src/..., so each rule names the package's folder.

/** The published, pure packages: domain rules only, no I/O. */
const PURE = '^packages/(pricing-tiers|coverage-geo|slot-engine|booking-rules|onboarding-checklist)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      // Rule a. A cycle makes the import order decide which side sees the other half-initialised
      // (a `const` read before its module ran), and it ties files that should change apart. Type-only
      // imports count too: they still join the two files' meaning, and a cycle that is only of types
      // today turns into a runtime one with the next value import. Test files in src/ are cruised as
      // well (nothing imports them, so they only matter if test helpers form a cycle); the folders
      // beside src/ (test/, faults/, scripts/) are not cruised: they are entry points, never imported.
      name: 'no-cycle',
      severity: 'error',
      comment:
        'No import cycle between files of apps/* or packages/*: move the shared piece to a leaf module.',
      from: { path: '^(apps|packages)/' },
      to: { circular: true },
    },
    {
      // Rule b. The store's tables are reached only through operations, which check who may do what,
      // write the audit and events, and keep each change in one transaction. An app that queries the
      // store directly skips all of that. Existing imports are listed in the known-violations file;
      // every new one fails. Test files are exempt: they may seed and read tables directly to set
      // up and check a case, and they are not part of what an app runs.
      name: 'apps-not-to-store',
      severity: 'error',
      comment: 'apps/* reach the store only through @nogpets/operations.',
      from: { path: '^apps/', pathNot: '\\.test\\.ts$' },
      to: { path: ['^packages/store/', '@nogpets/store'] },
    },
    {
      // Rule c. The pure packages are published and run anywhere (a browser, a test without a
      // database): they take facts as arguments and return answers. No file system, network or
      // processes, no database driver, no store/operations/runtime, no web framework.
      name: 'pure-packages-no-io',
      severity: 'error',
      comment:
        'Pure packages import no I/O: no node I/O modules, postgres, store, operations, runtime or express.',
      from: { path: PURE },
      to: {
        path: [
          '^(node:)?(fs|fs/promises|net|http|https|http2|child_process|cluster|dgram|dns|dns/promises|tls|worker_threads|inspector|readline)$',
          'node_modules/(postgres|pg|express)/',
          '^(postgres|pg|express)$',
          '^packages/(store|operations|runtime)/',
          '@nogpets/(store|operations|runtime)',
        ],
      },
    },
    {
      // Rule d. Packages are below the apps: an app composes packages, never the other way round.
      name: 'packages-not-to-apps',
      severity: 'error',
      comment: 'packages/* never import apps/*.',
      from: { path: '^packages/' },
      to: { path: ['^apps/', '@nogpets/(server|web|worker|api|mcp)'] },
    },
    {
      // Rule d. The store is the layer below operations: operations call the store, not back.
      name: 'store-not-to-operations',
      severity: 'error',
      comment: 'packages/store never imports @nogpets/operations.',
      from: { path: '^packages/store/' },
      to: { path: ['^packages/operations/', '@nogpets/operations'] },
    },
    {
      // Rule e. A 409 CONFIRM_REQUIRED always carries the summary the person agrees to, so only the
      // confirm step throws it (core/confirm.ts: confirmStep). ServiceError takes that code only as
      // the branded CONFIRM_CODE of core/confirm-code.ts, which confirm.ts alone imports (errors.ts
      // names its type).
      name: 'only-the-confirm-step',
      severity: 'error',
      comment: 'CONFIRM_REQUIRED is thrown by confirmStep (core/confirm.ts) only: ask through it.',
      from: { pathNot: '^packages/operations/src/core/(confirm|errors)\\.ts$' },
      to: { path: '^packages/operations/src/core/confirm-code\\.ts$' },
    },
  ],
  options: {
    // Only the sources: node_modules are resolved (to know what an import is) but not followed,
    // and the built dist/ folders are never read.
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)dist/', '(^|/)node_modules/\\.cache/'] },
    // Type-only imports are dependencies too (rule a).
    tsPreCompilationDeps: true,
    // Workspace packages resolve through their package.json "exports" (the published ones to their
    // dist/, which is excluded above: their sources are cruised from their own src/).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    skipAnalysisNotInRules: true,
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'metadata' },
  },
};
