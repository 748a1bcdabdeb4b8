/**
 * Unknown is not a value (issue 50, point 4), on every store, answered from the rollups and from
 * the links grouped per call: links of an export without IPs are stored with `ip_address` '' (as
 * every export format without an IP column stores them, docs/importing.md), and an empty IP is no
 * IP: overview's `ips_count` and `ip_class_c_count` count only known IPs, ref-ips lists no '' row
 * (its total and its price count none). A domain record's empty country is no country in an IP's
 * country, and a referring domain without a record has no known score in score-profile. Then a
 * second load gives some of the links IPs (and one referring domain a record): the rollups of the
 * domains it touched are refreshed.
 *
 * Every expected value is counted by hand from the links below.
 *
 * noip.test (an export without IPs, no domain records; as a Semrush or Majestic import stores it):
 *
 * | link | source | target | IP (load 1) | IP (load 2) |
 * | --- | --- | --- | --- | --- |
 * | N1 | a.org/1 | noip.test/ | '' | 203.0.113.1 |
 * | N2 | a.org/2 | noip.test/x | '' | (not in load 2: '') |
 * | N3 | b.net/ | noip.test/ | '' | 203.0.113.2 |
 * | N4 | c.io/ (an image link) | www.noip.test/ | '' | (not in load 2: '') |
 *
 * mixed.test (some links with IPs, some without):
 *
 * | link | source | target | IP (load 1) | IP (load 2) |
 * | --- | --- | --- | --- | --- |
 * | M1 | d.org/1 | mixed.test/ | 192.0.2.10 | (not in load 2) |
 * | M2 | e.org/1 | mixed.test/ | 192.0.2.10 | (not in load 2) |
 * | M3 | f.org/1 | mixed.test/a | 198.51.100.5 | (not in load 2) |
 * | M4 | g.org/1 | mixed.test/a | '' | 198.51.100.5 |
 * | M5 | d.org/2 | mixed.test/b | '' | 10.1.2.3 |
 * | M6 | h.org/1 | blog.mixed.test/ | 192.0.2.99 | (not in load 2) |
 *
 * Domain records: d.org (country FR, score 30), e.org (country '', score 0: a record derived from
 * links has no country), g.org (no IP, no country, score 12); load 2 adds b.net (US, 40). a.org,
 * c.io, f.org and h.org have none.
 */
import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { loadServerDeps } from '../../../src/server/deps.js';
import { createServer } from '../../../src/server/server.js';
import type { ClickhouseStore } from '../../../src/server/store/engines/clickhouse/clickhouse-store.js';
import { createSqlStore } from '../../../src/server/store/engines/sql-engine.js';
import type { DomainInput, LinkInput } from '../../../src/server/store/inputs.js';
import type { Store } from '../../../src/server/store/store.js';
import { fileTempDir } from '../../helpers/file-end.js';
import * as fx from '../support/fixture.js';
import { emptyStore, get, STORE_KIND, type TestStore } from '../support/helpers.js';

const base: LinkInput = {
  source_url: '', target_url: '', anchor: '', redirect_url: '', source_title: '', target_title: '', image_url: '', image_alt: '',
  ip_address: '', lang: '', source_size: 0, external_links_count: 0, internal_links_count: 0, response_code: 200,
  page_score: 0, domain_score: 0, first_seen_at: '', last_seen_at: '2026-06-01T00:00:00', source_domain: '',
  is_nofollow: false, is_ugc: false, is_sponsored: false, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false,
  is_lost: false,
};

const link = (source_url: string, target_url: string, anchor: string, ip_address: string, first_seen_at: string, extra: Partial<LinkInput> = {}): LinkInput => ({
  ...base, source_url, target_url, anchor, ip_address, first_seen_at, source_domain: new URL(source_url).hostname, ...extra,
});

