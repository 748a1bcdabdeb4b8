/**
 * `backlink-query import` as a process, on the embedded store, SQLite, PostgreSQL and ClickHouse: a file with deliberately
 * broken lines imports its valid records and reports the others by line; importing it again, or
 * the same records as CSV, changes nothing. Expected counts are worked out by hand from the lines.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { clockAt } from '../../../src/server/clock.js';
import { loadServerDeps } from '../../../src/server/deps.js';
import { toCsv } from '../../../src/catalogue/csv.js';
import { clickhouseLocation } from '../../../src/cli/server/location.js';
import { openStoreAt, type StoreLocation } from '../../../src/server/store/open.js';
import type { LinkInput } from '../../../src/server/store/inputs.js';
import { toTarget } from '../../../src/server/target.js';
import { runCli } from '../../cli/helpers/run-cli.js';
import { freshPostgresDatabase } from '../support/postgres-database.js';

const dir = mkdtempSync(join(tmpdir(), 'bq-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const link = (source: string, target: string, anchor: string, extra: Partial<LinkInput> = {}): LinkInput => ({
  source_url: `https://${source}/post`, target_url: target, anchor, redirect_url: '', source_title: 'A post', target_title: '', image_url: '',
  image_alt: '', ip_address: '198.51.100.1', lang: 'en', source_size: 1000, external_links_count: 10, internal_links_count: 20, response_code: 200,
  page_score: 30, domain_score: 40, first_seen_at: '2025-01-01T00:00:00', last_seen_at: '2026-06-01T00:00:00', source_domain: source,
  is_nofollow: false, is_ugc: false, is_sponsored: false, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false, is_lost: false,
  ...extra,
});

// Three valid records: two to example.com (from two domains), one to rival.com.
const valid = [
  link('alpha.org', 'https://example.com/', 'Example'),
  link('beta.net', 'https://www.example.com/blog', 'semi;colon "quoted"\nline', { is_nofollow: true }),
  link('alpha.org', 'https://rival.com/', 'Rival'),
];
const { target_url: _dropped, ...noTarget } = valid[0]!;
const lines = [
  JSON.stringify(valid[0]), //                                          line 1: valid
  '{"source_url": "https://x.org/", "target_url": ', //                 line 2: not JSON
  JSON.stringify(valid[1]), //                                          line 3: valid
  JSON.stringify(noTarget), //                                          line 4: no target_url (required)
  JSON.stringify({ ...valid[2], is_lost: 'no' }), //                    line 5: is_lost not a boolean
  JSON.stringify({ ...valid[2], target_url: '/no/host' }), //           line 6: no host
  JSON.stringify(valid[2]), //                                          line 7: valid
  JSON.stringify({ ...valid[2], first_seen_at: '2025-02-30T00:00:00' }), // line 8: no such date
];
const ndjson = join(dir, 'export.ndjson');
writeFileSync(ndjson, `${lines.join('\n')}\n`);
const csv = join(dir, 'export.csv');
writeFileSync(csv, toCsv(valid, Object.keys(valid[0]!)));

async function counts(location: StoreLocation) {
  const { tldts } = await loadServerDeps();
  const store = await openStoreAt(location, tldts);
  try {
    const clock = clockAt(new Date('2026-06-15T00:00:00Z'));
    const example = await store.overview(toTarget('example.com', 'ROOT_DOMAIN', tldts)!, clock);
    const rival = await store.overview(toTarget('rival.com', 'ROOT_DOMAIN', tldts)!, clock);
    return { example: [example.backlinks_count, example.domains_count, example.follows_count], rival: rival.backlinks_count };
  } finally {
    await store.close();
  }
}

const importSuite = (name: string, location: () => Promise<{ args: string[]; location: StoreLocation }>) =>
  describe(`import (${name})`, () => {
    it('imports the valid records, reports each broken line, and changes nothing the second time or from CSV', async () => {
      const { args, location: where } = await location();
      const rejects = join(dir, `${name}-rejects.ndjson`);
      const first = await runCli(['import', ndjson, ...args, '--rejects', rejects]);
      expect(first.code, first.stderr).toBe(1); // some lines were rejected
      expect(JSON.parse(first.stdout)).toMatchObject({ imported: 3, rejected: 5, domains: 2 });
      for (const line of [2, 4, 5, 6, 8]) expect(first.stderr).toContain(`export.ndjson:${line}: `);
      expect(first.stderr).not.toMatch(/export\.ndjson:(1|3|7): /);
      const reported = readFileSync(rejects, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { line: number; reason: string });
      expect(reported.map((r) => r.line)).toEqual([2, 4, 5, 6, 8]);
      expect(reported[1]!.reason).toBe('missing field target_url');
      // example.com: 2 links, 2 domains, 1 follow (beta.net's is nofollow); rival.com: 1 link.
      expect(await counts(where)).toEqual({ example: [2, 2, 1], rival: 1 });

      const again = await runCli(['import', ndjson, ...args]);
      expect(again.code).toBe(1);
      expect(await counts(where)).toEqual({ example: [2, 2, 1], rival: 1 });

      const fromCsv = await runCli(['import', csv, ...args]);
      expect(fromCsv.code, fromCsv.stderr).toBe(0);
      expect(JSON.parse(fromCsv.stdout)).toMatchObject({ imported: 3, rejected: 0 });
      expect(await counts(where)).toEqual({ example: [2, 2, 1], rival: 1 });
    });

    it("gives a referring domain the domain_score of its latest link, unless a domain record says otherwise", async () => {
      const { args, location: where } = await location();
      // alpha.org has a record of its own (score 90), written first; beta.net only its links: 40,
      // then 55 on a link seen later, then 70 on one seen earlier.
      const domains = join(dir, `${name}-domains.ndjson`);
      writeFileSync(domains, `${JSON.stringify({ domain: 'alpha.org', domain_score: 90, ip_address: '192.0.2.1', country: 'DE' })}\n`);
      const links = join(dir, `${name}-scored.ndjson`);
      writeFileSync(links, [
        valid[0],
        valid[1],
        link('beta.net', 'https://example.com/later', 'later', { domain_score: 55, last_seen_at: '2026-06-10T00:00:00' }),
        link('beta.net', 'https://example.com/earlier', 'earlier', { domain_score: 70, last_seen_at: '2026-05-01T00:00:00' }),
      ].map((record) => JSON.stringify(record)).join('\n'));
      const first = await runCli(['import', domains, ...args]);
      expect(JSON.parse(first.stdout), first.stderr).toMatchObject({ imported: 0, domain_records: 1, rejected: 0 });
      const second = await runCli(['import', links, ...args]);
      expect(JSON.parse(second.stdout), second.stderr).toMatchObject({ imported: 4, rejected: 0 });
      const { tldts } = await loadServerDeps();
      const store = await openStoreAt(where, tldts);
      try {
        expect(await store.scoreProfile(toTarget('example.com', 'ROOT_DOMAIN', tldts)!)).toEqual([
          { domain_score: 55, domains_count: 1 },
          { domain_score: 90, domains_count: 1 },
        ]);
      } finally {
        await store.close();
      }
    });

    it('refuses a CSV whose header names an unknown column, before importing anything', async () => {
      const { args } = await location();
      const bad = join(dir, `${name}-bad.csv`);
      writeFileSync(bad, 'source_url;target_urll\r\nx;y\r\n');
      const result = await runCli(['import', bad, ...args]);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(/target_urll/);
    });
  });

importSuite('embedded (the default)', async () => {
  const file = join(dir, `import-${Math.random().toString(36).slice(2)}.db`);
  return { args: ['--db', file], location: { kind: 'embedded', file } };
});

importSuite('SQLite', async () => {
  const file = join(dir, `import-${Math.random().toString(36).slice(2)}.db`);
  return { args: ['--database-url', `sqlite:${file}`], location: { kind: 'sqlite', file } };
});

importSuite('PostgreSQL', async () => {
  const url = await freshPostgresDatabase(inject('postgresUrl'), 'import');
  return { args: ['--database-url', url], location: { kind: 'postgres', url } };
});

importSuite('ClickHouse (two shards)', async () => {
  const urls = inject('clickhouseClusterUrl');
  if (!urls) throw new Error('clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster (see test/setup/engine-selection.ts).');
  const database = `bq_import_${Math.random().toString(36).slice(2, 10)}`;
  clickhouseDatabases.push(database);
  const url = `clickhouse://${urls.replaceAll('http://', '')}/${database}?ledger=${encodeURIComponent(join(dir, `${database}-ledger.db`))}`;
  const location = clickhouseLocation(url);
  if (typeof location === 'string') throw new Error(location);
  return { args: ['--database-url', url], location };
});

const clickhouseDatabases: string[] = [];
afterAll(async () => {
  for (const url of inject('clickhouseClusterUrl')?.split(',') ?? []) {
    for (const name of clickhouseDatabases) await fetch(`${url}/`, { method: 'POST', body: `DROP DATABASE IF EXISTS ${name}` });
  }
});

describe('import (PostgreSQL) stopped by --max-rejects', () => {
  it('writes nothing of the load, not even the batches written before the stop, and says so', async () => {
    const url = await freshPostgresDatabase(inject('postgresUrl'), 'import');
    const args = ['--database-url', url];
    // A load before: rival.com's link, so that the stopped load is not into an empty store.
    const first = join(dir, 'postgres-first.ndjson');
    writeFileSync(first, `${JSON.stringify(valid[2])}\n`);
    expect((await runCli(['import', first, ...args])).code).toBe(0);
    // 3,000 valid records to example.com (some megabytes: read in many chunks, most written in batches of 100
    // before the end of the file is read), then two lines that are not JSON: the second is one too many.
    const stopped = join(dir, 'postgres-stopped.ndjson');
    const many = Array.from({ length: 3_000 }, (_, i) => JSON.stringify(link(`s${i}.org`, 'https://example.com/', 'Example')));
    writeFileSync(stopped, `${many.join('\n')}\nnot json\nnot json either\n`);
    const run = await runCli(['import', stopped, ...args, '--batch', '100', '--max-rejects', '1']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^More than 1 rejected line \(--max-rejects 1\): nothing of this import was written; .* is as it was before it\.$/m);
    expect(await counts({ kind: 'postgres', url })).toEqual({ example: [0, 0, 0], rival: 1 });
    // The links table too, rollups aside: rival.com's link alone.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      expect((await client.query<{ n: string }>('SELECT count(*) AS n FROM links')).rows).toEqual([{ n: '1' }]);
    } finally {
      await client.end();
    }
  });
});
