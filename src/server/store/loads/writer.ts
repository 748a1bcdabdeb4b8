/**
 * The bulk writer shared by every store: derives a link's stored columns once, upserts rows in
 * multi-row statements (`INSERT ... ON CONFLICT ... DO UPDATE`, which SQLite and PostgreSQL both
 * speak), remembers which registrable domains it touched, and recomputes their rollups at the end:
 * the domains of the links and target pages it wrote, and every domain a referring domain it
 * rewrote links to (the rollups keep that domain's IP, country and score).
 * An engine may pass a faster way to write links (PostgreSQL's COPY) and keyword snapshots.
 *
 * @module
 * @internal
 */
import type { DomainParser } from '../../deps.js';
import { LINK_COLUMNS, linkRow, pageParts, type DomainInput, type KeywordSnapshotInput, type LinkRow } from '../inputs.js';
import { normalizeKeyword } from '../shared.js';
import type { GraphWriter, LoadStats } from '../store.js';
import type { SqlConnection } from '../connection.js';
import { join, raw, sql, type Fragment } from '../fragment.js';
import { refreshRollups } from './rollups.js';

/** Rows per multi-row statement (32 link columns x 400 stays under every engine's parameter limit). */
const ROWS_PER_STATEMENT = 400;

/** A multi-row upsert: `conflict` names the key, every other column takes the new value; within one call the later row of a key wins. */
export function upsert(table: string, columns: readonly string[], conflict: readonly string[], input: readonly (readonly unknown[])[]): Fragment[] {
  // One statement may not name a key twice on PostgreSQL ("cannot affect row a second time"):
  // the later row wins, as it would in separate statements.
  const at = conflict.map((c) => columns.indexOf(c));
  const byKey = new Map<string, readonly unknown[]>();
  for (const row of input) byKey.set(at.map((i) => String(row[i])).join('\u0000'), row);
  const rows = byKey.size === input.length ? input : [...byKey.values()];
  const updates = columns.filter((c) => !conflict.includes(c)).map((c) => `${c} = excluded.${c}`);
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const statements: Fragment[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const batch = rows.slice(i, i + ROWS_PER_STATEMENT);
    statements.push({
      sql: `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${batch.map(() => tuple).join(', ')}
        ON CONFLICT (${conflict.join(', ')}) DO UPDATE SET ${updates.join(', ')}`,
      params: batch.flat(),
    });
  }
  return statements;
}

/**
 * Writes stored links (an engine's fast path, or the shared upsert); may return the registrable
 * domains whose links it inserted or changed (the others' rollups need no refresh), otherwise every
 * written link's domain counts as changed.
 */
export type LinkSink = (rows: readonly LinkRow[]) => Promise<void | Iterable<string>>;

/**
 * The shared upsert of links over a connection.
 *
 * @example
 * ```ts
 * await upsertLinks(connection)(rows);
 * ```
 */
export const upsertLinks =
  (connection: SqlConnection): LinkSink =>
  (rows) =>
    connection.transaction(upsert('links', LINK_COLUMNS, ['link_key'], rows.map((row) => row.values)));

/** The columns of `keyword_metrics`, in the order of {@link keywordRow}'s values. */
export const KEYWORD_COLUMNS = [
  'keyword', 'country', 'month', 'snapshot_at', 'search_volume', 'cpc', 'competitive_density', 'keyword_difficulty', 'number_of_results', 'intents', 'serp_features', 'trends',
] as const;

/** The key of a keyword snapshot: a later snapshot of the same key replaces it. */
export const KEYWORD_KEY = ['keyword', 'country', 'month', 'snapshot_at'] as const;

/**
 * A keyword snapshot's stored values, in the order of {@link KEYWORD_COLUMNS}.
 *
 * @example
 * ```ts
 * keywordRow(snapshot)[0]; // its keyword, normalized
 * ```
 */
export function keywordRow(s: KeywordSnapshotInput): unknown[] {
  return [
    normalizeKeyword(s.keyword), s.country, s.month, s.snapshot_at, s.search_volume, s.cpc, s.competitive_density, s.keyword_difficulty,
    s.number_of_results, JSON.stringify(s.intents), JSON.stringify(s.serp_features), JSON.stringify(s.trends),
  ];
}

/** Writes stored keyword snapshots ({@link keywordRow}s): an engine's faster way, or the shared upsert. Within one call the later row of a key wins. */
export type KeywordSink = (rows: readonly (readonly unknown[])[]) => Promise<void>;

/**
 * The shared upsert of keyword snapshots over a connection.
 *
 * @example
 * ```ts
 * await upsertKeywords(connection)([keywordRow(snapshot)]);
 * ```
 */
export const upsertKeywords =
  (connection: SqlConnection): KeywordSink =>
  (rows) =>
    connection.transaction(upsert('keyword_metrics', KEYWORD_COLUMNS, KEYWORD_KEY, rows));

