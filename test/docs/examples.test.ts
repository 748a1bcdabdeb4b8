/**
 * The first five minutes, as a new user lives them: on a fresh copy of the clone, the scripts
 * `npm ci` runs for the package itself (the `prepare` build), then `npm start` (the sample server,
 * on a free port), then every example the README and docs/*.md mark as runnable (docs/examples.md):
 * shell commands through bash with the installed command on the PATH, modules through node and
 * tsx, their exit status and the output the page shows. The sample's targets and keywords the
 * docs list are checked against the database `npm start` made. Last, SIGTERM to npm stops the
 * server: nothing is left running or listening.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshCopy, ROOT } from '../helpers/fresh-copy.js';
import { allExamples, linesMatch, moduleSource, runsAppear, shownOutput, type DocExample } from './doc-examples.js';

const EXAMPLES = allExamples(ROOT);
const DEMO_KEY = 'bq_demo_key_0123456789';
/** The root package's scripts `npm ci` runs, in npm's order (docs.npmjs.com, "npm ci" and "Life Cycle Scripts"). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeout?: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 90_000);
    child.on('error', reject);
    child.on('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
    child.stdin.end();
  });
}

const linesOf = (text: string) => text.replace(/\n+$/, '').split('\n');
/** npm's own warnings (about the user's npm configuration, say) are not the program's output. */
const withoutNpmNotes = (lines: readonly string[]) => lines.filter((line) => !/^npm (warn|notice) /.test(line));
const tail = (text: string) => (text.length > 4000 ? `…${text.slice(-4000)}` : text);

/** Every process below `pid`, from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  for (let queue = [pid]; queue.length > 0; ) {
    const next = children.get(queue.shift()!) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (ended, not yet reaped) holds no port and runs nothing.
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let work: string;
let copy: string;
let env: NodeJS.ProcessEnv;
let npmStart: { child: ChildProcess; exit: Promise<number | string | null>; stdout: () => string; stderr: () => string } | undefined;
let port: number;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'bq-docs-'));
  copy = join(work, 'clone');
  freshCopy(copy);
  // The command as npm installs it for a project: a link to the package's bin on the PATH.
  mkdirSync(join(work, 'bin'));
  symlinkSync(join(copy, 'bin', 'backlink-query.js'), join(work, 'bin', 'backlink-query'));
  // Only what a user's shell has: no key, URL or npm_* variable leaks in from the test run. npm's
  // cache is a new one, as on a new machine: the first `npx backlink-query` links the clone into it.
  env = {
    PATH: `${join(work, 'bin')}:${process.env['PATH'] ?? ''}`,
    HOME: process.env['HOME'] ?? work,
    npm_config_cache: join(work, 'npm-cache'),
    ...(process.env['TMPDIR'] ? { TMPDIR: process.env['TMPDIR'] } : {}),
  };

  for (const script of INSTALL_SCRIPTS) {
    const result = await run('npm', ['run', '--if-present', script], { cwd: copy, env, timeout: 240_000 });
    if (result.code !== 0) throw new Error(`npm run ${script} (run by npm ci) failed with ${result.code}:\n${tail(result.stdout)}\n${tail(result.stderr)}`);
  }

  // npm start, exactly, on a free port; its own process group, so that afterAll can end whatever is left.
  const child = spawn('npm', ['start', '--', '--port', '0'], { cwd: copy, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // 'exit', not 'close': a process left behind may hold npm's output pipes open.
  const exit = new Promise<number | string | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  npmStart = { child, exit, stdout: () => stdout, stderr: () => stderr };
  for (;;) {
    const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout);
    if (match) {
      port = Number(match[1]);
      break;
    }
    const ended = await Promise.race([exit.then(() => true), sleep(100).then(() => false)]);
    if (ended) throw new Error(`npm start ended before listening:\n${tail(stdout)}\n${tail(stderr)}`);
  }
}, 600_000);

afterAll(() => {
  const pid = npmStart?.child.pid;
  if (pid !== undefined) {
    try {
      process.kill(-pid, 'SIGKILL'); // only if a test failed to stop it
    } catch {
      // already ended
    }
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The example's text for this run: `npm start`'s default address is the test server's. */
const local = (text: string) => text.replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`);

function envFor(example: DocExample): NodeJS.ProcessEnv {
  // The README's examples set what they need; the docs' assume the README's two variables.
  return example.page === 'README.md' ? env : { ...env, BACKLINK_QUERY_BASE_URL: `http://127.0.0.1:${port}`, BACKLINK_QUERY_API_KEY: DEMO_KEY };
}

function report(what: string, result: Run): string {
  return `${what}\nexit ${result.code}\n--- stdout\n${tail(result.stdout)}\n--- stderr\n${tail(result.stderr)}`;
}

