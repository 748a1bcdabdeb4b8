/**
 * Rollups: what each operation needs, precomputed at write time per target key (`d:` registrable
 * domain, `h:` host, `p:` host + path; see `rollupKey`), so a call reads one indexed range
 * instead of grouping all of a target's links. Written once over the store port; every engine runs
 * the same statements.
 *
 * | table | one row per | serves |
 * | --- | --- | --- |
 * | `r_targets` | target key | overview counters, list totals, competitors' sizes |
 * | `r_ref_domains` | target key, source domain | ref-domains, score-profile, competitors, matrix |
 * | `r_ref_ips` | target key, source IP | ref-ips |
 * | `r_pages` | target key, linked page | pages |
 * | `r_anchors` | target key, anchor | anchors |
 * | `r_history` | target key, month where a count changes | summary, comparison |
 *
 * A refresh recomputes every rollup of the registrable domains given (all of a domain's keys come
 * from its links), inside one transaction per domain, so rollups are exact after any import or
 * re-import: they are a function of the links, never patched by deltas.
 *
 * @module
 * @internal
 */
import { addMonths } from '../../clock.js';
import type { SqlConnection } from './connection.js';
import { join, raw, sql, type Fragment } from './fragment.js';
import { countWhere } from './relations.js';

/** The rollup tables, children first (deleted before `r_targets`, which lists a domain's keys). */
export const ROLLUP_TABLES = ['r_ref_domains', 'r_ref_ips', 'r_pages', 'r_anchors', 'r_history', 'r_targets'] as const;

/** The key expression of each level over the links table `l`. */
const LEVELS: readonly Fragment[] = [raw(`'d:' || l.target_domain`), raw(`'h:' || l.target_host`), raw(`'p:' || l.target_host || l.target_path`)];

const firstLast = 'min(l.first_seen_at), max(l.last_seen_at)';

/** The INSERT ... SELECT statements of one level, over the links matching `where`. */
function levelStatements(key: Fragment, where: Fragment): Fragment[] {
  return [
    sql`INSERT INTO r_targets (tkey, tdomain, backlinks_count, domains_count, urls_count, follows_count, nofollows_count,
        sponsored_count, ugc_count, frames_count, forms_count, images_count, texts_count, ips_count, ip_class_c_count, lost_count)
      SELECT ${key}, min(l.target_domain), count(*), count(DISTINCT l.source_domain), count(DISTINCT l.source_url),
        ${countWhere('NOT l.is_nofollow')}, ${countWhere('l.is_nofollow')}, ${countWhere('l.is_sponsored')}, ${countWhere('l.is_ugc')},
        ${countWhere('l.is_frame')}, ${countWhere('l.is_form')}, ${countWhere('l.is_image')}, ${countWhere('NOT l.is_image')},
        count(DISTINCT l.ip_address), count(DISTINCT l.ip_class_c), ${countWhere('l.is_lost')}
      FROM links l WHERE ${where} GROUP BY ${key}`,
    sql`INSERT INTO r_ref_domains (tkey, source_domain, backlinks_count, first_seen_at, last_seen_at, follow_links, lost_links)
      SELECT ${key}, l.source_domain, count(*), ${raw(firstLast)}, ${countWhere('NOT l.is_nofollow')}, ${countWhere('l.is_lost')}
      FROM links l WHERE ${where} GROUP BY ${key}, l.source_domain`,
    sql`INSERT INTO r_ref_ips (tkey, ip_address, country, backlinks_count, domains_count, first_seen_at, last_seen_at)
      SELECT ${key}, l.ip_address, coalesce(min(d.country), ''), count(*), count(DISTINCT l.source_domain), ${raw(firstLast)}
      FROM links l LEFT JOIN domains d ON d.domain = l.source_domain WHERE ${where} GROUP BY ${key}, l.ip_address`,
    sql`INSERT INTO r_pages (tkey, page_key, host, path, target_url, backlinks_count, domains_count, first_seen_at, last_seen_at)
      SELECT ${key}, l.target_host || l.target_path, l.target_host, l.target_path, min(l.target_url), count(*),
        count(DISTINCT l.source_domain), ${raw(firstLast)}
      FROM links l WHERE ${where} GROUP BY ${key}, l.target_host, l.target_path`,
    sql`INSERT INTO r_anchors (tkey, anchor, backlinks_count, domains_count, first_seen_at, last_seen_at)
      SELECT ${key}, l.anchor, count(*), count(DISTINCT l.source_domain), ${raw(firstLast)}
      FROM links l WHERE ${where} GROUP BY ${key}, l.anchor`,
  ];
}