const N1 = link('https://a.org/1', 'https://noip.test/', 'one', '', '2025-01-01T00:00:00');
const N2 = link('https://a.org/2', 'https://noip.test/x', 'two', '', '2025-02-01T00:00:00');
const N3 = link('https://b.net/', 'https://noip.test/', 'three', '', '2025-03-01T00:00:00');
const N4 = link('https://c.io/', 'https://www.noip.test/', '', '', '2025-04-01T00:00:00', { is_image: true, image_url: 'https://c.io/logo.png' });
const M1 = link('https://d.org/1', 'https://mixed.test/', 'm1', '192.0.2.10', '2025-01-10T00:00:00');
const M2 = link('https://e.org/1', 'https://mixed.test/', 'm2', '192.0.2.10', '2025-01-20T00:00:00');
const M3 = link('https://f.org/1', 'https://mixed.test/a', 'm3', '198.51.100.5', '2025-02-10T00:00:00');
const M4 = link('https://g.org/1', 'https://mixed.test/a', 'm4', '', '2025-02-20T00:00:00');
const M5 = link('https://d.org/2', 'https://mixed.test/b', 'm5', '', '2025-03-10T00:00:00');
const M6 = link('https://h.org/1', 'https://blog.mixed.test/', 'm6', '192.0.2.99', '2025-03-20T00:00:00');

const DOMAINS: DomainInput[] = [
  { domain: 'd.org', ip_address: '192.0.2.10', country: 'FR', domain_score: 30 },
  { domain: 'e.org', ip_address: '192.0.2.10', country: '', domain_score: 0 },
  { domain: 'g.org', ip_address: '', country: '', domain_score: 12 },
];

/** The second load: the same links (same identity: they replace the stored ones) with IPs, and b.net's record. */
const SECOND_LINKS = [{ ...N1, ip_address: '203.0.113.1' }, { ...N3, ip_address: '203.0.113.2' }, { ...M4, ip_address: '198.51.100.5' }, { ...M5, ip_address: '10.1.2.3' }];
const SECOND_DOMAINS: DomainInput[] = [{ domain: 'b.net', ip_address: '203.0.113.2', country: 'US', domain_score: 40 }];

const LAST = '2026-06-01T00:00:00';
const ip = (ip_address: string, country: string, backlinks_count: number, domains_count: number, first_seen_at: string) =>
  ({ ip_address, country, backlinks_count, domains_count, first_seen_at, last_seen_at: LAST });

/** What one target answers: overview's link, domain and IP counts, ref-ips by IP ascending, score-profile. */
interface Expected {
  readonly url: string;
  readonly scope: string;
  readonly overview: { backlinks_count: number; domains_count: number; ips_count: number; ip_class_c_count: number };
  readonly refIps: ReturnType<typeof ip>[];
  /** Where the scope has one (not SUBFOLDER below the host, which is answered like the others but left out here). */
  readonly scoreProfile?: { domain_score: number; domains_count: number }[];
}

const BEFORE: readonly Expected[] = [
  // N1-N4: 4 links from a.org, b.net, c.io; no IP at all.
  { url: 'noip.test', scope: 'ROOT_DOMAIN', overview: { backlinks_count: 4, domains_count: 3, ips_count: 0, ip_class_c_count: 0 }, refIps: [], scoreProfile: [] },
  { url: 'www.noip.test', scope: 'SUBDOMAIN', overview: { backlinks_count: 1, domains_count: 1, ips_count: 0, ip_class_c_count: 0 }, refIps: [], scoreProfile: [] },
  { url: 'noip.test/', scope: 'PAGE', overview: { backlinks_count: 2, domains_count: 2, ips_count: 0, ip_class_c_count: 0 }, refIps: [], scoreProfile: [] },
  {
    // M1-M6 from d, e, f, g, h: IPs 192.0.2.10 (M1, M2), 198.51.100.5 (M3), 192.0.2.99 (M6) in two /24s.
    // 192.0.2.10's country: d.org's FR (e.org's '' is none). f.org and h.org have no record: ''.
    // Scores: d.org 30, e.org 0, g.org 12; f.org and h.org unknown.
    url: 'mixed.test', scope: 'ROOT_DOMAIN',
    overview: { backlinks_count: 6, domains_count: 5, ips_count: 3, ip_class_c_count: 2 },
    refIps: [ip('192.0.2.10', 'FR', 2, 2, '2025-01-10T00:00:00'), ip('192.0.2.99', '', 1, 1, '2025-03-20T00:00:00'), ip('198.51.100.5', '', 1, 1, '2025-02-10T00:00:00')],
    scoreProfile: [{ domain_score: 0, domains_count: 1 }, { domain_score: 12, domains_count: 1 }, { domain_score: 30, domains_count: 1 }],
  },
  // M3 (198.51.100.5) and M4 (no IP); a folder below the host is grouped from the links on every store.
  { url: 'mixed.test/a', scope: 'SUBFOLDER', overview: { backlinks_count: 2, domains_count: 2, ips_count: 1, ip_class_c_count: 1 }, refIps: [ip('198.51.100.5', '', 1, 1, '2025-02-10T00:00:00')] },
  // M5 only, no IP.
  { url: 'mixed.test/b', scope: 'PAGE', overview: { backlinks_count: 1, domains_count: 1, ips_count: 0, ip_class_c_count: 0 }, refIps: [], scoreProfile: [{ domain_score: 30, domains_count: 1 }] },
];

