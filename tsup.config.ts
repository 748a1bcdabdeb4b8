import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';
import { chevrotainStubs } from './scripts/chevrotain-stubs.js';
import { nativeLodash } from './scripts/native-lodash.js';

type TsupPlugin = NonNullable<Options['plugins']>[number];

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
 * Chevrotain is bundled into both builds, its lodash-es imports resolved to native code of ours
 * (scripts/native-lodash.ts, src/vendor/lodash-es.ts). The CommonJS build has to carry it anyway:
 * Chevrotain 11 is published as ES modules only, which `require()` cannot load on a Node without
 * require(esm) (20.19 with `--no-experimental-require-module`, or older 20.x). The ES module build
 * used to import it instead, so that an application using Chevrotain itself would share one copy;
 * but then every browser bundle of the client's filter language also carried lodash-es (about
 * 9 KB of its 64 KB gzip, issue 26), and no import from the published files can avoid that.
 * Sharing Chevrotain with an application is rare (the package's parsers are built from its own
 * token types either way); a lighter first filtered call is what every user of the client gets.
 *
 * Bundling it also lets the build leave out what of Chevrotain the filter language never runs
 * (scripts/chevrotain-stubs.ts: the grammar's and the lexer's validations, the RegExp analysis,
 * CST building, default error messages; about a fifth of it), in both formats, so that the
 * CommonJS and the ES module files behave the same.
 */
const bundledChevrotain = { noExternal: ['chevrotain'], plugins: [nativeLodash, chevrotainStubs] };

/**
 * After each format is written: the files a bundler reads should give it nothing to warn about
 * and nothing empty to fetch.
 *
 * - esbuild's split chunks import each chunk they depend on, even one they take no binding from,
 *   with a bare `import './chunk-X.js'` (to keep evaluation order). The package declares
 *   `"sideEffects": false`, so an application's bundler drops those imports, and esbuild warns
 *   about each (`ignored-bare-import`, 15 to 17 per entry). No module of the package does anything
 *   when it is evaluated, so the order is free: the ES module files lose their bare chunk imports
 *   (the CommonJS files keep their `require()`s, which no bundler warns about).
 * - A module that only re-exports, imported by another entry (src/client/index.ts, which
 *   src/index.ts re-exports), becomes a chunk with no code; once nothing imports it, it goes.
 * - tsup's `treeshake` passes each file through Rollup, whose output already ends with the
 *   `//# sourceMappingURL=` comment tsup then appends again; one is kept. (Rollup adds nothing to
 *   esbuild's own tree-shaking of the ES module files, but it makes the CommonJS chunks, which
 *   this keeps as they are.)
 *
 * An import line is removed with its line ending and its (empty) line of the source map, so the
 * map stays true; a removed line with mappings would be a bug here, and stops the build. A build
 * without source maps (test/entries/optional-peers.test.ts builds with `sourcemap: false`) has
 * only the code to tidy.
 */
const tidyChunks: TsupPlugin = {
  name: 'tidy-chunks',
  async buildEnd({ writtenFiles }) {
    const code = writtenFiles.map((file) => file.name).filter((name) => /\.(c?js)$/.test(name));
    const emptied = new Set<string>();
    for (const name of code) {
      const path = resolve(name);
      const mapPath = `${path}.map`;
      const map = existsSync(mapPath) ? (JSON.parse(await readFile(mapPath, 'utf8')) as { mappings: string }) : undefined;
      const groups = map ? map.mappings.split(';') : [];
      const lines = (await readFile(path, 'utf8')).split('\n');
      const comment = `//# sourceMappingURL=${basename(name)}.map`;
      while (lines.length > 1 && (lines.at(-1) === '' || lines.at(-1) === comment) && lines.at(-2) === comment) lines.splice(-1, 1);
      const kept: string[] = [];
      const keptGroups: string[] = [];
      lines.forEach((line, index) => {
        const bare = name.endsWith('.js') && /^import '\.\/chunk-[A-Z0-9]+\.js';$/.test(line);
        if (bare && (groups[index] ?? '') !== '') throw new Error(`tidy-chunks: ${name}:${index + 1} has source mappings`);
        if (bare) return;
        kept.push(line);
        if (index < groups.length) keptGroups.push(groups[index]!);
      });
      await writeFile(path, kept.join('\n'));
      if (map) await writeFile(mapPath, JSON.stringify({ ...map, mappings: keptGroups.join(';') }));
      if (kept.every((line) => line.trim() === '' || line === comment || line === '"use strict";')) emptied.add(basename(name));
    }
    for (const name of code) {
      const text = await readFile(resolve(name), 'utf8');
      for (const empty of emptied) if (text.includes(`'./${empty}'`) || text.includes(`"./${empty}"`)) throw new Error(`tidy-chunks: ${name} still imports the empty ${empty}`);
    }
    for (const name of code) if (emptied.has(basename(name))) await Promise.all([rm(resolve(name)), rm(resolve(`${name}.map`), { force: true })]);
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
  // The arbitraries (src/testing/) and the test service, which sits above the server.
  testing: 'src/test-service/index.ts',
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
  noExternal: bundledChevrotain.noExternal,
  esbuildPlugins: [cjsPeerLoaders, ...bundledChevrotain.plugins],
  plugins: [tidyChunks],
});
