/**
 * Architecture rules checked in the lint step (`pnpm lint:deps`): no import loops (at run time or
 * through types), no app importing another app's internals, packages never importing apps.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import loop: modules that need each other should share a third module instead.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'packages-not-apps',
      severity: 'error',
      comment:
        'Packages are the shared layer; their source never reaches up into an app (tests and scripts may).',
      from: { path: '^packages/[^/]+/src/' },
      to: { path: '^apps/' },
    },
    {
      name: 'contracts-are-a-leaf',
      severity: 'error',
      comment:
        'The API contract (@mdq/contracts) is what the API serves and the read layer returns: it describes shapes and imports no mdq package but the chain address rules, so every side can import it.',
      from: { path: '^packages/contracts/src/' },
      to: { path: '^(packages/(?!contracts/|chain/src/address)|apps/)' },
    },
    {
      name: 'db-ingest-is-the-indexers',
      severity: 'error',
      comment:
        '@mdq/db/ingest writes chain data with the checkpoint: only the indexer (and the CLI and benches that run it) may import it, never the API or the worker.',
      from: { path: '^(apps/(api|worker)|packages/(?!db/))[^/]*/src/' },
      to: { path: '^packages/db/src/(ingest\\.ts|ingest/)' },
    },
    {
      name: 'db-worker-is-the-workers',
      severity: 'error',
      comment:
        "@mdq/db/worker holds the worker's reads and writes (rankings, rarity, snapshots): the API and the indexer read what it stored through their own entry points.",
      from: { path: '^apps/(api|indexer)/src/' },
      to: { path: '^packages/db/src/(worker\\.ts|queries/worker/)' },
    },
    {
      name: 'db-readers-not-in-the-indexer',
      severity: 'error',
      comment:
        "The indexer writes; the read entry points (@mdq/db/read, /feed, /export) are the API's and the tools'.",
      from: { path: '^apps/indexer/src/' },
      to: { path: '^packages/db/src/(read\\.ts|export\\.ts|feed\\.ts|queries/api/|queries/feed/|export/)' },
    },
    {
      name: 'db-embedded-is-the-clis',
      severity: 'error',
      comment:
        "The embedded Postgres launcher (@mdq/db/embedded) is `mdq start`'s and the tests', not a service's.",
      from: { path: '^apps/(api|worker|indexer)/src/' },
      to: { path: '^packages/db/src/embedded' },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A source file nothing imports is dead code (entry points and tests excepted).',
      from: {
        orphan: true,
        pathNot: [
          '(^|/)test/',
          '\\.d\\.ts$',
          '(^|/)vitest\\.config\\.ts$',
          '^bench/',
          '(^|/)scripts/',
          '^apps/cli/src/main\\.ts$',
          '(^|/)src/index\\.ts$',
          '(^|/)src/testing\\.ts$',
        ],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|(^|/)\\.turbo/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
