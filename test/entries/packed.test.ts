/**
 * The package as a user installs it: built on a fresh copy of the clone, packed with `npm pack`,
 * installed from the tarball alone into a new project that has none of the optional peers.
 *
 * - The tarball holds what users need and nothing unused; every relative link of its README and
 *   guides leads to a file in it.
 * - arethetypeswrong finds no problem on any resolution it checks (node10, node16 from CommonJS and
 *   from ES modules, bundler), and publint reports nothing.
 * - Every entry imports and works as an ES module, through require(), and through require() with
 *   require(esm) turned off (`--no-experimental-require-module`): the CommonJS build must not load
 *   Chevrotain, which is published as ES modules only. Without their peer, /testing and /kysely say
 *   what to install; with it, they work in all three forms. The command runs from the project.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshCopy, ROOT } from '../helpers/fresh-copy.js';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], cwd: string, timeout = 240_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('error', reject);
    child.on('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
  });
}

async function mustRun(command: string, args: readonly string[], cwd: string): Promise<string> {
  const result = await run(command, args, cwd);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} failed with ${result.code}:\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`);
  return result.stdout;
}

/** The optional peers of package.json, by hand: none of them may come with the tarball. */
const OPTIONAL_PEERS = ['@modelcontextprotocol/sdk', 'better-sqlite3', 'fast-check', 'fastify', 'kysely', 'pg', 'tldts'];

