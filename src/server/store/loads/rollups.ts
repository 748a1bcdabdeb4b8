/**
 * Rollups: what each operation needs, precomputed at write time per target key (`d:` registrable
 * domain, `h:` host, `p:` host + path; see `rollupKey`), so a call reads one indexed range instead
 * of grouping all of a target's links. A refresh reads each registrable domain's links once,
 * computes every rollup row in one pass ({@link rollupRows}, the reference the embedded store's
 * `duckdb/rollups.ts` is tested against) and replaces the domain's rows in one transaction; a
 * referring domain's and a target page's own data are written into the rows. The tables, and why
 * they stay exact: docs/design-store.md, "Rollups: answers that do not scan a target's links".
 *
 * @module
 * @internal
 */
import { compareCodePoints } from '../../../evaluate/text-order.js';
import { addMonths } from '../../clock.js';
import type { SqlConnection } from '../connection.js';
import { raw, sql, type Fragment } from '../fragment.js';
import type { RefreshSteps } from './refresh.js';

/**
 * The table a load writes and reads its links in: `links`, or the one a PostgreSQL load into an
 * empty store fills and puts in its place just before it commits (`engines/postgres/schema.ts`).
 */
export type LinksTable = 'links' | 'links_next';

/** The rollup tables, children first (deleted before `r_targets`, which lists a domain's keys). */
export const ROLLUP_TABLES = ['r_ref_domains', 'r_ref_ips', 'r_pages', 'r_anchors', 'r_history', 'r_score_profile', 'r_first_seen', 'r_targets'] as const;

/** What the rollups need of one stored link (and the IP, country and score of its source domain). */
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
  /** The source domain's own IP, country and score (`null`: the store has no row for it). */
  readonly domain_ip: string | null;
  readonly country: string | null;
  readonly domain_score: number | null;
}

/** A target page's own data, as stored in `target_pages`. */
export interface PageData {
  readonly url: string;
  readonly title: string;
  readonly response_code: number;
  readonly external_links_count: number;
  readonly internal_links_count: number;
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
  /** The source domain's own data (referring-domain groups only; '' and `null` when the domain has no record). */
  ip: string;
  score: number | null;
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
  /** Links first seen per day (`YYYY-MM-DD`). */
  readonly days: Map<string, number>;
}

const COUNTERS = ['follows_count', 'nofollows_count', 'sponsored_count', 'ugc_count', 'frames_count', 'forms_count', 'images_count', 'texts_count', 'lost_count'] as const;

function newKey(): KeyRollup {
  return { links: [], counters: Object.fromEntries(COUNTERS.map((c) => [c, 0])), urls: new Set(), ips: new Map(), classes: new Set(), refDomains: new Map(), pages: new Map(), anchors: new Map(), days: new Map() };
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
  // min() of the source domains' known countries (and of a page's target URLs), in code point order as SQL compares text;
  // a record's empty country is unknown, no value (docs/importing.md, "Unknown values").
  if (link.country !== null && link.country !== '' && (group.country === null || compareCodePoints(link.country, group.country) < 0)) group.country = link.country;
  if (withUrl && (group.url === '' || compareCodePoints(link.target_url, group.url) < 0)) group.url = link.target_url;
  return group;
}

const group = (distinct: boolean, ip = '', score: number | null = null): Group => ({ backlinks: 0, domains: distinct ? new Set() : undefined, first: '', last: '', follows: 0, lost: 0, country: null, url: '', ip, score });

/** The rollup keys a link of `domain` counts under: its registrable domain, its host, its page. */
const keysOfLink = (domain: string, link: Pick<SourceLink, 'target_host' | 'target_path'>): readonly string[] => [
  `d:${domain}`,
  `h:${link.target_host}`,
  `p:${link.target_host}${link.target_path}`,
];

/** The day a link was first seen on (`r_first_seen.day`): its timestamp's first ten characters. */
const firstSeenDay = (firstSeenAt: string): string => firstSeenAt.slice(0, 10);

/**
 * Per key and day, the times of day its links were first seen at, in code point order: each
 * timestamp after its day (`first_seen_at` past its first ten characters). Among the links of one
 * day, `first_seen_at >= since` holds exactly when that text is at or after `since`'s past the
 * same day, so the links first seen on the day "new" starts and new can be counted from the day's
 * row alone (ClickHouse's `r_first_seen_times`, where the links are not ordered by first seen).
 */
