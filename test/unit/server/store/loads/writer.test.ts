/**
 * The bulk writer (src/server/store/loads/writer.ts) through a real SQLite store's `writer()`, in
 * memory, read back through the store's own reads. What is expected comes from the interface
 * (src/server/store/store.ts, `GraphWriter` and `LoadStats`) and docs/operations.md: a link is
 * identified by its source URL, target URL, anchor and image URL, and writing it again replaces it;
 * domains, pages and keyword snapshots replace the row with the same key (the later one wins);
 * `domains(..., { keep: true })` never replaces a record; `finish` brings up to date the rollups of
 * the domains of the links and pages written and of every domain a rewritten referring domain
 * links to, and says how many link records it wrote and how many domains it recomputed.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clockAt } from '../../../../../src/server/clock.js';
import { loadServerDeps } from '../../../../../src/server/deps.js';
import type { DomainInput, KeywordSnapshotInput, LinkInput } from '../../../../../src/server/store/inputs.js';
import { openSqliteStore, type SqliteStore } from '../../../../../src/server/store/engines/sqlite/sqlite-store.js';
import type { GraphWriter, GroupedOperation } from '../../../../../src/server/store/store.js';
import { toTarget, type Scope, type Target } from '../../../../../src/server/target.js';

const CLOCK = clockAt(new Date('2026-06-15T12:00:00Z'));

const base: LinkInput = {
  source_url: '', target_url: '', anchor: '', redirect_url: '', source_title: '', target_title: '', image_url: '', image_alt: '',
  ip_address: '10.0.0.1', lang: 'en', source_size: 1000, external_links_count: 10, internal_links_count: 20, response_code: 200,
  page_score: 10, domain_score: 10, first_seen_at: '2026-01-01T00:00:00', last_seen_at: '2026-06-01T00:00:00', source_domain: '',
  is_nofollow: false, is_ugc: false, is_sponsored: false, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false,
  is_lost: false,
};
/** a.org links to example.com twice and to other.com once; b.net to example.com once. */
const A1: LinkInput = { ...base, source_url: 'https://a.org/1', target_url: 'https://example.com/', anchor: 'one', source_domain: 'a.org' };
const A2: LinkInput = { ...base, source_url: 'https://a.org/2', target_url: 'https://example.com/blog', anchor: 'two', source_domain: 'a.org' };
const A3: LinkInput = { ...base, source_url: 'https://a.org/3', target_url: 'https://other.com/', anchor: 'three', source_domain: 'a.org' };
const B1: LinkInput = { ...base, source_url: 'https://b.net/1', target_url: 'https://example.com/', anchor: 'bee', source_domain: 'b.net', ip_address: '10.0.0.2' };
const A_ORG: DomainInput = { domain: 'a.org', ip_address: '10.0.0.1', country: 'US', domain_score: 40 };

let target: (url: string, scope?: Scope) => Target;
beforeAll(async () => {
  const { tldts } = await loadServerDeps();
  target = (url, scope = 'ROOT_DOMAIN') => toTarget(url, scope, tldts)!;
});

const stores: SqliteStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});
async function newStore(): Promise<SqliteStore> {
  const store = await openSqliteStore();
  stores.push(store);
  return store;
}

/** One writer: `write` fills it, then `finish`; its stats. */
async function load(store: SqliteStore, write: (writer: GraphWriter) => Promise<void>) {
  const writer = await store.writer();
  await write(writer);
  return writer.finish();
}

/** Every row of a list, whole. */
async function list<Op extends GroupedOperation>(store: SqliteStore, operation: Op, of: Target, orderBy: string) {
  return store.grouped(operation, { target: of, page: { orderBy, direction: 'ASC', limit: 100, offset: 0 }, filter: null, clock: CLOCK });
}

