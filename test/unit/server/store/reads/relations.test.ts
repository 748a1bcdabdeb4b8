/**
 * `groupedRows` (src/server/store/reads/relations.ts): the rows of each list operation, columns
 * exactly the record's fields plus a `_key` unique per row, read on a real SQLite store (in memory)
 * holding seven hand-written links. Every expected row is worked out by hand below from
 * docs/operations.md ("Lists grouped from the target's links"); the rows from the rollups (a target
 * key: `d:` domain, `h:` host, `p:` host + path) equal the rows grouped from the links.
 *
 * Links (now 2026-06-15T12:00:00Z, so "new" is first seen at or after 2026-05-16T12:00:00):
 *
 * | link | source | target | anchor | IP | first seen | last seen | nofollow | lost |
 * | --- | --- | --- | --- | --- | --- | --- | --- | --- |
 * | L1 | a.org/1 | example.com/ | Example | 10.0.0.1 | 2026-01-01 | 2026-06-01 | no | no |
 * | L2 | a.org/2 | example.com/blog | blog | 10.0.0.1 | 2026-06-01 (new) | 2026-06-10 | yes | yes |
 * | L3 | b.net/x | example.com/ | Example | 10.0.0.2 | 2025-05-01 | 2026-02-01 | yes | yes |
 * | L4 | c.io/y | www.example.com/ | www | 10.0.0.1 | 2026-05-20 (new) | 2026-06-12 | no | no |
 * | L5 | a.org/3 | other.com/ | Other | 10.0.0.1 | 2026-01-01 | 2026-06-01 | no | no |
 * | L6 | e.net/z | example.com/blog | blog | 10.0.0.3 | 2025-12-01 | 2026-03-01 | no | no |
 * | L7 | a.org/4 | example.com/ | Example | 10.0.0.1 | 2026-02-01 | 2026-04-01 | no | no |
 *
 * Domains: a.org (10.0.0.1, US, score 40), b.net (10.0.0.2, DE, 25), c.io (10.0.0.1, CA, 5); e.net
 * has no record. Target
 * page: https://example.com/ ("Home", 200, 3 external and 7 internal links). SQLite gives booleans
 * as 1 and 0 (the module's comment: "0/1 on SQLite").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockAt } from '../../../../../src/server/clock.js';
import { loadServerDeps } from '../../../../../src/server/deps.js';
import type { LinkInput } from '../../../../../src/server/store/inputs.js';
import { openSqliteStore, type SqliteStore } from '../../../../../src/server/store/engines/sqlite/sqlite-store.js';
import { groupedRows, SQL_SOURCES } from '../../../../../src/server/store/reads/relations.js';
import type { GroupedOperation } from '../../../../../src/server/store/store.js';
import { toTarget, type Scope, type Target } from '../../../../../src/server/target.js';

const CLOCK = clockAt(new Date('2026-06-15T12:00:00Z'));

const base: LinkInput = {
  source_url: '', target_url: '', anchor: '', redirect_url: '', source_title: '', target_title: '', image_url: '', image_alt: '',
  ip_address: '', lang: 'en', source_size: 1000, external_links_count: 10, internal_links_count: 20, response_code: 200,
  page_score: 10, domain_score: 10, first_seen_at: '', last_seen_at: '', source_domain: '',
  is_nofollow: false, is_ugc: false, is_sponsored: false, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false,
  is_lost: false,
};
const L1: LinkInput = { ...base, source_url: 'https://a.org/1', target_url: 'https://example.com/', anchor: 'Example', ip_address: '10.0.0.1', source_domain: 'a.org', first_seen_at: '2026-01-01T00:00:00', last_seen_at: '2026-06-01T00:00:00' };
const L2: LinkInput = { ...base, source_url: 'https://a.org/2', target_url: 'https://example.com/blog', anchor: 'blog', ip_address: '10.0.0.1', source_domain: 'a.org', first_seen_at: '2026-06-01T00:00:00', last_seen_at: '2026-06-10T00:00:00', is_nofollow: true, is_lost: true };
const L3: LinkInput = { ...base, source_url: 'https://b.net/x', target_url: 'https://example.com/', anchor: 'Example', ip_address: '10.0.0.2', source_domain: 'b.net', first_seen_at: '2025-05-01T00:00:00', last_seen_at: '2026-02-01T00:00:00', is_nofollow: true, is_lost: true };
const L4: LinkInput = { ...base, source_url: 'https://c.io/y', target_url: 'https://www.example.com/', anchor: 'www', ip_address: '10.0.0.1', source_domain: 'c.io', first_seen_at: '2026-05-20T00:00:00', last_seen_at: '2026-06-12T00:00:00' };
const L6: LinkInput = { ...base, source_url: 'https://e.net/z', target_url: 'https://example.com/blog', anchor: 'blog', ip_address: '10.0.0.3', source_domain: 'e.net', first_seen_at: '2025-12-01T00:00:00', last_seen_at: '2026-03-01T00:00:00' };
const L7: LinkInput = { ...base, source_url: 'https://a.org/4', target_url: 'https://example.com/', anchor: 'Example', ip_address: '10.0.0.1', source_domain: 'a.org', first_seen_at: '2026-02-01T00:00:00', last_seen_at: '2026-04-01T00:00:00' };
const L5: LinkInput = { ...base, source_url: 'https://a.org/3', target_url: 'https://other.com/', anchor: 'Other', ip_address: '10.0.0.1', source_domain: 'a.org', first_seen_at: '2026-01-01T00:00:00', last_seen_at: '2026-06-01T00:00:00' };

let store: SqliteStore;
let target: (url: string, scope: Scope) => Target;

beforeAll(async () => {
  const { tldts } = await loadServerDeps();
  target = (url, scope) => toTarget(url, scope, tldts)!;
  store = await openSqliteStore();
  const writer = await store.writer();
  await writer.domains([
    { domain: 'a.org', ip_address: '10.0.0.1', country: 'US', domain_score: 40 },
    { domain: 'b.net', ip_address: '10.0.0.2', country: 'DE', domain_score: 25 },
    { domain: 'c.io', ip_address: '10.0.0.1', country: 'CA', domain_score: 5 },
  ]);
  await writer.pages([{ url: 'https://example.com/', title: 'Home', response_code: 200, page_score: 30, external_links_count: 3, internal_links_count: 7 }]);
  await writer.links([L1, L2, L3, L4, L5, L6, L7]);
  await writer.finish();
});
afterAll(() => store.close());

/** The rows of `groupedRows`, by `_key`; from the rollups of `tkey`, or grouped from the links without it. */
async function rows(operation: GroupedOperation, of: Target, tkey?: string): Promise<Record<string, unknown>[]> {
  const found = await store.connection.all<Record<string, unknown>>(groupedRows(operation, of, CLOCK, tkey));
  return found.sort((a, b) => (String(a._key) < String(b._key) ? -1 : String(a._key) > String(b._key) ? 1 : 0));
}
const withoutKey = (list: Record<string, unknown>[]) => list.map(({ _key, ...row }) => row);

