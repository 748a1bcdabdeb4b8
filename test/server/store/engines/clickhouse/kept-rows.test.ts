/**
 * Kept rows on the ClickHouse cluster (`kept-rows.ts`): the load keeps the first rows of each list
 * of every key with more rows than it keeps, in the list's default order, and an unfiltered page
 * in that order within them is read from them. Here the store keeps 3 rows, so that the fixture's
 * and a small sample's targets have kept rows.
 *
 * The reference is the same database read by a store without rollups (`rollups: false`: every list
 * grouped from the links per call, which never reads kept rows). By hand, from the fixture
 * (test/server/support/fixture.ts): example.com's seven links have page scores 50, 45, 30, 70, 70,
 * 20, 10 (ids 1-7 in load order), so its first three by page_score DESC, id ASC are the gamma.io
 * links to /blog and /blog/ (70, ids 4 and 5), then alpha.org's to / (50); its five referring
 * domains by backlinks_count DESC, domain ASC: alpha.org (2), gamma.io (2), beta.net (1), ...; its
 * five IPs, each of one domain, by IP text ascending: 192.0.2.44, 192.0.2.45, 198.51.100.1.
 *
 * The sample is loaded after the hand-counted cases.
 *
 * On the real two-shard test cluster (scripts/engines/clickhouse.sh).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clockAt } from '../../../../../src/server/clock.js';
import { loadServerDeps, type DomainParser } from '../../../../../src/server/deps.js';
import { ClickhouseShard } from '../../../../../src/server/store/engines/clickhouse/connection.js';
import { openClickhouseStore, type ClickhouseStore } from '../../../../../src/server/store/engines/clickhouse/clickhouse-store.js';
import { raw } from '../../../../../src/server/store/fragment.js';
import { openLedgerAt } from '../../../../../src/server/store/open.js';
import { seedSample } from '../../../../../src/server/sample/generate.js';
import type { GroupedOperation, Page } from '../../../../../src/server/store/store.js';
import { toTarget, type Scope } from '../../../../../src/server/target.js';
import { exampleLinks, linkDefaults, loadFixture, NOW } from '../../../support/fixture.js';

const database = `bq_kept_${Math.random().toString(36).slice(2, 10)}`;
const KEEP = 3;
const clock = clockAt(NOW);
let urls: string[];
let dir: string;
let parser: DomainParser;
let kept: ClickhouseStore | undefined;
let reference: ClickhouseStore | undefined;

/** The default order of each list, as the interface gives it (DESC by default). */
const DEFAULT_ORDER: Readonly<Record<GroupedOperation, string>> = {
  links: 'page_score',
  'ref-domains': 'backlinks_count',
  'ref-ips': 'domains_count',
  pages: 'domains_count',
  anchors: 'domains_count',
};

const ledger = async (name: string) => openLedgerAt({ kind: 'sqlite', file: join(dir, `${name}-${Math.random().toString(36).slice(2)}.db`) });
const openKept = async () => (kept = await openClickhouseStore({ urls, database, parser, keepRows: KEEP, ledger: await ledger('kept') }));

beforeAll(async () => {
  const cluster = inject('clickhouseClusterUrl');
  if (!cluster) throw new Error('clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster (see test/setup/engine-selection.ts).');
  urls = cluster.split(',');
  parser = (await loadServerDeps()).tldts;
  dir = mkdtempSync(join(tmpdir(), 'bq-kept-ch-'));
  await openKept();
  await loadFixture(kept!);
  reference = await openClickhouseStore({ urls, database, parser, rollups: false, ledger: await ledger('reference') });
}, 300_000);

