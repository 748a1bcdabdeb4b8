/**
 * SUBFOLDER lists below the host (no rollup key of their own): the embedded store reads them on its
 * column side, with the rollup rows of the folder's pages where those add up, and keeps them in the
 * list's window; SQLite alone groups the links. Both must give the rows below, worked out by hand
 * from docs/operations.md ("Lists grouped from the target's links"), filtered, sorted and paged,
 * first call and again.
 *
 * Now 2026-06-15T12:00:00Z: "new" is first seen at or after 2026-05-16T12:00:00. The folder
 * www.shop.test/blog holds the page itself, anything below `/blog/` and `/blog?...`:
 *
 * | link | source | target path | anchor | link IP | first seen | last seen | nofollow | lost |
 * | --- | --- | --- | --- | --- | --- | --- | --- | --- |
 * | K1 | a.org/1 | /blog | blog | 10.0.0.1 | 2026-01-01 | 2026-06-01 | no | no |
 * | K2 | a.org/2 | /blog/post-1 | post | 10.0.0.1 | 2026-06-01 (new) | 2026-06-10 | yes | yes |
 * | K3 | b.net/x | /blog/post-1 | post | 10.0.0.9 | 2025-05-01 | 2026-02-01 | yes | no |
 * | K4 | c.io/y | /blog?page=2 | blog | 10.0.0.9 | 2026-05-20 (new) | 2026-06-12 | no | yes |
 * | K5 | d.dev/z | /blog/a/b | Deep | (none) | 2025-12-01 | 2026-03-01 | no | no |
 * | K6 | a.org/3 | /blog/ | blog | 10.0.0.1 | 2026-02-01 | 2026-04-01 | no | yes |
 * | K7 | e.net/w | /blog/a/b | post | 10.0.0.9 | 2025-08-01 | 2026-05-01 | yes | yes |
 *
 * Outside it, each from a referring domain above (so that any of them let in changes a count):
 * www.shop.test/blogging, /blog-x, /blog0, /blog.html, /, and shop.test/blog/post-1 (another host).
 *
 * Domains: a.org (10.0.0.1, US, 40), b.net (10.0.0.2, DE, 25), c.io (10.0.0.3, no country, 70),
 * e.net (10.0.0.5, FR, 40), shop.test (score 12); d.dev has no record. Target page:
 * https://www.shop.test/blog ("Blog", 301, 3 external and 9 internal links); the other pages have
 * no record.
 *
 * The folder www.shop.test/v6, for the overview, holds six followed, live, old links from f.org
 * (IPs 2001:db8::1 and 2001:db8::2), g.org (1.2.3.4, 1.2.3.5) and h.org (1.2.4.4, 1..2.3): six IPs,
 * and five /24 networks (an IP of other than four parts is its own: 2001:db8::1, 2001:db8::2, 1.2.3,
 * 1.2.4, 1..2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockAt } from '../../../../../src/server/clock.js';
import { loadServerDeps } from '../../../../../src/server/deps.js';
import type { DomainInput, LinkInput } from '../../../../../src/server/store/inputs.js';
import { openEmbeddedStore } from '../../../../../src/server/store/engines/embedded/embedded-store.js';
import { openSqliteStore } from '../../../../../src/server/store/engines/sqlite/sqlite-store.js';
import type { GroupedOperation, Page, Store } from '../../../../../src/server/store/store.js';
import { toTarget, type Target } from '../../../../../src/server/target.js';
import { parseFilter } from '../../../../../src/syntax/parse.js';
import { linkDefaults } from '../../../support/fixture.js';

const clock = clockAt(new Date('2026-06-15T12:00:00Z'));

const link = (source: string, path: string, anchor: string, ip: string, first: string, last: string, nofollow: boolean, lost: boolean, host = 'www.shop.test'): LinkInput => ({
  ...linkDefaults, source_url: `https://${source}`, target_url: `https://${host}${path}`, anchor, ip_address: ip, source_domain: source.split('/')[0]!,
  first_seen_at: `${first}T00:00:00`, last_seen_at: `${last}T00:00:00`, is_nofollow: nofollow, is_lost: lost,
});

const LINKS: LinkInput[] = [
  link('a.org/1', '/blog', 'blog', '10.0.0.1', '2026-01-01', '2026-06-01', false, false),
  link('a.org/2', '/blog/post-1', 'post', '10.0.0.1', '2026-06-01', '2026-06-10', true, true),
  link('b.net/x', '/blog/post-1', 'post', '10.0.0.9', '2025-05-01', '2026-02-01', true, false),
  link('c.io/y', '/blog?page=2', 'blog', '10.0.0.9', '2026-05-20', '2026-06-12', false, true),
  link('d.dev/z', '/blog/a/b', 'Deep', '', '2025-12-01', '2026-03-01', false, false),
  link('a.org/3', '/blog/', 'blog', '10.0.0.1', '2026-02-01', '2026-04-01', false, true),
  link('e.net/w', '/blog/a/b', 'post', '10.0.0.9', '2025-08-01', '2026-05-01', true, true),
  // Outside the folder.
  link('a.org/9', '/blogging', 'blog', '10.0.0.1', '2026-01-01', '2026-06-01', false, false),
  link('b.net/9', '/blog-x', 'post', '10.0.0.9', '2026-01-01', '2026-06-01', false, false),
  link('c.io/9', '/blog0', 'blog', '10.0.0.9', '2026-01-01', '2026-06-01', false, false),
  link('e.net/9', '/blog.html', 'Deep', '10.0.0.9', '2026-01-01', '2026-06-01', false, false),
  link('b.net/8', '/', 'home', '10.0.0.2', '2026-01-01', '2026-06-01', false, false),
  link('d.dev/9', '/blog/post-1', 'post', '10.0.0.9', '2026-01-01', '2026-06-01', false, false, 'shop.test'),
  // The folder www.shop.test/v6, for its overview: IPs of other forms than four parts.
  link('f.org/1', '/v6/a', 'v6', '2001:db8::1', '2025-01-01', '2026-06-01', false, false),
  link('f.org/2', '/v6/b', 'v6', '2001:db8::2', '2025-01-01', '2026-06-01', false, false),
  link('g.org/1', '/v6', 'v6', '1.2.3.4', '2025-01-01', '2026-06-01', false, false),
  link('g.org/2', '/v6/c', 'v6', '1.2.3.5', '2025-01-01', '2026-06-01', false, false),
  link('h.org/1', '/v6/c', 'v6', '1.2.4.4', '2025-01-01', '2026-06-01', false, false),
  link('h.org/2', '/v6?x', 'v6', '1..2.3', '2025-01-01', '2026-06-01', false, false),
];
const DOMAINS: DomainInput[] = [
  { domain: 'a.org', ip_address: '10.0.0.1', country: 'US', domain_score: 40 },
  { domain: 'b.net', ip_address: '10.0.0.2', country: 'DE', domain_score: 25 },
  { domain: 'c.io', ip_address: '10.0.0.3', country: '', domain_score: 70 },
  { domain: 'e.net', ip_address: '10.0.0.5', country: 'FR', domain_score: 40 },
  // The target's own registrable domain: the score of its folders (their host has no record).
  { domain: 'shop.test', ip_address: '10.0.0.7', country: 'US', domain_score: 12 },
];

/** The referring domains of the folder, by domain. */
const REF_DOMAINS = {
  // K1, K2, K6: K1 is followed and live.
  'a.org': { domain: 'a.org', ip_address: '10.0.0.1', country: 'US', backlinks_count: 3, domain_score: 40, first_seen_at: '2026-01-01T00:00:00', last_seen_at: '2026-06-10T00:00:00', is_follow: true, is_new: false, is_lost: false },
  'b.net': { domain: 'b.net', ip_address: '10.0.0.2', country: 'DE', backlinks_count: 1, domain_score: 25, first_seen_at: '2025-05-01T00:00:00', last_seen_at: '2026-02-01T00:00:00', is_follow: false, is_new: false, is_lost: false },
  'c.io': { domain: 'c.io', ip_address: '10.0.0.3', country: '', backlinks_count: 1, domain_score: 70, first_seen_at: '2026-05-20T00:00:00', last_seen_at: '2026-06-12T00:00:00', is_follow: true, is_new: true, is_lost: true },
  // No record: no IP, no country, score 0.
  'd.dev': { domain: 'd.dev', ip_address: '', country: '', backlinks_count: 1, domain_score: 0, first_seen_at: '2025-12-01T00:00:00', last_seen_at: '2026-03-01T00:00:00', is_follow: true, is_new: false, is_lost: false },
  'e.net': { domain: 'e.net', ip_address: '10.0.0.5', country: 'FR', backlinks_count: 1, domain_score: 40, first_seen_at: '2025-08-01T00:00:00', last_seen_at: '2026-05-01T00:00:00', is_follow: false, is_new: false, is_lost: true },
};
/** Its referring IPs (K5 has none): 10.0.0.9 is b.net's (DE), c.io's (no country) and e.net's (FR) on three pages. */
const IP_1 = { ip_address: '10.0.0.1', country: 'US', backlinks_count: 3, domains_count: 1, first_seen_at: '2026-01-01T00:00:00', last_seen_at: '2026-06-10T00:00:00' };
const IP_9 = { ip_address: '10.0.0.9', country: 'DE', backlinks_count: 3, domains_count: 3, first_seen_at: '2025-05-01T00:00:00', last_seen_at: '2026-06-12T00:00:00' };
/** Its anchors: "blog" is a.org's on two pages (one domain) and c.io's. */
const BLOG = { anchor: 'blog', backlinks_count: 3, domains_count: 2, first_seen_at: '2026-01-01T00:00:00', last_seen_at: '2026-06-12T00:00:00' };
const POST = { anchor: 'post', backlinks_count: 3, domains_count: 3, first_seen_at: '2025-05-01T00:00:00', last_seen_at: '2026-06-10T00:00:00' };
const DEEP = { anchor: 'Deep', backlinks_count: 1, domains_count: 1, first_seen_at: '2025-12-01T00:00:00', last_seen_at: '2026-03-01T00:00:00' };
/** Its pages; only /blog has a record, the others show their linked URL, no title, 200 and no link counts. */
const PAGE = (path: string, backlinks: number, domains: number, first: string, last: string) => ({
  source_url: `https://www.shop.test${path}`, source_title: '', response_code: 200, backlinks_count: backlinks, domains_count: domains,
  external_links_count: 0, internal_links_count: 0, first_seen_at: `${first}T00:00:00`, last_seen_at: `${last}T00:00:00`,
});
const PAGES = {
  blog: { ...PAGE('/blog', 1, 1, '2026-01-01', '2026-06-01'), source_title: 'Blog', response_code: 301, external_links_count: 3, internal_links_count: 9 },
  'blog/': PAGE('/blog/', 1, 1, '2026-02-01', '2026-04-01'),
  'a/b': PAGE('/blog/a/b', 2, 2, '2025-08-01', '2026-05-01'),
  'post-1': PAGE('/blog/post-1', 2, 2, '2025-05-01', '2026-06-10'),
  query: PAGE('/blog?page=2', 1, 1, '2026-05-20', '2026-06-12'),
};