/** The rows of example.com (ROOT_DOMAIN), by hand from the table above. */
const EXAMPLE = {
  'ref-domains': [
    // a.org: L1, L2, L7. Follow (L1), not new (first link 2026-01-01), not lost (L1).
    { domain: 'a.org', ip_address: '10.0.0.1', country: 'US', domain_score: 40, backlinks_count: 3, first_seen_at: '2026-01-01T00:00:00', last_seen_at: '2026-06-10T00:00:00', is_follow: 1, is_new: 0, is_lost: 0 },
    // b.net: L3 only, nofollow and lost.
    { domain: 'b.net', ip_address: '10.0.0.2', country: 'DE', domain_score: 25, backlinks_count: 1, first_seen_at: '2025-05-01T00:00:00', last_seen_at: '2026-02-01T00:00:00', is_follow: 0, is_new: 0, is_lost: 1 },
    // c.io: L4, new.
    { domain: 'c.io', ip_address: '10.0.0.1', country: 'CA', domain_score: 5, backlinks_count: 1, first_seen_at: '2026-05-20T00:00:00', last_seen_at: '2026-06-12T00:00:00', is_follow: 1, is_new: 1, is_lost: 0 },
    // e.net: L6; no domain record ('' and 0).
    { domain: 'e.net', ip_address: '', country: '', domain_score: 0, backlinks_count: 1, first_seen_at: '2025-12-01T00:00:00', last_seen_at: '2026-03-01T00:00:00', is_follow: 1, is_new: 0, is_lost: 0 },
  ],
  'ref-ips': [
    // 10.0.0.1: L1, L2, L7 (a.org, US), L4 (c.io, CA): the first country in code-point order, CA.
    { ip_address: '10.0.0.1', country: 'CA', backlinks_count: 4, domains_count: 2, first_seen_at: '2026-01-01T00:00:00', last_seen_at: '2026-06-12T00:00:00' },
    { ip_address: '10.0.0.2', country: 'DE', backlinks_count: 1, domains_count: 1, first_seen_at: '2025-05-01T00:00:00', last_seen_at: '2026-02-01T00:00:00' },
    // 10.0.0.3: L6, from e.net, which has no record.
    { ip_address: '10.0.0.3', country: '', backlinks_count: 1, domains_count: 1, first_seen_at: '2025-12-01T00:00:00', last_seen_at: '2026-03-01T00:00:00' },
  ],
  pages: [
    // example.com/blog: L2, L6; no target page, so the link's target URL, '', 200, 0, 0.
    { source_url: 'https://example.com/blog', source_title: '', response_code: 200, backlinks_count: 2, domains_count: 2, external_links_count: 0, internal_links_count: 0, first_seen_at: '2025-12-01T00:00:00', last_seen_at: '2026-06-10T00:00:00' },
    // example.com/: L1, L7 (a.org), L3 (b.net), with the stored page's data.
    { source_url: 'https://example.com/', source_title: 'Home', response_code: 200, backlinks_count: 3, domains_count: 2, external_links_count: 3, internal_links_count: 7, first_seen_at: '2025-05-01T00:00:00', last_seen_at: '2026-06-01T00:00:00' },
    { source_url: 'https://www.example.com/', source_title: '', response_code: 200, backlinks_count: 1, domains_count: 1, external_links_count: 0, internal_links_count: 0, first_seen_at: '2026-05-20T00:00:00', last_seen_at: '2026-06-12T00:00:00' },
  ],
  anchors: [
    // Example: L1, L7 (a.org), L3 (b.net).
    { anchor: 'Example', backlinks_count: 3, domains_count: 2, first_seen_at: '2025-05-01T00:00:00', last_seen_at: '2026-06-01T00:00:00' },
    { anchor: 'blog', backlinks_count: 2, domains_count: 2, first_seen_at: '2025-12-01T00:00:00', last_seen_at: '2026-06-10T00:00:00' },
    { anchor: 'www', backlinks_count: 1, domains_count: 1, first_seen_at: '2026-05-20T00:00:00', last_seen_at: '2026-06-12T00:00:00' },
  ],
} as const;

