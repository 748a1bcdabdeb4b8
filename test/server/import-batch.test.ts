/**
 * `backlink-query import` as a process into the embedded store: a file that cannot be read stops
 * the import, `--batch` below 1 is a usage error, and the referring domains' records derived from
 * links are all written, the last partial batch too, the latest link's score (the higher on a tie).
 * Every expected value is written by hand from docs/importing.md and the records.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadServerDeps } from '../../src/server/deps.js';
import { createServer } from '../../src/server/server.js';
import { openStoreAt } from '../../src/server/store/open.js';
import type { LinkInput } from '../../src/server/store/inputs.js';
import { toTarget } from '../../src/server/target.js';
import { runCli } from '../cli/helpers/run-cli.js';
import { fileTempDir } from '../helpers/file-end.js';

const dir = fileTempDir('bq-import-batch-');
let files = 0;
function file(name: string, content: string): string {
  const path = join(dir(), `${files++}-${name}`);
  writeFileSync(path, content);
  return path;
}
const newDb = () => join(dir(), `${files++}.db`);

const link = (source: string, anchor: string, extra: Partial<LinkInput> = {}): LinkInput => ({
  source_url: `https://${source}/post`, target_url: 'https://acme.test/', anchor, redirect_url: '', source_title: 'A post', target_title: '', image_url: '',
  image_alt: '', ip_address: '198.51.100.1', lang: 'en', source_size: 1000, external_links_count: 10, internal_links_count: 20, response_code: 200,
  page_score: 30, domain_score: 40, first_seen_at: '2025-01-01T00:00:00', last_seen_at: '2026-06-01T00:00:00', source_domain: source,
  is_nofollow: false, is_ugc: false, is_sponsored: false, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false, is_lost: false,
  ...extra,
});
const ndjson = (records: readonly object[]) => `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;

/** The summary on stdout of an import that ran (exit 0 or 1). */
async function importInto(db: string, args: readonly string[]) {
  const run = await runCli(['import', ...args, '--db', db]);
  expect(run.stdout, run.stderr).not.toBe('');
  return { code: run.code, stderr: run.stderr, summary: JSON.parse(run.stdout) as { imported: number; rejected: number; domain_records: number; files: { format: string }[] } };
}

/** acme.test's links, by source_url, with the fields asked for. */
async function links(db: string, keys: readonly string[]) {
  const { tldts } = await loadServerDeps();
  const store = await openStoreAt({ kind: 'embedded', file: db }, tldts);
  const key = { id: 'tester', key: 'test-key-options', units: 1_000_000 };
  const app = await createServer({ store, keys: [key], now: () => new Date('2026-06-15T12:00:00Z'), rateLimits: { perSecond: 1_000_000, concurrent: 1_000_000 } });
  try {
    const response = await app.inject({
      method: 'GET', url: '/_api/apis/v4/backlinks/v1/links', query: { url: 'acme.test', scope: 'ROOT_DOMAIN', limit: '100' }, headers: { authorization: `Apikey ${key.key}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().data as Record<string, unknown>[])
      .map((row) => Object.fromEntries(keys.map((name) => [name, row[name]])))
      .sort((a, b) => String(a['source_url']).localeCompare(String(b['source_url'])));
  } finally {
    await app.close();
  }
}

describe('a file that cannot be read', () => {
  it('stops the import with exit status 1 and the reason, and nothing of it is written', async () => {
    const db = newDb();
    const bad = file('bad.csv', `source_url;target_urll\r\nhttps://one.test/post;https://acme.test/\r\n`);
    const run = await runCli(['import', bad, '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/bad\.csv: CSV header \(line 1\): missing columns target_url, .*; unknown column target_urll$/m);
    expect(run.stdout).toBe('');
    expect(await links(db, ['source_url'])).toEqual([]);
  });
});

describe('import --batch', () => {
  it('refuses a --batch below 1, as a usage error', async () => {
    const run = await runCli(['import', file('links.ndjson', ndjson([link('one.test', 'a')])), '--db', newDb(), '--batch', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--batch must be a whole number of at least 1, not "0".');
  });

  it("writes every referring domain's derived record, the last partial batch too; the latest link's score, the higher on a tie", async () => {
    const db = newDb();
    // Three referring domains, --batch 2: their records are written as a batch of two and one of one.
    const records = [
      link('one.test', 'a', { domain_score: 10 }),
      link('two.test', 'b', { domain_score: 20, last_seen_at: '2026-06-01T00:00:00' }),
      link('two.test', 'c', { domain_score: 25, last_seen_at: '2026-06-01T00:00:00' }),
      link('two.test', 'd', { domain_score: 50, last_seen_at: '2026-05-01T00:00:00' }),
      link('three.test', 'e', { domain_score: 30 }),
    ];
    const run = await importInto(db, [file('links.ndjson', ndjson(records)), '--batch', '2']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary).toMatchObject({ imported: 5, rejected: 0 });
    expect(run.stderr).toContain("the links' domain scores given to those of their 3 referring domains without a domain record");
    const { tldts } = await loadServerDeps();
    const store = await openStoreAt({ kind: 'embedded', file: db }, tldts);
    try {
      expect(await store.scoreProfile(toTarget('acme.test', 'ROOT_DOMAIN', tldts)!)).toEqual([
        { domain_score: 10, domains_count: 1 },
        { domain_score: 25, domains_count: 1 },
        { domain_score: 30, domains_count: 1 },
      ]);
    } finally {
      await store.close();
    }
  });

});
