/**
 * `npx backlink-query serve` as a user runs it, in a project with the package installed: a SIGINT
 * or a SIGTERM to any process of the chain npm exec → `sh -c` → node stops the server, and nothing
 * is left running or listening (docs/server.md, "Shutdown").
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { waitFor } from '../server/support/cli-process.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'bq-npx-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A project with backlink-query installed as a link (as `npm link` or a `file:` dependency leaves
 * it): the package's own bin file, its dist/cli.js the CLI built for this run (or the sources
 * through tsx in watch mode), and node_modules/.bin/backlink-query, so `npx backlink-query` runs it
 * as it runs a published install: npm exec → `sh -c` → node.
 */
function linkedProject(): string {
  const pkg = mkdtempSync(join(dir, 'package-'));
  mkdirSync(join(pkg, 'bin'));
  mkdirSync(join(pkg, 'dist'));
  copyFileSync(join(ROOT, 'bin/backlink-query.js'), join(pkg, 'bin/backlink-query.js'));
  const script = inject('cliScript');
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
  writeFileSync(
    join(pkg, 'dist/cli.js'),
    script
      ? `export { main } from ${JSON.stringify(pathToFileURL(script).href)};\n`
      : `import { register } from ${JSON.stringify(tsx)};\nregister();\nexport const { main } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'src/cli/main.ts')).href)});\n`,
  );
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'backlink-query', version: '0.0.0-linked', type: 'module', bin: { 'backlink-query': 'bin/backlink-query.js' } }));
  const project = mkdtempSync(join(dir, 'project-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'project', private: true, dependencies: { 'backlink-query': `file:${pkg}` } }));
  mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
  symlinkSync(pkg, join(project, 'node_modules/backlink-query'), 'dir');
  symlinkSync('../backlink-query/bin/backlink-query.js', join(project, 'node_modules/.bin/backlink-query'));
  return project;
}

/** Whether process `pid` runs (a zombie, ended but not yet reaped by its parent, does not). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The one child of process `pid` (pgrep -P). */
const childOf = (pid: number): number => Number(execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim());

/** Whether something accepts connections on the port of 127.0.0.1. */
const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('npx backlink-query serve: a signal to any process of the chain stops the server', () => {
  const project = linkedProject();
  // SIGINT to npm or to its shell never reaches the server (npm passes it to the shell, which keeps
  // it until its child ends); a SIGTERM kills the shell. docs/server.md, "Shutdown".
  const cases = (['SIGINT', 'SIGTERM'] as const).flatMap((signal) => (['npm', 'sh', 'node'] as const).map((to) => [signal, to] as const));
  it.concurrent.each(cases)('%s to %s: the port refuses connections and npm, sh and node are gone', async (signal, to) => {
    // Its own process group, so the finally can end whatever is left.
    const npx = spawn('npx', ['--no-install', 'backlink-query', 'serve', '--port', '0', '--quiet'], {
      cwd: project,
      detached: true,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', BACKLINK_QUERY_KEYS: 'ci:ci-key-123456:1000' },
    });
    let output = '';
    npx.stdout.on('data', (chunk) => (output += String(chunk)));
    npx.stderr.on('data', (chunk) => (output += String(chunk)));
    try {
      const [, port] = await waitFor(() => output, /listening on http:\/\/127\.0\.0\.1:(\d+)/, new Promise((resolve) => npx.on('close', resolve)));
      const npm = npx.pid!;
      const sh = childOf(npm);
      const node = childOf(sh);
      expect(readFileSync(`/proc/${sh}/cmdline`, 'utf8').split('\0').slice(0, 2)).toEqual(['sh', '-c']);
      expect(await accepts(Number(port))).toBe(true);
      process.kill({ npm, sh, node }[to], signal);
      for (let waited = 0; [npm, sh, node].some(running); waited += 100) {
        if (waited > 15_000) throw new Error(`still running 15 s after ${signal} to ${to}: ${[npm, sh, node].filter(running).join(', ')}\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await accepts(Number(port))).toBe(false);
      expect(output).toContain('Server closed; database closed.');
    } finally {
      try {
        process.kill(-npx.pid!, 'SIGKILL');
      } catch {
        // ESRCH: nothing of the group is left.
      }
    }
  }, 60_000);
});
