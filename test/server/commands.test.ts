/**
 * `serve` and `seed` as real processes on SQLite files, and the message when the optional
 * dependencies are missing. Nothing here reads the run's store (BQ_SERVER_STORE), so the file runs
 * once, not on each store (vitest.config.ts).
 */
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MissingDependencyError } from '../../src/server/deps.js';
import { cliCommand } from '../helpers/cli-command.js';
import { spawnCli, waitFor } from './support/cli-process.js';
import { BASE } from './support/helpers.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'bq-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('commands as processes', () => {
  it('seed writes a database; serve answers from it and exits 0 on SIGTERM', async () => {
    const db = join(dir, 'sample.db');
    const seed = spawnCli(['seed', '--links', '1500', '--seed', '3', '--db', db, '--now', '2026-06-15']);
    expect(await seed.exit).toBe(0);
    expect(seed.err()).toMatch(/Sample data ready in [\d.]+ s: 1,500 links/);
    const again = spawnCli(['seed', '--links', '10', '--db', db]);
    expect(await again.exit).toBe(1);
    expect(again.err()).toContain('already holds links; pass --force');

    const serve = spawnCli(['serve', '--port', '0', '--db', db, '--now', '2026-06-15', '--quiet'], { BACKLINK_QUERY_KEYS: 'ci:ci-key-123456:1000' });
    const [, url] = await waitFor(serve.out, /listening on (http:\/\/127\.0\.0\.1:\d+)/, serve.exit);
    const response = await fetch(`${url}${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, { headers: { authorization: 'Apikey ci-key-123456' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-units-remaining')).toBe('955');
    // The sample is deterministic (docs/server.md, "Sample data"): 1,500 links, seed 3 and now
    // 2026-06-15 give example.com 570 links from 98 referring domains, 145 of them nofollow.
    // The same numbers counted straight from the links table of the file, not through the rollups.
    const file = new Database(db, { readonly: true });
    const counted = file
      .prepare(`SELECT count(*) AS backlinks, count(DISTINCT source_domain) AS domains, sum(is_nofollow) AS nofollows FROM links WHERE target_domain = 'example.com'`)
      .get();
    file.close();
    expect(counted).toEqual({ backlinks: 570, domains: 98, nofollows: 145 });
    const { data } = await response.json();
    expect({ backlinks: data.backlinks_count, domains: data.domains_count, follows: data.follows_count, nofollows: data.nofollows_count }).toEqual({
      backlinks: 570,
      domains: 98,
      follows: 425,
      nofollows: 145,
    });
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
    expect(serve.err()).toContain('Server closed; database closed.');
  }, 120_000); // three processes (seed, seed, serve)

  it('import without --db or --database-url refuses before reading anything, and names both (never the sample by default)', async () => {
    const project = mkdtempSync(join(dir, 'project-'));
    writeFileSync(join(project, 'links.ndjson'), '{}\n');
    const run = spawnCli(['import', 'links.ndjson'], { BACKLINK_QUERY_DATABASE_URL: undefined }, project);
    expect(await run.exit).toBe(2);
    expect(run.err()).toBe(
      'backlink-query import: name the database to write into: --db FILE (the embedded store, created when missing), --database-url URL, ' +
        'or BACKLINK_QUERY_DATABASE_URL. import never writes into the sample database (.backlink-query/sample.db) unless named: --db .backlink-query/sample.db.\n' +
        'Run "backlink-query import --help" for usage.\n',
    );
    expect(readdirSync(project)).toEqual(['links.ndjson']); // no .backlink-query/, no database
  });

  it('import --template ndjson and csv print one record that imports as it is', async () => {
    const project = mkdtempSync(join(dir, 'template-'));
    for (const format of ['ndjson', 'csv']) {
      const print = spawnCli(['import', '--template', format], {}, project);
      expect(await print.exit, print.err()).toBe(0);
      writeFileSync(join(project, `links.${format}`), print.out());
    }
    const db = join(project, 'links.db');
    const run = spawnCli(['import', 'links.ndjson', 'links.csv', '--db', db], {}, project);
    expect(await run.exit, run.err()).toBe(0);
    expect(JSON.parse(run.out())).toMatchObject({ imported: 2, rejected: 0, domains: 1 });
    // The same link twice (its identity: source_url, target_url, anchor, image_url), as docs/importing.md shows it.
    const file = new Database(db, { readonly: true });
    const links = file.prepare('SELECT source_url, target_url, anchor, domain_score, is_nofollow FROM links').all();
    file.close();
    expect(links).toEqual([{ source_url: 'https://blog.example.org/2026/06/best-seo-tools', target_url: 'https://www.example.com/pricing', anchor: 'example pricing', domain_score: 54, is_nofollow: 0 }]);
  });

  it('serve --sample creates the sample, prints the base URL and the demo key, and serves it', async () => {
    const db = join(dir, 'demo.db');
    const serve = spawnCli(['serve', '--sample', '--links', '800', '--port', '0', '--db', db, '--quiet']);
    const [, url] = await waitFor(serve.out, /listening on (http:\/\/\S+)/, serve.exit);
    // The banner's lines may reach the pipe in more than one chunk: wait for its last.
    await waitFor(serve.out, /Stop: Ctrl\+C/, serve.exit);
    expect(serve.out()).toContain('API key: bq_demo_key_0123456789');
    expect(serve.err()).toMatch(/Sample data ready in [\d.]+ s/);
    // Where the sample went and its size, once: the SQLite file and its column file (docs/server.md).
    const note = new RegExp(`^Sample database: ${db.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} and ${db.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\.duckdb \\(\\d+\\.\\d MB; delete them to remove it\\)\\.$`, 'm');
    expect(serve.err()).toMatch(note);
    const response = await fetch(`${url}${BASE}/ref-domains?url=example.com&scope=ROOT_DOMAIN&limit=1`, { headers: { authorization: 'Apikey bq_demo_key_0123456789' } });
    expect(response.status).toBe(200);
    // One row of the sample's referring domains, at 40 units a line.
    expect(response.headers.get('x-units-charged')).toBe('40');
    expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(1);
    serve.child.kill('SIGINT');
    expect(await serve.exit).toBe(0);
    // The next run serves the same files and says nothing of them.
    const again = spawnCli(['serve', '--sample', '--port', '0', '--db', db, '--quiet']);
    await waitFor(again.out, /Stop: Ctrl\+C/, again.exit);
    again.child.kill('SIGTERM');
    expect(await again.exit).toBe(0);
    expect(again.err()).not.toContain('Sample');
  });

  it('npm start prints its banner and no request log line, while serve alone logs each request as JSON', async () => {
    const db = join(dir, 'npm-start.db');
    const start = spawn('npm', ['start', '--', '--port', '0', '--db', db, '--links', '300'], { cwd: ROOT, detached: true, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp' } });
    let stdout = '';
    start.stdout.on('data', (chunk) => (stdout += String(chunk)));
    const ended = new Promise((resolve) => start.on('close', resolve));
    try {
      const [, url] = await waitFor(() => stdout, /listening on (http:\/\/\S+)/, ended);
      await waitFor(() => stdout, /Stop: Ctrl\+C/, ended);
      expect((await fetch(`${url}${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, { headers: { authorization: 'Apikey bq_demo_key_0123456789' } })).status).toBe(200);
      // npm's own two lines (the script), then the banner: nothing else, even after a request.
      const lines = stdout.split('\n').filter((line) => line !== '' && !line.startsWith('> '));
      expect(lines.map((line) => line.replace(/ .*/, ''))).toEqual(['backlink-query', 'API', 'Try:', 'Charts:', 'OpenAPI:']);
    } finally {
      process.kill(-start.pid!, 'SIGTERM');
      await ended;
    }
    const serve = spawnCli(['serve', '--sample', '--port', '0', '--db', db]);
    try {
      const [, url] = await waitFor(serve.out, /listening on (http:\/\/\S+)/, serve.exit);
      await fetch(`${url}${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, { headers: { authorization: 'Apikey bq_demo_key_0123456789' } });
      const [line] = await waitFor(serve.out, /^\{.*"msg":"request"\}$/m, serve.exit);
      expect(JSON.parse(line)).toMatchObject({ operation: 'overview', key_id: 'demo', status: 200, units: 45 });
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exit;
    }
  }, 120_000);

  it('serve rejects bad options with the usage exit code', async () => {
    const serve = spawnCli(['serve', '--port', 'abc']);
    expect(await serve.exit).toBe(2);
    expect(serve.err()).toContain('backlink-query serve: --port must be a whole number of at least 0, not "abc".');
  });
});

describe('missing optional dependencies', () => {
  it('no server module imports fastify, better-sqlite3, tldts or @duckdb/node-api at load time (only types)', () => {
    const files = readdirSync(new URL('../../src/server', import.meta.url), { recursive: true }).map(String).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const text = readFileSync(new URL(`../../src/server/${file}`, import.meta.url), 'utf8');
      expect(text, file).not.toMatch(/^import (?!type )[^;]*from '(fastify|better-sqlite3|tldts|@duckdb\/node-api)'/m);
    }
  });

  /** Runs the CLI with `hide` unresolvable (test/entries/hide-packages.mjs). */
  async function withoutPackages(args: readonly string[], hide: readonly string[]): Promise<{ code: unknown; stderr: string }> {
    const child = spawn(process.execPath, ['--import', './test/entries/hide-packages.mjs', ...cliCommand(), ...args], {
      cwd: ROOT,
      env: { ...process.env, BQ_HIDE_PACKAGES: hide.join(',') },
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const code = await new Promise((resolve) => child.on('close', resolve));
    return { code, stderr };
  }

  const SERVER_PACKAGES = ['fastify', 'better-sqlite3', 'tldts', '@duckdb/node-api', 'pg'];

  // Each command names what it needs and no more, with the npm and the npx command, written out by
  // hand: --db is the embedded store (its column side needs DuckDB), a postgres:// URL needs pg,
  // and only serve needs Fastify.
  it.each([
    ['serve', ['--db', 'never.db'], 'fastify, better-sqlite3, tldts, @duckdb/node-api', '-p fastify -p better-sqlite3 -p tldts -p @duckdb/node-api'],
    ['seed', ['--db', 'never.db'], 'better-sqlite3, tldts, @duckdb/node-api', '-p better-sqlite3 -p tldts -p @duckdb/node-api'],
    ['import', ['never.ndjson', '--db', 'never.db'], 'better-sqlite3, tldts, @duckdb/node-api', '-p better-sqlite3 -p tldts -p @duckdb/node-api'],
    // A PostgreSQL database keeps no SQLite file: better-sqlite3 is not asked for (it was, before issue 23).
    ['seed', ['--database-url', 'postgres://127.0.0.1:9/none'], 'tldts, pg', '-p tldts -p pg'],
    ['serve', ['--database-url', 'postgres://127.0.0.1:9/none'], 'fastify, tldts, pg', '-p fastify -p tldts -p pg'],
  ])('%s %j says exactly what to install when the packages are missing', async (command, args, packages, npx) => {
    const run = await withoutPackages([command, ...args.map((arg) => (arg.startsWith('never') ? join(dir, arg) : arg))], SERVER_PACKAGES);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toBe(
      `The backlink-query server needs optional packages that are not installed: ${packages}.\n` +
        "backlink-query installs them as optional dependencies; npm install --omit=optional, or a failed install of one of them (see npm's log), leaves them out.\n" +
        `Install them with:\n  npm install ${packages.replaceAll(',', '')}\nor, outside a project that has backlink-query installed, with npx:\n  npx -p backlink-query ${npx} backlink-query ${command}\n`,
    );
  });

  it('seed and import work without Fastify, which only serve needs', async () => {
    const db = join(dir, 'no-fastify.db');
    const seed = await withoutPackages(['seed', '--links', '200', '--db', db], ['fastify']);
    expect(seed.code, seed.stderr).toBe(0);
    const serve = await withoutPackages(['serve', '--db', db, '--port', '0'], ['fastify']);
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain('not installed: fastify.\n');
  });

  it('names one package, and says nothing of npx outside the command line', () => {
    const error = new MissingDependencyError('The backlink-query server', ['tldts']);
    expect(error.message).toBe(
      'The backlink-query server needs an optional package that is not installed: tldts.\n' +
        "backlink-query installs it as an optional dependency; npm install --omit=optional, or a failed install of it (see npm's log), leaves it out.\n" +
        'Install it with:\n  npm install tldts',
    );
  });
});
