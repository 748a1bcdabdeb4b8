/**
 * The sample generator: deterministic, and shaped like a real link index.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadServerDeps } from '../../../src/server/deps.js';
import { seedSample } from '../../../src/server/sample/generate.js';
import { openSqliteStore, type SqliteStore } from '../../../src/server/store/engines/sqlite/sqlite-store.js';
import * as fx from '../support/fixture.js';
import { SAMPLE_NOW } from '../support/sample-helpers.js';

async function seeded(links: number, seed: number): Promise<SqliteStore> {
  const store = await openSqliteStore();
  await seedSample(store, (await loadServerDeps()).tldts, { links, seed, now: SAMPLE_NOW });
  return store;
}

function digest(store: SqliteStore): string {
  const hash = createHash('sha256');
  for (const table of ['links', 'domains', 'target_pages', 'keyword_metrics']) {
    for (const row of store.db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2, 3, 4`).iterate()) hash.update(JSON.stringify(row));
  }
  return hash.digest('hex');
}

const one = <T>(store: SqliteStore, sql: string): T => store.db.prepare(sql).get() as T;

describe('sample data', () => {
  let store: SqliteStore;
  beforeAll(async () => {
    store = await seeded(20_000, 1);
  });

  it('is the same for the same seed and different for another', async () => {
    const [a, b, c] = await Promise.all([seeded(2_000, 5), seeded(2_000, 5), seeded(2_000, 6)]);
    expect(digest(a)).toBe(digest(b));
    expect(digest(a)).not.toBe(digest(c));
  });

  it('has heavy-tailed links per target and per referring domain', () => {
    const top = (sql: string) => store.db.prepare(sql).all() as { n: number }[];
    const perTarget = top('SELECT count(*) AS n FROM links GROUP BY target_domain ORDER BY n DESC');
    const perReferrer = top('SELECT count(*) AS n FROM links GROUP BY source_domain ORDER BY n DESC');
    // The biggest target gets more than 10x the median one; the top 1% of referrers hold over 15% of links.
    expect(perTarget[0]!.n).toBeGreaterThan(10 * perTarget[Math.floor(perTarget.length / 2)]!.n);
    const topShare = perReferrer.slice(0, Math.ceil(perReferrer.length / 100)).reduce((s, r) => s + r.n, 0) / 20_000;
    expect(topShare).toBeGreaterThan(0.15);
    expect(one<{ d: string }>(store, 'SELECT target_domain AS d FROM links GROUP BY 1 ORDER BY count(*) DESC LIMIT 1').d).toBe('example.com');
  });

  it('mixes anchors and link kinds in realistic proportions', () => {
    const share = (condition: string) => one<{ p: number }>(store, `SELECT avg(${condition}) AS p FROM links`).p;
    expect(share('is_nofollow')).toBeGreaterThan(0.15);
    expect(share('is_nofollow')).toBeLessThan(0.35);
    for (const [flag, low, high] of [['is_ugc', 0.02, 0.07], ['is_sponsored', 0.01, 0.05], ['is_image', 0.05, 0.12], ['is_frame', 0.002, 0.03], ['is_form', 0.001, 0.015], ['is_lost', 0.07, 0.17]] as const) {
      expect(share(flag), flag).toBeGreaterThan(low);
      expect(share(flag), flag).toBeLessThan(high);
    }
    expect(share(`anchor IN ('click here', 'read more', 'here', 'website', 'learn more')`)).toBeGreaterThan(0.1);
    expect(share(`anchor LIKE '%://%' OR anchor LIKE '%.%'`)).toBeGreaterThan(0.1);
    expect(share(`is_image = 1 AND anchor = '' AND image_url != ''`)).toBeCloseTo(share('is_image'), 5);
  });

  it('clusters IPs in class-C subnets and spreads countries, languages and three years', () => {
    const counts = one<{ ips: number; nets: number; countries: number; langs: number; first: string; last: string }>(
      store,
      `SELECT count(DISTINCT d.ip_address) AS ips, count(DISTINCT l.ip_class_c) AS nets, count(DISTINCT d.country) AS countries,
         count(DISTINCT l.lang) AS langs, min(l.first_seen_at) AS first, max(l.last_seen_at) AS last
       FROM links l JOIN domains d ON d.domain = l.source_domain`,
    );
    expect(counts.nets * 3).toBeLessThan(counts.ips);
    expect(counts.countries).toBeGreaterThan(10);
    expect(counts.langs).toBeGreaterThan(8);
    expect(counts.first < '2023-07-01' && counts.first >= '2023-06-15').toBe(true);
    expect(counts.last <= '2026-06-15T00:00:00').toBe(true);
    expect(one<{ n: number }>(store, 'SELECT count(*) AS n FROM links WHERE last_seen_at < first_seen_at').n).toBe(0);
  });

  it('has keyword metrics for a vocabulary by country and month, some months with two snapshots', () => {
    const k = one<{ keywords: number; countries: number; months: number; doubled: number }>(
      store,
      `SELECT count(DISTINCT keyword) AS keywords, count(DISTINCT country) AS countries, count(DISTINCT month) AS months,
         (SELECT count(*) FROM (SELECT 1 FROM keyword_metrics GROUP BY keyword, country, month HAVING count(*) > 1)) AS doubled
       FROM keyword_metrics`,
    );
    expect(k).toMatchObject({ countries: 10, months: 36 });
    expect(k.keywords).toBeGreaterThan(100);
    expect(k.doubled).toBeGreaterThan(0);
  });
});

describe('keyword snapshots on SQLite (the writer the sample is written with)', () => {
  it('a batch with the same key twice keeps the later row, a later batch replaces a row, keywords are stored trimmed and lower-case', async () => {
    const store = await openSqliteStore();
    try {
      const [may3, may20, june] = fx.keywordSnapshots as [(typeof fx.keywordSnapshots)[number], (typeof fx.keywordSnapshots)[number], (typeof fx.keywordSnapshots)[number]];
      let writer = await store.writer();
      await writer.keywords([may3, may20, { ...may3, keyword: ' SEO Tools', search_volume: '99', trends: [1, 2] }]);
      await writer.finish();
      writer = await store.writer();
      await writer.keywords([{ ...june, search_volume: '7', intents: ['NAVIGATIONAL'] }]);
      await writer.finish();
      expect(store.db.prepare('SELECT keyword, month, snapshot_at, search_volume, intents, trends FROM keyword_metrics ORDER BY snapshot_at').all()).toEqual([
        { keyword: 'seo tools', month: '2026-05', snapshot_at: '2026-05-03T00:00:00', search_volume: '99', intents: '["COMMERCIAL","INFORMATIONAL"]', trends: '[1,2]' },
        { keyword: 'seo tools', month: '2026-05', snapshot_at: '2026-05-20T00:00:00', search_volume: '49500', intents: '["COMMERCIAL","INFORMATIONAL"]', trends: '[50,55,60,58,62,70,75,80,78,85,90,100]' },
        { keyword: 'seo tools', month: '2026-06', snapshot_at: '2026-06-02T00:00:00', search_volume: '7', intents: '["NAVIGATIONAL"]', trends: '[50,55,60,58,62,70,75,80,78,85,90,100]' },
      ]);
    } finally {
      await store.close();
    }
  });
});