interface Case {
  readonly name: string;
  readonly operation: GroupedOperation;
  readonly filter: string | null;
  readonly page: Page;
  readonly total: number;
  /** The rows, or for links the source URLs. */
  readonly rows: readonly unknown[];
}

const page = (orderBy: string, direction: 'ASC' | 'DESC', limit = 100, offset = 0): Page => ({ orderBy, direction, limit, offset });
const CASES: Case[] = [
  { name: 'links, nofollow, oldest first', operation: 'links', filter: 'is_nofollow = true', page: page('first_seen_at', 'ASC'), total: 3, rows: ['https://b.net/x', 'https://e.net/w', 'https://a.org/2'] },
  { name: 'links, all, by anchor (code points: "Deep" first)', operation: 'links', filter: null, page: page('anchor', 'ASC', 3), total: 7, rows: ['https://d.dev/z', 'https://a.org/1', 'https://c.io/y'] },
  { name: 'ref-domains, all, by domain', operation: 'ref-domains', filter: null, page: page('domain', 'ASC'), total: 5, rows: Object.values(REF_DOMAINS) },
  {
    name: 'ref-domains, live, by score, second page',
    operation: 'ref-domains',
    filter: 'is_lost = false',
    page: page('domain_score', 'DESC', 2, 1),
    total: 3,
    rows: [REF_DOMAINS['b.net'], REF_DOMAINS['d.dev']],
  },
  { name: 'ref-domains, known country, oldest first', operation: 'ref-domains', filter: "country != ''", page: page('first_seen_at', 'ASC'), total: 3, rows: [REF_DOMAINS['b.net'], REF_DOMAINS['e.net'], REF_DOMAINS['a.org']] },
  { name: 'ref-ips, by country', operation: 'ref-ips', filter: null, page: page('country', 'ASC'), total: 2, rows: [IP_9, IP_1] },
  { name: 'ref-ips, more than one domain', operation: 'ref-ips', filter: 'domains_count > 1', page: page('backlinks_count', 'DESC'), total: 1, rows: [IP_9] },
  { name: 'anchors, by anchor (code points)', operation: 'anchors', filter: null, page: page('anchor', 'ASC'), total: 3, rows: [DEEP, BLOG, POST] },
  { name: "anchors, LIKE '%o%', by domains", operation: 'anchors', filter: "anchor LIKE '%o%'", page: page('domains_count', 'DESC'), total: 2, rows: [POST, BLOG] },
  { name: 'pages, by URL', operation: 'pages', filter: null, page: page('source_url', 'ASC'), total: 5, rows: [PAGES.blog, PAGES['blog/'], PAGES['a/b'], PAGES['post-1'], PAGES.query] },
  { name: 'pages, two links, by URL descending', operation: 'pages', filter: 'backlinks_count = 2', page: page('source_url', 'DESC'), total: 2, rows: [PAGES['post-1'], PAGES['a/b']] },
  { name: 'pages, by last seen, third and fourth', operation: 'pages', filter: null, page: page('last_seen_at', 'DESC', 2, 2), total: 5, rows: [PAGES.blog, PAGES['a/b']] },
];

