/**
 * `backlink-query import --format` as a process, into the embedded store: a file whose name says
 * nothing read as the syntax named (ndjson, csv, domains in either), a header that fits two
 * formats read as the one named, and a broken line reported by its line. Every expected value is
 * written by hand from docs/importing.md and the records.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadServerDeps } from '../../../src/server/deps.js';
import { openStoreAt } from '../../../src/server/store/open.js';
import { toTarget } from '../../../src/server/target.js';
import { importFiles, importInto, link, ndjson } from './import-helpers.js';

const { dir, file, newDb } = importFiles('bq-import-format-option-');

describe('import --format', () => {
  it('reads a file whose name says nothing as the syntax named: ndjson, csv, or domains in either', async () => {
    const db = newDb();
    const records = [link('one.test', 'a'), link('two.test', 'b')];
    const csv = [Object.keys(records[0]!).join(';'), ...records.map((record) => Object.values(record).join(';'))].join('\n');
    // Line 2 is broken: reported by its line, the rest imported.
    const lines = ndjson(records).replace('\n', '\n{"source_url":\n');
    const named = file('links.txt', lines);
    const rejects = join(dir(), 'rejects.ndjson');
    const first = await importInto(db, [named, '--format', 'ndjson', '--rejects', rejects]);
    expect(first.summary).toMatchObject({ imported: 2, rejected: 1, files: [{ format: 'service' }] });
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/-links\.txt:2: invalid JSON/);
    expect(first.stderr).not.toMatch(/-links\.txt:[13]: /);
    expect(readFileSync(rejects, 'utf8').trim().split('\n').map((line) => JSON.parse(line))).toMatchObject([{ file: named, line: 2 }]);
    expect((await importInto(db, [file('links.dat', csv), '--format', 'csv'])).summary).toMatchObject({ imported: 2, rejected: 0, files: [{ format: 'service' }] });
    const domainsJson = ndjson([{ domain: 'one.test', domain_score: 61 }]);
    expect((await importInto(db, [file('domains.ndjson', domainsJson), '--format', 'domains'])).summary).toMatchObject({ domain_records: 1, rejected: 0, files: [{ format: 'domains' }] });
    expect((await importInto(db, [file('domains.txt', 'domain,domain_score\ntwo.test,62\n'), '--format', 'domains'])).summary).toMatchObject({ domain_records: 1, rejected: 0 });
    // A header that fits Semrush and Screaming Frog: read as the one named.
    const both = 'Source url,Target url,First seen,Nofollow,Type,Source,Destination,Follow,Anchor\nhttps://x.test/,https://acme.test/,2025-01-01,false,HREF,https://three.test/p,https://acme.test/,true,x\n';
    expect((await importInto(db, [file('both.csv', both), '--format', 'screaming-frog'])).summary).toMatchObject({ imported: 1, rejected: 0, files: [{ format: 'screaming-frog' }] });
    const { tldts } = await loadServerDeps();
    const store = await openStoreAt({ kind: 'embedded', file: db }, tldts);
    try {
      expect(await store.scoreProfile(toTarget('acme.test', 'ROOT_DOMAIN', tldts)!)).toEqual([
        // three.test, the Screaming Frog export's, has no domain score: no record, so no row (not one at 0)
        { domain_score: 61, domains_count: 1 },
        { domain_score: 62, domains_count: 1 },
      ]);
    } finally {
      await store.close();
    }
  });
});
