/**
 * Decides whether a run needs the database servers: only when a selected test file lives in a
 * folder that talks to them, so a run of the parser's unit tests pays nothing.
 *
 * @internal
 * @module
 */
import { relative, sep } from 'node:path';
import type { TestProject } from 'vitest/node';

/** Test folders whose files talk to PostgreSQL or MariaDB. Add a folder here when a suite needs them. @internal */
export const ENGINE_FOLDERS = ['test/differential/', 'test/injection/', 'test/unit/kysely/', 'test/server/', 'test/e2e/', 'test/setup/'];

/**
 * Whether the run needs the servers. `BQ_ENGINES=always` forces them; watch mode always starts
 * them because the selection changes while it runs.
 *
 * @internal
 */
export async function runNeedsEngines(project: TestProject): Promise<{ needed: boolean; reason: string }> {
  if (process.env.BQ_ENGINES === 'always') return { needed: true, reason: 'BQ_ENGINES=always' };
  if (project.config.watch) return { needed: true, reason: 'watch mode' };
  // vitest keeps the CLI file filters on its instance; it is not a public field, hence the guard.
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  const { testFiles } = await project.globTestFiles(filters);
  const root = project.config.root;
  const hit = testFiles
    .map((file) => relative(root, file).split(sep).join('/'))
    .find((file) => ENGINE_FOLDERS.some((folder) => file.startsWith(folder)));
  return hit === undefined
    ? { needed: false, reason: `no selected file under ${ENGINE_FOLDERS.join(', ')}` }
    : { needed: true, reason: hit };
}
