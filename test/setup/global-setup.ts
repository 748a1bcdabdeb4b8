/**
 * Vitest global setup: builds the CLI the tests run as a process (cli-build.ts), and brings up the
 * real database engines the differential, injection, Kysely and server suites run against, once
 * per vitest run for every project, and hands the script and the URLs to the tests through
 * `provide`.
 *
 * - One set of servers per run: the root project starts what the selected files of all selected
 *   projects need, and every project reads the same URLs (projects do not collide on them: see
 *   docs/testing-engines.md, "One set of servers per run").
 * - PostgreSQL, MariaDB and ClickHouse are started in parallel by `scripts/engines/*.sh` on free
 *   ports of 127.0.0.1, after `scripts/engines/install.sh` has installed whatever is missing, in
 *   one folder `bq-engines-XXXXXX` under the temp dir.
 * - The two-shard ClickHouse cluster `bq_cluster` (two more servers, `clickhouse.sh cluster-start`)
 *   starts beside the single ClickHouse server when a selected file needs it; its URL is shard 1's
 *   and shard 2's HTTP URLs, comma-separated.
 * - `BQ_POSTGRES_URL` / `BQ_MYSQL_URL` / `BQ_CLICKHOUSE_URL` / `BQ_CLICKHOUSE_CLUSTER_URL` name
 *   existing servers to use instead.
 * - An engine that cannot start fails the whole run with its log tail; nothing is skipped.
 * - Each server starts only when a selected file needs it (see `engine-selection.ts`).
 * - Every server is stopped and the folder removed by the folder's reaper (`engine-reaper.mjs`,
 *   see `makeBaseDir`): at the teardown of a normal run, after a start that failed, and when the
 *   run ends without a teardown (Ctrl+C, SIGTERM, a crash).
 *
 * @module
 */
import type { TestProject } from 'vitest/node';
import { buildCliUnderTest } from './cli-build.js';
import { makeBaseDir, runScript, SERVERS, startServer, type RunningServer, type ServerName } from './engine-processes.js';
import { enginesNeeded } from './engine-selection.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `postgres://…` of the PostgreSQL server, or undefined when this run started no engine. */
    postgresUrl: string | undefined;
    /** `mysql://…` of the MariaDB/MySQL server, or undefined when this run started no engine. */
    mysqlUrl: string | undefined;
    /** `http://…` of the ClickHouse server, or undefined when this run started no engine. */
    clickhouseUrl: string | undefined;
    /**
     * `http://…,http://…`: the HTTP URLs of shard 1 and shard 2 of the two-shard ClickHouse
     * cluster `bq_cluster`, or undefined when this run started no cluster. Shard 1 is the entry
     * point; there is no ZooKeeper (no `ON CLUSTER`), so local tables are created on each URL.
     */
    clickhouseClusterUrl: string | undefined;
    /**
     * The CLI built from the current sources for this run (cli-build.ts), or undefined in watch
     * mode: test/helpers/cli-command.ts runs the sources through tsx then.
     */
    cliScript: string | undefined;
  }
}

const log = (message: string): void => void process.stderr.write(`[engines] ${message}\n`);

/**
 * Starts a server, and once more if it lost a port race. The scripts pick free ports, then the
 * server binds them; engines starting side by side can take such a port in between (seen in CI:
 * ClickHouse's shard 2 found its TCP port taken, "Address already in use"). A failed start has
 * stopped what it started, so a second start on fresh ports is clean.
 */
async function startRetryingPortRace(name: ServerName, dir: string): Promise<RunningServer> {
  try {
    return await startServer(name, dir);
  } catch (error) {
    if (!String((error as Error).message).includes('Address already in use')) throw error;
    log(`${name} lost a port race (Address already in use): starting it again on other ports`);
    return startServer(name, dir);
  }
}

/**
 * Starts what the run needs (the CLI under test, the engines) and returns the teardown.
 * vitest.config.ts names this file in the root config, and every project inherits it (`extends:
 * true`); only the root project's call does the work, for the selected files of every selected
 * project at once, and its `provide` reaches every project. The projects' own calls do nothing.
 *
 * @internal
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!project.isRootProject()) return async () => {};
  const cli = project.vitest.config.watch ? undefined : await buildCliUnderTest();
  project.provide('cliScript', cli?.script);
  const engines = await startEngines(project).catch((error: unknown) => {
    cli?.remove();
    throw error;
  });
  return async () => {
    cli?.remove();
    await engines();
  };
}

/** Starts the engines the selected files need; returns their teardown. */
async function startEngines(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const needed = await enginesNeeded(project.vitest.projects);
  const reason = [...needed].map(([name, file]) => `${name} for ${file}`).join(', ');
  if (needed.size === 0) {
    log('none started (no selected file needs one)');
    return async () => {};
  }
  if (process.env.BQ_TESTS === 'quick') throw new Error(`npm run test:quick selected files that need a database engine (${reason}): list them in test/setup/engine-selection.ts`);
  const toStart = [...needed.keys()].filter((name) => !process.env[SERVERS[name].urlEnv]);
  let urls = new Map<ServerName, string>();
  let teardown = async (): Promise<void> => {};
  if (toStart.length > 0) {
    await runScript('install.sh', []);
    const base = await makeBaseDir();
    teardown = () => base.remove();
    log(`starting ${toStart.join(', ')} in ${base.dir}`);
    const results = await Promise.allSettled(toStart.map((name) => startRetryingPortRace(name, base.dir)));
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error).message)] : []));
    if (failures.length > 0) {
      await teardown().catch((error: Error) => failures.push(error.message));
      throw new Error(`database engines failed to start:\n${failures.join('\n\n')}`);
    }
    urls = new Map(toStart.map((name, i) => [name, (results[i] as PromiseFulfilledResult<RunningServer>).value.url]));
    log(`ready in ${Date.now() - started} ms in ${base.dir} (${reason}): ${[...urls.values()].join(' ')}`);
  } else {
    log(`using existing servers (${reason})`);
  }
  project.provide('postgresUrl', needed.has('postgres') ? (process.env.BQ_POSTGRES_URL ?? urls.get('postgres')) : undefined);
  project.provide('mysqlUrl', needed.has('mysql') ? (process.env.BQ_MYSQL_URL ?? urls.get('mysql')) : undefined);
  project.provide('clickhouseUrl', needed.has('clickhouse') ? (process.env.BQ_CLICKHOUSE_URL ?? urls.get('clickhouse')) : undefined);
  project.provide(
    'clickhouseClusterUrl',
    needed.has('clickhouseCluster') ? (process.env.BQ_CLICKHOUSE_CLUSTER_URL ?? urls.get('clickhouseCluster')) : undefined,
  );
  return teardown;
}