describe('links', () => {
  it('a link written twice, in one batch, in two batches or in two loads, is one link', async () => {
    const store = await newStore();
    await load(store, async (writer) => {
      await writer.links([A1, A1]);
      await writer.links([A1]);
    });
    await load(store, (writer) => writer.links([A1]));
    const links = await list(store, 'links', target('example.com'), 'source_url');
    expect(links.total).toBe(1);
    expect(links.rows.map((row) => row.source_url)).toEqual(['https://a.org/1']);
    // The rollups count it once as well.
    expect((await store.overview(target('example.com'), CLOCK)).backlinks_count).toBe(1);
  });

  it('a link of another anchor or image URL is another link', async () => {
    const store = await newStore();
    await load(store, (writer) => writer.links([A1, { ...A1, anchor: 'other anchor' }, { ...A1, image_url: 'https://a.org/i.png' }]));
    expect((await list(store, 'links', target('example.com'), 'source_url')).total).toBe(3);
  });

  it('the later row of a link wins: within a batch, across batches and across loads', async () => {
    const store = await newStore();
    const lastSeen = async () => (await list(store, 'links', target('example.com'), 'source_url')).rows.map((row) => [row.source_url, row.last_seen_at, row.is_lost]);
    await load(store, (writer) => writer.links([{ ...A1, last_seen_at: '2026-03-01T00:00:00' }, { ...A1, last_seen_at: '2026-04-01T00:00:00' }]));
    expect(await lastSeen()).toEqual([['https://a.org/1', '2026-04-01T00:00:00', false]]);
    await load(store, async (writer) => {
      await writer.links([{ ...A1, last_seen_at: '2026-05-01T00:00:00' }]);
      await writer.links([{ ...A1, last_seen_at: '2026-05-02T00:00:00', is_lost: true }]);
    });
    expect(await lastSeen()).toEqual([['https://a.org/1', '2026-05-02T00:00:00', true]]);
    // And the rollups follow: the referring domain's only link is lost.
    const domains = await list(store, 'ref-domains', target('example.com'), 'domain');
    expect(domains.rows.map((row) => [row.domain, row.last_seen_at, row.is_lost])).toEqual([['a.org', '2026-05-02T00:00:00', true]]);
  });
});

describe('domains, pages and keyword snapshots', () => {
  it('the later row of a key wins', async () => {
    const store = await newStore();
    await load(store, async (writer) => {
      await writer.domains([{ ...A_ORG, domain_score: 10 }, { ...A_ORG, domain_score: 20 }]);
      await writer.pages([{ url: 'https://example.com/', title: 'First', response_code: 200, page_score: 1, external_links_count: 0, internal_links_count: 0 }]);
      await writer.pages([{ url: 'https://example.com/', title: 'Second', response_code: 301, page_score: 2, external_links_count: 4, internal_links_count: 5 }]);
      const snapshot: KeywordSnapshotInput = {
        keyword: 'seo', country: 'US', month: '2026-06', snapshot_at: '2026-06-01T00:00:00', search_volume: '100', cpc: '1.5', competitive_density: 50,
        keyword_difficulty: 30, number_of_results: '1000', intents: ['informational'], serp_features: [], trends: [1, 2, 3],
      };
      await writer.keywords([snapshot, { ...snapshot, keyword_difficulty: 45 }]);
      await writer.links([A1]);
    });
    const domains = await list(store, 'ref-domains', target('example.com'), 'domain');
    expect(domains.rows.map((row) => [row.domain, row.domain_score])).toEqual([['a.org', 20]]);
    const pages = await list(store, 'pages', target('example.com'), 'source_url');
    expect(pages.rows.map((row) => [row.source_url, row.source_title, row.response_code, row.external_links_count, row.internal_links_count])).toEqual([
      ['https://example.com/', 'Second', 301, 4, 5],
    ]);
    expect((await store.keywordMetrics({ keyword: 'seo', country: 'US', month: '2026-06' }))?.keyword_difficulty).toBe(45);
  });

  it('keep: a domain that has a record keeps it, a domain without one gets it', async () => {
    const store = await newStore();
    await load(store, async (writer) => {
      await writer.domains([A_ORG]);
      await writer.links([A1, B1]);
    });
    await load(store, (writer) =>
      writer.domains(
        [
          { domain: 'a.org', ip_address: '192.0.2.1', country: 'FR', domain_score: 99 },
          { domain: 'b.net', ip_address: '10.0.0.2', country: 'DE', domain_score: 25 },
        ],
        { keep: true },
      ),
    );
    const domains = await list(store, 'ref-domains', target('example.com'), 'domain');
    expect(domains.rows.map((row) => [row.domain, row.ip_address, row.country, row.domain_score])).toEqual([
      ['a.org', '10.0.0.1', 'US', 40],
      ['b.net', '10.0.0.2', 'DE', 25],
    ]);
    // Without keep, the record is replaced.
    await load(store, (writer) => writer.domains([{ domain: 'a.org', ip_address: '192.0.2.1', country: 'FR', domain_score: 99 }]));
    expect((await list(store, 'ref-domains', target('example.com'), 'domain')).rows[0]).toMatchObject({ domain: 'a.org', ip_address: '192.0.2.1', country: 'FR', domain_score: 99 });
  });
});

