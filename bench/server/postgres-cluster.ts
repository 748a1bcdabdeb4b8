/**
 * A PostgreSQL cluster for the benchmark, kept in the data folder so that its databases (a 10M
 * seed takes long) survive between runs. Started the way `scripts/engines/postgres.sh` starts the
 * test suites' throwaway cluster (same binaries, trust auth, C.UTF-8, loopback only, a free port,
 * fsync off), except that an existing data directory is started again rather than wiped. When it
 * cannot start, it is wiped and made again, and every database has to be seeded again.
 */
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { onCleanup, run } from './processes.js';

/** A running cluster. */
export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:PORT/` + a database name. */
  urlOf(database: string): string;
  /** Whether the data directory was made fresh in this run (every database must be seeded). */
  readonly fresh: boolean;
  /** The server settings the cluster runs with, for the report. */
  readonly settings: string;
  stop(): Promise<void>;
}

const SETTINGS = ['listen_addresses=127.0.0.1', 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];

function pgBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(a) - Number(b));
  const last = versions.at(-1);
  if (!last) throw new Error('No /usr/lib/postgresql/*/bin/initdb: run scripts/engines/install.sh to install PostgreSQL.');
  return join(root, last, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const isRoot = () => process.getuid?.() === 0;

/** initdb and postgres refuse to run as root: act as the postgres user then (cwd /tmp, which it can read). */
function asPg(file: string, args: readonly string[]) {
  return isRoot() ? run('runuser', ['-u', 'postgres', '--', file, ...args], { cwd: '/tmp' }) : run(file, args, { cwd: '/tmp' });
}

function chownTree(path: string): void {
  if (!isRoot()) return;
  const { uid, gid } = postgresUser();
  chownSync(path, uid, gid);
}

let pgUser: { uid: number; gid: number } | undefined;
function postgresUser(): { uid: number; gid: number } {
  if (pgUser) return pgUser;
  // `id -u postgres` without a shell: read /etc/passwd.
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('Running as root, but there is no postgres user to run PostgreSQL as.');
  const [, , uid, gid] = line.split(':');
  pgUser = { uid: Number(uid), gid: Number(gid) };
  return pgUser;
}

/** Starts (initialising when needed) the cluster in `dir`. */
export async function startCluster(dataDir: string): Promise<PostgresCluster> {
  // Absolute: the PostgreSQL tools run in /tmp, where a relative path names another directory.
  const dir = resolve(dataDir);
  const bin = pgBin();
  const data = join(dir, 'data');
  const sock = join(dir, 'sock');
  const log = join(dir, 'server.log');
  const ctl = (args: readonly string[]) => asPg(join(bin, 'pg_ctl'), ['-D', data, ...args]);

  const init = async () => {
    rmSync(data, { recursive: true, force: true });
    for (const path of [dir, data, sock]) {
      mkdirSync(path, { recursive: true });
      chownTree(path);
    }
    process.stderr.write(`[postgres] initdb in ${data}\n`);
    await asPg(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  };
  const start = async (port: number) => {
    // A cluster left running by an interrupted run: stop it first.
    if (existsSync(join(data, 'postmaster.pid'))) await ctl(['-m', 'fast', '-w', '-t', '60', 'stop']).catch(() => undefined);
    const options = [`-p ${port}`, `-k ${sock}`, ...SETTINGS.map((s) => `-c ${s}`)].join(' ');
    await ctl(['-l', log, '-w', '-t', '120', '-o', options, 'start']);
  };

  let fresh = !existsSync(join(data, 'PG_VERSION'));
  if (fresh) await init();
  for (const path of [dir, sock]) {
    mkdirSync(path, { recursive: true });
    chownTree(path);
  }
  let port = await freePort();
  try {
    await start(port);
  } catch (error) {
    if (fresh) throw error;
    process.stderr.write(`[postgres] the kept cluster did not start (${(error as Error).message.split('\n')[0]}); making a new one (its databases will be seeded again)\n`);
    await init();
    fresh = true;
    port = await freePort();
    await start(port);
  }
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    cancel();
    process.stderr.write('[postgres] stopping the cluster (its data stays)\n');
    await ctl(['-m', 'fast', '-w', '-t', '60', 'stop']);
  };
  const cancel = onCleanup(stop);
  process.stderr.write(`[postgres] cluster in ${data} on 127.0.0.1:${port}${fresh ? ' (new)' : ' (kept from an earlier run)'}\n`);
  return {
    urlOf: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    fresh,
    settings: `PostgreSQL defaults except ${SETTINGS.filter((s) => !s.startsWith('listen')).join(', ')} (as scripts/engines/postgres.sh)`,
    stop,
  };
}
