/**
 * A reader that stops early (`| head -1`, less quit) ends the command quietly: status 0, nothing on
 * stderr, and no page asked for after it (docs/cli.md, "Output"). Each run is a real shell pipeline,
 * `sh -c '(backlink-query ...) | head -1'`, against the fixture server, which records every request.
 *
 * A page here is 5,000 rows, so its text is larger than a pipe's buffer (64 KiB on Linux): the
 * CLI is still writing the first page when head exits, whatever the timing, and sees the closed
 * pipe there. Expected first lines are written by hand from the fixture rows
 * (test/client/helpers/fixtures.ts: row i's anchor is `anchor-<i>-<tricky text i>`, its integers i).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliCommand } from '../helpers/cli-command.js';
import { sendJson, type FixtureServer } from '../client/helpers/fixture-server.js';
import { useCliFixture } from './helpers/fixture.js';
import { PROJECT, runCli } from './helpers/run-cli.js';

let env: Record<string, string>;
let server: FixtureServer;
useCliFixture((fixture) => void ({ env, server } = fixture));

const dir = mkdtempSync(join(tmpdir(), 'bq-cli-pipe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `(backlink-query <args>) | head -1` in sh: what head printed, and the CLI's own status and stderr. */
async function throughHead(name: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const status = join(dir, `${name}.status`);
  const stderr = join(dir, `${name}.stderr`);
  const child = spawn('sh', ['-c', '( "$@" 2>"$BQ_ERR"; echo $? >"$BQ_STATUS" ) | head -1', 'sh', process.execPath, ...cliCommand(), ...args], {
    cwd: PROJECT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', ...env, BQ_ERR: stderr, BQ_STATUS: status },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  await new Promise((resolve) => child.on('close', resolve));
  return { code: Number(readFileSync(status, 'utf8')), stdout, stderr: readFileSync(stderr, 'utf8') };
}

const LINKS = ['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--fields', 'anchor,domain_score', '--limit', '5000', '--yes'];

/** The first line of each format, by hand: NDJSON's first row, JSON's opening bracket, CSV's header (CRLF), the table's header. */
const FIRST_LINE = {
  ndjson: /^\{"anchor":"anchor-0-plain","domain_score":0\}\n$/,
  json: /^\[\n$/,
  csv: /^anchor;domain_score\r\n$/,
  table: /^anchor +domain_score\n$/,
};

describe('a reader that stops early', () => {
  it.each(Object.entries(FIRST_LINE))('one call, --format %s: status 0, nothing on stderr', async (format, first) => {
    server.total = 50_000;
    const run = await throughHead(`one-${format}`, [...LINKS, '--format', format]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(first);
    expect(server.requests).toHaveLength(1);
  });

  // 50,000 rows are 10 pages of 5,000: only the first is asked for.
  it.each(['ndjson', 'json', 'csv'] as const)('--all --format %s: stops after the page being written, status 0, nothing on stderr', async (format) => {
    server.total = 50_000;
    const run = await throughHead(`all-${format}`, [...LINKS, '--all', '--format', format]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(FIRST_LINE[format]);
    expect(server.requests.map((request) => request.query.get('offset'))).toEqual(['0']);
  });

  // The table's widths need every row, so its first line comes after the last page (docs/cli.md):
  // it reads every page, then ends as quietly.
  it('--all --format table: every page read before the first line, then status 0 and nothing on stderr', async () => {
    server.total = 15_000;
    const run = await throughHead('all-table', [...LINKS, '--all', '--format', 'table']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(FIRST_LINE.table);
    expect(server.requests.map((request) => request.query.get('offset'))).toEqual(['0', '5000', '10000']);
  });

  it('the default format in a pipe (NDJSON), as the issue ran it: --fields source_url, one call', async () => {
    server.total = 50_000;
    const run = await throughHead('default', ['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--fields', 'source_url', '--limit', '5000', '--yes']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({ source_url: expect.stringMatching(/^source_url-0-/) });
  });
});

describe('--format json, written row by row', () => {
  it('is the indented array, byte for byte, and [] for no rows', async () => {
    const run = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--fields', 'anchor,domain_score', '--limit', '2', '--format', 'json'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      '[\n  {\n    "anchor": "anchor-0-plain",\n    "domain_score": 0\n  },\n  {\n    "anchor": "anchor-1-semi;colon",\n    "domain_score": 1\n  }\n]\n',
    );
    expect(run.stderr).toBe('2 rows · 90 units\n');
    server.total = 0;
    const none = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--format', 'json'], { env });
    expect(none).toMatchObject({ code: 0, stdout: '[]\n', stderr: '0 rows · 0 units\n' });
  });

  it('a single row and a single unit are counted in the singular', async () => {
    const run = await runCli(['links', 'example.com', '--scope', 'ROOT_DOMAIN', '--fields', 'anchor', '--limit', '1'], { env });
    expect(run).toMatchObject({ code: 0, stdout: '{"anchor":"anchor-0-plain"}\n', stderr: '1 row · 45 units\n' });
    // score-profile costs 1 unit a line (docs/cli.md): a target with one referring domain answers
    // one line, for 1 unit.
    server.queue((_, res) =>
      sendJson(res, 200, { meta: { request_id: 'r-1', status_code: 200, success: true, total: 1 }, data: [{ domain_score: 25, domains_count: 1 }] }),
    );
    const one = await runCli(['score-profile', 'example.com/blogging', '--scope', 'PAGE'], { env });
    expect(one).toMatchObject({ code: 0, stdout: '{"domain_score":25,"domains_count":1}\n', stderr: '1 row · 1 unit\n' });
  });
});
