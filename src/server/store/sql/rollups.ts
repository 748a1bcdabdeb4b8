/**
 * Rollups: what each operation needs, precomputed at write time per target key (`d:` registrable
 * domain, `h:` host, `p:` host + path; see `rollupKey`), so a call reads one indexed range
 * instead of grouping all of a target's links. Written once over the store port; every engine runs
 * the same statements.
 *
 * | table | one row per | serves |
 * | --- | --- | --- |
 * | `r_targets` | target key | overview counters, list totals, competitors' sizes |
 * | `r_ref_domains` | target key, source domain | ref-domains, competitors, matrix |
 * | `r_score_profile` | target key, domain score | score-profile |
 * | `r_ref_ips` | target key, source IP | ref-ips |
 * | `r_pages` | target key, linked page | pages |
 * | `r_anchors` | target key, anchor | anchors |
 * | `r_history` | target key, month where a count changes | summary, comparison |
 *
 * A refresh reads each given registrable domain's links once (all of a domain's keys come from
 * them), computes every rollup row in one pass ({@link rollupRows}) and replaces the domain's rows
 * in one transaction, so rollups are exact after any import or re-import: they are a function of
 * the links and of the referring domains' own data (country, score) at refresh time, never patched
 * by deltas; a load that changes a referring domain's data refreshes every domain it links to. The
 * same code fills every engine; only the INSERTs reach it.
 *
 * @module
 * @internal
 */
import { compareCodePoints } from '../../../evaluate/text-order.js';
import { addMonths } from '../../clock.js';
import type { SqlConnection } from './connection.js';
import { raw, sql, type Fragment } from './fragment.js';

/** The rollup tables, children first (deleted before `r_targets`, which lists a domain's keys). */
export const ROLLUP_TABLES = ['r_ref_domains', 'r_ref_ips', 'r_pages', 'r_anchors', 'r_history', 'r_score_profile', 'r_targets'] as const;

/** What the rollups need of one stored link (and the country and score of its source domain). */
interface SourceLink {
  readonly source_url: string;
  readonly target_url: string;
  readonly anchor: string;
  readonly ip_address: string;
  readonly ip_class_c: string;
  readonly first_seen_at: string;
  readonly last_seen_at: string;
  readonly is_lost: boolean | number;
  readonly is_nofollow: boolean | number;
  readonly is_sponsored: boolean | number;
  readonly is_ugc: boolean | number;
  readonly is_frame: boolean | number;
  readonly is_form: boolean | number;
  readonly is_image: boolean | number;
  readonly source_domain: string;
  readonly target_host: string;
  readonly target_path: string;
  readonly country: string | null;
  readonly domain_score: number | null;
}
type HistorySource = Pick<SourceLink, 'first_seen_at' | 'last_seen_at' | 'is_lost' | 'is_nofollow' | 'source_domain'>;

/** One stored history row: the counts from `month` until the next row of the same key. */
export interface HistoryRow {
  readonly tkey: string;
  readonly month: string;
  readonly backlinks_count: number;
  readonly domains_count: number;
  readonly follows_count: number;
}

/**
 * The history rows of a set of links of one key: a row at the oldest month and at every later
 * month where a count changes. A link counts in month M when it was first seen by the end of M
 * and, if lost, last seen in M or later (the rule of `history.ts`).
 *
 * @example
 * ```ts
 * historyRows('d:example.com', links); // [{ tkey, month: '2024-01', backlinks_count: 1, ... }, ...]
 * ```
 */
