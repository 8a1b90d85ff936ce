// Import boundaries between the workspace's apps and packages (docs/architecture.md, "Import
// boundaries"). Run by `pnpm lint` over apps/*/src and packages/*/src, with the known violations in
// .dependency-cruiser-known-violations.json ignored: that file may only shrink.
//
// Paths are matched after resolution: a workspace import such as '@nogpets/store' resolves through
// pnpm's symlink to packages/store/src/..., so each rule names the package's folder.

/** The published, pure packages: domain rules only, no I/O. */
const PURE = '^packages/(pricing-tiers|coverage-geo|slot-engine|booking-rules|onboarding-checklist)/';

/** The operations package's source: its modules are the folders under it (docs/architecture.md). */
const OPS = '^packages/operations/src/';

/**
 * The modules of operations, lowest first: a module imports only modules before it in this list
 * (rule f), so no two modules can import each other, directly or round a longer loop. One list, from
 * which the rules are made; docs/architecture.md ("Module layers") shows the same order.
 */
const MODULE_LAYERS = [
  'core', // the door, the context and its ports, errors, schemas, text, local times: imports no module
  'events', // the catalog of domain events and recording them (the context's call, its source)
  'staff', // who may run which business (inBusiness), staff and their invitations
  'places', // coverage, towns, leads, the offer cache (which business a booking tool acts on)
  'catalogue', // services, prices, quotes (a quote needs coverage)
  'schedule', // working time, weeks, open times (find_times prices through the catalogue)
  'directory', // the public directory of businesses (their towns, services and weeks)
  'bookings', // bookings and series: booked in open times, priced by the catalogue
  'hours', // changing working hours and time off, with the bookings a change strands
  'clients', // a business's clients, their jobs and notes
  'shop', // orders, paid with a booking or by link
  'money', // pay links, gateways, settlement, earnings, payouts (of bookings and orders)
  'notices', // mail to people made from the domain events: rules, rendering, the outbox pass, choices
  'feeds', // private calendar feeds of a person's bookings and a business's jobs
  'webhooks', // endpoints of businesses and persons, deliveries made from the domain events, signed POSTs
  'account', // the pet owner's own things and account page (their bookings, pets, addresses)
  'onboarding', // sign-up: drafts, applications, steps, review; areas a business proposes
  'identity', // sign-in (a sign-up link attaches its draft), sessions, keys, the OAuth server
  'internal', // the worker's jobs and the operator's commands, wrapping every module's functions
];

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
      // Rule b, for operations: apps call operations through runOperation. The plain functions
      // under them are offered to tests alone, through `@nogpets/operations/testing` (to seed a case
      // or run a job's rule with their own clock); an app's source never imports that entry.
      name: 'testing-entry-for-tests',
      severity: 'error',
      comment: 'apps/* call operations; @nogpets/operations/testing is for tests only.',
      from: { path: '^apps/', pathNot: '\\.test\\.ts$' },
      to: { path: '^packages/operations/src/testing\\.ts$' },
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
      // Rule e. A module is entered through one public file, its index.ts: what it offers the others
      // is listed there, and the rest of its files may change, move or split without touching
      // another module. Inside a module files import each other directly (an index importing its
      // own files and a file importing its own index would be a cycle). `$1` is the importing
      // file's module: its own files are allowed, and any other module's index.ts.
      name: 'no-deep-import',
      severity: 'error',
      comment: "A file of operations imports another module only through that module's index.ts.",
      from: { path: `${OPS}([^/]+)/` },
      to: { path: `${OPS}[^/]+/`, pathNot: [`${OPS}$1/`, `${OPS}[^/]+/index\\.ts$`] },
    },
    {
      // Rule e, for the package's own root files (index.ts, registry.ts): they too use only the
      // modules' entries.
      name: 'no-deep-import',
      severity: 'error',
      comment: 'The root files of operations import a module only through its index.ts.',
      from: { path: `${OPS}[^/]+$` },
      to: { path: `${OPS}[^/]+/`, pathNot: `${OPS}[^/]+/index\\.ts$` },
    },
    // Rule f. Module layers: a module imports only the modules below it in MODULE_LAYERS, so the
    // module graph has no cycle (a module that needs a piece of a higher one takes the piece down,
    // or the code is in the wrong module). Made from the one list: for each module, the modules
    // above it are forbidden. Test files (`*.test.ts`) inside a module are exempt: a test may run
    // the whole registry or seed through higher modules (schedule's local-days test books and pays);
    // nothing imports a test, so it joins no module to another. They still use the entries (rule e).
    ...MODULE_LAYERS.slice(0, -1).map((module, i) => ({
      name: 'module-layers',
      severity: 'error',
      comment: `operations/${module} may import only the modules below it: ${MODULE_LAYERS.slice(0, i).join(', ') || 'none'}.`,
      from: { path: `${OPS}${module}/`, pathNot: '\\.test\\.ts$' },
      to: { path: `${OPS}(${MODULE_LAYERS.slice(i + 1).join('|')})/` },
    })),
    {
      // Rule f's list holds every module: a folder of operations not in it has no place in the
      // order, so each of its imports is reported until it is added where it belongs.
      name: 'module-layers-listed',
      severity: 'error',
      comment: 'Every module folder of operations is in MODULE_LAYERS (.dependency-cruiser.cjs).',
      from: { path: `${OPS}[^/]+/`, pathNot: `${OPS}(${MODULE_LAYERS.join('|')})/` },
      to: {},
    },
    {
      // Rule g. A 409 CONFIRM_REQUIRED always carries the summary the person agrees to, so only the
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
