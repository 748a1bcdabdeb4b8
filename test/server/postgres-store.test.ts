/**
 * The PostgreSQL store against the real server of the global setup (`inject('postgresUrl')`),
 * each suite in a fresh database: migrations, answers on the fixture worked out by hand (the
 * same values as operations.test.ts), keys and charges, idempotent re-imports, code-point text
 * order, the COPY path against the shared upsert, and the errors that must become
 * StoreUnavailableError (statement timeout, lock timeout, a killed session, a server that is down).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import * as tldts from 'tldts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseFilter } from '../../src/syntax/parse.js';
import { clockAt } from '../../src/server/clock.js';
import { openPostgresConnection } from '../../src/server/store/postgres/connection.js';
import { copyField } from '../../src/server/store/postgres/copy.js';
import { openPostgresStore, type PostgresStore, type PostgresStoreOptions } from '../../src/server/store/postgres/postgres-store.js';
import { MIGRATIONS } from '../../src/server/store/postgres/schema.js';
import { StoreUnavailableError } from '../../src/server/store/sql/connection.js';
import { sql } from '../../src/server/store/sql/fragment.js';
import { ROLLUP_TABLES } from '../../src/server/store/sql/rollups.js';
import type { GroupedOperation, Page, Store } from '../../src/server/store/store.js';
import { toTarget, type Scope } from '../../src/server/target.js';
import type { LinkInput } from '../../src/server/store/inputs.js';
import * as fx from './fixture.js';

const CLOCK = clockAt(fx.NOW);

function serverUrl(): string {
  const url = inject('postgresUrl');
  if (!url) throw new Error('postgresUrl was not provided: the global setup started no PostgreSQL for this run (see test/setup/engine-selection.ts).');
  return url;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const created: string[] = [];

/** A new empty database on the test server; dropped after the file. */
async function freshDatabase(): Promise<string> {
  const name = `bq_store_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  created.push(name);
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

afterAll(async () => {
  await admin(async (client) => {
    for (const name of created) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
});

const open = (url: string, options: Partial<PostgresStoreOptions> = {}) => openPostgresStore({ url, parser: tldts, ...options });

const allLinks = (): LinkInput[] => [...fx.exampleLinks, ...fx.rivalLinks, ...fx.otherLinks, ...fx.thirdLinks];

/** The fixture through the store's writer, as the server's helpers load it. */
async function loadFixture(store: Store): Promise<void> {
  const writer = await store.writer();
  await writer.domains(fx.domains);
  await writer.pages(fx.pages);
  await writer.links(allLinks());
  await writer.keywords(fx.keywordSnapshots);
  await writer.finish();
}

const target = (url: string, scope: Scope) => toTarget(url, scope, tldts)!;
const ROOT = target('example.com', 'ROOT_DOMAIN');
const DEFAULT_ORDER: Readonly<Record<GroupedOperation, string>> = {
  links: 'page_score',
  'ref-domains': 'backlinks_count',
  'ref-ips': 'domains_count',
  pages: 'domains_count',
  anchors: 'domains_count',
};
const page = (operation: GroupedOperation, overrides: Partial<Page> = {}): Page => ({
  orderBy: DEFAULT_ORDER[operation],
  direction: 'DESC',
  limit: 100,
  offset: 0,
  ...overrides,
});
const list = <Op extends GroupedOperation>(store: Store, operation: Op, options: { filter?: string; page?: Partial<Page>; url?: string; scope?: Scope } = {}) =>
  store.grouped<Op>(operation, {
    target: options.url ? target(options.url, options.scope ?? 'ROOT_DOMAIN') : ROOT,
    page: page(operation, options.page),
    filter: options.filter ? parseFilter(options.filter, { operation }) : null,
    clock: CLOCK,
  });

/** Every stored table in a canonical order, for before/after comparisons. */
async function snapshot(store: PostgresStore): Promise<Record<string, unknown[]>> {
  const tables: Record<string, string> = {
    links: 'SELECT * FROM links ORDER BY id',
    domains: 'SELECT * FROM domains ORDER BY domain',
    target_pages: 'SELECT * FROM target_pages ORDER BY host, path',
    keyword_metrics: 'SELECT * FROM keyword_metrics ORDER BY keyword, country, month, snapshot_at',
    r_targets: 'SELECT * FROM r_targets ORDER BY tkey',
    r_ref_domains: 'SELECT * FROM r_ref_domains ORDER BY tkey, source_domain',
    r_ref_ips: 'SELECT * FROM r_ref_ips ORDER BY tkey, ip_address',
    r_pages: 'SELECT * FROM r_pages ORDER BY tkey, page_key',
    r_anchors: 'SELECT * FROM r_anchors ORDER BY tkey, anchor',
    r_history: 'SELECT * FROM r_history ORDER BY tkey, month',
  };
  const out: Record<string, unknown[]> = {};
  for (const [name, text] of Object.entries(tables)) out[name] = await store.connection.all({ sql: text, params: [] });
  return out;
}

describe('PostgreSQL store on the fixture', () => {
  let url: string;
  let store: PostgresStore;
  let grouping: PostgresStore; // the same database, answering without rollups
  beforeAll(async () => {
    url = await freshDatabase();
    store = await open(url);
    await loadFixture(store);
    grouping = await open(url, { rollups: false });
  });
  afterAll(async () => {
    await grouping?.close();
    await store?.close();
  });

  it('is migrated to the last version, with code-point collation on text columns', async () => {
    expect(await store.connection.all(sql`SELECT version FROM schema_migrations ORDER BY version`)).toEqual(MIGRATIONS.map((_, i) => ({ version: i + 1 })));
    const text = await store.connection.all<{ table_name: string; column_name: string; collation_name: string | null }>(
      sql`SELECT table_name, column_name, collation_name FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type = 'text' AND table_name <> 'schema_migrations'`,
    );
    expect(text.length).toBeGreaterThan(40);
    expect(text.filter((c) => c.collation_name !== 'C')).toEqual([]);
  });

  it('overview: counts of a root domain (rollups and grouping agree)', async () => {
    const expected = {
      backlinks_count: 7, domains_count: 5, urls_count: 6, follows_count: 4, nofollows_count: 3, sponsored_count: 1, ugc_count: 1,
      frames_count: 1, forms_count: 1, images_count: 1, texts_count: 6, ips_count: 5, ip_class_c_count: 3, new_count: 2, lost_count: 2, score: 70,
    };
    expect(await store.overview(ROOT, CLOCK)).toEqual(expected);
    expect(await grouping.overview(ROOT, CLOCK)).toEqual(expected);
  });

  it.each([
    ['SUBDOMAIN', 'example.com', 5, 70],
    ['SUBDOMAIN', 'https://www.example.com', 1, 70],
    ['SUBFOLDER', 'example.com/blog', 2, 70], // /blog and /blog/, not /blogging
    ['SUBFOLDER', 'example.com/', 5, 70],
    ['PAGE', 'example.com/blog', 1, 40],
    ['PAGE', 'example.com/?ref=1', 1, 0],
    ['ROOT_DOMAIN', 'https://blog.other.co.uk/x', 9, 45],
    ['ROOT_DOMAIN', 'unknown.org', 0, 0],
  ] as const)('overview %s %s: %i links, score %i', async (scope, url, backlinks, score) => {
    for (const s of [store, grouping]) {
      const record = await s.overview(target(url, scope), CLOCK);
      expect([record.backlinks_count, record.score]).toEqual([backlinks, score]);
    }
  });

  it('links: by page_score DESC, ties in storage order; booleans are booleans', async () => {
    const { rows, total } = await list(store, 'links');
    expect(total).toBe(7);
    expect(rows.map((r) => r.source_url)).toEqual([
      'https://gamma.io/review', 'https://gamma.io/review', 'https://alpha.org/post-1', 'https://alpha.org/post-2',
      'https://beta.net/links', 'https://delta.de/a;b', 'https://epsilon.fr/',
    ]);
    expect(rows[0]).toEqual({
      source_url: 'https://gamma.io/review', target_url: 'https://example.com/blog', anchor: 'Example', redirect_url: 'https://example.com/old-blog',
      source_title: 'Gamma review', target_title: '', image_url: '', image_alt: '', ip_address: '203.0.113.5', lang: 'de', source_size: 3000,
      external_links_count: 8, internal_links_count: 30, response_code: 200, page_score: 70, domain_score: 80,
      first_seen_at: '2025-11-01T00:00:00', last_seen_at: '2026-02-01T00:00:00', source_domain: 'gamma.io', is_nofollow: true, is_ugc: false,
      is_sponsored: true, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false, is_new: false, is_lost: true,
    });
    expect(rows.map((r) => r.is_new)).toEqual([false, false, false, false, true, true, false]);
  });

  it('links: filter, order ASC and paging', async () => {
    const { rows, total } = await list(store, 'links', {
      filter: "is_lost = false AND (lang = 'de' OR anchor LIKE '%tips')",
      page: { orderBy: 'first_seen_at', direction: 'ASC', limit: 2, offset: 1 },
    });
    expect(total).toBe(3);
    expect(rows.map((r) => [r.anchor, r.first_seen_at])).toEqual([
      ['', '2025-11-01T00:00:00'],
      ['semi;colon "quote"\nnewline', '2026-06-01T00:00:00'],
    ]);
    expect((await list(store, 'links', { filter: "anchor LIKE 'seo_tips'" })).total).toBe(0);
    expect((await list(store, 'links', { filter: "first_seen_at > '2026-06-01'" })).total).toBe(1);
    expect((await list(store, 'links', { filter: 'is_new = true' })).total).toBe(2);
    expect((await list(store, 'links', { filter: 'page_score > 9007199254740991' })).total).toBe(0); // a bigint literal is no error
    expect((await list(store, 'links', { filter: 'page_score > 2.5' })).total).toBe(7);
  });

  it('ref-domains: one row per referring domain, filtered', async () => {
    for (const s of [store, grouping]) {
      const { rows, total } = await list(s, 'ref-domains');
      expect(total).toBe(5);
      expect(rows).toEqual([
        { domain: 'alpha.org', ip_address: '198.51.100.1', country: 'US', backlinks_count: 2, domain_score: 60, first_seen_at: '2024-01-10T08:00:00', last_seen_at: '2026-06-10T00:00:00', is_follow: true, is_new: false, is_lost: false },
        { domain: 'gamma.io', ip_address: '203.0.113.5', country: 'DE', backlinks_count: 2, domain_score: 80, first_seen_at: '2025-11-01T00:00:00', last_seen_at: '2026-06-14T00:00:00', is_follow: true, is_new: false, is_lost: false },
        { domain: 'beta.net', ip_address: '198.51.100.7', country: 'US', backlinks_count: 1, domain_score: 60, first_seen_at: '2026-05-20T09:30:00', last_seen_at: '2026-06-12T00:00:00', is_follow: false, is_new: true, is_lost: false },
        { domain: 'delta.de', ip_address: '192.0.2.44', country: 'DE', backlinks_count: 1, domain_score: 25, first_seen_at: '2026-06-01T00:00:00', last_seen_at: '2026-06-14T00:00:00', is_follow: true, is_new: true, is_lost: false },
        { domain: 'epsilon.fr', ip_address: '192.0.2.45', country: 'FR', backlinks_count: 1, domain_score: 15, first_seen_at: '2023-12-31T23:59:59', last_seen_at: '2024-06-30T00:00:00', is_follow: true, is_new: false, is_lost: true },
      ]);
      const filtered = await list(s, 'ref-domains', { filter: "is_follow = true AND country = 'DE'" });
      expect(filtered.rows.map((r) => r.domain)).toEqual(['gamma.io', 'delta.de']);
    }
  });

  it('ref-ips, pages and anchors (ties by code point)', async () => {
    for (const s of [store, grouping]) {
      expect((await list(s, 'ref-ips')).rows.map((r) => [r.ip_address, r.country, r.backlinks_count])).toEqual([
        ['192.0.2.44', 'DE', 1], ['192.0.2.45', 'FR', 1], ['198.51.100.1', 'US', 2], ['198.51.100.7', 'US', 1], ['203.0.113.5', 'DE', 2],
      ]);
      const pages = await list(s, 'pages');
      expect(pages.total).toBe(7);
      expect(pages.rows.map((r) => r.source_url)).toEqual([
        'http://blog.example.com/2024/hello', 'https://example.com/', 'https://example.com/?ref=1', 'https://example.com/blog',
        'https://example.com/blog/', 'https://example.com/blogging', 'https://www.example.com/blog/seo-tips',
      ]);
      expect(pages.rows[1]).toEqual({
        source_url: 'https://example.com/', source_title: 'Example Domain', response_code: 200, backlinks_count: 1, domains_count: 1,
        external_links_count: 1, internal_links_count: 5, first_seen_at: '2024-01-10T08:00:00', last_seen_at: '2026-06-01T00:00:00',
      });
      expect((await list(s, 'anchors')).rows).toEqual([
        { anchor: 'Example', backlinks_count: 3, domains_count: 3, first_seen_at: '2023-12-31T23:59:59', last_seen_at: '2026-06-01T00:00:00' },
        { anchor: '', backlinks_count: 1, domains_count: 1, first_seen_at: '2025-11-01T00:00:00', last_seen_at: '2026-06-14T00:00:00' },
        { anchor: 'click here', backlinks_count: 1, domains_count: 1, first_seen_at: '2026-05-20T09:30:00', last_seen_at: '2026-06-12T00:00:00' },
        { anchor: 'semi;colon "quote"\nnewline', backlinks_count: 1, domains_count: 1, first_seen_at: '2026-06-01T00:00:00', last_seen_at: '2026-06-14T00:00:00' },
        { anchor: 'seo tips', backlinks_count: 1, domains_count: 1, first_seen_at: '2025-03-05T10:00:00', last_seen_at: '2026-06-10T00:00:00' },
      ]);
    }
  });

  it('score-profile and summary', async () => {
    expect(await store.scoreProfile(ROOT)).toEqual([
      { domain_score: 15, domains_count: 1 }, { domain_score: 25, domains_count: 1 }, { domain_score: 60, domains_count: 2 }, { domain_score: 80, domains_count: 1 },
    ]);
    const expected = [
      ['2025-07', 2, 1, 1], ['2025-08', 2, 1, 1], ['2025-09', 2, 1, 1], ['2025-10', 2, 1, 1],
      ['2025-11', 4, 2, 2], ['2025-12', 4, 2, 2], ['2026-01', 4, 2, 2], ['2026-02', 4, 2, 2],
      ['2026-03', 3, 2, 2], ['2026-04', 3, 2, 2], ['2026-05', 4, 3, 2], ['2026-06', 5, 4, 3],
    ] as const;
    for (const s of [store, grouping]) {
      const { rows, total } = await s.summary({ target: ROOT, from: undefined, to: '2026-06', limit: 12 });
      expect(total).toBe(31); // 2023-12 .. 2026-06
      expect(rows).toEqual(expected.map(([month, backlinks, domains, follows]) => ({ score: 70, backlinks_count: backlinks, domains_count: domains, follows_count: follows, month_date: `${month}-01` })));
    }
  });

  it('competitors and matrix', async () => {
    for (const s of [store, grouping]) {
      const competitors = await s.competitors({ domain: 'example.com', page: { orderBy: 'similarity', direction: 'DESC', limit: 100, offset: 0 } });
      expect(competitors).toEqual({
        total: 2,
        rows: [
          { domain: 'rival.com', similarity: 5 / 6, common_refdomains: 5 },
          { domain: 'other.co.uk', similarity: 5 / 9, common_refdomains: 5 },
        ],
      });
      const targets = [target('example.com', 'ROOT_DOMAIN'), target('rival.com', 'ROOT_DOMAIN')];
      const matrix = await s.matrix({ targets, page: { orderBy: 'matches_count', direction: 'DESC', limit: 100, offset: 0 }, filter: null });
      expect(matrix.total).toBe(6);
      expect(matrix.rows.map((r) => [r.domain, r.matches_count, r.backlinks_counts])).toEqual([
        ['alpha.org', 2, [2, 1]], ['beta.net', 2, [1, 1]], ['delta.de', 2, [1, 1]], ['epsilon.fr', 2, [1, 1]], ['gamma.io', 2, [2, 1]], ['zeta.com', 1, [0, 1]],
      ]);
      const filtered = await s.matrix({
        targets: [...targets].reverse(),
        page: { orderBy: 'domain_score', direction: 'ASC', limit: 100, offset: 0 },
        filter: parseFilter('backlinks_counts[2] > 1 OR backlinks_counts[2] = 0', { operation: 'matrix' }),
      });
      expect(filtered.rows.map((r) => [r.domain, r.backlinks_counts])).toEqual([['zeta.com', [1, 0]], ['alpha.org', [1, 2]], ['gamma.io', [1, 2]]]);
    }
  });

  it('keyword metrics: the latest snapshot of the month', async () => {
    expect(await store.keywordMetrics({ keyword: ' SEO Tools', country: 'US', month: '2026-05' })).toEqual({
      competitive_density: 87, cpc: '2.35', intents: ['COMMERCIAL', 'INFORMATIONAL'], keyword_difficulty: 64, number_of_results: '1250000000',
      search_volume: '49500', serp_features: ['SITELINKS', 'PEOPLE_ALSO_ASK'], trends: [50, 55, 60, 58, 62, 70, 75, 80, 78, 85, 90, 100],
    });
    expect(await store.keywordMetrics({ keyword: 'seo tools', country: 'DE', month: '2026-05' })).toBeUndefined();
  });

  it('keys: stored hashed, charged atomically, never below zero', async () => {
    await store.upsertKeys(fx.KEYS);
    const keys = await store.keys();
    expect(keys.map((k) => [k.id, k.units, k.keyHash.length])).toEqual([['poor', 50, 32], ['tester', 1_000_000, 32]]);
    expect(await store.charge('poor', 30)).toEqual({ ok: true, remaining: 20 });
    expect(await store.charge('poor', 21)).toEqual({ ok: false, remaining: 20 });
    expect(await store.balance('poor')).toBe(20);
    // Restarting with the same configuration keeps the balance.
    await store.upsertKeys(fx.KEYS);
    expect(await store.balance('poor')).toBe(20);
    // Ten concurrent charges of 3 on 20: exactly six succeed.
    const results = await Promise.all(Array.from({ length: 10 }, () => store.charge('poor', 3)));
    expect(results.filter((r) => r.ok)).toHaveLength(6);
    expect(await store.balance('poor')).toBe(2);
    expect(await store.balance('nobody')).toBeUndefined();
    expect(await store.charge('nobody', 1)).toEqual({ ok: false, remaining: 0 });
    // Balances past 2^31 are whole numbers.
    await store.upsertKeys([{ id: 'big', key: 'big-key-00000003', units: 5_000_000_000 }]);
    expect(await store.charge('big', 1)).toEqual({ ok: true, remaining: 4_999_999_999 });
  });

  it('writing the same data again changes nothing', async () => {
    const before = await snapshot(store);
    const overview = await store.overview(ROOT, CLOCK);
    await loadFixture(store);
    const writer = await store.writer();
    await writer.links(allLinks());
    await writer.finish({ all: true });
    expect(await snapshot(store)).toEqual(before);
    expect(await store.overview(ROOT, CLOCK)).toEqual(overview);
    expect(before['links']).toHaveLength(allLinks().length);
    expect(before['links']!.map((row) => (row as { id: number }).id)).toEqual(allLinks().map((_, i) => i + 1));
  });
});

describe('PostgreSQL store writes', () => {
  it('COPY and the shared upsert store exactly the same rows', async () => {
    const [viaCopy, viaUpsert] = await Promise.all([open(await freshDatabase()), open(await freshDatabase(), { copy: false })]);
    try {
      const awkward: LinkInput = {
        ...fx.exampleLinks[0]!,
        source_url: 'https://awkward.net/a\\b',
        target_url: 'https://example.com/odd\tpath',
        anchor: 'tab\there, back\\slash, \\N, \r\n and \\x41 é 😀',
        source_title: '\\.',
        image_alt: '\\\\N',
        source_domain: 'awkward.net',
        source_size: 9_007_199_254_740_991,
      };
      for (const s of [viaCopy, viaUpsert]) {
        await loadFixture(s);
        const writer = await s.writer();
        await writer.links([awkward]);
        await writer.finish();
      }
      expect(await snapshot(viaCopy)).toEqual(await snapshot(viaUpsert));
      const [stored] = await viaCopy.connection.all<Record<string, unknown>>(sql`SELECT * FROM links WHERE source_domain = 'awkward.net'`);
      expect(stored).toMatchObject({ anchor: awkward.anchor, source_title: '\\.', image_alt: '\\\\N', source_size: 9_007_199_254_740_991 });
    } finally {
      await Promise.all([viaCopy.close(), viaUpsert.close()]);
    }
  });

  it('a batch with the same key twice keeps the later row', async () => {
    const store = await open(await freshDatabase());
    try {
      const writer = await store.writer();
      const first = fx.exampleLinks[0]!;
      await writer.links([first, { ...first, page_score: 99 }]);
      await writer.domains([fx.domains[0]!, { ...fx.domains[0]!, domain_score: 99 }]);
      await writer.pages([fx.pages[0]!, { ...fx.pages[0]!, page_score: 99 }]);
      await writer.keywords([fx.keywordSnapshots[0]!, { ...fx.keywordSnapshots[0]!, keyword: ' SEO tools', search_volume: '99' }]);
      await writer.finish();
      expect(await store.connection.all(sql`SELECT page_score FROM links`)).toEqual([{ page_score: 99 }]);
      expect(await store.connection.all(sql`SELECT domain_score FROM domains`)).toEqual([{ domain_score: 99 }]);
      expect(await store.connection.all(sql`SELECT page_score FROM target_pages`)).toEqual([{ page_score: 99 }]);
      expect(await store.connection.all(sql`SELECT search_volume FROM keyword_metrics`)).toEqual([{ search_volume: '99' }]);
    } finally {
      await store.close();
    }
  });

  it('orders text by code point: Z < a < é', async () => {
    const store = await open(await freshDatabase());
    try {
      const writer = await store.writer();
      await writer.links(['é', 'a', 'Z', 'b', 'É'].map((anchor, i) => ({ ...fx.exampleLinks[0]!, source_url: `https://s${i}.org/`, source_domain: `s${i}.org`, anchor })));
      await writer.finish();
      const { rows } = await list(store, 'anchors', { page: { orderBy: 'anchor', direction: 'ASC' } });
      expect(rows.map((r) => r.anchor)).toEqual(['Z', 'a', 'b', 'É', 'é']);
      const filtered = await list(store, 'anchors', { filter: "anchor > 'Z' AND anchor < 'É'" });
      expect(filtered.rows.map((r) => r.anchor).sort()).toEqual(['a', 'b']);
    } finally {
      await store.close();
    }
  });

  it('servers starting at once migrate once', async () => {
    const url = await freshDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => open(url)));
    try {
      expect(await stores[0]!.connection.all(sql`SELECT version FROM schema_migrations ORDER BY version`)).toEqual(MIGRATIONS.map((_, i) => ({ version: i + 1 })));
      const again = await open(url);
      await again.close();
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('refuses a database newer than this code', async () => {
    const url = await freshDatabase();
    await (await open(url)).close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [MIGRATIONS.length + 1]);
    await client.end();
    await expect(open(url)).rejects.toThrow(/newer than this server knows/);
  });
});

