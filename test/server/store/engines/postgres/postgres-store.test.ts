/**
 * The PostgreSQL store against the real server of the global setup (`inject('postgresUrl')`),
 * each suite in a fresh database: migrations, answers on the fixture worked out by hand (the
 * same values as operations.test.ts), keys and charges, idempotent re-imports, code-point text
 * order, the COPY path against the shared upsert, and the errors that must become
 * StoreUnavailableError (statement timeout, lock timeout, a killed session, a server that is down);
 * and what migration 5 and the bulk writer add: links stored in target order after a load into an
 * empty store, covering indexes that answer counts without heap visits, the links list read keys
 * first with the same answers, and indexes dropped for a load built again even when it stops.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import * as tldts from 'tldts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseFilter } from '../../../../../src/syntax/parse.js';
import { clockAt } from '../../../../../src/server/clock.js';
import { openPostgresConnection, startupOptions } from '../../../../../src/server/store/engines/postgres/connection.js';
import { copyField } from '../../../../../src/server/store/engines/postgres/copy.js';
import { openPostgresStore, type PostgresStore, type PostgresStoreOptions } from '../../../../../src/server/store/engines/postgres/postgres-store.js';
import { MIGRATIONS, migrate } from '../../../../../src/server/store/engines/postgres/schema.js';
import { StoreUnavailableError } from '../../../../../src/server/store/connection.js';
import { sql } from '../../../../../src/server/store/fragment.js';
import { ROLLUP_TABLES } from '../../../../../src/server/store/loads/rollups.js';
import { forCall, type GroupedOperation, type Page, type Store } from '../../../../../src/server/store/store.js';
import { toTarget, type Scope } from '../../../../../src/server/target.js';
import type { LinkInput } from '../../../../../src/server/store/inputs.js';
import * as fx from '../../../support/fixture.js';

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
    r_score_profile: 'SELECT * FROM r_score_profile ORDER BY tkey, domain_score',
    r_first_seen: 'SELECT * FROM r_first_seen ORDER BY tkey, day',
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

  // What each operation answers is checked by the whole server suite, which runs on this store too
  // (the vitest project server-postgres); here: what is the PostgreSQL store's own.

  it('keys: stored hashed, charged atomically, never below zero', async () => {
    await store.ledger.upsertKeys(fx.KEYS);
    const keys = await store.ledger.apiKeys();
    expect(keys.map((k) => [k.id, k.units, k.keyHash.length])).toEqual([['poor', 50, 32], ['tester', 1_000_000, 32]]);
    expect(await store.ledger.charge('poor', 30)).toEqual({ ok: true, remaining: 20 });
    expect(await store.ledger.charge('poor', 21)).toEqual({ ok: false, remaining: 20 });
    expect(await store.ledger.balance('poor')).toBe(20);
    // Restarting with the same configuration keeps the balance.
    await store.ledger.upsertKeys(fx.KEYS);
    expect(await store.ledger.balance('poor')).toBe(20);
    // Ten concurrent charges of 3 on 20: exactly six succeed.
    const results = await Promise.all(Array.from({ length: 10 }, () => store.ledger.charge('poor', 3)));
    expect(results.filter((r) => r.ok)).toHaveLength(6);
    expect(await store.ledger.balance('poor')).toBe(2);
    expect(await store.ledger.balance('nobody')).toBeUndefined();
    expect(await store.ledger.charge('nobody', 1)).toEqual({ ok: false, remaining: 0 });
    // Balances past 2^31 are whole numbers.
    await store.ledger.upsertKeys([{ id: 'big', key: 'big-key-00000003', units: 5_000_000_000 }]);
    expect(await store.ledger.charge('big', 1)).toEqual({ ok: true, remaining: 4_999_999_999 });
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

/** The indexes of `links`, by name, with their definitions. */
async function linkIndexes(store: PostgresStore): Promise<Record<string, string>> {
  const rows = await store.connection.all<{ indexname: string; indexdef: string }>(sql`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'links' ORDER BY indexname`);
  return Object.fromEntries(rows.map((row) => [row.indexname, row.indexdef]));
}