afterAll(async () => {
  await Promise.all([kept?.close(), reference?.close()]);
  for (const url of urls ?? []) await fetch(`${url}/`, { method: 'POST', body: `DROP DATABASE IF EXISTS ${database}` });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const shards = () => urls.map((url) => new ClickhouseShard({ url, database, timeoutMs: 30_000 }));
const target = (url: string, scope: Scope) => toTarget(url, scope, parser)!;
const page = (operation: GroupedOperation, offset: number, limit: number): Page => ({ orderBy: DEFAULT_ORDER[operation], direction: 'DESC', offset, limit });
const grouped = <Op extends GroupedOperation>(store: ClickhouseStore, operation: Op, url: string, scope: Scope, p: Page) =>
  store.grouped(operation, { target: target(url, scope), page: p, filter: null, clock });

/** Every shard's kept rows of one table, as `tkey ord key`, sorted. */
async function keptRows(table: string, key: string): Promise<string[]> {
  const rows = await Promise.all(shards().map((shard) => shard.all<{ r: string }>(raw(`SELECT concat(tkey, ' ', ord, ' ', toString(${key})) AS r FROM ${table}_local`))));
  return rows.flat().map((row) => row.r).sort();
}

describe('kept rows on the cluster', () => {
  it('keeps the first rows of the lists of keys with more rows than it keeps, as counted by hand', async () => {
    const links = (await keptRows('kept_links', 'source_url')).filter((row) => row.startsWith('d:example.com '));
    // The two gamma.io links share a source URL.
    expect(links).toEqual(['d:example.com page_score DESC https://alpha.org/post-1', 'd:example.com page_score DESC https://gamma.io/review', 'd:example.com page_score DESC https://gamma.io/review']);
    const domains = (await keptRows('kept_ref_domains', 'source_domain')).filter((row) => row.startsWith('d:example.com '));
    expect(domains).toEqual(['d:example.com backlinks_count DESC alpha.org', 'd:example.com backlinks_count DESC beta.net', 'd:example.com backlinks_count DESC gamma.io']);
    const ips = (await keptRows('kept_ref_ips', 'ip_address')).filter((row) => row.startsWith('d:example.com '));
    expect(ips).toEqual(['d:example.com domains_count DESC 192.0.2.44', 'd:example.com domains_count DESC 192.0.2.45', 'd:example.com domains_count DESC 198.51.100.1']);
    // A key of three links or fewer keeps none: p:example.com/blog has one link (gamma.io's).
    expect((await keptRows('kept_links', 'source_url')).filter((row) => row.startsWith('p:example.com/blog '))).toEqual([]);
    // Nor a list of three rows or fewer of a key with more links: rival.com's six links (the first three by id, all of score 10, kept) share one anchor and one page.
    expect((await keptRows('kept_links', 'source_domain')).filter((row) => row.startsWith('d:rival.com '))).toEqual([
      'd:rival.com page_score DESC alpha.org', 'd:rival.com page_score DESC beta.net', 'd:rival.com page_score DESC gamma.io',
    ].sort());
    expect((await keptRows('kept_anchors', 'anchor')).filter((row) => row.startsWith('d:rival.com '))).toEqual([]);
    expect((await keptRows('kept_pages', 'page_key')).filter((row) => row.startsWith('d:rival.com '))).toEqual([]);

    const first = await grouped(kept!, 'links', 'example.com', 'ROOT_DOMAIN', page('links', 0, 3));
    expect(first.total).toBe(7);
    expect(first.rows.map((row) => [row.target_url, row.page_score])).toEqual([['https://example.com/blog', 70], ['https://example.com/blog/', 70], ['https://example.com/', 50]]);
    const second = await grouped(kept!, 'ref-domains', 'example.com', 'ROOT_DOMAIN', page('ref-domains', 1, 2));
    expect(second.total).toBe(5);
    expect(second.rows.map((row) => row.domain)).toEqual(['gamma.io', 'beta.net']);
  });

  it('a page within the kept rows is read from them, and a load writes them again', async () => {
    // A kept row changed by hand (its page score raised, still ranked first) shows on the page
    // read from the kept rows, not on one past them (read from the links).
    for (const shard of shards()) {
      await shard.run(raw(`ALTER TABLE kept_links_local UPDATE page_score = 71 WHERE tkey = 'd:example.com' AND target_url = 'https://example.com/blog'`));
    }
    const scores = async (offset: number, limit: number) => (await grouped(kept!, 'links', 'example.com', 'ROOT_DOMAIN', page('links', offset, limit))).rows.map((row) => row.page_score);
    let changed: unknown[] = [];
    for (let i = 0; i < 50 && changed[0] !== 71; i++) {
      changed = await scores(0, 2);
      if (changed[0] !== 71) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(changed).toEqual([71, 70]);
    expect(await scores(0, 4)).toEqual([70, 70, 50, 45]);

    // A load of a link with the highest score: the refresh keeps it first, and the changed row is gone with its version.
    const writer = await kept!.writer();
    await writer.links([{ ...exampleLinks[0]!, ...linkDefaults, source_url: 'https://zeta.com/top', target_url: 'https://example.com/top', source_domain: 'zeta.com', page_score: 99 }]);
    await writer.finish();
    const after = await grouped(kept!, 'links', 'example.com', 'ROOT_DOMAIN', page('links', 0, 3));
    expect(after.total).toBe(8);
    expect(after.rows.map((row) => [row.target_url, row.page_score])).toEqual([['https://example.com/top', 99], ['https://example.com/blog', 70], ['https://example.com/blog/', 70]]);
    expect(after).toEqual(await grouped(reference!, 'links', 'example.com', 'ROOT_DOMAIN', page('links', 0, 3)));

    // A kept row of an older version (as a refresh leaves them until its delete has run) is not read.
    for (const shard of shards()) {
      await shard.insert('kept_ref_domains_local', [
        { ord: 'backlinks_count DESC', tkey: 'd:example.com', tdomain: 'example.com', source_domain: 'stale.com', backlinks_count: 999, version: 1 },
      ]);
    }
    const domains = await grouped(kept!, 'ref-domains', 'example.com', 'ROOT_DOMAIN', page('ref-domains', 0, 3));
    expect(domains.rows.map((row) => row.domain)).toEqual(['alpha.org', 'gamma.io', 'beta.net']);
    for (const shard of shards()) {
      await shard.insert('kept_links_local', [
        { ord: 'page_score DESC', tkey: 'd:example.com', tdomain: 'example.com', id: 1, source_url: 'https://stale.com/', page_score: 1000, version: 1 },
      ]);
    }
    expect(await grouped(kept!, 'links', 'example.com', 'ROOT_DOMAIN', page('links', 0, 3))).toEqual(after);
  }, 120_000);

  it('with a sample loaded beside: an unfiltered page in the default order, within the kept rows or not, is the page of the links grouped per call', async () => {
    await seedSample(kept!, parser, { links: 1_500, seed: 5, now: NOW });
    const targets: [string, Scope][] = [
      ['example.com', 'ROOT_DOMAIN'], ['www.example.com', 'SUBDOMAIN'], ['example.com', 'SUBFOLDER'], ['https://example.com/blog', 'PAGE'],
      ['rival.com', 'ROOT_DOMAIN'], ['other.com', 'ROOT_DOMAIN'],
    ];
    // And the sample's largest targets, whatever they are.
    const largest = await shards()[0]!.all<{ d: string }>(raw('SELECT target_domain AS d FROM links GROUP BY d ORDER BY count() DESC, d LIMIT 4'));
    for (const { d } of largest) targets.push([d, 'ROOT_DOMAIN']);
    let compared = 0;
    for (const [url, scope] of targets) {
      for (const operation of Object.keys(DEFAULT_ORDER) as GroupedOperation[]) {
        // Every page inside the kept rows, one past them, and one wider than them.
        for (const [offset, limit] of [[0, 1], [0, 2], [0, 3], [1, 1], [1, 2], [2, 1], [0, 4], [3, 1], [2, 2]] as const) {
          const p = page(operation, offset, limit);
          expect(await grouped(kept!, operation, url, scope, p), `${operation} ${scope} ${url} ${offset}+${limit}`).toEqual(
            await grouped(reference!, operation, url, scope, p),
          );
          compared++;
        }
      }
    }
    expect(compared).toBe(targets.length * 5 * 9);

    // A store that would keep more rows than were kept reads the pages past them from the lists.
    const wider = await openClickhouseStore({ urls, database, parser, keepRows: 10, ledger: await ledger('wider') });
    try {
      for (const [url, scope] of targets.slice(0, 5)) {
        for (const operation of Object.keys(DEFAULT_ORDER) as GroupedOperation[]) {
          for (const [offset, limit] of [[0, 4], [2, 2], [3, 5], [0, 3]] as const) {
            const p = page(operation, offset, limit);
            expect(await grouped(wider, operation, url, scope, p), `keeping 10: ${operation} ${scope} ${url} ${offset}+${limit}`).toEqual(await grouped(reference!, operation, url, scope, p));
          }
        }
      }
    } finally {
      await wider.close();
    }
  }, 300_000);

  it('a database without kept rows (made before them) gets them at the next open, once', async () => {
    const tables = ['kept_links', 'kept_ref_domains', 'kept_ref_ips', 'kept_pages', 'kept_anchors'];
    const keys: Record<string, string> = { kept_links: 'id', kept_ref_domains: 'source_domain', kept_ref_ips: 'ip_address', kept_pages: 'page_key', kept_anchors: 'anchor' };
    const all = async () => Promise.all(tables.map((table) => keptRows(table, keys[table]!)));
    const before = await all();
    expect(before.every((rows) => rows.length > 0)).toBe(true);
    await kept!.close();
    for (const shard of shards()) for (const table of [...tables, 'kept_done']) await shard.run(raw(`DROP TABLE ${table}_local`));
    await openKept();
    expect(await all()).toEqual(before);
    await kept!.close();
    await openKept();
    expect(await all()).toEqual(before);

    // Two servers that open such a database at once may both write them: as if the record of the
    // first fill were lost, a second open writes every kept row again, and pages are as before.
    await kept!.close();
    for (const shard of shards()) await shard.run(raw('TRUNCATE TABLE kept_done_local'));
    await openKept();
    expect((await all()).map((rows) => rows.length)).toEqual(before.map((rows) => 2 * rows.length));
    for (const operation of Object.keys(DEFAULT_ORDER) as GroupedOperation[]) {
      for (const [url, scope] of [['example.com', 'ROOT_DOMAIN'], ['rival.com', 'ROOT_DOMAIN']] as const) {
        const p = page(operation, 0, 3);
        expect(await grouped(kept!, operation, url, scope, p), `${operation} ${url} after two fills`).toEqual(await grouped(reference!, operation, url, scope, p));
      }
    }
  }, 120_000);
});
