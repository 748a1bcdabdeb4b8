/**
 * Large targets spread over every shard (`spread.ts`), on the real two-shard test cluster. A store
 * that spreads domains of more than five links (`spreadAbove: 5`) loads one unrelated link into a
 * database another store (the default threshold, which moves nothing here) loaded the fixture
 * into: the load moves the fixture's domains of more than five links, counted by hand from
 * test/server/support/fixture.ts: example.com (7 links), rival.com (6) and other.co.uk (9); not
 * third.com (4) nor boundary.com (4), nor five.com, which this test gives five links (the threshold
 * itself).
 *
 * Where a spread domain's link lives, by hand from docs/design-store.md: the shard its link key's
 * first four bytes (big-endian) name, modulo the number of shards. The answers expected are those
 * the same calls gave before the move (the load adds nothing the calls read), and, after a link is
 * added to a spread domain, those of a store without rollups (every list grouped from the links).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clockAt } from '../../../../../src/server/clock.js';
import { loadServerDeps, type DomainParser } from '../../../../../src/server/deps.js';
import { ClickhouseShard } from '../../../../../src/server/store/engines/clickhouse/connection.js';
import { openClickhouseStore, type ClickhouseStore } from '../../../../../src/server/store/engines/clickhouse/clickhouse-store.js';
import { raw, sql } from '../../../../../src/server/store/fragment.js';
import { openLedgerAt } from '../../../../../src/server/store/open.js';
import type { GroupedOperation, Page } from '../../../../../src/server/store/store.js';
import { toTarget, type Scope } from '../../../../../src/server/target.js';
import { parseFilter } from '../../../../../src/syntax/parse.js';
import { exampleLinks, linkDefaults, loadFixture, NOW } from '../../../support/fixture.js';

const database = `bq_spread_${Math.random().toString(36).slice(2, 10)}`;
const clock = clockAt(NOW);
let urls: string[];
let dir: string;
let parser: DomainParser;
let plain: ClickhouseStore | undefined;
let spreader: ClickhouseStore | undefined;
let reference: ClickhouseStore | undefined;

const ledger = async (name: string) => openLedgerAt({ kind: 'sqlite', file: join(dir, `${name}-${Math.random().toString(36).slice(2)}.db`) });
const shards = () => urls.map((url) => new ClickhouseShard({ url, database, timeoutMs: 30_000 }));
const target = (url: string, scope: Scope) => toTarget(url, scope, parser)!;

/** The shard a spread domain's link lives on, written from the design's rule (not from the store's code). */
const shardByHand = (linkKey: string) => parseInt(linkKey.slice(0, 8), 16) % urls.length;

