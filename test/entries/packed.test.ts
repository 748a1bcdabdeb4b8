/**
 * The package as a user installs it: a fresh copy of the clone packed with `npm pack` (which
 * builds it), installed from the tarball alone into two new projects: one with
 * `--omit=optional` (a client-only application: none of the server's packages), one as `npm
 * install` and `npx` install it (with its optional dependencies).
 *
 * - The tarball holds what users need and nothing unused (no contributor pages, benchmark results,
 *   empty chunks or sources inside the maps); every relative link of its README and guides leads to
 *   a file in it; `npm pack --json` prints JSON, and installing prints no warning of npm's but the
 *   one npm 11 gives for every native addon (better-sqlite3's build script).
 * - arethetypeswrong finds no problem on any resolution it checks (node10, node16 from CommonJS and
 *   from ES modules, bundler), and publint reports nothing.
 * - Every entry imports and works as an ES module, through require(), and through require() with
 *   require(esm) turned off (`--no-experimental-require-module`): the CommonJS build must not load
 *   Chevrotain, which is published as ES modules only. Without their peer, /testing and /kysely say
 *   what to install; with it, they work in all three forms. The command runs from the project.
 * - From the full install, with npx and nothing taken from the clone: `npx backlink-query serve
 *   --sample` answers HTTP, `npx backlink-query mcp` lists its tools over stdio, and a page bundled
 *   with esbuild from `backlink-query/client` makes a filtered call to that server in Chromium.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshCopy, ROOT } from '../helpers/fresh-copy.js';
import { runScript } from '../setup/engine-processes.js';

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

/** The peers the application brings (by hand): none of them comes with the tarball. */
const PEERS = ['fast-check', 'kysely'];
/** The server's, stores' and MCP command's packages (by hand): optional dependencies. */
const OPTIONAL = ['@duckdb/node-api', '@modelcontextprotocol/sdk', 'better-sqlite3', 'fastify', 'pg', 'tldts'];

let work: string;
let clone: string;
let tarball: string;
let packed: readonly string[];
/** The client-only project (`--omit=optional`). */
let project: string;
/** The project installed as `npm install` does it, optional dependencies included. */
let fromNpm: string;
/** What npm printed on stderr while installing into each project. */
const installLog = { project: '', fromNpm: '' };
/** Files prepack changes, as the copy held them before `npm pack`. */
const BEFORE_PACK = ['package.json', 'README.md', 'docs/scaling.md'];
const beforePack = new Map<string, string>();

/** A new empty project folder. */
function newProject(name: string): string {
  const folder = join(work, name);
  mkdirSync(folder);
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true }));
  return folder;
}

/**
 * better-sqlite3's install script (prebuild-install, else node-gyp) compiles SQLite when it cannot
 * download a prebuilt binary, as here: over a minute of the two cores. The clone's `npm ci` already
 * compiled the same version for this Node, so the install is handed that binary as a local prebuild:
 * prebuild-install's `local-prebuilds` setting, in a `.prebuild-installrc` above the projects (it
 * searches upward from the package; an npm_config_ variable would make npm warn), and the script
 * still runs and loads the binary. If the installed version differs from the clone's, the name does
 * not match and the script compiles as it would for a user.
 */
