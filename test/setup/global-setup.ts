/**
 * Vitest global setup: brings up the real database engines the differential, injection, Kysely
 * and server suites run against, and hands their URLs to the tests through `provide`.
 *
 * - PostgreSQL, MariaDB and ClickHouse are started in parallel by `scripts/engines/*.sh` on free
 *   ports of 127.0.0.1, after `scripts/engines/install.sh` has installed whatever is missing.
 * - The two-shard ClickHouse cluster `bq_cluster` (two more servers, `clickhouse.sh cluster-start`)
 *   starts beside the single ClickHouse server when a selected file needs it; its URL is shard 1's
 *   and shard 2's HTTP URLs, comma-separated.
 * - `BQ_POSTGRES_URL` / `BQ_MYSQL_URL` / `BQ_CLICKHOUSE_URL` / `BQ_CLICKHOUSE_CLUSTER_URL` name
 *   existing servers to use instead.
 * - An engine that cannot start fails the whole run with its log tail; nothing is skipped.
 * - Each server starts only when a selected file needs it (see `engine-selection.ts`).
 *
 * @module
 */
import type { TestProject } from 'vitest/node';
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
  }
}

const log = (message: string): void => void process.stderr.write(`[engines] ${message}\n`);

/** Starts what the run needs and returns the teardown. @internal */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const needed = await enginesNeeded(project);
  const reason = [...needed].map(([name, file]) => `${name} for ${file}`).join(', ');
  if (needed.size === 0) {
    log(`${project.name}: none started (no selected file needs one)`);
    return async () => {};
  }
  const toStart = [...needed.keys()].filter((name) => !process.env[SERVERS[name].urlEnv]);
  if (toStart.length > 0) await runScript('install.sh', []);
  const base = await makeBaseDir();
  const results = await Promise.allSettled(toStart.map((name) => startServer(name, base.dir)));
  const running = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const teardown = async (): Promise<void> => {
    await Promise.allSettled(running.map((server) => server.stop()));
    await base.remove();
  };
  const failures = results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error).message)] : []));
  if (failures.length > 0) {
    await teardown();
    throw new Error(`database engines failed to start:\n${failures.join('\n\n')}`);
  }
  const urls = new Map<ServerName, string>(toStart.map((name, i) => [name, (running[i] as RunningServer).url]));
  project.provide('postgresUrl', needed.has('postgres') ? (process.env.BQ_POSTGRES_URL ?? urls.get('postgres')) : undefined);
  project.provide('mysqlUrl', needed.has('mysql') ? (process.env.BQ_MYSQL_URL ?? urls.get('mysql')) : undefined);
  project.provide('clickhouseUrl', needed.has('clickhouse') ? (process.env.BQ_CLICKHOUSE_URL ?? urls.get('clickhouse')) : undefined);
  project.provide(
    'clickhouseClusterUrl',
    needed.has('clickhouseCluster') ? (process.env.BQ_CLICKHOUSE_CLUSTER_URL ?? urls.get('clickhouseCluster')) : undefined,
  );
  log(`${project.name}: ready in ${Date.now() - started} ms (${reason}): ${[...urls.values()].join(' ') || 'existing servers'}`);
  return teardown;
}
