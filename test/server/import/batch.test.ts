/**
 * `backlink-query import` as a process into the embedded store: a file that cannot be read stops
 * the import, `--batch` below 1 is a usage error, and the referring domains' records derived from
 * links are all written, the last partial batch too, the latest link's score (the higher on a tie).
 * Every expected value is written by hand from docs/importing.md and the records.
 */
import { describe, expect, it } from 'vitest';
import { loadServerDeps } from '../../../src/server/deps.js';
import { openStoreAt } from '../../../src/server/store/open.js';
import { toTarget } from '../../../src/server/target.js';
import { runCli } from '../../cli/helpers/run-cli.js';
import { importFiles, importInto, link, links, ndjson } from './import-helpers.js';

const { file, newDb } = importFiles('bq-import-batch-');

describe('a file that cannot be read', () => {
  it('stops the import with exit status 1 and the reason, and nothing of it is written', async () => {
    const db = newDb();
    const bad = file('bad.csv', `source_url;target_urll\r\nhttps://one.test/post;https://acme.test/\r\n`);
    const run = await runCli(['import', bad, '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/bad\.csv: CSV header \(line 1\) fits no format; the closest is the service's own record, whose columns differ:\n  "target_urll" is not a column of it; did you mean target_url\?$/m);
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
