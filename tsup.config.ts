import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';

/**
 * The server's, the store's and the MCP command's packages are optionalDependencies (installed with
 * the package, so `npx backlink-query serve` works; left out by `npm install --omit=optional`).
 * tsup keeps dependencies and peerDependencies outside the build on its own, but not these.
 */
const { optionalDependencies } = JSON.parse(readFileSync('package.json', 'utf8')) as { optionalDependencies: Record<string, string> };

/**
 * backlink-query/kysely and /testing load their optional peer in `optional-peer.ts` with a
 * top-level await import(), so that a missing peer gets a message naming what to install
 * (src/peers.ts). CommonJS has no top-level await: in the CommonJS build each `./optional-peer.js`
 * import resolves to its twin `optional-peer.cjs.ts`, which uses require(). (TSUP_FORMAT is the
 * define tsup sets for each format.)
 */
const cjsPeerLoaders: Plugin = {
  name: 'cjs-peer-loaders',
  setup(build) {
    if (build.initialOptions.define?.['TSUP_FORMAT'] !== JSON.stringify('cjs')) return;
    build.onResolve({ filter: /^\.\/optional-peer\.js$/ }, (args) => ({ path: join(args.resolveDir, 'optional-peer.cjs.ts') }));
  },
};

/**
 * Chevrotain 11 is published as ES modules only, so the CommonJS build cannot `require()` it on a
 * Node without require(esm) (20.19 with `--no-experimental-require-module`, or older 20.x). The
 * CommonJS build bundles it (with its own dependencies); the ES module build imports it, so an
 * application that uses Chevrotain itself shares one copy. `noExternal` bundles it in both
 * formats; this plugin, which runs after tsup's own external plugin, puts it back outside for ESM.
 */
const chevrotainExternalInEsm: Plugin = {
  name: 'chevrotain-external-in-esm',
  setup(build) {
    if (build.initialOptions.define?.['TSUP_FORMAT'] === JSON.stringify('cjs')) return;
    build.onResolve({ filter: /^chevrotain$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/** The package's entries, in both formats and with their types. */
const library = {
  index: 'src/index.ts',
  client: 'src/client/index.ts',
  // The filter language alone (its chunks are shared with what the client loads, with import(),
  // to validate filters locally).
  filter: 'src/filter/index.ts',
  server: 'src/server/index.ts',
  testing: 'src/testing/index.ts',
  kysely: 'src/kysely/index.ts',
};

export default defineConfig({
  // The CLI is built as an ES module only: bin/backlink-query.js imports dist/cli.js.
  entry: { ...library, cli: 'src/cli/main.ts' },
  format: ['esm', 'cjs'],
  esbuildOptions(options, { format }) {
    if (format === 'cjs') options.entryPoints = library;
    // The maps point into the package's sources without carrying them: a third of the size.
    options.sourcesContent = false;
  },
  dts: { entry: library },
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
  // import.meta.url in the CommonJS build (the SQLite store resolves its worker's driver with it).
  shims: true,
  external: Object.keys(optionalDependencies),
  noExternal: ['chevrotain'],
  esbuildPlugins: [cjsPeerLoaders, chevrotainExternalInEsm],
});
