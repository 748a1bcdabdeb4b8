/**
 * End to end: the project's own client and CLI (as a child process) against the server on a real
 * loopback port, on the fixture whose answers are worked out in operations.test.ts.
 */
import { spawn } from 'node:child_process';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, HttpError } from '../../../src/client/index.js';
import { startServer, type RunningServer } from '../../../src/server/server.js';
import { fixtureStore } from '../support/helpers.js';
import { cliCommand } from '../../helpers/cli-command.js';
import { KEYS, NOW } from '../support/fixture.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ store: await fixtureStore(), keys: KEYS, now: () => NOW, port: 0, host: '127.0.0.1', rateLimits: { perSecond: 1000, concurrent: 100 } });
});
afterAll(async () => {
  await server.close();
});

const target = { url: 'example.com', scope: 'ROOT_DOMAIN' } as const;

describe('the client', () => {
  it('lists, projects fields and reports units', async () => {
    const client = createClient({ apiKey: KEYS[0].key, baseUrl: server.url });
    const result = await client.refDomains({ ...target, limit: 2, fields: ['domain', 'backlinks_count'] });
    expect(result.data).toEqual([{ domain: 'alpha.org', backlinks_count: 2 }, { domain: 'gamma.io', backlinks_count: 2 }]);
    expect(result.meta.total).toBe(5);
    expect(result.units).toBe(80);
  });

  it('filters, decodes CSV and pages through a list', async () => {
    const client = createClient({ apiKey: KEYS[0].key, baseUrl: server.url });
    const filtered = await client.links({ ...target, filter: "anchor = 'Example' AND is_lost = false", fields: ['source_url'] });
    expect(filtered.data).toEqual([{ source_url: 'https://alpha.org/post-1' }]);
    const csv = await client.anchors({ ...target, format: 'csv' });
    expect(csv.data.map((row) => row.anchor)).toEqual(['Example', '', 'click here', 'semi;colon "quote"\nnewline', 'seo tips']);
    const rows = [];
    for await (const row of client.paginate.anchors(target, { pageSize: 2 })) rows.push(row.anchor);
    expect(rows).toEqual(['Example', '', 'click here', 'semi;colon "quote"\nnewline', 'seo tips']);
    const matrix = await client.matrix({ urls: ['example.com', 'rival.com'], scope: 'ROOT_DOMAIN', filter: 'backlinks_counts[2] = 1 AND matches_count = 1' });
    expect(matrix.data).toEqual([{ domain: 'zeta.com', domain_score: 55, ip_address: '198.51.100.20', country: 'NL', matches_count: 1, backlinks_counts: [0, 1] }]);
  });

  it('gets the keyword metrics and the service errors as HttpError', async () => {
    const client = createClient({ apiKey: KEYS[0].key, baseUrl: server.url, retry: false });
    const metrics = await client.metrics({ keyword: 'seo tools', country: 'US', month: '2026-05' });
    expect(metrics.data.search_volume).toBe('49500');
    const missing = await client.metrics({ keyword: 'seo tools', country: 'DE' }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(HttpError);
    expect([(missing as HttpError).status, (missing as HttpError).code]).toEqual([404, 'not_found']);
    const unauthorized = await createClient({ apiKey: 'not-a-key-000', baseUrl: server.url, retry: false }).overview(target).catch((error: unknown) => error);
    expect([(unauthorized as HttpError).status, (unauthorized as HttpError).code]).toEqual([401, 'unauthorized']);
  });
});

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...cliCommand(), ...args, '--base-url', server.url, '--api-key', KEYS[0].key], { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('the CLI', () => {
  it('prints a list as JSON', async () => {
    const { code, stdout, stderr } = await cli(['ref-domains', 'example.com', '--scope', 'ROOT_DOMAIN', '--limit', '2', '--fields', 'domain,domain_score', '--format', 'json']);
    expect(code, stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(stdout))).toContain('{"domain":"alpha.org","domain_score":60},{"domain":"gamma.io","domain_score":80}');
  });

  it('prints CSV that reads back, and pages with --all', async () => {
    const csv = await cli(['anchors', 'example.com', '--scope', 'ROOT_DOMAIN', '--format', 'csv', '-y']);
    expect(csv.code, csv.stderr).toBe(0);
    const parsed = Papa.parse<Record<string, string>>(csv.stdout, { header: true, delimiter: ';', skipEmptyLines: true });
    expect(parsed.data.map((row) => row['anchor'])).toEqual(['Example', '', 'click here', 'semi;colon "quote"\nnewline', 'seo tips']);
    const all = await cli(['anchors', 'example.com', '--scope', 'ROOT_DOMAIN', '--all', '--limit', '2', '--format', 'ndjson', '-y']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout.trim().split('\n').map((line) => JSON.parse(line).anchor)).toEqual(['Example', '', 'click here', 'semi;colon "quote"\nnewline', 'seo tips']);
  });

  it('exits non-zero with the service error for a request the server refuses', async () => {
    const { code, stderr } = await cli(['metrics', 'seo tools', '--country', 'DE', '--format', 'json']);
    expect(code).not.toBe(0);
    expect(stderr).toContain('404');
  });
});