const stores: { name: string; store: Store }[] = [];
let folder: Target;

beforeAll(async () => {
  const { tldts } = await loadServerDeps();
  folder = toTarget('www.shop.test/blog', 'SUBFOLDER', tldts)!;
  stores.push({ name: 'embedded', store: await openEmbeddedStore() }, { name: 'sqlite', store: await openSqliteStore() });
  for (const { store } of stores) {
    const writer = await store.writer();
    await writer.domains(DOMAINS);
    await writer.pages([{ url: 'https://www.shop.test/blog', title: 'Blog', response_code: 301, page_score: 30, external_links_count: 3, internal_links_count: 9 }]);
    await writer.links(LINKS);
    await writer.finish();
  }
});
afterAll(async () => {
  for (const { store } of stores) await store.close();
});

describe('SUBFOLDER lists below the host (www.shop.test/blog)', () => {
  for (const storeName of ['embedded', 'sqlite']) {
    for (const c of CASES) {
      it(`${storeName}: ${c.name}`, async () => {
        const { store } = stores.find((s) => s.name === storeName)!;
        const query = { target: folder, page: c.page, filter: c.filter === null ? null : parseFilter(c.filter, { operation: c.operation }), clock };
        // The first call, then again (from the window where the store keeps one).
        for (const call of ['first', 'again']) {
          const result = await store.grouped(c.operation, query);
          const rows = c.operation === 'links' ? result.rows.map((row) => (row as Record<string, unknown>)['source_url']) : result.rows;
          expect({ total: result.total, rows }, call).toEqual({ total: c.total, rows: c.rows });
        }
      });
    }
  }
});