/** Sorted as `rows` sorts them: by the key each relation documents (the page's host + path for pages). */
const bySortedKey = { 'ref-domains': ['a.org', 'b.net', 'c.io', 'e.net'], 'ref-ips': ['10.0.0.1', '10.0.0.2', '10.0.0.3'], pages: ['example.com/', 'example.com/blog', 'www.example.com/'], anchors: ['Example', 'blog', 'www'] };

describe('groupedRows on example.com (ROOT_DOMAIN)', () => {
  for (const operation of ['ref-domains', 'ref-ips', 'anchors'] as const) {
    it(`${operation}: one row per group, the record's fields, from the links and from the rollups (d:example.com)`, async () => {
      const fromLinks = await rows(operation, target('example.com', 'ROOT_DOMAIN'));
      expect(fromLinks.map((row) => row._key)).toEqual(bySortedKey[operation]);
      expect(withoutKey(fromLinks)).toEqual(EXAMPLE[operation]);
      expect(withoutKey(await rows(operation, target('example.com', 'ROOT_DOMAIN'), 'd:example.com'))).toEqual(EXAMPLE[operation]);
    });
  }

  it('pages: one row per host and path, the stored page\'s data where there is one', async () => {
    const fromLinks = await rows('pages', target('example.com', 'ROOT_DOMAIN'));
    expect(fromLinks.map((row) => row._key)).toEqual(bySortedKey.pages);
    // `rows` sorts by _key: example.com/, example.com/blog, www.example.com/.
    const expected = [EXAMPLE.pages[1], EXAMPLE.pages[0], EXAMPLE.pages[2]];
    expect(withoutKey(fromLinks)).toEqual(expected);
    expect(withoutKey(await rows('pages', target('example.com', 'ROOT_DOMAIN'), 'd:example.com'))).toEqual(expected);
  });

  it('links: the six links to example.com, each the stored link with is_new from the clock, not the link to other.com', async () => {
    const links = await rows('links', target('example.com', 'ROOT_DOMAIN'));
    const bySource = new Map(links.map((row) => [row.source_url, row]));
    expect([...bySource.keys()].sort()).toEqual(['https://a.org/1', 'https://a.org/2', 'https://a.org/4', 'https://b.net/x', 'https://c.io/y', 'https://e.net/z']);
    expect(links.map((row) => [row.source_url, row.is_new, row.is_nofollow, row.is_lost]).sort()).toEqual([
      ['https://a.org/1', 0, 0, 0],
      ['https://a.org/2', 1, 1, 1],
      ['https://a.org/4', 0, 0, 0],
      ['https://b.net/x', 0, 1, 1],
      ['https://c.io/y', 1, 0, 0],
      ['https://e.net/z', 0, 0, 0],
    ]);
    // Every other field is the link as written (booleans as 0/1), and nothing but the record's fields and _key.
    for (const link of [L1, L2, L3, L4, L6, L7]) {
      const { _key, is_new, ...stored } = bySource.get(link.source_url)!;
      expect(stored).toEqual(Object.fromEntries(Object.entries(link).map(([field, value]) => [field, typeof value === 'boolean' ? Number(value) : value])));
    }
  });
});

