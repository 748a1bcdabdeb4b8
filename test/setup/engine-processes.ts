/**
 * Starts and stops the throwaway PostgreSQL, MariaDB and ClickHouse servers through the project's own scripts
 * (`scripts/engines/*.sh`), so that a run on a fresh machine brings up what it needs by itself.
 *
 * @internal
 * @module
 */
import { execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The scripts folder. @internal */
export const SCRIPTS = fileURLToPath(new URL('../../scripts/engines/', import.meta.url));

/**
 * The servers this setup can start: script name, its arguments to start and to stop, the env var
 * that names its data folder, and the env var that names an existing server to use instead.
 * `clickhouseCluster` is two ClickHouse servers forming the two-shard cluster `bq_cluster`; its
 * "URL" is shard 1's HTTP URL, a comma, and shard 2's (see scripts/engines/clickhouse.sh).
 *
 * @internal
 */
export const SERVERS = {
  postgres: { script: 'postgres.sh', start: ['start'], stop: ['stop'], dirEnv: 'BQ_PG_DIR', urlEnv: 'BQ_POSTGRES_URL' },
  mysql: { script: 'mariadb.sh', start: ['start'], stop: ['stop'], dirEnv: 'BQ_MYSQL_DIR', urlEnv: 'BQ_MYSQL_URL' },
  clickhouse: { script: 'clickhouse.sh', start: ['start'], stop: ['stop'], dirEnv: 'BQ_CLICKHOUSE_DIR', urlEnv: 'BQ_CLICKHOUSE_URL' },
  clickhouseCluster: {
    script: 'clickhouse.sh',
    start: ['cluster-start'],
    stop: ['cluster-stop'],
    dirEnv: 'BQ_CLICKHOUSE_DIR',
    urlEnv: 'BQ_CLICKHOUSE_CLUSTER_URL',
  },
} as const;

/** A server name. @internal */
export type ServerName = keyof typeof SERVERS;

interface ScriptResult {
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs one engine script; rejects with the script's log tail when it fails. @internal */
export function runScript(script: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'bash',
      [join(SCRIPTS, script), ...args],
      { env: { ...process.env, ...env }, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const tail = `${stderr}\n${stdout}`.trim().split('\n').slice(-40).join('\n');
          reject(new Error(`scripts/engines/${script} ${args.join(' ')} failed (${error.message.split('\n')[0]}):\n${tail}`));
        } else {
          resolve({ stdout, stderr });
        }
      },
    );
  });
}

/** A running server: its URL and how to stop it. @internal */
export interface RunningServer {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts one server in a fresh folder `<base>/<name>` under the system temp dir (made traversable,
 * because the server runs as the postgres, mysql or clickhouse user). Servers of different names
 * never share a folder or a port, so `clickhouse` and `clickhouseCluster` run side by side.
 *
 * @internal
 */
export async function startServer(name: ServerName, base: string): Promise<RunningServer> {
  const { script, dirEnv, start, stop } = SERVERS[name];
  const dir = join(base, name);
  // The suites' cluster has two shards, whatever a shell exported for a benchmark.
  const env = { [dirEnv]: dir, ...(name === 'clickhouseCluster' ? { BQ_CLICKHOUSE_SHARDS: '2' } : {}) };
  const { stdout } = await runScript(script, start, env);
  const url = stdout.trim().split('\n').at(-1) ?? '';
  if (!url.split(',').every((part) => /^[a-z]+:\/\/\S+$/.test(part))) {
    await runScript(script, stop, env).catch(() => {});
    throw new Error(`scripts/engines/${script} ${start.join(' ')} printed no URL: ${stdout}`);
  }
  return { url, stop: async () => void (await runScript(script, stop, env)) };
}

/** A folder of throwaway servers, and how to stop them all and remove it. @internal */
export interface BaseDir {
  readonly dir: string;
  /**
   * Stops every server still running in the folder and removes it (through the reaper, the same
   * path as after a signal); rejects when a process or the folder is left behind.
   */
  remove(): Promise<void>;
}

/** The reaper script: see its header. @internal */
export const REAPER = fileURLToPath(new URL('./engine-reaper.mjs', import.meta.url));

/**
 * A fresh base folder `bq-engines-XXXXXX` under the system temp dir for servers of this process,
 * watched by a reaper (test/setup/engine-reaper.mjs): a detached process that stops every server
 * in the folder and removes it when `remove()` is called, and also when this process ends without
 * calling it (SIGINT, SIGTERM, SIGKILL, a crash), because its stdin is a pipe from this process.
 *
 * @internal
 */
export async function makeBaseDir(): Promise<BaseDir> {
  const dir = await mkdtemp(join(tmpdir(), 'bq-engines-'));
  await chmod(dir, 0o755);
  const servers = Object.entries(SERVERS).map(([name, { script, stop, dirEnv }]) => ({ name, script, stop, dirEnv }));
  const reaper = spawn(process.execPath, [REAPER, JSON.stringify({ base: dir, scripts: SCRIPTS, servers })], {
    detached: true,
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => {
    reaper.on('exit', (code) => resolve(code));
    reaper.on('error', () => resolve(null));
  });
  // Neither the reaper nor its pipe keeps this process alive; the pipe closes when it exits.
  reaper.unref();
  const pipe = reaper.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null;
  pipe?.unref?.();
  pipe?.on('error', () => {}); // a reaper that died early is reported by its exit code
  let removing: Promise<void> | undefined;
  return {
    dir,
    remove: () =>
      (removing ??= (async () => {
        reaper.ref(); // now this process waits for it
        pipe?.end('stop\n');
        const code = await exited;
        if (code !== 0) throw new Error(`the reaper of ${dir} exited with ${code}: a server process or the folder was left behind (see its [engines] lines)`);
      })()),
  };
}
