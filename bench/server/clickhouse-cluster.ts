/**
 * The ClickHouse cluster for the benchmark (two shards unless asked for more), kept in the data folder so that its
 * databases (a 10M seed takes long) survive between runs. Started and stopped with the project's
 * script, `scripts/engines/clickhouse.sh cluster-start` / `cluster-stop`, the way the test suites
 * start theirs (two `clickhouse-server` processes on loopback, free ports, the cluster
 * `bq_cluster`, `system.query_log` on: bench/server/clickhouse-reads.ts reads it), except that `BQ_CLICKHOUSE_KEEP=1` makes the script start the servers again on
 * the folder's data rather than wipe it. When the kept cluster cannot start, the folder is wiped
 * and a new cluster made, and every database has to be seeded again.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onCleanup, run } from './processes.js';

/** A running cluster. */
export interface ClickhouseCluster {
  /** Each shard's HTTP URL, `http://127.0.0.1:PORT`, shard 1 (the entry point) first. */
  readonly shards: readonly string[];
  /** `clickhouse://127.0.0.1:P1,127.0.0.1:P2/DATABASE?ledger=LEDGER` for `--database-url`. */
  urlOf(database: string, ledger: string): string;
  /** Runs a statement on one shard (by its HTTP URL) and returns the answer's text. */
  query(shard: string, text: string): Promise<string>;
  /** Whether the folder was made fresh in this run (every database must be seeded). */
  readonly fresh: boolean;
  /** The server settings the cluster runs with, for the report. */
  readonly settings: string;
  /** `SELECT version()`, for the report. */
  readonly version: string;
  stop(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = join(ROOT, 'scripts/engines/clickhouse.sh');

/** Runs the script with the cluster's folder; `keep` keeps the folder's data (BQ_CLICKHOUSE_KEEP). */
async function script(command: 'cluster-start' | 'cluster-stop', dir: string, keep: boolean, shards: number): Promise<string> {
  const env = { ...process.env, BQ_CLICKHOUSE_DIR: dir, BQ_CLICKHOUSE_KEEP: keep ? '1' : '0', BQ_CLICKHOUSE_SHARDS: String(shards) };
  const { stdout, stderr } = await run('bash', [SCRIPT, command], { cwd: ROOT, timeoutMs: 300_000, env });
  for (const line of stderr.trim().split('\n')) if (line.trim() !== '') process.stderr.write(`[clickhouse] ${line.replace(/^\[engines\/clickhouse\] /, '')}\n`);
  return stdout.trim();
}

/** Runs SQL over a shard's HTTP interface; rejects with the server's message. */
async function httpQuery(shard: string, text: string): Promise<string> {
  const response = await fetch(`${shard}/`, { method: 'POST', body: text, signal: AbortSignal.timeout(600_000) });
  const body = await response.text();
  if (!response.ok) throw new Error(`ClickHouse at ${shard} answered ${response.status} to ${text.slice(0, 200)}: ${body.slice(0, 500)}`);
  return body;
}

/** Starts the cluster of `count` shards in `dir` (on its kept data when there is some). */
export async function startClickhouseCluster(folder: string, count = 2): Promise<ClickhouseCluster> {
  // Absolute: the servers run as the clickhouse user from another directory, and a path they
  // cannot find makes the kept cluster fail to start (and its folder be made anew).
  const dir = resolve(folder);
  mkdirSync(dir, { recursive: true });
  let fresh = !existsSync(join(dir, 'shard1', 'data'));
  let line: string;
  try {
    line = await script('cluster-start', dir, true, count);
  } catch (error) {
    if (fresh) throw error;
    process.stderr.write(
      `[clickhouse] the kept cluster did not start (${(error as Error).message.split('\n')[0]}); making a new one (its databases will be seeded again)\n`,
    );
    await script('cluster-stop', dir, false, count);
    fresh = true;
    line = await script('cluster-start', dir, true, count);
  }
  const shards = line.split('\n').at(-1)!.split(',').map((url) => url.trim());
  if (shards.length !== count || shards.some((url) => !/^http:\/\/127\.0\.0\.1:\d+$/.test(url))) {
    await script('cluster-stop', dir, true, count).catch(() => undefined);
    throw new Error(`scripts/engines/clickhouse.sh cluster-start printed ${JSON.stringify(line)}, not ${count} shard URLs.`);
  }
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    cancel();
    process.stderr.write('[clickhouse] stopping the cluster (its data stays)\n');
    await script('cluster-stop', dir, true, count);
  };
  const cancel = onCleanup(stop);
  let version = 'unknown';
  try {
    version = (await httpQuery(shards[0]!, 'SELECT version()')).trim();
  } catch (error) {
    await stop();
    throw error;
  }
  process.stderr.write(`[clickhouse] ${version}, shards ${shards.join(', ')} in ${dir}${fresh ? ' (new)' : ' (kept from an earlier run)'}\n`);
  const hosts = shards.map((url) => url.replace(/^http:\/\//, ''));
  return {
    shards,
    urlOf: (database, ledger) => `clickhouse://${hosts.join(',')}/${database}?ledger=${encodeURIComponent(ledger)}`,
    query: httpQuery,
    fresh,
    version,
    settings:
      `${count === 2 ? 'two' : count} clickhouse-server processes on this machine (shard 1 the entry point, the Distributed tables sharded by the target's registrable domain), ` +
      'Debian\'s packaged config.xml and users.xml with ports, paths and listen_host changed and log_queries on (as scripts/engines/clickhouse.sh cluster-start); ' +
      'API keys and charges in a SQLite ledger',
    stop,
  };
}