/** Every call the test compares, each a function of a store. */
function calls(): [string, (store: ClickhouseStore) => Promise<unknown>][] {
  const list = (operation: GroupedOperation, url: string, scope: Scope, page: Page, filter: string | null) =>
    [
      `${operation} ${scope} ${url} ${JSON.stringify(page)} ${filter}`,
      (store: ClickhouseStore) =>
        store.grouped(operation, { target: target(url, scope), page, filter: filter === null ? null : parseFilter(filter, { operation }), clock }),
    ] as [string, (store: ClickhouseStore) => Promise<unknown>];
  const byScore: Page = { orderBy: 'page_score', direction: 'DESC', offset: 0, limit: 3 };
  return [
    list('links', 'example.com', 'ROOT_DOMAIN', byScore, null),
    list('links', 'example.com', 'ROOT_DOMAIN', { ...byScore, offset: 2, limit: 10 }, null),
    list('links', 'example.com', 'ROOT_DOMAIN', { orderBy: 'first_seen_at', direction: 'ASC', offset: 1, limit: 4 }, 'is_nofollow = true OR anchor LIKE "%xam%"'),
    list('links', 'example.com/blog', 'SUBFOLDER', { orderBy: 'source_url', direction: 'ASC', offset: 0, limit: 10 }, null),
    list('links', 'https://example.com/blog', 'PAGE', byScore, null),
    list('links', 'other.co.uk', 'ROOT_DOMAIN', { orderBy: 'source_url', direction: 'DESC', offset: 0, limit: 5 }, 'domain_score >= 10'),
    list('ref-domains', 'example.com', 'ROOT_DOMAIN', { orderBy: 'backlinks_count', direction: 'DESC', offset: 0, limit: 10 }, null),
    list('ref-domains', 'example.com/blog', 'SUBFOLDER', { orderBy: 'domain', direction: 'ASC', offset: 0, limit: 10 }, null),
    list('ref-ips', 'rival.com', 'ROOT_DOMAIN', { orderBy: 'domains_count', direction: 'DESC', offset: 0, limit: 10 }, 'domains_count > 0'),
    list('pages', 'example.com', 'ROOT_DOMAIN', { orderBy: 'domains_count', direction: 'DESC', offset: 0, limit: 10 }, null),
    list('anchors', 'example.com', 'ROOT_DOMAIN', { orderBy: 'domains_count', direction: 'DESC', offset: 0, limit: 10 }, 'backlinks_count >= 1'),
    ['overview example.com', (store) => store.overview(target('example.com', 'ROOT_DOMAIN'), clock)],
    ['overview SUBFOLDER example.com/blog', (store) => store.overview(target('example.com/blog', 'SUBFOLDER'), clock)],
    ['summary SUBFOLDER example.com/blog', (store) => store.summary({ target: target('example.com/blog', 'SUBFOLDER'), from: '2025-01', to: '2026-06', limit: 100 })],
    ['score-profile SUBFOLDER example.com/blog', (store) => store.scoreProfile(target('example.com/blog', 'SUBFOLDER'))],
    ['competitors example.com', (store) => store.competitors({ domain: 'example.com', page: { orderBy: 'similarity', direction: 'DESC', offset: 0, limit: 10 } })],
    [
      'matrix',
      (store) =>
        store.matrix({
          targets: [target('example.com', 'ROOT_DOMAIN'), target('rival.com', 'ROOT_DOMAIN'), target('example.com/blog', 'SUBFOLDER')],
          page: { orderBy: 'domain', direction: 'ASC', offset: 0, limit: 20 },
          filter: null,
        }),
    ],
  ];
}

/** Every call's answer from one store. */
const answers = async (store: ClickhouseStore) => {
  const out: Record<string, unknown> = {};
  for (const [name, call] of calls()) out[name] = await call(store);
  return out;
};

/** Each shard's link keys of a domain (every row, replaced or copied ones too). */
const keysOn = async (domain: string) =>
  Promise.all(shards().map(async (shard) => (await shard.all<{ k: string }>(sql`SELECT link_key AS k FROM links_local WHERE target_domain = ${domain}`)).map((row) => row.k).sort()));

/** Waits until no shard has a mutation (the delete of a move's copies) left to run. */
async function mutationsDone(): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const left = await Promise.all(shards().map((shard) => shard.all<{ n: string }>(sql`SELECT count() AS n FROM system.mutations WHERE database = ${database} AND NOT is_done`)));
    if (left.every(([row]) => Number(row?.n) === 0)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the delete of the moved links did not finish in 30 s');
}

beforeAll(async () => {
  const cluster = inject('clickhouseClusterUrl');
  if (!cluster) throw new Error('clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster (see test/setup/engine-selection.ts).');
  urls = cluster.split(',');
  parser = (await loadServerDeps()).tldts;
  dir = mkdtempSync(join(tmpdir(), 'bq-spread-ch-'));
  plain = await openClickhouseStore({ urls, database, parser, keepRows: 3, ledger: await ledger('plain') });
  await loadFixture(plain);
  const five = await plain.writer();
  await five.links(['a', 'b', 'c', 'd', 'e'].map((page) => ({ ...linkDefaults, source_url: `https://mu.org/${page}`, target_url: 'https://five.com/', source_domain: 'mu.org', anchor: page })));
  await five.finish();
}, 300_000);