describe('PostgreSQL store availability', () => {
  let url: string;
  beforeAll(async () => {
    url = await freshDatabase();
    const store = await open(url);
    await store.upsertKeys(fx.KEYS);
    await store.close();
  });

  it('a statement past the timeout rejects with StoreUnavailableError, and the pool goes on', async () => {
    const store = await open(url, { statementTimeoutMs: 200 });
    try {
      const started = Date.now();
      await expect(store.connection.all(sql`SELECT pg_sleep(2)`)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(await store.connection.all(sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    } finally {
      await store.close();
    }
  });

  it('a row locked past the lock timeout rejects with StoreUnavailableError', async () => {
    const store = await open(url, { lockTimeoutMs: 100 });
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT * FROM api_keys WHERE id = 'poor' FOR UPDATE`);
      const error = await store.charge('poor', 1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(((error as Error).cause as { code?: string }).code).toBe('55P03');
      await holder.query('ROLLBACK');
      expect(await store.charge('poor', 1)).toEqual({ ok: true, remaining: 49 });
    } finally {
      await holder.end();
      await store.close();
    }
  });

  it('a killed session rejects with StoreUnavailableError and the pool replaces it', async () => {
    const store = await open(url, { poolSize: 2, statementTimeoutMs: 10_000 });
    try {
      expect(await store.connection.all(sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
      const sleeping = store.connection.all(sql`SELECT pg_sleep(5) AS slept`).catch((e: unknown) => e);
      await admin(async (client) => {
        for (let i = 0; i < 100; i++) {
          const { rowCount } = await client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(5)%' AND pid <> pg_backend_pid()`);
          if (rowCount) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        throw new Error('the sleeping session never showed up');
      });
      expect(await sleeping).toBeInstanceOf(StoreUnavailableError);
      // Kill the idle sessions too: the pool drops them and opens new ones.
      await admin((client) => client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'backlink-query' AND datname = $1`, [new URL(url).pathname.slice(1)]));
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (let i = 0; i < 5; i++) expect(await store.connection.all(sql`SELECT ${i}::int AS n`)).toEqual([{ n: i }]);
      expect(await store.balance('tester')).toBe(1_000_000);
    } finally {
      await store.close();
    }
  });

  it('a server that is down rejects with StoreUnavailableError, and so does a closed store', async () => {
    const down = new URL(url);
    down.port = '1';
    const connection = await openPostgresConnection({ url: down.toString(), connectTimeoutMs: 1_000 });
    try {
      await expect(connection.all(sql`SELECT 1`)).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await connection.close();
    }
    await expect(open(down.toString(), { connectTimeoutMs: 1_000 })).rejects.toBeInstanceOf(StoreUnavailableError);
    const store = await open(url);
    await store.close();
    await expect(store.balance('tester')).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

describe('COPY text format', () => {
  it.each([
    [null, '\\N'],
    [true, 't'],
    [false, 'f'],
    [42, '42'],
    ['a\tb\nc\rd\\e', 'a\\tb\\nc\\rd\\\\e'],
    [Buffer.from([0, 255, 16]), '\\\\x00ff10'],
  ])('%j -> %s', (value, expected) => {
    expect(copyField(value)).toBe(expected);
  });
  it('refuses what no column holds', () => {
    expect(() => copyField(Number.NaN)).toThrow(TypeError);
    expect(() => copyField({})).toThrow(TypeError);
  });
});

// Keep the list of rollup tables in step with the snapshot above.
it('snapshots every rollup table', () => {
  expect([...ROLLUP_TABLES].sort()).toEqual(['r_anchors', 'r_history', 'r_pages', 'r_ref_domains', 'r_ref_ips', 'r_targets']);
});