/** How a store that keeps some rollups elsewhere refreshes them (see `createSqlStore`'s `refresh`). */
export interface RefreshOptions {
  /** Refreshes the rollups of the given domains (`'all'`: every one, from scratch) itself (default: `refreshRollups` over the connection). */
  readonly rollups?: (domains: readonly string[] | 'all', onProgress?: (done: number, total: number) => void) => Promise<void>;
  /** The registrable domains the given referring domains link to (default: read from `r_ref_domains` over the connection). */
  readonly linkedFrom?: (sources: readonly string[]) => Promise<string[]>;
}

/**
 * A {@link GraphWriter} over a connection.
 *
 * @example
 * ```ts
 * const writer = createGraphWriter(connection, tldts);
 * ```
 */
export function createGraphWriter(
  connection: SqlConnection,
  parser: DomainParser,
  writeLinks: LinkSink = upsertLinks(connection),
  refresh: RefreshOptions = {},
  writeKeywords: KeywordSink = upsertKeywords(connection),
): GraphWriter {
  const touched = new Set<string>();
  const sources = new Set<string>();
  let written = 0;
  return {
    domains: async (input, options = {}) => {
      // Kept records change nothing: only the domains written need their targets' rollups refreshed.
      const rows = options.keep ? await withoutRecord(connection, 'domains', input) : input;
      const values = rows.map((d) => [d.domain, d.ip_address, d.country, d.domain_score]);
      await connection.transaction(upsert('domains', ['domain', 'ip_address', 'country', 'domain_score'], ['domain'], values));
      for (const row of rows) sources.add(row.domain);
    },
    pages: async (rows) => {
      await connection.transaction(
        upsert(
          'target_pages',
          ['host', 'path', 'url', 'title', 'response_code', 'page_score', 'external_links_count', 'internal_links_count'],
          ['host', 'path'],
          rows.map((p) => {
            const { host, path, domain } = pageParts(p, parser);
            // The rollups of the page's domain show the page's own data.
            touched.add(domain);
            return [host, path, p.url, p.title, p.response_code, p.page_score, p.external_links_count, p.internal_links_count];
          }),
        ),
      );
    },
    keywords: (rows) => writeKeywords(rows.map(keywordRow)),
    links: async (rows) => {
      const stored = rows.map((link) => linkRow(link, parser));
      // Two records with the same identity in one batch: the later one wins, as in separate batches.
      const unique = new Map(stored.map((row) => [row.key.toString('base64'), row]));
      const changed = await writeLinks([...unique.values()]);
      for (const domain of changed ?? stored.map((row) => row.targetDomain)) touched.add(domain);
      written += rows.length;
    },
    finish: async (options = {}): Promise<LoadStats> => {
      if (!options.all) for (const domain of await (refresh.linkedFrom ?? ((list) => linkedFrom(connection, list)))([...sources])) touched.add(domain);
      const domains = [...touched].sort();
      const target = options.all ? 'all' : domains;
      await (refresh.rollups ? refresh.rollups(target, options.onProgress) : refreshRollups(connection, target, options.onProgress));
      touched.clear();
      sources.clear();
      return { links: written, domains: domains.length };
    },
  };
}

/** Source domains per lookup (one bound value each). */
const SOURCES_PER_LOOKUP = 500;

/**
 * The domains of `rows` that have no record yet in `table` (`domains`; a ClickHouse shard's
 * `domains_local`), for `GraphWriter.domains` with `keep`.
 *
 * @example
 * ```ts
 * await withoutRecord(connection, 'domains', rows); // the rows whose domain is not in the table
 * ```
 */
export async function withoutRecord(
  reader: { all<Row>(query: Fragment): Promise<Row[]> },
  table: 'domains' | 'domains_local',
  rows: readonly DomainInput[],
): Promise<readonly DomainInput[]> {
  const known = new Set<string>();
  for (let i = 0; i < rows.length; i += SOURCES_PER_LOOKUP) {
    const batch = rows.slice(i, i + SOURCES_PER_LOOKUP);
    const found = await reader.all<{ domain: string }>(sql`SELECT domain FROM ${raw(table)} WHERE domain IN (${join(batch.map((row) => sql`${row.domain}`), ', ')})`);
    for (const row of found) known.add(row.domain);
  }
  return known.size === 0 ? rows : rows.filter((row) => !known.has(row.domain));
}

/**
 * The registrable domains that the given source domains link to, read from the rollups.
 *
 * @example
 * ```ts
 * await linkedFrom(connection, ['referrer.test']); // ['example.com', ...]
 * ```
 */
export async function linkedFrom(connection: SqlConnection, sources: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (let i = 0; i < sources.length; i += SOURCES_PER_LOOKUP) {
    const batch = sources.slice(i, i + SOURCES_PER_LOOKUP);
    const rows = await connection.all<{ tdomain: string }>(
      sql`SELECT DISTINCT t.tdomain FROM r_ref_domains r JOIN r_targets t ON t.tkey = r.tkey
        WHERE r.source_domain IN (${join(batch.map((source) => sql`${source}`), ', ')})`,
    );
    for (const row of rows) found.add(row.tdomain);
  }
  return [...found];
}
