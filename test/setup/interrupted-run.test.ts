/**
 * Nothing of a test run's database servers outlives it: `npm test` on one engine-needing file runs
 * in a child process of its own process group, and after a normal end, a start that fails, Ctrl+C
 * (SIGINT to the whole process group, as a terminal sends it) and SIGTERM to the group, no process
 * of that run's engine folder is left and the folder is gone.
 *
 * The run's folder (`/tmp/bq-engines-XXXXXX`) is read from its `[engines]` lines, and its processes
 * are found through /proc by that path in their command line or environment (PostgreSQL's,
 * MariaDB's and ClickHouse's command lines all name their data folder in it), never by name: other
 * runs on this machine have servers of their own. Before each signal the same lookup must find the
 * servers running, so an empty answer afterwards means they stopped, not that the lookup is blind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A process: its pid, its process group and its command line. */
interface Proc {
  readonly pid: number;
  readonly pgid: number;
  readonly cmdline: string;
}

function listProcesses(): (Proc & { environ: string })[] {
  const found: (Proc & { environ: string })[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      // pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue; // a zombie has ended; only its parent has not read its status yet
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0').join(' ').trim();
      let environ = '';
      try {
        environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
      } catch {
        /* another user's process: its command line decides */
      }
      found.push({ pid: Number(entry), pgid: Number(fields[2]), cmdline, environ });
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

/**
 * The processes whose command line or environment names the folder: its servers, the scripts
 * starting or stopping them, and its reaper (test/setup/engine-reaper.mjs).
 */
function processesOf(base: string): Proc[] {
  const names = new RegExp(`${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`);
  return listProcesses()
    .filter((p) => names.test(p.cmdline) || names.test(p.environ))
    .map(({ pid, pgid, cmdline }) => ({ pid, pgid, cmdline }));
}

/** The processes still in a process group. */
const groupOf = (pgid: number): Proc[] => listProcesses().filter((p) => p.pgid === pgid).map(({ pid, cmdline }) => ({ pid, pgid, cmdline }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `leftovers()` is empty or `ms` have passed, and returns what is left. */
async function settle<T>(leftovers: () => T[], ms: number): Promise<T[]> {
  const until = Date.now() + ms;
  let left = leftovers();
  while (left.length > 0 && Date.now() < until) {
    await sleep(250);
    left = leftovers();
  }
  return left;
}

interface Run {
  readonly child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects after `ms`. */
  waitFor(pattern: RegExp, ms: number): Promise<RegExpMatchArray>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const runs: Run[] = [];

/** `npm test -- <args>` in a process group of its own, as a terminal's foreground job. */
function npmTest(args: readonly string[], env: NodeJS.ProcessEnv = {}): Run {
  // The child starts its own engines: nothing of this run's setup or project leaks into it.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(VITEST|BQ_)/.test(key) && key !== 'NODE_ENV' && key !== 'TEST'));
  const child = spawn('npm', ['test', '--', '--reporter=default', ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...clean, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
  });
  let output = '';
  const listeners = new Set<() => void>();
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      for (const listener of listeners) listener();
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const run: Run = {
    child,
    output: () => output,
    exited,
    waitFor: (pattern, ms) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const match = output.match(pattern);
          if (match) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no ${pattern} in the run's output within ${ms} ms:\n${output.slice(-3000)}`));
        }, ms);
        listeners.add(check);
        check();
        void exited.then(() => setTimeout(() => {
          if (listeners.has(check)) {
            listeners.delete(check);
            clearTimeout(timer);
            reject(new Error(`the run ended without ${pattern}:\n${output.slice(-3000)}`));
          }
        }, 2_000));
      }),
  };
  runs.push(run);
  return run;
}

afterEach(async () => {
  // A test that failed half-way must not leave its run behind: kill the group (its reaper, in a
  // session of its own, then cleans the folder up).
  for (const run of runs.splice(0)) {
    if (run.child.exitCode === null && run.child.signalCode === null && run.child.pid) {
      try {
        process.kill(-run.child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }
});

const STARTING = /\[engines\] starting ([^\n]+?) in (\/\S+\/bq-engines-[A-Za-z0-9]+)\n/;
const READY = /\[engines\] ready in \d+ ms in (\/\S+\/bq-engines-[A-Za-z0-9]+) /;

/** What must be left of a run once it has ended: no process of its folder or group, no folder. */
async function expectNothingLeft(run: Run, base: string): Promise<void> {
  await run.exited;
  const pgid = run.child.pid!;
  // The run's reaper may still be at work: wait for it (it is one of the processes of the folder).
  await settle(() => [...processesOf(base), ...(existsSync(base) ? [base] : [])], 90_000);
  expect(processesOf(base), `processes of ${base} still running after the run ended:\n${run.output().slice(-3000)}`).toEqual([]);
  expect(existsSync(base), `${base} still exists after the run ended:\n${run.output().slice(-3000)}`).toBe(false);
  expect(await settle(() => groupOf(pgid), 30_000), 'processes of the run\'s process group still running').toEqual([]);
}

/** The engine servers of the folder running now, by the program each runs. */
function serversOf(base: string): string[] {
  const programs = processesOf(base).map((p) => p.cmdline.split(' ')[0]!.split('/').at(-1)!);
  return programs.filter((program) => ['postgres', 'mariadbd', 'mysqld', 'clickhouse-server', 'clickhouse'].includes(program)).sort();
}

/** engines.test.ts needs PostgreSQL, MariaDB and the single ClickHouse server (engine-selection.ts). */
const THREE_ENGINES = ['--project', 'all', 'test/setup/engines.test.ts'];
/** clickhouse-cluster.test.ts needs the two-shard ClickHouse cluster alone. */
const CLUSTER = ['--project', 'all', 'test/setup/clickhouse-cluster.test.ts'];

describe('a test run leaves no engine process and no engine folder behind', { timeout: 240_000 }, () => {
  it.each([
    ['Ctrl+C (SIGINT to the process group)', 'SIGINT', THREE_ENGINES, ['clickhouse-server', 'mariadbd', 'postgres']],
    ['SIGTERM to the process group', 'SIGTERM', CLUSTER, ['clickhouse-server', 'clickhouse-server']],
  ] as const)('after %s while its tests run', async (_, signal, args, expected) => {
    const run = npmTest(args);
    const [, base] = (await run.waitFor(READY, 180_000)) as [string, string];
    expect(serversOf(base)).toEqual(expect.arrayContaining([...expected]));
    await sleep(2_000); // the test files are loading or running now
    process.kill(-run.child.pid!, signal);
    const { code, signal: killedBy } = await run.exited;
    expect(code === 0 && killedBy === null, `the run was not interrupted: it ended normally\n${run.output().slice(-2000)}`).toBe(false);
    await expectNothingLeft(run, base);
  });

  it('after Ctrl+C while the servers are still starting', async () => {
    const run = npmTest(THREE_ENGINES);
    const [, , base] = (await run.waitFor(STARTING, 180_000)) as [string, string, string];
    const starting = () => processesOf(base).filter((p) => /^(\S*\/)?bash \S*scripts\/engines\/\S+\.sh start/.test(p.cmdline));
    await settle(() => (starting().length > 0 ? [] : [0]), 20_000);
    expect(starting().length, 'no engine script was starting a server in the folder').toBeGreaterThan(0);
    process.kill(-run.child.pid!, 'SIGINT');
    await expectNothingLeft(run, base);
  });

  it('after a start that fails (PostgreSQL\'s port taken), with the other servers already up', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      const port = (holder.address() as { port: number }).port;
      const run = npmTest(THREE_ENGINES, { BQ_PG_PORT: String(port) });
      const [, , base] = (await run.waitFor(STARTING, 180_000)) as [string, string, string];
      const { code } = await run.exited;
      expect(code).not.toBe(0);
      expect(run.output()).toMatch(/database engines failed to start/);
      expect(run.output()).toMatch(/stopped \(postgres, mysql, clickhouse\) and removed/);
      await expectNothingLeft(run, base);
    } finally {
      holder.close();
    }
  });

  it('after a normal end', async () => {
    const run = npmTest(CLUSTER);
    const [, base] = (await run.waitFor(READY, 180_000)) as [string, string];
    expect(serversOf(base)).toEqual(['clickhouse-server', 'clickhouse-server']);
    const { code } = await run.exited;
    expect(code, run.output().slice(-3000)).toBe(0);
    await expectNothingLeft(run, base);
  });
});
