/**
 * The esbuild plugin that resolves Chevrotain's `lodash-es` imports to src/vendor/lodash-es.ts,
 * native code for the 37 functions Chevrotain 11 uses. Used by the build (tsup.config.ts), which
 * bundles Chevrotain, and by the bundle-size tests, which measure what the build ships.
 *
 * Only imports from Chevrotain's own packages are redirected: an application's lodash-es is its
 * own business, and anything else importing lodash-es (nothing in this package) would get the real one.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

/** The native module that stands in for lodash-es. */
export const NATIVE_LODASH = fileURLToPath(new URL('../src/vendor/lodash-es.ts', import.meta.url));

/** Resolves `lodash-es`, imported by chevrotain or an @chevrotain/* package, to {@link NATIVE_LODASH}. */
export const nativeLodash: Plugin = {
  name: 'native-lodash',
  setup(build) {
    build.onResolve({ filter: /^lodash-es$/ }, (args) =>
      /[\\/]node_modules[\\/](chevrotain|@chevrotain[\\/][^\\/]+)[\\/]/.test(args.importer) ? { path: NATIVE_LODASH } : undefined,
    );
  },
};