async function runExample(example: DocExample, pageExamples: readonly DocExample[]): Promise<void> {
  const exampleEnv = envFor(example);
  if (example.kind === 'shell') {
    const result = await run('bash', ['-e', '-o', 'pipefail', '-c', local(example.code)], { cwd: copy, env: exampleEnv });
    expect(result.code, report(example.code, result)).toBe(example.options.exit);
    return;
  }
  if (example.kind === 'transcript') {
    for (const step of example.steps) {
      const result = await run('bash', ['-c', `exec 2>&1\n${local(step.command)}`], { cwd: copy, env: exampleEnv });
      const shown = step.output.map(local);
      const printed = withoutNpmNotes(linesOf(result.stdout));
      expect(result.code, report(`$ ${step.command}`, result)).toBe(example.options.exit);
      expect(linesMatch(shown, printed), `$ ${step.command}\n--- the page shows\n${shown.join('\n')}\n--- it printed\n${printed.join('\n')}`).toBe(true);
    }
    return;
  }
  const source = local(moduleSource(example, pageExamples));
  const extension = example.language === 'js' ? 'mjs' : 'mts';
  const file = example.options.file ?? `docs-example-${example.page.replace(/\W+/g, '-')}-${example.line}.${extension}`;
  writeFileSync(join(copy, file), source);
  const args = example.language === 'js' ? [file] : ['--import', 'tsx', file];
  const result = await run(process.execPath, args, { cwd: copy, env: exampleEnv });
  expect(result.code, report(source, result)).toBe(example.options.exit);
  const runs = shownOutput(source);
  const printed = linesOf(result.stdout);
  expect(runsAppear(runs, printed), `--- the page shows\n${runs.map((r) => r.join('\n')).join('\n…\n')}\n--- it printed\n${tail(result.stdout)}`).toBe(true);
}

describe('the examples of the README and docs/*.md, against npm start', () => {
  it('finds the marked examples of the README and the docs', () => {
    const pages = new Set(EXAMPLES.map((example) => example.page));
    for (const page of ['README.md', 'docs/cli.md', 'docs/client.md', 'docs/building-filters.md', 'docs/filter-language.md']) expect(pages).toContain(page);
  });

  for (const example of EXAMPLES) {
    const pageExamples = EXAMPLES.filter((other) => other.page === example.page);
    it(`${example.page}:${example.line} (${example.kind})`, () => runExample(example, pageExamples), 180_000);
  }
});

describe('what the docs say about the sample and the package', () => {
  /** The text of the fenced block right after `<!-- sample NAME -->` in docs/server.md. */
  function sampleBlock(name: string): string {
    const text = readFileSync(join(ROOT, 'docs/server.md'), 'utf8');
    const match = new RegExp(`<!-- sample ${name} -->\\n\`\`\`text\\n([\\s\\S]*?)\\n\`\`\``).exec(text);
    if (!match) throw new Error(`docs/server.md has no <!-- sample ${name} --> block`);
    return match[1]!;
  }

  it("lists the sample's targets with their links, as npm start made them", () => {
    const listed = [...sampleBlock('targets').matchAll(/([a-z0-9.-]+) \(([\d,]+)\)/g)].map(([, domain, links]) => ({ domain, links: Number(links!.replaceAll(',', '')) }));
    const db = new Database(join(copy, '.backlink-query/sample.db'), { readonly: true });
    try {
      const made = db.prepare('SELECT target_domain AS domain, count(*) AS links FROM links GROUP BY target_domain ORDER BY links DESC, domain').all();
      expect(listed).toEqual(made);
    } finally {
      db.close();
    }
  });

  it("lists the sample's keywords and countries, as npm start made them", () => {
    const [heads, tails] = ['heads', 'tails'].map((name) => new RegExp(`^${name}: (.*)$`, 'm').exec(sampleBlock('keywords'))![1]!.split(', '));
    const db = new Database(join(copy, '.backlink-query/sample.db'), { readonly: true });
    try {
      const keywords = db.prepare('SELECT DISTINCT keyword FROM keyword_metrics').pluck().all() as string[];
      expect(keywords.sort()).toEqual(heads!.flatMap((head) => tails!.map((t) => `${head} ${t}`)).sort());
      const text = readFileSync(join(ROOT, 'docs/server.md'), 'utf8');
      const countries = /in 10 countries \(([^)]*)\)/.exec(text)![1]!.match(/[A-Z]{2}/g)!;
      expect((db.prepare('SELECT DISTINCT country FROM keyword_metrics').pluck().all() as string[]).sort()).toEqual([...countries].sort());
      expect(db.prepare('SELECT count(DISTINCT month) FROM keyword_metrics').pluck().get()).toBe(36);
    } finally {
      db.close();
    }
  });

  it("states the Node version the package's engines field allows, wherever it names one", () => {
    const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const minimum = /^>=(\d+(?:\.\d+)*)$/.exec(engines)![1];
    const stated: string[] = [];
    for (const page of ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`)]) {
      const text = readFileSync(join(ROOT, page), 'utf8');
      for (const [, version] of text.matchAll(/Node (\d+(?:\.\d+)*)(?:\+| or later)/g)) stated.push(`${page}: ${version}`);
    }
    expect(stated.length).toBeGreaterThan(0);
    expect(stated.filter((s) => !s.endsWith(`: ${minimum}`))).toEqual([]);
  });
});

describe('npm start', () => {
  it('stops cleanly on SIGTERM to npm: no process left, nothing listening on the port, exit 0', async () => {
    const npm = npmStart!;
    const pid = npm.child.pid!;
    const tree = descendants(pid); // the shell npm starts, or what it became, and anything below it
    expect(tree.length).toBeGreaterThan(0);
    process.kill(pid, 'SIGTERM');
    const code = await Promise.race([npm.exit, sleep(30_000).then(() => 'npm still running after 30 s')]);
    for (let waited = 0; tree.some(alive) && waited < 10_000; waited += 100) await sleep(100);
    const commandLine = (child: number) => {
      try {
        return readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {
        return '(ended)';
      }
    };
    expect(tree.filter(alive).map((child) => `${child}: ${commandLine(child)}`), 'processes npm start left running').toEqual([]);
    expect(await refusesConnections(port), `something still listens on port ${port}`).toBe(true);
    expect(code, tail(npm.stderr())).toBe(0);
    expect(npm.stderr()).toContain('Server closed; database closed.');
  }, 60_000);
});
