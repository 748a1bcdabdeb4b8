/**
 * A small link graph whose answers are worked out by hand in the tests (docs/operations.md says
 * how each is derived). Clock: 2026-06-15T12:00:00Z, so "new" means first seen on or after
 * 2026-05-16T12:00:00 and the current month is 2026-06. Four links to boundary.com sit on that
 * instant, one second either side of it and at the next midnight (see {@link boundaryLinks}).
 */
import type { DomainInput, KeywordSnapshotInput, LinkInput, TargetPageInput } from '../../../src/server/sample/dataset.js';
import type { Store } from '../../../src/server/store/store.js';

export const NOW = new Date('2026-06-15T12:00:00Z');

export const KEYS = [
  { id: 'tester', key: 'test-key-0001', units: 1_000_000 },
  { id: 'poor', key: 'poor-key-0002', units: 50 },
] as const;

export const domains: DomainInput[] = [
  { domain: 'example.com', ip_address: '93.184.216.34', country: 'US', domain_score: 70 },
  { domain: 'rival.com', ip_address: '93.184.216.35', country: 'US', domain_score: 50 },
  { domain: 'other.co.uk', ip_address: '93.184.216.36', country: 'UK', domain_score: 45 },
  { domain: 'third.com', ip_address: '93.184.216.37', country: 'US', domain_score: 20 },
  { domain: 'alpha.org', ip_address: '198.51.100.1', country: 'US', domain_score: 60 },
  { domain: 'beta.net', ip_address: '198.51.100.7', country: 'US', domain_score: 60 },
  { domain: 'gamma.io', ip_address: '203.0.113.5', country: 'DE', domain_score: 80 },
  { domain: 'delta.de', ip_address: '192.0.2.44', country: 'DE', domain_score: 25 },
  { domain: 'epsilon.fr', ip_address: '192.0.2.45', country: 'FR', domain_score: 15 },
  { domain: 'zeta.com', ip_address: '198.51.100.20', country: 'NL', domain_score: 55 },
  { domain: 'eta.com', ip_address: '203.0.113.77', country: 'US', domain_score: 33 },
  { domain: 'theta.com', ip_address: '203.0.113.78', country: 'US', domain_score: 33 },
  { domain: 'iota.com', ip_address: '203.0.113.79', country: 'CA', domain_score: 5 },
];

export const pages: TargetPageInput[] = [
  { url: 'https://example.com/', title: 'Example Domain', response_code: 200, page_score: 66, external_links_count: 1, internal_links_count: 5 },
  { url: 'https://example.com/blog', title: 'Blog', response_code: 200, page_score: 40, external_links_count: 3, internal_links_count: 20 },
];

/** A link with every field at a plain value, for fixtures to spread and override. */
export const linkDefaults: LinkInput = {
  source_url: '', target_url: '', anchor: '', redirect_url: '', source_title: '', target_title: '', image_url: '', image_alt: '',
  ip_address: '', lang: 'en', source_size: 1000, external_links_count: 10, internal_links_count: 20, response_code: 200,
  page_score: 10, domain_score: 10, first_seen_at: '2025-01-01T00:00:00', last_seen_at: '2026-06-01T00:00:00', source_domain: '',
  is_nofollow: false, is_ugc: false, is_sponsored: false, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false,
  is_lost: false,
};