export function historyRows(tkey: string, links: readonly HistorySource[]): HistoryRow[] {
  if (links.length === 0) return [];
  // month -> events in that month: [link delta, follow delta, source domain] per link entering/leaving.
  const events = new Map<string, { delta: number; follow: number; domain: string }[]>();
  const add = (month: string, delta: number, follow: number, domain: string) => {
    let list = events.get(month);
    if (!list) events.set(month, (list = []));
    list.push({ delta, follow, domain });
  };
  for (const link of links) {
    const first = link.first_seen_at.slice(0, 7);
    const follow = link.is_nofollow ? 0 : 1;
    add(first, 1, follow, link.source_domain);
    if (link.is_lost) {
      const last = link.last_seen_at.slice(0, 7);
      // Live from its first month through its last; gone from the month after (or never live).
      add(last < first ? first : addMonths(last, 1), -1, -follow, link.source_domain);
    }
  }
  const rows: HistoryRow[] = [];
  const perDomain = new Map<string, number>();
  let backlinks = 0;
  let follows = 0;
  let domains = 0;
  for (const month of [...events.keys()].sort()) {
    for (const event of events.get(month)!) {
      backlinks += event.delta;
      follows += event.follow;
      const before = perDomain.get(event.domain) ?? 0;
      const after = before + event.delta;
      perDomain.set(event.domain, after);
      if (before <= 0 && after > 0) domains++;
      else if (before > 0 && after <= 0) domains--;
    }
    const last = rows[rows.length - 1];
    if (last && last.backlinks_count === backlinks && last.domains_count === domains && last.follows_count === follows) continue;
    rows.push({ tkey, month, backlinks_count: backlinks, domains_count: domains, follows_count: follows });
  }
  return rows;
}

/** Rows of one group (a referring domain, IP, page or anchor of one key). */
interface Group {
  backlinks: number;
  domains: Set<string> | undefined;
  first: string;
  last: string;
  follows: number;
  lost: number;
  country: string | null;
  url: string;
  /** The source domain's score (referring-domain groups only; 0 when the domain is unknown). */
  score: number;
}

/** Everything one key accumulates. */
interface KeyRollup {
  readonly links: SourceLink[];
  readonly counters: Record<string, number>;
  readonly urls: Set<string>;
  readonly ips: Map<string, Group>;
  readonly classes: Set<string>;
  readonly refDomains: Map<string, Group>;
  readonly pages: Map<string, Group & { host: string; path: string }>;
  readonly anchors: Map<string, Group>;
}

const COUNTERS = ['follows_count', 'nofollows_count', 'sponsored_count', 'ugc_count', 'frames_count', 'forms_count', 'images_count', 'texts_count', 'lost_count'] as const;

function newKey(): KeyRollup {
  return { links: [], counters: Object.fromEntries(COUNTERS.map((c) => [c, 0])), urls: new Set(), ips: new Map(), classes: new Set(), refDomains: new Map(), pages: new Map(), anchors: new Map() };
}

/** Adds a link to a group: counts, distinct domains, first and last seen (text order of ASCII timestamps). */
function addTo<G extends Group>(groups: Map<string, G>, key: string, link: SourceLink, make: () => G, withUrl = false): G {
  let group = groups.get(key);
  if (!group) groups.set(key, (group = make()));
  group.backlinks++;
  group.domains?.add(link.source_domain);
  if (group.first === '' || link.first_seen_at < group.first) group.first = link.first_seen_at;
  if (link.last_seen_at > group.last) group.last = link.last_seen_at;
  if (!link.is_nofollow) group.follows++;
  if (link.is_lost) group.lost++;
  // min() of the source domains' countries (and of a page's target URLs), in code point order as SQL compares text.
  if (link.country !== null && (group.country === null || compareCodePoints(link.country, group.country) < 0)) group.country = link.country;
  if (withUrl && (group.url === '' || compareCodePoints(link.target_url, group.url) < 0)) group.url = link.target_url;
  return group;
}

const group = (distinct: boolean, score = 0): Group => ({ backlinks: 0, domains: distinct ? new Set() : undefined, first: '', last: '', follows: 0, lost: 0, country: null, url: '', score });

/**
 * The rollup rows of one registrable domain's links, for its three levels of keys: one pass over
 * the links, hash maps per key (no sort), so every engine gets the same rows from the same code.
 *
 * @example
 * ```ts
 * rollupRows('example.com', links).refDomains.length;
 * ```
 */
