/**
 * How a test runs the CLI as a process: `node <the CLI built for this run>` (test/setup/cli-build.ts),
 * or in watch mode, where nothing is built, the sources through tsx. Either runs the current
 * sources, from any working directory; the arguments go after these.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inject } from 'vitest';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

/** Node's arguments that start the CLI, before the CLI's own. */
export function cliCommand(): string[] {
  const script = inject('cliScript');
  return script ? [script] : ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href, MAIN];
}