/** The seven links to example.com (ids 1-7, in this order). */
export const exampleLinks: LinkInput[] = [
  { ...linkDefaults, source_url: 'https://alpha.org/post-1', target_url: 'https://example.com/', anchor: 'Example', source_title: 'Alpha post 1',
    ip_address: '198.51.100.1', source_size: 1000, external_links_count: 10, internal_links_count: 20, page_score: 50, domain_score: 60,
    first_seen_at: '2024-01-10T08:00:00', last_seen_at: '2026-06-01T00:00:00', source_domain: 'alpha.org' },
  { ...linkDefaults, source_url: 'https://alpha.org/post-2', target_url: 'https://www.example.com/blog/seo-tips', anchor: 'seo tips',
    source_title: 'Alpha post 2', ip_address: '198.51.100.1', source_size: 2000, external_links_count: 5, internal_links_count: 15,
    page_score: 45, domain_score: 60, first_seen_at: '2025-03-05T10:00:00', last_seen_at: '2026-06-10T00:00:00', source_domain: 'alpha.org',
    is_nofollow: true },
  { ...linkDefaults, source_url: 'https://beta.net/links', target_url: 'http://blog.example.com/2024/hello', anchor: 'click here',
    source_title: 'Beta links', ip_address: '198.51.100.7', source_size: 500, external_links_count: 50, internal_links_count: 2,
    page_score: 30, domain_score: 60, first_seen_at: '2026-05-20T09:30:00', last_seen_at: '2026-06-12T00:00:00', source_domain: 'beta.net',
    is_nofollow: true, is_ugc: true, is_sitewide_main: true },
  { ...linkDefaults, source_url: 'https://gamma.io/review', target_url: 'https://example.com/blog', anchor: 'Example', source_title: 'Gamma review',
    redirect_url: 'https://example.com/old-blog', ip_address: '203.0.113.5', lang: 'de', source_size: 3000, external_links_count: 8,
    internal_links_count: 30, page_score: 70, domain_score: 80, first_seen_at: '2025-11-01T00:00:00', last_seen_at: '2026-02-01T00:00:00',
    source_domain: 'gamma.io', is_nofollow: true, is_sponsored: true, is_lost: true },
  { ...linkDefaults, source_url: 'https://gamma.io/review', target_url: 'https://example.com/blog/', anchor: '', source_title: 'Gamma review',
    image_url: 'https://gamma.io/logo.png', image_alt: 'Example logo', ip_address: '203.0.113.5', lang: 'de', source_size: 3000,
    external_links_count: 8, internal_links_count: 30, page_score: 70, domain_score: 80, first_seen_at: '2025-11-01T00:00:00',
    last_seen_at: '2026-06-14T00:00:00', source_domain: 'gamma.io', is_image: true },
  { ...linkDefaults, source_url: 'https://delta.de/a;b', target_url: 'https://example.com/blogging', anchor: 'semi;colon "quote"\nnewline',
    source_title: 'Delta; "quoted"', ip_address: '192.0.2.44', lang: 'de', source_size: 800, external_links_count: 3, internal_links_count: 4,
    response_code: 301, page_score: 20, domain_score: 25, first_seen_at: '2026-06-01T00:00:00', last_seen_at: '2026-06-14T00:00:00',
    source_domain: 'delta.de', is_frame: true },
  { ...linkDefaults, source_url: 'https://epsilon.fr/', target_url: 'https://example.com/?ref=1', anchor: 'Example', source_title: 'Epsilon',
    ip_address: '192.0.2.45', lang: 'fr', source_size: 100, external_links_count: 1, internal_links_count: 1, response_code: 404,
    page_score: 10, domain_score: 15, first_seen_at: '2023-12-31T23:59:59', last_seen_at: '2024-06-30T00:00:00', source_domain: 'epsilon.fr',
    is_form: true, is_lost: true },
];

const ipOf = (domain: string) => domains.find((d) => d.domain === domain)!.ip_address;
const simple = (source: string, target: string, extra: Partial<LinkInput> = {}): LinkInput => ({
  ...linkDefaults, source_url: `https://${source}/`, target_url: target, anchor: 'link', source_domain: source, ip_address: ipOf(source), ...extra,
});

