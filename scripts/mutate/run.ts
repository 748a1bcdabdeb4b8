/**
 * `npm run mutate`: applies each named mutant of `mutants.ts` to a private copy of the working
 * tree, runs the tests the mutant names, and prints which were caught and which survived, with a
 * score. The working tree itself is never changed.
 *
 * - The copy is a git worktree of HEAD in the system temp folder, with the working tree's
 *   uncommitted changes and untracked files applied, and `node_modules` linked.
 * - The database servers the selected mutants' tests need (test/setup/engine-selection.ts) are
 *   started once (scripts/engines/*.sh) and handed to every vitest run through their URL variables
 *   (`BQ_POSTGRES_URL`, `BQ_MYSQL_URL`, `BQ_CLICKHOUSE_URL`, `BQ_CLICKHOUSE_CLUSTER_URL`).
 * - First the named tests run on the unmutated copy: a failure there stops the run.
 * - `--jobs N` tests N mutants at once, each job in a copy of its own with servers of its own.
 * - Exit code 1 when a mutant survives without a written reason (`survives` in mutants.ts), or a
 *   mutant's text is no longer in its file.
 *
 * Usage: npm run mutate [-- --only name,name] [-- --file path,path] [-- --area name,name] [-- --jobs N] [-- --list]
 *
 * @module
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { makeBaseDir, startServer, runScript, SERVERS, type RunningServer, type ServerName } from '../../test/setup/engine-processes.js';
import { enginesOfFile } from '../../test/setup/engine-selection.js';
import { MUTANTS, type Mutant } from './mutants.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const exec = promisify(execFile);
/** A mutant whose tests run longer than this is counted as caught (a hang is a failure too). */
const TIMEOUT_MS = 10 * 60_000;

const git = async (args: string[], cwd = ROOT) => (await exec('git', args, { cwd, maxBuffer: 256 * 1024 * 1024 })).stdout;

const USAGE = 'Usage: npm run mutate [-- --only name,name] [-- --file path,path] [-- --area name,name] [-- --jobs N] [-- --list]';

interface Selection {
  readonly only?: ReadonlySet<string>;
  /** Files or folders (a prefix of the mutant's file): `--file src/server/import/`. */
  readonly files?: readonly string[];
  readonly areas?: ReadonlySet<string>;
  /** Mutants tested at once, each in a copy of its own with servers of its own. */
  readonly jobs: number;
  readonly list: boolean;
}

