/**
 * `serve` as a real process: `--keys` inline or from a file, a port already in use, and the
 * operation commands against it (a call the server refuses prints every detail). Expected texts
 * are written from the commands' help and docs/cli.md.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliCommand } from '../helpers/cli-command.js';
import { PROJECT, runCli } from './helpers/run-cli.js';

const BASE = '/_api/apis/v4/backlinks/v1';
const dir = mkdtempSync(join(tmpdir(), 'bq-cli-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `serve` started as a child process; `stop()` ends it with SIGTERM and resolves to its exit code. */
function startServe(args: readonly string[]) {
  const child = spawn(process.execPath, [...cliCommand(), 'serve', ...args], {
    cwd: PROJECT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
  const url = (async () => {
    for (;;) {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) return match[1]!;
      const ended = await Promise.race([exit.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 50))]);
      if (ended) throw new Error(`serve ended before listening:\n${stdout}\n${stderr}`);
    }
  })();
  // Tests that expect serve to fail never wait for the URL: its rejection is not an unhandled one.
  url.catch(() => undefined);
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exit;
  };
  return { url, exit, stop, out: () => stdout, err: () => stderr };
}

const overview = (url: string, key: string) => fetch(`${url}${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, { headers: { authorization: `Apikey ${key}` } });

describe('serve --keys', () => {
  it('takes the inline form its help shows, and a call against it prints every detail of a refusal', async () => {
    const serve = startServe(['--port', '0', '--keys', 'ci:ci-key-123456:5000', '--quiet']);
    try {
      const url = await serve.url;
      expect((await overview(url, 'ci-key-123456')).status).toBe(200);
      expect((await overview(url, 'another-key-123')).status).toBe(401);
      // Keys were configured, so no key was made up and printed.
      expect(serve.out()).not.toContain('API key:');

      const env = { BACKLINK_QUERY_API_KEY: 'ci-key-123456', BACKLINK_QUERY_BASE_URL: url };
      const run = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--limit', '100000', '--yes'], { env });
      expect(run.code).toBe(1);
      const lines = run.stderr.split('\n');
      expect(lines[0]).toMatch(/^backlink-query links: the service refused the call with 400 invalid_request \(request [^)]+\), 1 problem:$/);
      expect(lines[1]).toMatch(/^ {2}--limit \(too_large\): limit must be at most 10000\b/);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  });

  it('still reads a file, JSON or the short form', async () => {
    const file = join(dir, 'keys.json');
    writeFileSync(file, JSON.stringify([{ id: 'ci', key: 'file-key-123456', units: 5000 }]));
    const serve = startServe(['--port', '0', '--keys', file, '--quiet']);
    try {
      const url = await serve.url;
      expect((await overview(url, 'file-key-123456')).status).toBe(200);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  });

  it('says how to write keys when the value is neither a file nor keys', async () => {
    const serve = startServe(['--port', '0', '--keys', join(dir, 'missing.json')]);
    expect(await serve.exit).toBe(1);
    expect(serve.err()).toContain(`--keys "${join(dir, 'missing.json')}" is neither a file nor keys; write keys as "id:key[:units],..." or name a file that holds them.`);
    expect(serve.err()).not.toContain('ENOENT');
  });

  it('tells in --help how the inline form and a file are told apart', async () => {
    const run = await runCli(['serve', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('A value that names an existing file is read from that file; any other value');
    expect(run.stdout).toContain('containing ":", "[" or "{" is the keys themselves');
  });
});

describe('serve on a port in use', () => {
  it('says so in one line naming --port, with the usage exit code (2), not 70', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    try {
      const serve = startServe(['--port', String(port), '--keys', 'ci:ci-key-123456:5000']);
      expect(await serve.exit).toBe(2);
      const errors = serve.err().split('\n').filter((line) => line.startsWith('backlink-query'));
      expect(errors).toEqual([`backlink-query serve: port ${port} is already in use on 127.0.0.1; choose another with --port (--port 0 picks a free one).`]);
      expect(serve.err()).not.toContain('EADDRINUSE');
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe('serve for browsers and with its own error docs', () => {
  it('--cors-origin grants the listed origin only; --error-docs names the page errors link to', async () => {
    const serve = startServe(['--port', '0', '--keys', 'ci:ci-key-123456:5000', '--quiet', '--cors-origin', 'https://app.example', '--error-docs', 'https://docs.example/errors']);
    try {
      const url = await serve.url;
      const allowed = await fetch(`${url}${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, { headers: { authorization: 'Apikey ci-key-123456', origin: 'https://app.example' } });
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
      const other = await fetch(`${url}${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, { headers: { authorization: 'Apikey ci-key-123456', origin: 'https://other.example' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      const refused = await fetch(`${url}${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`);
      expect((await refused.json()).error.type).toBe('https://docs.example/errors#unauthorized');
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  });

  it('--public-url starts the error type and names the server in the OpenAPI document, whatever Host says', async () => {
    const serve = startServe(['--port', '0', '--keys', 'ci:ci-key-123456:5000', '--quiet', '--public-url', 'https://api.example.com/bq/']);
    try {
      const url = await serve.url;
      // fetch sets Host itself (the loopback address): the type must not follow it.
      const refused = await fetch(`${url}${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`);
      expect((await refused.json()).error.type).toBe('https://api.example.com/bq/errors#unauthorized');
      expect((await (await fetch(`${url}/openapi.json`)).json()).servers).toEqual([{ url: 'https://api.example.com/bq' }]);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  });

  it('--public-url refuses what is not an http(s) URL without query or fragment, before it opens or seeds a database', async () => {
    const bads = [
      'api.example.com', 'ftp://api.example.com', 'https://api.example.com/?a=1', 'https://api.example.com/#top', 'https://user@api.example.com',
      'https://:secret@api.example.com', 'http://api.example.com:99999', 'http://[::1', 'http://exa%mple.com',
    ];
    for (const bad of bads) {
      const db = join(dir, 'never-opened.db');
      const serve = startServe(['--port', '0', '--sample', '--db', db, '--public-url', bad]);
      expect(await serve.exit, bad).toBe(2);
      expect(serve.err(), bad).toBe(
        `backlink-query serve: --public-url takes an http(s) URL without query or fragment, such as https://api.example.com (got ${JSON.stringify(bad)}).\n` +
          'Run "backlink-query serve --help" for usage.\n',
      );
      expect(existsSync(db), bad).toBe(false);
    }
  });

  it('--sample allows every origin unless told otherwise', async () => {
    const serve = startServe(['--port', '0', '--sample', '--links', '300', '--db', join(dir, 'sample.db'), '--quiet']);
    try {
      const url = await serve.url;
      const response = await fetch(`${url}${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, { headers: { authorization: 'Apikey bq_demo_key_0123456789', origin: 'https://anything.example' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  });

  it('sends no CORS grant unless told, and refuses an origin with a path', async () => {
    const serve = startServe(['--port', '0', '--keys', 'ci:ci-key-123456:5000', '--quiet']);
    try {
      const url = await serve.url;
      const response = await fetch(`${url}${BASE}/overview?url=example.com&scope=ROOT_DOMAIN`, { headers: { authorization: 'Apikey ci-key-123456', origin: 'https://app.example' } });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      expect(await serve.stop()).toBe(0);
    }
    const bad = startServe(['--port', '0', '--cors-origin', 'https://app.example/page']);
    expect(await bad.exit).toBe(2);
    expect(bad.err()).toContain('--cors-origin: "https://app.example/page" is not an origin (scheme://host[:port], no path), such as https://app.example.');
  });
});
