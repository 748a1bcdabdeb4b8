/**
 * A small link graph for order tests: in every list the sort key of the default `order_by` differs
 * from row to row (no ties), and the names are chosen so that neither the ascending nor the
 * descending order is the code-point order of the rows' keys (the tie-break), or its reverse.
 * Clock: 2026-06-15T12:00:00Z (the same as fixture.ts).
 *
 * target.com: ten links from four referring domains to four pages.
 *
 * | link | from      | to | anchor | page_score | link IP    | first seen |
 * | ---- | --------- | -- | ------ | ---------- | ---------- | ---------- |
 * | 1    | kilo.org  | /k | kiwi   | 37         | 10.0.0.3   | 2026-03-10 |
 * | 2    | alpha.org | /z | zebra  | 81         | 10.0.0.20  | 2026-05-02 |
 * | 3    | alpha.org | /k | kiwi   | 12         | 10.0.0.3   | 2026-02-20 |
 * | 4    | zulu.org  | /a | apple  | 64         | 10.0.0.20  | 2026-06-05 |
 * | 5    | zulu.org  | /z | zebra  | 5          | 10.0.0.20  | 2026-04-11 |
 * | 6    | zulu.org  | /k | kiwi   | 93         | 10.0.0.3   | 2026-02-03 |
 * | 7    | mike.org  | /m | mango  | 48         | 10.0.0.5   | 2026-05-25 |
 * | 8    | mike.org  | /a | apple  | 26         | 10.0.0.5   | 2026-03-28 |
 * | 9    | mike.org  | /z | zebra  | 70         | 10.0.0.5   | 2026-06-09 |
 * | 10   | mike.org  | /k | kiwi   | 59         | 10.0.0.5   | 2026-04-30 |
 *
 * So: links per domain kilo 1, alpha 2, zulu 3, mike 4; domains per page (and per anchor) /m 1,
 * /a 2, /z 3, /k 4; domains per link IP 10.0.0.5 1 (mike), 10.0.0.20 2 (alpha, zulu), 10.0.0.3 3
 * (kilo, alpha, zulu); domain scores kilo 44, alpha 17, zulu 90, mike 62.
 *
 * hub.com and its competitors, from referring domains r1.net .. r7.net, x1.net, x2.net:
 * hub.com from r1-r7; mu.com from r1-r6 (6 shared, similarity 6/7); xi.com from r1-r5 (5/7);
 * nu.com from r1-r5, x1, x2 (5 shared of 9: 5/9). target.com shares none with hub.com.
 */
import type { DomainInput, LinkInput } from '../../../src/server/sample/dataset.js';
import type { Store } from '../../../src/server/store/store.js';

export const domains: DomainInput[] = [
  { domain: 'target.com', ip_address: '10.9.9.9', country: 'US', domain_score: 50 },
  { domain: 'kilo.org', ip_address: '10.1.0.1', country: 'US', domain_score: 44 },
  { domain: 'alpha.org', ip_address: '10.1.0.2', country: 'FR', domain_score: 17 },
  { domain: 'zulu.org', ip_address: '10.1.0.3', country: 'DE', domain_score: 90 },
  { domain: 'mike.org', ip_address: '10.1.0.4', country: 'NL', domain_score: 62 },
];

const base: LinkInput = {
  source_url: '', target_url: '', anchor: '', redirect_url: '', source_title: '', target_title: '', image_url: '', image_alt: '',
  ip_address: '', lang: 'en', source_size: 1000, external_links_count: 10, internal_links_count: 20, response_code: 200,
  page_score: 10, domain_score: 10, first_seen_at: '2025-01-01T00:00:00', last_seen_at: '2026-06-14T00:00:00', source_domain: '',
  is_nofollow: false, is_ugc: false, is_sponsored: false, is_form: false, is_frame: false, is_image: false, is_sitewide_main: false,
  is_lost: false,
};

const ANCHOR: Record<string, string> = { '/k': 'kiwi', '/z': 'zebra', '/a': 'apple', '/m': 'mango' };

const toTarget = (n: number, from: string, path: string, page_score: number, ip_address: string, day: string): LinkInput => ({
  ...base, source_url: `https://${from}/${n}`, source_domain: from, target_url: `https://target.com${path}`, anchor: ANCHOR[path]!,
  page_score, ip_address, first_seen_at: `${day}T00:00:00`,
});

/** The ten links to target.com, in the table's order (ids 1-10). */
export const targetLinks: LinkInput[] = [
  toTarget(1, 'kilo.org', '/k', 37, '10.0.0.3', '2026-03-10'),
  toTarget(2, 'alpha.org', '/z', 81, '10.0.0.20', '2026-05-02'),
  toTarget(3, 'alpha.org', '/k', 12, '10.0.0.3', '2026-02-20'),
  toTarget(4, 'zulu.org', '/a', 64, '10.0.0.20', '2026-06-05'),
  toTarget(5, 'zulu.org', '/z', 5, '10.0.0.20', '2026-04-11'),
  toTarget(6, 'zulu.org', '/k', 93, '10.0.0.3', '2026-02-03'),
  toTarget(7, 'mike.org', '/m', 48, '10.0.0.5', '2026-05-25'),
  toTarget(8, 'mike.org', '/a', 26, '10.0.0.5', '2026-03-28'),
  toTarget(9, 'mike.org', '/z', 70, '10.0.0.5', '2026-06-09'),
  toTarget(10, 'mike.org', '/k', 59, '10.0.0.5', '2026-04-30'),
];

const simple = (from: string, to: string): LinkInput => ({
  ...base, source_url: `https://${from}/`, source_domain: from, target_url: `https://${to}/`, anchor: 'link', ip_address: '10.2.0.1',
});
const from = (sources: string[], to: string) => sources.map((source) => simple(source, to));
const r = (n: number) => Array.from({ length: n }, (_, i) => `r${i + 1}.net`);

/** hub.com (7 links), mu.com (6), xi.com (5), nu.com (7). */
export const clusterLinks: LinkInput[] = [
  ...from(r(7), 'hub.com'),
  ...from(r(6), 'mu.com'),
  ...from(r(5), 'xi.com'),
  ...from([...r(5), 'x1.net', 'x2.net'], 'nu.com'),
];

/** Writes the order fixture through a store's bulk writer. */
export async function loadOrderFixture(store: Store): Promise<void> {
  const writer = await store.writer();
  await writer.domains(domains);
  await writer.links([...targetLinks, ...clusterLinks]);
  await writer.finish();
}