export function firstSeenTimes(domain: string, links: readonly Pick<SourceLink, 'target_host' | 'target_path' | 'first_seen_at'>[]): [tkey: string, day: string, times: string[]][] {
  const byKeyAndDay = new Map<string, Map<string, string[]>>();
  for (const link of links) {
    const day = firstSeenDay(link.first_seen_at);
    const time = link.first_seen_at.slice(10);
    for (const tkey of keysOfLink(domain, link)) {
      let days = byKeyAndDay.get(tkey);
      if (!days) byKeyAndDay.set(tkey, (days = new Map()));
      let times = days.get(day);
      if (!times) days.set(day, (times = []));
      times.push(time);
    }
  }
  return [...byKeyAndDay].flatMap(([tkey, days]) => [...days].map(([day, times]): [string, string, string[]] => [tkey, day, times.sort(compareCodePoints)]));
}

/**
 * The rollup rows of one registrable domain's links, for its three levels of keys: one pass over
 * the links, hash maps per key (no sort), so every engine gets the same rows from the same code.
 *
 * `pages` holds the target pages' own data by host + path (a page without a row shows its smallest
 * linked URL, no title, status 200 and no link counts, as the links-grouped path does).
 */
export function rollupRows(domain: string, links: readonly SourceLink[], pages: ReadonlyMap<string, PageData>) {
  const keys = new Map<string, KeyRollup>();
  const keyOf = (tkey: string) => {
    let key = keys.get(tkey);
    if (!key) keys.set(tkey, (key = newKey()));
    return key;
  };
  for (const link of links) {
    for (const tkey of keysOfLink(domain, link)) {
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
      // An empty IP is unknown (an export without IPs), no IP: neither counted nor listed. Its /24 network is empty exactly then.
      if (link.ip_address !== '') {
        key.classes.add(link.ip_class_c);
        addTo(key.ips, link.ip_address, link, () => group(true));
      }
      addTo(key.refDomains, link.source_domain, link, () => group(false, link.domain_ip ?? '', link.domain_score === null ? null : Number(link.domain_score)));
      const pageKey = link.target_host + link.target_path;
      addTo(key.pages, pageKey, link, () => ({ ...group(true), host: link.target_host, path: link.target_path }), true);
      addTo(key.anchors, link.anchor, link, () => group(true));
      const day = firstSeenDay(link.first_seen_at);
      key.days.set(day, (key.days.get(day) ?? 0) + 1);
    }
  }
  const rows = {
    targets: [] as unknown[][], refDomains: [] as unknown[][], refIps: [] as unknown[][], pages: [] as unknown[][], anchors: [] as unknown[][],
    history: [] as HistoryRow[], scoreProfile: [] as unknown[][], firstSeen: [] as unknown[][],
  };
  for (const [tkey, key] of keys) {
    const c = key.counters;
    rows.targets.push([
      tkey, domain, key.links.length, key.refDomains.size, key.urls.size, c['follows_count'], c['nofollows_count'], c['sponsored_count'], c['ugc_count'],
      c['frames_count'], c['forms_count'], c['images_count'], c['texts_count'], key.ips.size, key.classes.size, c['lost_count'],
    ]);
    const scores = new Map<number, number>();
    for (const [source, g] of key.refDomains) {
      rows.refDomains.push([tkey, source, g.backlinks, g.first, g.last, g.follows, g.lost, g.ip, g.country ?? '', g.score ?? 0]);
      // A referring domain without a record has no known score: shown as 0 in its row, not counted at 0.
      if (g.score !== null) scores.set(g.score, (scores.get(g.score) ?? 0) + 1);
    }
    for (const [score, count] of scores) rows.scoreProfile.push([tkey, score, count]);
    for (const [ip, g] of key.ips) rows.refIps.push([tkey, ip, g.country ?? '', g.backlinks, g.domains!.size, g.first, g.last]);
    for (const [pageKey, g] of key.pages) {
      const page = pages.get(pageKey);
      rows.pages.push([
        tkey, pageKey, g.host, g.path, page?.url ?? g.url, page?.title ?? '', page?.response_code ?? 200, g.backlinks, g.domains!.size,
        page?.external_links_count ?? 0, page?.internal_links_count ?? 0, g.first, g.last,
      ]);
    }
    for (const [day, count] of key.days) rows.firstSeen.push([tkey, day, count]);
    for (const [anchor, g] of key.anchors) rows.anchors.push([tkey, anchor, g.backlinks, g.domains!.size, g.first, g.last]);
    rows.history.push(...historyRows(tkey, key.links));
  }
  return rows;
}

