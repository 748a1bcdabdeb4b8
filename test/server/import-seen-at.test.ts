/**
 * The time of an export without dates (Screaming Frog), as a process into the embedded store:
 * `--seen-at`, else the file's modification time; a `--seen-at` that is not a time is a usage
 * error. Such an export has no domain score: its referring domains get no record. Every expected
 * value is written by hand from docs/importing.md.
 */
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadServerDeps } from '../../src/server/deps.js';
import { createServer } from '../../src/server/server.js';
import { openStoreAt } from '../../src/server/store/open.js';
import type { LinkInput } from '../../src/server/store/inputs.js';
import { toTarget } from '../../src/server/target.js';
import { runCli } from '../cli/helpers/run-cli.js';
import { fileTempDir } from '../helpers/file-end.js';

const dir = fileTempDir('bq-import-seen-at-');
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

const FROG = '"Type","Source","Destination","Alt Text","Anchor","Status Code","Status","Follow"\n"HREF","https://frog.test/p","https://acme.test/","","x","200","","true"\n';

describe('the time of an export without dates', () => {
  it('refuses a --seen-at that is not a time YYYY-MM-DDTHH:MM:SS, as a usage error', async () => {
    for (const value of ['2026-06-10', '2026-06-10 08:00:00', '2026-06-10T08:00:00Z']) {
      const run = await runCli(['import', file('all_outlinks.csv', FROG), '--db', newDb(), '--seen-at', value]);
      expect(run.code, value).toBe(2);
      expect(run.stderr).toContain('--seen-at must be a time YYYY-MM-DDTHH:MM:SS (UTC).');
    }
  });

  it("is --seen-at's, else the file's modification time (UTC)", async () => {
    const db = newDb();
    const named = file('all_outlinks.csv', FROG);
    expect((await importInto(db, [named, '--seen-at', '2026-06-10T08:00:00'])).code).toBe(0);
    expect(await links(db, ['source_url', 'first_seen_at', 'last_seen_at'])).toEqual([
      { source_url: 'https://frog.test/p', first_seen_at: '2026-06-10T08:00:00', last_seen_at: '2026-06-10T08:00:00' },
    ]);
    // The export has no domain score, so frog.test got no record: a later link with a score gives it one.
    expect((await importInto(db, [file('scored.ndjson', ndjson([link('frog.test', 'scored', { domain_score: 70 })]))])).code).toBe(0);
    const { tldts } = await loadServerDeps();
    const store = await openStoreAt({ kind: 'embedded', file: db }, tldts);
    try {
      expect(await store.scoreProfile(toTarget('acme.test', 'ROOT_DOMAIN', tldts)!)).toEqual([{ domain_score: 70, domains_count: 1 }]);
    } finally {
      await store.close();
    }
    const dated = newDb();
    const modified = file('all_outlinks.csv', FROG);
    utimesSync(modified, new Date('2025-03-04T05:06:07Z'), new Date('2025-03-04T05:06:07Z'));
    expect((await importInto(dated, [modified])).code).toBe(0);
    expect(await links(dated, ['source_url', 'first_seen_at', 'last_seen_at'])).toEqual([
      { source_url: 'https://frog.test/p', first_seen_at: '2025-03-04T05:06:07', last_seen_at: '2025-03-04T05:06:07' },
    ]);
  });
});