let work: string;
let tarball: string;
let packed: readonly string[];
let project: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'bq-packed-'));
  const copy = join(work, 'clone');
  freshCopy(copy);
  await mustRun('npm', ['run', 'build'], copy);
  const [pack] = JSON.parse(await mustRun('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], copy)) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, pack!.filename);
  packed = pack!.files.map((file) => file.path);
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fresh-project', version: '1.0.0', private: true }));
  await mustRun('npm', ['install', '--no-audit', '--no-fund', tarball], project);
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the tarball', () => {
  it('installs with its one dependency and none of the optional peers', () => {
    expect(existsSync(join(project, 'node_modules', 'backlink-query', 'package.json'))).toBe(true);
    expect(existsSync(join(project, 'node_modules', 'chevrotain', 'package.json'))).toBe(true);
    for (const peer of OPTIONAL_PEERS) expect(existsSync(join(project, 'node_modules', peer)), peer).toBe(false);
  });

  it('holds the license, changelog, readme, guides, grammar, command and both builds of every entry', () => {
    for (const file of ['LICENSE', 'CHANGELOG.md', 'README.md', 'package.json', 'bin/backlink-query.js', 'dist/cli.js', 'grammar/filter.ebnf', 'grammar/diagrams.html', 'dist/playground/index.html', 'docs/images/playground.png']) {
      expect(packed, file).toContain(file);
    }
    for (const guide of ['client', 'cli', 'server', 'filter-language', 'sql', 'scaling', 'errors', 'operations']) expect(packed).toContain(`docs/${guide}.md`);
    for (const entry of ['index', 'client', 'filter', 'server', 'testing', 'kysely']) {
      for (const extension of ['js', 'cjs', 'd.ts', 'd.cts']) expect(packed).toContain(`dist/${entry}.${extension}`);
    }
  });

  it('holds nothing unused: no CommonJS or types for the command, no sources, tests or typedoc output', () => {
    expect(packed.filter((file) => /^dist\/cli\.(cjs|d\.ts|d\.cts)/.test(file))).toEqual([]);
    expect(packed.filter((file) => /^(src|test|scripts|docs\/api|\.ci|node_modules)\//.test(file))).toEqual([]);
  });

  it('has no relative link in its README and guides that leads outside it', () => {
    const broken: string[] = [];
    for (const page of packed.filter((file) => file.endsWith('.md'))) {
      const text = readFileSync(join(project, 'node_modules', 'backlink-query', page), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!) || target!.startsWith('#')) continue;
        const file = normalize(join(dirname(page), target!.replace(/#.*$/, '')));
        if (!packed.includes(file)) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('arethetypeswrong finds no problem on any resolution (node10, node16 from CJS and ESM, bundler)', async () => {
    const attw = join(ROOT, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
    const result = await run(process.execPath, [attw, tarball, '--format', 'json'], work);
    const report = JSON.parse(result.stdout) as { analysis: { problems: unknown[]; entrypoints: Record<string, { resolutions: Record<string, unknown> }> } };
    expect(report.analysis.problems).toEqual([]);
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual(['.', './client', './filter', './kysely', './package.json', './server', './testing']);
    for (const entry of Object.values(report.analysis.entrypoints)) expect(Object.keys(entry.resolutions).sort()).toEqual(['bundler', 'node10', 'node16-cjs', 'node16-esm']);
    expect(result.code).toBe(0);
  });

  it('publint reports nothing, suggestions included', async () => {
    const data = readFileSync(tarball);
    const { messages } = await publint({ pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) }, level: 'suggestion', strict: true });
    expect(messages).toEqual([]);
  });
});

/** Three ways to load an entry; `body` sees the entry as `m` and prints what it found. */
const FORMS = {
  'ES module': (specifier: string, body: string) => ['--input-type=module', '-e', `const m = await import(${JSON.stringify(specifier)});\n${body}`],
  'require()': (specifier: string, body: string) => ['--input-type=commonjs', '-e', `const m = require(${JSON.stringify(specifier)});\n(async () => {\n${body}\n})();`],
  'require() without require(esm)': (specifier: string, body: string) => [
    '--no-experimental-require-module',
    '--input-type=commonjs',
    '-e',
    `const m = require(${JSON.stringify(specifier)});\n(async () => {\n${body}\n})();`,
  ],
} as const;

/** What each entry does once loaded, and what it prints, written by hand. */
const USES = [
  { entry: 'backlink-query', body: `console.log(m.printFilter(m.parseFilter('domain_score>50 and anchor like "%seo%"')))`, prints: `domain_score > 50 AND anchor LIKE '%seo%'` },
  { entry: 'backlink-query/filter', body: `console.log(m.printFilter(m.parseFilter("is_nofollow=true or domain_score<=3")))`, prints: 'is_nofollow = true OR domain_score <= 3' },
  {
    // The client loads the filter language with import() to check the filter; no request is sent.
    entry: 'backlink-query/client',
    body: `const client = m.createClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9' });
await client.links({ url: 'example.com', scope: 'ROOT_DOMAIN', filter: 'domain_scor > 1' }).then(() => console.log('sent'), (e) => console.log(e.name, e.issues[0].code));`,
    prints: 'FilterError unknown_field',
  },
  {
    entry: 'backlink-query/server',
    body: `await m.loadServerDeps().then(() => console.log('loaded'), (e) => console.log(e.name, typeof m.startServer));`,
    prints: 'MissingDependencyError function',
  },
] as const;

const node = (args: readonly string[]) => run(process.execPath, args, project, 60_000);

describe('every entry, installed from the tarball without optional peers', () => {
  for (const use of USES) {
    it.each(Object.entries(FORMS))(`${use.entry} as %s`, async (_, form) => {
      const result = await node(form(use.entry, use.body));
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(`${use.prints}\n`);
      expect(result.code).toBe(0);
    });
  }

  for (const [entry, peer] of [
    ['testing', 'fast-check'],
    ['kysely', 'kysely'],
  ] as const) {
    it.each(Object.entries(FORMS))(`backlink-query/${entry} as %s names the package to install`, async (_, form) => {
      const result = await node(form(`backlink-query/${entry}`, `console.log('loaded')`));
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`backlink-query/${entry} needs an optional package that is not installed: ${peer}.\nInstall it with:\n  npm install ${peer}`);
      expect(result.code).toBe(1);
    });
  }

  it('the command checks a filter', async () => {
    const result = await run(join(project, 'node_modules', '.bin', 'backlink-query'), ['filter', 'check', 'domain_scor > 50', '--operation', 'links'], project, 60_000);
    expect(result.stdout).toBe('1:1 unknown_field: Unknown field domain_scor; did you mean domain_score?\n  domain_scor > 50\n  ^^^^^^^^^^^\n');
    expect(result.code).toBe(1);
  });
});

describe('with fast-check and kysely installed beside it', () => {
  beforeAll(() => mustRun('npm', ['install', '--no-audit', '--no-fund', 'fast-check@^4', 'kysely@0.28'], project), 240_000);

  const uses = [
    { entry: 'backlink-query/testing', body: `const fc = await import('fast-check');\nconsole.log(typeof fc.sample(m.filterTextArbitrary('links'), { numRuns: 1, seed: 1 })[0]);`, prints: 'string' },
    {
      entry: 'backlink-query/kysely',
      body: `console.log(JSON.stringify(m.filterToKysely({ kind: 'Comparison', field: { kind: 'Field', name: 'domain_score', index: null }, operator: '>', value: { kind: 'Number', value: 50 } }, { dialect: 'sqlite' }).toOperationNode().parameters.map((p) => p.value)));`,
      prints: '[50]',
    },
  ] as const;
  for (const use of uses) {
    it.each(Object.entries(FORMS))(`${use.entry} as %s`, async (_, form) => {
      const result = await node(form(use.entry, use.body));
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(`${use.prints}\n`);
      expect(result.code).toBe(0);
    });
  }
});
