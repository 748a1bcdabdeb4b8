/**
 * How a test runs the CLI as a process: `node <the CLI built for this run>` (test/setup/cli-build.ts),
 * or in watch mode, where nothing is built, `node --import tsx src/cli/main.ts`. Either runs the
 * current sources; the arguments go after these. Run it with the clone as the working directory
 * (tsx's `src/cli/main.ts` is relative).
 */
import { inject } from 'vitest';

/** Node's arguments that start the CLI, before the CLI's own. */
export function cliCommand(): string[] {
  const script = inject('cliScript');
  return script ? [script] : ['--import', 'tsx', 'src/cli/main.ts'];
}
