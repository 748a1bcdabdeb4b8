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
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { ServerName } from './engine-processes.js';

/**
 * The engine self-tests of test/setup (the cluster's own needs only the cluster; the other files
 * of test/setup need no server of this run: the interrupted-run test's child runs start their own).
 */
const SETUP_SELF_TESTS = /^test\/setup\/engines\.test\.ts$/;

/** Test files that talk to each server, by path from the repository root. Add a file here when a suite needs one. @internal */
export const ENGINE_FILES: Readonly<Record<ServerName, readonly RegExp[]>> = {
  postgres: [
    /^test\/differential\/(postgres|postgres-linguistic|pinned|sensitivity)\.test\.ts$/,
    /^test\/injection\/.*\.test\.ts$/,
    /^test\/unit\/kysely\/postgres\.test\.ts$/,
    SETUP_SELF_TESTS,
    /^test\/server\/store\/engines\/postgres\/.*\.test\.ts$/,
    /^test\/server\/(import\/(import|beside-server-postgres)|http\/migrations|store\/query-plans|store\/engines\/cancel-engines)\.test\.ts$/,
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
  clickhouseCluster: [
    /^test\/setup\/clickhouse-cluster\.test\.ts$/,
    /^test\/server\/store\/engines\/clickhouse\/.*\.test\.ts$/,
    /^test\/server\/import\/(import|beside-server-clickhouse)\.test\.ts$/,
  ],
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
 * The servers the selected files of the given projects need, each with the first file that needs
 * it. `BQ_ENGINES=always` starts all of them; watch mode too, because the selection changes while it runs.
 *
 * @internal
 */
export async function enginesNeeded(projects: readonly TestProject[]): Promise<Map<ServerName, string>> {
  const all = Object.keys(ENGINE_FILES) as ServerName[];
  if (process.env.BQ_ENGINES === 'always') return new Map(all.map((name) => [name, 'BQ_ENGINES=always']));
  if (projects.some((project) => project.config.watch)) return new Map(all.map((name) => [name, 'watch mode']));
  const needed = new Map<ServerName, string>();
  for (const project of projects) {
    // vitest keeps the CLI file filters on its instance; it is not a public field, hence the guard.
    const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
    const { testFiles } = await project.globTestFiles(filters);
    const root = project.config.root;
    for (const file of testFiles.map((f) => relative(root, f).split(sep).join('/')).sort()) {
      for (const name of enginesOfFile(file, project.name)) if (!needed.has(name)) needed.set(name, `${file} (${project.name})`);
    }
  }
  return needed;
}

/**
 * Test files that need something heavier than vitest's own processes, which `npm run test:quick`
 * leaves out together with every file that needs a database server (`ENGINE_FILES`): a browser,
 * a packed tarball, a fresh copy of the clone, child processes, or a long time (test/setup/quick-selection.test.ts
 * fails when a file that starts processes is missing here). @internal
 */
export const HEAVY_FILES: Readonly<Record<string, RegExp>> = {
  'Chromium and a fresh copy of the clone': /^test\/playground\/playground\.test\.ts$/,
  'a packed tarball installed in fresh projects': /^test\/entries\/packed\.test\.ts$/,
  'a fresh copy of the clone with npm ci': /^test\/docs\/examples\.test\.ts$/,
  'child vitest runs that start engines': /^test\/setup\/interrupted-run\.test\.ts$/,
  'the CLI run as processes': /^test\/cli\/.*\.test\.ts$/,
  'the MCP server over stdio': /^test\/mcp\/(?!cost\.test\.ts$).*\.test\.ts$/,
  'builds of the package and bundlers': /^test\/entries\/.*\.test\.ts$/,
  'server processes (serve, --workers, a second server on the column file, imports, an import killed midway, an import out of memory)':
    /^test\/server\/(workers|commands|worker-accounts|http\/e2e|store\/engines\/embedded\/(embedded-store|column-file)|import\/(formats|interrupted|memory|batch|format-option|seen-at|all-or-nothing|beside-server(-postgres|-clickhouse)?|no-ips|reduced-exports))\.test\.ts$/,
  'the test service with its server packages hidden, and node --test': /^test\/testing\/test-service-entry\.test\.ts$/,
  'the playground build script': /^test\/playground\/build\.test\.ts$/,
  'the target page in Chromium, its build script and an import run as a process': /^test\/explore\/(explore|build)\.test\.ts$/,
  'long single scenarios (10 to 40 s a file on this 2-core machine)': /^test\/(server\/store\/engines\/(embedded|sqlite)\/rollups|unit\/errors\/bounded)\.test\.ts$/,
};

/**
 * The test files under `test/` (paths from `root`) that `npm run test:quick` leaves out: those
 * that need a database server and those in `HEAVY_FILES`. @internal
 */
export function quickExclusions(root: string): string[] {
  const files = readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .map((file) => `test/${file.split(sep).join('/')}`)
    .filter((file) => file.endsWith('.test.ts'));
  return files.filter((file) => enginesOfFile(file, 'quick').length > 0 || Object.values(HEAVY_FILES).some((pattern) => pattern.test(file))).sort();
}