/**
 * Fills `r_score_profile` from `r_ref_domains` and the domains' scores, as {@link rollupRows}
 * would: referring domains without a record have no known score and are not counted (the
 * migrations that add the table and that stop counting unknown values run it on existing rollups).
 */
export const FILL_SCORE_PROFILE = `INSERT INTO r_score_profile (tkey, domain_score, domains_count)
    SELECT r.tkey, d.domain_score, count(*) FROM r_ref_domains r JOIN domains d ON d.domain = r.source_domain
    GROUP BY r.tkey, d.domain_score;`;

/**
 * The migration that stops counting unknown values in rollups written before (docs/importing.md,
 * "Unknown values"), as a refresh now writes them: a key's empty IP leaves `r_ref_ips`, and its
 * `ips_count` and `ip_class_c_count` one less each (a link's /24 network is empty exactly when its
 * IP is); `r_score_profile` again from `r_ref_domains` without the referring domains that have no
 * record. Each statement may run again on a database that has its effect. Where `r_ref_ips` and
 * `r_ref_domains` are not in this database (the embedded store keeps them in its column file) the
 * column file is rebuilt instead, every rollup with it (`COLUMN_SCHEMA_VERSION`). An IP's country
 * chosen from an empty one before is left as it is until its domain's next refresh.
 */
export const FORGET_UNKNOWN_VALUES = `
  UPDATE r_targets SET ips_count = ips_count - 1, ip_class_c_count = ip_class_c_count - 1
    WHERE tkey IN (SELECT tkey FROM r_ref_ips WHERE ip_address = '');
  DELETE FROM r_ref_ips WHERE ip_address = '';
  DELETE FROM r_score_profile;
  ${FILL_SCORE_PROFILE}`;

/**
 * Fills what the migration to rollups without per-row joins adds, as a refresh would: the referring
 * domains' own data into `r_ref_domains`, the target pages' own data into `r_pages` (whose
 * `target_url` becomes `source_url`), and `r_first_seen` from the links of every rolled-up key.
 * Runs after the engine's `ALTER TABLE ... ADD COLUMN`s and `CREATE TABLE r_first_seen`.
 */
export const FILL_JOINED_ROLLUPS = `
  UPDATE r_ref_domains SET ip_address = d.ip_address, country = d.country, domain_score = d.domain_score
    FROM domains d WHERE d.domain = r_ref_domains.source_domain;
  UPDATE r_pages SET source_url = target_url;
  UPDATE r_pages SET source_url = p.url, source_title = p.title, response_code = p.response_code,
      external_links_count = p.external_links_count, internal_links_count = p.internal_links_count
    FROM target_pages p WHERE p.host = r_pages.host AND p.path = r_pages.path;
  ALTER TABLE r_pages DROP COLUMN target_url;
  INSERT INTO r_first_seen (tkey, day, links_count)
    SELECT k.tkey, k.day, count(*) FROM (
      SELECT 'd:' || target_domain AS tkey, substr(first_seen_at, 1, 10) AS day FROM links
      UNION ALL SELECT 'h:' || target_host, substr(first_seen_at, 1, 10) FROM links
      UNION ALL SELECT 'p:' || target_host || target_path, substr(first_seen_at, 1, 10) FROM links
    ) k WHERE k.tkey IN (SELECT tkey FROM r_targets) GROUP BY k.tkey, k.day;`;

/**
 * The columns that migration adds, in the engine's types (`text`, `integer`: the engine's NOT NULL
 * text and integer types).
 */