afterAll(async () => {
  await Promise.all([plain?.close(), spreader?.close(), reference?.close()]);
  for (const url of urls ?? []) await fetch(`${url}/`, { method: 'POST', body: `DROP DATABASE IF EXISTS ${database}` });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('large targets spread over every shard', () => {
  it('a load moves the domains past the threshold, each link to the shard its key names, and every answer stays the same meanwhile', async () => {
    const before = await answers(plain!);
    // Nothing is spread yet: each domain's links on one shard.
    for (const domain of ['example.com', 'rival.com', 'other.co.uk', 'third.com', 'five.com']) {
      expect((await keysOn(domain)).filter((keys) => keys.length > 0), domain).toHaveLength(1);
    }
    spreader = await openClickhouseStore({ urls, database, parser, keepRows: 3, spreadAbove: 5, ledger: await ledger('spreader') });
    const writer = await spreader.writer();
    await writer.links([{ ...linkDefaults, source_url: 'https://lambda.org/', target_url: 'https://unrelated.net/', source_domain: 'lambda.org', anchor: 'x' }]);
    // Calls from both stores while the load moves the links, and after.
    let done = false;
    const finishing = writer.finish().finally(() => (done = true));
    let during = 0;
    let failed: unknown;
    try {
      while (!done) {
        for (const store of [plain!, spreader]) expect(await answers(store)).toEqual(before);
        during++;
      }
    } catch (error) {
      failed = error;
    }
    // The load ends before the test does, whatever a call answered.
    await finishing;
    if (failed !== undefined) throw failed;
    expect(during).toBeGreaterThan(0);
    expect(await answers(plain!)).toEqual(before);
    expect(await answers(spreader)).toEqual(before);

    const recorded = await shards()[0]!.all<{ d: string }>(raw('SELECT DISTINCT tdomain AS d FROM spread ORDER BY d'));
    expect(recorded.map((row) => row.d)).toEqual(['example.com', 'other.co.uk', 'rival.com']);

    // Once the copies left on the home shards are deleted, each link is on its own shard alone.
    await mutationsDone();
    for (const [domain, count] of [['example.com', 7], ['rival.com', 6], ['other.co.uk', 9]] as const) {
      const onShards = await keysOn(domain);
      expect(onShards.flat(), domain).toHaveLength(count);
      onShards.forEach((keys, s) => expect(keys.every((key) => shardByHand(key) === s), `${domain} on shard ${s + 1}`).toBe(true));
    }
    // The 22 links of the three domains fall on both shards.
    const all = (await Promise.all(['example.com', 'rival.com', 'other.co.uk'].map(keysOn))).flatMap((byShard) => byShard.map((keys) => keys.length));
    expect([all[0]! + all[2]! + all[4]!, all[1]! + all[3]! + all[5]!].every((n) => n > 0)).toBe(true);
    // The small domains stay whole on one shard.
    for (const domain of ['third.com', 'boundary.com', 'five.com', 'unrelated.net']) {
      expect((await keysOn(domain)).filter((keys) => keys.length > 0), domain).toHaveLength(1);
    }
    expect(await answers(plain!)).toEqual(before);
  }, 300_000);

  it('links loaded to a spread domain go to the shards their keys name, and the answers are those of the links grouped per call', async () => {
    const before = await keysOn('example.com');
    const writer = await spreader!.writer();
    // One ranked first, three last (some of the four keys name the shard that is not example.com's home).
    await writer.links([
      { ...exampleLinks[0]!, source_url: 'https://zeta.com/top', target_url: 'https://example.com/top', source_domain: 'zeta.com', page_score: 99 },
      ...['x', 'y', 'z'].map((page) => ({ ...exampleLinks[0]!, source_url: `https://zeta.com/${page}`, target_url: 'https://example.com/low', source_domain: 'zeta.com', page_score: 1 })),
    ]);
    await writer.finish();
    const onShards = await keysOn('example.com');
    expect(onShards.flat()).toHaveLength(11);
    onShards.forEach((keys, s) => expect(keys.every((key) => shardByHand(key) === s)).toBe(true));
    // Both shards got some of the new links.
    onShards.forEach((keys, s) => expect(keys.length, `shard ${s + 1}`).toBeGreaterThan(before[s]!.length));
    reference = await openClickhouseStore({ urls, database, parser, rollups: false, pagesByKeys: false, totalsWithPages: false, ledger: await ledger('reference') });
    const page = await spreader!.grouped('links', { target: target('example.com', 'ROOT_DOMAIN'), page: { orderBy: 'page_score', direction: 'DESC', offset: 0, limit: 2 }, filter: null, clock });
    expect(page.total).toBe(11);
    expect(page.rows.map((row) => [row.target_url, row.page_score])).toEqual([['https://example.com/top', 99], ['https://example.com/blog', 70]]);
    const expected = await answers(reference);
    expect(await answers(spreader!)).toEqual(expected);
    expect(await answers(plain!)).toEqual(expected);
  }, 300_000);

  it('a copy of a link where it does not live is never read: a move\'s copy left on the home shard, or one made before the move is recorded', async () => {
    const expected = await answers(reference!);
    const [one] = await shards()[0]!.all<Record<string, unknown>>(sql`SELECT * FROM links WHERE target_domain = 'example.com' LIMIT 1`);
    const [small] = await shards()[0]!.all<Record<string, unknown>>(sql`SELECT * FROM links WHERE target_domain = 'third.com' LIMIT 1`);
    const homeOfSmall = (await keysOn('third.com')).findIndex((keys) => keys.length > 0);
    // A copy of a spread domain's link on the shard that does not own it, and of a small domain's on the shard that is not its home.
    await shards()[1 - shardByHand(one!['link_key'] as string)]!.insert('links_local', [one!]);
    await shards()[1 - homeOfSmall]!.insert('links_local', [small!]);
    for (const store of [spreader!, plain!, reference!]) expect(await answers(store)).toEqual(expected);
    expect(expected['links ROOT_DOMAIN example.com {"orderBy":"page_score","direction":"DESC","offset":0,"limit":3} null']).toMatchObject({ total: 11 });
  }, 300_000);

  it("a spread target's filtered links list is filtered on every shard: each shard's part of the statement names the filter", async () => {
    const probe = `probe-${Math.random().toString(36).slice(2, 10)}`;
    const filter = `anchor = "${probe}" OR page_score >= 45`;
    const page = await spreader!.grouped('links', {
      target: target('example.com', 'ROOT_DOMAIN'),
      page: { orderBy: 'page_score', direction: 'DESC', offset: 0, limit: 10 },
      filter: parseFilter(filter, { operation: 'links' }),
      clock,
    });
    // By hand: the links of page score 99, 70, 70, 50 and 45 (test/server/support/fixture.ts and the link added above).
    expect(page.rows.map((row) => row.page_score)).toEqual([99, 70, 70, 50, 45]);
    expect(page.total).toBe(5);
    for (const shard of shards()) await shard.run(raw('SYSTEM FLUSH LOGS'), { database: null });
    const parts = await Promise.all(
      shards().map((shard) =>
        shard.all<{ q: string }>(sql`SELECT query AS q FROM system.query_log WHERE type = 2 AND is_initial_query = 0 AND query LIKE ${`%${probe}%`}`),
      ),
    );
    // The shard that is not example.com's home (the design's sharding key) ran a part of the
    // statement with the filter in it (18.16 leaves the filter to the asking shard by default; the
    // home shard reads its own part without a query of its own).
    const [{ h }] = (await shards()[0]!.all<{ h: string }>(raw("SELECT toString(cityHash64('example.com') % 2) AS h"))) as [{ h: string }];
    expect(parts[1 - Number(h)]!.length).toBeGreaterThan(0);
  });

  it('a store whose shards are listed out of their order in the cluster does not open', async () => {
    await expect(openClickhouseStore({ urls: [...urls].reverse(), database, parser, ledger: await ledger('reversed') })).rejects.toMatchObject({
      name: 'StoreQueryError',
      code: 'SHARD_ORDER',
    });
  });
});