export function rollupRows(domain: string, links: readonly SourceLink[]) {
  const keys = new Map<string, KeyRollup>();
  const keyOf = (tkey: string) => {
    let key = keys.get(tkey);
    if (!key) keys.set(tkey, (key = newKey()));
    return key;
  };
  for (const link of links) {
    for (const tkey of [`d:${domain}`, `h:${link.target_host}`, `p:${link.target_host}${link.target_path}`]) {
      const key = keyOf(tkey);
      key.links.push(link);
      const c = key.counters;
      if (link.is_nofollow) c['nofollows_count']!++;
      else c['follows_count']!++;
      if (link.is_sponsored) c['sponsored_count']!++;
      if (link.is_ugc) c['ugc_count']!++;
      if (link.is_frame) c['frames_count']!++;
      if (link.is_form) c['forms_count']!++;
      if (link.is_image) c['images_count']!++;
      else c['texts_count']!++;
      if (link.is_lost) c['lost_count']!++;
      key.urls.add(link.source_url);
      key.classes.add(link.ip_class_c);
      addTo(key.ips, link.ip_address, link, () => group(true));
      addTo(key.refDomains, link.source_domain, link, () => group(false, Number(link.domain_score ?? 0)));
      const pageKey = link.target_host + link.target_path;
      addTo(key.pages, pageKey, link, () => ({ ...group(true), host: link.target_host, path: link.target_path }), true);
      addTo(key.anchors, link.anchor, link, () => group(true));
    }
  }
  const rows = {
    targets: [] as unknown[][], refDomains: [] as unknown[][], refIps: [] as unknown[][], pages: [] as unknown[][], anchors: [] as unknown[][],
    history: [] as HistoryRow[], scoreProfile: [] as unknown[][],
  };
  for (const [tkey, key] of keys) {
    const c = key.counters;
    rows.targets.push([
      tkey, domain, key.links.length, key.refDomains.size, key.urls.size, c['follows_count'], c['nofollows_count'], c['sponsored_count'], c['ugc_count'],
      c['frames_count'], c['forms_count'], c['images_count'], c['texts_count'], key.ips.size, key.classes.size, c['lost_count'],
    ]);
    const scores = new Map<number, number>();
    for (const [source, g] of key.refDomains) {
      rows.refDomains.push([tkey, source, g.backlinks, g.first, g.last, g.follows, g.lost]);
      scores.set(g.score, (scores.get(g.score) ?? 0) + 1);
    }
    for (const [score, count] of scores) rows.scoreProfile.push([tkey, score, count]);
    for (const [ip, g] of key.ips) rows.refIps.push([tkey, ip, g.country ?? '', g.backlinks, g.domains!.size, g.first, g.last]);
    for (const [pageKey, g] of key.pages) rows.pages.push([tkey, pageKey, g.host, g.path, g.url, g.backlinks, g.domains!.size, g.first, g.last]);
    for (const [anchor, g] of key.anchors) rows.anchors.push([tkey, anchor, g.backlinks, g.domains!.size, g.first, g.last]);
    rows.history.push(...historyRows(tkey, key.links));
  }
  return rows;
}

/**
 * Fills `r_score_profile` from `r_ref_domains` and the domains' scores, as {@link rollupRows}
 * would (the migration that adds the table runs it once on existing rollups).
 */
export const FILL_SCORE_PROFILE = `INSERT INTO r_score_profile (tkey, domain_score, domains_count)
    SELECT r.tkey, coalesce(d.domain_score, 0), count(*) FROM r_ref_domains r LEFT JOIN domains d ON d.domain = r.source_domain
    GROUP BY r.tkey, coalesce(d.domain_score, 0);`;

