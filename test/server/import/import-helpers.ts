/**
 * What the tests of `backlink-query import` as a process share (batch, seen-at,
 * format-option): files written to a folder of the test file's own, a link of acme.test
 * with every field written by hand, the import run with its summary, and acme.test's links as
 * the server answers them from the imported database.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { loadServerDeps } from '../../../src/server/deps.js';
import { createServer } from '../../../src/server/server.js';
import { openStoreAt } from '../../../src/server/store/open.js';
import type { LinkInput } from '../../../src/server/store/inputs.js';
import { runCli } from '../../cli/helpers/run-cli.js';
import { fileTempDir } from '../../helpers/file-end.js';

/**
 * A temporary folder of the current test file (removed at its end), and the files and databases
 * written into it, each under a new name.
 *
 * @example
 * ```ts
 * const { dir, file, newDb } = importFiles('bq-import-batch-');
 * ```
 */
export function importFiles(prefix: string) {
  const dir = fileTempDir(prefix);
  let files = 0;
  return {
    dir,
    /** Writes `content` to a new file whose name ends in `name`; its path. */
    file(name: string, content: string): string {
      const path = join(dir(), `${files++}-${name}`);
      writeFileSync(path, content);
      return path;
    },
    /** The path of a new database file (not made yet). */
    newDb: () => join(dir(), `${files++}.db`),
  };
}

/** A link from `source` to acme.test with `anchor`, every field given, `extra` over them. */
export const link = (source: string, anchor: string, extra: Partial<LinkInput> = {}): LinkInput => ({
  source_url: `https://${source}/post`, target_url: 'https://acme.test/', anchor, redirect_url: '', source_title: 'A post', target_title: '', image_url: '',
  image_alt: '', ip_address: '198.51.100.1', lang: 'en', source_size: 1000, external_links_count: 10, internal_links_count: 20, response_code: 200,
  page_score: 30, domain_score: 40, first_seen_at: '2025-01-01T00:00:00', last_seen_at: '2026-06-01T00:00:00', source_domain: source,
  is_nofollow: false, is_ugc: false, is_sponsored: false, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false, is_lost: false,
  ...extra,
});

/** The records as NDJSON, one a line. */
export const ndjson = (records: readonly object[]) => `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;

/** The summary on stdout of an import that ran (exit 0 or 1). */
export async function importInto(db: string, args: readonly string[]) {
  const run = await runCli(['import', ...args, '--db', db]);
  expect(run.stdout, run.stderr).not.toBe('');
  return { code: run.code, stderr: run.stderr, summary: JSON.parse(run.stdout) as { imported: number; rejected: number; domain_records: number; files: { format: string }[] } };
}

/** acme.test's links, by source_url, with the fields asked for. */
export async function links(db: string, keys: readonly string[]) {
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