async function offerLocalPrebuild(): Promise<void> {
  const addon = join(ROOT, 'node_modules', 'better-sqlite3');
  if (!existsSync(join(addon, 'build', 'Release', 'better_sqlite3.node'))) return;
  const { version } = JSON.parse(readFileSync(join(addon, 'package.json'), 'utf8')) as { version: string };
  const folder = join(work, 'prebuilds');
  mkdirSync(folder);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await mustRun('tar', ['-czf', join(folder, name), 'build/Release/better_sqlite3.node'], addon);
  writeFileSync(join(work, '.prebuild-installrc'), `local-prebuilds=${folder}\n`);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'bq-packed-'));
  clone = join(work, 'clone');
  freshCopy(clone);
  for (const file of BEFORE_PACK) beforePack.set(file, readFileSync(join(clone, file), 'utf8'));
  // No --ignore-scripts: the package's prepack builds it, and its log must stay off stdout.
  const [pack] = JSON.parse(await mustRun('npm', ['pack', '--json', '--pack-destination', work], clone)) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, pack!.filename);
  packed = pack!.files.map((file) => file.path);
  project = newProject('client-only');
  fromNpm = newProject('from-npm');
  await offerLocalPrebuild();
  const install = async (folder: string, flags: string[]): Promise<string> => {
    const result = await run('npm', ['install', '--no-audit', '--no-fund', ...flags, tarball], folder, 480_000);
    if (result.code !== 0) throw new Error(`npm install ${flags.join(' ')} failed with ${result.code}:\n${result.stderr.slice(-4000)}`);
    return result.stderr;
  };
  [installLog.project, installLog.fromNpm] = await Promise.all([install(project, ['--omit=optional']), install(fromNpm, [])]);
}, 900_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the tarball', () => {
  it('installs with --omit=optional alone: no dependency (Chevrotain is in the build), no optional package, no peer', () => {
    expect(existsSync(join(project, 'node_modules', 'backlink-query', 'package.json'))).toBe(true);
    expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['backlink-query']);
    for (const name of [...PEERS, ...OPTIONAL]) expect(existsSync(join(project, 'node_modules', name)), name).toBe(false);
  });

  it('installs as npm install does with every optional dependency (Fastify too, on Node 20) and no peer', () => {
    for (const name of OPTIONAL) expect(existsSync(join(fromNpm, 'node_modules', name, 'package.json')), name).toBe(true);
    for (const name of PEERS) expect(existsSync(join(fromNpm, 'node_modules', name)), name).toBe(false);
  });

  it('installs without a warning from npm, but its list of native build scripts to approve (better-sqlite3 alone)', () => {
    expect(installLog.project).not.toMatch(/npm warn/i);
    const warnings = installLog.fromNpm.split('\n').filter((line) => /^npm warn/i.test(line));
    // npm 11 lists every dependency's install script it has not been told to allow; better-sqlite3
    // compiles SQLite's binding. Nothing of backlink-query's own (its prepare script) is listed.
    expect(warnings.filter((line) => !/^npm warn install-scripts/.test(line))).toEqual([]);
    expect(warnings.filter((line) => /@\d/.test(line))).toEqual([expect.stringMatching(/^npm warn install-scripts +better-sqlite3@\d+\.\d+\.\d+ \(install: /)]);
  });

  it('leaves the clone as it was after packing (prepack changed its package.json and guides, postpack put them back)', () => {
    for (const file of BEFORE_PACK) expect(readFileSync(join(clone, file), 'utf8'), file).toBe(beforePack.get(file));
    expect(existsSync(join(clone, '.tmp', 'before-pack'))).toBe(false);
  });

  it('has no prepare script in its manifest (npm would list it for approval), and the scripts a user needs none of', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'backlink-query', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts['prepare']).toBeUndefined();
    for (const script of ['preinstall', 'install', 'postinstall']) expect(manifest.scripts[script], script).toBeUndefined();
  });

  it('carries no contributor page, benchmark result or empty file, and maps without the sources inlined', () => {
    expect(packed.filter((file) => /^bench\/|^docs\/(mutation|testing-engines|examples|architecture|design-store|design-import)\.md$/.test(file))).toEqual([]);
    const installed = (file: string) => readFileSync(join(project, 'node_modules', 'backlink-query', file), 'utf8');
    // A chunk whose only lines are source-map comments: code that bundles to nothing.
    expect(packed.filter((file) => /\.(c?js)$/.test(file) && installed(file).replace(/^\/\/# sourceMappingURL=.*$/gm, '').trim() === '')).toEqual([]);
    const maps = packed.filter((file) => file.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(10);
    for (const map of maps) {
      // A map points into the sources or Chevrotain's (node_modules/ wherever it was, here the
      // clone's linked folder), or names a stand-in for a part of Chevrotain left out
      // (scripts/chevrotain-stubs.ts); a file of re-exports has no sources of its own.
      const parsed = JSON.parse(installed(map)) as { sources: string[]; sourcesContent?: unknown };
      expect(parsed.sourcesContent, map).toBeUndefined();
      for (const source of parsed.sources) expect(source, map).toMatch(/^(\.\.\/src\/|(\.\.\/)+(.+\/)?node_modules\/|virtual:chevrotain-stub\/)/);
    }
  });

  it('holds the license, the third-party notices (Chevrotain is in the build), changelog, readme, guides, grammar, command and both builds of every entry', () => {
    for (const file of ['LICENSE', 'THIRD-PARTY-NOTICES.md', 'CHANGELOG.md', 'README.md', 'package.json', 'bin/backlink-query.js', 'dist/cli.js', 'grammar/filter.ebnf', 'grammar/diagrams.html', 'dist/playground/index.html', 'docs/images/playground.png', 'dist/explore/index.html', 'docs/images/explore.png']) {
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

describe('every entry, installed from the tarball with --omit=optional', () => {
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
  beforeAll(() => mustRun('npm', ['install', '--no-audit', '--no-fund', '--omit=optional', 'fast-check@^4', 'kysely@0.28'], project), 240_000);

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

/** A process started with npx in its own process group, so that closing it ends npx's child too. */
function npx(args: readonly string[], cwd: string): ChildProcessWithoutNullStreams {
  return spawn('npx', ['--no-install', 'backlink-query', ...args], { cwd, detached: true, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp' } });
}

function stop(child: ChildProcessWithoutNullStreams | undefined): void {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch (error) {
    // ESRCH: nothing of the group is left (the SIGTERM test ended it).
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** The demo key `serve --sample` prints (README). */
const DEMO_KEY = 'bq_demo_key_0123456789';

describe('from npm: npx backlink-query, with nothing taken from the clone', () => {
  let serve: ChildProcessWithoutNullStreams | undefined;
  let baseUrl: string;

  beforeAll(async () => {
    serve = npx(['serve', '--sample', '--port', '0', '--links', '2000'], fromNpm);
    let output = '';
    baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not listen within 180 s:\n${output}`)), 180_000);
      const read = (chunk: Buffer) => {
        output += String(chunk);
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
        if (url) (clearTimeout(timer), resolve(url));
      };
      serve!.stdout.on('data', read);
      serve!.stderr.on('data', read);
      serve!.on('close', (code) => (clearTimeout(timer), reject(new Error(`serve exited with ${code}:\n${output}`))));
    });
  }, 240_000);
  afterAll(() => stop(serve));

  it('npx backlink-query serve --sample answers the interface over HTTP with the demo key', async () => {
    const response = await fetch(`${baseUrl}/_api/apis/v4/backlinks/v1/links?url=example.com&scope=ROOT_DOMAIN&fields=domain_score&limit=3&filter=${encodeURIComponent('domain_score > 50')}`, {
      headers: { authorization: `Apikey ${DEMO_KEY}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { domain_score: number }[] };
    expect(body.data.length).toBe(3);
    for (const row of body.data) expect(row.domain_score).toBeGreaterThan(50);
  });

  it('npx backlink-query mcp answers tools/list over stdio', async () => {
    const mcp = npx(['mcp', '--base-url', baseUrl, '--api-key', DEMO_KEY], fromNpm);
    try {
      const replies = new Map<number, unknown>();
      let buffer = '';
      let stderr = '';
      mcp.stderr.on('data', (chunk) => (stderr += String(chunk)));
      mcp.stdout.on('data', (chunk) => {
        buffer += String(chunk);
        for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
          const message = JSON.parse(buffer.slice(0, end)) as { id?: number };
          buffer = buffer.slice(end + 1);
          if (typeof message.id === 'number') replies.set(message.id, message);
        }
      });
      const send = (message: object) => mcp.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
      const reply = async (id: number) => {
        for (let waited = 0; !replies.has(id); waited += 50) {
          if (waited > 120_000 || mcp.exitCode !== null) throw new Error(`no reply ${id}; stderr:\n${stderr}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return replies.get(id) as { result: { tools?: { name: string }[]; serverInfo?: { name: string } } };
      };
      send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'packed-test', version: '1.0.0' } } });
      expect((await reply(1)).result.serverInfo?.name).toBe('backlink-query');
      send({ method: 'notifications/initialized' });
      send({ id: 2, method: 'tools/list', params: {} });
      const names = (await reply(2)).result.tools!.map((tool) => tool.name);
      // The twelve operations and the two free filter tools (docs/mcp.md).
      expect(names.length).toBe(14);
      expect(names).toEqual(expect.arrayContaining(['links', 'overview', 'check-filter']));
    } finally {
      stop(mcp);
    }
  }, 180_000);

  it('a page bundled from backlink-query/client makes a filtered call to it in Chromium, cross-origin', async () => {
    const site = join(work, 'site');
    mkdirSync(site);
    writeFileSync(
      join(fromNpm, 'page.js'),
      `import { createClient } from 'backlink-query/client';
const client = createClient({ apiKey: ${JSON.stringify(DEMO_KEY)}, baseUrl: ${JSON.stringify(baseUrl)} });
window.result = client
  .links({ url: 'example.com', scope: 'ROOT_DOMAIN', fields: ['domain_score'], filter: 'domain_score > 50', limit: 3 })
  .then(({ data }) => data.map((row) => row.domain_score), (error) => 'failed: ' + error.message);
const bad = client.links({ url: 'example.com', scope: 'ROOT_DOMAIN', filter: 'domain_scor > 50' });
window.refused = bad.then(() => 'sent', (error) => error.name + ' ' + error.issues[0].code);`,
    );
    // The user's bundler: esbuild from the project, code splitting on, as a browser app builds it.
    await build({ entryPoints: [join(fromNpm, 'page.js')], absWorkingDir: fromNpm, bundle: true, splitting: true, format: 'esm', platform: 'browser', minify: true, outdir: site, logLevel: 'silent' });
    writeFileSync(join(site, 'index.html'), '<!doctype html><meta charset="utf-8"><script type="module" src="./page.js"></script>');
    const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
    const server: Server = createServer((request, response) => {
      const file = join(site, normalize(request.url ?? '/').replace(/^\/$/, '/index.html'));
      if (!file.startsWith(site) || !existsSync(file)) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const installed = await runScript('chromium.sh', []);
    const browser = await chromium.launch({ executablePath: installed.stdout.trim().split('\n').pop()!, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const scores = (await page.evaluate('window.result')) as number[] | string;
      expect(scores).toHaveLength(3);
      for (const score of scores as number[]) expect(score).toBeGreaterThan(50);
      expect(await page.evaluate('window.refused')).toBe('FilterError unknown_field');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      server.close();
    }
  }, 240_000);

  // Last: it stops the server. npm exits on SIGTERM without passing it on; the server sees its
  // parent gone and stops as on a SIGTERM of its own.
  it('a SIGTERM to npx alone stops the server it started: nothing of the group is left', async () => {
    const group = serve!.pid!;
    process.kill(group, 'SIGTERM');
    const alive = () => {
      try {
        process.kill(-group, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let waited = 0; alive(); waited += 100) {
      if (waited > 20_000) throw new Error('a process of npx backlink-query serve still runs 20 s after SIGTERM to npx');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await expect(fetch(baseUrl)).rejects.toMatchObject({ name: 'TypeError', cause: { code: 'ECONNREFUSED' } });
  }, 30_000);
});