/** The columns of each rollup table, in the order of `rollupRows`' tuples. @internal */
export const ROLLUP_COLUMNS = {
  r_targets: ['tkey', 'tdomain', 'backlinks_count', 'domains_count', 'urls_count', 'follows_count', 'nofollows_count', 'sponsored_count', 'ugc_count', 'frames_count', 'forms_count', 'images_count', 'texts_count', 'ips_count', 'ip_class_c_count', 'lost_count'],
  r_ref_domains: ['tkey', 'source_domain', 'backlinks_count', 'first_seen_at', 'last_seen_at', 'follow_links', 'lost_links'],
  r_ref_ips: ['tkey', 'ip_address', 'country', 'backlinks_count', 'domains_count', 'first_seen_at', 'last_seen_at'],
  r_pages: ['tkey', 'page_key', 'host', 'path', 'target_url', 'backlinks_count', 'domains_count', 'first_seen_at', 'last_seen_at'],
  r_anchors: ['tkey', 'anchor', 'backlinks_count', 'domains_count', 'first_seen_at', 'last_seen_at'],
  r_history: ['tkey', 'month', 'backlinks_count', 'domains_count', 'follows_count'],
  r_score_profile: ['tkey', 'domain_score', 'domains_count'],
} as const;

/** Rows per INSERT statement (16 columns x 500 stays under every engine's parameter limit). */
const ROWS_PER_INSERT = 500;

function inserts(table: keyof typeof ROLLUP_COLUMNS, rows: readonly (readonly unknown[])[]): Fragment[] {
  const columns = ROLLUP_COLUMNS[table];
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const statements: Fragment[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const batch = rows.slice(i, i + ROWS_PER_INSERT);
    statements.push({ sql: `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${batch.map(() => tuple).join(', ')}`, params: batch.flat() });
  }
  return statements;
}

const SOURCE_COLUMNS = raw(
  `l.source_url, l.target_url, l.anchor, l.ip_address, l.ip_class_c, l.first_seen_at, l.last_seen_at, l.is_lost, l.is_nofollow, l.is_sponsored,
   l.is_ugc, l.is_frame, l.is_form, l.is_image, l.source_domain, l.target_host, l.target_path, d.country, d.domain_score`,
);

/**
 * Recomputes the rollups of the given registrable domains from their links (`'all'`: every
 * rollup, from scratch). Each domain is replaced in one transaction, so readers see either its old
 * or its new rollups, never a mix.
 *
 * @example
 * ```ts
 * await refreshRollups(connection, ['example.com']);
 * ```
 */
export async function refreshRollups(
  connection: SqlConnection,
  domains: readonly string[] | 'all',
  onProgress?: (done: number, total: number) => void,
): Promise<void> {
  const all = domains === 'all';
  if (all) await connection.transaction(ROLLUP_TABLES.map((table) => raw(`DELETE FROM ${table}`)));
  const list = all ? (await connection.all<{ d: string }>(sql`SELECT DISTINCT target_domain AS d FROM links`)).map((row) => row.d).sort() : domains;
  let done = 0;
  for (const domain of list) {
    const links = await connection.all<SourceLink>(
      sql`SELECT ${SOURCE_COLUMNS} FROM links l LEFT JOIN domains d ON d.domain = l.source_domain WHERE l.target_domain = ${domain}`,
    );
    const own = (table: string) => sql`DELETE FROM ${raw(table)} WHERE tkey IN (SELECT tkey FROM r_targets WHERE tdomain = ${domain})`;
    const rows = rollupRows(domain, links);
    await connection.transaction([
      ...(all ? [] : [...ROLLUP_TABLES.filter((table) => table !== 'r_targets').map(own), sql`DELETE FROM r_targets WHERE tdomain = ${domain}`]),
      ...inserts('r_targets', rows.targets),
      ...inserts('r_ref_domains', rows.refDomains),
      ...inserts('r_ref_ips', rows.refIps),
      ...inserts('r_pages', rows.pages),
      ...inserts('r_anchors', rows.anchors),
      ...inserts('r_history', rows.history.map((h) => [h.tkey, h.month, h.backlinks_count, h.domains_count, h.follows_count])),
      ...inserts('r_score_profile', rows.scoreProfile),
    ]);
    onProgress?.(++done, list.length);
  }
}
