import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    client: 'src/client/index.ts',
    server: 'src/server/index.ts',
    testing: 'src/testing/index.ts',
    kysely: 'src/kysely/index.ts',
    cli: 'src/cli/main.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
  // import.meta.url in the CommonJS build (the SQLite store resolves its worker's driver with it).
  shims: true,
});