describe('the score profile of SUBFOLDER targets below the host', () => {
  // a.org and e.net score 40, b.net 25, c.io 70; d.dev has no record (no known score): not counted.
  // No referring domain of www.shop.test/v6 has a record.
  const expected = {
    'www.shop.test/blog': [{ domain_score: 25, domains_count: 1 }, { domain_score: 40, domains_count: 2 }, { domain_score: 70, domains_count: 1 }],
    'www.shop.test/v6': [],
  };
  for (const storeName of ['embedded', 'sqlite']) {
    for (const [url, profile] of Object.entries(expected)) {
      it(`${storeName}: ${url}`, async () => {
        const { tldts } = await loadServerDeps();
        const { store } = stores.find((s) => s.name === storeName)!;
        expect(await store.scoreProfile(toTarget(url, 'SUBFOLDER', tldts)!)).toEqual(profile);
      });
    }
  }
});

describe('the overview of SUBFOLDER targets below the host', () => {
  const counts = { sponsored_count: 0, ugc_count: 0, frames_count: 0, forms_count: 0, images_count: 0 };
  const expected = {
    // K1-K7: 5 domains, 7 source URLs; K1, K4, K5, K6 followed; IPs 10.0.0.1 and 10.0.0.9, one /24
    // network; K2 and K4 new; K2, K4, K6 and K7 lost. The host has no record: shop.test's score.
    'www.shop.test/blog': {
      ...counts, backlinks_count: 7, domains_count: 5, urls_count: 7, follows_count: 4, nofollows_count: 3, texts_count: 7,
      ips_count: 2, ip_class_c_count: 1, new_count: 2, lost_count: 4, score: 12,
    },
    'www.shop.test/v6': {
      ...counts, backlinks_count: 6, domains_count: 3, urls_count: 6, follows_count: 6, nofollows_count: 0, texts_count: 6,
      ips_count: 6, ip_class_c_count: 5, new_count: 0, lost_count: 0, score: 12,
    },
  };
  for (const storeName of ['embedded', 'sqlite']) {
    for (const [url, overview] of Object.entries(expected)) {
      it(`${storeName}: ${url}`, async () => {
        const { tldts } = await loadServerDeps();
        const { store } = stores.find((s) => s.name === storeName)!;
        expect(await store.overview(toTarget(url, 'SUBFOLDER', tldts)!, clock)).toEqual(overview);
      });
    }
    it(`${storeName}: again at a later clock, only the new links differ`, async () => {
      const { tldts } = await loadServerDeps();
      const { store } = stores.find((s) => s.name === storeName)!;
      const target = toTarget('www.shop.test/blog', 'SUBFOLDER', tldts)!;
      await store.overview(target, clock);
      // 2026-06-24T12:00:00Z: new from 2026-05-25T12:00:00, K2 (2026-06-01) but no longer K4 (2026-05-20).
      const later = await store.overview(target, clockAt(new Date('2026-06-24T12:00:00Z')));
      expect(later).toEqual({ ...expected['www.shop.test/blog'], new_count: 1 });
    });
  }
});

