/**
 * The time of an export without dates (Screaming Frog), as a process into the embedded store:
 * `--seen-at`, else the file's modification time; a `--seen-at` that is not a time is a usage
 * error. Such an export has no domain score: its referring domains get no record. Every expected
 * value is written by hand from docs/importing.md.
 */
import { utimesSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadServerDeps } from '../../../src/server/deps.js';
import { openStoreAt } from '../../../src/server/store/open.js';
import { toTarget } from '../../../src/server/target.js';
import { runCli } from '../../cli/helpers/run-cli.js';
import { importFiles, importInto, link, links, ndjson } from './import-helpers.js';

const { file, newDb } = importFiles('bq-import-seen-at-');

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