describe('finish', () => {
  it('says how many link records it wrote and how many registrable domains it brought up to date', async () => {
    const store = await newStore();
    // Four records, one of them twice: four records written; example.com and other.com.
    expect(await load(store, (writer) => writer.links([A1, A2, A1, A3]))).toEqual({ links: 4, domains: 2 });
    // A page of example.com: its domain only.
    expect(
      await load(store, (writer) => writer.pages([{ url: 'https://example.com/blog', title: 'Blog', response_code: 200, page_score: 5, external_links_count: 1, internal_links_count: 2 }])),
    ).toEqual({ links: 0, domains: 1 });
    // a.org's record: every domain a.org links to (example.com, other.com).
    expect(await load(store, (writer) => writer.domains([A_ORG]))).toEqual({ links: 0, domains: 2 });
    // b.net links nowhere yet: nothing to bring up to date.
    expect(await load(store, (writer) => writer.domains([{ domain: 'b.net', ip_address: '10.0.0.2', country: 'DE', domain_score: 25 }]))).toEqual({ links: 0, domains: 0 });
    // A finish with nothing written.
    expect(await load(store, async () => {})).toEqual({ links: 0, domains: 0 });
  });

  it('brings up to date the rollups of every domain a changed referring domain links to', async () => {
    const store = await newStore();
    await load(store, async (writer) => {
      await writer.domains([A_ORG]);
      await writer.links([A1, A3, B1]);
    });
    expect((await store.scoreProfile(target('other.com'))).map((row) => [row.domain_score, row.domains_count])).toEqual([[40, 1]]);
    // a.org's record changes, and no link is written: example.com's and other.com's rollups show it.
    await load(store, (writer) => writer.domains([{ domain: 'a.org', ip_address: '192.0.2.9', country: 'FR', domain_score: 77 }]));
    const fromRollups = await list(store, 'ref-domains', target('example.com'), 'domain');
    expect(fromRollups.rows.map((row) => [row.domain, row.ip_address, row.country, row.domain_score])).toEqual([
      ['a.org', '192.0.2.9', 'FR', 77],
      ['b.net', '', '', 0],
    ]);
    expect((await list(store, 'ref-domains', target('other.com'), 'domain')).rows.map((row) => [row.domain, row.domain_score])).toEqual([['a.org', 77]]);
    // The score profile (a rollup too): a.org now at 77; b.net has no record, so no known score: not counted.
    expect((await store.scoreProfile(target('example.com'))).map((row) => [row.domain_score, row.domains_count])).toEqual([[77, 1]]);
    expect((await store.scoreProfile(target('other.com'))).map((row) => [row.domain_score, row.domains_count])).toEqual([[77, 1]]);
  });

  it('a page written alone shows in its domain\'s pages (a rollup)', async () => {
    const store = await newStore();
    await load(store, (writer) => writer.links([A2]));
    await load(store, (writer) => writer.pages([{ url: 'https://example.com/blog', title: 'Blog', response_code: 200, page_score: 5, external_links_count: 1, internal_links_count: 2 }]));
    const pages = await list(store, 'pages', target('example.com'), 'source_url');
    expect(pages.rows.map((row) => [row.source_url, row.source_title, row.external_links_count, row.internal_links_count])).toEqual([['https://example.com/blog', 'Blog', 1, 2]]);
  });
});