describe('groupedRows of narrower targets', () => {
  it('SUBDOMAIN www.example.com: only L4, from the links and from h:www.example.com', async () => {
    const expected = [{ anchor: 'www', backlinks_count: 1, domains_count: 1, first_seen_at: '2026-05-20T00:00:00', last_seen_at: '2026-06-12T00:00:00' }];
    expect(withoutKey(await rows('anchors', target('www.example.com', 'SUBDOMAIN')))).toEqual(expected);
    expect(withoutKey(await rows('anchors', target('www.example.com', 'SUBDOMAIN'), 'h:www.example.com'))).toEqual(expected);
  });

  it('PAGE example.com/: L1, L7 and L3 (not /blog), from the links and from p:example.com/', async () => {
    const expected = [
      { domain: 'a.org', ip_address: '10.0.0.1', country: 'US', domain_score: 40, backlinks_count: 2, first_seen_at: '2026-01-01T00:00:00', last_seen_at: '2026-06-01T00:00:00', is_follow: 1, is_new: 0, is_lost: 0 },
      { domain: 'b.net', ip_address: '10.0.0.2', country: 'DE', domain_score: 25, backlinks_count: 1, first_seen_at: '2025-05-01T00:00:00', last_seen_at: '2026-02-01T00:00:00', is_follow: 0, is_new: 0, is_lost: 1 },
    ];
    expect(withoutKey(await rows('ref-domains', target('example.com/', 'PAGE')))).toEqual(expected);
    expect(withoutKey(await rows('ref-domains', target('example.com/', 'PAGE'), 'p:example.com/'))).toEqual(expected);
  });

  it('SUBFOLDER example.com/blog (no rollup key): L2 and L6, grouped from the links', async () => {
    // 10.0.0.1 holds only a.org (US) among these links: c.io's CA is not in the group.
    expect(withoutKey(await rows('ref-ips', target('example.com/blog', 'SUBFOLDER')))).toEqual([
      { ip_address: '10.0.0.1', country: 'US', backlinks_count: 1, domains_count: 1, first_seen_at: '2026-06-01T00:00:00', last_seen_at: '2026-06-10T00:00:00' },
      { ip_address: '10.0.0.3', country: '', backlinks_count: 1, domains_count: 1, first_seen_at: '2025-12-01T00:00:00', last_seen_at: '2026-03-01T00:00:00' },
    ]);
  });

  it('a target without links has no rows, from either source', async () => {
    for (const operation of ['links', 'ref-domains', 'ref-ips', 'pages', 'anchors'] as const) {
      expect(await rows(operation, target('nobody.test', 'ROOT_DOMAIN'))).toEqual([]);
      expect(await rows(operation, target('nobody.test', 'ROOT_DOMAIN'), 'd:nobody.test')).toEqual([]);
    }
  });
});