/** What the history needs of one link, with its target's host and path. */
interface HistorySource {
  readonly first_seen_at: string;
  readonly last_seen_at: string;
  readonly is_lost: boolean | number;
  readonly is_nofollow: boolean | number;
  readonly source_domain: string;
  readonly target_host: string;
  readonly target_path: string;
}

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

/** The history rows of every key of one registrable domain's links. */
function domainHistory(domain: string, links: readonly HistorySource[]): HistoryRow[] {
  const byKey = new Map<string, HistorySource[]>();
  const push = (key: string, link: HistorySource) => {
    let list = byKey.get(key);
    if (!list) byKey.set(key, (list = []));
    list.push(link);
  };
  for (const link of links) {
    push(`d:${domain}`, link);
    push(`h:${link.target_host}`, link);
    push(`p:${link.target_host}${link.target_path}`, link);
  }
  return [...byKey].flatMap(([key, list]) => historyRows(key, list));
}

const HISTORY_BATCH = 500;

function historyInserts(rows: readonly HistoryRow[]): Fragment[] {
  const statements: Fragment[] = [];
  for (let i = 0; i < rows.length; i += HISTORY_BATCH) {
    const values = rows
      .slice(i, i + HISTORY_BATCH)
      .map((r) => sql`(${r.tkey}, ${r.month}, ${r.backlinks_count}, ${r.domains_count}, ${r.follows_count})`);
    statements.push(sql`INSERT INTO r_history (tkey, month, backlinks_count, domains_count, follows_count) VALUES ${join(values, ', ')}`);
  }
  return statements;
}

const HISTORY_COLUMNS = raw('l.first_seen_at, l.last_seen_at, l.is_lost, l.is_nofollow, l.source_domain, l.target_host, l.target_path');

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
  if (domains === 'all') {
    const statements = [...ROLLUP_TABLES.map((table) => raw(`DELETE FROM ${table}`)), ...LEVELS.flatMap((key) => levelStatements(key, raw('1 = 1')))];
    await connection.transaction(statements);
    const all = await connection.all<{ tdomain: string }>(sql`SELECT tdomain FROM r_targets WHERE tkey LIKE 'd:%' ORDER BY tdomain`);
    await refreshHistory(connection, all.map((row) => row.tdomain), false, onProgress);
    return;
  }
  await refreshHistory(connection, domains, true, onProgress);
}

async function refreshHistory(
  connection: SqlConnection,
  domains: readonly string[],
  withRollups: boolean,
  onProgress?: (done: number, total: number) => void,
): Promise<void> {
  let done = 0;
  for (const domain of domains) {
    const links = await connection.all<HistorySource>(sql`SELECT ${HISTORY_COLUMNS} FROM links l WHERE l.target_domain = ${domain}`);
    const own = (table: string) => sql`DELETE FROM ${raw(table)} WHERE tkey IN (SELECT tkey FROM r_targets WHERE tdomain = ${domain})`;
    const statements: Fragment[] = withRollups
      ? [
          ...ROLLUP_TABLES.filter((table) => table !== 'r_targets').map(own),
          sql`DELETE FROM r_targets WHERE tdomain = ${domain}`,
          ...LEVELS.flatMap((key) => levelStatements(key, sql`l.target_domain = ${domain}`)),
        ]
      : [own('r_history')];
    statements.push(...historyInserts(domainHistory(domain, links)));
    await connection.transaction(statements);
    onProgress?.(++done, domains.length);
  }
}