/** Every index of `links` once a database is migrated: the constraints' two, five of migrations 1-2, the two covering ones of 5. */
const LINK_INDEXES = [
  'links_by_domain', 'links_by_host', 'links_by_page', 'links_cover_domain', 'links_cover_host', 'links_link_key_key', 'links_new_by_domain',
  'links_new_by_host', 'links_pkey',
];
/** Those a load into an empty store drops and builds again: all but the primary key and the identity's unique index. */
const DEFERRED = LINK_INDEXES.filter((name) => name !== 'links_pkey' && name !== 'links_link_key_key');

/** The plan of a statement run on its own session, with `settings` set first. */
async function planOf(url: string, text: string, values: unknown[], settings: readonly string[] = []): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const setting of settings) await client.query(`SET ${setting}`);
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${text}`, values);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}

/**
 * A count as the links list runs it (a relation with every column, text ones included, then the
 * filter on two non-text fields). The fixture is a few rows, which the planner would rather read
 * whole: sequential and bitmap scans are turned off, so it picks the cheapest index path, and an
 * index-only scan without heap fetches is that path only when the covering index holds every
 * column the count needs and the table is vacuumed.
 */
const countPlan = (url: string, column: 'target_domain' | 'target_host', value: string) =>
  planOf(
    url,
    `SELECT count(*) AS n FROM (SELECT l.id AS _key, l.source_url, l.anchor, l.domain_score, l.is_nofollow FROM links l WHERE l.${column} = $1) x
     WHERE domain_score > $2 AND is_nofollow = $3`,
    [value, 50, false],
    ['enable_seqscan = off', 'enable_bitmapscan = off'],
  );

describe('PostgreSQL store: links in target order, covering indexes, pages keys first', () => {
  let url: string;
  let store: PostgresStore;
  let grouping: PostgresStore; // the same database: the links list in one query (no keys first)
  let migrated: Record<string, string>;
  beforeAll(async () => {
    url = await freshDatabase();
    store = await open(url);
    migrated = await linkIndexes(store);
    await loadFixture(store);
    grouping = await open(url, { rollups: false });
  });
  afterAll(async () => {
    await grouping?.close();
    await store?.close();
  });

  it('a load into an empty store builds every index of the migrations again, on links stored in target order', async () => {
    expect(Object.keys(migrated)).toEqual(LINK_INDEXES);
    expect(await linkIndexes(store)).toEqual(migrated);
    expect(await store.connection.all(sql`SELECT name FROM deferred_indexes`)).toEqual([]);
    // The table the load filled took the place of links with every name of the migrations: its constraints, its identity's sequence.
    expect(await store.connection.all(sql`SELECT conname FROM pg_constraint WHERE conrelid = 'links'::regclass ORDER BY conname`)).toEqual([
      { conname: 'links_link_key_key' },
      { conname: 'links_pkey' },
    ]);
    expect(await store.connection.all(sql`SELECT pg_get_serial_sequence('links', 'id') AS s, to_regclass('links_next') AS t`)).toEqual([{ s: 'public.links_id_seq', t: null }]);
    expect(await store.connection.all(sql`SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indisclustered`)).toEqual([
      { name: 'links_by_domain' },
    ]);
    // Written in the fixture's order (example.com 1-7, rival.com 8-13, other.co.uk 14-22, third.com
    // 23-26), stored by target domain, then page score descending, then id.
    const stored = await store.connection.all<{ id: number }>(sql`SELECT id FROM links ORDER BY ctid`);
    expect(stored.map((row) => row.id)).toEqual([4, 5, 1, 2, 3, 6, 7, 14, 15, 16, 17, 18, 19, 20, 21, 22, 8, 9, 10, 11, 12, 13, 23, 24, 25, 26]);
  });

  it('a count under a filter on non-text fields is an index-only scan without heap visits, per scope column', async () => {
    const byDomain = await countPlan(url, 'target_domain', 'example.com');
    expect(byDomain).toContain('Index Only Scan using links_cover_domain on links l');
    expect(byDomain).toContain('Heap Fetches: 0');
    const byHost = await countPlan(url, 'target_host', 'www.example.com');
    expect(byHost).toContain('Index Only Scan using links_cover_host on links l');
    expect(byHost).toContain('Heap Fetches: 0');
  });

  it('the links list, read keys first, answers as the one-query list does', async () => {
    // Worked out from the fixture: domain score above 50 and followed are ids 1 (alpha, 2024-01-10) and 5 (gamma's image link, 2025-11-01).
    const filtered = await list(store, 'links', { filter: 'domain_score > 50 AND is_nofollow = false', page: { orderBy: 'first_seen_at', direction: 'ASC' } });
    expect(filtered.total).toBe(2);
    expect(filtered.rows.map((r) => [r.source_url, r.target_url])).toEqual([
      ['https://alpha.org/post-1', 'https://example.com/'],
      ['https://gamma.io/review', 'https://example.com/blog/'],
    ]);
    // Unfiltered, by source URL descending: gamma.io's two links (ids 4, 5: the tie-break is the id), then epsilon.fr; the total is the rollup's 7.
    const bySource = await list(store, 'links', { page: { orderBy: 'source_url', direction: 'DESC', limit: 3 } });
    expect(bySource.total).toBe(7);
    expect(bySource.rows.map((r) => [r.source_url, r.target_url])).toEqual([
      ['https://gamma.io/review', 'https://example.com/blog'],
      ['https://gamma.io/review', 'https://example.com/blog/'],
      ['https://epsilon.fr/', 'https://example.com/?ref=1'],
    ]);
    expect(await list(store, 'links', { filter: 'domain_score > 1000' })).toEqual({ rows: [], total: 0 });
    const cases: { filter?: string; page: Partial<Page>; url?: string; scope?: Scope }[] = [
      { page: { orderBy: 'first_seen_at', direction: 'DESC', limit: 4, offset: 2 } },
      { page: { orderBy: 'anchor', direction: 'ASC' } },
      { filter: "anchor LIKE '%xa%' OR is_lost = true", page: { orderBy: 'domain_score', direction: 'DESC' } },
      { filter: 'is_new = true OR response_code <> 200', page: { orderBy: 'last_seen_at', direction: 'ASC', limit: 2, offset: 1 } },
      { filter: 'page_score >= 30', page: { orderBy: 'page_score', direction: 'DESC', limit: 2, offset: 1 } },
      { page: { orderBy: 'is_image', direction: 'DESC' }, url: 'www.example.com', scope: 'SUBDOMAIN' },
      { filter: 'is_nofollow = false', page: { orderBy: 'source_url', direction: 'ASC' }, url: 'example.com/blog', scope: 'SUBFOLDER' },
      { filter: 'external_links_count > 1', page: { orderBy: 'source_size', direction: 'ASC' }, url: 'example.com/blog/', scope: 'PAGE' },
      { page: { orderBy: 'page_score', direction: 'DESC', offset: 5 }, url: 'other.co.uk' },
    ];
    for (const options of cases) {
      const label = JSON.stringify(options);
      const answer = await list(store, 'links', options);
      expect(answer.rows.length, label).toBeGreaterThan(0);
      expect(answer, label).toEqual(await list(grouping, 'links', options));
    }
  });

  it('an incremental load keeps the indexes, adds its links after the ordered ones, and vacuums', async () => {
    const writer = await store.writer();
    await writer.links([{ ...fx.exampleLinks[0]!, source_url: 'https://zeta.com/new', source_domain: 'zeta.com', domain_score: 90, first_seen_at: '2026-06-10T00:00:00' }]);
    await writer.finish();
    expect(await linkIndexes(store)).toEqual(migrated);
    const stored = await store.connection.all<{ id: number }>(sql`SELECT id FROM links ORDER BY ctid`);
    expect(stored.map((row) => row.id)).toEqual([4, 5, 1, 2, 3, 6, 7, 14, 15, 16, 17, 18, 19, 20, 21, 22, 8, 9, 10, 11, 12, 13, 23, 24, 25, 26, 27]);
    expect(await countPlan(url, 'target_domain', 'example.com')).toContain('Heap Fetches: 0');
    const filtered = await list(store, 'links', { filter: 'domain_score > 50 AND is_nofollow = false', page: { orderBy: 'first_seen_at', direction: 'DESC' } });
    expect(filtered.total).toBe(3);
    expect(filtered.rows.map((r) => r.source_url)).toEqual(['https://zeta.com/new', 'https://gamma.io/review', 'https://alpha.org/post-1']);
  });
});

describe('PostgreSQL store: a load is one transaction', () => {
  /** The indexes of `links`, the recorded ones, the count of links and the tables named links*, read on a session of their own. */
  async function seen(url: string) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const indexes = await admin.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE tablename = 'links' ORDER BY indexname`);
      const recorded = await admin.query<{ name: string }>('SELECT name FROM deferred_indexes ORDER BY name');
      const links = await admin.query<{ n: string }>('SELECT count(*) AS n FROM links');
      const tables = await admin.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE tablename LIKE 'links%' ORDER BY tablename`);
      return {
        indexes: indexes.rows.map((row) => row.indexname),
        recorded: recorded.rows.map((row) => row.name),
        links: Number(links.rows[0]!.n),
        tables: tables.rows.map((row) => row.tablename),
      };
    } finally {
      await admin.end();
    }
  }

  it('into an empty store, stopped half way, it leaves the database as it was: every index, none recorded, no link', async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const other = await open(url, { lockTimeoutMs: 100 });
    try {
      const writer = await store.writer();
      await writer.links(fx.exampleLinks);
      // The links go to a table of the load's own: another store reads the empty links without waiting.
      await expect(other.hasLinks()).resolves.toBe(false);
      expect(await other.overview(ROOT, CLOCK)).toMatchObject({ backlinks_count: 0, domains_count: 0 });
      // No finish: the process stops here.
    } finally {
      await store.close();
      await other.close();
    }
    expect(await seen(url)).toEqual({ indexes: LINK_INDEXES, recorded: [], links: 0, tables: ['links'] });
  });

  it('into a store with links: another store sees none of it until its finish commits; stopped half way, it leaves the links as they were', async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const other = await open(url);
    try {
      await loadFixture(store);
      const before = await other.overview(ROOT, CLOCK);
      const added: LinkInput = { ...fx.exampleLinks[0]!, source_url: 'https://zeta.com/new', source_domain: 'zeta.com' };
      const writer = await store.writer();
      await writer.links([added]);
      // Written, not committed: the other store answers as before, from the links and from the rollups.
      expect(await seen(url)).toMatchObject({ links: allLinks().length });
      expect(await other.overview(ROOT, CLOCK)).toEqual(before);
      await writer.finish();
      expect(await seen(url)).toMatchObject({ links: allLinks().length + 1 });
      expect((await other.overview(ROOT, CLOCK)).backlinks_count).toBe(before.backlinks_count + 1);
      const stopped = await store.writer();
      await stopped.links([{ ...added, source_url: 'https://zeta.com/never' }]);
    } finally {
      await store.close();
      await other.close();
    }
    expect(await seen(url)).toEqual({ indexes: LINK_INDEXES, recorded: [], links: allLinks().length + 1, tables: ['links'] });
  });

  it('into an empty store: a reader that holds links past the others\' lock wait delays the swap, not their reads', async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const other = await open(url, { lockTimeoutMs: 1_000 });
    // A long call: its transaction has read links, and holds it until it ends.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT count(*) FROM links');
      const writer = await store.writer();
      await writer.links(fx.exampleLinks);
      let finished = false;
      const finishing = writer.finish().then(() => void (finished = true));
      // For 1.5 s, the load tries to take links for its swap while the holder reads it: reads of others go on, each within its 1 s lock wait.
      for (const end = Date.now() + 1_500; Date.now() < end; ) {
        expect(await other.hasLinks()).toBe(false);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(finished).toBe(false);
      await holder.query('COMMIT');
      await finishing;
      expect(await other.hasLinks()).toBe(true);
      expect((await other.overview(ROOT, CLOCK)).backlinks_count).toBe(fx.exampleLinks.length);
    } finally {
      await holder.end();
      await store.close();
      await other.close();
    }
  });

  it('into an empty store, replaces a table links_next left in the database (no load commits one)', async () => {
    const url = await freshDatabase();
    const store = await open(url);
    try {
      await store.connection.write(sql`CREATE TABLE links_next (leftover integer)`);
      await loadFixture(store);
      expect((await store.overview(ROOT, CLOCK)).backlinks_count).toBe(fx.exampleLinks.length);
    } finally {
      await store.close();
    }
    expect(await seen(url)).toEqual({ indexes: LINK_INDEXES, recorded: [], links: allLinks().length, tables: ['links'] });
  });

  it('indexes recorded as dropped by a load of an earlier version that stopped are built when a store is next opened', async () => {
    const url = await freshDatabase();
    const connection = await openPostgresConnection({ url });
    try {
      await migrate(connection);
      // What a load of an earlier version committed before it stopped: the secondary indexes of links dropped, their definitions recorded.
      await connection.withTransaction(async (client) => {
        const { rows } = await client.query<{ name: string; definition: string }>(
          `SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = 'links' AND indexname = ANY ($1::text[])`,
          [DEFERRED],
        );
        for (const row of rows) {
          await client.query('INSERT INTO deferred_indexes (name, definition) VALUES ($1, $2)', [row.name, row.definition]);
          await client.query(`DROP INDEX ${row.name}`);
        }
      });
    } finally {
      await connection.close();
    }
    expect(await seen(url)).toEqual({ indexes: ['links_link_key_key', 'links_pkey'], recorded: DEFERRED, links: 0, tables: ['links'] });
    const store = await open(url);
    await store.close();
    expect(await seen(url)).toEqual({ indexes: LINK_INDEXES, recorded: [], links: 0, tables: ['links'] });
  });
});

describe('PostgreSQL store: a call reads one snapshot', () => {
  /** The example.com link of zeta.com, followed: the overview counts one more link, the followed list one more row. */
  const zeta: LinkInput = { ...fx.exampleLinks[0]!, source_url: 'https://zeta.com/new', source_domain: 'zeta.com', is_nofollow: false };
  const follows = (store: Store) => list(store, 'links', { filter: 'is_nofollow = false', page: { orderBy: 'source_url', direction: 'ASC' } });

  it('a load that commits between two reads of one call is seen by neither; the next call sees it; with snapshotPerCall false, the second read sees it', async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const separate = await open(url, { snapshotPerCall: false });
    const loader = await open(url);
    try {
      await loadFixture(loader);
      const before = { overview: await store.overview(ROOT, CLOCK), follows: await follows(store) };
      const load = async () => {
        const writer = await loader.writer();
        await writer.links([zeta]);
        await writer.finish();
      };
      const inCall = <T>(work: () => Promise<T>) => forCall(new AbortController().signal, work);
      await inCall(async () => {
        expect(await store.overview(ROOT, CLOCK)).toEqual(before.overview);
        await load();
        // The same call: its snapshot was taken at its first read, before the commit.
        expect(await follows(store)).toEqual(before.follows);
        expect(await store.overview(ROOT, CLOCK)).toEqual(before.overview);
      });
      const after = await inCall(async () => ({ overview: await store.overview(ROOT, CLOCK), follows: await follows(store) }));
      expect(after).toMatchObject({ overview: { backlinks_count: before.overview.backlinks_count + 1 }, follows: { total: before.follows.total + 1 } });
      // Without snapshots, a call's second read sees what committed after its first.
      await inCall(async () => {
        expect(await separate.overview(ROOT, CLOCK)).toEqual(after.overview);
        const writer = await loader.writer();
        await writer.links([{ ...zeta, source_url: 'https://zeta.com/second' }]);
        await writer.finish();
        expect((await follows(separate)).total).toBe(before.follows.total + 2);
      });
      // Every call's client went back to the pool.
      expect(store.connection.pool.idleCount).toBe(store.connection.pool.totalCount);
    } finally {
      await Promise.all([store.close(), separate.close(), loader.close()]);
    }
  });
});

describe('PostgreSQL store: indexes of earlier schemas', () => {
  it('a database at schema 4 gets the covering indexes and the cluster mark', async () => {
    const url = await freshDatabase();
    const connection = await openPostgresConnection({ url });
    try {
      await migrate(connection, MIGRATIONS.slice(0, 4));
      const before = await connection.all<{ indexname: string }>(sql`SELECT indexname FROM pg_indexes WHERE tablename = 'links' ORDER BY indexname`);
      expect(before.map((row) => row.indexname)).toEqual(LINK_INDEXES.filter((name) => !name.startsWith('links_cover_')));
    } finally {
      await connection.close();
    }
    const store = await open(url);
    try {
      expect(Object.keys(await linkIndexes(store))).toEqual(LINK_INDEXES);
      expect(await store.connection.all(sql`SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indisclustered`)).toEqual([
        { name: 'links_by_domain' },
      ]);
    } finally {
      await store.close();
    }
  });
});

describe('PostgreSQL store availability', () => {
  let url: string;
  beforeAll(async () => {
    url = await freshDatabase();
    const store = await open(url);
    await store.ledger.upsertKeys(fx.KEYS);
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
      const error = await store.ledger.charge('poor', 1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(((error as Error).cause as { code?: string }).code).toBe('55P03');
      await holder.query('ROLLBACK');
      expect(await store.ledger.charge('poor', 1)).toEqual({ ok: true, remaining: 49 });
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
      expect(await store.ledger.balance('tester')).toBe(1_000_000);
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
    await expect(store.ledger.balance('tester')).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

describe('session settings', () => {
  it('are startup options, with spaces and backslashes escaped', () => {
    expect(startupOptions({ synchronous_commit: 'on', application_name: 'a b\\c' })).toBe('-c synchronous_commit=on -c application_name=a\\ b\\\\c');
    expect(() => startupOptions({ 'x -c y': '1' })).toThrow(TypeError);
    expect(() => startupOptions({ 'x -c y': '1' })).toThrow(/Not a setting's name/);
  });

  it('hold in every session of the pool, with the options of the URL', async () => {
    const url = new URL(await freshDatabase());
    url.searchParams.set('options', '-c work_mem=5MB');
    const connection = await openPostgresConnection({ url: url.toString(), settings: { synchronous_commit: 'on', search_path: 'a, public' } });
    try {
      const shown = await connection.all(sql`SELECT current_setting('synchronous_commit') AS sync, current_setting('work_mem') AS mem, current_setting('search_path') AS path`);
      // The test server runs with synchronous_commit = off (scripts/engines/postgres.sh).
      expect(shown).toEqual([{ sync: 'on', mem: '5MB', path: 'a, public' }]);
    } finally {
      await connection.close();
    }
  });

  it('a default gives way to the URL, a setting does not', async () => {
    const url = new URL(await freshDatabase());
    url.searchParams.set('options', '-c work_mem=5MB -c synchronous_commit=off');
    const connection = await openPostgresConnection({
      url: url.toString(),
      defaultSettings: { work_mem: '7MB', search_path: 'b, public' },
      settings: { synchronous_commit: 'on' },
    });
    try {
      const shown = await connection.all(sql`SELECT current_setting('synchronous_commit') AS sync, current_setting('work_mem') AS mem, current_setting('search_path') AS path`);
      expect(shown).toEqual([{ sync: 'on', mem: '5MB', path: 'b, public' }]);
    } finally {
      await connection.close();
    }
  });

  describe('the store\'s request statements start no parallel workers unless asked', () => {
    const workers = async (store: PostgresStore) =>
      (await store.connection.all<{ n: string }>(sql`SELECT current_setting('max_parallel_workers_per_gather') AS n`))[0]!.n;

    it.each([
      ['by default', {}, '', '0'],
      ['with parallelWorkers', { parallelWorkers: 3 }, '', '3'],
      ['with the URL\'s options over parallelWorkers', { parallelWorkers: 3 }, '-c max_parallel_workers_per_gather=1', '1'],
    ])('%s', async (_, options: Partial<PostgresStoreOptions>, urlOptions, expected) => {
      const url = new URL(await freshDatabase());
      if (urlOptions !== '') url.searchParams.set('options', urlOptions);
      const store = await open(url.toString(), options);
      try {
        expect(await workers(store)).toBe(expected);
      } finally {
        await store.close();
      }
    });

    it.each([-1, 1.5, Number.NaN])('refuses parallelWorkers %s', async (n) => {
      await expect(open(await freshDatabase(), { parallelWorkers: n })).rejects.toThrow(/parallelWorkers takes a whole number from 0/);
    });
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
  expect([...ROLLUP_TABLES].sort()).toEqual(['r_anchors', 'r_first_seen', 'r_history', 'r_pages', 'r_ref_domains', 'r_ref_ips', 'r_score_profile', 'r_targets']);
});