describe('the two sources and _key', () => {
  const targets: [string, Scope, string][] = [
    ['example.com', 'ROOT_DOMAIN', 'd:example.com'],
    ['example.com', 'SUBDOMAIN', 'h:example.com'],
    ['www.example.com', 'SUBDOMAIN', 'h:www.example.com'],
    ['example.com/', 'PAGE', 'p:example.com/'],
    ['example.com/blog', 'PAGE', 'p:example.com/blog'],
    ['other.com', 'ROOT_DOMAIN', 'd:other.com'],
  ];
  for (const operation of ['links', 'ref-domains', 'ref-ips', 'pages', 'anchors'] as const) {
    it(`${operation}: the rollups give the rows grouped from the links, each _key once`, async () => {
      for (const [url, scope, tkey] of targets) {
        const fromLinks = await rows(operation, target(url, scope));
        const fromRollups = await rows(operation, target(url, scope), tkey);
        expect(fromRollups, `${url} ${scope}`).toEqual(fromLinks);
        expect(fromLinks.length, `${url} ${scope}`).toBeGreaterThan(0);
        expect(new Set(fromLinks.map((row) => row._key)).size, `${url} ${scope}`).toBe(fromLinks.length);
      }
    });
  }
});

describe('groupedRows with only some fields (the rows a page\'s keys are chosen from)', () => {
  const of = () => target('example.com', 'ROOT_DOMAIN');
  const narrow = async (operation: GroupedOperation, only: readonly string[], tkey?: string, sources = SQL_SOURCES) => {
    const found = await store.connection.all<Record<string, unknown>>(groupedRows(operation, of(), CLOCK, tkey, sources, only));
    return found.sort((a, b) => (String(a._key) < String(b._key) ? -1 : 1));
  };

  it('ref-domains: just _key and the fields named, with the values of the whole rows, from the links and the rollups', async () => {
    // From the table above: a.org 40, not new; b.net 25; c.io 5, new; e.net no record (0).
    const expected = [
      { _key: 'a.org', domain_score: 40, is_new: 0 },
      { _key: 'b.net', domain_score: 25, is_new: 0 },
      { _key: 'c.io', domain_score: 5, is_new: 1 },
      { _key: 'e.net', domain_score: 0, is_new: 0 },
    ];
    expect(await narrow('ref-domains', ['is_new', 'domain_score'])).toEqual(expected);
    expect(await narrow('ref-domains', ['is_new', 'domain_score'], 'd:example.com')).toEqual(expected);
  });

  it('anchors: one field; a name that is no field of the record adds nothing', async () => {
    expect(await narrow('anchors', ['backlinks_count', 'no_such_field'])).toEqual([
      { _key: 'Example', backlinks_count: 3 },
      { _key: 'blog', backlinks_count: 2 },
      { _key: 'www', backlinks_count: 1 },
    ]);
  });

  it('links: no field gives the keys alone (one per link to example.com); a sort column comes only with its field', async () => {
    expect((await narrow('links', [])).map((row) => Object.keys(row))).toEqual(Array.from({ length: 6 }, () => ['_key']));
    // A sources' sort column (here the anchor itself) is carried as _o_<field> when the field is named, and only then.
    const sorting = { ...SQL_SOURCES, sortKeys: { anchor: 'anchor', source_url: 'source_url' } };
    const withAnchor = await narrow('links', ['anchor'], undefined, sorting);
    expect(withAnchor.map(({ _key, ...row }) => row).sort((a, b) => (String(a.anchor) < String(b.anchor) ? -1 : 1))).toEqual([
      { anchor: 'Example', _o_anchor: 'Example' },
      { anchor: 'Example', _o_anchor: 'Example' },
      { anchor: 'Example', _o_anchor: 'Example' },
      { anchor: 'blog', _o_anchor: 'blog' },
      { anchor: 'blog', _o_anchor: 'blog' },
      { anchor: 'www', _o_anchor: 'www' },
    ]);
    expect(Object.keys((await narrow('links', ['page_score'], undefined, sorting))[0]!)).toEqual(['_key', 'page_score']);
  });
});
