/**
 * Decides which database servers a run needs: PostgreSQL, MariaDB, ClickHouse and the two-shard
 * ClickHouse cluster each start only when a selected test file talks to that server, so a run of
 * the parser's unit tests, or of the SQLite server suite, pays for none of them.
 *
 * A file needs a server when its path matches one of the patterns below, or when it belongs to a
 * project that runs every file on that server (`server-postgres`, `server-clickhouse`). A file
 * that uses a server it is not listed for fails loudly (`engineUrl` in test/helpers/engines.ts
 * names this file); it never skips.
 *
 * @internal
 * @module
 */
import { relative, sep } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { ServerName } from './engine-processes.js';

/** The engine self-tests of test/setup, except the cluster's own, which needs only the cluster. */
const SETUP_SELF_TESTS = /^test\/setup\/(?!clickhouse-cluster\.test\.ts$).*\.test\.ts$/;

/** Test files that talk to each server, by path from the repository root. Add a file here when a suite needs one. @internal */
export const ENGINE_FILES: Readonly<Record<ServerName, readonly RegExp[]>> = {
  postgres: [
    /^test\/differential\/(postgres|postgres-linguistic|pinned|sensitivity)\.test\.ts$/,
    /^test\/injection\/.*\.test\.ts$/,
    /^test\/unit\/kysely\/postgres\.test\.ts$/,
    SETUP_SELF_TESTS,
    /^test\/server\/(postgres-store|rollups-postgres|import|migrations|query-plans|cancel-engines)\.test\.ts$/,
    /^test\/server\/load\/(mixed-load|postgres-outage|abort-storm)\.test\.ts$/,
  ],
  mysql: [
    /^test\/differential\/(mysql|mysql-linguistic|pinned|sensitivity)\.test\.ts$/,
    /^test\/injection\/.*\.test\.ts$/,
    SETUP_SELF_TESTS,
  ],
  clickhouse: [
    /^test\/differential\/(clickhouse|pinned|sensitivity)\.test\.ts$/,
    /^test\/injection\/.*\.test\.ts$/,
    SETUP_SELF_TESTS,
  ],
  clickhouseCluster: [/^test\/setup\/clickhouse-cluster\.test\.ts$/, /^test\/server\/(rollups-clickhouse|clickhouse-[a-z-]+|import)\.test\.ts$/],
};

/** Projects (vitest.config.ts) that run every one of their files on a server. @internal */
export const PROJECT_ENGINES: Readonly<Record<string, readonly ServerName[]>> = {
  'server-postgres': ['postgres'],
  'server-clickhouse': ['clickhouseCluster'],
};

/** The servers one file needs in a project. @internal */
export function enginesOfFile(file: string, project: string): ServerName[] {
  const names = Object.keys(ENGINE_FILES) as ServerName[];
  return names.filter((name) => PROJECT_ENGINES[project]?.includes(name) || ENGINE_FILES[name].some((pattern) => pattern.test(file)));
}

/**
 * The servers the project's selected files need, each with the first file that needs it.
 * `BQ_ENGINES=always` starts all of them; watch mode too, because the selection changes while it runs.
 *
 * @internal
 */
export async function enginesNeeded(project: TestProject): Promise<Map<ServerName, string>> {
  const all = Object.keys(ENGINE_FILES) as ServerName[];
  if (process.env.BQ_ENGINES === 'always') return new Map(all.map((name) => [name, 'BQ_ENGINES=always']));
  if (project.config.watch) return new Map(all.map((name) => [name, 'watch mode']));
  // vitest keeps the CLI file filters on its instance; it is not a public field, hence the guard.
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  const { testFiles } = await project.globTestFiles(filters);
  const root = project.config.root;
  const needed = new Map<ServerName, string>();
  for (const file of testFiles.map((f) => relative(root, f).split(sep).join('/')).sort()) {
    for (const name of enginesOfFile(file, project.name)) if (!needed.has(name)) needed.set(name, file);
  }
  return needed;
}
