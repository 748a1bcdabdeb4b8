import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { chevrotainBundle } from './test/setup/chevrotain-bundle.js';
import { quickExclusions } from './test/setup/engine-selection.js';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/**
 * The server suite: every file of test/server/http/ (the operations over HTTP, and the few store
 * checks that must hold on each store), run once per store, one project per store. The rest of
 * test/server/ depends on one engine or runs each engine itself (store/engines/<engine>/, import/,
 * sample/, the process tests at the top), and runs once, in `all`.
 */
const STORE_SUITE = ['test/server/http/*.test.ts'];

/**
 * A project of the server suite on one store (BQ_SERVER_STORE, read by test/server/support/helpers.ts).
 * Its files run in one module graph per worker (`isolate: false`): each file makes its own stores
 * and servers, and what they leave (folders, databases) goes at the file's end
 * (test/helpers/file-end.ts). Measured on the 18 files: 40 s against 61 s on the embedded store,
 * 82 s against 132 s on PostgreSQL and ClickHouse together, and about half the CPU time.
 */
const storeProject = (store: 'embedded' | 'sqlite' | 'postgres' | 'clickhouse'): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name: `server-${store}`, include: STORE_SUITE, env: { BQ_SERVER_STORE: store }, isolate: false },
});

/**
 * Starts the database servers the selected files of all selected projects need, once per run, and
 * provides their URLs to every project. Projects inherit it (`extends: true`), but only the root
 * project's call starts anything (see the file).
 */
const globalSetup = ['test/setup/global-setup.ts'];

/**
 * Test files that share nothing but modules that hold no state (the language, the catalogue, the
 * client, pure helpers): the `unit` project runs them without a fresh module graph per file
 * (`isolate: false`), which halves their time (each file otherwise loads the same modules again:
 * 41 s against 21 s for test/unit and test/client). The server suite runs so too, one project per
 * store (`storeProject`); everything else stays isolated, in `all`.
 */
const UNIT_FILES = ['test/unit/**/*.test.ts', 'test/client/**/*.test.ts', 'test/property/**/*.test.ts', 'test/conformance/**/*.test.ts'];

/** The projects of `npm test`. */
const FULL: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: 'all',
      include: ['test/**/*.test.ts'],
      exclude: ['test/server/load/**', ...UNIT_FILES, ...STORE_SUITE],
      typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    },
  },
  {
    extends: true,
    test: { name: 'unit', include: UNIT_FILES, isolate: false },
  },
  // The server suite on each store: the embedded default, SQLite alone, PostgreSQL, and ClickHouse
  // over a two-shard cluster.
  storeProject('embedded'),
  storeProject('sqlite'),
  storeProject('postgres'),
  storeProject('clickhouse'),
  {
    // Load and fault tests measure time bounds: they run last, one file at a time, on a
    // machine no other test is using (sequence.groupOrder puts them after both groups above).
    extends: true,
    test: {
      name: 'load',
      include: ['test/server/load/**/*.test.ts'],
      fileParallelism: false,
      sequence: { groupOrder: 1 },
    },
  },
];

/**
 * `npm run test:quick` (BQ_TESTS=quick): the 'all' project without the files that need a database
 * server, Chromium, a packed tarball, a fresh copy of the clone, child processes or a long time
 * (test/setup/engine-selection.ts, `quickExclusions`), and without the load tests and the server
 * suite's runs on other stores.
 */
const QUICK: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: 'quick',
      include: ['test/**/*.test.ts'],
      exclude: ['test/server/load/**', ...UNIT_FILES, ...STORE_SUITE, ...quickExclusions(ROOT)],
      typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    },
  },
  {
    extends: true,
    test: { name: 'quick-unit', include: UNIT_FILES, exclude: quickExclusions(ROOT), isolate: false },
  },
  {
    // The server suite on the embedded store, as `server-embedded` runs it.
    extends: true,
    test: { name: 'quick-server', include: STORE_SUITE, exclude: quickExclusions(ROOT), isolate: false },
  },
];

/** Chevrotain as one prebuilt file (test/setup/chevrotain-bundle.ts). */
const CHEVROTAIN = await chevrotainBundle(ROOT);

export default defineConfig({
  plugins: [
    {
      // Every importer's `chevrotain`, test files and sources alike.
      name: 'chevrotain-bundle',
      enforce: 'pre',
      resolveId: (source: string) => (source === 'chevrotain' ? CHEVROTAIN : undefined),
    },
  ],
  test: {
    // The JSON report lets .ci/run print the plain 'N passed, N failed' line.
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-report.json' }]],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two files at a time (vitest's default on 2 cores is one): most files spend much of their time
    // waiting on child processes, database servers or timers, and the second worker fills that
    // time. The load project still runs one file at a time (fileParallelism: false), after the rest.
    maxWorkers: 2,
    globalSetup,
    // At each file's end, what test/helpers/file-end.ts collected (databases to drop, folders to remove).
    setupFiles: ['test/setup/file-end.ts'],
    projects: process.env.BQ_TESTS === 'quick' ? QUICK : FULL,
  },
});