describe('SUBFOLDER reads after a load: nothing kept from before it', () => {
  // One more link into the folder, loaded with its domain's record: iota.com/p (203.0.113.79, CA,
  // score 5) to /blog/new, followed, live, first seen 2026-03-01 (not new), from an IP of another /24 network.
  const more = link('iota.com/p', '/blog/new', 'new', '203.0.113.79', '2026-03-01', '2026-06-01', false, false);
  for (const [storeName, open] of [['embedded', () => openEmbeddedStore()], ['sqlite', () => openSqliteStore()]] as const) {
    it(`${storeName}: the overview, score profile and lists read before the load show it after`, async () => {
      const store = await open();
      try {
        const first = await store.writer();
        await first.domains(DOMAINS);
        await first.links(LINKS);
        await first.finish();
        const refDomains = () => store.grouped('ref-domains', { target: folder, page: page('backlinks_count', 'DESC'), filter: null, clock });
        const pagesOf = () => store.grouped('pages', { target: folder, page: page('backlinks_count', 'DESC'), filter: null, clock });
        // Read (and kept where the store keeps them) before the load.
        expect((await store.overview(folder, clock)).backlinks_count).toBe(7);
        expect(await store.scoreProfile(folder)).toHaveLength(3);
        expect((await refDomains()).total).toBe(5);
        expect((await pagesOf()).total).toBe(5);
        const second = await store.writer();
        await second.domains([{ domain: 'iota.com', ip_address: '203.0.113.79', country: 'CA', domain_score: 5 }]);
        await second.links([more]);
        await second.finish();
        const overview = await store.overview(folder, clock);
        expect(overview).toMatchObject({ backlinks_count: 8, domains_count: 6, urls_count: 8, follows_count: 5, texts_count: 8, ips_count: 3, ip_class_c_count: 2, new_count: 2, lost_count: 4 });
        expect(await store.scoreProfile(folder)).toEqual([
          { domain_score: 5, domains_count: 1 },
          { domain_score: 25, domains_count: 1 },
          { domain_score: 40, domains_count: 2 },
          { domain_score: 70, domains_count: 1 },
        ]);
        const domains = await refDomains();
        expect(domains.total).toBe(6);
        expect(domains.rows.map((row) => row.domain)).toContain('iota.com');
        expect((await pagesOf()).total).toBe(6);
      } finally {
        await store.close();
      }
    });
  }
});