const AFTER: readonly Expected[] = [
  // N1 203.0.113.1, N3 203.0.113.2 (one /24); N2 and N4 still without. b.net now has a record (US, 40).
  {
    url: 'noip.test', scope: 'ROOT_DOMAIN',
    overview: { backlinks_count: 4, domains_count: 3, ips_count: 2, ip_class_c_count: 1 },
    refIps: [ip('203.0.113.1', '', 1, 1, '2025-01-01T00:00:00'), ip('203.0.113.2', 'US', 1, 1, '2025-03-01T00:00:00')],
    scoreProfile: [{ domain_score: 40, domains_count: 1 }],
  },
  { url: 'www.noip.test', scope: 'SUBDOMAIN', overview: { backlinks_count: 1, domains_count: 1, ips_count: 0, ip_class_c_count: 0 }, refIps: [], scoreProfile: [] },
  {
    url: 'noip.test/', scope: 'PAGE',
    overview: { backlinks_count: 2, domains_count: 2, ips_count: 2, ip_class_c_count: 1 },
    refIps: [ip('203.0.113.1', '', 1, 1, '2025-01-01T00:00:00'), ip('203.0.113.2', 'US', 1, 1, '2025-03-01T00:00:00')],
    scoreProfile: [{ domain_score: 40, domains_count: 1 }],
  },
  {
    // + M5's 10.1.2.3 (a third /24; d.org's FR); M4 joins M3 on 198.51.100.5 (f.org none, g.org '': '').
    url: 'mixed.test', scope: 'ROOT_DOMAIN',
    overview: { backlinks_count: 6, domains_count: 5, ips_count: 4, ip_class_c_count: 3 },
    refIps: [
      ip('10.1.2.3', 'FR', 1, 1, '2025-03-10T00:00:00'), ip('192.0.2.10', 'FR', 2, 2, '2025-01-10T00:00:00'),
      ip('192.0.2.99', '', 1, 1, '2025-03-20T00:00:00'), ip('198.51.100.5', '', 2, 2, '2025-02-10T00:00:00'),
    ],
    scoreProfile: [{ domain_score: 0, domains_count: 1 }, { domain_score: 12, domains_count: 1 }, { domain_score: 30, domains_count: 1 }],
  },
  { url: 'mixed.test/a', scope: 'SUBFOLDER', overview: { backlinks_count: 2, domains_count: 2, ips_count: 1, ip_class_c_count: 1 }, refIps: [ip('198.51.100.5', '', 2, 2, '2025-02-10T00:00:00')] },
  { url: 'mixed.test/b', scope: 'PAGE', overview: { backlinks_count: 1, domains_count: 1, ips_count: 1, ip_class_c_count: 1 }, refIps: [ip('10.1.2.3', 'FR', 1, 1, '2025-03-10T00:00:00')], scoreProfile: [{ domain_score: 30, domains_count: 1 }] },
];

const ledgerFolder = fileTempDir('bq-unknown-values-');

/** The same database answered from the links grouped per call (`rollups: false`), closed by `close`. */
async function linksView(store: TestStore): Promise<{ store: Store; close(): Promise<void> }> {
  const { tldts } = await loadServerDeps();
  if (STORE_KIND === 'clickhouse') {
    const { openClickhouseStore } = await import('../../../src/server/store/engines/clickhouse/clickhouse-store.js');
    const { openLedgerAt } = await import('../../../src/server/store/open.js');
    const urls = inject('clickhouseClusterUrl')!.split(',');
    const ledger = await openLedgerAt({ kind: 'sqlite', file: join(ledgerFolder(), `${Math.random().toString(36).slice(2)}.db`) });
    const view = await openClickhouseStore({ urls, database: (store as unknown as ClickhouseStore).shards[0]!.database, parser: tldts, ledger, rollups: false });
    return { store: view, close: () => view.close() };
  }
  return { store: createSqlStore(store.connection, { parser: tldts, rollups: false }), close: async () => {} };
}

