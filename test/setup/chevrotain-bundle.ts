/**
 * Chevrotain for the tests as one prebuilt ES module, as dist/ carries it (tsup.config.ts): its
 * lodash-es imports resolved to the package's native code (scripts/native-lodash.ts).
 *
 * Every test file runs in a fresh module graph, and from node_modules Chevrotain loads its own
 * modules and lodash-es's 600-odd one by one: about 0.45 s per test file on this machine, some 200
 * files a run. As one file it loads in 0.04 s. vitest.config.ts resolves `chevrotain` to it; it
 * lives under node_modules/.cache/, so vitest lets Node load it as it loads any package.
 *
 * The file's name carries a hash of Chevrotain's version and the native lodash source, so a
 * changed either builds a new one; concurrent runs write it under a temporary name and rename it.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { NATIVE_LODASH, nativeLodash } from '../../scripts/native-lodash.js';

/** Builds the bundle if it is not there yet; returns its path. */
export async function chevrotainBundle(root: string): Promise<string> {
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules', 'chevrotain', 'package.json'), 'utf8')) as { version: string };
  const hash = createHash('sha256').update(version).update(readFileSync(NATIVE_LODASH)).digest('hex').slice(0, 12);
  const dir = join(root, 'node_modules', '.cache', 'backlink-query');
  const file = join(dir, `chevrotain-${version}-${hash}.mjs`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  await build({
    stdin: { contents: "export * from 'chevrotain';", resolveDir: root, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile: partial,
    plugins: [nativeLodash],
    logLevel: 'error',
  });
  renameSync(partial, file);
  return file;
}