function parseArgs(argv: string[]): Selection {
  const values = new Map<string, string[]>();
  let list = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--list') {
      list = true;
      continue;
    }
    const match = /^--(only|file|area|jobs)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`Unknown argument ${arg}. ${USAGE}`);
    const value = match[2] ?? argv[++i] ?? '';
    values.set(match[1]!, [...(values.get(match[1]!) ?? []), ...value.split(',').filter(Boolean)]);
  }
  const only = values.has('only') ? new Set(values.get('only')) : undefined;
  const areas = values.has('area') ? new Set(values.get('area')) : undefined;
  const files = values.get('file');
  const jobs = Number(values.get('jobs')?.at(-1) ?? 1);
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs takes a whole number of 1 or more. ${USAGE}`);
  for (const name of only ?? []) if (!MUTANTS.some((m) => m.name === name)) throw new Error(`No mutant named ${name}.`);
  for (const area of areas ?? []) if (!MUTANTS.some((m) => m.area === area)) throw new Error(`No mutant in area ${area}.`);
  for (const file of files ?? []) if (!MUTANTS.some((m) => m.file.startsWith(file))) throw new Error(`No mutant in ${file}.`);
  return { only, files, areas, jobs, list };
}

/** The mutants a selection names: each option given narrows the list. */
const selected = (selection: Selection): readonly Mutant[] =>
  MUTANTS.filter(
    (m) =>
      (!selection.only || selection.only.has(m.name)) &&
      (!selection.areas || selection.areas.has(m.area)) &&
      (!selection.files || selection.files.some((file) => m.file.startsWith(file))),
  );

/** The source with the mutant applied; throws when its text is not there exactly once. */
function mutated(source: string, mutant: Mutant): string {
  const count = source.split(mutant.find).length - 1;
  if (count !== 1) throw new Error(`${mutant.name}: its text occurs ${count} times in ${mutant.file} (must be exactly once); update scripts/mutate/mutants.ts`);
  return source.replace(mutant.find, () => mutant.replace);
}

/** A worktree of HEAD plus the uncommitted changes and untracked files of the working tree. */
async function makeCopy(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = join(mkdtempSync(join(tmpdir(), 'bq-mutate-')), 'tree');
  await git(['worktree', 'add', '--detach', dir, 'HEAD']);
  const diff = await git(['diff', 'HEAD', '--binary']);
  if (diff.trim() !== '') {
    const patch = join(dirname(dir), 'working-tree.patch');
    writeFileSync(patch, diff);
    await git(['apply', '--whitespace=nowarn', patch], dir);
  }
  for (const file of (await git(['ls-files', '--others', '--exclude-standard', '-z'])).split('\0').filter(Boolean)) {
    cpSync(join(ROOT, file), join(dir, file), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return {
    dir,
    remove: async () => {
      await git(['worktree', 'remove', '--force', dir]).catch(() => undefined);
      rmSync(dirname(dir), { recursive: true, force: true });
    },
  };
}

interface RunResult {
  readonly passed: boolean;
  readonly timedOut: boolean;
  readonly ms: number;
  readonly tail: string;
}

/** The vitest projects a mutant's tests run in (`all`, `unit` and the server suite's default store unless it names others). */
const projectsOf = (mutant: Pick<Mutant, 'project'>): readonly string[] =>
  mutant.project === undefined ? ['all', 'unit', 'server-embedded'] : typeof mutant.project === 'string' ? [mutant.project] : mutant.project;

/** The test files under a test path (a file, or a folder of them), from the repository root. */
const testFiles = (path: string): string[] =>
  statSync(join(ROOT, path)).isDirectory()
    ? readdirSync(join(ROOT, path), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.test.ts')).map((name) => `${path}/${name}`)
    : [path];

/** The database servers the mutants' tests need in their projects (test/setup/engine-selection.ts decides, as for any run). */
function enginesOf(mutants: readonly Mutant[]): ServerName[] {
  const names = new Set<ServerName>();
  for (const mutant of mutants) for (const path of mutant.tests) for (const file of testFiles(path)) for (const project of projectsOf(mutant)) for (const name of enginesOfFile(file, project)) names.add(name);
  return [...names];
}

/** Runs vitest on `tests` in the copy; never throws. */
function runTests(dir: string, mutant: Pick<Mutant, 'tests' | 'project'>, env: NodeJS.ProcessEnv): Promise<RunResult> {
  const started = Date.now();
  const projects = projectsOf(mutant).flatMap((name) => ['--project', name]);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(dir, 'node_modules/vitest/vitest.mjs'), 'run', ...projects, '--reporter=dot', '--bail=1', ...mutant.tests], {
      cwd: dir,
      env: { ...process.env, ...env, CI: '', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-20_000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
    }, TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ passed: code === 0 && !timedOut, timedOut, ms: Date.now() - started, tail: output.trim().split('\n').slice(-25).join('\n') });
    });
  });
}

async function main(): Promise<number> {
  const selection = parseArgs(process.argv.slice(2));
  const { list } = selection;
  const mutants = selected(selection);
  if (list) {
    for (const m of mutants) process.stdout.write(`${m.name.padEnd(44)} ${m.area.padEnd(16)} ${m.file}\n`);
    return 0;
  }
  // Every mutant's text must be in its file, and every test path must exist (vitest would quietly
  // run the others), before anything runs.
  for (const m of mutants) {
    mutated(readFileSync(join(ROOT, m.file), 'utf8'), m);
    for (const test of m.tests) if (!existsSync(join(ROOT, test))) throw new Error(`${m.name}: no test path ${test}`);
  }

  const log = (line: string) => void process.stderr.write(`[mutate] ${line}\n`);
  const started = Date.now();
  const jobs: Job[] = [];
  try {
    // The servers the selected mutants' tests need, started once per job for every vitest run it
    // makes (each run would otherwise start its own: test/setup/global-setup.ts uses the ones
    // these URLs name).
    const needed = enginesOf(mutants);
    if (needed.length > 0) await runScript('install.sh', []);
    for (let i = 0; i < Math.min(selection.jobs, mutants.length); i++) {
      const job = await startJob(needed);
      jobs.push(job);
      log(`job ${i + 1}: copy of the working tree in ${job.dir}; ${needed.length === 0 ? 'no database server needed' : needed.map((name) => `${name} ${job.env[SERVERS[name].urlEnv]}`).join(', ')}`);
    }

    // The tests must pass without a mutant, or a "caught" would mean nothing.
    const groups = new Map<string, Set<string>>();
    for (const m of mutants) {
      const key = projectsOf(m).join(',');
      for (const t of m.tests) (groups.get(key) ?? groups.set(key, new Set()).get(key)!).add(t);
    }
    await inJobs(jobs, [...groups], async (job, [key, tests]) => {
      log(`baseline: ${tests.size} test paths on project ${key}`);
      const baseline = await runTests(job.dir, { project: key.split(','), tests: [...tests] }, job.env);
      if (!baseline.passed) throw new Error(`the tests fail without any mutant, so nothing can be judged:\n${baseline.tail}`);
    });

    const results = new Map<Mutant, RunResult>();
    await inJobs(jobs, mutants, async (job, mutant) => {
      const file = join(job.dir, mutant.file);
      const original = readFileSync(file, 'utf8');
      writeFileSync(file, mutated(original, mutant));
      try {
        const result = await runTests(job.dir, mutant, job.env);
        results.set(mutant, result);
        log(`${mutant.name}: ${result.passed ? 'SURVIVED' : result.timedOut ? 'caught (timed out)' : 'caught'} in ${(result.ms / 1000).toFixed(1)} s`);
      } finally {
        writeFileSync(file, original);
      }
    });
    const rows = mutants.map((mutant) => ({ mutant, result: results.get(mutant)! }));

    const caught = rows.filter((r) => !r.result.passed);
    const survivors = rows.filter((r) => r.result.passed);
    const unexplained = survivors.filter((r) => !r.mutant.survives);
    const out: string[] = ['', '| mutant | area | result | seconds |', '| --- | --- | --- | ---: |'];
    for (const { mutant, result } of rows) {
      const verdict = result.passed ? (mutant.survives ? `survived (reason: ${mutant.survives})` : '**SURVIVED**') : result.timedOut ? 'caught (timeout)' : 'caught';
      out.push(`| ${mutant.name} | ${mutant.area} | ${verdict} | ${(result.ms / 1000).toFixed(1)} |`);
    }
    out.push('', `Mutation score: ${caught.length} of ${rows.length} caught (${((100 * caught.length) / Math.max(1, rows.length)).toFixed(1)}%), in ${((Date.now() - started) / 60_000).toFixed(1)} minutes with ${jobs.length} job(s).`);
    for (const { mutant } of rows.filter((r) => !r.result.passed && r.mutant.survives)) {
      out.push(`Note: ${mutant.name} is listed as a survivor but was caught; remove its reason.`);
    }
    for (const { mutant, result } of unexplained) out.push('', `Survived without a reason: ${mutant.name} (${mutant.file}); tests run: ${mutant.tests.join(' ')}\n${result.tail}`);
    process.stdout.write(`${out.join('\n')}\n`);
    return unexplained.length > 0 ? 1 : 0;
  } finally {
    await Promise.allSettled(jobs.map((job) => job.stop()));
  }
}

/** One copy of the tree and the servers its runs use. */
interface Job {
  readonly dir: string;
  readonly env: Record<string, string>;
  stop(): Promise<void>;
}

async function startJob(needed: readonly ServerName[]): Promise<Job> {
  const copy = await makeCopy();
  const base = await makeBaseDir();
  const servers: RunningServer[] = [];
  const stop = async () => {
    await Promise.allSettled(servers.map((server) => server.stop()));
    await base.remove();
    await copy.remove();
  };
  // Every server that started is stopped with the job, even when another failed to start.
  const started = await Promise.allSettled(needed.map((name) => startServer(name, base.dir)));
  for (const server of started) if (server.status === 'fulfilled') servers.push(server.value);
  const failed = started.find((server) => server.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { dir: copy.dir, env: Object.fromEntries(needed.map((name, i) => [SERVERS[name].urlEnv, servers[i]!.url])), stop };
}

/** Runs `work` on every item, each job taking the next item when it is free; the first failure stops handing out items and is thrown. */
async function inJobs<T>(jobs: readonly Job[], items: readonly T[], work: (job: Job, item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  await Promise.all(
    jobs.map(async (job) => {
      while (!failed && next < items.length) {
        const item = items[next++]!;
        try {
          await work(job, item);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    }),
  );
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[mutate] ${(error as Error).message}\n`);
    process.exit(2);
  },
);