export function joinedRollupColumns(text: string, integer: string): string {
  const add = (table: string, column: string, type: string, fallback: string) => `ALTER TABLE ${table} ADD COLUMN ${column} ${type} DEFAULT ${fallback};`;
  return [
    add('r_ref_domains', 'ip_address', text, "''"),
    add('r_ref_domains', 'country', text, "''"),
    add('r_ref_domains', 'domain_score', integer, '0'),
    add('r_pages', 'source_url', text, "''"),
    add('r_pages', 'source_title', text, "''"),
    add('r_pages', 'response_code', integer, '200'),
    add('r_pages', 'external_links_count', integer, '0'),
    add('r_pages', 'internal_links_count', integer, '0'),
  ].join('\n');
}

/** The columns of each rollup table, in the order of `rollupRows`' tuples. @internal */
export const ROLLUP_COLUMNS = {
  r_targets: ['tkey', 'tdomain', 'backlinks_count', 'domains_count', 'urls_count', 'follows_count', 'nofollows_count', 'sponsored_count', 'ugc_count', 'frames_count', 'forms_count', 'images_count', 'texts_count', 'ips_count', 'ip_class_c_count', 'lost_count'],
  r_ref_domains: ['tkey', 'source_domain', 'backlinks_count', 'first_seen_at', 'last_seen_at', 'follow_links', 'lost_links', 'ip_address', 'country', 'domain_score'],
  r_ref_ips: ['tkey', 'ip_address', 'country', 'backlinks_count', 'domains_count', 'first_seen_at', 'last_seen_at'],
  r_pages: [
    'tkey', 'page_key', 'host', 'path', 'source_url', 'source_title', 'response_code', 'backlinks_count', 'domains_count', 'external_links_count',
    'internal_links_count', 'first_seen_at', 'last_seen_at',
  ],
  r_anchors: ['tkey', 'anchor', 'backlinks_count', 'domains_count', 'first_seen_at', 'last_seen_at'],
  r_history: ['tkey', 'month', 'backlinks_count', 'domains_count', 'follows_count'],
  r_score_profile: ['tkey', 'domain_score', 'domains_count'],
  r_first_seen: ['tkey', 'day', 'links_count'],
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

/** The links' own columns a refresh reads for {@link rollupRows}. */
const REFRESH_LINK_COLUMNS: readonly string[] = [
  'source_url', 'target_url', 'anchor', 'ip_address', 'ip_class_c', 'first_seen_at', 'last_seen_at', 'is_lost', 'is_nofollow', 'is_sponsored', 'is_ugc',
  'is_frame', 'is_form', 'is_image', 'source_domain', 'target_host', 'target_path',
];

const LINK_COLUMNS = raw(REFRESH_LINK_COLUMNS.join(', '));

/** Values per `IN (...)` list of a refresh's reads by key (under every engine's parameter limit). */
const KEYS_PER_READ = 500;

/**
 * The rows whose `column` is one of `keys`, read in lists of {@link KEYS_PER_READ}. A refresh reads
 * a domain's referring domains and target pages this way rather than by a join or an `IN
 * (subquery)`: the planner cannot know how few keys the subquery yields, and PostgreSQL then chose
 * to scan and hash the whole `domains` and `target_pages` tables for every domain refreshed
 * (docs/design-store.md, "Measurements behind the store's code"); an explicit list is read through
 * the primary key.
 */
async function readByKeys<Row>(connection: SqlConnection, select: string, column: string, keys: readonly string[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_READ) {
    const batch = keys.slice(i, i + KEYS_PER_READ);
    rows.push(...(await connection.all<Row>({ sql: `${select} WHERE ${column} IN (${batch.map(() => '?').join(', ')})`, params: batch })));
  }
  return rows;
}

/** A link's own columns that the rollups read. */
type LinkColumns = Omit<SourceLink, 'domain_ip' | 'country' | 'domain_score'>;
interface DomainData { readonly domain: string; readonly ip_address: string; readonly country: string; readonly domain_score: number }

/** A domain's links in `table`, each with its referring domain's own IP, country and score (`null` without a domain row). */
async function linksOf(connection: SqlConnection, table: LinksTable, domain: string): Promise<SourceLink[]> {
  const links = await connection.all<LinkColumns>(sql`SELECT ${LINK_COLUMNS} FROM ${raw(table)} WHERE target_domain = ${domain}`);
  const referrers = [...new Set(links.map((link) => link.source_domain))];
  const data = new Map(
    (await readByKeys<DomainData>(connection, 'SELECT domain, ip_address, country, domain_score FROM domains', 'domain', referrers)).map((row) => [row.domain, row]),
  );
  return links.map((link) => {
    const own = data.get(link.source_domain);
    return { ...link, domain_ip: own?.ip_address ?? null, country: own?.country ?? null, domain_score: own === undefined ? null : Number(own.domain_score) };
  });
}

/** The rollup rows of one registrable domain, as {@link rollupRows} computes them. */
export type DomainRollups = ReturnType<typeof rollupRows>;

/** A domain's rollup rows by table, as tuples in the order of {@link ROLLUP_COLUMNS}. */
export function rollupTuplesByTable(rows: DomainRollups): Readonly<Record<(typeof ROLLUP_TABLES)[number], readonly (readonly unknown[])[]>> {
  return {
    r_targets: rows.targets,
    r_ref_domains: rows.refDomains,
    r_ref_ips: rows.refIps,
    r_pages: rows.pages,
    r_anchors: rows.anchors,
    r_history: rows.history.map((h) => [h.tkey, h.month, h.backlinks_count, h.domains_count, h.follows_count]),
    r_score_profile: rows.scoreProfile,
    r_first_seen: rows.firstSeen,
  };
}

/** The statements that delete a domain's rows from the given rollup tables (`r_targets`, which lists the domain's keys, last). */
export function rollupDeletes(domain: string, tables: readonly (typeof ROLLUP_TABLES)[number][]): Fragment[] {
  const own = (table: string) =>
    table === 'r_targets' ? sql`DELETE FROM r_targets WHERE tdomain = ${domain}` : sql`DELETE FROM ${raw(table)} WHERE tkey IN (SELECT tkey FROM r_targets WHERE tdomain = ${domain})`;
  return ROLLUP_TABLES.filter((table) => tables.includes(table)).map(own);
}

/**
 * The statements that replace a domain's rollup rows (after deleting its old ones unless `fresh`),
 * run in one transaction, so readers see its old rollups or its new ones, never a mix.
 */
function rollupStatements(domain: string, rows: DomainRollups, fresh: boolean): Fragment[] {
  const tuples = rollupTuplesByTable(rows);
  // r_targets lists the domain's keys: its rows are deleted last, and the children's through it.
  return [...(fresh ? [] : rollupDeletes(domain, ROLLUP_TABLES)), ...ROLLUP_TABLES.flatMap((table) => inserts(table, tuples[table]))];
}

/** The target pages' own data for the hosts of a domain's links, by host + path. */
async function pagesOf(connection: SqlConnection, links: readonly SourceLink[]): Promise<Map<string, PageData>> {
  const hosts = [...new Set(links.map((link) => link.target_host))];
  const select = 'SELECT host, path, url, title, response_code, external_links_count, internal_links_count FROM target_pages';
  const rows = await readByKeys<PageData & { host: string; path: string }>(connection, select, 'host', hosts);
  return new Map(rows.map((row) => [row.host + row.path, { ...row, response_code: Number(row.response_code), external_links_count: Number(row.external_links_count), internal_links_count: Number(row.internal_links_count) }]));
}

/**
 * The refresh's steps over a SQL connection (SQLite, PostgreSQL): each domain a group of its own,
 * its links (in `links`, or the table a load fills in its place) and their referring domains' data
 * read by key, its rows computed by {@link rollupRows} and replaced in one transaction, so readers
 * see its old rollups or its new ones.
 */
export function sqlRefresh(connection: SqlConnection, links: LinksTable = 'links'): RefreshSteps {
  let fresh = false;
  return {
    allDomains: async () => (await connection.all<{ d: string }>(sql`SELECT DISTINCT target_domain AS d FROM ${raw(links)}`)).map((row) => row.d).sort(),
    begin: async (domains, all) => {
      fresh = all;
      if (all) await connection.transaction(ROLLUP_TABLES.map((table) => raw(`DELETE FROM ${table}`)));
      return domains;
    },
    group: async (domains, from, counted) => {
      const domain = domains[from]!;
      const rows = await linksOf(connection, links, domain);
      await connection.transaction(rollupStatements(domain, rollupRows(domain, rows, await pagesOf(connection, rows)), fresh));
      counted(from + 1);
      return from + 1;
    },
    end: async () => {},
  };
}