let store: TestStore;
let links: Awaited<ReturnType<typeof linksView>>;
const apps: Record<'rollups' | 'links', FastifyInstance> = {} as never;

beforeAll(async () => {
  store = await emptyStore();
  const writer = await store.writer();
  await writer.domains(DOMAINS);
  await writer.links([N1, N2, N3, N4, M1, M2, M3, M4, M5, M6]);
  await writer.finish();
  links = await linksView(store);
  const options = { keys: fx.KEYS, now: () => fx.NOW, rateLimits: { perSecond: 1_000_000, concurrent: 1_000_000 }, ledger: store.ledger };
  apps.rollups = await createServer({ ...options, store });
  apps.links = await createServer({ ...options, store: links.store });
});

afterAll(async () => {
  await apps.rollups?.close();
  await apps.links?.close();
  await links?.close();
  await store?.close();
});

async function expectAnswers(app: FastifyInstance, expected: readonly Expected[]): Promise<void> {
  for (const target of expected) {
    const label = `${target.scope} ${target.url}`;
    const query = { url: target.url, scope: target.scope };
    const overview = await get(app, 'overview', query);
    expect(overview.statusCode, overview.body).toBe(200);
    const counts = overview.json().data;
    expect({ backlinks_count: counts.backlinks_count, domains_count: counts.domains_count, ips_count: counts.ips_count, ip_class_c_count: counts.ip_class_c_count }, `overview ${label}`).toEqual(target.overview);

    const refIps = await get(app, 'ref-ips', { ...query, order_by: 'ip_address', direction: 'ASC' });
    expect(refIps.statusCode, refIps.body).toBe(200);
    expect(refIps.json().data, `ref-ips ${label}`).toEqual(target.refIps);
    expect(refIps.json().meta.total, `ref-ips total ${label}`).toBe(target.refIps.length);
    // 20 units per line: a row for '' would be charged.
    expect(refIps.headers['x-units-charged'], `ref-ips price ${label}`).toBe(String(20 * target.refIps.length));
    // Filtered for the empty IP: nothing.
    const empty = await get(app, 'ref-ips', { ...query, filter: `ip_address = ''` });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json().meta.total, `ref-ips of '' ${label}`).toBe(0);

    if (target.scoreProfile !== undefined) {
      const profile = await get(app, 'score-profile', query);
      expect(profile.statusCode, profile.body).toBe(200);
      expect(profile.json().data, `score-profile ${label}`).toEqual(target.scoreProfile);
    }
  }
}

describe(`unknown values are no values (${STORE_KIND})`, () => {
  it('an export without IPs, and one with some: no empty IP counted or listed, from the rollups and from the links; the empty country and a domain without a record count as none', async () => {
    await expectAnswers(apps.rollups, BEFORE);
    await expectAnswers(apps.links, BEFORE);
  });

  it('a second load gives some links IPs and a referring domain a record: the refreshed rollups count them, and still no empty IP', async () => {
    const writer = await store.writer();
    await writer.domains(SECOND_DOMAINS);
    await writer.links(SECOND_LINKS);
    await writer.finish();
    await expectAnswers(apps.rollups, AFTER);
    await expectAnswers(apps.links, AFTER);
    // The links themselves keep the empty value the interface shows (N2, N4 and the image link's anchor).
    const shown = await get(apps.rollups, 'links', { url: 'noip.test', scope: 'ROOT_DOMAIN', order_by: 'first_seen_at', direction: 'ASC', fields: 'ip_address,anchor,first_seen_at' });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().data).toEqual([
      { ip_address: '203.0.113.1', anchor: 'one', first_seen_at: '2025-01-01T00:00:00' },
      { ip_address: '', anchor: 'two', first_seen_at: '2025-02-01T00:00:00' },
      { ip_address: '203.0.113.2', anchor: 'three', first_seen_at: '2025-03-01T00:00:00' },
      { ip_address: '', anchor: '', first_seen_at: '2025-04-01T00:00:00' },
    ]);
  });
});