/** rival.com: 6 referring domains, 5 shared with example.com. */
export const rivalLinks: LinkInput[] = ['alpha.org', 'beta.net', 'gamma.io', 'delta.de', 'epsilon.fr', 'zeta.com'].map((d) =>
  simple(d, 'https://rival.com/', d === 'zeta.com' ? { is_nofollow: true } : {}),
);
/** other.co.uk: 9 referring domains (5 shared with example.com), some on a subdomain. */
export const otherLinks: LinkInput[] = ['alpha.org', 'beta.net', 'gamma.io', 'delta.de', 'epsilon.fr', 'zeta.com', 'eta.com', 'theta.com', 'iota.com'].map(
  (d, i) => simple(d, i % 2 === 0 ? 'https://blog.other.co.uk/' : 'https://other.co.uk/x'),
);
/** third.com: only 4 shared referring domains, so never a competitor. */
export const thirdLinks: LinkInput[] = ['alpha.org', 'beta.net', 'gamma.io', 'delta.de'].map((d) => simple(d, 'https://third.com/'));

/**
 * boundary.com: four links around the instant "new" starts (2026-05-16T12:00:00, 30 days before
 * NOW), each from a referring domain of its own that links nowhere else, so no other target's
 * answer changes: B1 one second before it (not new), B2 exactly on it (new: "at or after"), B3 one
 * second after it (new), B4 at the next midnight (new; a later day than the one "new" starts on,
 * which the rollups count per day). B1-B3 point into the folder /news, B4 at the home page.
 */
export const boundaryLinks: LinkInput[] = [
  { ...linkDefaults, source_url: 'https://second-before.org/', target_url: 'https://boundary.com/news/a', anchor: 'B1', source_domain: 'second-before.org',
    ip_address: '198.18.0.1', first_seen_at: '2026-05-16T11:59:59', last_seen_at: '2026-06-14T00:00:00' },
  { ...linkDefaults, source_url: 'https://on-the-second.org/', target_url: 'https://boundary.com/news/b', anchor: 'B2', source_domain: 'on-the-second.org',
    ip_address: '198.18.0.2', first_seen_at: '2026-05-16T12:00:00', last_seen_at: '2026-06-14T00:00:00' },
  { ...linkDefaults, source_url: 'https://second-after.org/', target_url: 'https://boundary.com/news/c', anchor: 'B3', source_domain: 'second-after.org',
    ip_address: '198.18.0.3', first_seen_at: '2026-05-16T12:00:01', last_seen_at: '2026-06-14T00:00:00' },
  { ...linkDefaults, source_url: 'https://next-midnight.org/', target_url: 'https://boundary.com/', anchor: 'B4', source_domain: 'next-midnight.org',
    ip_address: '198.18.0.4', first_seen_at: '2026-05-17T00:00:00', last_seen_at: '2026-06-14T00:00:00' },
];

const metrics = (month: string, snapshot: string, volume: string): KeywordSnapshotInput => ({
  keyword: 'seo tools', country: 'US', month, snapshot_at: snapshot, search_volume: volume, cpc: '2.35', competitive_density: 87,
  keyword_difficulty: 64, number_of_results: '1250000000', intents: ['COMMERCIAL', 'INFORMATIONAL'],
  serp_features: ['SITELINKS', 'PEOPLE_ALSO_ASK'], trends: [50, 55, 60, 58, 62, 70, 75, 80, 78, 85, 90, 100],
});

export const keywordSnapshots: KeywordSnapshotInput[] = [
  metrics('2026-05', '2026-05-03T00:00:00', '40500'),
  metrics('2026-05', '2026-05-20T00:00:00', '49500'),
  metrics('2026-06', '2026-06-02T00:00:00', '60500'),
];

/** Writes the fixture through a store's bulk writer (links in fixture order: ids 1, 2, ...). */
export async function loadFixture(store: Store): Promise<void> {
  const writer = await store.writer();
  await writer.domains(domains);
  await writer.pages(pages);
  await writer.links([...exampleLinks, ...rivalLinks, ...otherLinks, ...thirdLinks, ...boundaryLinks]);
  await writer.keywords(keywordSnapshots);
  await writer.finish();
}
